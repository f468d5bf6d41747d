// The resumable-upload driver (functions/connectors/infra/content/resumable.ts) against an in-memory
// session that fails as a provider's does: an answer lost after the bytes arrived, a part cut short
// on the way (part of it held), a 5xx before anything arrived. The invariant, for any file size, part
// size and sequence of failures: every put starts exactly where the session's bytes end (nothing held
// is sent again, nothing is skipped), and the upload either makes the file with exactly its bytes or
// fails, with no more tries of a part than allowed.
import { Readable } from 'node:stream';
import * as fc from 'fast-check';
import { ProviderApiError } from '../../functions/connectors/infra/content/http';
import type { ResumableSession } from '../../functions/connectors/infra/content/resumable';
import { uploadResumable } from '../../functions/connectors/infra/content/resumable';

type Fault = { kind: 'ok' } | { kind: 'lost' } | { kind: 'cut'; keep: number } | { kind: 'fail' };

const fault: fc.Arbitrary<Fault> = fc.oneof(
  { arbitrary: fc.constant({ kind: 'ok' } as const), weight: 3 },
  fc.constant({ kind: 'lost' } as const),
  fc.record({ kind: fc.constant('cut' as const), keep: fc.nat({ max: 1000 }) }),
  fc.constant({ kind: 'fail' } as const),
);

/** A provider's session in memory: the puts it saw (offset and what it held then), and its bytes. */
function memorySession(faults: Fault[], options: { finish: boolean }) {
  const held: Buffer[] = [];
  const size = () => held.reduce((n, b) => n + b.length, 0);
  const puts: { offset: number; held: number }[] = [];
  let made: Buffer | undefined;
  let next = 0;
  const driver: ResumableSession<string, Buffer> = {
    operation: 'upload part',
    partBytes: 0, // set per case
    start: () => Promise.resolve('session-1'),
    put: (_session, offset, bytes, total) => {
      puts.push({ offset, held: size() });
      if (offset !== size()) return Promise.reject(new ProviderApiError('upload part', 416));
      const f = faults[next++] ?? { kind: 'ok' };
      if (f.kind === 'fail') return Promise.reject(new ProviderApiError('upload part', 503));
      if (f.kind === 'cut') {
        held.push(bytes.subarray(0, f.keep % (bytes.length + 1)));
        // All of the last part arrived: the provider made the file, its answer did not come back.
        if (!options.finish && size() === total) made = Buffer.concat(held);
        return Promise.reject(new ProviderApiError('upload part', undefined));
      }
      held.push(bytes);
      const complete = !options.finish && size() === total;
      if (complete) made = Buffer.concat(held);
      if (f.kind === 'lost') return Promise.reject(new ProviderApiError('upload part', undefined));
      return Promise.resolve(complete ? made : undefined);
    },
    offset: () => Promise.resolve(made ? { done: made } : { received: size() }),
    ...(options.finish
      ? {
          finish: (_session: string, offset: number, last: Buffer) => {
            if (offset !== size()) return Promise.reject(new ProviderApiError('finish', 409));
            held.push(last);
            made = Buffer.concat(held);
            return Promise.resolve(made);
          },
        }
      : {}),
  };
  return { driver, puts, made: () => made };
}

describe('the resumable-upload driver', () => {
  it('sends each byte until the session holds it, never one it holds, and makes exactly the file', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 1500 }),
        fc.array(fault, { maxLength: 30 }),
        fc.boolean(),
        async (fileSize, partBytes, faults, finish) => {
          const file = Buffer.alloc(fileSize);
          for (let i = 0; i < fileSize; i++) file[i] = (i * 7) % 251;
          const { driver, puts, made } = memorySession(faults, { finish });
          driver.partBytes = partBytes;
          const body = Readable.from([file.subarray(0, 17), file.subarray(17)]);
          let result: Buffer | undefined;
          let failure: unknown;
          try {
            result = await uploadResumable(driver, body, fileSize, 4);
          } catch (error) {
            failure = error;
          }
          for (const put of puts) expect(put.offset).toBe(put.held);
          if (result) {
            expect(result.equals(file)).toBe(true);
            expect(made()!.equals(file)).toBe(true);
          } else {
            expect(failure).toBeInstanceOf(ProviderApiError);
            expect(made()).toBeUndefined();
          }
        },
      ),
      { seed: 4038, numRuns: 300 },
    );
  });

  it('always finishes when no part fails more often than it may be tried', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4000 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.array(fault, { maxLength: 20 }),
        async (fileSize, partBytes, faults) => {
          // At most two faults in a row: each part gets through on its third try at the latest.
          const spaced = faults.flatMap((f, i) => (i % 2 === 1 ? [f, { kind: 'ok' } as Fault] : [f]));
          const file = Buffer.alloc(fileSize, 5);
          const { driver, made } = memorySession(spaced, { finish: false });
          driver.partBytes = partBytes;
          const out = await uploadResumable(driver, Readable.from([file]), fileSize, 3);
          expect(out.equals(file)).toBe(true);
          expect(made()!.equals(file)).toBe(true);
        },
      ),
      { seed: 4039, numRuns: 200 },
    );
  });

  it('refuses a session that says it holds bytes outside the part, and gives the session up', async () => {
    let abandoned = 0;
    let puts = 0;
    const driver: ResumableSession<string, string> = {
      operation: 'upload part',
      partBytes: 10,
      start: () => Promise.resolve('s'),
      // The first part is taken; the second fails, and the session then says it holds nothing.
      put: () =>
        puts++ === 0 ? Promise.resolve(undefined) : Promise.reject(new ProviderApiError('upload part', 502)),
      offset: () => Promise.resolve({ received: 0 }),
      abandon: () => {
        abandoned++;
        return Promise.resolve();
      },
    };
    const body = Readable.from([Buffer.alloc(10), Buffer.alloc(10)]);
    await expect(uploadResumable(driver, body, 20)).rejects.toMatchObject({
      providerError: 'session_lost_bytes',
    });
    expect(abandoned).toBe(1);
  });

  it('does not resume a refusal (a 4xx other than what the session says resumes)', async () => {
    let puts = 0;
    const driver: ResumableSession<string, string> = {
      operation: 'upload part',
      partBytes: 10,
      start: () => Promise.resolve('s'),
      put: () => {
        puts++;
        return Promise.reject(new ProviderApiError('upload part', 409));
      },
      offset: () => Promise.resolve({ received: 0 }),
    };
    await expect(uploadResumable(driver, Readable.from([Buffer.alloc(5)]), 5)).rejects.toMatchObject({
      status: 409,
    });
    expect(puts).toBe(1);
  });

  it('refuses a body shorter or longer than the size it was announced with', async () => {
    const { driver } = memorySession([], { finish: true });
    driver.partBytes = 4;
    await expect(uploadResumable(driver, Readable.from([Buffer.alloc(9)]), 10)).rejects.toMatchObject({
      providerError: 'size_mismatch',
    });
  });
});
