// Keyset pagination over the Table port: offset pages and cursor pages give the same items, and a
// cursor page deep in a list reads that page, not everything before it.
import { MemoryTable } from '../../functions/adapters/local/memory-table';
import { InvalidRequestError } from '../../functions/platform/errors';
import type { Item, Query, Table } from '../../functions/platform/ports';
import { queryWindow } from '../../functions/platform/pagination';

/** The table, counting the items its queries hand back (what a list read). */
function counting(table: Table) {
  const counter = { read: 0 };
  const wrapped = Object.create(table) as Table;
  wrapped.query = async <T extends Item>(query: Query) => {
    const page = await table.query<T>(query);
    counter.read += page.items.length;
    return page;
  };
  return { table: wrapped, counter };
}

const TOTAL = 2_345;
let memory: MemoryTable;

beforeAll(async () => {
  memory = new MemoryTable('pagination');
  for (let i = 0; i < TOTAL; i++) {
    const n = String(i).padStart(5, '0');
    await memory.put({ pk: 'P#1', sk: `DOC#${n}`, gsi1pk: 'LIST#1', gsi1sk: `2026-01-01T00:00:${n}`, n: i });
  }
  await memory.put({ pk: 'P#1', sk: 'OTHER#1' });
});

const base = { partition: 'P#1', beginsWith: 'DOC#' };
const index = { index: 'gsi1' as const, partition: 'LIST#1', descending: true };

describe.each([
  ['the table, by prefix', base],
  ['an index, newest first', index],
])('queryWindow on %s', (_name, query) => {
  it('walks the same items by cursor as by offset, each once, with next only while items follow', async () => {
    const byOffset: unknown[] = [];
    for (let offset = 0; offset < TOTAL; offset += 200) {
      const window = await queryWindow(memory, query, { limit: 200, offset });
      byOffset.push(...window.items.map((i) => i.n));
    }
    const byCursor: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const window = await queryWindow(memory, query, { limit: 200, offset: 0, cursor });
      byCursor.push(...window.items.map((i) => i.n));
      expect(window.hasMore).toBe(window.next !== undefined);
      cursor = window.next;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(TOTAL / 200));
    expect(byCursor).toHaveLength(TOTAL);
    expect(byCursor).toEqual(byOffset);
    expect(new Set(byCursor).size).toBe(TOTAL);
  });

  it("an offset page's next cursor continues where the offset page ended", async () => {
    const first = await queryWindow(memory, query, { limit: 50, offset: 100 });
    const after = await queryWindow(memory, query, { limit: 50, offset: 0, cursor: first.next });
    const same = await queryWindow(memory, query, { limit: 50, offset: 150 });
    expect(after.items.map((i) => i.n)).toEqual(same.items.map((i) => i.n));
  });

  it('reads about one page for a cursor page deep in the list, where an offset reads everything before it', async () => {
    const deep = await queryWindow(memory, query, { limit: 50, offset: 2_200 });
    const byOffset = counting(memory);
    await queryWindow(byOffset.table, query, { limit: 50, offset: 2_250 });
    const byCursor = counting(memory);
    const window = await queryWindow(byCursor.table, query, { limit: 50, offset: 0, cursor: deep.next });
    expect(window.items).toHaveLength(50);
    expect(byOffset.counter.read).toBeGreaterThan(2_250);
    expect(byCursor.counter.read).toBeLessThanOrEqual(2 * 51);
  });
});

describe('queryWindow cursors', () => {
  it('keeps only what the filter accepts, on cursor pages too', async () => {
    const even = (item: Item) => (item.n as number) % 2 === 0;
    const first = await queryWindow(memory, base, { limit: 10, offset: 0 }, even);
    const second = await queryWindow(memory, base, { limit: 10, offset: 0, cursor: first.next }, even);
    expect(second.items.map((i) => i.n)).toEqual([20, 22, 24, 26, 28, 30, 32, 34, 36, 38]);
  });

  it.each([
    ['not base64 JSON', '%%%'],
    ['JSON that is not a key', Buffer.from('{"pk":"P#2"}').toString('base64url')],
    ["another list's key", Buffer.from('["OTHER#1"]').toString('base64url')],
    ['an empty key', Buffer.from('[""]').toString('base64url')],
  ])('refuses a cursor that is %s with 400', async (_name, cursor) => {
    await expect(queryWindow(memory, base, { limit: 10, offset: 0, cursor })).rejects.toThrow(
      InvalidRequestError,
    );
  });

  it('refuses a cursor with an offset', async () => {
    const first = await queryWindow(memory, base, { limit: 10, offset: 0 });
    await expect(queryWindow(memory, base, { limit: 10, offset: 10, cursor: first.next })).rejects.toThrow(
      /cannot be used together/,
    );
  });
});
