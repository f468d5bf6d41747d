// The resumable-upload driver: a file sent in parts through an upload session the provider keeps
// (Google Drive's resumable session, Dropbox's upload session, Graph's createUploadSession). Each client
// says how its session starts, takes a part, tells its offset and finishes; the driver sends the parts
// in order and resumes a part that failed on the way.
//
// The invariant: the bytes the session holds are always a prefix of the file, and each byte is sent
// again only when the session says it does not hold it. After a part gets no answer or a 5xx, the
// session is asked where it is (`offset`): it holds part of this part (only the rest is sent), all of
// it (the answer was lost: nothing is sent again), or says it made the file (the last part's answer was
// lost). An offset outside this part is a session that lost bytes, a failure, never a guess.
import type { Readable } from 'node:stream';
import { ProviderApiError, chunksOf } from './http';

/** Tries of one part: the first and its resumptions. */
export const RESUME_ATTEMPTS = 3;

/** What a session says after a failed part: how many bytes it holds, or the file it made. */
export type SessionState<Done> = { received: number } | { done: Done };

/** One provider's upload session, as the driver uses it. */
export interface ResumableSession<Session, Done> {
  /** The operation failures are named after ('upload chunk', 'upload fragment'). */
  operation: string;
  /** Bytes per part (the last is shorter); each provider's own multiple. */
  partBytes: number;
  /** Opens the session (Google's Location, Dropbox's session id, Graph's uploadUrl). */
  start(): Promise<Session>;
  /**
   * Sends the bytes at `offset` of `size`: the file it made when this completed it, else undefined
   * (the session waits for more).
   */
  put(session: Session, offset: number, bytes: Buffer, size: number): Promise<Done | undefined>;
  /**
   * Where the session is after `error` (a part that failed): what it holds or made; undefined when the
   * provider has no way to ask (the part is then sent again from where it was, and the provider's
   * answer to that, e.g. Dropbox's incorrect_offset, is read by `offset` at the next failure).
   */
  offset(session: Session, error: ProviderApiError, size: number): Promise<SessionState<Done> | undefined>;
  /**
   * Sends the last part and completes the file (Dropbox's finish, which names the file's path); without
   * it the last put completes the session.
   */
  finish?(session: Session, offset: number, last: Buffer): Promise<Done>;
  /** Whether a failed part is worth resuming; no answer or a 5xx when not given. */
  resumable?(error: ProviderApiError): boolean;
  /** Called once when the upload fails for good (Graph's session is dropped rather than left to expire). */
  abandon?(session: Session): Promise<void>;
}

const transient = (error: ProviderApiError) => error.status === undefined || error.status >= 500;

const failure = (operation: string, reason: string, status?: number) =>
  new ProviderApiError(operation, status, undefined, undefined, reason);

/** The body's parts, each with whether it is the last (one part held back to know). */
async function* partsOf(body: Readable, size: number): AsyncGenerator<{ part: Buffer; last: boolean }> {
  let held: Buffer | undefined;
  for await (const piece of chunksOf(body, size)) {
    if (held) yield { part: held, last: false };
    held = piece;
  }
  yield { part: held ?? Buffer.alloc(0), last: true };
}

/** Uploads `body` (`size` bytes) through the session: the file the provider made. */
export async function uploadResumable<Session, Done>(
  driver: ResumableSession<Session, Done>,
  body: Readable,
  size: number,
  attempts = RESUME_ATTEMPTS,
): Promise<Done> {
  const { operation } = driver;
  const session = await driver.start();
  try {
    let offset = 0;
    for await (const { part, last } of partsOf(body, driver.partBytes)) {
      const end = offset + part.length;
      if (last && end !== size) throw failure(operation, 'size_mismatch');
      if (last && driver.finish) return await driver.finish(session, offset, part);
      const done = await putResumed(driver, session, offset, part, size, attempts);
      offset = end;
      if (done !== undefined) {
        if (offset !== size) throw failure(operation, 'early_end', 200);
        return done;
      }
      if (last) throw failure(operation, 'incomplete');
    }
    throw failure(operation, 'incomplete');
  } catch (error) {
    await driver.abandon?.(session).catch(() => undefined);
    throw error;
  }
}

/** One part, resumed where the session says it is: the file when the part completed it. */
async function putResumed<Session, Done>(
  driver: ResumableSession<Session, Done>,
  session: Session,
  offset: number,
  part: Buffer,
  size: number,
  attempts: number,
): Promise<Done | undefined> {
  const end = offset + part.length;
  let sent = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return await driver.put(session, offset + sent, part.subarray(sent), size);
    } catch (error) {
      if (!(error instanceof ProviderApiError) || attempt >= attempts) throw error;
      if (!(driver.resumable ?? transient)(error)) throw error;
      const state = await driver.offset(session, error, size);
      if (state === undefined) continue;
      if ('done' in state) {
        if (end !== size) throw failure(driver.operation, 'early_end', 200);
        return state.done;
      }
      if (state.received < offset || state.received > end)
        throw failure(driver.operation, 'session_lost_bytes', 308);
      sent = state.received - offset;
      if (sent === part.length) return undefined; // the bytes arrived, the answer did not
    }
  }
}
