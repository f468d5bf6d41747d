import { editLink } from '../../functions/connectors/domain/link-edit';
import { DEFAULT_RECONCILE_HOURS, reconcileDue } from '../../functions/connectors/domain/sync-policy';

const NOW = 1_000_000_000_000;
const MIN = 60_000;
const scheduled = { schedule: { everyMinutes: 60 }, nextRunAt: NOW + 30 * MIN };

describe('editLink', () => {
  it.each([
    [
      'a first schedule comes due at once',
      {},
      { schedule: { everyMinutes: 15 } },
      { set: { schedule: { everyMinutes: 15 }, nextRunAt: NOW }, remove: [] },
    ],
    [
      'a shorter interval brings the next run forward',
      scheduled,
      { schedule: { everyMinutes: 10 } },
      { set: { schedule: { everyMinutes: 10 }, nextRunAt: NOW + 10 * MIN }, remove: [] },
    ],
    [
      'a longer interval never pushes the next run back',
      scheduled,
      { schedule: { everyMinutes: 600 } },
      { set: { schedule: { everyMinutes: 600 }, nextRunAt: NOW + 30 * MIN }, remove: [] },
    ],
    [
      'removing the schedule takes the link out of the sweep',
      scheduled,
      { schedule: null },
      { set: {}, remove: ['schedule', 'nextRunAt'] },
    ],
    [
      'pausing takes the link out of the sweep and keeps its schedule',
      scheduled,
      { paused: true },
      { set: { pausedAt: NOW }, remove: ['nextRunAt'] },
    ],
    [
      'pausing again keeps when it was paused',
      { schedule: { everyMinutes: 60 }, pausedAt: NOW - MIN },
      { paused: true },
      { set: { pausedAt: NOW - MIN }, remove: [] },
    ],
    [
      'resuming a scheduled link makes it due at once',
      { schedule: { everyMinutes: 60 }, pausedAt: NOW - MIN },
      { paused: false },
      { set: { nextRunAt: NOW }, remove: ['pausedAt'] },
    ],
    [
      'resuming an unscheduled link only clears the pause',
      { pausedAt: NOW - MIN },
      { paused: false },
      { set: {}, remove: ['pausedAt'] },
    ],
    [
      'a schedule set while paused waits for the resume',
      { pausedAt: NOW - MIN },
      { schedule: { everyMinutes: 30 } },
      { set: { schedule: { everyMinutes: 30 } }, remove: [] },
    ],
    [
      'a label is set, and null removes it, without touching the schedule',
      scheduled,
      { label: 'Acme' },
      { set: { label: 'Acme' }, remove: [] },
    ],
    [
      'null removes the label',
      { ...scheduled, label: 'Acme' },
      { label: null },
      { set: {}, remove: ['label'] },
    ],
    [
      'a reconcile period is set without touching the schedule',
      scheduled,
      { reconcileEveryHours: 6 },
      { set: { reconcileEveryHours: 6 }, remove: [] },
    ],
  ])('%s', (_name, link, edit, expected) => {
    expect(editLink(link, edit, NOW)).toEqual({
      set: { updatedAt: NOW, ...expected.set },
      remove: expected.remove,
    });
  });
});

describe('reconcileDue', () => {
  const HOUR = 60 * MIN;
  it.each([
    ['a new link is not due within its first period', { createdAt: NOW }, NOW + 23 * HOUR, false],
    [
      'a link is due once the default period since it was made ran out',
      { createdAt: NOW },
      NOW + 24 * HOUR,
      true,
    ],
    [
      'the period runs from the last reconcile',
      { createdAt: NOW - 100 * HOUR, reconciledAt: NOW },
      NOW + HOUR,
      false,
    ],
    ['the link’s own period', { createdAt: NOW, reconcileEveryHours: 2 }, NOW + 2 * HOUR, true],
    [
      'just before the link’s own period ends',
      { createdAt: NOW, reconcileEveryHours: 2 },
      NOW + 2 * HOUR - 1,
      false,
    ],
  ])('%s', (_name, link, now, due) => {
    expect(reconcileDue(link, now)).toBe(due);
  });
  it('defaults to a day', () => expect(DEFAULT_RECONCILE_HOURS).toBe(24));
});
