// The list query's schemas (limit, offset, cursor), apart from the paging itself (pagination.ts): the
// routes that read a list's query import them; a worker that only pages through a table does not build
// them at load (the sync worker's bundle budget).
import * as z from 'zod/mini';
import { lazy } from './lazy';
import type { Pagination } from './pagination';
import { MAX_LIMIT, MAX_OFFSET } from './pagination';

/**
 * Query integers are decimal digits (a minus sign for a clear range message) only: `Number()` alone would read "" as 0 and "0x10" as 16, which
 * the OpenAPI document's `integer` does not allow. Anything else is handed on as not-a-number.
 */
const digitsOnly = (value: unknown): unknown =>
  typeof value === 'string' && !/^-?[0-9]{1,9}$/.test(value) ? 'not a number' : value;

export const paginationQuery = lazy(() =>
  z.object({
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
  }),
);

/** A long list's query: limit and offset as every list has them, or limit and the cursor of a page. */
export const cursorPaginationQuery = lazy(() =>
  z.extend(paginationQuery(), {
    cursor: z
      .optional(
        z
          .string({ error: 'cursor must be a string' })
          .check(z.minLength(1, 'cursor must not be empty'))
          .check(z.maxLength(4096, 'cursor must be at most 4096 characters'))
          // Cursors are base64url (a bound on the URL a valid query can make, under the 16 KiB limit).
          .check(
            z.regex(/^[A-Za-z0-9_-]+$/, 'cursor: not a cursor of this list (pass next_cursor as given)'),
          ),
      )
      .check(
        z.describe(
          "The previous page's next cursor: the page after it (keyset; cannot be combined with offset)",
        ),
      ),
  }),
);

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** The query's schema makes exactly the page the paging reads: a compile error here if they drift. */
export const QUERY_MAKES_PAGINATION: Same<
  z.infer<ReturnType<typeof paginationQuery>>,
  Omit<Pagination, 'cursor'>
> = true;
