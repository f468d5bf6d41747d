// The local runtime's append-only journals (tables, queues): one framed line per change, a manifest of
// what each journal held at its last compaction, and a reading that finds damage instead of skipping it.
//
//   line      <JSON>\t<CRC-32 of the JSON, 8 hex digits>\n   (a line without the frame is read as before)
//   manifest  <journal dir>/journals.json: { "<file name>": { "records": <n>, "written"?: true } }: the
//             count at compaction, and `written` once something is appended to a journal that held none
//
// A line that does not parse, whose checksum differs, or whose value is not an entry of the journal's
// shape is damage; so is a journal missing or empty where the manifest says it held records. A last
// line without its newline is a write a crash cut short (its caller never heard back): reported, not
// damage. Damage is reported by file and line, and before the owner compacts, the file as it was is
// copied aside: a compaction never erases what could not be read.
import { crc32 } from 'node:zlib';
import {
  closeSync,
  copyFileSync,
  existsSync,
  fstatSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

export function frame(entry: unknown): string {
  const json = JSON.stringify(entry);
  return `${json}\t${checksum(json)}\n`;
}

const checksum = (json: string): string => crc32(json).toString(16).padStart(8, '0');

export interface JournalProblem {
  /** 1-based line number in the file as it was read. */
  line: number;
  reason: 'unreadable' | 'checksum mismatch' | 'not a journal entry' | 'cut short at the end';
}

export interface JournalReading<T> {
  entries: T[];
  problems: JournalProblem[];
  /** The journal is gone or empty although it held records: how many at the last start (or since). */
  missingRecords?: number | 'written since the last start';
}

type LineReason = Exclude<JournalProblem['reason'], 'cut short at the end'>;

/** Parses one line: its entry, or why it is not an entry of this journal. */
function parseLine<T>(
  text: string,
  isEntry: (value: unknown) => value is T,
): { entry: T } | { problem: LineReason } {
  let json = text;
  const tab = text.length - 9;
  if (tab > 0 && text[tab] === '\t') {
    json = text.slice(0, tab);
    if (checksum(json) !== text.slice(tab + 1)) return { problem: 'checksum mismatch' };
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { problem: 'unreadable' };
  }
  return isEntry(value) ? { entry: value } : { problem: 'not a journal entry' };
}

/** Reads every complete line of `text`; `offset` is the line number of its first line, less one. */
export function parseLines<T>(
  text: string,
  isEntry: (value: unknown) => value is T,
  offset = 0,
): { entries: T[]; problems: JournalProblem[] } {
  const entries: T[] = [];
  const problems: JournalProblem[] = [];
  text.split('\n').forEach((line, index) => {
    if (!line.trim()) return;
    const parsed = parseLine(line, isEntry);
    if ('problem' in parsed) problems.push({ line: offset + index + 1, reason: parsed.problem });
    else entries.push(parsed.entry);
  });
  return { entries, problems };
}

const manifestPath = (path: string) => join(dirname(path), 'journals.json');

type Manifest = Record<string, { records: number; written?: true }>;

function readManifest(path: string): Manifest {
  try {
    return JSON.parse(readFileSync(manifestPath(path), 'utf8')) as Manifest;
  } catch {
    return {};
  }
}

function writeManifest(path: string, manifest: Manifest): void {
  const tmp = `${manifestPath(path)}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(manifest, null, 2) + '\n');
  renameSync(tmp, manifestPath(path));
}

/**
 * Called before the first append after a start: a journal that held nothing at compaction is marked as
 * holding something, so losing the file before the next start is noticed too.
 */
export function markWritten(path: string): void {
  const manifest = readManifest(path);
  const entry = manifest[basename(path)];
  if (entry && (entry.records > 0 || entry.written)) return;
  manifest[basename(path)] = { records: entry?.records ?? 0, written: true };
  writeManifest(path, manifest);
}

/** Reads a whole journal at start: its entries, its damaged lines, and records it lost entirely. */
export function readJournal<T>(path: string, isEntry: (value: unknown) => value is T): JournalReading<T> {
  const held = readManifest(path)[basename(path)];
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (!text.trim()) {
    const missing = held?.records ? held.records : held?.written ? 'written since the last start' : undefined;
    return { entries: [], problems: [], ...(missing !== undefined ? { missingRecords: missing } : {}) };
  }
  const complete = text.lastIndexOf('\n') + 1;
  const { entries, problems } = parseLines(text.slice(0, complete), isEntry);
  if (text.slice(complete).trim()) {
    problems.push({ line: text.slice(0, complete).split('\n').length, reason: 'cut short at the end' });
  }
  return { entries, problems };
}

/** Whether a reading found more than a last line cut short by a crash. */
export const isDamaged = (reading: JournalReading<unknown>): boolean =>
  reading.missingRecords !== undefined || reading.problems.some((p) => p.reason !== 'cut short at the end');

/**
 * What a reading found, in a sentence naming the file, or undefined when it found nothing. `keptAt`:
 * where the file as it was is kept.
 */
export function describeReading(
  path: string,
  reading: JournalReading<unknown>,
  what: string,
  keptAt?: string,
): string | undefined {
  const aside = keptAt ? `; the file as it was is kept at ${keptAt}` : '';
  if (reading.missingRecords !== undefined) {
    const held =
      typeof reading.missingRecords === 'number'
        ? `${reading.missingRecords} ${what} at the last start`
        : `${what} ${reading.missingRecords}`;
    return (
      `${path}: missing or empty, but it held ${held}: they are lost unless you restore the file ` +
      `from a backup (stop the server first)`
    );
  }
  if (!reading.problems.length) return undefined;
  const damaged = reading.problems.filter((p) => p.reason !== 'cut short at the end');
  const list = (problems: JournalProblem[]) =>
    problems
      .slice(0, 10)
      .map((p) => `line ${p.line} (${p.reason})`)
      .join(', ') + (problems.length > 10 ? `, and ${problems.length - 10} more` : '');
  if (!damaged.length) {
    return `${path}: its last line was cut short by a crash and is dropped (the write never completed)`;
  }
  return (
    `${path}: ${damaged.length} damaged line(s) skipped: ${list(damaged)}; the ${what} they held are ` +
    `lost or show an older state${aside}`
  );
}

/** Copies a damaged journal aside before it is rewritten; returns where. */
export function keepAside(path: string, now = new Date()): string | undefined {
  if (!existsSync(path) || statSync(path).size === 0) return undefined;
  const aside = `${path}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
  copyFileSync(path, aside);
  return aside;
}

/** Rewrites the journal as `entries` (framed), atomically, and records their count in the manifest. */
export function compact(path: string, entries: unknown[], records: number): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, entries.map(frame).join(''));
  renameSync(tmp, path);
  const manifest = readManifest(path);
  manifest[basename(path)] = { records };
  writeManifest(path, manifest);
}

/**
 * Appends to a journal through a descriptor kept open (O_APPEND), as appendFileSync did without its
 * open and close per line. Before each append one stat of the path says whether the file is still the
 * one held open: another process may have compacted it (renamed a new file over it) or it was removed;
 * then the path is opened again (created if missing), so a line never goes to a replaced file.
 */
export class JournalAppender {
  private fd: number | undefined;
  private inode: number | undefined;

  constructor(private readonly path: string) {}

  append(text: string): void {
    const current = statSync(this.path, { throwIfNoEntry: false });
    if (this.fd === undefined || current?.ino !== this.inode) {
      if (this.fd !== undefined) closeSync(this.fd);
      this.fd = undefined;
      const fd = openSync(this.path, 'a');
      this.inode = fstatSync(fd).ino;
      this.fd = fd;
    }
    const bytes = Buffer.from(text, 'utf8');
    for (let written = 0; written < bytes.length;)
      written += writeSync(this.fd, bytes, written, bytes.length - written);
  }
}
