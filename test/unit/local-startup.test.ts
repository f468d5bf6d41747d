// The local runtime's start over a data directory: a missing or wrong master key
// refuses to start naming the file; damaged journals are skipped, reported by file and line, kept aside
// and never compacted over; journals lost whole are noticed; corrupt JSON files name themselves.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createLocalDeps } from '../../functions/compose/local';
import { seal } from '../../functions/platform/envelope';
import { ensureDevCredentials } from '../../functions/dev-runtime/identity/bootstrap';
import { loadDevConsoleIdentityProvider } from '../../functions/dev-runtime/identity/dev-console-idp';

const fresh = () => mkdtempSync(join(tmpdir(), 'local-start-'));

function open(dataDir: string) {
  const deps = createLocalDeps({ dataDir });
  for (const queue of Object.values(deps.queues)) queue.close();
  return deps;
}

/** A data directory holding one sealed value (a webhook signing secret, say). */
async function withSealedData(): Promise<string> {
  const dataDir = fresh();
  const deps = open(dataDir);
  const context = { organization: 'org_1', endpoint: 'we_1' };
  await deps.tables.webhooks.put({
    pk: 'EP#we_1',
    sk: 'EP',
    secret: await seal(deps.keys, 'whsec_x', context),
  });
  return dataDir;
}

describe('the master key at start (item 1)', () => {
  it('refuses to start, naming the file, when data sealed with it exists and the key is missing', async () => {
    const dataDir = await withSealedData();
    rmSync(join(dataDir, 'master.key'));
    expect(() => open(dataDir)).toThrow(
      new RegExp(`${join(dataDir, 'master.key')} is missing, but the data beside it holds 1 sealed`),
    );
    expect(existsSync(join(dataDir, 'master.key'))).toBe(false); // no new key was made
  });

  it('refuses another key and a corrupt key file', async () => {
    const dataDir = await withSealedData();
    writeFileSync(join(dataDir, 'master.key'), randomBytes(32).toString('base64'));
    expect(() => open(dataDir)).toThrow(
      /master\.key is not the master key this data directory was sealed with/,
    );
    writeFileSync(join(dataDir, 'master.key'), 'not a key');
    expect(() => open(dataDir)).toThrow(/master\.key is corrupt/);
  });

  it('starts with the right key and opens what it sealed; an empty directory gets a new key', async () => {
    const dataDir = await withSealedData();
    const deps = open(dataDir);
    expect(deps.startupReport).toEqual([]);
    const item = await deps.tables.webhooks.get({ pk: 'EP#we_1', sk: 'EP' });
    expect(item).toBeDefined();
    const empty = fresh();
    open(empty);
    expect(existsSync(join(empty, 'master.key'))).toBe(true);
  });
});

describe('queue journals (item 2)', () => {
  it('skips and reports a valid-JSON line of the wrong shape instead of failing to boot', async () => {
    const dataDir = fresh();
    const first = createLocalDeps({ dataDir });
    await first.queues.events.send({ body: 'kept' });
    first.queues.events.close();
    const path = join(dataDir, 'queues', 'events.jsonl');
    writeFileSync(path, readFileSync(path, 'utf8') + '{"op":"put"}\n' + '{"op":"delete"}\n');
    const second = createLocalDeps({ dataDir });
    expect(second.queues.events.size).toBe(1);
    expect(second.startupReport).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${path}: 2 damaged line\\(s\\) skipped: line 2 \\(not a journal entry\\), line 3 .*kept at ${path}\\.damaged-`,
        ),
      ),
    ]);
    for (const queue of Object.values(second.queues)) queue.close();
  });
});

describe('table journals (item 3)', () => {
  it('detects a changed line by its checksum, keeps the damaged file aside, never compacts over it', async () => {
    const dataDir = fresh();
    const first = open(dataDir);
    for (const n of [1, 2, 3])
      await first.tables.webhooks.put({ pk: `EP#${n}`, sk: 'EP', url: `https://h${n}.example` });
    const path = join(dataDir, 'tables', 'webhooks.jsonl');
    const original = readFileSync(path, 'utf8');
    // Valid JSON still, but not what was written (a flipped byte, a bad merge).
    const damaged = original.replace('https://h2.example', 'https://h9.example');
    writeFileSync(path, damaged);
    const second = open(dataDir);
    expect(await second.tables.webhooks.get({ pk: 'EP#2', sk: 'EP' })).toBeUndefined();
    expect(await second.tables.webhooks.get({ pk: 'EP#3', sk: 'EP' })).toMatchObject({
      url: 'https://h3.example',
    });
    expect(second.startupReport).toHaveLength(1);
    expect(second.startupReport[0]).toMatch(
      new RegExp(`^${path}: 1 damaged line\\(s\\) skipped: line 2 \\(checksum mismatch\\)`),
    );
    const aside = readdirSync(join(dataDir, 'tables')).filter((f) => f.startsWith('webhooks.jsonl.damaged-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dataDir, 'tables', aside[0]!), 'utf8')).toBe(damaged);
    // The next start finds a clean journal: the damage was said once and kept aside, not repeated.
    expect(open(dataDir).startupReport).toEqual([]);
  });

  it('notices a journal emptied or deleted although it held records', async () => {
    const dataDir = fresh();
    const first = open(dataDir);
    await first.tables.platform.put({ pk: 'ORG#1', sk: 'ORG' });
    await first.tables.webhooks.put({ pk: 'EP#1', sk: 'EP' });
    await first.tables.webhooks.put({ pk: 'EP#2', sk: 'EP' });
    open(dataDir); // a start records what each journal held
    writeFileSync(join(dataDir, 'tables', 'platform.jsonl'), '');
    rmSync(join(dataDir, 'tables', 'webhooks.jsonl'));
    const report = open(dataDir).startupReport;
    expect(report).toEqual([
      expect.stringMatching(/platform\.jsonl: missing or empty, but it held 1 records at the last start/),
      expect.stringMatching(/webhooks\.jsonl: missing or empty, but it held 2 records at the last start/),
    ]);
  });

  it('reports a last line cut short by a crash without calling it damage', async () => {
    const dataDir = fresh();
    const first = open(dataDir);
    await first.tables.platform.put({ pk: 'ORG#1', sk: 'ORG' });
    const path = join(dataDir, 'tables', 'platform.jsonl');
    writeFileSync(path, readFileSync(path, 'utf8') + '{"op":"put","item":{"pk":"ORG#2"');
    const second = open(dataDir);
    expect(second.startupReport).toEqual([
      `${path}: its last line was cut short by a crash and is dropped (the write never completed)`,
    ]);
    expect(readdirSync(join(dataDir, 'tables')).some((f) => f.includes('.damaged-'))).toBe(false);
    expect(await second.tables.platform.get({ pk: 'ORG#1', sk: 'ORG' })).toBeDefined();
  });
});

describe('development credentials and the console identity provider (items 3, 4)', () => {
  it('names a corrupt credentials.json or console-idp.json and what to do', async () => {
    const dataDir = fresh();
    const deps = open(dataDir);
    await ensureDevCredentials(deps, dataDir, 'http://localhost:1');
    writeFileSync(join(dataDir, 'credentials.json'), '{"apiKey": ');
    await expect(ensureDevCredentials(deps, dataDir, 'http://localhost:1')).rejects.toThrow(
      new RegExp(`^${join(dataDir, 'credentials.json')} is not valid JSON \\(.*\\): move it aside`),
    );
    writeFileSync(join(dataDir, 'console-idp.json'), 'garbage');
    await expect(loadDevConsoleIdentityProvider(dataDir)).rejects.toThrow(
      new RegExp(
        `^${join(dataDir, 'console-idp.json')} is not valid JSON \\(.*\\): delete it and start again`,
      ),
    );
  });

  it('says so, and keeps the old file, when credentials.json names an organization the data lost', async () => {
    const dataDir = fresh();
    const first = await ensureDevCredentials(open(dataDir), dataDir, 'http://localhost:1');
    writeFileSync(join(dataDir, 'tables', 'platform.jsonl'), '');
    const deps = open(dataDir);
    expect(deps.startupReport[0]).toMatch(/platform\.jsonl: missing or empty/);
    const second = await ensureDevCredentials(deps, dataDir, 'http://localhost:1');
    expect(second.replaced).toMatch(
      new RegExp(
        `named organization ${first.credentials.organizationId}, which the platform table does not hold`,
      ),
    );
    const aside = readdirSync(dataDir).filter((f) => f.startsWith('credentials.json.stale-'));
    expect(JSON.parse(readFileSync(join(dataDir, aside[0]!), 'utf8'))).toMatchObject({
      apiKey: first.credentials.apiKey,
    });
  });
});

describe('temporary vault files at start', () => {
  it('removes the temporary files a crash mid-write left under the vault directory, and keeps every blob', async () => {
    const dataDir = fresh();
    const deps = open(dataDir);
    const { Readable } = await import('node:stream');
    await deps.vault.put({
      organizationId: 'org_1',
      vaultId: 'vlt_1',
      objectId: 'doc_1',
      name: 'kept.txt',
      contentType: 'text/plain',
      content: Readable.from(['kept']),
    });
    // What a write dying mid-stream leaves: its temporary file beside where the blob would go.
    const folder = join(dataDir, 'vault', 'org_1', 'vlt_1', 'doc_2');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'v1.0123456789ab.tmp'), 'half a blob');
    const before = readdirSync(join(dataDir, 'vault'), { recursive: true }).map(String);
    expect(before.some((name) => name.endsWith('.tmp'))).toBe(true);

    const reopened = open(dataDir);
    expect(reopened.blobTemporariesRemoved).toBe(1);
    const after = readdirSync(join(dataDir, 'vault'), { recursive: true }).map(String);
    expect(after.some((name) => name.endsWith('.tmp'))).toBe(false);
    const kept = await reopened.vault.read({ organizationId: 'org_1', vaultId: 'vlt_1', objectId: 'doc_1' });
    const chunks: Buffer[] = [];
    for await (const chunk of kept!) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('kept');
    // A process that does not own the directory (an admin command) leaves it alone.
    writeFileSync(join(folder, 'v1.ba9876543210.tmp'), 'a write in flight');
    const admin = createLocalDeps({ dataDir, owner: false });
    for (const queue of Object.values(admin.queues)) queue.close();
    expect(readdirSync(folder)).toContain('v1.ba9876543210.tmp');
  });
});
