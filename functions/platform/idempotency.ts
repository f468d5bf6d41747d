// Retried creates: a client that sends `Idempotency-Key` gets the first call's outcome back on a
// retry instead of a second resource (a second event id, a second pending connection). One record per
// (key, route, Idempotency-Key), claimed with a conditional write, kept 24 hours.
import { createHash } from 'node:crypto';
import * as z from 'zod/mini';
import type { Clock } from './clock';
import { lazy } from './lazy';
import { ConditionFailedError, ConflictError } from './errors';
import type { Item, Table } from './ports';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

interface IdempotencyItem extends Item {
  fingerprint: string;
  state: 'in_progress' | 'done';
  /** What the route stored to answer a replay with (never a secret: the route decides). */
  stored?: unknown;
}

/** The request header of a create route that may be retried (the route entry's `request.headers`). */
export const idempotencyHeaders = lazy(() =>
  z.object({
    'Idempotency-Key': z
      .optional(
        z.string().check(z.regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 visible ASCII characters')),
      )
      .check(
        z.describe(
          'A retry with the same key and the same request answers the first outcome (kept 24 hours); ' +
            'the same key with another request is 409',
        ),
      ),
  }),
);

/** The response header that marks an answer as the first outcome, replayed. */
export const IDEMPOTENT_REPLAYED_HEADER = {
  'Idempotent-Replayed': {
    description: 'true when this answer replays the first request with the same Idempotency-Key',
    get schema() {
      return replayedHeader();
    },
  },
};
const replayedHeader = lazy(() => z.literal('true'));

export interface IdempotentOutcome<S> {
  stored: S;
  replayed: boolean;
}

/**
 * Runs `create` once per Idempotency-Key. A retry with the same key and the same request gets what
 * the first call stored (`replayed: true`); the same key with another request is 409; a retry while
 * the first call still runs is 409 too (retry later). Without a key, `create` simply runs.
 */
export async function idempotent<S>(
  table: Table,
  clock: Clock,
  scope: { keyId: string; route: string; key: string | undefined; request: unknown },
  create: () => Promise<S>,
): Promise<IdempotentOutcome<S>> {
  if (scope.key === undefined) return { stored: await create(), replayed: false };
  const digest = createHash('sha256').update(`${scope.keyId}\n${scope.route}\n${scope.key}`).digest('hex');
  const recordKey = { pk: `IDEM#${digest}`, sk: 'IDEM' };
  const fingerprint = createHash('sha256').update(JSON.stringify(scope.request)).digest('hex');
  const expiresAt = Math.ceil(clock.now() / 1000) + IDEMPOTENCY_TTL_SECONDS;
  try {
    await table.put({ ...recordKey, fingerprint, state: 'in_progress', expiresAt }, { itemExists: false });
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
    const existing = await table.get<IdempotencyItem>(recordKey);
    if (existing && existing.fingerprint !== fingerprint) {
      throw new ConflictError('Idempotency-Key was already used with a different request');
    }
    if (existing?.state === 'done') return { stored: existing.stored as S, replayed: true };
    throw new ConflictError('A request with this Idempotency-Key is still in progress; retry later');
  }
  let stored: S;
  try {
    stored = await create();
  } catch (error) {
    // Nothing was created: free the key so a retry runs again.
    await table.delete(recordKey).catch(() => undefined);
    throw error;
  }
  await table.put({ ...recordKey, fingerprint, state: 'done', stored: stored as unknown, expiresAt });
  return { stored, replayed: false };
}
