// A few DOM helpers: elements from attributes and children, with text always set as text (never HTML).

type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | boolean | number | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return element;
}

export function badge(text: string, tone: 'ok' | 'warn' | 'bad' | 'neutral'): HTMLElement {
  return h('span', { class: `badge badge-${tone}` }, text);
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
}

/** A polite live region: screen readers hear outcomes of actions. */
export function announce(message: string, tone: 'ok' | 'bad' = 'ok'): void {
  const region = document.getElementById('status');
  if (!region) return;
  region.className = `notice notice-${tone}`;
  region.textContent = message;
}
