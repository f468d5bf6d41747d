// The local adapters' cheaper writes (issue 27, item 4): a table appends on a descriptor it keeps open
// and does not read its own lines back, and a queue keeps its journal open too; neither may miss another
// process's appends nor write into a file that was replaced under it. Blobs: one file per blob in its
// vault's directory, the former layout still read, and never half a blob under its key.
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
import { Readable } from 'node:stream';
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
