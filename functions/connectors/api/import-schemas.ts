// Request schemas of the import and export routes (sources, import links, runs, exports).
import { DEFAULT_RECONCILE_HOURS, MAX_RECONCILE_HOURS } from '../domain/sync-policy';
import * as z from 'zod/mini';
import { lazy } from '../../platform/lazy';
import { isId } from '../../platform/ids';
import { cursorPaginationQuery, paginationQuery } from '../../platform/pagination-query';
import { MAX_EXPORT_DOCUMENTS, MAX_SCHEDULE_MINUTES, MIN_SCHEDULE_MINUTES } from '../domain/sync-policy';
import { CONFLICT_POLICIES } from '../domain/export-conflict';

/** Vault ids belong to the vault area: letters, digits, `_` and `-`, as its ids are. */
const vaultId = lazy(() =>
  z
    .string({ error: 'vault_id is required and must be a string' })
    .check(
      z.regex(
        /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/,
        'vault_id must be 1-128 letters, digits, _ or - (a vault id)',
      ),
    ),
);

/** A provider's id of a container or file: opaque, printable, no spaces. */
const providerId = lazy(() =>
  z
    .string()
    .check(z.minLength(1))
    .check(z.maxLength(512))
    .check(z.regex(/^[\x21-\x7e]+$/, 'must be a provider id (printable ASCII without spaces)')),
);

const documentId = lazy(() =>
  z
    .string()
    .check(z.minLength(1))
    .check(z.maxLength(128))
    .check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/, 'must be a document id')),
);

export const linkIdPath = lazy(() =>
  z.object({
    id: z.string().check(z.refine((v) => isId('lnk', v), 'must be an import link id (lnk_...)')),
  }),
);

export const sourcesQuery = lazy(() =>
  z.object({
    parent: z.optional(providerId()),
    limit: paginationQuery().shape.limit,
    // Page tokens are printable ASCII (ours wrap the provider's): a bound on the URL a valid query can make.
    page_token: z.optional(
      z
        .string()
        .check(z.minLength(1))
        .check(z.maxLength(2048))
        .check(z.regex(/^[\x21-\x7e]+$/, 'page_token must be a next_page_token this API returned')),
    ),
  }),
);

const schedule = lazy(() =>
  z.strictObject(
    {
      every_minutes: z
        .int('schedule.every_minutes must be an integer')
        .check(z.gte(MIN_SCHEDULE_MINUTES, `schedule.every_minutes must be at least ${MIN_SCHEDULE_MINUTES}`))
        .check(
          z.lte(
            MAX_SCHEDULE_MINUTES,
            `schedule.every_minutes must be at most ${MAX_SCHEDULE_MINUTES} (a week)`,
          ),
        ),
    },
    { error: 'schedule must be an object {every_minutes}' },
  ),
);

const label = lazy(() =>
  z
    .string({ error: 'label must be a string' })
    .check(z.minLength(1, 'label must not be empty'))
    .check(z.maxLength(200, 'label must be at most 200 characters')),
);

const onSourceDelete = lazy(() =>
  z
    .enum(['keep', 'remove'], { error: 'on_source_delete must be keep or remove' })
    .check(
      z.describe(
        'A file deleted at the provider: keep its document, marked deleted_at_source (default), or remove it from the vault',
      ),
    ),
);

const reconcileEveryHours = lazy(() =>
  z
    .int({ error: 'reconcile_every_hours must be a whole number of hours' })
    .check(z.gte(1, 'reconcile_every_hours must be at least 1'))
    .check(z.lte(MAX_RECONCILE_HOURS, `reconcile_every_hours must be at most ${MAX_RECONCILE_HOURS}`))
    .check(
      z.describe(
        `A run of the link is a full (reconciling) run when this many hours passed since the last one (default ${DEFAULT_RECONCILE_HOURS}): what the provider's change feed does not report is at most this old`,
      ),
    ),
);

export const createLinkBody = lazy(() =>
  z.strictObject({
    vault_id: vaultId(),
    source: z.strictObject(
      {
        id: providerId(),
        name: z
          .optional(z.string().check(z.minLength(1)).check(z.maxLength(512)))
          .check(z.describe('A label for people (the name the picker showed)')),
      },
      { error: 'source must be an object {id, name?}' },
    ),
    label: z.optional(label()),
    schedule: z.optional(schedule()),
    on_source_delete: z.optional(onSourceDelete()),
    reconcile_every_hours: z.optional(reconcileEveryHours()),
  }),
);

/** PATCH: any of the fields; null removes the schedule or the label. */
export const updateLinkBody = lazy(() =>
  z
    .strictObject(
      {
        schedule: z.optional(z.nullable(schedule())),
        paused: z.optional(
          z
            .boolean({ error: 'paused must be true or false' })
            .check(z.describe('true pauses the link (no scheduled runs, runs refused); false resumes it')),
        ),
        label: z.optional(z.nullable(label())),
        on_source_delete: z.optional(onSourceDelete()),
        reconcile_every_hours: z.optional(reconcileEveryHours()),
      },
      {
        error:
          'the body must be an object {schedule?, paused?, label?, on_source_delete?, reconcile_every_hours?}',
      },
    )
    .check(
      z.refine(
        (patch) => Object.keys(patch).length > 0,
        'must change at least one of schedule, paused, label, on_source_delete, reconcile_every_hours',
      ),
    )
    .clone()
    .register(z.globalRegistry, { minProperties: 1 }),
);

/** POST .../runs: no body (a run of the changes), or {mode}. */
export const startRunBody = lazy(() =>
  z.optional(
    z.strictObject(
      {
        mode: z.optional(
          z
            .enum(['changes', 'full'], { error: 'mode must be changes or full' })
            .check(
              z.describe(
                "changes (default): what changed since the link's last pass; full: a reconcile, every file of the source again, and the link's documents the source no longer holds (deleted, moved out) marked deleted, without new document ids",
              ),
            ),
        ),
      },
      { error: 'the body must be an object {mode?}' },
    ),
  ),
);

/** A link's documents: a page of the list, or with changed_since its change feed. */
export const linkDocumentsQuery = lazy(() =>
  z.extend(cursorPaginationQuery(), {
    changed_since: z
      .optional(
        z
          .string({ error: 'changed_since must be a string' })
          .check(z.minLength(1, 'changed_since must not be empty'))
          .check(z.maxLength(4096, 'changed_since must be at most 4096 characters'))
          .check(
            z.regex(/^[\x21-\x7e]+$/, 'changed_since must be an ISO 8601 time or a next_cursor of the feed'),
          ),
      )
      .check(
        z.describe(
          "The change feed: documents changed (imported, updated, deleted at the provider) after this point, oldest change first. An ISO 8601 time to start from, then each page's next_cursor (never null in the feed: keep it to ask again later; has_more says whether more is ready now). Not with cursor or offset",
        ),
      ),
  }),
);

export const createExportBody = lazy(() =>
  z.strictObject({
    vault_id: vaultId(),
    document_ids: z
      .array(documentId())
      .check(z.minLength(1, 'document_ids must name at least one document'))
      .check(
        z.maxLength(MAX_EXPORT_DOCUMENTS, `document_ids may name at most ${MAX_EXPORT_DOCUMENTS} documents`),
      ),
    destination: z.strictObject({ id: providerId() }, { error: 'destination must be an object {id}' }),
    conflict: z.optional(
      z
        .enum(CONFLICT_POLICIES, { error: `conflict must be one of ${CONFLICT_POLICIES.join(', ')}` })
        .check(
          z.describe(
            'A name already taken at the destination: rename (default; "name (2).ext"), skip, fail, or replace (only a file this service exported; any other is refused per document)',
          ),
        ),
    ),
  }),
);
