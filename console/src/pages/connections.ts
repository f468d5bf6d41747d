// Connections: the list with its filters (kept current while visible, and at once when a connect tab
// ends its flow), starting a connection, reconnecting one, the organization-wide provider switch.
import { api, canWrite } from '../api';
import type { Connection } from '../connectors';
import {
  CONNECTION_STATUSES,
  PROVIDERS,
  abandoned,
  accountName,
  connectionBadge,
  onConnectFlowEnd,
  startConnectFlow,
} from '../connectors';
import { announce, h, when } from '../dom';
import { PAGE_SIZE, act, autoRefresh, busy, confirmed, dataTable, loadInto, main, pager } from '../widgets';

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
    CONNECTION_STATUSES.map((s) => h('option', { value: s }, s.replace(/_/g, ' '))),
  );
  const load = (quiet = false) =>
    loadInto(
      list,
      async () => {
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
      },
      { quiet },
    );
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
      { class: 'forms' },
      canWrite() && connectForm(),
      canWrite() && providerSwitch(() => void load()),
    ),
    h(
      'div',
      { class: 'filters' },
      h('div', {}, h('label', { for: 'filter-provider' }, 'Provider'), providerFilter),
      h('div', {}, h('label', { for: 'filter-status' }, 'Status'), statusFilter),
      h('button', { type: 'button', class: 'secondary', onclick: () => void load() }, 'Refresh'),
    ),
    list,
  );
  void load();
  autoRefresh(list, 10_000, () => {
    if (!busy(list)) void load(true);
  });
  // The connect tab landed on its page: the list shows the outcome now.
  onConnectFlowEnd(list, (end) => {
    announce(
      end.error ? `The connection was not made (${end.error.replace(/_/g, ' ')})` : 'Connection completed',
      end.error ? 'bad' : 'ok',
    );
    void load(true);
  });
}

function connectionsTable(connections: Connection[]): HTMLElement {
  return dataTable(
    'Connections',
    ['Connection', 'Provider', 'Status', 'Account', 'Updated', 'Actions'],
    connections.map((c) =>
      h(
        'tr',
        { 'data-connection': c.id },
        h('td', {}, h('a', { href: `#/connections/${encodeURIComponent(c.id)}` }, c.id)),
        h('td', {}, c.provider, c.enabled ? '' : ' (provider switched off)'),
        h(
          'td',
          {},
          connectionBadge(c),
          abandoned(c)
            ? h('span', { class: 'help' }, ' the connect flow was never completed; start a new connection')
            : c.status === 'pending' && c.pending_until
              ? h('span', { class: 'help' }, ' waiting for consent until ', when(c.pending_until))
              : null,
        ),
        h('td', {}, accountName(c)),
        h('td', {}, when(c.updated_at)),
        h(
          'td',
          { class: 'actions' },
          canWrite() && c.status === 'reauth_required' ? reconnectButton(c) : null,
        ),
      ),
    ),
  );
}

/** A connection the provider stopped honouring: a new flow for the same account brings it back. */
export function reconnectButton(c: Connection): HTMLElement {
  return h(
    'button',
    {
      type: 'button',
      onclick: () =>
        void act('Reconnect opened in a new tab: approve there, the status updates here', () =>
          startConnectFlow(c.provider),
        ),
    },
    'Reconnect',
    h('span', { class: 'visually-hidden' }, ` ${c.provider} ${accountName(c)}`),
  );
}

function connectForm(): HTMLElement {
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
    // A new tab keeps this page while the user consents; the list updates when that tab lands.
    void act('Connect flow opened in a new tab', () => startConnectFlow(provider.value));
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
      !confirmed(
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
