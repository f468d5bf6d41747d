// A large blob's temporary file, written in large pieces and hashed (SHA-256) on a worker thread, so
// the main thread only receives it (on a large import the main thread spent ~0.75 ms
// of CPU per MiB hashing, and a thread-pool write per 64 KiB chunk, beyond what a plain download costs).
// Bytes go through a ring of SLOTS slots of SLOT_BYTES in shared memory, a ring per blob being written
// (reused by the next): the main thread copies each chunk into the current slot (a memcpy; the
// caller's buffer is never taken); a full slot is written at its offset on the thread pool and handed
// to the worker to hash, both at once; the slot is filled again only when both are done, so memory
// stays bounded whatever the blob's size. One worker per process, started at the first large blob,
// holding the process open only while a hash is under way. (Fresh memory per piece, transferred to
// the worker, cost more than the hashing it moved: page faults and zeroing.)
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';

export const SLOT_BYTES = 512 * 1024;
export const SLOTS = 8;
/** Rings kept for the next blobs once theirs is written. */
const IDLE_RINGS = 4;

// CommonJS, evaluated in the worker. begin {id, ring, hashed}; update {id, slot, length}: hashes that
// slot and counts it in `hashed` (shared), waking a waiting writer; end {id}: answers {id, hex}; abort.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const SLOT_BYTES = ${SLOT_BYTES};
const open = new Map();
parentPort.on('message', (m) => {
  if (m.op === 'begin') {
    open.set(m.id, { hash: createHash('sha256'), ring: new Uint8Array(m.ring), hashed: new Int32Array(m.hashed) });
    return;
  }
  const at = open.get(m.id);
  if (!at) return;
  if (m.op === 'update') {
    at.hash.update(at.ring.subarray(m.slot * SLOT_BYTES, m.slot * SLOT_BYTES + m.length));
    Atomics.add(at.hashed, 0, 1);
    Atomics.notify(at.hashed, 0);
    return;
  }
  open.delete(m.id);
  if (m.op === 'end') parentPort.postMessage({ id: m.id, hex: at.hash.digest('hex') });
});
`;

/** Atomics.waitAsync (Node 16+; the project's TypeScript lib predates it). */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      array: Int32Array,
      index: number,
      value: number,
      timeoutMs: number,
    ): { async: boolean; value: Promise<string> | string };
  }
).waitAsync;

interface Ring {
  bytes: Uint8Array;
  /** Slots the worker has hashed (it adds one per slot, in order). */
  hashed: Int32Array;
}

export class HashThreadStoppedError extends Error {
  constructor() {
    super('the hashing thread stopped');
    this.name = 'HashThreadStopped';
  }
}

let worker: Worker | undefined;
let nextId = 0;
/** Hashes begun and not finished. */
let underWay = 0;
const digests = new Map<number, { resolve(hex: string): void; reject(error: Error): void }>();
const idleRings: Ring[] = [];

function theWorker(): Worker {
  if (worker) return worker;
  // Plain CommonJS: none of this process's flags or loaders (tsx, --input-type) are needed there.
  const started = new Worker(WORKER_SOURCE, { eval: true, execArgv: [] });
  started.on('message', ({ id, hex }: { id: number; hex: string }) => {
    digests.get(id)?.resolve(hex);
    digests.delete(id);
  });
  const stopped = () => {
    if (worker !== started) return;
    worker = undefined;
    for (const waiting of digests.values()) waiting.reject(new HashThreadStoppedError());
    digests.clear();
  };
  started.on('error', stopped);
  started.on('exit', stopped);
  // After the listeners (adding one refs it): it holds the process open only while a hash is under way.
  if (underWay === 0) started.unref();
  worker = started;
  return started;
}

function takeRing(): Ring {
  const ring = idleRings.pop();
  if (ring) {
    Atomics.store(ring.hashed, 0, 0);
    return ring;
  }
  return {
    bytes: new Uint8Array(new SharedArrayBuffer(SLOTS * SLOT_BYTES)),
    hashed: new Int32Array(new SharedArrayBuffer(4)),
  };
}

/** Writes all of `bytes` at `position` (a write may take less than it is given). */
async function writeAt(file: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < bytes.length;) {
    const { bytesWritten } = await file.write(bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}

/**
 * One blob written to `path` (created or truncated) and hashed, from the bytes given to `write`, in
 * order. `end` resolves with the hex SHA-256 once every byte is written and the file closed; after a
 * failure, `abort` closes the file (the caller removes it).
 */
export class ThreadedBlobWrite {
  private readonly id = nextId++;
  private readonly worker = theWorker();
  private ring: Ring | undefined = takeRing();
  private readonly file: Promise<FileHandle>;
  /** Each slot's write in flight (a rejected one is seen when the slot is needed again, or at the end). */
  private readonly writes: (Promise<void> | undefined)[] = new Array(SLOTS);
  /** Slots handed over; the one being filled is `posted % SLOTS`. */
  private posted = 0;
  private filled = 0;
  private position = 0;

  constructor(path: string) {
    this.file = open(path, 'w');
    this.file.catch(() => undefined); // seen by the first write or by end
    if (underWay++ === 0) this.worker.ref();
    this.worker.postMessage({
      op: 'begin',
      id: this.id,
      ring: this.ring!.bytes.buffer,
      hashed: this.ring!.hashed.buffer,
    });
  }

  /** Adds `chunk` (copied: the caller keeps it); resolves at once unless a ring's worth is in flight. */
  async write(chunk: Uint8Array): Promise<void> {
    const ring = this.live();
    for (let at = 0; at < chunk.length;) {
      if (this.filled === 0) await this.slotFree(ring);
      const take = Math.min(chunk.length - at, SLOT_BYTES - this.filled);
      ring.bytes.set(chunk.subarray(at, at + take), (this.posted % SLOTS) * SLOT_BYTES + this.filled);
      this.filled += take;
      at += take;
      if (this.filled === SLOT_BYTES) this.handOver(ring);
    }
  }

  /** Every byte given is in the file, closed; its hex SHA-256. The ring serves the next blob. */
  async end(): Promise<string> {
    const ring = this.live();
    if (this.filled) this.handOver(ring);
    const digest = new Promise<string>((resolve, reject) => {
      digests.set(this.id, { resolve, reject });
      this.worker.postMessage({ op: 'end', id: this.id });
    });
    digest.catch(() => undefined); // awaited below, after the writes
    await Promise.all(this.writes);
    await (await this.file).close();
    const hex = await digest;
    this.finish();
    if (idleRings.length < IDLE_RINGS) idleRings.push(ring); // every slot hashed and written
    return hex;
  }

  /** Closes the file once no write is in flight; never throws. */
  async abort(): Promise<void> {
    if (!this.ring) return;
    if (this.worker === worker) this.worker.postMessage({ op: 'abort', id: this.id });
    this.finish(); // the worker may still read the ring: it is not reused
    await Promise.allSettled(this.writes);
    await (await this.file.catch(() => undefined))?.close().catch(() => undefined);
  }

  private finish(): void {
    this.ring = undefined;
    if (--underWay === 0) worker?.unref();
  }

  private live(): Ring {
    if (!this.ring) throw new Error('the blob write is finished');
    if (this.worker !== worker) throw new HashThreadStoppedError();
    return this.ring;
  }

  private handOver(ring: Ring): void {
    const slot = this.posted % SLOTS;
    const bytes = ring.bytes.subarray(slot * SLOT_BYTES, slot * SLOT_BYTES + this.filled);
    const position = this.position;
    const written = this.file.then((file) => writeAt(file, bytes, position));
    written.catch(() => undefined); // awaited before the slot is reused, and at the end
    this.writes[slot] = written;
    this.worker.postMessage({ op: 'update', id: this.id, slot, length: this.filled });
    this.position += this.filled;
    this.posted++;
    this.filled = 0;
  }

  /** Waits until the slot about to be filled is written and hashed (at most SLOTS - 1 in flight). */
  private async slotFree(ring: Ring): Promise<void> {
    const slot = this.posted % SLOTS;
    await this.writes[slot];
    for (;;) {
      const hashed = Atomics.load(ring.hashed, 0);
      if (this.posted - hashed < SLOTS) return;
      if (this.worker !== worker) throw new HashThreadStoppedError();
      const waited = waitAsync(ring.hashed, 0, hashed, 1_000);
      if (waited.async) await waited.value;
    }
  }
}
