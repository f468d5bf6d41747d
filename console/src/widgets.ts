// The shared pieces every page is made of: the main region, error and loading states, actions that
// report their outcome, pagination and the once-only secret panel.
import { ApiFailure } from './api';
import { announce, h } from './dom';

export const PAGE_SIZE = 20;

export const main = () => document.getElementById('main')!;

export function errorState(error: unknown): HTMLElement {
  const message =
    error instanceof ApiFailure ? `${error.error.message} (${error.error.code})` : String(error);
  return h('div', { class: 'notice notice-bad', role: 'alert' }, message);
}

/** Runs an action; shows the API's error message rather than failing silently. */
export async function act(label: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
    announce(label);
  } catch (error) {
    announce(error instanceof ApiFailure ? error.error.message : String(error), 'bad');
  }
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

/** A section that loads, then shows content, an empty message or the error. */
export async function loadInto(container: HTMLElement, load: () => Promise<Node>): Promise<void> {
  container.replaceChildren(h('p', { class: 'loading', role: 'status' }, 'Loading…'));
  try {
    container.replaceChildren(await load());
  } catch (error) {
    container.replaceChildren(errorState(error));
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
    h('h3', {}, title),
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
