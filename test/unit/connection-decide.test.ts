// The connection state machine on plain values: every command from every status, what it sets and
// removes, the version and status it must be written over, its sweep entry and its events.
import type { ConnectionRecord, ConnectionStatus } from '../../functions/connectors/domain/connection';
import { CONNECTION_STATUSES } from '../../functions/connectors/domain/connection';
import type { ConnectionCommand, Decision } from '../../functions/connectors/domain/connection-decide';
import {
  AFTER_REFRESH,
  APPLIES_FROM,
  decide,
  decideTokenEntry,
} from '../../functions/connectors/domain/connection-decide';
import { outboxAttributes, outboxEvent } from '../../functions/events';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const NOW = T0 + 3600_000;
const MIN = 60_000;
const account = { external_id: 'acct-1', email: 'a@example.com', display_name: 'A' };

const connection = (status: ConnectionStatus, extra: Partial<ConnectionRecord> = {}): ConnectionRecord => ({
  id: 'conn_aaaaaaaaaaaaaaaaaaaa',
  organizationId: 'org_aaaaaaaaaaaaaaaaaaaa',
  provider: 'practice',
  status,
  scopeTier: 'standard',
  returnUrl: 'https://app.example.com/',
  createdAt: T0,
  updatedAt: T0,
  version: 7,
  ...extra,
});

const throttled = (endsAt: number, extra: Partial<ConnectionRecord> = {}) =>
  connection('throttled', { throttleEndsAt: endsAt, previousStatus: 'healthy', throttleCount: 2, ...extra });

const COMMANDS: ConnectionCommand[] = [
  { kind: 'connect', account },
  { kind: 'reconnect', account },
  { kind: 'supersede', by: 'conn_bbbbbbbbbbbbbbbbbbbb' },
  { kind: 'refresh_succeeded' },
  { kind: 'lapse' },
  { kind: 'throttle', retryAfterSeconds: 120 },
  { kind: 'end_throttle' },
  { kind: 'revoke', purge: true },
];

describe('which statuses each command applies from', () => {
  const cases = COMMANDS.flatMap((command) =>
    CONNECTION_STATUSES.map((status) => [command.kind, status, command] as const),
  );
  it.each(cases)('%s from %s: refused exactly when the table says so', (kind, status, command) => {
    const state = status === 'throttled' ? throttled(NOW - 1) : connection(status);
    const decision = decide(state, command, NOW);
    expect(decision.outcome === 'refused').toBe(!APPLIES_FROM[kind].includes(status));
  });
});

type Row = [string, ConnectionRecord, ConnectionCommand, Decision];
const expectOver = (status: ConnectionStatus, version = 7) => ({ version, status });

const rows: Row[] = [
  [
    'connect: a pending connection becomes healthy with its account',
    connection('pending'),
    { kind: 'connect', account },
    {
      outcome: 'change',
      set: { status: 'healthy', account, updatedAt: NOW },
      remove: ['throttleEndsAt', 'previousStatus', 'throttleCount'],
      expect: expectOver('pending'),
      events: [],
      due: undefined,
    },
  ],
  [
    'connect: a connection no longer pending refuses (the flow is inactive)',
    connection('revoked'),
    { kind: 'connect', account },
    { outcome: 'refused', reason: 'not_pending' },
  ],
  [
    'reconnect: a reauth_required connection is healthy again',
    connection('reauth_required'),
    { kind: 'reconnect', account },
    {
      outcome: 'change',
      set: { status: 'healthy', account, updatedAt: NOW },
      remove: ['throttleEndsAt', 'previousStatus', 'throttleCount'],
      expect: expectOver('reauth_required'),
      events: [],
      due: undefined,
    },
  ],
  [
    'reconnect: a throttled connection is healthy again and leaves the sweep',
    throttled(NOW + MIN),
    { kind: 'reconnect', account },
    {
      outcome: 'change',
      set: { status: 'healthy', account, updatedAt: NOW },
      remove: ['throttleEndsAt', 'previousStatus', 'throttleCount'],
      expect: expectOver('throttled'),
      events: [],
      due: 'drop',
    },
  ],
  [
    'reconnect: a revoked connection holds no grant to replace',
    connection('revoked'),
    { kind: 'reconnect', account },
    { outcome: 'refused', reason: 'not_active' },
  ],
  [
    'supersede: a pending connection folded into another is revoked, with no event',
    connection('pending'),
    { kind: 'supersede', by: 'conn_bbbbbbbbbbbbbbbbbbbb' },
    {
      outcome: 'change',
      set: { status: 'revoked', supersededBy: 'conn_bbbbbbbbbbbbbbbbbbbb', revokedAt: NOW, updatedAt: NOW },
      remove: [],
      expect: expectOver('pending'),
      events: [],
    },
  ],
  [
    'refresh_succeeded: the throttle count starts over',
    connection('healthy', { throttleCount: 3 }),
    { kind: 'refresh_succeeded' },
    { outcome: 'change', set: {}, remove: ['throttleCount'], expect: expectOver('healthy'), events: [] },
  ],
  [
    'refresh_succeeded: nothing to write without a throttle count',
    connection('healthy'),
    { kind: 'refresh_succeeded' },
    { outcome: 'unchanged' },
  ],
  [
    'lapse: healthy becomes reauth_required, emits its event and asks the sweep to check the outbox',
    connection('healthy'),
    { kind: 'lapse' },
    {
      outcome: 'change',
      set: { status: 'reauth_required', updatedAt: NOW },
      remove: ['throttleEndsAt', 'previousStatus'],
      expect: expectOver('healthy'),
      events: [
        {
          type: 'connection.reauth_required',
          data: {
            connectionId: 'conn_aaaaaaaaaaaaaaaaaaaa',
            provider: 'practice',
            status: 'reauth_required',
            previousStatus: 'healthy',
          },
        },
      ],
      due: NOW,
    },
  ],
  [
    'lapse: a throttled connection lapses too, and says it was throttled',
    throttled(NOW + MIN),
    { kind: 'lapse' },
    {
      outcome: 'change',
      set: { status: 'reauth_required', updatedAt: NOW },
      remove: ['throttleEndsAt', 'previousStatus'],
      expect: expectOver('throttled'),
      events: [
        {
          type: 'connection.reauth_required',
          data: {
            connectionId: 'conn_aaaaaaaaaaaaaaaaaaaa',
            provider: 'practice',
            status: 'reauth_required',
            previousStatus: 'throttled',
          },
        },
      ],
      due: NOW,
    },
  ],
  [
    'lapse: an already reauth_required connection is not lapsed twice (one event)',
    connection('reauth_required'),
    { kind: 'lapse' },
    { outcome: 'refused', reason: 'not_live' },
  ],
  [
    'throttle: healthy becomes throttled until Retry-After, due then',
    connection('healthy'),
    { kind: 'throttle', retryAfterSeconds: 120 },
    {
      outcome: 'change',
      set: {
        status: 'throttled',
        throttleEndsAt: NOW + 120_000,
        previousStatus: 'healthy',
        throttleCount: 1,
        updatedAt: NOW,
      },
      remove: [],
      expect: expectOver('healthy'),
      events: [],
      due: NOW + 120_000,
    },
  ],
  [
    'throttle: a throttle is extended, never shortened, and keeps when it began',
    throttled(NOW + 10 * MIN, { updatedAt: T0 + MIN }),
    { kind: 'throttle', retryAfterSeconds: 60 },
    {
      outcome: 'change',
      set: {
        status: 'throttled',
        throttleEndsAt: NOW + 10 * MIN,
        previousStatus: 'healthy',
        throttleCount: 3,
        updatedAt: T0 + MIN,
      },
      remove: [],
      expect: expectOver('throttled'),
      events: [],
      due: NOW + 10 * MIN,
    },
  ],
  [
    'throttle: a pending connection makes no provider calls',
    connection('pending'),
    { kind: 'throttle' },
    { outcome: 'refused', reason: 'not_live' },
  ],
  [
    'end_throttle: a window not over yet is refused',
    throttled(NOW + 1),
    { kind: 'end_throttle' },
    { outcome: 'refused', reason: 'throttle_not_over' },
  ],
  [
    'end_throttle: back to the status it replaced, out of the sweep',
    throttled(NOW),
    { kind: 'end_throttle' },
    {
      outcome: 'change',
      set: { status: 'healthy', updatedAt: NOW },
      remove: ['throttleEndsAt', 'previousStatus'],
      expect: expectOver('throttled'),
      events: [],
      due: 'drop',
    },
  ],
  [
    'end_throttle: a connection no longer throttled only loses the stale fields and entry',
    connection('healthy', { throttleEndsAt: T0 }),
    { kind: 'end_throttle' },
    {
      outcome: 'change',
      set: {},
      remove: ['throttleEndsAt', 'previousStatus'],
      expect: expectOver('healthy'),
      events: [],
      due: 'drop',
    },
  ],
  [
    'revoke: any live status becomes revoked with connection.revoked carrying purge',
    throttled(NOW + MIN, { version: undefined }),
    { kind: 'revoke', purge: true },
    {
      outcome: 'change',
      set: { status: 'revoked', revokedAt: NOW, updatedAt: NOW },
      remove: ['throttleEndsAt', 'previousStatus'],
      expect: expectOver('throttled', 0),
      events: [
        {
          type: 'connection.revoked',
          data: {
            connectionId: 'conn_aaaaaaaaaaaaaaaaaaaa',
            provider: 'practice',
            status: 'revoked',
            purge: true,
          },
        },
      ],
      due: NOW,
    },
  ],
  [
    'revoke: a repeat is refused (the first one emitted the event)',
    connection('revoked'),
    { kind: 'revoke', purge: false },
    { outcome: 'refused', reason: 'already_revoked' },
  ],
];

describe('decide', () => {
  it.each(rows)('%s', (_name, state, command, expected) => {
    expect(decide(state, command, NOW)).toEqual(expected);
  });

  it('keeps a connection in the sweep while its outbox holds events, whatever drops the entry', () => {
    const event = outboxEvent(
      {
        organizationId: 'org_aaaaaaaaaaaaaaaaaaaa',
        type: 'connection.revoked',
        data: {
          connectionId: 'conn_aaaaaaaaaaaaaaaaaaaa',
          provider: 'practice',
          status: 'revoked',
          purge: false,
        },
      },
      T0,
    );
    const withOutbox = { ...connection('revoked', { throttleEndsAt: T0 }), ...outboxAttributes([event]) };
    expect(decide(withOutbox, { kind: 'end_throttle' }, NOW)).toMatchObject({ outcome: 'change', due: NOW });
    expect(decide(connection('revoked'), { kind: 'end_throttle' }, NOW)).toMatchObject({ due: 'drop' });
  });

  it('emits only events the catalog knows, with the data its schema wants', () => {
    for (const command of COMMANDS) {
      for (const status of CONNECTION_STATUSES) {
        const decision = decide(status === 'throttled' ? throttled(NOW) : connection(status), command, NOW);
        if (decision.outcome !== 'change') continue;
        for (const draft of decision.events) {
          expect(() =>
            outboxEvent({ organizationId: 'org_aaaaaaaaaaaaaaaaaaaa', ...draft }, NOW),
          ).not.toThrow();
        }
      }
    }
  });
});

describe('what a refresh outcome means to its callers', () => {
  it.each([
    ['fresh', 'use', 'provider_unavailable', 'not_due'],
    ['refreshed', 'use', 'retry', 'refreshed'],
    ['refreshed_elsewhere', 'use', 'retry', 'refreshed_elsewhere'],
    ['busy', 'use_or_wait', 'refresh_in_progress', 'busy'],
    ['lapsed', 'reauth_required', 'reauth_required', 'lapsed'],
    ['throttled', 'throttled', 'throttled', 'throttled'],
    ['failed', 'use_or_unavailable', 'provider_unavailable', 'failed'],
    ['gone', 'revoked', 'revoked', 'cleaned'],
  ] as const)(
    '%s: on use %s, after a refused token %s, to the sweep %s',
    (outcome, onUse, afterRefusal, sweep) => {
      const entry = { fresh: 'access_expiry', throttled: 'throttle_end' }[outcome as string];
      expect(AFTER_REFRESH[outcome]).toEqual({ onUse, afterRefusal, sweep, ...(entry ? { entry } : {}) });
    },
  );
});

describe("what the sweep does with a tokens item's due entry", () => {
  const T0 = Date.parse('2026-01-01T00:00:00Z');
  const at = (status: ConnectionStatus, throttleEndsAt?: number) => ({ status, throttleEndsAt });

  it('leaves an entry that moved since the index was read, whatever the connection', () => {
    for (const status of [...CONNECTION_STATUSES, undefined]) {
      expect(decideTokenEntry(status && at(status), T0 + 1, T0)).toEqual({ then: 'not_due' });
    }
  });

  it.each([
    ['gone', undefined, { then: 'drop', flush: false }],
    ['pending', at('pending'), { then: 'drop', flush: false }],
    ['revoked', at('revoked'), { then: 'drop', flush: false }],
    ['reauth_required', at('reauth_required'), { then: 'drop', flush: true }],
    ['throttled, window open', at('throttled', T0 + 5_000), { then: 'defer', until: T0 + 5_000 }],
    ['throttled, window over', at('throttled', T0), { then: 'refresh', endThrottle: true }],
    ['healthy', at('healthy'), { then: 'refresh', endThrottle: false }],
  ] as const)('a due entry of a connection %s', (_name, connection, step) => {
    expect(decideTokenEntry(connection, T0, T0)).toEqual(step);
  });
});
