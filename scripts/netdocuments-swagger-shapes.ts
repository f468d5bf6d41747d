// Writes test/fixtures/netdocuments-shapes.ts from the certified Power Platform connector's description
// of the NetDocuments REST API (microsoft/PowerPlatformConnectors,
// certified-connectors/NetDocuments/apiDefinition.swagger.json, Swagger 2.0): every operation (method,
// path, id) and the inline schemas of the answers it describes, in the notation of
// test/support/shape-check.ts (an integer without a format is `integer`, a string's format kept). An
// operation whose answer the description does not describe gets `null`: the contract checks those
// bodies against what docs/providers.md says was chosen, not against this fixture.
//   node --import tsx scripts/netdocuments-swagger-shapes.ts <apiDefinition.swagger.json> <commit> > test/fixtures/netdocuments-shapes.ts
import { readFileSync } from 'node:fs';

interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
}

const [file, commit] = process.argv.slice(2);
if (!file || !/^[0-9a-f]{40}$/.test(commit ?? '')) {
  console.error('usage: netdocuments-swagger-shapes.ts <apiDefinition.swagger.json> <40-hex commit>');
  process.exit(2);
}
const description = JSON.parse(readFileSync(file, 'utf8')) as {
  info: { version: string; title: string };
  host: string;
  definitions?: Record<string, Schema>;
  paths: Record<
    string,
    Record<string, { operationId?: string; responses?: Record<string, { schema?: Schema }> }>
  >;
};

const schemas: Record<string, Record<string, string>> = {};

/** A property's shape; an object or an array of objects becomes a schema of its own, named `at`. */
function shapeOf(schema: Schema, at: string): string {
  if (schema.$ref) return shapeOf(description.definitions![schema.$ref.split('/').at(-1)!]!, at);
  if (schema.type === 'array') return `[${shapeOf(schema.items ?? {}, `${at}[]`)}]`;
  if (schema.type === 'object' || schema.properties) {
    const required = new Set(schema.required ?? []);
    schemas[at] = Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([name, property]) => [
        name,
        `${required.has(name) ? '!' : ''}${shapeOf(property, `${at}.${name}`)}`,
      ]),
    );
    return `@${at}`;
  }
  if (schema.type === 'integer') return schema.format ? `integer/${schema.format}` : 'integer';
  if (schema.type === 'string') return schema.format ? `string/${schema.format}` : 'string';
  if (schema.type === 'boolean' || schema.type === 'number') return schema.type;
  return 'object';
}

const operations: { id: string; method: string; path: string; response: Record<string, string> | null }[] =
  [];
for (const [path, methods] of Object.entries(description.paths))
  for (const [method, operation] of Object.entries(methods)) {
    if (method === 'parameters' || !operation.operationId) continue;
    const response: Record<string, string> = {};
    for (const [status, answer] of Object.entries(operation.responses ?? {}))
      if (answer.schema && /^\d{3}$/.test(status))
        response[status] = shapeOf(answer.schema, operation.operationId);
    operations.push({
      id: operation.operationId,
      method: method.toUpperCase(),
      // `{id}` is one path segment; matched case-insensitively, as NetDocuments' paths are.
      // Slashes escaped for the regex literal, except inside the `[^/]` class that stands for a parameter.
      path: `^${path
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/\//g, '\\/'))
        .join('[^/]+')}$`,
      response: Object.keys(response).length ? response : null,
    });
  }
// The most specific first: a path with fewer parameters before one that would also match it.
operations.sort((a, b) => (a.path.match(/\[\^/g) ?? []).length - (b.path.match(/\[\^/g) ?? []).length);

const lines = [
  `// The NetDocuments REST API as the certified Power Platform connector describes it`,
  `// (${description.info.title} ${description.info.version}, host ${description.host}): its operations and`,
  `// the answers it describes, extracted by scripts/netdocuments-swagger-shapes.ts in the notation of`,
  `// test/support/shape-check.ts. \`response: null\`: the description gives no schema for the answer.`,
  `// Generated: do not edit.`,
  '',
  'export const ND_SOURCE = {',
  `  repository: 'microsoft/PowerPlatformConnectors',`,
  `  path: 'certified-connectors/NetDocuments/apiDefinition.swagger.json',`,
  `  commit: '${commit}',`,
  `  version: '${description.info.version}',`,
  '} as const;',
  '',
  `export const ND_SCHEMAS: Record<string, Record<string, string>> = ${JSON.stringify(schemas, null, 2)};`,
  '',
  'export const ND_OPERATIONS: {',
  '  id: string;',
  '  method: string;',
  '  path: RegExp;',
  '  response: Record<number, string> | null;',
  '}[] = [',
  ...operations.map(
    (o) =>
      `  { id: '${o.id}', method: '${o.method}', path: /${o.path}/i, response: ${JSON.stringify(o.response)} },`,
  ),
  '];',
  '',
];
process.stdout.write(lines.join('\n'));
