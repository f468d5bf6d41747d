// The VaultDocuments port's contract on both adapter sets: the stand-in over the in-memory table and
// files on disk (local), and over DynamoDB and S3 (aws, on the emulators).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, pipeline } from 'node:stream';
import { text } from 'node:stream/consumers';
import { createHash } from 'node:crypto';
import { FileBlobStore } from '../../functions/adapters/local/file-blobs';
import { MemoryTable } from '../../functions/adapters/local/memory-table';
import { BlobAccessDeniedError, S3BlobStore } from '../../functions/adapters/aws/s3-blobs';
import { DynamoDbTable } from '../../functions/adapters/aws/dynamodb-table';
import { VaultStandIn, chunkCount } from '../../functions/adapters/vault/stand-in';
import { ManualClock } from '../../functions/platform/clock';
import { ByteLimit, StreamTooLargeError } from '../../functions/platform/digest';
import type { BlobStore, VaultDocuments } from '../../functions/platform/ports';
import { createBucket, createTables, documentClient } from '../support/emulators';

const clock = new ManualClock(Date.parse('2026-11-23T10:00:00Z'));

/** The blob store, noting the keys that hold content (put and not yet deleted) in `held`. */
function tracked(store: BlobStore, held: Set<string>): BlobStore {
  return {
    put: async (key, content, contentType) => {
      const out = await store.put(key, content, contentType);
      held.add(key);
      return out;
    },
    get: (key) => store.get(key),
    delete: async (key) => {
      await store.delete(key);
      held.delete(key);
    },
  };
}

const adapters: [string, (held: Set<string>) => Promise<VaultDocuments>][] = [
  [
    'local (journaled table, files)',
    async (held) =>
      new VaultStandIn(
        new MemoryTable('vault'),
        tracked(new FileBlobStore(mkdtempSync(join(tmpdir(), 'vault-contract-'))), held),
        clock,
      ),
  ],
  [
    'aws (DynamoDB, S3)',
    async (held) => {
      const [tables, bucket] = await Promise.all([
        createTables('vault-contract'),
        createBucket('vault-contract'),
      ]);
      return new VaultStandIn(
        new DynamoDbTable(tables.vault, documentClient()),
        tracked(new S3BlobStore(bucket.name, bucket.client), held),
        clock,
      );
    },
  ],
];

/** The blobs of one vault that hold content. */
const live = (held: Set<string>, vaultId: string) => [...held].filter((key) => key.includes(`/${vaultId}/`));

const ORG = 'org_vaultcontract';
const sha256 = (value: string | Buffer) => createHash('sha256').update(value).digest('hex');

describe.each(adapters)('VaultDocuments port: %s', (_name, make) => {
  let vault: VaultDocuments;
  const blobs = new Set<string>();
  beforeAll(async () => {
    vault = await make(blobs);
  });

  const write = (vaultId: string, objectId: string, content: string | Buffer, name = 'brief.txt') =>
    vault.put({
      organizationId: ORG,
      vaultId,
      objectId,
      name,
      contentType: 'text/plain',
      content: Readable.from([Buffer.from(content)]),
    });

  it('stores content and metadata, reads both back, and answers undefined for a document never put', async () => {
    const stored = await write('vlt_a', 'doc_1', 'the brief');
    expect(stored).toMatchObject({
      version: 1,
      size: 9,
      sha256: sha256('the brief'),
      chunkCount: 1,
      name: 'brief.txt',
    });
    expect(await vault.get({ organizationId: ORG, vaultId: 'vlt_a', objectId: 'doc_1' })).toEqual(stored);
    expect(
      await text((await vault.read({ organizationId: ORG, vaultId: 'vlt_a', objectId: 'doc_1' }))!),
    ).toBe('the brief');
    expect(
      await vault.get({ organizationId: ORG, vaultId: 'vlt_a', objectId: 'doc_missing' }),
    ).toBeUndefined();
    expect(
      await vault.read({ organizationId: ORG, vaultId: 'vlt_a', objectId: 'doc_missing' }),
    ).toBeUndefined();
  });

  it('gives a document new content as its next version, keeping its creation time', async () => {
    const first = await write('vlt_v', 'doc_1', 'one');
    clock.advance(1000);
    const second = await write('vlt_v', 'doc_1', 'two, longer');
    expect(second).toMatchObject({
      version: 2,
      size: 11,
      createdAt: first.createdAt,
      updatedAt: first.updatedAt + 1000,
    });
    expect(
      await text((await vault.read({ organizationId: ORG, vaultId: 'vlt_v', objectId: 'doc_1' }))!),
    ).toBe('two, longer');
  });

  it('streams content of several parts through without changing a byte', async () => {
    const big = Buffer.alloc(17 * 1024 * 1024 + 123, 7); // three parts of a multipart upload on S3
    big.write('start', 0);
    const stored = await vault.put({
      organizationId: ORG,
      vaultId: 'vlt_big',
      objectId: 'doc_big',
      name: 'big.bin',
      contentType: 'application/octet-stream',
      content: Readable.from(
        (function* () {
          for (let i = 0; i < big.length; i += 64 * 1024) yield big.subarray(i, i + 64 * 1024);
        })(),
      ),
    });
    expect(stored).toMatchObject({
      size: big.length,
      sha256: sha256(big),
      chunkCount: chunkCount(big.length),
    });
    const chunks: Buffer[] = [];
    for await (const chunk of (await vault.read({
      organizationId: ORG,
      vaultId: 'vlt_big',
      objectId: 'doc_big',
    }))!)
      chunks.push(chunk as Buffer);
    expect(sha256(Buffer.concat(chunks))).toBe(sha256(big));
  });

  it('deletes a document, and deleting it again (or one that never existed) succeeds', async () => {
    await write('vlt_b', 'doc_1', 'x');
    await vault.delete({ organizationId: ORG, vaultId: 'vlt_b', objectId: 'doc_1' });
    expect(await vault.get({ organizationId: ORG, vaultId: 'vlt_b', objectId: 'doc_1' })).toBeUndefined();
    expect(await vault.read({ organizationId: ORG, vaultId: 'vlt_b', objectId: 'doc_1' })).toBeUndefined();
    await expect(
      vault.delete({ organizationId: ORG, vaultId: 'vlt_b', objectId: 'doc_1' }),
    ).resolves.toBeUndefined();
    await expect(
      vault.delete({ organizationId: ORG, vaultId: 'vlt_b', objectId: 'doc_never' }),
    ).resolves.toBeUndefined();
  });

  it('keeps the same ids apart across vaults and across organizations', async () => {
    await write('vlt_c', 'doc_same', 'c');
    await write('vlt_d', 'doc_same', 'd');
    await vault.put({
      organizationId: 'org_other',
      vaultId: 'vlt_c',
      objectId: 'doc_same',
      name: 'theirs.txt',
      contentType: 'text/plain',
      content: Readable.from([Buffer.from('theirs')]),
    });
    await vault.delete({ organizationId: ORG, vaultId: 'vlt_c', objectId: 'doc_same' });
    expect(await vault.get({ organizationId: ORG, vaultId: 'vlt_c', objectId: 'doc_same' })).toBeUndefined();
    expect(await vault.get({ organizationId: ORG, vaultId: 'vlt_d', objectId: 'doc_same' })).toMatchObject({
      size: 1,
    });
    expect(
      await vault.get({ organizationId: 'org_other', vaultId: 'vlt_c', objectId: 'doc_same' }),
    ).toMatchObject({
      name: 'theirs.txt',
    });
  });

  it('leaves the previous version readable when new content fails to stream in', async () => {
    await write('vlt_e', 'doc_1', 'good');
    const failing = new Readable({
      read() {
        this.destroy(new Error('provider went away'));
      },
    });
    await expect(
      vault.put({
        organizationId: ORG,
        vaultId: 'vlt_e',
        objectId: 'doc_1',
        name: 'x',
        contentType: 'text/plain',
        content: failing,
      }),
    ).rejects.toThrow();
    expect(await vault.get({ organizationId: ORG, vaultId: 'vlt_e', objectId: 'doc_1' })).toMatchObject({
      version: 1,
    });
    expect(
      await text((await vault.read({ organizationId: ORG, vaultId: 'vlt_e', objectId: 'doc_1' }))!),
    ).toBe('good');
  });

  it('gives two writers at once each its own version, the content of the later one kept and the earlier content deleted', async () => {
    await write('vlt_g', 'doc_1', 'first');
    // Both stream their content at once, then write the metadata (as two copies of one import step
    // may): each displaces exactly one blob and deletes it; the metadata's blob is never deleted.
    const slow = (body: string) =>
      vault.put({
        organizationId: ORG,
        vaultId: 'vlt_g',
        objectId: 'doc_1',
        name: 'brief.txt',
        contentType: 'text/plain',
        content: Readable.from(
          (async function* () {
            await new Promise((resolve) => setTimeout(resolve, 20));
            yield Buffer.from(body);
          })(),
        ),
      });
    const results = await Promise.all([slow('second a'), slow('second b')]);
    expect(results.map((r) => r.version).sort()).toEqual([2, 3]);
    const later = results.find((r) => r.version === 3)!;
    const stored = await vault.get({ organizationId: ORG, vaultId: 'vlt_g', objectId: 'doc_1' });
    expect(stored).toMatchObject({ version: 3, sha256: later.sha256, createdAt: results[0]!.createdAt });
    const content = await vault.read({ organizationId: ORG, vaultId: 'vlt_g', objectId: 'doc_1' });
    expect(sha256(await text(content!))).toBe(later.sha256);
    expect(live(blobs, 'vlt_g')).toHaveLength(1);
  });

  it('refuses content cut off by a byte limit as it streams, storing nothing, the previous version kept', async () => {
    await write('vlt_f', 'doc_1', 'small');
    const limit = 9 * 1024 * 1024; // past the first part of a multipart upload on S3
    let produced = 0;
    const endless = new Readable({
      read() {
        produced += 1024 * 1024;
        this.push(Buffer.alloc(1024 * 1024, 1));
      },
    });
    const put = vault.put({
      organizationId: ORG,
      vaultId: 'vlt_f',
      objectId: 'doc_1',
      name: 'endless.bin',
      contentType: 'application/octet-stream',
      content: pipeline(endless, new ByteLimit(limit), () => {}),
    });
    await expect(put).rejects.toBeInstanceOf(StreamTooLargeError);
    expect(endless.destroyed).toBe(true);
    expect(produced).toBeLessThan(limit + 4 * 1024 * 1024);
    expect(await vault.get({ organizationId: ORG, vaultId: 'vlt_f', objectId: 'doc_1' })).toMatchObject({
      version: 1,
      size: 5,
    });
  });
});

describe('S3 BlobStore: a missing key in both of the forms S3 answers', () => {
  /**
   * Turns the emulator's NoSuchKey (404) for GetObject into what S3 answers a caller without
   * s3:ListBucket: 403 AccessDenied, at the HTTP layer, so the SDK parses S3's own error body.
   */
  async function withoutListBucket() {
    const bucket = await createBucket('vault-403');
    bucket.client.middlewareStack.add(
      (next) => async (args) => {
        const result = await next(args);
        const response = result.response as {
          statusCode: number;
          body: unknown;
          headers: Record<string, string>;
        };
        if (response.statusCode === 404) {
          response.statusCode = 403;
          response.headers = { 'content-type': 'application/xml' };
          response.body = Readable.from([
            Buffer.from(
              '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>',
            ),
          ]);
        }
        return result;
      },
      { step: 'deserialize', priority: 'low', name: 'asIfWithoutListBucket' },
    );
    return new S3BlobStore(bucket.name, bucket.client);
  }

  it('reads NoSuchKey (what S3 answers a reader with ListBucket, and the emulator) as no content', async () => {
    const bucket = await createBucket('vault-404');
    const blobs = new S3BlobStore(bucket.name, bucket.client);
    await expect(blobs.get('org/vault/never-put/1')).resolves.toBeUndefined();
  });

  it('does not read the 403 form as no content: it names the permission, so a missing grant is found', async () => {
    const blobs = await withoutListBucket();
    const failure = blobs.get('org/vault/never-put/1');
    await expect(failure).rejects.toBeInstanceOf(BlobAccessDeniedError);
    await expect(failure).rejects.toThrow(/s3:ListBucket/);
    // Stored content still reads: only the missing key takes the 403 form.
    await blobs.put('org/vault/doc/1', Readable.from([Buffer.from('kept')]), 'text/plain');
    await expect(text((await blobs.get('org/vault/doc/1'))!)).resolves.toBe('kept');
  });
});
