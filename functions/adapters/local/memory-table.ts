// Table port in process memory, optionally journaled to a file so the local server survives restarts.
import { closeSync, fstatSync, mkdirSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConditionFailedError } from '../../platform/errors';
import type { Condition, Item, Key, Page, Query, Scalar, Table, Update } from '../../platform/ports';
import { INDEX_KEYS, checkQuery } from '../../platform/tables';
import type { JournalProblem } from './journal';
import {
  compact,
  describeReading,
  frame,
  isDamaged,
  keepAside,
  markWritten,
  parseLines,
  readJournal,
} from './journal';

type JournalEntry = { op: 'put'; item: Item } | { op: 'delete'; key: Key };

const isKey = (value: unknown): value is Key =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Key).pk === 'string' &&
  typeof (value as Key).sk === 'string';

const isEntry = (value: unknown): value is JournalEntry => {
  const entry = value as Partial<{ op: string; item: unknown; key: unknown }> | null;
  if (typeof entry !== 'object' || entry === null) return false;
  return (entry.op === 'put' && isKey(entry.item)) || (entry.op === 'delete' && isKey(entry.key));
};

/** An item's place in the map: unambiguous (the partition key's length first), and no serialiser per call. */
const id = (key: Key): string => `${key.pk.length}:${key.pk}${key.sk}`;

/**
 * A deep copy of an item's value, so no caller shares what the table holds. Plain objects and arrays
 * (nearly every value) are copied by hand: structuredClone serialises each call and was 5% of the
 * delivery bench's profile. Anything else (bytes, dates) still goes through structuredClone.
 */
function copy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copy) as T;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    out[key] = typeof field === 'object' && field !== null ? copy(field) : field;
  }
  return out as T;
}

function compare(a: unknown, op: string, b: Scalar): boolean {
  if (a === undefined || typeof a !== typeof b) return op === '<>' && a !== undefined;
  const x = a as Scalar;
  switch (op) {
    case '=':
      return x === b;
    case '<>':
      return x !== b;
    case '<':
      return x < b;
    case '<=':
      return x <= b;
    case '>':
      return x > b;
    case '>=':
      return x >= b;
    default:
      throw new Error(`unknown operator ${op}`);
  }
}

export function evaluate(condition: Condition, item: Item | undefined): boolean {
  if ('and' in condition) return condition.and.every((c) => evaluate(c, item));
  if ('or' in condition) return condition.or.some((c) => evaluate(c, item));
  if ('itemExists' in condition) return condition.itemExists === (item !== undefined);
  if ('exists' in condition) return condition.exists === (item?.[condition.attr] !== undefined);
  return compare(item?.[condition.attr], condition.op, condition.value);
}

/** The attributes a query's partition is read from: the base table's and each index's. */
const PARTITION_KEYS = ['pk', ...Object.values(INDEX_KEYS).map((k) => k.pk)];

export class MemoryTable implements Table {
  private readonly items = new Map<string, Item>();

  /**
   * Partition key attribute → partition value → the ids of the items in it, kept with `items`, so a
   * query reads its partition and not the whole table (a scan per query made fan-out's endpoint list
   * slower with every delivery stored).
   */
  private readonly partitions = new Map<string, Map<string, Set<string>>>(
    PARTITION_KEYS.map((attr) => [attr, new Map()]),
  );

  /** Bytes of the journal already applied; another process (the admin CLI) may append after it. */
  private applied = 0;

  /** The manifest knows this journal holds something (journal.ts `markWritten`). */
  private marked = false;

  /**
   * Bytes this process appended after `applied`, which the next refresh need not read back when the
   * file grew by exactly them (nobody else appended in between); otherwise it reads them again.
   */
  private appended = 0;

  /** The journal file as the last refresh found it (its inode), or undefined: missing, or not read. */
  private seenInode: number | undefined;

  /** Kept open for appends (O_APPEND), on the inode `appendInode`; reopened when the file was replaced. */
  private appendFd: number | undefined;
  private appendInode: number | undefined;

  /** What opening the journal found wrong (damaged lines, records lost), naming the file; else undefined. */
  readonly report: string | undefined;

  /**
   * @param journalPath where mutations are appended; omitted: memory only.
   * @param owner reads it whole and rewrites it at open, keeping a damaged file aside (the long-running
   *   server does; the admin CLI does not).
   */
  constructor(
    readonly name: string,
    private readonly journalPath?: string,
    owner = false,
  ) {
    if (!journalPath) return;
    mkdirSync(dirname(journalPath), { recursive: true });
    if (!owner) {
      const problems = this.refresh();
      this.report = describeReading(journalPath, { entries: [], problems }, 'records');
      return;
    }
    // The owner reads it whole, keeps a damaged file aside, says what was lost, then compacts.
    const reading = readJournal(journalPath, isEntry);
    for (const entry of reading.entries) this.apply(entry);
    const keptAt = isDamaged(reading) ? keepAside(journalPath) : undefined;
    this.report = describeReading(journalPath, reading, 'records', keptAt);
    compact(
      journalPath,
      [...this.items.values()].map((item) => ({ op: 'put', item })),
      this.items.size,
    );
    const compacted = statSync(journalPath);
    this.applied = compacted.size;
    this.seenInode = compacted.ino;
  }

  /** Every item, as stored (the local runtime's start-up checks read them; not a port operation). */
  scan(): IterableIterator<Item> {
    this.refresh();
    return this.items.values();
  }

  private apply(entry: JournalEntry): void {
    if (entry.op === 'put') this.store(id(entry.item), entry.item);
    else this.remove(id(entry.key));
  }

  /** Sets an item (in place of the one it replaces), and its place in each partition it belongs to. */
  private store(at: string, item: Item): void {
    const previous = this.items.get(at);
    this.items.set(at, item);
    for (const [attr, byValue] of this.partitions) {
      const before = previous?.[attr];
      const value = item[attr];
      if (before === value) continue; // an update rarely moves an item between partitions
      if (typeof before === 'string') this.unplace(byValue, before, at);
      if (typeof value !== 'string') continue;
      let ids = byValue.get(value);
      if (!ids) byValue.set(value, (ids = new Set()));
      ids.add(at);
    }
  }

  private unplace(byValue: Map<string, Set<string>>, value: string, at: string): void {
    const ids = byValue.get(value);
    ids?.delete(at);
    if (ids?.size === 0) byValue.delete(value);
  }

  /** Removes an item and its places in the partitions; whether there was one. */
  private remove(at: string): boolean {
    const item = this.items.get(at);
    if (!item) return false;
    this.items.delete(at);
    this.unindex(at, item);
    return true;
  }

  private unindex(at: string, item: Item): void {
    for (const [attr, byValue] of this.partitions) {
      const value = item[attr];
      if (typeof value === 'string') this.unplace(byValue, value, at);
    }
  }

  /**
   * Apply what was appended to the journal since we last looked (by us or another process). One stat
   * per operation: its size says whether anything was appended, its inode whether the file was
   * replaced (compacted by another process, or removed and written again): then it is read whole.
   * What this process appended itself is not read back when the file grew by exactly that much.
   */
  private refresh(): JournalProblem[] {
    if (!this.journalPath) return [];
    const stat = statSync(this.journalPath, { throwIfNoEntry: false });
    if (!stat) {
      this.seenInode = undefined;
      return [];
    }
    const size = stat.size;
    if (stat.ino !== this.seenInode || size < this.applied) {
      if (this.seenInode !== undefined || size < this.applied) {
        this.items.clear(); // replaced or compacted by another process: read it all again
        for (const byValue of this.partitions.values()) byValue.clear();
        this.applied = 0;
      }
      this.seenInode = stat.ino;
      this.appended = 0;
    }
    if (size === this.applied + this.appended) {
      // Only our own lines since the last look (or nothing): they are applied already.
      this.applied = size;
      this.appended = 0;
      return [];
    }
    this.appended = 0; // another process appended too: read from `applied`, our lines again with theirs
    const length = size - this.applied;
    const buffer = Buffer.alloc(length);
    const fd = openSync(this.journalPath, 'r');
    try {
      readSync(fd, buffer, 0, length, this.applied);
    } finally {
      closeSync(fd);
    }
    const text = buffer.toString('utf8');
    const complete = text.lastIndexOf('\n') + 1; // a torn last line waits for its end
    const { entries, problems } = parseLines(text.slice(0, complete), isEntry);
    for (const entry of entries) this.apply(entry);
    this.applied += Buffer.byteLength(text.slice(0, complete), 'utf8');
    return problems;
  }

  private record(entry: JournalEntry): void {
    if (!this.journalPath) return;
    // `applied` stays behind: unless the file grew by exactly what we appended, the next refresh
    // re-applies this line (idempotently) along with any line another process appended before it, so
    // both processes converge on the file's order.
    if (!this.marked) markWritten(this.journalPath);
    this.marked = true;
    const line = Buffer.from(frame(entry), 'utf8');
    const fd = this.appendDescriptor();
    for (let written = 0; written < line.length;)
      written += writeSync(fd, line, written, line.length - written);
    if (this.appendInode === this.seenInode) this.appended += line.length;
  }

  /**
   * The descriptor appends go to: the file the refresh of this operation found (same inode), opened
   * once; reopened (created if missing, as appendFileSync did) when it was replaced or removed.
   */
  private appendDescriptor(): number {
    if (this.appendFd !== undefined && this.appendInode === this.seenInode) return this.appendFd;
    if (this.appendFd !== undefined) closeSync(this.appendFd);
    // A file this opens that the refresh did not see (created now, or replaced since) is not the one
    // `appended` counts for: the next refresh finds another inode and reads it as before.
    this.appendFd = openSync(this.journalPath!, 'a');
    this.appendInode = fstatSync(this.appendFd).ino;
    return this.appendFd;
  }

  private check(condition: Condition | undefined, current: Item | undefined): void {
    if (condition && !evaluate(condition, current)) throw new ConditionFailedError();
  }

  async get<T extends Item = Item>(key: Key): Promise<T | undefined> {
    this.refresh();
    const item = this.items.get(id(key));
    return item ? (copy(item) as T) : undefined;
  }

  async getMany<T extends Item = Item>(keys: Key[]): Promise<T[]> {
    this.refresh();
    const found: T[] = [];
    for (const at of new Set(keys.map(id))) {
      const item = this.items.get(at);
      if (item) found.push(copy(item) as T);
    }
    return found;
  }

  async put(item: Item, condition?: Condition): Promise<void> {
    this.refresh();
    const at = id(item);
    this.check(condition, this.items.get(at));
    const stored: Item = { pk: item.pk, sk: item.sk };
    for (const k in item) if (item[k] !== undefined) stored[k] = copy(item[k]);
    this.store(at, stored);
    this.record({ op: 'put', item: stored });
  }

  async update<T extends Item = Item>(key: Key, update: Update, condition?: Condition): Promise<T> {
    this.refresh();
    const at = id(key);
    const current = this.items.get(at);
    this.check(condition, current);
    // A shallow copy is enough: a stored item is never changed in place (every write stores a new
    // top-level object), so the values it shares with `current` stay as they are. Removed attributes
    // are left out rather than deleted: a `delete` turns the object into a slow dictionary, and every
    // later spread, copy and serialisation of the item paid for it.
    const base = current ?? { pk: key.pk, sk: key.sk };
    const removed = update.remove?.length ? update.remove : undefined; // a few names: includes beats a Set
    const next: Item = { pk: base.pk, sk: base.sk };
    for (const k in base) if (!removed?.includes(k)) next[k] = base[k];
    const { set, add, setIfMissing } = update;
    for (const k in set) if (set[k] !== undefined && !removed?.includes(k)) next[k] = copy(set[k]);
    for (const k in setIfMissing)
      if (setIfMissing[k] !== undefined && base[k] === undefined) next[k] = copy(setIfMissing[k]);
    // From the item before the update, as every operand of DynamoDB's SET is.
    for (const target in update.copy) next[target] = copy(base[update.copy[target]!] ?? null);
    for (const k in add)
      if (!removed?.includes(k)) next[k] = ((next[k] as number | undefined) ?? 0) + add[k]!;
    this.store(at, next);
    this.record({ op: 'put', item: next });
    return copy(next) as T;
  }

  async delete(key: Key, condition?: Condition): Promise<void> {
    this.refresh();
    this.check(condition, this.items.get(id(key)));
    if (this.remove(id(key))) this.record({ op: 'delete', key: { pk: key.pk, sk: key.sk } });
  }

  async query<T extends Item = Item>(query: Query): Promise<Page<T>> {
    checkQuery(query); // always consistent here, but an index may not be asked to be
    this.refresh();
    const keys = query.index ? INDEX_KEYS[query.index] : { pk: 'pk' as const, sk: 'sk' as const };
    const order = (item: Item): string => JSON.stringify([item[keys.sk], item.pk, item.sk]);
    const inPartition: { item: Item; order: string }[] = [];
    for (const at of this.partitions.get(keys.pk)?.get(query.partition) ?? []) {
      const item = this.items.get(at)!;
      if (typeof item[keys.sk] !== 'string') continue;
      if (query.beginsWith && !(item[keys.sk] as string).startsWith(query.beginsWith)) continue;
      inPartition.push({ item, order: order(item) });
    }
    // Each item's order key made once, not twice per comparison.
    let matches = inPartition
      .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0))
      .map((m) => m.item);
    if (query.descending) matches.reverse();
    if (query.startAfter) {
      const after = order(query.startAfter as unknown as Item);
      matches = matches.filter((item) => (query.descending ? order(item) < after : order(item) > after));
    }
    if (query.cursor) {
      const after = Buffer.from(query.cursor, 'base64url').toString('utf8');
      const position = matches.findIndex((item) => order(item) === after);
      matches = matches.slice(position + 1);
    }
    const limit = query.limit ?? matches.length;
    const page = matches.slice(0, limit);
    const last = page[page.length - 1];
    const cursor =
      matches.length > limit && last ? Buffer.from(order(last), 'utf8').toString('base64url') : undefined;
    return { items: page.map((item) => copy(item) as T), cursor };
  }
}
