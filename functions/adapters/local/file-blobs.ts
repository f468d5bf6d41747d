// BlobStore on the local disk (under the data directory), or in memory when there is none (tests).
// A blob is written to a temporary file and renamed into place, so a crash never leaves half a blob
// under its key; a crash mid-write leaves the temporary file, which the next start removes.
import { createHash, randomUUID } from 'node:crypto';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Digest } from '../../platform/digest';
import type { BlobStore } from '../../platform/ports';
import { ThreadedBlobWrite } from './blob-write-thread';

/** A blob being written: `<key's file>.<12 hex>.tmp` (no key's file ends so: a key ends in its version). */
const TEMPORARY = /\.[0-9a-f]{12}\.tmp$/;

/** 12 random hex digits (a v4 UUID's last group: random, from Node's cached entropy). */
const temporarySuffix = (): string => randomUUID().slice(-12);

/**
 * A blob up to this size is held whole as it arrives and written in one go (temporary file, then
 * rename); a larger one streams to its temporary file. Most imported files are small, and five
 * thread-pool round trips each (directory, open, write, close, rename) cost more than the write.
 */
const SMALL_BLOB_BYTES = 256 * 1024;

const asBuffer = (chunk: Buffer | Uint8Array | string): Buffer =>
  Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);

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
  /** Directories known to exist (a vault's): no mkdir per blob. */
  private readonly directories = new Set<string>();

  /** @param root a directory; omitted: blobs live in memory. */
  constructor(private readonly root?: string) {}

  /**
   * Where a key's blob is: its segments URI-encoded (no segment can climb out of the root), the last
   * two joined by `@` (which encoding never leaves in a segment) into one file name in the directory of
   * the others: `<org>/<vault>/<object>@v<version>`. A directory per object (the layout before) cost a
   * mkdir per imported document, the largest single cost of a small import.
   */
  private path(key: string): string {
    const segments = this.segments(key);
    if (segments.length < 2) return join(this.root!, ...segments);
    const file = `${segments[segments.length - 2]}@${segments[segments.length - 1]}`;
    return join(this.root!, ...segments.slice(0, -2), file);
  }

  /** Where the layout before put a key's blob (a directory per segment): still read and deleted. */
  private formerPath(key: string): string {
    return join(this.root!, ...this.segments(key));
  }

  /** Creates `path` with `data`, making its directory first unless this store made or used it already. */
  private writeNew(path: string, data: Buffer): void {
    const directory = dirname(path);
    if (!this.directories.has(directory)) mkdirSync(directory, { recursive: true });
    try {
      writeFileSync(path, data);
    } catch (error) {
      // Removed since (by hand): made again.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      mkdirSync(directory, { recursive: true });
      writeFileSync(path, data);
    }
    this.directories.add(directory);
  }

  private segments(key: string): string[] {
    return key.split('/').map((segment) => encodeURIComponent(decodeURIComponent(segment)));
  }

  async put(key: string, content: Readable): Promise<{ size: number; sha256: string }> {
    if (!this.root) {
      const digest = new Digest();
      const chunks: Buffer[] = [];
      await pipeline(content, digest, async (source: AsyncIterable<Buffer>) => {
        for await (const chunk of source) chunks.push(chunk);
      });
      this.memory.set(key, Buffer.concat(chunks));
      return { size: digest.bytes, sha256: digest.sha256 };
    }
    const target = this.path(key);
    const temporary = `${target}.${temporarySuffix()}.tmp`;
    let size = 0;
    let held: Buffer[] = [];
    // A large blob is written and hashed on the worker thread (./blob-write-thread.ts); a small one
    // here, in one go, where a message would cost more than the work.
    let large: ThreadedBlobWrite | undefined;
    let sha256: string;
    try {
      // Read as written: the next chunk is read once this one is on its way (back-pressure).
      for await (const received of content as AsyncIterable<Buffer | Uint8Array | string>) {
        const chunk = asBuffer(received);
        size += chunk.length;
        if (large) {
          await large.write(chunk);
        } else if (size <= SMALL_BLOB_BYTES) {
          held.push(chunk);
        } else {
          await mkdir(dirname(target), { recursive: true });
          large = new ThreadedBlobWrite(temporary);
          for (const part of held) await large.write(part);
          held = [];
          await large.write(chunk);
        }
      }
      if (large) {
        sha256 = await large.end();
        await rename(temporary, target);
      } else {
        // Small: the same temporary file and rename, synchronously (microseconds on a local disk).
        const whole = Buffer.concat(held, size);
        sha256 = createHash('sha256').update(whole).digest('hex');
        this.writeNew(temporary, whole);
        renameSync(temporary, target);
      }
    } catch (error) {
      await large?.abort();
      await rm(temporary, { force: true });
      throw error;
    }
    return { size, sha256 };
  }

  async get(key: string): Promise<Readable | undefined> {
    if (!this.root) {
      const blob = this.memory.get(key);
      return blob ? Readable.from([blob]) : undefined;
    }
    for (const path of [this.path(key), this.formerPath(key)]) {
      try {
        await stat(path);
      } catch {
        continue;
      }
      return createReadStream(path);
    }
    return undefined;
  }

  async delete(key: string): Promise<void> {
    if (!this.root) {
      this.memory.delete(key);
      return;
    }
    await rm(this.path(key), { force: true });
    await rm(this.formerPath(key), { force: true });
  }
}
