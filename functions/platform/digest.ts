// A pass-through stream that counts and hashes what flows through it (blob stores record size and SHA-256).
import { createHash } from 'node:crypto';
import type { TransformCallback } from 'node:stream';
import { Transform } from 'node:stream';

/** Counts and hashes what streams through it. */
export class Digest extends Transform {
  private readonly hash = createHash('sha256');
  /** Not `size`: lib-storage's Upload reads a body's `size` as its length (a Blob's), before any byte passed. */
  bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    done(null, chunk);
  }

  get sha256(): string {
    return this.hash.copy().digest('hex');
  }
}
