// One connection: its account, status history, import links (with their runs and documents, and
// exports), and disconnect (with or without purge).
import { api, canWrite } from '../api';
import type { ConnectionDetail } from '../connectors';
import { abandoned, accountName, connectionBadge, connectionTone, onConnectFlowEnd } from '../connectors';
import { announce, badge, copyable, h, when } from '../dom';
import { watchJob } from '../job-watch';
import { act, autoRefresh, busy, confirmed, dataTable, focusHeading, loadInto, main } from '../widgets';
import { reconnectButton } from './connections';
import { importLinksSection } from './import-links';

export function connectionPage(id: string): void {
  document.title = 'Connection — Console';
  const body = h('div', {});
  const purgeJob = h('div', {});
  main().replaceChildren(body, purgeJob);
  const path = `/connectors/v1/connections/${encodeURIComponent(id)}`;
  let shown: ConnectionDetail | undefined;
  const draw = (c: ConnectionDetail): HTMLElement => {
    shown = c;
    document.title = `${c.provider} connection — Console`;
    return h(
      'div',
      {},
      h('div', { class: 'title-row' }, h('h1', {}, `${c.provider} connection`), connectionBadge(c)),
      abandoned(c)
        ? h(
            'p',
            { class: 'notice notice-bad' },
            'Expired: the connect flow was never completed and can no longer be. Start a new connection.',
          )
        : null,
      canWrite() && c.status === 'reauth_required'
        ? h(
            'div',
            { class: 'notice notice-bad' },
            'The provider no longer honours this connection: reconnect the account to resume. ',
            reconnectButton(c),
          )
        : null,
      connectionFacts(c),
      statusHistory(c),
      importLinksSection(c),
      canWrite() && c.status !== 'revoked' ? disconnectForm(c.id, load, purgeJob) : null,
    );
  };
  const load = (): Promise<void> =>
    loadInto(body, async () => draw(await api<ConnectionDetail>('GET', path)));
  void load();
  // Its status changes behind the page (a token refresh refused, a reconnect in another tab): redrawn
  // when it does, unless the user is working in the page.
  const check = async () => {
    if (busy(body)) return;
    const c = await api<ConnectionDetail>('GET', path).catch(() => undefined);
    if (c && shown && (c.status !== shown.status || c.updated_at !== shown.updated_at))
      body.replaceChildren(draw(c));
  };
  autoRefresh(body, 10_000, () => void check());
  onConnectFlowEnd(body, () => void check());
}

function connectionFacts(c: ConnectionDetail): HTMLElement {
  return h(
    'dl',
    {},
    h('dt', {}, 'Id'),
    h('dd', {}, copyable(c.id, 'connection id')),
    h('dt', {}, 'Provider'),
    h(
      'dd',
      {},
      c.provider,
      c.enabled ? '' : ' (switched off for the organization: no new or scheduled runs)',
    ),
    h('dt', {}, 'Account'),
    h(
      'dd',
      {},
      accountName(c),
      c.account?.email && c.account.email !== accountName(c) ? ` <${c.account.email}>` : '',
      c.account?.external_id ? h('span', { class: 'help' }, ` (provider id ${c.account.external_id})`) : '',
    ),
    h('dt', {}, 'Scope tier'),
    h('dd', {}, c.scope_tier),
    h('dt', {}, 'Created'),
    h('dd', {}, when(c.created_at)),
    h('dt', {}, 'Updated'),
    h('dd', {}, when(c.updated_at)),
  );
}

/** Every status the connection went through, newest first, as the API records them. */
function statusHistory(c: ConnectionDetail): HTMLElement {
  const history = c.status_history ?? [];
  return h(
    'section',
    { 'aria-labelledby': 'history-title' },
    h('h2', { id: 'history-title' }, 'Status history'),
    history.length === 0
      ? h('p', { class: 'empty' }, 'No status change recorded yet.')
      : dataTable(
          'Status history, newest first',
          ['Status', 'Since'],
          history.map((entry) =>
            h(
              'tr',
              {},
              h('td', {}, badge(entry.status, connectionTone(entry.status))),
              h('td', {}, when(entry.at)),
            ),
          ),
          { class: 'compact' },
        ),
  );
}

function disconnectForm(id: string, reload: () => Promise<void>, purgeJob: HTMLElement): HTMLElement {
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
      confirm.setAttribute('aria-invalid', 'true');
      confirm.focus();
      return;
    }
    confirm.removeAttribute('aria-invalid');
    if (
      !purge.checked &&
      !confirmed(
        'Disconnect this connection? Its grant is revoked at the provider and its import links stop; the imported documents stay.',
      )
    )
      return;
    void act(purge.checked ? 'Disconnected; purge started' : 'Disconnected', async () => {
      const job = await api<{ id: string } | undefined>(
        'DELETE',
        `/connectors/v1/connections/${encodeURIComponent(id)}?purge=${purge.checked}`,
      );
      // A purge is a job (202): follow it to its counts below the page.
      if (job?.id) purgeJob.replaceChildren(watchJob(job.id, { title: 'Purge' }));
      await reload();
      // The form is gone (a revoked connection has nothing to disconnect): focus the new status.
      focusHeading();
    });
  });
  return form;
}
