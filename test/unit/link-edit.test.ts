import { editLink } from '../../functions/connectors/domain/link-edit';

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
  ])('%s', (_name, link, edit, expected) => {
    expect(editLink(link, edit, NOW)).toEqual({
      set: { updatedAt: NOW, ...expected.set },
      remove: expected.remove,
    });
  });
});
