// One webhook endpoint: its settings and actions (each saying what happened), edit and delete, recovery
// of a time window, and its deliveries (deliveries.ts).
import { api, canWrite } from '../api';
import { announce, badge, copyable, flash, formatTime, h, when } from '../dom';
import type { Endpoint, TestDelivery } from '../webhooks';
import { endpointBadge } from '../webhooks';
import {
  act,
  autoRefresh,
  confirmed,
  fieldErrors,
  loadInto,
  main,
  secretPanel,
  userMessage,
} from '../widgets';
import { deliveriesSection, localToIso } from './deliveries';
import { endpointForm } from './endpoint-form';

export function endpointPage(id: string): void {
  document.title = 'Endpoint — Console';
  const head = h('div', {});
  const extra = h('div', {});
  let current: Endpoint | undefined;
  const deliveries = deliveriesSection({ endpointId: id, enabled: () => current?.enabled });
  main().replaceChildren(head, extra, deliveries.element);

  const reload = (quiet = false) =>
    loadInto(
      head,
      async () => {
        const endpoint = await api<Endpoint>('GET', `/webhooks/v1/endpoints/${encodeURIComponent(id)}`);
        current = endpoint;
        document.title = `${endpoint.url} — Console`;
        return endpointHeader(endpoint, { reload, extra, reloadDeliveries: deliveries.reload });
      },
      { quiet },
    );
  void reload();
  // Its state changes behind the page too (auto-disable, another user): kept current while visible.
  autoRefresh(head, 15_000, () => {
    if (!head.contains(document.activeElement)) void reload(true);
  });
}

interface Context {
  reload: () => Promise<void>;
  extra: HTMLElement;
  reloadDeliveries: () => Promise<void>;
}

function endpointHeader(endpoint: Endpoint, context: Context): HTMLElement {
  return h(
    'div',
    {},
    h('div', { class: 'title-row' }, h('h1', {}, endpoint.url), endpointBadge(endpoint)),
    endpointFacts(endpoint),
    canWrite() ? endpointActions(endpoint, context) : null,
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
    h('dd', {}, copyable(endpoint.id, 'endpoint id')),
    h('dt', {}, 'Description'),
    h('dd', {}, endpoint.description ?? '—'),
    h('dt', {}, 'Event types'),
    h('dd', {}, endpoint.eventTypeFilters.join(', ')),
    h('dt', {}, 'Resource scopes'),
    h('dd', {}, scopesText(endpoint.resourceScopes)),
    endpoint.enabled && endpoint.failingSince ? h('dt', {}, 'Failing since') : null,
    endpoint.enabled && endpoint.failingSince
      ? h(
          'dd',
          { 'data-testid': 'failing-since' },
          when(endpoint.failingSince),
          ' (no delivery succeeded since)',
        )
      : null,
    !endpoint.enabled && h('dt', {}, 'Disabled'),
    !endpoint.enabled &&
      h(
        'dd',
        { 'data-testid': 'disabled-reason' },
        when(endpoint.disabledAt),
        `: ${endpoint.disabledReason ?? ''}`,
      ),
    endpoint.previousSecretExpiresAt && h('dt', {}, 'Previous secret signs until'),
    endpoint.previousSecretExpiresAt && h('dd', {}, when(endpoint.previousSecretExpiresAt)),
  );
}

/** Owners and admins: enable/disable, rotate, test, edit, delete, recover. */
function endpointActions(endpoint: Endpoint, context: Context): HTMLElement {
  const { reload, extra, reloadDeliveries } = context;
  const path = `/webhooks/v1/endpoints/${encodeURIComponent(endpoint.id)}`;
  const button = (text: string, label: string, run: () => Promise<void>, question?: string) =>
    h(
      'button',
      {
        type: 'button',
        onclick: () => {
          if (question && !confirmed(question)) return;
          void act(label, run);
        },
      },
      text,
    );
  const toggle = endpoint.enabled
    ? button(
        'Disable',
        'Endpoint disabled',
        async () => {
          await api('POST', `${path}/disable`);
          await reload();
          focusAction('Enable');
        },
        `Disable ${endpoint.url}? Events stop being delivered to it until it is enabled again.`,
      )
    : button('Enable', 'Endpoint enabled', async () => {
        await api('POST', `${path}/enable`);
        await reload();
        focusAction('Disable');
      });
  const edit = h('button', { type: 'button', class: 'secondary', 'aria-expanded': 'false' }, 'Edit');
  edit.addEventListener('click', () => {
    const form = endpointForm({
      endpoint,
      submitText: 'Save changes',
      send: async (body) => {
        await api('PATCH', path, body);
        extra.replaceChildren();
        announce('Endpoint saved');
        await reload();
        focusAction('Edit');
      },
    });
    extra.replaceChildren(
      h('section', { 'aria-labelledby': 'edit-title' }, h('h2', { id: 'edit-title' }, 'Edit endpoint'), form),
    );
    edit.setAttribute('aria-expanded', 'true');
    form.querySelector<HTMLInputElement>('#url')!.focus();
  });
  return h(
    'div',
    {},
    h(
      'div',
      { class: 'actions', role: 'group', 'aria-label': 'Endpoint actions' },
      toggle,
      button(
        'Rotate secret',
        'Secret rotated: the previous one keeps signing for 24 hours',
        async () => {
          const rotated = await api<{ signingSecret: string }>('POST', `${path}/rotate-secret`);
          extra.replaceChildren(secretPanel('New signing secret', rotated.signingSecret));
          await reload();
          extra.querySelector<HTMLElement>('button')?.focus();
        },
        'Rotate the signing secret? The new one is shown once; the previous one keeps signing for 24 hours.',
      ),
      h(
        'button',
        { type: 'button', onclick: () => void sendTest(path, extra, reloadDeliveries) },
        'Send test event',
      ),
      edit,
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          onclick: () => {
            if (!confirmed(`Delete ${endpoint.url}? Its deliveries stop and it cannot be restored.`)) return;
            void api('DELETE', path).then(
              () => {
                flash('Endpoint deleted');
                location.hash = '#/webhooks';
              },
              (error: unknown) => announce(userMessage(error), 'bad'),
            );
          },
        },
        'Delete',
      ),
    ),
    recoverForm(path, reloadDeliveries),
  );
}

/** After a redraw, focus returns to the action that follows from the one just taken. */
function focusAction(text: string): void {
  [...document.querySelectorAll<HTMLButtonElement>('[aria-label="Endpoint actions"] button')]
    .find((b) => b.textContent === text)
    ?.focus();
}

/** Sends a test event and says what the receiver did: delivered or not, its status, latency, answer. */
async function sendTest(
  path: string,
  extra: HTMLElement,
  reloadDeliveries: () => Promise<void>,
): Promise<void> {
  const panel = h(
    'div',
    { class: 'card test-result', role: 'status', 'data-testid': 'test-result' },
    'Sending a test event…',
  );
  extra.replaceChildren(panel);
  try {
    const result = await api<TestDelivery>('POST', `${path}/test`, {});
    const outcome = result.delivered
      ? 'Test event delivered'
      : `Test event not delivered: ${result.statusCode !== null ? `the receiver answered HTTP ${result.statusCode}` : (result.errorMessage ?? result.errorKind ?? 'no answer')}`;
    panel.replaceChildren(
      h('h2', {}, result.delivered ? badge('delivered', 'ok') : badge('not delivered', 'bad'), ' ', outcome),
      h(
        'dl',
        {},
        h('dt', {}, 'Event id'),
        h('dd', {}, copyable(result.eventId, 'event id')),
        h('dt', {}, 'Status'),
        h('dd', {}, result.statusCode === null ? 'no response' : `HTTP ${result.statusCode}`),
        h('dt', {}, 'Latency'),
        h('dd', {}, `${result.latencyMs} ms`),
        result.errorKind ? h('dt', {}, 'Error') : null,
        result.errorKind
          ? h(
              'dd',
              {},
              `${result.errorKind.replace(/_/g, ' ')}${result.errorMessage ? ': ' + result.errorMessage : ''}`,
            )
          : null,
      ),
      h('p', { class: 'caption' }, 'Response body (excerpt)'),
      h(
        'pre',
        { class: 'excerpt', tabindex: '0', 'aria-label': 'Response body' },
        result.responseBody.slice(0, 2000) || '(empty)',
      ),
    );
    panel.className = `card test-result ${result.delivered ? 'result-ok' : 'result-bad'}`;
    announce(outcome, result.delivered ? 'ok' : 'bad');
    await reloadDeliveries();
  } catch (error) {
    extra.replaceChildren();
    announce(userMessage(error), 'bad');
  }
}

function recoverForm(path: string, reloadDeliveries: () => Promise<void>): HTMLElement {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const since = h('input', { id: 'recover-since', type: 'datetime-local', 'aria-required': 'true' });
  const until = h('input', { id: 'recover-until', type: 'datetime-local' });
  const form = h(
    'form',
    { class: 'inline card', novalidate: true, 'aria-label': 'Recover failed deliveries' },
    h('label', { for: 'recover-since' }, `Recover from (${zone})`),
    since,
    h('label', { for: 'recover-until' }, `until (${zone}, optional)`),
    until,
    h('button', { type: 'submit', class: 'secondary' }, 'Recover failed deliveries'),
  );
  const errors = fieldErrors(form);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    errors.clear();
    if (!since.value) errors.mark(since, 'Choose when the window starts.');
    else if (new Date(since.value).getTime() > Date.now()) errors.mark(since, 'Must be in the past.');
    if (since.value && until.value && new Date(until.value) <= new Date(since.value))
      errors.mark(until, 'Must be after the start.');
    if (!errors.ok()) return;
    // The inputs are in the browser's zone, as every time on the page is shown.
    const window = {
      since: localToIso(since.value),
      ...(until.value ? { until: localToIso(until.value) } : {}),
    };
    void act(`Recovery started for deliveries since ${formatTime(window.since)}`, async () => {
      await api('POST', `${path}/recover`, window);
      await reloadDeliveries();
    });
  });
  return form;
}
