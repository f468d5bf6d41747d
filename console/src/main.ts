// The console: a hash-routed single page over the public API. Owners and admins see the write
// controls; members read (and the API refuses their writes regardless of what the page shows).
import type { Page } from './api';
import { ApiFailure, api, canWrite, currentSession, sessionFromToken, setSession } from './api';
import { announce, badge, formatTime, h } from './dom';

const PAGE_SIZE = 20;
const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed', 'skipped_disabled'];
const CONNECTION_STATUSES = ['pending', 'healthy', 'reauth_required', 'revoked', 'throttled'];
const PROVIDERS = ['practice', 'drive'];

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  eventTypeFilters: string[];
  resourceScopes: { vaultIds?: string[]; matterIds?: string[] } | null;
  enabled: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  createdAt: string;
  previousSecretExpiresAt: string | null;
}
interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  status: string;
  attemptCount: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  nextAttemptAt: string | null;
}
interface Attempt {
  attempt: number;
  attemptedAt: string;
  outcome: string;
  statusCode: number | null;
  errorKind: string | null;
  errorMessage: string | null;
  latencyMs: number;
  responseBody: string;
}
interface EventType {
  type: string;
  description: string;
  permission: string;
}
interface Connection {
  id: string;
  provider: string;
  status: string;
  enabled: boolean;
  scope_tier: string;
  account: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

const main = () => document.getElementById('main')!;

function errorState(error: unknown): HTMLElement {
  const message =
    error instanceof ApiFailure ? `${error.error.message} (${error.error.code})` : String(error);
  return h('div', { class: 'notice notice-bad', role: 'alert' }, message);
}

/** Runs an action; shows the API's error message rather than failing silently. */
async function act(label: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
    announce(label);
  } catch (error) {
    announce(error instanceof ApiFailure ? error.error.message : String(error), 'bad');
  }
}

function pager(page: { offset: number; hasMore: boolean }, go: (offset: number) => void): HTMLElement {
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Pagination' },
    h(
      'button',
      {
        type: 'button',
        disabled: page.offset === 0,
        onclick: () => go(Math.max(0, page.offset - PAGE_SIZE)),
      },
      'Previous',
    ),
    h('span', {}, `Items ${page.offset + 1}–${page.offset + PAGE_SIZE}`),
    h(
      'button',
      { type: 'button', disabled: !page.hasMore, onclick: () => go(page.offset + PAGE_SIZE) },
      'Next',
    ),
  );
}

/** A section that loads, then shows content, an empty message or the error. */
async function loadInto(container: HTMLElement, load: () => Promise<Node>): Promise<void> {
  container.replaceChildren(h('p', { class: 'loading', role: 'status' }, 'Loading…'));
  try {
    container.replaceChildren(await load());
  } catch (error) {
    container.replaceChildren(errorState(error));
  }
}

function secretPanel(title: string, secret: string): HTMLElement {
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

// --- Sign-in --------------------------------------------------------------------------------------

function signInPage(notice?: string): void {
  document.title = 'Sign in — Console';
  const role = h(
    'select',
    { id: 'role', name: 'role' },
    h('option', { value: 'owner' }, 'Owner'),
    h('option', { value: 'admin' }, 'Admin'),
    h('option', { value: 'member' }, 'Member'),
  );
  const result = h('div', {});
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'signin-title' },
    h('h1', { id: 'signin-title' }, 'Sign in to the console'),
    h(
      'p',
      {},
      'Development identity provider: signs you in to the development organization with the role you pick.',
    ),
    notice ? h('p', { class: 'notice notice-bad', role: 'alert' }, notice) : null,
    h('label', { for: 'role' }, 'Role'),
    role,
    h('button', { type: 'submit' }, 'Sign in'),
    result,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      try {
        const { token } = await api<{ token: string }>('POST', '/__dev/console/sign-in', {
          role: role.value,
        });
        setSession(sessionFromToken(token));
        renderShell();
        location.hash = '#/webhooks';
        void route();
      } catch (error) {
        result.replaceChildren(errorState(error));
      }
    })();
  });
  document.body.replaceChildren(h('main', { id: 'main', class: 'signin' }, form));
  role.focus();
}

// --- Shell ----------------------------------------------------------------------------------------

function renderShell(): void {
  const session = currentSession()!;
  const link = (hash: string, text: string) => h('a', { href: hash, 'data-nav': hash }, text);
  const signOut = h('button', { type: 'button', class: 'secondary' }, 'Sign out');
  signOut.addEventListener('click', () => {
    setSession(undefined);
    location.hash = '';
    signInPage();
  });
  document.body.replaceChildren(
    h('a', { href: '#main', class: 'skip' }, 'Skip to content'),
    h(
      'header',
      {},
      h('span', { class: 'brand' }, 'Connector & Event Console'),
      h(
        'nav',
        { 'aria-label': 'Sections' },
        link('#/webhooks', 'Webhooks'),
        link('#/connections', 'Connections'),
        link('#/applications', 'Applications'),
      ),
      h('span', { class: 'who' }, `${session.userId} · ${session.role}`, signOut),
    ),
    h('div', { id: 'status', role: 'status', 'aria-live': 'polite' }),
    h('main', { id: 'main', tabindex: '-1' }),
  );
}

async function route(): Promise<void> {
  if (!currentSession()) return signInPage();
  const hash = location.hash || '#/webhooks';
  for (const a of document.querySelectorAll<HTMLAnchorElement>('header nav a')) {
    if (hash.startsWith(a.dataset.nav ?? '')) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  announce('');
  document.getElementById('status')!.className = '';
  const [, section, id] = hash.split('/');
  if (section === 'webhooks' && id === 'new') return newEndpointPage();
  if (section === 'webhooks' && id) return endpointPage(decodeURIComponent(id));
  if (section === 'connections' && id) return connectionPage(decodeURIComponent(id));
  if (section === 'connections') return connectionsPage();
  if (section === 'applications') return applicationsPage();
  return endpointsPage();
}

// --- Webhooks -------------------------------------------------------------------------------------

function endpointBadge(endpoint: Endpoint): HTMLElement {
  if (endpoint.enabled) return badge('enabled', 'ok');
  return badge(
    endpoint.disabledReason?.startsWith('Disabled automatically') ? 'auto-disabled' : 'disabled',
    'bad',
  );
}

function endpointsPage(offset = 0): void {
  document.title = 'Webhook endpoints — Console';
  const list = h('div', {});
  main().replaceChildren(
    h(
      'div',
      { class: 'title-row' },
      h('h1', {}, 'Webhook endpoints'),
      canWrite() && h('a', { class: 'button', href: '#/webhooks/new' }, 'New endpoint'),
    ),
    list,
  );
  void loadInto(list, async () => {
    const page = await api<Page<Endpoint>>(
      'GET',
      `/webhooks/v1/endpoints?limit=${PAGE_SIZE}&offset=${offset}`,
    );
    if (page.data.length === 0 && offset === 0) {
      return h(
        'p',
        { class: 'empty' },
        'No endpoints yet.',
        canWrite() ? ' Create one to receive events.' : '',
      );
    }
    return h(
      'div',
      {},
      h(
        'table',
        {},
        h('caption', { class: 'visually-hidden' }, 'Endpoints'),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'URL'),
            h('th', { scope: 'col' }, 'Status'),
            h('th', { scope: 'col' }, 'Event types'),
            h('th', { scope: 'col' }, 'Created'),
          ),
        ),
        h(
          'tbody',
          {},
          page.data.map((endpoint) =>
            h(
              'tr',
              {},
              h('td', {}, h('a', { href: `#/webhooks/${encodeURIComponent(endpoint.id)}` }, endpoint.url)),
              h('td', {}, endpointBadge(endpoint)),
              h('td', {}, endpoint.eventTypeFilters.join(', ')),
              h('td', {}, formatTime(endpoint.createdAt)),
            ),
          ),
        ),
      ),
      pager(page, endpointsPage),
    );
  });
}

function splitIds(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((v) => v.trim())
    .filter(Boolean);
}

function newEndpointPage(): void {
  document.title = 'New endpoint — Console';
  const picker = h(
    'fieldset',
    {},
    h('legend', {}, 'Event types'),
    h('p', { class: 'loading' }, 'Loading the catalog…'),
  );
  const url = h('input', { id: 'url', name: 'url', type: 'url', required: true, autocomplete: 'off' });
  const description = h('input', { id: 'description', name: 'description', type: 'text' });
  const vaults = h('input', { id: 'vaults', name: 'vaults', type: 'text', 'aria-describedby': 'scope-help' });
  const matters = h('input', {
    id: 'matters',
    name: 'matters',
    type: 'text',
    'aria-describedby': 'scope-help',
  });
  const result = h('div', {});
  const form = h(
    'form',
    { class: 'card' },
    h('label', { for: 'url' }, 'Endpoint URL'),
    url,
    h('label', { for: 'description' }, 'Description (optional)'),
    description,
    picker,
    h(
      'fieldset',
      {},
      h('legend', {}, 'Resource scopes (optional)'),
      h(
        'p',
        { id: 'scope-help', class: 'help' },
        'Only events for these vaults or matters; ids separated by commas.',
      ),
      h('label', { for: 'vaults' }, 'Vault ids'),
      vaults,
      h('label', { for: 'matters' }, 'Matter ids'),
      matters,
    ),
    h('button', { type: 'submit' }, 'Create endpoint'),
    result,
  );
  main().replaceChildren(h('h1', {}, 'New webhook endpoint'), form);
  url.focus();

  void (async () => {
    try {
      const types: EventType[] = [];
      for (let offset = 0; ; offset += 200) {
        const page = await api<Page<EventType>>('GET', `/webhooks/v1/event-types?limit=200&offset=${offset}`);
        types.push(...page.data);
        if (!page.hasMore) break;
      }
      const families = [...new Set(types.map((t) => t.type.split('.')[0]!))];
      const option = (value: string, text: string, detail?: string) =>
        h(
          'label',
          { class: 'check' },
          h('input', { type: 'checkbox', name: 'eventType', value }),
          h('code', {}, value),
          ' ',
          text,
          detail ? h('span', { class: 'help' }, ` — ${detail}`) : null,
        );
      picker.replaceChildren(
        h('legend', {}, 'Event types'),
        h(
          'div',
          { class: 'group' },
          h('h3', {}, 'Wildcards'),
          option('*', 'every type this organization may receive'),
          families.map((f) => option(`${f}.*`, `every ${f} event`)),
        ),
        h(
          'div',
          { class: 'group' },
          h('h3', {}, 'Catalog'),
          types.map((t) => option(t.type, t.description, `needs ${t.permission}`)),
        ),
      );
    } catch (error) {
      picker.replaceChildren(h('legend', {}, 'Event types'), errorState(error));
    }
  })();

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const filters = [...form.querySelectorAll<HTMLInputElement>('input[name=eventType]:checked')].map(
      (i) => i.value,
    );
    const vaultIds = splitIds(vaults.value);
    const matterIds = splitIds(matters.value);
    const body: Record<string, unknown> = { url: url.value, eventTypeFilters: filters };
    if (description.value.trim()) body.description = description.value.trim();
    if (vaultIds.length || matterIds.length) {
      body.resourceScopes = {
        ...(vaultIds.length ? { vaultIds } : {}),
        ...(matterIds.length ? { matterIds } : {}),
      };
    }
    void (async () => {
      try {
        const created = await api<{ endpoint: Endpoint; signingSecret: string }>(
          'POST',
          '/webhooks/v1/endpoints',
          body,
        );
        main().replaceChildren(
          h('h1', {}, 'Endpoint created'),
          secretPanel('Signing secret', created.signingSecret),
          h(
            'p',
            {},
            h('a', { href: `#/webhooks/${encodeURIComponent(created.endpoint.id)}` }, 'Go to the endpoint'),
          ),
        );
        announce('Endpoint created');
      } catch (error) {
        result.replaceChildren(errorState(error));
      }
    })();
  });
}

function endpointPage(id: string): void {
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
        h(
          'table',
          {},
          h('caption', { class: 'visually-hidden' }, 'Deliveries'),
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['Event type', 'Status', 'Attempts', 'Last result', 'Created', ''].map((c) =>
                h('th', { scope: 'col' }, c),
              ),
            ),
          ),
          h(
            'tbody',
            {},
            page.data.flatMap((d) => deliveryRows(d, () => void loadDeliveries())),
          ),
        ),
        pager(page, (next) => {
          offset = next;
          void loadDeliveries();
        }),
      );
    });
  void reload();
  void loadDeliveries();
}

function deliveryTone(status: string): 'ok' | 'warn' | 'bad' | 'neutral' {
  return status === 'delivered'
    ? 'ok'
    : status === 'failed'
      ? 'bad'
      : status === 'retrying'
        ? 'warn'
        : 'neutral';
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
        return h(
          'table',
          { class: 'attempts' },
          h('caption', {}, `Attempts of ${delivery.eventId}`),
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['#', 'Time', 'Outcome', 'Status', 'Latency', 'Error', 'Response excerpt'].map((c) =>
                h('th', { scope: 'col' }, c),
              ),
            ),
          ),
          h(
            'tbody',
            {},
            detail.attempts.map((a) =>
              h(
                'tr',
                {},
                h('td', {}, String(a.attempt)),
                h('td', {}, formatTime(a.attemptedAt)),
                h('td', {}, badge(a.outcome, a.outcome === 'success' ? 'ok' : 'bad')),
                h('td', {}, a.statusCode === null ? '—' : String(a.statusCode)),
                h('td', {}, `${a.latencyMs} ms`),
                h(
                  'td',
                  {},
                  a.errorKind ? `${a.errorKind}${a.errorMessage ? ': ' + a.errorMessage : ''}` : '—',
                ),
                h('td', {}, h('code', { class: 'excerpt' }, a.responseBody.slice(0, 300))),
              ),
            ),
          ),
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

function endpointHeader(
  endpoint: Endpoint,
  reload: () => Promise<void>,
  extra: HTMLElement,
  reloadDeliveries: () => void,
): HTMLElement {
  const path = `/webhooks/v1/endpoints/${encodeURIComponent(endpoint.id)}`;
  const button = (text: string, run: () => Promise<void>, label: string) =>
    h('button', { type: 'button', onclick: () => void act(label, run) }, text);
  const writes = canWrite()
    ? h(
        'div',
        { class: 'actions', role: 'group', 'aria-label': 'Endpoint actions' },
        endpoint.enabled
          ? button(
              'Disable',
              async () => {
                await api('POST', `${path}/disable`);
                await reload();
              },
              'Endpoint disabled',
            )
          : button(
              'Enable',
              async () => {
                await api('POST', `${path}/enable`);
                await reload();
              },
              'Endpoint enabled',
            ),
        button(
          'Rotate secret',
          async () => {
            const rotated = await api<{ signingSecret: string }>('POST', `${path}/rotate-secret`);
            extra.replaceChildren(secretPanel('New signing secret', rotated.signingSecret));
            await reload();
          },
          'Secret rotated: the previous one keeps signing for 24 hours',
        ),
        button(
          'Send test event',
          async () => {
            await api('POST', `${path}/test`, {});
            reloadDeliveries();
          },
          'Test event sent',
        ),
        recoverForm(path, reloadDeliveries),
      )
    : null;
  return h(
    'div',
    {},
    h('div', { class: 'title-row' }, h('h1', {}, endpoint.url), endpointBadge(endpoint)),
    h(
      'dl',
      {},
      h('dt', {}, 'Id'),
      h('dd', {}, h('code', {}, endpoint.id)),
      h('dt', {}, 'Description'),
      h('dd', {}, endpoint.description ?? '—'),
      h('dt', {}, 'Event types'),
      h('dd', {}, endpoint.eventTypeFilters.join(', ')),
      h('dt', {}, 'Resource scopes'),
      h(
        'dd',
        {},
        endpoint.resourceScopes
          ? [
              endpoint.resourceScopes.vaultIds?.length
                ? `vaults: ${endpoint.resourceScopes.vaultIds.join(', ')}`
                : '',
              endpoint.resourceScopes.matterIds?.length
                ? `matters: ${endpoint.resourceScopes.matterIds.join(', ')}`
                : '',
            ]
              .filter(Boolean)
              .join('; ')
          : 'all resources',
      ),
      !endpoint.enabled && h('dt', {}, 'Disabled'),
      !endpoint.enabled &&
        h(
          'dd',
          { 'data-testid': 'disabled-reason' },
          `${formatTime(endpoint.disabledAt)}: ${endpoint.disabledReason ?? ''}`,
        ),
      endpoint.previousSecretExpiresAt && h('dt', {}, 'Previous secret signs until'),
      endpoint.previousSecretExpiresAt && h('dd', {}, formatTime(endpoint.previousSecretExpiresAt)),
    ),
    writes,
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

// --- Connections ----------------------------------------------------------------------------------

function connectionTone(status: string): 'ok' | 'warn' | 'bad' | 'neutral' {
  return status === 'healthy'
    ? 'ok'
    : status === 'pending' || status === 'throttled'
      ? 'warn'
      : status === 'revoked'
        ? 'neutral'
        : 'bad';
}

function connectionsPage(): void {
  document.title = 'Connections — Console';
  let provider = '';
  let status = '';
  let offset = 0;
  const list = h('div', {});
  const providerFilter = h(
    'select',
    { id: 'filter-provider' },
    h('option', { value: '' }, 'All providers'),
    PROVIDERS.map((p) => h('option', { value: p }, p)),
  );
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
        h(
          'table',
          {},
          h('caption', { class: 'visually-hidden' }, 'Connections'),
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['Connection', 'Provider', 'Status', 'Account', 'Updated'].map((c) =>
                h('th', { scope: 'col' }, c),
              ),
            ),
          ),
          h(
            'tbody',
            {},
            page.data.map((c) =>
              h(
                'tr',
                {},
                h('td', {}, h('a', { href: `#/connections/${c.id}` }, c.id)),
                h('td', {}, c.provider, c.enabled ? '' : ' (provider switched off)'),
                h('td', {}, badge(c.status, connectionTone(c.status))),
                h('td', {}, accountName(c)),
                h('td', {}, formatTime(c.updated_at)),
              ),
            ),
          ),
        ),
        pager({ offset, hasMore: page.has_more }, (next) => {
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

function accountName(c: Connection): string {
  const account = c.account as { name?: string; email?: string; id?: string } | null;
  return account ? (account.name ?? account.email ?? account.id ?? '—') : '—';
}

function connectForm(reload: () => void): HTMLElement {
  const provider = h(
    'select',
    { id: 'connect-provider' },
    PROVIDERS.map((p) => h('option', { value: p }, p)),
  );
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
  const provider = h(
    'select',
    { id: 'switch-provider' },
    PROVIDERS.map((p) => h('option', { value: p }, p)),
  );
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

function connectionPage(id: string): void {
  document.title = 'Connection — Console';
  const body = h('div', {});
  main().replaceChildren(body);
  const load = () =>
    loadInto(body, async () => {
      const c = await api<Connection & Record<string, unknown>>(
        'GET',
        `/connectors/v1/connections/${encodeURIComponent(id)}`,
      );
      const history = (c.status_history ?? c.history) as { status: string; at: string }[] | undefined;
      return h(
        'div',
        {},
        h(
          'div',
          { class: 'title-row' },
          h('h1', {}, `${c.provider} connection`),
          badge(c.status, connectionTone(c.status)),
        ),
        h(
          'dl',
          {},
          h('dt', {}, 'Id'),
          h('dd', {}, h('code', {}, c.id)),
          h('dt', {}, 'Account'),
          h('dd', {}, accountName(c)),
          h('dt', {}, 'Scope tier'),
          h('dd', {}, c.scope_tier),
          h('dt', {}, 'Created'),
          h('dd', {}, formatTime(c.created_at)),
          h('dt', {}, 'Updated'),
          h('dd', {}, formatTime(c.updated_at)),
        ),
        history?.length
          ? h(
              'div',
              {},
              h('h2', {}, 'Status history'),
              h(
                'ul',
                {},
                history.map((e) => h('li', {}, `${formatTime(e.at)} ${e.status}`)),
              ),
            )
          : null,
        canWrite() && c.status !== 'revoked' ? disconnectForm(c.id, load) : null,
      );
    });
  void load();
}

function disconnectForm(id: string, reload: () => Promise<void>): HTMLElement {
  const purge = h('input', { id: 'purge', type: 'checkbox' });
  const confirm = h('input', {
    id: 'confirm-purge',
    type: 'text',
    autocomplete: 'off',
    'aria-describedby': 'purge-help',
  });
  const form = h(
    'form',
    { class: 'card danger-zone' },
    h('h2', {}, 'Disconnect'),
    h('label', { class: 'check' }, purge, 'Also purge the data imported through this connection'),
    h('p', { id: 'purge-help', class: 'help' }, `To purge, type the connection id (${id}) to confirm.`),
    h('label', { for: 'confirm-purge' }, 'Confirmation'),
    confirm,
    h('button', { type: 'submit', class: 'danger' }, 'Disconnect'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (purge.checked && confirm.value.trim() !== id) {
      announce('Type the connection id to confirm the purge', 'bad');
      confirm.focus();
      return;
    }
    void act(purge.checked ? 'Disconnected; purge started' : 'Disconnected', async () => {
      await api('DELETE', `/connectors/v1/connections/${encodeURIComponent(id)}?purge=${purge.checked}`);
      await reload();
    });
  });
  return form;
}

// --- Applications ---------------------------------------------------------------------------------

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

function applicationsPage(offset = 0): void {
  document.title = 'Applications — Console';
  const lists = h('div', {});
  const key = h('input', { id: 'bind-key', type: 'text', autocomplete: 'off' });
  const app = h('input', { id: 'bind-app', type: 'text', autocomplete: 'off' });
  const load = () =>
    loadInto(lists, async () => {
      const page = await api<ApplicationsPage>(
        'GET',
        `/connectors/v1/applications?limit=${PAGE_SIZE}&offset=${offset}`,
      );
      const keyName = new Map(page.keys.map((k) => [k.id, k.name]));
      return h(
        'div',
        {},
        h('h2', {}, 'Applications'),
        page.data.length === 0
          ? h('p', { class: 'empty' }, 'No applications yet (npm run admin -- create-app).')
          : h(
              'table',
              {},
              h('caption', { class: 'visually-hidden' }, 'Applications'),
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  ['Application', 'Id', 'Bound keys', 'Created'].map((c) => h('th', { scope: 'col' }, c)),
                ),
              ),
              h(
                'tbody',
                {},
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
              ),
            ),
        pager({ offset, hasMore: page.has_more }, applicationsPage),
        h('h2', {}, 'API keys'),
        h(
          'table',
          {},
          h('caption', { class: 'visually-hidden' }, 'API keys'),
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['Key', 'Id', 'Permissions', 'Bound to', 'State'].map((c) => h('th', { scope: 'col' }, c)),
            ),
          ),
          h(
            'tbody',
            {},
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
          ),
        ),
      );
    });
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
              await load();
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
      await load();
    });
  });
  main().replaceChildren(h('h1', {}, 'Applications and keys'), ...(canWrite() ? [form] : []), lists);
  void load();
}

window.addEventListener('hashchange', () => void route());
window.addEventListener('console:session-ended', () => signInPage('Your session has ended: sign in again.'));
// Every start is signed out: the session lives in memory only.
void route();
