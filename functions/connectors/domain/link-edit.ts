// What an edit of an import link (PATCH /connectors/v1/links/{id}) changes, without I/O: its schedule,
// whether it is paused, its label. The link keeps its id, ledger and cursor, so no document is minted
// again. Unit-tested on values.

/** The fields of a link an edit reads. */
export interface EditableLink {
  schedule?: { everyMinutes: number };
  /** While scheduled and not paused: when the sweep starts the next run (epoch ms). */
  nextRunAt?: number;
  /** Paused since (epoch ms): no scheduled runs, and runs are refused until resumed. */
  pausedAt?: number;
  label?: string;
  onSourceDelete?: 'remove';
}

/** A PATCH: each field optional; null removes the schedule or the label. */
export interface LinkEdit {
  schedule?: { everyMinutes: number } | null;
  paused?: boolean;
  label?: string | null;
  /** What a file deleted at the provider does to its document from now on. */
  onSourceDelete?: 'keep' | 'remove';
  /** How often a run reconciles (a full run), in hours. */
  reconcileEveryHours?: number;
}

export interface LinkChange {
  set: Record<string, unknown>;
  remove: string[];
}

/**
 * The change an edit makes at `now`. A link comes into the schedule due at once (as a new scheduled
 * link does) when it is scheduled for the first time or resumed; a new interval on a running schedule
 * brings the next run forward when it is shorter and never pushes it back. A paused or unscheduled link
 * has no next run, so the sweep never sees it (and records no skips for it).
 */
export function editLink(link: EditableLink, edit: LinkEdit, now: number): LinkChange {
  const set: Record<string, unknown> = { updatedAt: now };
  const remove: string[] = [];
  if (edit.label !== undefined) {
    if (edit.label === null) remove.push('label');
    else set.label = edit.label;
  }
  if (edit.onSourceDelete === 'remove') set.onSourceDelete = 'remove';
  if (edit.onSourceDelete === 'keep') remove.push('onSourceDelete');
  if (edit.reconcileEveryHours !== undefined) set.reconcileEveryHours = edit.reconcileEveryHours;
  if (edit.schedule !== undefined) {
    if (edit.schedule === null) remove.push('schedule');
    else set.schedule = { everyMinutes: edit.schedule.everyMinutes };
  }
  const paused = edit.paused ?? link.pausedAt !== undefined;
  if (edit.paused === true) set.pausedAt = link.pausedAt ?? now;
  if (edit.paused === false && link.pausedAt !== undefined) remove.push('pausedAt');

  const schedule = edit.schedule === undefined ? link.schedule : (edit.schedule ?? undefined);
  if (paused || !schedule) {
    if (link.nextRunAt !== undefined) remove.push('nextRunAt');
  } else if (link.pausedAt !== undefined || !link.schedule || link.nextRunAt === undefined) {
    set.nextRunAt = now; // resumed, or newly scheduled: due at once
  } else if (edit.schedule) {
    set.nextRunAt = Math.min(link.nextRunAt, now + schedule.everyMinutes * 60_000);
  }
  return { set, remove };
}
