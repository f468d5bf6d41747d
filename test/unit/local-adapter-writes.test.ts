// The local adapters' cheaper writes: a table appends on a descriptor it keeps open
// and does not read its own lines back, and a queue keeps its journal open too; neither may miss another
// process's appends nor write into a file that was replaced under it. Blobs: one file per blob in its
// vault's directory, the former layout still read, and never half a blob under its key; a large blob
// written in large pieces and hashed on a worker thread, with the same bytes and digest as before.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { SLOT_BYTES, SLOTS, ThreadedBlobWrite } from '../../functions/adapters/local/blob-write-thread';
import { FileBlobStore } from '../../functions/adapters/local/file-blobs';
import { JournalAppender } from '../../functions/adapters/local/journal';
import { MemoryTable } from '../../functions/adapters/local/memory-table';

const journalPath = () => join(mkdtempSync(join(tmpdir(), 'journal-appends-')), 'table.jsonl');

describe('MemoryTable journal appends', () => {
  it('sees lines another process appended between its own, in the file order', async () => {
    const path = journalPath();
    const owner = new MemoryTable('t', path, true);
    const other = new MemoryTable('t', path, false); // the admin CLI, say
    await owner.put({ pk: 'K', sk: '1', v: 1 });
    await other.put({ pk: 'K', sk: '2', v: 2 });
    await owner.put({ pk: 'K', sk: '1', v: 3 }); // after the other's line, before reading it
    await other.update({ pk: 'K', sk: '1' }, { add: { v: 10 } }); // sees the owner's latest
    expect(await owner.get({ pk: 'K', sk: '1' })).toMatchObject({ v: 13 });
    expect(await owner.get({ pk: 'K', sk: '2' })).toMatchObject({ v: 2 });
    expect((await other.query({ partition: 'K' })).items.map((i) => i.v)).toEqual([13, 2]);
    const restarted = new MemoryTable('t', path, true);
    expect((await restarted.query({ partition: 'K' })).items.map((i) => i.v)).toEqual([13, 2]);
  });

  it('reads a journal replaced under it whole, and appends to the new file', async () => {
    const path = journalPath();
    const first = new MemoryTable('t', path, true);
    await first.put({ pk: 'K', sk: '1', v: 1 });
    const other = new MemoryTable('t', path, false);
    await other.put({ pk: 'K', sk: '2', v: 2 });
    // Another owner starts: it compacts (a new file renamed over the old) and writes.
    const second = new MemoryTable('t', path, true);
    await second.delete({ pk: 'K', sk: '1' });
    expect(await other.get({ pk: 'K', sk: '1' })).toBeUndefined();
    await other.put({ pk: 'K', sk: '3', v: 3 });
    expect(await second.get({ pk: 'K', sk: '3' })).toMatchObject({ v: 3 });
    const restarted = new MemoryTable('t', path, true);
    expect((await restarted.query({ partition: 'K' })).items.map((i) => i.sk)).toEqual(['2', '3']);
  });

  it('writes a removed journal again, as appending to its path did', async () => {
    const path = journalPath();
    const table = new MemoryTable('t', path, true);
    await table.put({ pk: 'K', sk: '1', v: 1 });
    rmSync(path);
    await table.put({ pk: 'K', sk: '2', v: 2 });
    expect(readFileSync(path, 'utf8')).toContain('"sk":"2"');
    const restarted = new MemoryTable('t', path, true);
    expect(await restarted.get({ pk: 'K', sk: '2' })).toMatchObject({ v: 2 });
  });
});

describe('JournalAppender', () => {
  it('appends to the file at its path, opening it again once it was replaced or removed', () => {
    const path = journalPath();
    const appender = new JournalAppender(path);
    appender.append('one\n');
    writeFileSync(`${path}.tmp`, 'compacted\n');
    renameSync(`${path}.tmp`, path);
    appender.append('two\n');
    expect(readFileSync(path, 'utf8')).toBe('compacted\ntwo\n');
    rmSync(path);
    appender.append('three\n');
    expect(readFileSync(path, 'utf8')).toBe('three\n');
  });
});

describe('FileBlobStore on disk', () => {
  const text = async (stream: NodeJS.ReadableStream) => {
    let out = '';
    for await (const chunk of stream) out += String(chunk);
    return out;
  };

  it('writes a blob as one file in its vault directory and still reads and deletes the former layout', async () => {
    const root = mkdtempSync(join(tmpdir(), 'blobs-'));
    const blobs = new FileBlobStore(root);
    const small = await blobs.put('org_1/vlt_1/doc_1/v1', Readable.from([Buffer.from('new')]));
    expect(small).toEqual({ size: 3, sha256: createHash('sha256').update('new').digest('hex') });
    expect(readdirSync(join(root, 'org_1', 'vlt_1'))).toEqual(['doc_1@v1']);
    await expect(text((await blobs.get('org_1/vlt_1/doc_1/v1'))!)).resolves.toBe('new');
    // A blob written before, a directory per document.
    mkdirSync(join(root, 'org_1', 'vlt_1', 'doc_2'), { recursive: true });
    writeFileSync(join(root, 'org_1', 'vlt_1', 'doc_2', 'v3'), 'former');
    await expect(text((await blobs.get('org_1/vlt_1/doc_2/v3'))!)).resolves.toBe('former');
    await blobs.delete('org_1/vlt_1/doc_2/v3');
    await blobs.delete('org_1/vlt_1/doc_1/v1');
    await expect(blobs.get('org_1/vlt_1/doc_2/v3')).resolves.toBeUndefined();
    await expect(blobs.get('org_1/vlt_1/doc_1/v1')).resolves.toBeUndefined();
  });

  it('streams a large blob to its temporary file and renames it; a failed stream leaves nothing', async () => {
    const root = mkdtempSync(join(tmpdir(), 'blobs-'));
    const blobs = new FileBlobStore(root);
    const chunk = Buffer.alloc(100_000, 7);
    const large = await blobs.put('org_1/vlt_1/doc_1/v1', Readable.from([chunk, chunk, chunk, chunk]));
    expect(large.size).toBe(400_000);
    expect(statSync(join(root, 'org_1', 'vlt_1', 'doc_1@v1')).size).toBe(400_000);
    const failing = Readable.from(
      (async function* () {
        yield chunk;
        yield chunk;
        yield chunk;
        throw new Error('the provider went away');
      })(),
    );
    await expect(blobs.put('org_1/vlt_1/doc_2/v1', failing)).rejects.toThrow('the provider went away');
    expect(readdirSync(join(root, 'org_1', 'vlt_1'))).toEqual(['doc_1@v1']);
  });
});

describe('A large blob, written and hashed off the main thread', () => {
  /** `total` bytes that differ from position to position, in pieces of the given sizes (cycled). */
  const pieces = (total: number, sizes: number[], seed: number): Buffer[] => {
    const out: Buffer[] = [];
    for (let at = 0, i = 0; at < total; i++) {
      const piece = Buffer.alloc(Math.min(sizes[i % sizes.length]!, total - at));
      for (let j = 0; j < piece.length; j++) piece[j] = (at + j) * 31 + seed;
      out.push(piece);
      at += piece.length;
    }
    return out;
  };
  const sha256 = (parts: Buffer[]) => {
    const hash = createHash('sha256');
    for (const part of parts) hash.update(part);
    return hash.digest('hex');
  };
  const ringBytes = SLOTS * SLOT_BYTES;

  it('stores the same bytes and SHA-256 whatever the chunking, over several turns of its ring', async () => {
    const root = mkdtempSync(join(tmpdir(), 'blobs-'));
    const blobs = new FileBlobStore(root);
    const total = 2 * ringBytes + 12_345;
    for (const [n, sizes] of [[65_536], [1, 7, 300_001, SLOT_BYTES, 3 * SLOT_BYTES + 5]].entries()) {
      const parts = pieces(total, sizes, n);
      const given = parts.map((part) => Buffer.from(part)); // what the caller keeps must not change
      const stored = await blobs.put(`org_1/vlt_1/doc_${n}/v1`, Readable.from(parts));
      expect(stored).toEqual({ size: total, sha256: sha256(given) });
      expect(readFileSync(join(root, 'org_1', 'vlt_1', `doc_${n}@v1`)).equals(Buffer.concat(given))).toBe(
        true,
      );
      expect(parts.every((part, i) => part.equals(given[i]!))).toBe(true);
    }
    expect(readdirSync(join(root, 'org_1', 'vlt_1')).sort()).toEqual(['doc_0@v1', 'doc_1@v1']);
  });

  it('writes several large blobs at once, each with its own digest', async () => {
    const root = mkdtempSync(join(tmpdir(), 'blobs-'));
    const blobs = new FileBlobStore(root);
    const contents = [0, 1, 2, 3, 4].map((seed) => pieces(ringBytes + seed * 100_003, [65_536], seed));
    const stored = await Promise.all(
      contents.map((parts, i) => blobs.put(`org_1/vlt_1/doc_${i}/v1`, Readable.from(parts))),
    );
    expect(stored.map((s) => s.sha256)).toEqual(contents.map(sha256));
    for (const [i, parts] of contents.entries())
      expect(statSync(join(root, 'org_1', 'vlt_1', `doc_${i}@v1`)).size).toBe(
        parts.reduce((n, p) => n + p.length, 0),
      );
  });

  it('rejects with the file system error when its file cannot be written, and closes what it opened', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'blobs-')), 'gone', 'doc@v1.0123456789ab.tmp');
    const write = new ThreadedBlobWrite(missing);
    const attempt = (async () => {
      for (const part of pieces(ringBytes + SLOT_BYTES, [65_536], 1)) await write.write(part);
      return write.end();
    })();
    await expect(attempt).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(write.abort()).resolves.toBeUndefined();
  });

  it('does not hold the process open once its blobs are written', () => {
    const module = fileURLToPath(
      new URL('../../functions/adapters/local/blob-write-thread.ts', import.meta.url),
    );
    const script = `
      const { ThreadedBlobWrite } = await import(${JSON.stringify(module)});
      const path = ${JSON.stringify(join(mkdtempSync(join(tmpdir(), 'blobs-')), 'blob'))};
      const write = new ThreadedBlobWrite(path);
      await write.write(Buffer.alloc(3 * 1024 * 1024, 1));
      console.log(await write.end());
    `;
    const started = Date.now();
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(out.trim()).toBe(
      createHash('sha256')
        .update(Buffer.alloc(3 * 1024 * 1024, 1))
        .digest('hex'),
    );
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
