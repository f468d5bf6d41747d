// The rules of import runs and exports, without I/O: schedules, how a run waits and backs off, what a
// provider failure means for a run, the ids an import derives, export file names. Unit-tested on values.
import { createHash } from 'node:crypto';
import { derivedId } from '../../platform/ids';
import { MAX_QUEUE_DELAY_SECONDS } from '../../platform/durable-timer';

/** A scheduled link runs at most this often, and at least once a week. */
export const MIN_SCHEDULE_MINUTES = 5;
export const MAX_SCHEDULE_MINUTES = 7 * 24 * 60;

/** Provider files listed per step (one queue message); a step also stops early at its time budget. */
export const SYNC_PAGE_SIZE = 100;
/**
 * Files downloaded and stored at once within a step. Eight, not four: a file's time is mostly waiting
 * (the provider's answer, the table writes around the vault write), and at four the run left the
 * connection pool and the process idle (the import bench's raw loop was fastest at 16).
 */
export const SYNC_CONCURRENCY = 8;
/** Documents uploaded per export step. */
export const EXPORT_PAGE_SIZE = 10;
/** At most this many documents in one export request. */
export const MAX_EXPORT_DOCUMENTS = 1_000;
/** Files larger than this are not imported (counted failed, reason too_large); content streams through. */
export const MAX_FILE_BYTES = 1024 ** 3;
/** Per-item failures kept on a job for its reader. */
export const MAX_RECORDED_FAILURES = 20;

/** A step failing for a passing reason (5xx, network) is retried this many times, backing off. */
export const TRANSIENT_ATTEMPTS = 6;
const BACKOFF_BASE_SECONDS = 15;

/**
 * A link's change feed serves changes at least this old: writes land in the feed's index with the
 * time they were made, a little after it (parallel downloads, an index's propagation), and a position
 * handed out must not pass a change that has yet to appear.
 */
export const FEED_SETTLE_MS = 5_000;

/** A processing job not heard from for this long is re-driven by the sweep (its step message was lost). */
export const STALE_JOB_MS = 20 * 60_000;

/** 15 s, 30 s, 60 s, ... doubling per consecutive failed attempt of a step, at most 15 minutes. */
export const backoffSeconds = (attempt: number): number =>
  Math.min(MAX_QUEUE_DELAY_SECONDS, BACKOFF_BASE_SECONDS * 2 ** Math.max(0, attempt - 1));

/**
 * A link's changes runs become full (reconciling) runs once this many hours passed since the last one
 * (or since the link was made): what a provider's feed does not report is then at most this old.
 */
export const DEFAULT_RECONCILE_HOURS = 24;
export const MAX_RECONCILE_HOURS = 24 * 30;

/** Whether a run of the link starting at `now` must reconcile (its period ran out). */
export const reconcileDue = (
  link: { reconcileEveryHours?: number; reconciledAt?: number; createdAt: number },
  now: number,
): boolean =>
  now >=
  (link.reconciledAt ?? link.createdAt) + (link.reconcileEveryHours ?? DEFAULT_RECONCILE_HOURS) * 3_600_000;

/** When a scheduled link runs next after `from` (ms). */
export const nextScheduledRun = (from: number, everyMinutes: number): number => from + everyMinutes * 60_000;

/**
 * The vault document an imported provider file becomes: derived from the link and the file, so a
 * retried or repeated import writes the same document (and a change updates it) instead of a copy.
 */
export const importedObjectId = (linkId: string, providerFileId: string): string =>
  derivedId('doc', `import:${linkId}:${providerFileId}`);

/** The event id of one ingestion: a re-publish after a crash repeats it, so receivers see it once. */
export const ingestEventId = (vaultId: string, objectId: string, version: number): string =>
  derivedId('evt', `ingest:${vaultId}:${objectId}:${version}`);

/** Idempotency key of one document version's upload to one destination (a retried step uploads once). */
export function exportUploadKey(
  connectionId: string,
  destination: string,
  documentKey: string,
  version: number,
) {
  return `exp_${createHash('sha256').update(`${connectionId}:${destination}:${documentKey}:${version}`).digest('base64url')}`;
}

/** What a failure of a provider call means for the run making it. */
export type RunFailure =
  /** The connection cannot be used until the user reconnects (or it was disconnected). */
  | { kind: 'unusable'; reason: 'reauth_required' | 'connection_revoked' | 'connection_pending' }
  /** The provider rate limits the account: wait until then, then go on. */
  | { kind: 'throttled'; until: number }
  /** 5xx, network, timeout, a refresh that could not happen now: retry the step with backoff (or after Retry-After). */
  | { kind: 'transient'; retryAfterSeconds?: number }
  /** The source container is gone or out of the grant's reach: the run cannot go on. */
  | {
      kind: 'fatal';
      reason: 'source_not_found' | 'insufficient_scope' | 'provider_refused' | 'provider_url_refused';
    };

/**
 * Why a URL the provider handed back was not followed (the transport's refusals): not https while the
 * API is, an address the guard refuses (loopback in production, private, link-local, metadata), or not
 * a URL at all. Each is the provider pointing somewhere we do not go: retrying changes nothing.
 */
export const URL_REFUSALS = ['insecure_url', 'blocked_address', 'invalid_url', 'foreign_link'] as const;
export type UrlRefusal = (typeof URL_REFUSALS)[number];

/** What a failed content-API answer means (a 401 was already retried once with a refreshed token). */
export function classifyApiStatus(status: number | undefined, providerError?: string): RunFailure {
  if ((URL_REFUSALS as readonly (string | undefined)[]).includes(providerError))
    return { kind: 'fatal', reason: 'provider_url_refused' };
  if (status === undefined || status === 408 || status >= 500) return { kind: 'transient' };
  if (status === 401) return { kind: 'unusable', reason: 'reauth_required' };
  if (status === 403)
    return {
      kind: 'fatal',
      reason: providerError === 'insufficient_scope' ? 'insufficient_scope' : 'provider_refused',
    };
  if (status === 404) return { kind: 'fatal', reason: 'source_not_found' };
  return { kind: 'fatal', reason: 'provider_refused' };
}

/** What a customer reads for a run's failure reason. */
export const RUN_FAILURE_MESSAGES: Record<string, string> = {
  reauth_required: 'The connection needs the user to reconnect (the provider refused its grant)',
  connection_revoked: 'The connection was disconnected',
  connection_purged:
    'The connection was disconnected and its documents are being purged: the run stored nothing more',
  connection_pending: 'The connection has not finished its connect flow',
  source_not_found: "The link's source no longer exists at the provider, or the account cannot see it",
  insufficient_scope: 'The connection was granted fewer scopes than this needs; reconnect to grant them',
  provider_refused: 'The provider refused the request',
  provider_url_refused:
    'The provider pointed to a URL we do not follow (not https, or an address that is not public)',
  provider_unavailable: 'The provider kept failing after retries',
  link_deleted: 'The import link was deleted during the run',
  provider_disabled: 'The provider is turned off for the organization',
  superseded: 'Another run of this link took its place before it started',
  previous_run_in_progress: 'The previous run of this link was still going when the next one came due',
  connection_reauth_required: 'The connection needs the user to reconnect',
  refused: 'The run could not be started (see the link)',
  internal_error: 'The job failed on our side after retries; it can be started again',
};

/** What a failure reason means, for people; `fallback` when the reason has none of its own. */
export const failureMessage = (reason: string | undefined, fallback: string): string =>
  (reason && RUN_FAILURE_MESSAGES[reason]) || fallback;
