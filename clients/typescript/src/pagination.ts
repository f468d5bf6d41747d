// Lists come in two styles: offset pages (`limit`, `offset`, `has_more`/`hasMore`) and cursor pages
// (`next_cursor`/`nextCursor` passed back as `cursor`, or a provider's `next_page_token` passed back
// as `page_token`). A Paginated reads whichever the page carries and asks for the next one.

type Query = Record<string, unknown>;

interface AnyPage<T> {
  data: T[];
  offset?: number;
  has_more?: boolean;
  hasMore?: boolean;
  next_cursor?: string | null;
  nextCursor?: string | null;
  next_page_token?: string | null;
}

/** The query of the page after `page`, or undefined at the end. */
export function nextQuery<T>(query: Query, page: AnyPage<T>): Query | undefined {
  const { offset: _offset, cursor: _cursor, page_token: _token, ...rest } = query;
  if ('next_page_token' in page)
    return page.next_page_token ? { ...rest, page_token: page.next_page_token } : undefined;
  const cursor = page.next_cursor ?? page.nextCursor;
  if (cursor) return { ...rest, cursor };
  if (page.has_more || page.hasMore) return { ...rest, offset: (page.offset ?? 0) + page.data.length };
  return undefined;
}

/**
 * One list, read page by page on demand: `for await (const item of list)` walks every item of every
 * page; `pages()` yields whole pages; `first()` is the first page alone.
 */
export class Paginated<P extends { data: unknown[] }, T = P['data'][number]> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: (query: Query) => Promise<P>,
    private readonly query: Query = {},
  ) {}

  first(): Promise<P> {
    return this.fetchPage(this.query);
  }

  async *pages(): AsyncGenerator<P> {
    let query: Query | undefined = this.query;
    while (query) {
      const page: P = await this.fetchPage(query);
      yield page;
      // An empty page ends the walk even if the page claims more, so a walk always ends.
      query = page.data.length ? nextQuery(query, page as AnyPage<T>) : undefined;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.pages()) yield* page.data as T[];
  }

  async toArray(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
