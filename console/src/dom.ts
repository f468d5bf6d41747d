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

const LOCAL_TIME = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});

/** A time in the browser's time zone, with the zone named ("23 Nov 2026, 14:05:09 EST"). */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  return LOCAL_TIME.format(new Date(iso));
}

/** The same time in UTC ("2026-11-23 19:05:09 UTC"), shown on hover. */
export function utcTime(iso: string): string {
  return new Date(iso)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
}

/** A <time> in the browser's zone, UTC on hover. */
export function when(iso: string | null | undefined): Node {
  if (!iso) return document.createTextNode('—');
  return h('time', { datetime: iso, title: utcTime(iso) }, formatTime(iso));
}

/** A value (an id) with a button that copies it: every id in the console can be copied. */
export function copyable(value: string, label = 'id'): HTMLElement {
  const button = h(
    'button',
    { type: 'button', class: 'copy', title: `Copy ${label}`, 'aria-label': `Copy ${label} ${value}` },
    'Copy',
  );
  button.addEventListener('click', () => {
    void navigator.clipboard?.writeText(value).then(
      () => announce(`Copied ${value}`),
      () => announce('Copy failed: select the text and copy it by hand', 'bad'),
    );
  });
  return h('span', { class: 'copyable' }, h('code', {}, value), button);
}

let flashed: string | undefined;

/** An outcome to announce on the next page (an action that navigates: a deleted endpoint's list). */
export function flash(message: string): void {
  flashed = message;
}

/** The flashed outcome, once. */
export function takeFlash(): string | undefined {
  const message = flashed;
  flashed = undefined;
  return message;
}

/** A polite live region: screen readers hear outcomes of actions. */
export function announce(message: string, tone: 'ok' | 'bad' = 'ok'): void {
  const region = document.getElementById('status');
  if (!region) return;
  region.className = `notice notice-${tone}`;
  region.textContent = message;
}
