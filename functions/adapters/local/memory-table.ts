// Table port in process memory, optionally journaled to a file so the local server survives restarts.
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
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

const id = (key: Key): string => JSON.stringify([key.pk, key.sk]);

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

export class MemoryTable implements Table {
  private readonly items = new Map<string, Item>();

  /** Bytes of the journal already applied; another process (the admin CLI) may append after it. */
  private applied = 0;

  /** The manifest knows this journal holds something (journal.ts `markWritten`). */
  private marked = false;

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
    this.applied = statSync(journalPath).size;
  }

  /** Every item, as stored (the local runtime's start-up checks read them; not a port operation). */
  scan(): IterableIterator<Item> {
    this.refresh();
    return this.items.values();
  }

  private apply(entry: JournalEntry): void {
    if (entry.op === 'put') this.items.set(id(entry.item), entry.item);
    else this.items.delete(id(entry.key));
  }

  /** Apply what was appended to the journal since we last looked (by us or another process). */
  private refresh(): JournalProblem[] {
    if (!this.journalPath || !existsSync(this.journalPath)) return [];
    const size = statSync(this.journalPath).size;
    if (size === this.applied) return [];
    if (size < this.applied) {
      this.items.clear(); // compacted by another process: read it all again
      this.applied = 0;
    }
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
    // `applied` stays behind: the next refresh re-applies this line (idempotently) along with any
    // line another process appended before it, so both processes converge on the file's order.
    if (!this.marked) markWritten(this.journalPath);
    this.marked = true;
    appendFileSync(this.journalPath, frame(entry));
  }

  private check(condition: Condition | undefined, current: Item | undefined): void {
    if (condition && !evaluate(condition, current)) throw new ConditionFailedError();
  }

  async get<T extends Item = Item>(key: Key): Promise<T | undefined> {
    this.refresh();
    const item = this.items.get(id(key));
    return item ? (structuredClone(item) as T) : undefined;
  }

  async put(item: Item, condition?: Condition): Promise<void> {
    this.refresh();
    this.check(condition, this.items.get(id(item)));
    const stored = structuredClone(stripUndefined(item));
    this.items.set(id(item), stored);
    this.record({ op: 'put', item: stored });
  }

  async update<T extends Item = Item>(key: Key, update: Update, condition?: Condition): Promise<T> {
    this.refresh();
    const current = this.items.get(id(key));
    this.check(condition, current);
    const next: Item = structuredClone(current ?? { pk: key.pk, sk: key.sk });
    for (const [k, v] of Object.entries(update.set ?? {})) if (v !== undefined) next[k] = structuredClone(v);
    for (const [k, v] of Object.entries(update.add ?? {}))
      next[k] = ((next[k] as number | undefined) ?? 0) + v;
    for (const k of update.remove ?? []) delete next[k];
    this.items.set(id(key), next);
    this.record({ op: 'put', item: next });
    return structuredClone(next) as T;
  }

  async delete(key: Key, condition?: Condition): Promise<void> {
    this.refresh();
    this.check(condition, this.items.get(id(key)));
    if (this.items.delete(id(key))) this.record({ op: 'delete', key: { pk: key.pk, sk: key.sk } });
  }

  async query<T extends Item = Item>(query: Query): Promise<Page<T>> {
    checkQuery(query); // always consistent here, but an index may not be asked to be
    this.refresh();
    const keys = query.index ? INDEX_KEYS[query.index] : { pk: 'pk' as const, sk: 'sk' as const };
    const order = (item: Item): string => JSON.stringify([item[keys.sk], item.pk, item.sk]);
    let matches = [...this.items.values()]
      .filter((item) => item[keys.pk] === query.partition && typeof item[keys.sk] === 'string')
      .filter((item) => !query.beginsWith || (item[keys.sk] as string).startsWith(query.beginsWith))
      .sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
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
    return { items: page.map((item) => structuredClone(item) as T), cursor };
  }
}

function stripUndefined(item: Item): Item {
  return Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined)) as Item;
}
