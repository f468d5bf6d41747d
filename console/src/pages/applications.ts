// Applications and API keys: which keys are bound where; owners and admins bind and unbind by picking
// an application and a key (no ids to type), and every id has a copy button.
import { ApiFailure, api, canWrite } from '../api';
import { announce, badge, copyable, h, when } from '../dom';
import { PAGE_SIZE, dataTable, fieldErrors, loadInto, main, pager, userMessage } from '../widgets';

interface Application {
  id: string;
  name: string;
  created_at: string;
  api_key_ids: string[];
}
interface ApiKey {
  id: string;
  name: string;
  permissions: string[];
  system: boolean;
  revoked: boolean;
  application_id: string | null;
}
interface ApplicationsPage {
  data: Application[];
  keys: ApiKey[];
  offset: number;
  has_more: boolean;
}

export function applicationsPage(offset = 0): void {
  document.title = 'Applications — Console';
  const lists = h('div', {});
  const binding = h('div', {});
  let keysOffset = 0;
  const load = () =>
    loadInto(lists, async () => {
      const page = await api<ApplicationsPage>(
        'GET',
        `/connectors/v1/applications?limit=${PAGE_SIZE}&offset=${offset}`,
      );
      if (canWrite()) binding.replaceChildren(bindingForm(page, load));
      const keys = h('div', {});
      const drawKeys = () =>
        keys.replaceChildren(
          keysTable(page, page.keys.slice(keysOffset, keysOffset + PAGE_SIZE)),
          pager(
            {
              offset: keysOffset,
              hasMore: keysOffset + PAGE_SIZE < page.keys.length,
              count: Math.min(PAGE_SIZE, page.keys.length - keysOffset),
            },
            (next) => {
              keysOffset = next;
              drawKeys();
            },
            'API keys pages',
          ) ?? '',
        );
      drawKeys();
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
        keys,
      );
    });
  main().replaceChildren(h('h1', {}, 'Applications and keys'), binding, lists);
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
        h('td', {}, copyable(a.id, 'application id')),
        h(
          'td',
          {},
          a.api_key_ids.length
            ? a.api_key_ids.map((id) => `${keyName.get(id) ?? id} (${id})`).join(', ')
            : '—',
        ),
        h('td', {}, when(a.created_at)),
      ),
    ),
  );
}

function keysTable(page: ApplicationsPage, keys: ApiKey[]): HTMLElement {
  const appName = new Map(page.data.map((a) => [a.id, a.name]));
  return dataTable(
    'API keys',
    ['Key', 'Id', 'Permissions', 'Bound to', 'State'],
    keys.map((k) =>
      h(
        'tr',
        {},
        h('td', {}, k.name),
        h('td', {}, copyable(k.id, 'key id')),
        h('td', {}, k.system ? 'system' : k.permissions.join(', ')),
        h(
          'td',
          {},
          k.application_id ? `${appName.get(k.application_id) ?? ''} (${k.application_id})`.trim() : '—',
        ),
        h('td', {}, k.revoked ? badge('revoked', 'neutral') : badge('active', 'ok')),
      ),
    ),
  );
}

/** Bind (PUT) or unbind (DELETE) a key picked from the lists; what cannot work is said before sending. */
function bindingForm(page: ApplicationsPage, reload: () => Promise<void>): HTMLElement {
  const bindable = page.keys.filter((k) => !k.system && !k.revoked);
  const app = h(
    'select',
    { id: 'bind-app' },
    h('option', { value: '' }, 'Choose an application'),
    page.data.map((a) => h('option', { value: a.id }, `${a.name} (${a.id})`)),
  );
  const key = h(
    'select',
    { id: 'bind-key' },
    h('option', { value: '' }, 'Choose an API key'),
    bindable.map((k) =>
      h(
        'option',
        { value: k.id },
        `${k.name} (${k.id})${k.application_id ? ` — bound to ${page.data.find((a) => a.id === k.application_id)?.name ?? k.application_id}` : ''}`,
      ),
    ),
  );
  const form = h(
    'form',
    { class: 'card', novalidate: true, 'aria-labelledby': 'bind-title' },
    h('h2', { id: 'bind-title' }, 'Bind an API key to an application'),
    h('label', { for: 'bind-app' }, 'Application'),
    app,
    h('label', { for: 'bind-key' }, 'API key'),
    key,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', value: 'bind' }, 'Bind'),
      h('button', { type: 'submit', class: 'secondary', value: 'unbind' }, 'Unbind'),
    ),
  );
  const errors = fieldErrors(form);
  const appName = (id: string | null) => page.data.find((a) => a.id === id)?.name ?? id ?? '';
  const boundElsewhere = (name: string) =>
    errors.mark(key, `This key is bound to ${name}: unbind it there first.`);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const unbind = (event as SubmitEvent).submitter?.getAttribute('value') === 'unbind';
    errors.clear();
    if (!app.value) errors.mark(app, 'Choose the application.');
    if (!key.value) errors.mark(key, 'Choose the API key.');
    if (!errors.ok()) return;
    const chosen = bindable.find((k) => k.id === key.value)!;
    if (!unbind && chosen.application_id && chosen.application_id !== app.value) {
      boundElsewhere(appName(chosen.application_id));
      return;
    }
    if (unbind && chosen.application_id !== app.value) {
      errors.mark(key, `This key is not bound to ${appName(app.value)}.`);
      return;
    }
    const path = `/connectors/v1/applications/${encodeURIComponent(app.value)}/keys/${encodeURIComponent(key.value)}`;
    void (async () => {
      try {
        await api(unbind ? 'DELETE' : 'PUT', path);
      } catch (error) {
        // Bound elsewhere since this page was drawn: the API's 409 names that application by its id;
        // the field names it as the page does, read afresh.
        const holder =
          !unbind && error instanceof ApiFailure && error.error.status === 409
            ? await boundApplication(key.value).catch(() => undefined)
            : undefined;
        if (holder) boundElsewhere(holder);
        else announce(userMessage(error), 'bad');
        return;
      }
      await reload();
      announce(unbind ? 'Key unbound' : 'Key bound');
    })();
  });
  return form;
}

/** The application `keyId` is bound to now, by name (by id when it is past the first 200). */
async function boundApplication(keyId: string): Promise<string | undefined> {
  const fresh = await api<ApplicationsPage>('GET', '/connectors/v1/applications?limit=200');
  const holder = fresh.keys.find((k) => k.id === keyId)?.application_id;
  if (!holder) return undefined;
  const named = fresh.data.find((a) => a.id === holder);
  return named ? `${named.name} (${holder})` : holder;
}
