// Writes test/fixtures/imanage-work-shapes.ts from iManage's certified Power Platform connector
// (microsoft/PowerPlatformConnectors, certified-connectors/iManage Work/apiDefinition.swagger.json): the
// profile schemas of documents, folders and workspaces that the connector's operations answer (iManage
// Work REST API v2's profiles, passed through), and the `{data: ...}` bodies that carry them, each
// property's shape in the notation of test/support/shape-check.ts (required marked `!`). A schema not
// written down stays `object`: described, not written down, so a body carrying it is refused.
//   node --import tsx scripts/imanage-connector-shapes.ts <apiDefinition.swagger.json> <commit> \
//     > test/fixtures/imanage-work-shapes.ts
import { readFileSync } from 'node:fs';

interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
}

const [file, commit] = process.argv.slice(2);
if (!file || !/^[0-9a-f]{40}$/.test(commit ?? '')) {
  console.error('usage: imanage-connector-shapes.ts <apiDefinition.swagger.json> <40-hex commit>');
  process.exit(2);
}
const description = JSON.parse(readFileSync(file, 'utf8')) as {
  host: string;
  basePath: string;
  definitions: Record<string, Schema>;
  responses: Record<string, { schema?: Schema }>;
};

/** The profiles the fake answers, and what they nest. */
const DEFINITIONS = [
  'FullDocumentProfile',
  'ShortDocumentProfile',
  'MinimalDocumentProfile',
  'FolderProfile',
  'WorkspaceProfile',
  'SearchWorkspaceResult',
  'UserInfo',
];
/** The response bodies (`{data: <profile>}`) of the operations whose answers the fake gives. */
const RESPONSES = [
  'FullDocumentProfileResponseBody',
  'ShortDocumentProfileResponseBody',
  'WorkspaceProfileResponseBody',
];

const refName = (ref: string) => ref.replace(/^#\/(definitions|responses)\//, '');

function shapeOf(schema: Schema): string {
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return DEFINITIONS.includes(name) ? `@${name}` : 'object';
  }
  if (schema.type === 'array') return `[${schema.items ? shapeOf(schema.items) : 'object'}]`;
  if (schema.type === 'integer' || schema.type === 'number')
    return schema.format ? `${schema.type}/${schema.format}` : 'number';
  if (schema.type === 'string') return schema.format ? `string/${schema.format}` : 'string';
  if (schema.type === 'boolean') return 'boolean';
  return 'object';
}

function properties(schema: Schema): Record<string, string> {
  const required = new Set(schema.required ?? []);
  return Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, property]) => [
      name,
      `${required.has(name) ? '!' : ''}${shapeOf(property)}`,
    ]),
  );
}

const schemas: Record<string, Record<string, string>> = {};
for (const name of DEFINITIONS) schemas[name] = properties(description.definitions[name]!);
for (const name of RESPONSES) schemas[name] = properties(description.responses[name]!.schema!);

const text = `// The profiles of iManage Work REST API v2 that our iManage client and fake (sandbox/providers/imanage/)
// exchange, as iManage's certified Power Platform connector describes them (IMANAGE_WORK_SOURCE; its host
// ${description.host}${description.basePath} passes Work API v2's profiles through), taken by
// scripts/imanage-connector-shapes.ts in the notation of test/support/shape-check.ts: every property of
// each schema, its type and format, the required ones (\`!\`). A referenced schema the fixture does not
// expand is 'object' and refused. Generated: do not edit.

export const IMANAGE_WORK_SOURCE = {
  repository: 'microsoft/PowerPlatformConnectors',
  path: 'certified-connectors/iManage Work/apiDefinition.swagger.json',
  commit: '${commit}',
} as const;

export const IMANAGE_WORK_SCHEMAS: Record<string, Record<string, string>> = ${JSON.stringify(schemas, null, 2)};
`;
process.stdout.write(text);
