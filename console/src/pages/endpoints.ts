// Webhook endpoints: the list and the creation form (catalog picker, resource scopes, the secret once).
import type { Page } from '../api';
import { api, canWrite } from '../api';
import { announce, formatTime, h } from '../dom';
import type { Endpoint, EventType } from '../webhooks';
import { endpointBadge } from '../webhooks';
import { PAGE_SIZE, dataTable, errorState, loadInto, main, pager, secretPanel } from '../widgets';

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
            h('td', {}, formatTime(endpoint.createdAt)),
          ),
        ),
      ),
      pager({ ...page, count: page.data.length }, endpointsPage),
    );
  });
}

function splitIds(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((v) => v.trim())
    .filter(Boolean);
}

export function newEndpointPage(): void {
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

  void fillCatalogPicker(picker);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const body = endpointBody(form, { url, description, vaults, matters });
    void (async () => {
      try {
        showCreated(
          await api<{ endpoint: Endpoint; signingSecret: string }>('POST', '/webhooks/v1/endpoints', body),
        );
      } catch (error) {
        result.replaceChildren(errorState(error));
      }
    })();
  });
}

/** Every catalog type (all its pages), offered with the wildcards of each family. */
async function fillCatalogPicker(picker: HTMLElement): Promise<void> {
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
}

/** The creation request from the form: scopes only when some id was given. */
function endpointBody(
  form: HTMLFormElement,
  fields: Record<'url' | 'description' | 'vaults' | 'matters', HTMLInputElement>,
): Record<string, unknown> {
  const filters = [...form.querySelectorAll<HTMLInputElement>('input[name=eventType]:checked')].map(
    (i) => i.value,
  );
  const vaultIds = splitIds(fields.vaults.value);
  const matterIds = splitIds(fields.matters.value);
  const body: Record<string, unknown> = { url: fields.url.value, eventTypeFilters: filters };
  if (fields.description.value.trim()) body.description = fields.description.value.trim();
  if (vaultIds.length || matterIds.length) {
    body.resourceScopes = {
      ...(vaultIds.length ? { vaultIds } : {}),
      ...(matterIds.length ? { matterIds } : {}),
    };
  }
  return body;
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
  announce('Endpoint created');
}
