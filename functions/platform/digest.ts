// Pass-through streams that count what flows through them: a digest (blob stores record size and
// SHA-256) and a byte limit (a stream that says less than it carries is cut off at the limit).
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

/** What a byte limit fails its stream with when more than its limit flows through. */
export class StreamTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The content exceeds ${limit} bytes`);
    this.name = 'StreamTooLarge';
  }
}

/** Passes at most `limit` bytes; the first byte over fails the stream with StreamTooLargeError. */
export class ByteLimit extends Transform {
  private bytes = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) done(new StreamTooLargeError(this.limit));
    else done(null, chunk);
  }
}
