// The checker the provider contract tests share (test/contract/*-shapes.test.ts): a JSON body against a
// schema written down from a provider's machine-readable description (test/fixtures/*-shapes.ts).
//
// Notation of a property's shape (one string):
//   'string' | 'boolean' | 'number'        a JSON value of that type
//   'string/<format>' | 'integer/<format>' | 'number/<format>'  with a format the book or BASE knows
//   '@Name'            the schema Name of the book; '@A|@B' the one whose `.tag` constant is the value's
//                      (a Stone union of structs); '[T]' an array of T; '{T}' an object whose values are T
//   '=text'            the constant text (Google's `kind`, Dropbox's `.tag`)
//   'object'           an object the description has and the fixture does not write down: refused,
//                      the fake may send it once its shape is written
//   a leading '!'      the property is required (a body without it is wrong)
//   a trailing '|null' null is allowed as well
// A property a schema does not name does not exist at the provider: a body carrying it is wrong.

/** `nextPageToken,files(id,name),user/kind` -> a tree of selected names ('*' selects everything). */
export type Selection = Map<string, Selection | true>;

export function selection(text: string): Selection {
  const out: Selection = new Map();
  let depth = 0;
  let start = 0;
  const take = (raw: string) => {
    const item = raw.trim();
    if (!item) return;
    const open = item.indexOf('(');
    const [path, inner] = open < 0 ? [item, undefined] : [item.slice(0, open), item.slice(open + 1, -1)];
    const names = path.split('/');
    let at = out;
    names.forEach((name, i) => {
      const last = i === names.length - 1;
      if (last && inner === undefined) return void at.set(name, true);
      let next = at.get(name);
      if (next === true) return;
      if (!next) at.set(name, (next = new Map()));
      at = next;
      if (last) for (const [k, v] of selection(inner!)) at.set(k, v);
    });
  };
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (text[i] === ',' && depth === 0) {
      take(text.slice(start, i));
      start = i + 1;
    }
  }
  take(text.slice(start));
  return out;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const INT64 = /^-?\d{1,19}$/;

/** The formats every book has; a book adds its own (`ShapeBook.formats`). */
const BASE_FORMATS: Record<string, (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  boolean: (v) => typeof v === 'boolean',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  'string/int64': (v) => typeof v === 'string' && INT64.test(v) && BigInt(v) < 2n ** 63n,
  'string/date-time': (v) => typeof v === 'string' && RFC3339.test(v) && !Number.isNaN(Date.parse(v)),
  'integer/int32': (v) => Number.isInteger(v) && Math.abs(v as number) < 2 ** 31,
  'integer/int64': (v) => Number.isSafeInteger(v),
  'integer/uint64': (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  'number/float': (v) => typeof v === 'number',
  'number/double': (v) => typeof v === 'number',
};

export interface ShapeBook {
  /** Names the description and its version in every problem (`discovery revision 20250723`). */
  source: string;
  schemas: Record<string, Record<string, string>>;
  formats?: Record<string, (value: unknown) => boolean>;
  /** Protocol annotations any object may carry (OData's `@odata.context`), not properties of a schema. */
  control?: RegExp;
}

export function checkValue(
  book: ShapeBook,
  value: unknown,
  raw: string,
  at: string,
  fields: Selection | true,
  out: string[],
): void {
  const shape = raw.replace(/^!/, '');
  if (shape.endsWith('|null')) {
    if (value === null) return;
    return checkValue(book, value, shape.slice(0, -5), at, fields, out);
  }
  if (shape.startsWith('@') && shape.includes('|')) {
    const names = shape.split('|').map((s) => s.slice(1));
    const tag = (value as Record<string, unknown> | null)?.['.tag'];
    const name = names.find((n) => book.schemas[n]?.['.tag'] === `=${String(tag)}`);
    if (!name) return void out.push(`${at}: .tag ${JSON.stringify(tag)} is none of ${shape}`);
    return checkObject(book, value, name, at, fields, out);
  }
  if (shape.startsWith('@')) return checkObject(book, value, shape.slice(1), at, fields, out);
  if (shape.startsWith('[')) {
    if (!Array.isArray(value)) return void out.push(`${at}: not an array (${shape})`);
    return value.forEach((item, i) => checkValue(book, item, shape.slice(1, -1), `${at}[${i}]`, fields, out));
  }
  if (shape.startsWith('{')) {
    if (!value || typeof value !== 'object' || Array.isArray(value))
      return void out.push(`${at}: not an object (${shape})`);
    for (const [key, item] of Object.entries(value))
      checkValue(book, item, shape.slice(1, -1), `${at}.${key}`, true, out);
    return;
  }
  if (shape.startsWith('=')) {
    if (value !== shape.slice(1)) out.push(`${at}: ${JSON.stringify(value)}, not ${shape.slice(1)}`);
    return;
  }
  // 'object' (described, not written down) and an unknown format fail alike.
  const test = book.formats?.[shape] ?? BASE_FORMATS[shape];
  if (!test?.(value)) out.push(`${at}: ${JSON.stringify(value)} is not ${shape}`);
}

export function checkObject(
  book: ShapeBook,
  value: unknown,
  schema: string,
  at: string,
  fields: Selection | true,
  out: string[],
): void {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return void out.push(`${at}: not a ${schema} object`);
  const properties = book.schemas[schema];
  if (!properties) return void out.push(`${at}: the book has no schema ${schema}`);
  const all = fields === true || fields.has('*');
  for (const [key, item] of Object.entries(value)) {
    if (book.control?.test(key)) continue;
    const shape = properties[key];
    if (shape === undefined) {
      out.push(`${at}.${key}: ${schema} has no such property (${book.source})`);
      continue;
    }
    const selected = all ? true : fields.get(key);
    if (selected === undefined) out.push(`${at}.${key}: not in the request's fields`);
    checkValue(book, item, shape, `${at}.${key}`, selected ?? true, out);
  }
  // Required properties: only where every field was asked for (a selection may leave them out).
  if (all)
    for (const [key, shape] of Object.entries(properties))
      if (shape.startsWith('!') && !(key in value)) out.push(`${at}.${key}: required by ${schema}, missing`);
}

/** The problems of one body against one schema (empty: none). */
export function problemsOf(
  book: ShapeBook,
  value: unknown,
  schema: string,
  at: string,
  fields: Selection | true = true,
): string[] {
  const out: string[] = [];
  checkValue(book, value, `@${schema}`, at, fields, out);
  return out;
}

/**
 * Where a provider answers only the fields a request selects (Clio's `fields`, Graph's `$select`):
 * the properties of each record outside the selection.
 */
export function unselectedProblems(
  book: ShapeBook,
  records: unknown[],
  schema: string,
  fields: Selection,
  at: string,
): string[] {
  const out: string[] = [];
  records.forEach((record, i) => {
    const found: string[] = [];
    checkValue(book, record, `@${schema}`, `${at}[${i}]`, fields, found);
    out.push(...found.filter((p) => p.endsWith("not in the request's fields")));
  });
  return out;
}

/** What one recorded exchange is (an operation id, or one with its status) and what is wrong with it. */
export interface ExchangeCheck {
  id: string;
  problems: string[];
}

/** The operations the exchanges are (to assert coverage); fails on any problem of any of them. */
export function checkExchanges<E>(exchanges: E[], check: (exchange: E) => ExchangeCheck): Set<string> {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const exchange of exchanges) {
    const result = check(exchange);
    seen.add(result.id);
    problems.push(...result.problems);
  }
  expect(problems).toEqual([]);
  return seen;
}

/** An operation of a REST description: method, path, and the schema of its JSON answer per status. */
export interface RestOperation {
  id: string;
  method: string;
  path: RegExp;
  response?: Record<number, string> | null;
}

/**
 * A REST exchange against its description (Graph's metadata, Clio's OpenAPI): the operation it is, an
 * error body against the error schema, a success body against its status's schema. `schema` is the
 * answer's schema, for the caller's selection checks.
 */
export function checkRestExchange(
  book: ShapeBook,
  operations: readonly RestOperation[],
  errorSchema: string,
  exchange: { method: string; path: string; status: number; json?: unknown },
): ExchangeCheck & { schema?: string } {
  const where = `${exchange.method} ${exchange.path} ${exchange.status}`;
  const op = operations.find((o) => o.method === exchange.method && o.path.test(exchange.path));
  if (!op) return { id: '?', problems: [`${where}: no operation of the description is this`] };
  if (exchange.status >= 400) {
    if (exchange.json === undefined) return { id: op.id, problems: [`${where}: an error without JSON`] };
    return {
      id: `${op.id} ${exchange.status}`,
      problems: problemsOf(book, exchange.json, errorSchema, where),
    };
  }
  const schema = op.response?.[exchange.status];
  if (exchange.json === undefined)
    return { id: op.id, problems: schema ? [`${where}: no JSON body, ${schema} expected`] : [] };
  if (!schema) return { id: op.id, problems: [`${where}: a JSON body where none is documented`] };
  return { id: op.id, problems: problemsOf(book, exchange.json, schema, where), schema };
}
