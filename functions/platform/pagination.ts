// List pagination: `limit` (default 50, max 200) and `offset`, read through the table's own pages; on
// the long lists (documents, runs, deliveries) also an opaque `cursor` (keyset: the key of the page's
// last item), so a page deep in a list reads that page only.
import * as z from 'zod/mini';
import { InvalidRequestError } from './errors';
import { lazy } from './lazy';
import type { Item, Query, Table } from './ports';
import { INDEX_KEYS } from './tables';
/** A list's page as the query asks for it (pagination-query.ts makes it of the query string). */
export interface Pagination {
  limit: number;
  offset: number;
  /** Only on the long lists (cursorPaginationQuery). */
  cursor?: string;
}

export const MAX_LIMIT = 200;
export const MAX_OFFSET = 10_000;

// The page fields every list's response schema shares (the same instances, as the document names them
// once), built on the first page schema (platform/lazy.ts): only the OpenAPI generator builds one.
const pageParts = /* @__PURE__ */ lazy(() => ({
  fields: {
    limit: z
      .int()
      .check(z.gte(1))
      .check(z.lte(MAX_LIMIT))
      .check(z.describe('The limit asked for (default 50)')),
    offset: z
      .int()
      .check(z.gte(0))
      .check(z.lte(MAX_OFFSET))
      .check(z.describe('Items skipped before this page')),
  },
  hasMore: z.boolean().check(z.describe('Whether items follow this page')),
  nextCursor: z
    .nullable(z.string())
    .check(z.describe('Pass as cursor for the page after this one; null at the end of the list')),
}));

/** A page of a list as connector and application routes answer it (snake_case, like the Connection resource). */
export const snakeCasePage = <T extends z.ZodMiniType>(item: T) =>
  z.object({ data: z.array(item), ...pageParts().fields, has_more: pageParts().hasMore });

/** A page of a list as webhook routes answer it (camelCase, like the webhook resources). */
export const camelCasePage = <T extends z.ZodMiniType>(item: T) =>
  z.object({ data: z.array(item), ...pageParts().fields, hasMore: pageParts().hasMore });

/** A long list's page, with the cursor of the next page (snake_case). */
export const snakeCaseCursorPage = <T extends z.ZodMiniType>(item: T) =>
  z.object({
    data: z.array(item),
    ...pageParts().fields,
    has_more: pageParts().hasMore,
    next_cursor: pageParts().nextCursor,
  });

/** A long list's page, with the cursor of the next page (camelCase). */
export const camelCaseCursorPage = <T extends z.ZodMiniType>(item: T) =>
  z.object({
    data: z.array(item),
    ...pageParts().fields,
    hasMore: pageParts().hasMore,
    nextCursor: pageParts().nextCursor,
  });

export interface Window<T> {
  items: T[];
  hasMore: boolean;
  /** When items follow: the cursor of the next page (the key of this page's last item). */
  next?: string;
  /** The cursor after this page's last item, whether or not items follow (a change feed's position). */
  after?: string;
}

/** A cursor that starts a query at `sort` (before any item whose sort key is `sort` or after it). */
export function positionCursor(query: Pick<Query, 'index'>, sort: string): string {
  const values = query.index ? [sort, '#', '#'] : [sort];
  return Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
}

/**
 * The cursor after `item` in a query: its sort key (and, on an index, the table key that breaks ties),
 * base64url JSON. Opaque to clients; checked back by startAfterOf, never handed to the table unchecked.
 */
function cursorAfter(item: Item, query: Pick<Query, 'index'>): string {
  const values = query.index ? [item[INDEX_KEYS[query.index].sk], item.pk, item.sk] : [item.sk];
  return Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
}

/** The key to start after, from a cursor of this same query; 400 for anything else. */
function startAfterOf(cursor: string, query: Omit<Query, 'cursor' | 'limit'>): Record<string, string> {
  const invalid = () =>
    new InvalidRequestError('cursor: not a cursor of this list (pass next_cursor as given)');
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const length = query.index ? 3 : 1;
  if (
    !Array.isArray(values) ||
    values.length !== length ||
    !values.every((v) => typeof v === 'string' && v.length > 0 && v.length <= 1024) ||
    (query.beginsWith && !(values[0] as string).startsWith(query.beginsWith))
  )
    throw invalid();
  const [sort, pk, sk] = values as string[];
  if (!query.index) return { pk: query.partition, sk: sort! };
  const keys = INDEX_KEYS[query.index];
  return { pk: pk!, sk: sk!, [keys.pk]: query.partition, [keys.sk]: sort! };
}

/**
 * Items offset..offset+limit of a query, or the `limit` items after a cursor, keeping only those `keep`
 * accepts (filters the key cannot express). Reads one item past the window to tell whether there is
 * more; `next` is the cursor after the window's last item. With a cursor the table is read from that
 * key on, so the cost of a page does not grow with its depth; an offset reads every item before it.
 */
export async function queryWindow<T extends Item>(
  table: Table,
  query: Omit<Query, 'cursor' | 'limit'>,
  { limit, offset, cursor: after }: Pagination,
  keep: (item: T) => boolean = () => true,
): Promise<Window<T>> {
  if (after !== undefined && offset > 0)
    throw new InvalidRequestError('cursor and offset cannot be used together: a cursor names its own place');
  const skip = after === undefined ? offset : 0;
  const wanted = skip + limit + 1;
  const collected: T[] = [];
  let cursor: string | undefined;
  const startAfter = after === undefined ? undefined : startAfterOf(after, query);
  do {
    const page = await table.query<T>({
      ...query,
      ...(cursor === undefined && startAfter ? { startAfter } : {}),
      cursor,
      limit: Math.min(wanted * 2, 1000),
    });
    collected.push(...page.items.filter(keep));
    cursor = page.cursor;
  } while (cursor && collected.length < wanted);
  const items = collected.slice(skip, skip + limit);
  const hasMore = collected.length > skip + limit;
  const last = items[items.length - 1];
  const end = last ? cursorAfter(last, query) : undefined;
  return { items, hasMore, ...(end ? { after: end, ...(hasMore ? { next: end } : {}) } : {}) };
}

/** Every item of a query (small partitions only: an organization's keys, endpoints). */
export async function queryAll<T extends Item>(table: Table, query: Omit<Query, 'cursor'>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await table.query<T>({ ...query, cursor });
    out.push(...page.items);
    cursor = page.cursor;
  } while (cursor);
  return out;
}
