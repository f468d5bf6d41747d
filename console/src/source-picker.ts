// Browsing a connection's provider to choose a container (a matter, a folder): GET
// /connectors/v1/connections/{id}/sources, opened level by level (a breadcrumb leads back), files shown
// for orientation, "Load more" while the provider has a next page. Used for an import link's source and
// for an export's destination.
import { api } from './api';
import type { SourceEntry } from './connectors';
import { bytes } from './connectors';
import { h } from './dom';
import { errorState } from './widgets';

export interface SourcePicker {
  element: HTMLElement;
  /** The container chosen, if any. */
  chosen(): SourceEntry | undefined;
}

interface Level {
  id?: string;
  name: string;
}

/**
 * A picker over `connectionId`'s provider. `name` prefixes element ids (two pickers may share a page)
 * and labels the group.
 */
export function sourcePicker(connectionId: string, name: string, label: string): SourcePicker {
  let path: Level[] = [{ name: 'Top level' }];
  let chosen: SourceEntry | undefined;
  const trail = h('nav', { class: 'breadcrumb', 'aria-label': `${label}: location` });
  const choice = h(
    'p',
    { class: 'choice', 'aria-live': 'polite', id: `${name}-choice` },
    'Nothing chosen yet.',
  );
  const list = h('ul', { class: 'entries', tabindex: '-1', 'aria-label': `${label}: contents` });
  const more = h('div', {});
  const element = h(
    'div',
    { class: 'picker', role: 'group', 'aria-label': label, 'aria-describedby': `${name}-choice` },
    trail,
    list,
    more,
    choice,
  );

  const choose = (entry: SourceEntry) => {
    chosen = entry;
    choice.replaceChildren('Chosen: ', h('strong', {}, entry.name), ' ', h('code', {}, entry.id));
    for (const button of list.querySelectorAll<HTMLButtonElement>('button[data-choose]'))
      button.setAttribute('aria-pressed', String(button.dataset.choose === entry.id));
  };

  const entryItem = (entry: SourceEntry) =>
    h(
      'li',
      { class: `entry entry-${entry.kind}` },
      h('span', { class: 'kind' }, entry.kind === 'container' ? 'Folder' : 'File'),
      h('span', { class: 'name' }, entry.name),
      entry.kind === 'file'
        ? h(
            'span',
            { class: 'help' },
            [bytes(entry.size), entry.version ? `v${entry.version}` : ''].join(' '),
          )
        : null,
      entry.kind === 'container'
        ? h(
            'span',
            { class: 'actions' },
            h(
              'button',
              { type: 'button', class: 'secondary', onclick: () => void open([...path, entry]) },
              'Open',
              h('span', { class: 'visually-hidden' }, ` ${entry.name}`),
            ),
            h(
              'button',
              {
                type: 'button',
                class: 'secondary',
                'data-choose': entry.id,
                'aria-pressed': String(chosen?.id === entry.id),
                onclick: () => choose(entry),
              },
              'Choose',
              h('span', { class: 'visually-hidden' }, ` ${entry.name}`),
            ),
          )
        : null,
    );

  const renderTrail = () =>
    trail.replaceChildren(
      ...path.map((level, i) =>
        i === path.length - 1
          ? h('span', { 'aria-current': 'location' }, level.name)
          : h(
              'button',
              { type: 'button', class: 'link', onclick: () => void open(path.slice(0, i + 1)) },
              level.name,
            ),
      ),
    );

  /** One page of the current level, appended; "Load more" while there is a next page. */
  const loadPage = async (pageToken?: string): Promise<void> => {
    const parent = path[path.length - 1]!.id;
    const query = new URLSearchParams();
    if (parent) query.set('parent', parent);
    if (pageToken) query.set('page_token', pageToken);
    more.replaceChildren(h('p', { class: 'loading', role: 'status' }, 'Loading…'));
    try {
      const page = await api<{ data: SourceEntry[]; next_page_token: string | null }>(
        'GET',
        `/connectors/v1/connections/${encodeURIComponent(connectionId)}/sources?${query}`,
      );
      list.append(...page.data.map(entryItem));
      if (!pageToken && page.data.length === 0) list.append(h('li', { class: 'empty' }, 'Nothing here.'));
      more.replaceChildren(
        page.next_page_token
          ? h(
              'button',
              {
                type: 'button',
                class: 'secondary',
                onclick: () => {
                  const before = list.children.length;
                  void loadPage(page.next_page_token!).then(() => focusEntry(before));
                },
              },
              'Load more',
            )
          : '',
      );
    } catch (error) {
      more.replaceChildren(errorState(error));
    }
  };

  /** Keyboard users land on the first entry "Load more" added (its first button, else the list). */
  const focusEntry = (index: number) => {
    const added = list.children[index];
    (added?.querySelector<HTMLButtonElement>('button') ?? list).focus();
  };

  const open = async (next: Level[]): Promise<void> => {
    path = next;
    renderTrail();
    list.replaceChildren();
    await loadPage();
    if (next.length > 1) list.focus();
  };

  void open(path);
  return { element, chosen: () => chosen };
}
