// Writes test/fixtures/box-2.0-shapes.ts from Box's OpenAPI description (the public box/box-openapi
// repository's openapi.json): the schemas of the answers our Box client and fake exchange, each
// property's shape in the notation of test/support/shape-check.ts (allOf merged, required marked `!`,
// `nullable` as `|null`, a one-value enum as its constant, a oneOf/anyOf as `union/A|B`). A schema
// outside EXPAND stays `object`: described, not written down, so a body carrying it is refused.
//   node --import tsx scripts/box-openapi-shapes.ts <openapi.json> <commit> > test/fixtures/box-2.0-shapes.ts
import { readFileSync } from 'node:fs';

interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  nullable?: boolean;
  enum?: unknown[];
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
}

const [file, commit] = process.argv.slice(2);
if (!file || !/^[0-9a-f]{40}$/.test(commit ?? '')) {
  console.error('usage: box-openapi-shapes.ts <openapi.json> <40-hex commit>');
  process.exit(2);
}
const description = JSON.parse(readFileSync(file, 'utf8')) as {
  info: { version: string };
  components: { schemas: Record<string, Schema> };
  paths: Record<
    string,
    Record<
      string,
      { operationId?: string; responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }
    >
  >;
};
const SCHEMAS = description.components.schemas;

/** The schemas written down: what the answers we check hold, down to the mini forms they nest. */
const EXPAND = new Set([
  'Items',
  'Item',
  'File--Full',
  'File',
  'File--Mini',
  'File--Base',
  'Folder--Full',
  'Folder',
  'Folder--Mini',
  'Folder--Base',
  'FileVersion--Mini',
  'FileVersion--Base',
  'Files',
  'Events',
  'Event',
  'EventSourceResource',
  'ClientError',
  'ConflictError',
  'FileConflict',
  'UploadSession',
  'UploadedPart',
  'UploadPart',
  'UploadPart--Mini',
  'User--Full',
  'User',
  'User--Mini',
  'User--Base',
  'TrashFileRestored',
  'TrashFolderRestored',
]);

const out: Record<string, Record<string, string>> = {};
const unions = new Set<string>();
const refName = (ref: string) => ref.split('/').at(-1)!;

/** A schema's properties and required names, its allOf members merged in order. */
function flatten(schema: Schema, props: Record<string, Schema>, required: Set<string>): void {
  if (schema.$ref) return flatten(SCHEMAS[refName(schema.$ref)]!, props, required);
  for (const member of schema.allOf ?? []) flatten(member, props, required);
  for (const [name, value] of Object.entries(schema.properties ?? {}))
    props[name] = props[name] && !value.$ref && !value.allOf && !value.type ? props[name] : value;
  for (const name of schema.required ?? []) required.add(name);
}

function shapeOf(schema: Schema, where: string): string {
  if (schema.$ref) {
    const name = refName(schema.$ref);
    if (!EXPAND.has(name)) return 'object';
    const target = SCHEMAS[name]!;
    if (target.oneOf || target.anyOf) return shapeOf(target, name); // a union is its members
    write(name);
    return `@${name}`;
  }
  if (schema.allOf) {
    const ref = schema.allOf.find((member) => member.$ref);
    const nullable = schema.allOf.some((member) => member.nullable === true) || schema.nullable === true;
    let shape: string;
    if (ref) shape = shapeOf(ref, where);
    else {
      const typed = schema.allOf.find((member) => member.type || member.properties || member.allOf);
      const merged: Schema = { ...typed, properties: {}, required: [] };
      const props: Record<string, Schema> = {};
      const required = new Set<string>();
      for (const member of schema.allOf) flatten(member, props, required);
      if (Object.keys(props).length) return objectShape(where, props, required, nullable);
      shape = shapeOf({ ...merged, properties: undefined, allOf: undefined, nullable: false }, where);
    }
    return nullable && !shape.endsWith('|null') ? `${shape}|null` : shape;
  }
  const members = schema.oneOf ?? schema.anyOf;
  if (members) {
    const union = `union/${members.map((member) => shapeOf(member, where)).join('|')}`;
    unions.add(union);
    return union + (schema.nullable ? '|null' : '');
  }
  const nullable = schema.nullable ? '|null' : '';
  if (schema.enum?.length === 1 && typeof schema.enum[0] === 'string') return `=${schema.enum[0]}${nullable}`;
  if (schema.type === 'array') return `[${shapeOf(schema.items ?? {}, `${where}[]`)}]${nullable}`;
  if (schema.type === 'object' || schema.properties) {
    const props: Record<string, Schema> = {};
    const required = new Set<string>();
    flatten(schema, props, required);
    if (!Object.keys(props).length) return `object${nullable}`;
    return objectShape(where, props, required, schema.nullable === true);
  }
  if (schema.type === 'integer') return `integer/${schema.format === 'int32' ? 'int32' : 'int64'}${nullable}`;
  if (schema.type === 'number') return `number/double${nullable}`;
  if (schema.type === 'string')
    return `${schema.format === 'date-time' ? 'string/date-time' : 'string'}${nullable}`;
  if (schema.type === 'boolean') return `boolean${nullable}`;
  return `object${nullable}`;
}

/** An inline object: a schema of its own, named after where it sits (`File.path_collection`). */
function objectShape(
  where: string,
  props: Record<string, Schema>,
  required: Set<string>,
  nullable: boolean,
): string {
  out[where] = {};
  const target = out[where];
  for (const [name, value] of Object.entries(props))
    target[name] = `${required.has(name) ? '!' : ''}${shapeOf(value, `${where}.${name}`)}`;
  return `@${where}${nullable ? '|null' : ''}`;
}

function write(name: string): void {
  if (out[name]) return;
  const schema = SCHEMAS[name];
  if (!schema) throw new Error(`no schema ${name}`);
  if (schema.oneOf || schema.anyOf) return void shapeOf(schema, name); // its members only
  const props: Record<string, Schema> = {};
  const required = new Set<string>();
  flatten(schema, props, required);
  out[name] = {};
  const target = out[name];
  for (const [prop, value] of Object.entries(props))
    target[prop] = `${required.has(prop) ? '!' : ''}${shapeOf(value, `${name}.${prop}`)}`;
}

for (const name of EXPAND) write(name);

/** The operations the client and fake use: method, path pattern, the schema of each JSON answer. */
const OPERATIONS: [string, string][] = [
  ['get', '/users/me'],
  ['get', '/folders/{folder_id}'],
  ['post', '/folders/{folder_id}'],
  ['delete', '/folders/{folder_id}'],
  ['get', '/folders/{folder_id}/items'],
  ['get', '/files/{file_id}'],
  ['put', '/files/{file_id}'],
  ['post', '/files/{file_id}'],
  ['delete', '/files/{file_id}'],
  ['get', '/files/{file_id}/content'],
  ['post', '/files/{file_id}/content'],
  ['post', '/files/content'],
  ['post', '/files/upload_sessions'],
  ['post', '/files/{file_id}/upload_sessions'],
  ['get', '/files/upload_sessions/{upload_session_id}'],
  ['put', '/files/upload_sessions/{upload_session_id}'],
  ['delete', '/files/upload_sessions/{upload_session_id}'],
  ['post', '/files/upload_sessions/{upload_session_id}/commit'],
  ['get', '/events'],
];
const operations = OPERATIONS.map(([method, path]) => {
  const op = description.paths[path]?.[method];
  if (!op) throw new Error(`no operation ${method} ${path}`);
  const response: Record<number, string> = {};
  for (const [status, answer] of Object.entries(op.responses ?? {})) {
    const schema = answer.content?.['application/json']?.schema;
    if (!/^2\d\d$/.test(status) || !schema?.$ref) continue;
    const name = refName(schema.$ref);
    write(name);
    response[Number(status)] = name;
  }
  // Literal slashes escaped for a regex literal; a parameter is one segment (`[^/]+`, no escape needed).
  const pattern = `^${path
    .split(/\{[^}]+\}/)
    .map((literal) => literal.replace(/\//g, '\\/'))
    .join('[^/]+')}$`;
  return { id: op.operationId ?? `${method} ${path}`, method: method.toUpperCase(), path: pattern, response };
});

const lines = [
  '// The answers of Box API 2.0 that our Box client and fake (sandbox/providers/box/) exchange, taken from',
  '// the OpenAPI description Box publishes (BOX_2_0_SOURCE; info.version ' +
    description.info.version +
    ') by',
  '// scripts/box-openapi-shapes.ts, in the notation of test/support/shape-check.ts: every property of each',
  '// schema (allOf merged), its type and format, the required ones (`!`), `nullable` (`|null`), a one-value',
  "// enum as its constant. `union/A|B` is a oneOf/anyOf, resolved by the test by the value's `type`. A",
  "// referenced schema the fixture does not expand is 'object' and refused. Generated: do not edit.",
  '',
  'export const BOX_2_0_SOURCE = {',
  "  repository: 'box/box-openapi',",
  "  path: 'openapi.json',",
  `  commit: '${commit}',`,
  '} as const;',
  '',
  `export const BOX_2_0_SCHEMAS: Record<string, Record<string, string>> = ${JSON.stringify(out, null, 2)};`,
  '',
  '/** The oneOf/anyOf shapes the schemas use (the test gives each a format that resolves it). */',
  `export const BOX_2_0_UNIONS: readonly string[] = ${JSON.stringify([...unions].sort(), null, 2)};`,
  '',
  'export const BOX_2_0_OPERATIONS: { id: string; method: string; path: RegExp; response: Record<number, string> }[] = [',
  ...operations.map(
    (op) =>
      `  { id: ${JSON.stringify(op.id)}, method: '${op.method}', path: /${op.path}/, response: ${JSON.stringify(op.response)} },`,
  ),
  '];',
  '',
];
process.stdout.write(lines.join('\n'));
