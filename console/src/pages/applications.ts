// Applications and API keys: which keys are bound where; owners and admins bind and unbind.
import { api, canWrite } from '../api';
import { badge, formatTime, h } from '../dom';
import { PAGE_SIZE, act, dataTable, loadInto, main, pager } from '../widgets';

interface ApplicationsPage {
  data: { id: string; name: string; created_at: string; api_key_ids: string[] }[];
  keys: {
    id: string;
    name: string;
    permissions: string[];
    system: boolean;
    revoked: boolean;
    application_id: string | null;
  }[];
  offset: number;
  has_more: boolean;
}

export function applicationsPage(offset = 0): void {
  document.title = 'Applications — Console';
  const lists = h('div', {});
  const load = () =>
    loadInto(lists, async () => {
      const page = await api<ApplicationsPage>(
        'GET',
        `/connectors/v1/applications?limit=${PAGE_SIZE}&offset=${offset}`,
      );
      return h(
        'div',
        {},
        h('h2', {}, 'Applications'),
        applicationsTable(page),
        pager(
          { offset, hasMore: page.has_more, count: page.data.length },
          applicationsPage,
          'Applications pages',
        ),
        h('h2', {}, 'API keys'),
        keysTable(page),
      );
    });
  main().replaceChildren(
    h('h1', {}, 'Applications and keys'),
    ...(canWrite() ? [bindingForm(load)] : []),
    lists,
  );
  void load();
}

function applicationsTable(page: ApplicationsPage): HTMLElement {
  if (page.data.length === 0)
    return h('p', { class: 'empty' }, 'No applications yet (npm run admin -- create-app).');
  const keyName = new Map(page.keys.map((k) => [k.id, k.name]));
  return dataTable(
    'Applications',
    ['Application', 'Id', 'Bound keys', 'Created'],
    page.data.map((a) =>
      h(
        'tr',
        {},
        h('td', {}, a.name),
        h('td', {}, h('code', {}, a.id)),
        h(
          'td',
          {},
          a.api_key_ids.length
            ? a.api_key_ids.map((id) => `${keyName.get(id) ?? id} (${id})`).join(', ')
            : '—',
        ),
        h('td', {}, formatTime(a.created_at)),
      ),
    ),
  );
}

function keysTable(page: ApplicationsPage): HTMLElement {
  return dataTable(
    'API keys',
    ['Key', 'Id', 'Permissions', 'Bound to', 'State'],
    page.keys.map((k) =>
      h(
        'tr',
        {},
        h('td', {}, k.name),
        h('td', {}, h('code', {}, k.id)),
        h('td', {}, k.system ? 'system' : k.permissions.join(', ')),
        h('td', {}, k.application_id ?? '—'),
        h('td', {}, k.revoked ? badge('revoked', 'neutral') : badge('active', 'ok')),
      ),
    ),
  );
}

/** Bind (PUT) or unbind (DELETE) a key by the two ids. */
function bindingForm(reload: () => Promise<void>): HTMLElement {
  const key = h('input', { id: 'bind-key', type: 'text', autocomplete: 'off' });
  const app = h('input', { id: 'bind-app', type: 'text', autocomplete: 'off' });
  const path = () =>
    `/connectors/v1/applications/${encodeURIComponent(app.value.trim())}/keys/${encodeURIComponent(key.value.trim())}`;
  const form = h(
    'form',
    { class: 'card' },
    h('h2', {}, 'Bind an API key to an application'),
    h('label', { for: 'bind-app' }, 'Application id'),
    app,
    h('label', { for: 'bind-key' }, 'API key id'),
    key,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit' }, 'Bind'),
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          onclick: () =>
            void act('Key unbound', async () => {
              await api('DELETE', path());
              await reload();
            }),
        },
        'Unbind',
      ),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void act('Key bound', async () => {
      await api('PUT', path());
      await reload();
    });
  });
  return form;
}
