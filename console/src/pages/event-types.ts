// The event catalog: each type's description, the permission it needs, its data schema (as the API
// serves it) and an example payload built from that schema.
import { h } from '../dom';
import type { EventType } from '../webhooks';
import { loadInto, main } from '../widgets';
import { eventCatalog } from './endpoint-form';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  examples?: unknown[];
  default?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  minimum?: number;
};

/** A value that fits `schema`: its example or default if it has one, else one made from its type. */
export function exampleOf(schema: Schema, name = ''): unknown {
  if (schema.examples?.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const alternative = schema.anyOf ?? schema.oneOf;
  if (alternative?.length)
    return exampleOf(alternative.find((s) => s.type !== 'null') ?? alternative[0]!, name);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [key, exampleOf(value, key)]),
      );
    case 'array':
      return schema.items ? [exampleOf(schema.items, name)] : [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'date-time') return '2026-01-01T09:00:00.000Z';
      if (schema.format === 'uri') return 'https://example.com/';
      if (schema.format === 'email') return 'someone@example.com';
      if (/Id$/.test(name)) return `${name.replace(/Id$/, '').slice(0, 3)}_123`;
      return name ? `example ${name}` : 'example';
    default:
      return null;
  }
}

export function eventTypesPage(): void {
  document.title = 'Event types — Console';
  const list = h('div', {});
  main().replaceChildren(
    h('h1', {}, 'Event types'),
    h('p', { class: 'help' }, 'What an endpoint can receive: each type, its data schema and an example.'),
    list,
  );
  void loadInto(list, async () => {
    const types = await eventCatalog();
    return h('div', {}, types.map(typeCard));
  });
}

function typeCard(type: EventType): HTMLElement {
  const id = `type-${type.type.replace(/\W/g, '-')}`;
  return h(
    'article',
    { class: 'card event-type', 'aria-labelledby': id },
    h('h2', { id }, h('code', {}, type.type)),
    h('p', {}, type.description),
    h('p', { class: 'help' }, `Receiving it needs the ${type.permission} permission.`),
    h(
      'details',
      {},
      h('summary', {}, 'Data schema'),
      h(
        'pre',
        { class: 'excerpt', tabindex: '0', 'aria-label': `Schema of ${type.type}` },
        JSON.stringify(type.schema, null, 2),
      ),
    ),
    h(
      'details',
      {},
      h('summary', {}, 'Example payload'),
      h(
        'pre',
        {
          class: 'excerpt',
          tabindex: '0',
          'aria-label': `Example of ${type.type}`,
          'data-testid': 'example',
        },
        JSON.stringify(exampleOf(type.schema as Schema), null, 2),
      ),
    ),
  );
}
