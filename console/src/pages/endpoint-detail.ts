// One webhook endpoint: its settings and actions, and its deliveries with their attempts.
import type { Page } from '../api';
import { api, canWrite } from '../api';
import { badge, formatTime, h } from '../dom';
import type { Attempt, Delivery, Endpoint } from '../webhooks';
import { DELIVERY_STATUSES, deliveryTone, endpointBadge } from '../webhooks';
import { PAGE_SIZE, act, dataTable, loadInto, main, pager, secretPanel } from '../widgets';

export function endpointPage(id: string): void {
  document.title = 'Endpoint — Console';
  const head = h('div', {});
  const extra = h('div', {});
  const deliveries = h('div', {});
  main().replaceChildren(head, extra, h('h2', {}, 'Deliveries'), deliveries);

  const reload = () =>
    loadInto(head, async () => {
      const endpoint = await api<Endpoint>('GET', `/webhooks/v1/endpoints/${encodeURIComponent(id)}`);
      return endpointHeader(endpoint, reload, extra, () => void loadDeliveries());
    });
  let status = '';
  let offset = 0;
  const loadDeliveries = () =>
    loadInto(deliveries, async () => {
      const query = `limit=${PAGE_SIZE}&offset=${offset}${status ? `&status=${status}` : ''}`;
      const page = await api<Page<Delivery>>(
        'GET',
        `/webhooks/v1/endpoints/${encodeURIComponent(id)}/deliveries?${query}`,
      );
      const filter = h(
        'select',
        { id: 'delivery-status' },
        h('option', { value: '' }, 'All statuses'),
        DELIVERY_STATUSES.map((s) => h('option', { value: s, selected: s === status }, s)),
      );
      filter.addEventListener('change', () => {
        status = filter.value;
        offset = 0;
        void loadDeliveries();
      });
      const refresh = h(
        'button',
        { type: 'button', class: 'secondary', onclick: () => void loadDeliveries() },
        'Refresh',
      );
      const controls = h(
        'div',
        { class: 'filters' },
        h('label', { for: 'delivery-status' }, 'Status'),
        filter,
        refresh,
      );
      if (page.data.length === 0)
        return h('div', {}, controls, h('p', { class: 'empty' }, 'No deliveries match.'));
      return h(
        'div',
        {},
        controls,
        dataTable(
          'Deliveries',
          ['Event type', 'Status', 'Attempts', 'Last result', 'Created', ''],
          page.data.flatMap((d) => deliveryRows(d, () => void loadDeliveries())),
        ),
        pager({ ...page, count: page.data.length }, (next) => {
          offset = next;
          void loadDeliveries();
        }),
      );
    });
  void reload();
  void loadDeliveries();
}

function deliveryRows(delivery: Delivery, reload: () => void): HTMLElement[] {
  const detailRow = h('tr', { class: 'detail', hidden: true }, h('td', { colspan: 6 }));
  const cell = detailRow.firstElementChild as HTMLElement;
  const toggle = h('button', { type: 'button', class: 'secondary', 'aria-expanded': 'false' }, 'Attempts');
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') === 'true';
    toggle.setAttribute('aria-expanded', String(!open));
    detailRow.hidden = open;
    if (!open) {
      void loadInto(cell, async () => {
        const detail = await api<Delivery & { attempts: Attempt[] }>(
          'GET',
          `/webhooks/v1/deliveries/${encodeURIComponent(delivery.id)}`,
        );
        if (detail.attempts.length === 0) return h('p', { class: 'empty' }, 'No attempt yet.');
        return dataTable(
          `Attempts of ${delivery.eventId}`,
          ['#', 'Time', 'Outcome', 'Status', 'Latency', 'Error', 'Response excerpt'],
          detail.attempts.map(attemptRow),
          { class: 'attempts', visibleCaption: true },
        );
      });
    }
  });
  const replay =
    canWrite() &&
    h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        onclick: () =>
          void act('Replay queued', async () => {
            await api('POST', `/webhooks/v1/deliveries/${encodeURIComponent(delivery.id)}/replay`);
            reload();
          }),
      },
      'Replay',
    );
  const last =
    delivery.lastStatusCode !== null ? `HTTP ${delivery.lastStatusCode}` : (delivery.lastError ?? '—');
  return [
    h(
      'tr',
      { 'data-delivery': delivery.id },
      h('td', {}, h('code', {}, delivery.eventType)),
      h('td', {}, badge(delivery.status, deliveryTone(delivery.status))),
      h('td', {}, String(delivery.attemptCount)),
      h('td', {}, last),
      h('td', {}, formatTime(delivery.createdAt)),
      h('td', { class: 'actions' }, toggle, replay),
    ),
    detailRow,
  ];
}

function attemptRow(a: Attempt): HTMLElement {
  return h(
    'tr',
    {},
    h('td', {}, String(a.attempt)),
    h('td', {}, formatTime(a.attemptedAt)),
    h('td', {}, badge(a.outcome, a.outcome === 'success' ? 'ok' : 'bad')),
    h('td', {}, a.statusCode === null ? '—' : String(a.statusCode)),
    h('td', {}, `${a.latencyMs} ms`),
    h('td', {}, a.errorKind ? `${a.errorKind}${a.errorMessage ? ': ' + a.errorMessage : ''}` : '—'),
    h('td', {}, h('code', { class: 'excerpt' }, a.responseBody.slice(0, 300))),
  );
}

function endpointHeader(
  endpoint: Endpoint,
  reload: () => Promise<void>,
  extra: HTMLElement,
  reloadDeliveries: () => void,
): HTMLElement {
  return h(
    'div',
    {},
    h('div', { class: 'title-row' }, h('h1', {}, endpoint.url), endpointBadge(endpoint)),
    endpointFacts(endpoint),
    canWrite() ? endpointActions(endpoint, reload, extra, reloadDeliveries) : null,
  );
}

function scopesText(scopes: Endpoint['resourceScopes']): string {
  if (!scopes) return 'all resources';
  return [
    scopes.vaultIds?.length ? `vaults: ${scopes.vaultIds.join(', ')}` : '',
    scopes.matterIds?.length ? `matters: ${scopes.matterIds.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

function endpointFacts(endpoint: Endpoint): HTMLElement {
  return h(
    'dl',
    {},
    h('dt', {}, 'Id'),
    h('dd', {}, h('code', {}, endpoint.id)),
    h('dt', {}, 'Description'),
    h('dd', {}, endpoint.description ?? '—'),
    h('dt', {}, 'Event types'),
    h('dd', {}, endpoint.eventTypeFilters.join(', ')),
    h('dt', {}, 'Resource scopes'),
    h('dd', {}, scopesText(endpoint.resourceScopes)),
    !endpoint.enabled && h('dt', {}, 'Disabled'),
    !endpoint.enabled &&
      h(
        'dd',
        { 'data-testid': 'disabled-reason' },
        `${formatTime(endpoint.disabledAt)}: ${endpoint.disabledReason ?? ''}`,
      ),
    endpoint.previousSecretExpiresAt && h('dt', {}, 'Previous secret signs until'),
    endpoint.previousSecretExpiresAt && h('dd', {}, formatTime(endpoint.previousSecretExpiresAt)),
  );
}

/** Owners and admins: enable/disable, rotate (the new secret shown in `extra`), test, recover. */
function endpointActions(
  endpoint: Endpoint,
  reload: () => Promise<void>,
  extra: HTMLElement,
  reloadDeliveries: () => void,
): HTMLElement {
  const path = `/webhooks/v1/endpoints/${encodeURIComponent(endpoint.id)}`;
  const button = (text: string, label: string, run: () => Promise<void>) =>
    h('button', { type: 'button', onclick: () => void act(label, run) }, text);
  const toggle = endpoint.enabled
    ? button('Disable', 'Endpoint disabled', async () => {
        await api('POST', `${path}/disable`);
        await reload();
      })
    : button('Enable', 'Endpoint enabled', async () => {
        await api('POST', `${path}/enable`);
        await reload();
      });
  return h(
    'div',
    { class: 'actions', role: 'group', 'aria-label': 'Endpoint actions' },
    toggle,
    button('Rotate secret', 'Secret rotated: the previous one keeps signing for 24 hours', async () => {
      const rotated = await api<{ signingSecret: string }>('POST', `${path}/rotate-secret`);
      extra.replaceChildren(secretPanel('New signing secret', rotated.signingSecret));
      await reload();
    }),
    button('Send test event', 'Test event sent', async () => {
      await api('POST', `${path}/test`, {});
      reloadDeliveries();
    }),
    recoverForm(path, reloadDeliveries),
  );
}

function recoverForm(path: string, reloadDeliveries: () => void): HTMLElement {
  const since = h('input', { id: 'recover-since', type: 'datetime-local', required: true });
  const until = h('input', { id: 'recover-until', type: 'datetime-local' });
  const form = h(
    'form',
    { class: 'inline' },
    h('label', { for: 'recover-since' }, 'Recover from (UTC)'),
    since,
    h('label', { for: 'recover-until' }, 'until (UTC, optional)'),
    until,
    h('button', { type: 'submit', class: 'secondary' }, 'Recover failed deliveries'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const iso = (value: string) => new Date(`${value}Z`).toISOString();
    void act('Recovery started', async () => {
      await api('POST', `${path}/recover`, {
        since: iso(since.value),
        ...(until.value ? { until: iso(until.value) } : {}),
      });
      reloadDeliveries();
    });
  });
  return form;
}
