// An endpoint's deliveries: filters (status, event type, event id, date range), the list (refreshed on
// its own while the page is visible), each delivery's attempts in detail, replay, and the endpoint's
// success rate over time drawn from the same list.
import type { Page } from '../api';
import { api, canWrite } from '../api';
import { announce, badge, copyable, h, when } from '../dom';
import type { Attempt, Delivery } from '../webhooks';
import { DELIVERY_STATUSES, deliveryTone } from '../webhooks';
import { PAGE_SIZE, act, autoRefresh, busy, dataTable, fieldErrors, loadInto, pager } from '../widgets';

const REFRESH_MS = 5000;

export interface DeliveriesOptions {
  endpointId: string;
  /** Whether the endpoint is enabled now (a replay to a disabled endpoint would only be skipped). */
  enabled: () => boolean | undefined;
}

interface Filters {
  status: string;
  eventType: string;
  eventId: string;
  since: string;
  until: string;
}

/** A datetime-local value (the browser's zone, as shown) as an ISO instant. */
export const localToIso = (value: string): string => new Date(value).toISOString();

export function deliveriesSection(options: DeliveriesOptions): {
  element: HTMLElement;
  reload: () => Promise<void>;
} {
  const filters: Filters = { status: '', eventType: '', eventId: '', since: '', until: '' };
  let offset = 0;
  const list = h('div', { id: 'deliveries' });
  const chart = h('div', {});
  const query = () => {
    const q = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String(offset) });
    if (filters.status) q.set('status', filters.status);
    if (filters.eventType) q.set('eventType', filters.eventType);
    if (filters.eventId) q.set('eventId', filters.eventId);
    if (filters.since) q.set('since', localToIso(filters.since));
    if (filters.until) q.set('until', localToIso(filters.until));
    return q;
  };
  const base = `/webhooks/v1/endpoints/${encodeURIComponent(options.endpointId)}/deliveries`;
  const load = (quiet = false) =>
    loadInto(
      list,
      async () => {
        const page = await api<Page<Delivery>>('GET', `${base}?${query()}`);
        if (page.data.length === 0) return h('p', { class: 'empty' }, 'No deliveries match.');
        return h(
          'div',
          {},
          dataTable(
            'Deliveries',
            ['Event type', 'Status', 'Attempts', 'Last result', 'Created', 'Next attempt', 'Actions'],
            page.data.flatMap((d) => deliveryRows(d, options, () => void load())),
          ),
          pager({ ...page, count: page.data.length }, (next) => {
            offset = next;
            void load();
          }),
        );
      },
      { quiet },
    );
  const loadChart = (quiet = false) =>
    loadInto(
      chart,
      async () => {
        const page = await api<Page<Delivery>>('GET', `${base}?limit=200`);
        return successChart(page.data);
      },
      { quiet },
    );
  const form = filterForm(filters, () => {
    offset = 0;
    void load();
  });
  const element = h(
    'section',
    { 'aria-labelledby': 'deliveries-title' },
    h('h2', { id: 'deliveries-title' }, 'Deliveries'),
    form,
    list,
    h('h2', {}, 'Success rate and latency'),
    chart,
  );
  void load();
  void loadChart();
  // While visible: new deliveries and their outcomes appear on their own (not while the user is in the list).
  autoRefresh(list, REFRESH_MS, () => {
    if (!busy(list)) void load(true);
    void loadChart(true);
  });
  return { element, reload: () => Promise.all([load(), loadChart()]).then(() => undefined) };
}

function filterForm(filters: Filters, apply: () => void): HTMLElement {
  const status = h(
    'select',
    { id: 'delivery-status' },
    h('option', { value: '' }, 'All statuses'),
    DELIVERY_STATUSES.map((s) => h('option', { value: s }, s.replace(/_/g, ' '))),
  );
  const eventType = h('input', { id: 'delivery-type', type: 'text', autocomplete: 'off' });
  const eventId = h('input', { id: 'delivery-event', type: 'text', autocomplete: 'off' });
  const since = h('input', { id: 'delivery-since', type: 'datetime-local' });
  const until = h('input', { id: 'delivery-until', type: 'datetime-local' });
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const form = h(
    'form',
    { class: 'filters card', novalidate: true, 'aria-label': 'Filter deliveries' },
    h('div', {}, h('label', { for: 'delivery-status' }, 'Status'), status),
    h('div', {}, h('label', { for: 'delivery-type' }, 'Event type'), eventType),
    h('div', {}, h('label', { for: 'delivery-event' }, 'Event id'), eventId),
    h('div', {}, h('label', { for: 'delivery-since' }, `From (${zone})`), since),
    h('div', {}, h('label', { for: 'delivery-until' }, `Until (${zone})`), until),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit' }, 'Apply filters'),
      h('button', { type: 'reset', class: 'secondary' }, 'Clear'),
      h('button', { type: 'button', class: 'secondary', onclick: apply }, 'Refresh'),
    ),
  );
  const errors = fieldErrors(form);
  const read = () => {
    errors.clear();
    if (since.value && until.value && new Date(since.value) >= new Date(until.value))
      errors.mark(until, 'Must be after the start.');
    if (eventId.value.trim() && !/^evt_/.test(eventId.value.trim()))
      errors.mark(eventId, 'An event id starts with evt_.');
    if (!errors.ok()) return;
    Object.assign(filters, {
      status: status.value,
      eventType: eventType.value.trim(),
      eventId: eventId.value.trim(),
      since: since.value,
      until: until.value,
    });
    apply();
  };
  status.addEventListener('change', read);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    read();
  });
  form.addEventListener('reset', () => setTimeout(read));
  return form;
}

function deliveryRows(delivery: Delivery, options: DeliveriesOptions, reload: () => void): HTMLElement[] {
  const detailId = `delivery-detail-${delivery.id}`;
  const detailRow = h('tr', { class: 'detail', hidden: true, id: detailId }, h('td', { colspan: 7 }));
  const cell = detailRow.firstElementChild as HTMLElement;
  const toggle = h(
    'button',
    { type: 'button', class: 'secondary', 'aria-expanded': 'false', 'aria-controls': detailId },
    'Attempts',
    h('span', { class: 'visually-hidden' }, ` of ${delivery.eventType} ${delivery.eventId}`),
  );
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') === 'true';
    toggle.setAttribute('aria-expanded', String(!open));
    detailRow.hidden = open;
    if (!open) void loadInto(cell, () => deliveryDetail(delivery));
  });
  const replay =
    canWrite() &&
    h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        onclick: () => {
          // A replay to a disabled endpoint is only recorded as skipped: refuse it here, with the reason.
          if (options.enabled() === false) {
            announce('Replay refused: this endpoint is disabled. Enable it first, then replay.', 'bad');
            return;
          }
          void act('Replay queued', async () => {
            await api('POST', `/webhooks/v1/deliveries/${encodeURIComponent(delivery.id)}/replay`);
            reload();
          });
        },
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
      h('td', {}, badge(delivery.status.replace(/_/g, ' '), deliveryTone(delivery.status))),
      h('td', {}, String(delivery.attemptCount)),
      h('td', {}, last),
      h('td', {}, when(delivery.createdAt)),
      h('td', {}, when(delivery.nextAttemptAt)),
      h('td', { class: 'actions' }, toggle, replay),
    ),
    detailRow,
  ];
}

/** One delivery in full: its ids, the payload sent, and each attempt's request and response. */
async function deliveryDetail(delivery: Delivery): Promise<Node> {
  const detail = await api<Delivery & { attempts: Attempt[] }>(
    'GET',
    `/webhooks/v1/deliveries/${encodeURIComponent(delivery.id)}`,
  );
  return h(
    'div',
    { class: 'delivery-detail' },
    h(
      'dl',
      {},
      h('dt', {}, 'Delivery id'),
      h('dd', {}, copyable(detail.id, 'delivery id')),
      h('dt', {}, 'Event id'),
      h('dd', {}, copyable(detail.eventId, 'event id')),
      h('dt', {}, 'Next attempt'),
      h('dd', {}, detail.nextAttemptAt ? when(detail.nextAttemptAt) : 'none scheduled'),
      detail.failureReason ? h('dt', {}, 'Failed because') : null,
      detail.failureReason ? h('dd', {}, detail.failureReason.replace(/_/g, ' ')) : null,
    ),
    h(
      'details',
      {},
      h('summary', {}, 'Request payload'),
      h('pre', { class: 'excerpt', tabindex: '0' }, JSON.stringify(detail.event, null, 2)),
    ),
    detail.attempts.length === 0
      ? h('p', { class: 'empty' }, 'No attempt yet.')
      : h(
          'ol',
          { class: 'attempts', 'aria-label': `Attempts of ${delivery.eventId}` },
          detail.attempts.map(attemptItem),
        ),
  );
}

function headerList(headers: Record<string, string> | undefined, label: string): HTMLElement | null {
  if (!headers) return null;
  return h(
    'details',
    {},
    h('summary', {}, label),
    h(
      'dl',
      { class: 'headers' },
      Object.entries(headers).flatMap(([name, value]) => [
        h('dt', {}, name),
        h('dd', {}, h('code', {}, value)),
      ]),
    ),
  );
}

function attemptItem(a: Attempt): HTMLElement {
  return h(
    'li',
    { class: 'attempt', 'data-attempt': String(a.attempt) },
    h(
      'p',
      {},
      h('strong', {}, `Attempt ${a.attempt}`),
      ' ',
      badge(a.outcome, a.outcome === 'success' ? 'ok' : 'bad'),
      ' ',
      when(a.attemptedAt),
      ` · ${a.statusCode === null ? 'no response' : `HTTP ${a.statusCode}`} · ${a.latencyMs} ms`,
    ),
    a.errorKind
      ? h(
          'p',
          { class: 'help' },
          `${a.errorKind.replace(/_/g, ' ')}${a.errorMessage ? ': ' + a.errorMessage : ''}`,
        )
      : null,
    headerList(a.requestHeaders, 'Request headers sent'),
    headerList(a.responseHeaders, 'Response headers'),
    h('p', { class: 'caption' }, 'Response body (excerpt)'),
    h(
      'pre',
      { class: 'excerpt', tabindex: '0', 'aria-label': `Response body of attempt ${a.attempt}` },
      a.responseBody.slice(0, 2000) || '(empty)',
    ),
  );
}

/**
 * The share of deliveries delivered, per day, from the endpoint's latest deliveries: bars for the eye,
 * a table for screen readers (the same figures).
 */
function successChart(deliveries: Delivery[]): HTMLElement {
  const settled = deliveries.filter(
    (d) => d.status === 'delivered' || d.status === 'failed' || d.status === 'retrying',
  );
  if (settled.length === 0) return h('p', { class: 'empty' }, 'No delivery outcome yet.');
  const days = new Map<
    string,
    { ok: number; total: number; label: string; latency: number; timed: number }
  >();
  for (const d of settled) {
    const date = new Date(d.createdAt);
    const key = `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;
    const day = days.get(key) ?? {
      ok: 0,
      total: 0,
      label: date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' }),
      latency: 0,
      timed: 0,
    };
    day.total += 1;
    if (d.status === 'delivered') day.ok += 1;
    if (d.lastLatencyMs !== undefined) {
      day.latency += d.lastLatencyMs;
      day.timed += 1;
    }
    days.set(key, day);
  }
  const rows = [...days.values()].reverse().slice(-14);
  const pct = (d: { ok: number; total: number }) => Math.round((100 * d.ok) / d.total);
  const latency = (d: { latency: number; timed: number }) =>
    d.timed ? `${Math.round(d.latency / d.timed)} ms` : '—';
  const overall = settled.filter((d) => d.status === 'delivered').length;
  return h(
    'div',
    { class: 'chart' },
    h(
      'p',
      { 'data-testid': 'success-rate' },
      `${Math.round((100 * overall) / settled.length)}% delivered of the last ${settled.length} deliveries with an outcome.`,
    ),
    h(
      'div',
      { class: 'bars', 'aria-hidden': 'true' },
      rows.map((d) => {
        // Through the CSSOM: the CSP refuses inline style attributes.
        const fill = h('span', { class: 'fill' });
        fill.style.height = `${pct(d)}%`;
        return h('div', { class: 'bar' }, fill, h('span', { class: 'bar-label' }, d.label));
      }),
    ),
    dataTable(
      'Success rate and latency per day',
      ['Day', 'Delivered', 'Rate', 'Mean latency (last attempt)'],
      rows.map((d) =>
        h(
          'tr',
          {},
          h('td', {}, d.label),
          h('td', {}, `${d.ok} of ${d.total}`),
          h('td', {}, `${pct(d)}%`),
          h('td', {}, latency(d)),
        ),
      ),
      { class: 'compact' },
    ),
  );
}
