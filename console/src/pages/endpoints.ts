// Webhook endpoints: the list (with a "failing" marker for an endpoint whose deliveries keep failing)
// and the creation form (catalog picker, resource scopes, the secret once).
import type { Page } from '../api';
import { api, canWrite } from '../api';
import { announce, h, when } from '../dom';
import type { Endpoint } from '../webhooks';
import { endpointBadge } from '../webhooks';
import { PAGE_SIZE, dataTable, focusHeading, loadInto, main, pager, secretPanel } from '../widgets';
import { endpointForm } from './endpoint-form';

export function endpointsPage(offset = 0): void {
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
      dataTable(
        'Endpoints',
        ['URL', 'Status', 'Event types', 'Created'],
        page.data.map((endpoint) =>
          h(
            'tr',
            {},
            h('td', {}, h('a', { href: `#/webhooks/${encodeURIComponent(endpoint.id)}` }, endpoint.url)),
            h('td', {}, endpointBadge(endpoint)),
            h('td', {}, endpoint.eventTypeFilters.join(', ')),
            h('td', {}, when(endpoint.createdAt)),
          ),
        ),
      ),
      pager({ ...page, count: page.data.length }, endpointsPage),
    );
  });
}

export function newEndpointPage(): void {
  document.title = 'New endpoint — Console';
  const form = endpointForm({
    submitText: 'Create endpoint',
    send: async (body) =>
      showCreated(
        await api<{ endpoint: Endpoint; signingSecret: string }>('POST', '/webhooks/v1/endpoints', body),
      ),
  });
  main().replaceChildren(h('h1', {}, 'New webhook endpoint'), form);
}

/** The secret, shown this once, and the way on to the endpoint. */
function showCreated(created: { endpoint: Endpoint; signingSecret: string }): void {
  main().replaceChildren(
    h('h1', {}, 'Endpoint created'),
    secretPanel('Signing secret', created.signingSecret),
    h(
      'p',
      {},
      h('a', { href: `#/webhooks/${encodeURIComponent(created.endpoint.id)}` }, 'Go to the endpoint'),
    ),
  );
  focusHeading();
  announce('Endpoint created');
}
