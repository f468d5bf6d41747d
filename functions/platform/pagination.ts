// List pagination: `limit` (default 50, max 200) and `offset`, read through the table's own pages.
import * as z from 'zod/mini';
import type { Item, Query, Table } from './ports';

export const MAX_LIMIT = 200;
export const MAX_OFFSET = 10_000;

/**
 * Query integers are decimal digits (a minus sign for a clear range message) only: `Number()` alone would read "" as 0 and "0x10" as 16, which
 * the OpenAPI document's `integer` does not allow. Anything else is handed on as not-a-number.
 */
const digitsOnly = (value: unknown): unknown =>
  typeof value === 'string' && !/^-?[0-9]{1,9}$/.test(value) ? 'not a number' : value;

export const paginationQuery = z.object({
  limit: z.pipe(
    z.transform(digitsOnly),
    z._default(
      z.coerce
        .number({ error: 'limit must be an integer' })
        .check(z.int('limit must be an integer'))
        .check(z.gte(1, 'limit must be at least 1'))
        .check(z.lte(MAX_LIMIT, `limit must be at most ${MAX_LIMIT}`)),
      50,
    ),
  ),
  offset: z.pipe(
    z.transform(digitsOnly),
    z._default(
      z.coerce
        .number({ error: 'offset must be an integer' })
        .check(z.int('offset must be an integer'))
        .check(z.gte(0, 'offset must be 0 or more'))
        .check(z.lte(MAX_OFFSET, `offset must be at most ${MAX_OFFSET}`)),
      0,
    ),
  ),
});

export type Pagination = z.infer<typeof paginationQuery>;

const pageFields = {
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
};
const hasMore = z.boolean().check(z.describe('Whether items follow this page'));

/** A page of a list as connector and application routes answer it (snake_case, like the Connection resource). */
export const snakeCasePage = <T extends z.ZodMiniType>(item: T) =>
  z.object({ data: z.array(item), ...pageFields, has_more: hasMore });

/** A page of a list as webhook routes answer it (camelCase, like the webhook resources). */
export const camelCasePage = <T extends z.ZodMiniType>(item: T) =>
  z.object({ data: z.array(item), ...pageFields, hasMore });

export interface Window<T> {
  items: T[];
  hasMore: boolean;
}

/**
 * Items offset..offset+limit of a query, keeping only those `keep` accepts (filters the key cannot
 * express). Reads one item past the window to tell whether there is more.
 */
export async function queryWindow<T extends Item>(
  table: Table,
  query: Omit<Query, 'cursor' | 'limit'>,
  { limit, offset }: Pagination,
  keep: (item: T) => boolean = () => true,
): Promise<Window<T>> {
  const wanted = offset + limit + 1;
  const collected: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await table.query<T>({ ...query, cursor, limit: Math.min(wanted * 2, 1000) });
    collected.push(...page.items.filter(keep));
    cursor = page.cursor;
  } while (cursor && collected.length < wanted);
  return { items: collected.slice(offset, offset + limit), hasMore: collected.length > offset + limit };
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
