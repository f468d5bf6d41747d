// The endpoint form, for a new endpoint and for editing one: URL, description, event types from the
// catalog (with the wildcards of each family), resource scopes. It checks what it can before sending
// (a URL, at least one event type) and marks the field the API's refusal names.
import type { Page } from '../api';
import { api } from '../api';
import { h } from '../dom';
import type { Endpoint, EventType } from '../webhooks';
import { errorState, fieldErrors, formFailure } from '../widgets';

export interface EndpointFormOptions {
  /** The endpoint being edited; none for a new one. */
  endpoint?: Endpoint;
  submitText: string;
  /** Sends the body; its refusal is shown on the form. */
  send: (body: Record<string, unknown>) => Promise<void>;
}

function splitIds(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((v) => v.trim())
    .filter(Boolean);
}

export function endpointForm(options: EndpointFormOptions): HTMLFormElement {
  const current = options.endpoint;
  const picker = h(
    'fieldset',
    { id: 'event-types', tabindex: '-1' },
    h('legend', {}, 'Event types'),
    h('p', { class: 'loading' }, 'Loading the catalog…'),
  );
  const url = h('input', {
    id: 'url',
    name: 'url',
    type: 'url',
    autocomplete: 'off',
    'aria-required': 'true',
    value: current?.url,
  });
  const description = h('input', {
    id: 'description',
    name: 'description',
    type: 'text',
    value: current?.description ?? undefined,
  });
  const vaults = h('input', {
    id: 'vaults',
    name: 'vaults',
    type: 'text',
    'aria-describedby': 'scope-help',
    value: current?.resourceScopes?.vaultIds?.join(', '),
  });
  const matters = h('input', {
    id: 'matters',
    name: 'matters',
    type: 'text',
    'aria-describedby': 'scope-help',
    value: current?.resourceScopes?.matterIds?.join(', '),
  });
  const result = h('div', {});
  const form = h(
    'form',
    { class: 'card', novalidate: true },
    h('label', { for: 'url' }, 'Endpoint URL'),
    url,
    h('label', { for: 'description' }, 'Description (optional)'),
    description,
    picker,
    h(
      'fieldset',
      { id: 'scopes' },
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
    h('button', { type: 'submit' }, options.submitText),
    result,
  );
  void fillCatalogPicker(picker, new Set(current?.eventTypeFilters ?? []));

  const errors = fieldErrors(form);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    errors.clear();
    result.replaceChildren();
    const filters = [...form.querySelectorAll<HTMLInputElement>('input[name=eventType]:checked')].map(
      (i) => i.value,
    );
    const address = url.value.trim();
    if (!address) errors.mark(url, 'Enter the URL that receives the events.');
    else if (!/^https?:\/\/[^/]+/i.test(address) || !URL.canParse(address))
      errors.mark(url, 'Enter a full URL, starting with https://');
    if (filters.length === 0) errors.mark(picker, 'Choose at least one event type or wildcard.');
    if (!errors.ok()) return;
    const vaultIds = splitIds(vaults.value);
    const matterIds = splitIds(matters.value);
    const body: Record<string, unknown> = { url: address, eventTypeFilters: filters };
    const text = description.value.trim();
    if (text) body.description = text;
    else if (current?.description) body.description = null;
    if (vaultIds.length || matterIds.length) {
      body.resourceScopes = {
        ...(vaultIds.length ? { vaultIds } : {}),
        ...(matterIds.length ? { matterIds } : {}),
      };
    } else if (current?.resourceScopes) body.resourceScopes = null;
    void options
      .send(body)
      .catch((error: unknown) =>
        formFailure(
          error,
          { url, description, eventTypeFilters: picker, resourceScopes: vaults },
          errors,
          result,
        ),
      );
  });
  return form;
}

/** Every catalog type (all its pages), offered with the wildcards of each family; `checked` preselected. */
async function fillCatalogPicker(picker: HTMLElement, checked: Set<string>): Promise<void> {
  try {
    const types = await eventCatalog();
    const families = [...new Set(types.map((t) => t.type.split('.')[0]!))];
    const option = (value: string, text: string, detail?: string) =>
      h(
        'label',
        { class: 'check' },
        h('input', { type: 'checkbox', name: 'eventType', value, checked: checked.has(value) }),
        h(
          'span',
          {},
          h('code', {}, value),
          ' ',
          text,
          detail ? h('span', { class: 'help' }, ` — ${detail}`) : null,
        ),
      );
    picker.replaceChildren(
      h('legend', {}, 'Event types'),
      h(
        'div',
        { class: 'group' },
        h('h2', {}, 'Wildcards'),
        option('*', 'every type this organization may receive'),
        families.map((f) => option(`${f}.*`, `every ${f} event`)),
      ),
      h(
        'div',
        { class: 'group' },
        h('h2', {}, 'Catalog'),
        types.map((t) => option(t.type, t.description, `needs ${t.permission}`)),
      ),
    );
  } catch (error) {
    picker.replaceChildren(h('legend', {}, 'Event types'), errorState(error));
  }
}

/** The whole event-type catalog, every page of it. */
export async function eventCatalog(): Promise<EventType[]> {
  const types: EventType[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = await api<Page<EventType>>('GET', `/webhooks/v1/event-types?limit=200&offset=${offset}`);
    types.push(...page.data);
    if (!page.hasMore) return types;
  }
}
