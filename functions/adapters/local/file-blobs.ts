// BlobStore on the local disk (under the data directory), or in memory when there is none (tests).
// A blob is written to a temporary file and renamed into place, so a crash never leaves half a blob
// under its key; a crash mid-write leaves the temporary file, which the next start removes.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Digest } from '../../platform/digest';
import type { BlobStore } from '../../platform/ports';

/** A blob being written: `<key's file>.<12 hex>.tmp` (no key's file ends so: a key ends in `v<version>`). */
const TEMPORARY = /\.[0-9a-f]{12}\.tmp$/;

/**
 * Removes the temporary files writes left under `root` when their process died mid-write; returns how
 * many. Only for the process that owns the directory, at its start, before anything writes.
 */
export function removeTemporaryBlobs(root: string): number {
  if (!existsSync(root)) return 0;
  let removed = 0;
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !TEMPORARY.test(entry.name)) continue;
    rmSync(join(entry.parentPath, entry.name), { force: true });
    removed++;
  }
  return removed;
}

export class FileBlobStore implements BlobStore {
  private readonly memory = new Map<string, Buffer>();

  /** @param root a directory; omitted: blobs live in memory. */
  constructor(private readonly root?: string) {}

  private path(key: string): string {
    // Keys are made of URI-encoded segments: no segment can climb out of the root.
    return join(
      this.root!,
      ...key.split('/').map((segment) => encodeURIComponent(decodeURIComponent(segment))),
    );
  }

  async put(key: string, content: Readable): Promise<{ size: number; sha256: string }> {
    const digest = new Digest();
    if (!this.root) {
      const chunks: Buffer[] = [];
      await pipeline(content, digest, async (source: AsyncIterable<Buffer>) => {
        for await (const chunk of source) chunks.push(chunk);
      });
      this.memory.set(key, Buffer.concat(chunks));
      return { size: digest.bytes, sha256: digest.sha256 };
    }
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await pipeline(content, digest, createWriteStream(temporary));
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { size: digest.bytes, sha256: digest.sha256 };
  }

  async get(key: string): Promise<Readable | undefined> {
    if (!this.root) {
      const blob = this.memory.get(key);
      return blob ? Readable.from([blob]) : undefined;
    }
    const path = this.path(key);
    try {
      await stat(path);
    } catch {
      return undefined;
    }
    return createReadStream(path);
  }

  async delete(key: string): Promise<void> {
    if (!this.root) {
      this.memory.delete(key);
      return;
    }
    await rm(this.path(key), { force: true });
  }
}
