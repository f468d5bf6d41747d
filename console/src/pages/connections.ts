// Connections: the list with its filters, starting a connection, the organization-wide provider switch.
import { api, canWrite } from '../api';
import type { Connection } from '../connectors';
import { CONNECTION_STATUSES, PROVIDERS, accountName, connectionTone } from '../connectors';
import { badge, formatTime, h } from '../dom';
import { PAGE_SIZE, act, dataTable, loadInto, main, pager } from '../widgets';

/**
 * Fills a provider select from GET /connectors/v1/providers (the deployment's offered providers, with
 * their display names), keeping what is selected; until it answers, the sandbox's two are there.
 */
function providerOptions(select: HTMLSelectElement, first: HTMLElement[] = []): HTMLSelectElement {
  const fill = (providers: { id: string; display_name: string }[]) => {
    const chosen = select.value;
    select.replaceChildren(...first, ...providers.map((p) => h('option', { value: p.id }, p.display_name)));
    if (providers.some((p) => p.id === chosen)) select.value = chosen;
  };
  fill(PROVIDERS.map((id) => ({ id, display_name: id })));
  void api<{ data: { id: string; display_name: string }[] }>('GET', '/connectors/v1/providers')
    .then((list) => fill(list.data))
    .catch(() => undefined); // the static list stays: the API's own error shows where it is used
  return select;
}

export function connectionsPage(): void {
  document.title = 'Connections — Console';
  let provider = '';
  let status = '';
  let offset = 0;
  const list = h('div', {});
  const providerFilter = providerOptions(h('select', { id: 'filter-provider' }), [
    h('option', { value: '' }, 'All providers'),
  ]);
  const statusFilter = h(
    'select',
    { id: 'filter-status' },
    h('option', { value: '' }, 'All statuses'),
    CONNECTION_STATUSES.map((s) => h('option', { value: s }, s)),
  );
  const load = () =>
    loadInto(list, async () => {
      const query = `limit=${PAGE_SIZE}&offset=${offset}${provider ? `&provider=${provider}` : ''}${status ? `&status=${status}` : ''}`;
      const page = await api<{ data: Connection[]; has_more: boolean; offset: number }>(
        'GET',
        `/connectors/v1/connections?${query}`,
      );
      if (page.data.length === 0) return h('p', { class: 'empty' }, 'No connections match.');
      return h(
        'div',
        {},
        connectionsTable(page.data),
        pager({ offset, hasMore: page.has_more, count: page.data.length }, (next) => {
          offset = next;
          void load();
        }),
      );
    });
  providerFilter.addEventListener('change', () => {
    provider = providerFilter.value;
    offset = 0;
    void load();
  });
  statusFilter.addEventListener('change', () => {
    status = statusFilter.value;
    offset = 0;
    void load();
  });
  main().replaceChildren(
    h('div', { class: 'title-row' }, h('h1', {}, 'Connections')),
    h(
      'div',
      {},
      canWrite() && connectForm(() => void load()),
      canWrite() && providerSwitch(() => void load()),
    ),
    h(
      'div',
      { class: 'filters' },
      h('label', { for: 'filter-provider' }, 'Provider'),
      providerFilter,
      h('label', { for: 'filter-status' }, 'Status'),
      statusFilter,
      h('button', { type: 'button', class: 'secondary', onclick: () => void load() }, 'Refresh'),
    ),
    list,
  );
  void load();
}

function connectionsTable(connections: Connection[]): HTMLElement {
  return dataTable(
    'Connections',
    ['Connection', 'Provider', 'Status', 'Account', 'Updated'],
    connections.map((c) =>
      h(
        'tr',
        {},
        h('td', {}, h('a', { href: `#/connections/${encodeURIComponent(c.id)}` }, c.id)),
        h('td', {}, c.provider, c.enabled ? '' : ' (provider switched off)'),
        h('td', {}, badge(c.status, connectionTone(c.status))),
        h('td', {}, accountName(c)),
        h('td', {}, formatTime(c.updated_at)),
      ),
    ),
  );
}

function connectForm(reload: () => void): HTMLElement {
  const provider = providerOptions(h('select', { id: 'connect-provider' }));
  const form = h(
    'form',
    { class: 'inline card' },
    h('label', { for: 'connect-provider' }, 'Connect a provider'),
    provider,
    h('button', { type: 'submit' }, 'Start connection'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void act('Connect flow opened in a new tab; come back and refresh when it is done', async () => {
      const created = await api<{ connection_id: string; connect_url: string }>(
        'POST',
        '/connectors/v1/connections',
        {
          provider: provider.value,
          return_url: `${location.origin}/console/connected`,
        },
      );
      // A new tab keeps this page (and the session that lives only in its memory) while the user consents.
      window.open(created.connect_url, '_blank');
      reload();
    });
  });
  return form;
}

function providerSwitch(reload: () => void): HTMLElement {
  const provider = providerOptions(h('select', { id: 'switch-provider' }));
  const enabled = h(
    'select',
    { id: 'switch-enabled' },
    h('option', { value: 'false' }, 'switch off'),
    h('option', { value: 'true' }, 'switch on'),
  );
  const form = h(
    'form',
    { class: 'inline card' },
    h('label', { for: 'switch-provider' }, 'Organization-wide'),
    provider,
    h('label', { for: 'switch-enabled' }, 'action'),
    enabled,
    h('button', { type: 'submit', class: 'danger' }, 'Apply to the organization'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const on = enabled.value === 'true';
    if (
      !window.confirm(
        `${on ? 'Switch on' : 'Switch off'} ${provider.value} for every application of the organization?`,
      )
    )
      return;
    void act(`${provider.value} switched ${on ? 'on' : 'off'}`, async () => {
      await api('PATCH', '/connectors/v1/connections', {
        provider: provider.value,
        enabled: on,
        confirm_organization_wide: true,
      });
      reload();
    });
  });
  return form;
}
