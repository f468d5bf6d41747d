// The Table port's contract, held against both adapters: in-memory (local) and DynamoDB (emulator).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryTable } from '../../functions/adapters/local/memory-table';
import { ConditionFailedError } from '../../functions/platform/errors';
import type { Table } from '../../functions/platform/ports';
import { createAwsTables } from '../support/emulators';

const adapters: [string, () => Promise<Table>][] = [
  ['local (memory)', async () => new MemoryTable('contract')],
  ['aws (DynamoDB)', async () => (await createAwsTables('contract')).connectors],
];

describe.each(adapters)('Table port: %s', (_name, make) => {
  let table: Table;
  beforeAll(async () => {
    table = await make();
  });

  it('returns undefined for a missing item and the item after a put', async () => {
    expect(await table.get({ pk: 'A#1', sk: 'X' })).toBeUndefined();
    await table.put({ pk: 'A#1', sk: 'X', n: 1, tags: ['a', 'b'], nested: { ok: true } });
    expect(await table.get({ pk: 'A#1', sk: 'X' })).toEqual({
      pk: 'A#1',
      sk: 'X',
      n: 1,
      tags: ['a', 'b'],
      nested: { ok: true },
    });
  });

  it('reads many keys at once: the items that exist, a repeated key once, past 100 keys a request, as just written', async () => {
    const keys = Array.from({ length: 130 }, (_, i) => ({ pk: `M#${i % 3}`, sk: `K#${i}` }));
    for (const key of keys.filter((_, i) => i % 2 === 0))
      await table.put({ ...key, n: Number(key.sk.slice(2)) });
    await table.update(keys[128]!, { add: { n: 1000 } });
    const found = await table.getMany<{ pk: string; sk: string; n: number }>([
      ...keys,
      keys[0]!,
      keys[4]!,
      { pk: 'M#missing', sk: 'X' },
    ]);
    const bySk = new Map(found.map((item) => [item.sk, item]));
    expect(found).toHaveLength(65);
    expect(bySk.size).toBe(65);
    expect(bySk.get('K#4')).toEqual({ pk: 'M#1', sk: 'K#4', n: 4 });
    expect(bySk.get('K#128')?.n).toBe(1128);
    expect(bySk.has('K#1')).toBe(false);
    expect(await table.getMany([])).toEqual([]);
  });

  it('refuses a put conditioned on absence when the item exists', async () => {
    await table.put({ pk: 'A#2', sk: 'X', v: 1 }, { itemExists: false });
    await expect(table.put({ pk: 'A#2', sk: 'X', v: 2 }, { itemExists: false })).rejects.toBeInstanceOf(
      ConditionFailedError,
    );
    expect((await table.get({ pk: 'A#2', sk: 'X' }))?.v).toBe(1);
  });

  it('applies version-fenced writes once: exactly one of two racing writers wins', async () => {
    await table.put({ pk: 'A#3', sk: 'X', version: 1 });
    const results = await Promise.allSettled([
      table.put({ pk: 'A#3', sk: 'X', version: 2, by: 'a' }, { attr: 'version', op: '=', value: 1 }),
      table.put({ pk: 'A#3', sk: 'X', version: 2, by: 'b' }, { attr: 'version', op: '=', value: 1 }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(ConditionFailedError);
  });

  it('evaluates comparisons, attribute existence, and/or', async () => {
    await table.put({ pk: 'A#4', sk: 'X', leaseUntil: 100, status: 'healthy' });
    const key = { pk: 'A#4', sk: 'X' };
    await expect(
      table.update(key, { set: { leaseUntil: 200 } }, { attr: 'leaseUntil', op: '<', value: 50 }),
    ).rejects.toBeInstanceOf(ConditionFailedError);
    await table.update(
      key,
      { set: { leaseUntil: 200 } },
      {
        or: [
          { attr: 'leaseUntil', exists: false },
          { attr: 'leaseUntil', op: '<=', value: 100 },
        ],
      },
    );
    await table.update(
      key,
      { set: { note: 'x' } },
      {
        and: [
          { attr: 'status', op: '=', value: 'healthy' },
          { attr: 'status', op: '<>', value: 'revoked' },
        ],
      },
    );
    await expect(
      table.update(key, { set: { note: 'y' } }, { attr: 'missing', exists: true }),
    ).rejects.toBeInstanceOf(ConditionFailedError);
    expect(await table.get(key)).toMatchObject({ leaseUntil: 200, note: 'x' });
  });

  it('updates with set, add and remove, returning the new item, and creates a missing item', async () => {
    const created = await table.update({ pk: 'A#5', sk: 'X' }, { set: { a: 'one' }, add: { count: 2 } });
    expect(created).toEqual({ pk: 'A#5', sk: 'X', a: 'one', count: 2 });
    const next = await table.update({ pk: 'A#5', sk: 'X' }, { add: { count: 3 }, remove: ['a'] });
    expect(next).toEqual({ pk: 'A#5', sk: 'X', count: 5 });
  });

  it('sets an attribute only where missing, and copies an attribute as it was before the update into another', async () => {
    const key = { pk: 'A#8', sk: 'X' };
    const write = (blob: string) =>
      table.update<{
        pk: string;
        sk: string;
        createdAt: number;
        version: number;
        previous: unknown;
        blob: string;
      }>(key, {
        set: { blob },
        setIfMissing: { createdAt: blob.length },
        add: { version: 1 },
        copy: { previous: 'blob' },
      });
    expect(await write('one')).toEqual({ ...key, blob: 'one', createdAt: 3, version: 1, previous: null });
    expect(await write('second')).toEqual({
      ...key,
      blob: 'second',
      createdAt: 3,
      version: 2,
      previous: 'one',
    });
    // Writers at once: each gets its own version and exactly the value it displaced, none twice.
    const racing = await Promise.all(['a', 'b', 'c', 'd'].map(write));
    const displaced = racing.map((item) => item.previous).sort();
    expect(racing.map((item) => item.version).sort()).toEqual([3, 4, 5, 6]);
    const last = racing.find((item) => item.version === 6)!;
    expect(displaced).toEqual(
      ['second', ...racing.filter((item) => item !== last).map((item) => item.blob)].sort(),
    );
    expect(await table.get(key)).toMatchObject({ blob: last.blob, version: 6, createdAt: 3 });
  });

  it('refuses an update conditioned on existence when the item is missing', async () => {
    await expect(
      table.update({ pk: 'A#6', sk: 'X' }, { set: { a: 1 } }, { itemExists: true }),
    ).rejects.toBeInstanceOf(ConditionFailedError);
    expect(await table.get({ pk: 'A#6', sk: 'X' })).toBeUndefined();
  });

  it('deletes, conditionally', async () => {
    await table.put({ pk: 'A#7', sk: 'X', state: 'unused' });
    await expect(
      table.delete({ pk: 'A#7', sk: 'X' }, { attr: 'state', op: '=', value: 'used' }),
    ).rejects.toBeInstanceOf(ConditionFailedError);
    await table.delete({ pk: 'A#7', sk: 'X' }, { attr: 'state', op: '=', value: 'unused' });
    expect(await table.get({ pk: 'A#7', sk: 'X' })).toBeUndefined();
    await table.delete({ pk: 'A#7', sk: 'X' }); // deleting a missing item is not an error
  });

  it('queries a partition in sort-key order, by prefix, both directions, in pages', async () => {
    for (const sk of ['B#3', 'B#1', 'C#1', 'B#2']) await table.put({ pk: 'Q#1', sk });
    const all = await table.query({ partition: 'Q#1' });
    expect(all.items.map((i) => i.sk)).toEqual(['B#1', 'B#2', 'B#3', 'C#1']);
    const prefixed = await table.query({ partition: 'Q#1', beginsWith: 'B#', descending: true });
    expect(prefixed.items.map((i) => i.sk)).toEqual(['B#3', 'B#2', 'B#1']);
    const first = await table.query({ partition: 'Q#1', limit: 2 });
    expect(first.items.map((i) => i.sk)).toEqual(['B#1', 'B#2']);
    expect(first.cursor).toEqual(expect.any(String));
    const second = await table.query({ partition: 'Q#1', limit: 2, cursor: first.cursor });
    expect(second.items.map((i) => i.sk)).toEqual(['B#3', 'C#1']);
  });

  it('queries a secondary index and leaves out items without its keys', async () => {
    await table.put({ pk: 'I#1', sk: 'X', gsi1pk: 'ORG#1', gsi1sk: '2026-01-02' });
    await table.put({ pk: 'I#2', sk: 'X', gsi1pk: 'ORG#1', gsi1sk: '2026-01-01' });
    await table.put({ pk: 'I#3', sk: 'X' });
    const page = await table.query({ index: 'gsi1', partition: 'ORG#1' });
    expect(page.items.map((i) => i.pk)).toEqual(['I#2', 'I#1']);
  });

  it('starts a query after a given key, both directions, on the table and an index, even once that item is gone', async () => {
    for (const sk of ['K#1', 'K#2', 'K#3', 'K#4']) await table.put({ pk: 'S#1', sk });
    await table.delete({ pk: 'S#1', sk: 'K#2' });
    const after = await table.query({ partition: 'S#1', startAfter: { pk: 'S#1', sk: 'K#2' }, limit: 1 });
    expect(after.items.map((i) => i.sk)).toEqual(['K#3']);
    const before = await table.query({
      partition: 'S#1',
      descending: true,
      startAfter: { pk: 'S#1', sk: 'K#3' },
    });
    expect(before.items.map((i) => i.sk)).toEqual(['K#1']);
    for (const [pk, at] of [
      ['J#1', '2026-01-01'],
      ['J#2', '2026-01-02'],
      ['J#3', '2026-01-03'],
    ] as const)
      await table.put({ pk, sk: 'X', gsi1pk: 'LIST#1', gsi1sk: at });
    const newer = await table.query({
      index: 'gsi1',
      partition: 'LIST#1',
      descending: true,
      startAfter: { pk: 'J#3', sk: 'X', gsi1pk: 'LIST#1', gsi1sk: '2026-01-03' },
    });
    expect(newer.items.map((i) => i.pk)).toEqual(['J#2', 'J#1']);
  });

  it('reads its own writes and deletes in a consistent query of the base table', async () => {
    for (const sk of ['E#1', 'E#2', 'E#3']) await table.put({ pk: 'R#1', sk });
    await table.delete({ pk: 'R#1', sk: 'E#2' });
    await table.update({ pk: 'R#1', sk: 'E#3' }, { set: { seen: true } });
    const page = await table.query({ partition: 'R#1', consistent: true });
    expect(page.items).toEqual([
      { pk: 'R#1', sk: 'E#1' },
      { pk: 'R#1', sk: 'E#3', seen: true },
    ]);
  });

  it('refuses a consistent query of a secondary index, which cannot be one', async () => {
    await expect(table.query({ index: 'gsi1', partition: 'ORG#1', consistent: true })).rejects.toThrow(
      /consistent read of index gsi1 is impossible/,
    );
  });
});

describe('MemoryTable journal', () => {
  it('survives a restart and sees what another process appended', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'journal-')), 'table.jsonl');
    const owner = new MemoryTable('t', path, true);
    await owner.put({ pk: 'K#1', sk: 'X', v: 1 });
    const other = new MemoryTable('t', path, false); // the admin CLI, say
    await other.put({ pk: 'K#2', sk: 'X', v: 2 });
    expect(await owner.get({ pk: 'K#2', sk: 'X' })).toMatchObject({ v: 2 });
    await owner.delete({ pk: 'K#1', sk: 'X' });
    const restarted = new MemoryTable('t', path, true);
    expect(await restarted.get({ pk: 'K#1', sk: 'X' })).toBeUndefined();
    expect(await restarted.get({ pk: 'K#2', sk: 'X' })).toMatchObject({ v: 2 });
  });
});
