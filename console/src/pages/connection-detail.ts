// One connection: its account, status history and disconnect (with or without purge).
import { api, canWrite } from '../api';
import type { Connection } from '../connectors';
import { accountName, connectionTone } from '../connectors';
import { announce, badge, formatTime, h } from '../dom';
import { act, loadInto, main } from '../widgets';

export function connectionPage(id: string): void {
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
