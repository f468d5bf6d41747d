// The shared pieces every page is made of: the main region, error and loading states, actions that
// report their outcome, pagination and the once-only secret panel.
import { ApiFailure, currentSession } from './api';
import { announce, h } from './dom';

export const PAGE_SIZE = 20;

export const main = () => document.getElementById('main')!;

/** Focus on the page's heading (after an action redraws the page, or on a new page). */
export function focusHeading(): void {
  const heading = main().querySelector<HTMLElement>('h1');
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus();
}

/**
 * What the user reads when a call fails: the API's message, except where it speaks of the machinery
 * (the caller as "this key", a route that does not exist) rather than of what the user did.
 */
export function userMessage(error: unknown): string {
  if (!(error instanceof ApiFailure)) return 'Something went wrong in the console; reload the page.';
  const { code, message, status } = error.error;
  if (code === 'PERMISSION_DENIED')
    return `Your role (${currentSession()?.role ?? 'signed out'}) does not allow this.`;
  if (/^No route for /.test(message) || status === 404)
    return 'Not found: it may have been deleted, or the link is wrong.';
  if (status === 0) return message;
  if (status >= 500) return 'The service failed to answer; try again in a moment.';
  return message.replace(/\bthis key\b/gi, 'your session');
}

export function errorState(error: unknown): HTMLElement {
  return h('div', { class: 'notice notice-bad', role: 'alert', tabindex: '-1' }, userMessage(error));
}

/** Runs an action; shows what went wrong in the user's words rather than failing silently. */
export async function act(label: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
    announce(label);
  } catch (error) {
    announce(userMessage(error), 'bad');
  }
}

/** Asks before an action that cannot be undone, or that changes what others rely on. */
export const confirmed = (question: string): boolean => window.confirm(question);

/**
 * A form's field errors: each marks its field (aria-invalid, a message under it, described by it) and
 * the first one takes focus. `clear` removes them before the next check.
 */
export function fieldErrors(form: HTMLElement) {
  const clear = () => {
    for (const note of form.querySelectorAll('.field-error')) note.remove();
    for (const field of form.querySelectorAll<HTMLElement>('[aria-invalid]')) {
      field.removeAttribute('aria-invalid');
      const ids = (field.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .filter((id) => id && !id.endsWith('-error'));
      if (ids.length) field.setAttribute('aria-describedby', ids.join(' '));
      else field.removeAttribute('aria-describedby');
    }
  };
  let first: HTMLElement | undefined;
  const mark = (field: HTMLElement, message: string) => {
    const id = `${field.id}-error`;
    field.setAttribute('aria-invalid', 'true');
    field.setAttribute(
      'aria-describedby',
      [field.getAttribute('aria-describedby'), id].filter(Boolean).join(' '),
    );
    // After the field, or after its group (a fieldset of checkboxes).
    field.insertAdjacentElement('afterend', h('p', { id, class: 'field-error' }, message));
    if (!first) {
      first = field;
      field.focus();
    }
  };
  return {
    clear: () => {
      clear();
      first = undefined;
    },
    mark,
    /** True when nothing was marked since the last clear. */
    ok: () => first === undefined,
  };
}

/**
 * An API refusal shown on the form: the field its message names ("url: must be …") is marked, anything
 * else becomes the form's alert, which takes focus.
 */
export function formFailure(
  error: unknown,
  fields: Record<string, HTMLElement>,
  errors: ReturnType<typeof fieldErrors>,
  result: HTMLElement,
): void {
  const message = userMessage(error);
  const named = /^([\w.[\]]+): (.+)$/.exec(message);
  const field = named ? fields[named[1]!.split(/[.[]/)[0]!] : undefined;
  if (field && named) {
    result.replaceChildren();
    errors.mark(field, named[2]!);
    return;
  }
  const alert = errorState(error);
  result.replaceChildren(alert);
  alert.focus();
}

/**
 * Calls `refresh` every `ms` while `element` is in the page and the tab is visible, and at once when the
 * tab becomes visible again; stops for good once `element` leaves the page.
 */
export function autoRefresh(element: HTMLElement, ms: number, refresh: () => void): void {
  let started = false;
  const tick = () => {
    if (!element.isConnected) {
      if (started) stop();
      return;
    }
    started = true;
    if (document.visibilityState === 'visible') refresh();
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') tick();
  };
  const timer = setInterval(tick, ms);
  document.addEventListener('visibilitychange', onVisible);
  const stop = () => {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisible);
  };
}

/**
 * True while the user is working inside `container` (typing in a field of it, a row's detail open):
 * no redraw then. Focus on a button is no reason to wait: a quiet redraw puts it back.
 */
export const busy = (container: HTMLElement): boolean =>
  container.querySelector('[aria-expanded="true"]') !== null ||
  (container.contains(document.activeElement) &&
    /^(INPUT|SELECT|TEXTAREA)$/.test(document.activeElement?.tagName ?? ''));

interface FocusKey {
  row: string;
  text: string;
}

/** What identifies the focused control in `container`: its row's data attributes and its text. */
function focusKey(container: HTMLElement): FocusKey | undefined {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || !container.contains(active)) return undefined;
  const row = active.closest('tr');
  const attrs = row ? [...row.attributes].filter((a) => a.name.startsWith('data-')) : [];
  return { row: attrs.map((a) => `[${a.name}="${a.value}"]`).join(''), text: active.textContent ?? '' };
}

function refocus(container: HTMLElement, key: FocusKey): void {
  const scope = key.row ? container.querySelector(`tr${key.row}`) : container;
  const match = [...(scope?.querySelectorAll<HTMLElement>('button, a, input, select') ?? [])].find(
    (element) => element.textContent === key.text,
  );
  match?.focus();
}

/**
 * Previous/Next over a list of `limit`/`offset` pages; nothing when everything fits on the first page.
 * `count` (the items on this page) makes the range exact; `label` tells several pagers apart.
 */
export function pager(
  page: { offset: number; hasMore: boolean; count?: number },
  go: (offset: number) => void,
  label = 'Pagination',
): HTMLElement | null {
  if (page.offset === 0 && !page.hasMore) return null;
  const last = page.offset + (page.count ?? PAGE_SIZE);
  return h(
    'nav',
    { class: 'pager', 'aria-label': label },
    h(
      'button',
      {
        type: 'button',
        disabled: page.offset === 0,
        onclick: () => go(Math.max(0, page.offset - PAGE_SIZE)),
      },
      'Previous',
    ),
    h('span', {}, `Items ${page.offset + 1}–${last}`),
    h(
      'button',
      { type: 'button', disabled: !page.hasMore, onclick: () => go(page.offset + PAGE_SIZE) },
      'Next',
    ),
  );
}

/**
 * A section that loads, then shows content, an empty message or the error. `quiet` (an automatic
 * refresh): no loading state, and the content stays as it was when the refresh fails.
 */
export async function loadInto(
  container: HTMLElement,
  load: () => Promise<Node>,
  options: { quiet?: boolean } = {},
): Promise<void> {
  if (!options.quiet) container.replaceChildren(h('p', { class: 'loading', role: 'status' }, 'Loading…'));
  try {
    const content = await load();
    // A quiet redraw keeps focus where it was: the same control of the same row, found again.
    const was = options.quiet ? focusKey(container) : undefined;
    container.replaceChildren(content);
    if (was) refocus(container, was);
  } catch (error) {
    if (!options.quiet) container.replaceChildren(errorState(error));
  }
}

export function secretPanel(title: string, secret: string): HTMLElement {
  const copy = h('button', { type: 'button', class: 'secondary' }, 'Copy');
  copy.addEventListener('click', () => {
    void navigator.clipboard?.writeText(secret).then(
      () => announce('Secret copied to the clipboard'),
      () => announce('Copy failed: select the secret and copy it by hand', 'bad'),
    );
  });
  return h(
    'div',
    { class: 'secret', role: 'region', 'aria-label': title },
    h('h2', {}, title),
    h('p', {}, 'Shown this once: store it now. It cannot be shown again.'),
    h('code', { 'data-testid': 'secret' }, secret),
    copy,
  );
}

/** A table with a caption for screen readers (`visibleCaption` shows it), column headers and rows. */
export function dataTable(
  caption: string,
  columns: string[],
  rows: Node[],
  options: { class?: string; visibleCaption?: boolean } = {},
): HTMLTableElement {
  // Narrow screens show each row as a card: every cell names its column (console.css).
  for (const row of rows) {
    if (!(row instanceof HTMLTableRowElement)) continue;
    [...row.cells].forEach((cell, i) => {
      if (columns[i] && cell.colSpan === 1) cell.dataset.label = columns[i];
    });
  }
  return h(
    'table',
    { class: options.class },
    h('caption', { class: options.visibleCaption ? undefined : 'visually-hidden' }, caption),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        columns.map((c) => h('th', { scope: 'col' }, c)),
      ),
    ),
    h('tbody', {}, rows),
  );
}
