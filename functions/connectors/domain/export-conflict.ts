// What an export does when the name it wants at the destination is taken, without I/O (unit-tested on
// values). The rule the export keeps: it never replaces a file this service did not create. Whether a
// file is ours comes from the export ledger: the provider id and version our upload got back, so a
// file the user edited (or put in place of ours) after the export counts as theirs.

/** The `conflict` of an export request; `rename` when not given. */
export const CONFLICT_POLICIES = ['rename', 'skip', 'fail', 'replace'] as const;
export type ConflictPolicy = (typeof CONFLICT_POLICIES)[number];
export const DEFAULT_CONFLICT_POLICY: ConflictPolicy = 'rename';

/** Who holds the name at the destination now. */
export type NameHolder =
  /** No file has the name. */
  | 'free'
  /** This document's own earlier export, unchanged since: its next version is no conflict. */
  | 'own'
  /** A file this service exported for another document, unchanged since. */
  | 'ours'
  /** A file this service did not create, or one changed since we exported it. */
  | 'theirs'
  /**
   * A file the ledger does not know as exported, at a name this document took for an upload that
   * never recorded its result (a crash mid-upload): the upload again, create-only, is answered by the
   * provider's idempotency with that file if it was ours; refused, the file is theirs.
   */
  | 'claimed';

export type ConflictAction =
  | { action: 'upload' }
  /** A new version of the file holding the name (ours). */
  | { action: 'replace' }
  /** Try the next name (`name (2).ext`, `name (3).ext`, ...). */
  | { action: 'rename' }
  | { action: 'skip' }
  | { action: 'fail'; reason: 'name_conflict' | 'not_ours' };

/**
 * @param replaces whether the provider can put a new version into an existing file (Clio keeps every
 *   upload a document of its own: there, our own file holding the name is a conflict like any other).
 */
export function decideConflict(
  policy: ConflictPolicy,
  holder: NameHolder,
  replaces: boolean,
): ConflictAction {
  if (holder === 'free' || holder === 'claimed') return { action: 'upload' };
  if (holder === 'own' && replaces) return { action: 'replace' };
  if (policy === 'replace') {
    if (holder === 'theirs') return { action: 'fail', reason: 'not_ours' };
    return replaces ? { action: 'replace' } : { action: 'fail', reason: 'name_conflict' };
  }
  if (policy === 'skip') return { action: 'skip' };
  if (policy === 'fail') return { action: 'fail', reason: 'name_conflict' };
  return { action: 'rename' };
}

/** How many names `rename` tries (the document's, then `(2)` ... ) before it fails name_conflict. */
export const MAX_RENAMES = 50;

/** `Report.pdf` -> `Report (2).pdf`; a name without an extension (or a dotfile) gets the number at the end. */
export function numberedName(name: string, n: number): string {
  if (n <= 1) return name;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

/**
 * Why a document was not exported (the export view lists them): document_not_found, too_large (over
 * 1 GiB); invalid_name (empty, `.`, `..`, `/`, NUL, CR/LF, or too long for the provider); name_conflict
 * (`fail` met a taken name, or `rename` ran out of names); not_ours (`replace` met a file this service
 * did not create, or one changed since: refused); provider_refused (a 4xx for this document alone).
 */
export const EXPORT_FAILURE_REASONS = [
  'document_not_found',
  'too_large',
  'invalid_name',
  'name_conflict',
  'not_ours',
  'provider_refused',
] as const;
export type ExportFailureReason = (typeof EXPORT_FAILURE_REASONS)[number];

/**
 * A provider answer refusing one document's upload, not the export: a 4xx other than a refused token
 * (401), a missing permission (403), a missing destination (404), a timeout (408) or throttling (429).
 */
export const refusesDocument = (status: number | undefined): boolean =>
  status !== undefined && status >= 400 && status < 500 && ![401, 403, 404, 408, 429].includes(status);
