// The refresh decisions (domain/connection-decide.ts) on plain values: what each answer of the
// provider writes, how a refresh ends where its commands stopped, and, property-based, that no
// sequence of refreshes interleaved with reconnects, disconnects, other refreshers and time passing
// leaves the tokens, their sweep entry or the connection in a state the lifecycle cannot recover from.
// The model below applies the commands with the repository's conditions (a write over a version takes
// only while that version is stored) and the connection's changes with decide() itself.
import * as fc from 'fast-check';
import type { ConnectionRecord } from '../../functions/connectors/domain/connection';
import type {
  RefreshAnswer,
  RefreshCommand,
  RefreshDecision,
  RefreshOutcomeKind,
  RefreshStop,
  TokenState,
} from '../../functions/connectors/domain/connection-decide';
import {
  decide,
  decideLapse,
  decideRefresh,
  decideTokenEntry,
  entryDueAfter,
  leaseLost,
  refreshEnded,
  refreshStart,
  versionMoved,
} from '../../functions/connectors/domain/connection-decide';
import { LEASE_MS, sweepDueAt, tokenFreshness } from '../../functions/connectors/domain/token-policy';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
/** The sweep's due time for tokens obtained at `obtainedAt` (a provider whose refresh tokens lapse unused after a day). */
const IDLE_MS = 24 * HOUR;
const tokensDueAt = (obtainedAt: number) => sweepDueAt(obtainedAt, IDLE_MS);

const tokens = (extra: Partial<TokenState> = {}): TokenState => ({
  tokenVersion: 3,
  tokenType: 'Bearer',
  scopes: ['files.read'],
  accessTokenExpiresAt: T0 + HOUR,
  obtainedAt: T0,
  ...extra,
});

const granted = (
  rotated: boolean,
  extra: Partial<RefreshAnswer & { kind: 'granted' }> = {},
): RefreshAnswer => ({
  kind: 'granted',
  tokenType: 'Bearer',
  lifetimeSeconds: 3600,
  rotated,
  ...extra,
});

describe('decideRefresh: what an answer writes', () => {
  const now = T0 + 2 * HOUR;

  it('writes the next version over the one refreshed, with the new or the kept refresh token', () => {
    for (const rotated of [true, false]) {
      expect(decideRefresh({}, tokens({ params: { region: 'eu' } }), granted(rotated), now)).toEqual({
        commands: [
          {
            kind: 'put_tokens',
            over: 3,
            next: {
              tokenVersion: 4,
              tokenType: 'Bearer',
              scopes: ['files.read'],
              accessTokenExpiresAt: now + HOUR,
              obtainedAt: now,
              params: { region: 'eu' },
            },
            refreshToken: rotated ? 'rotated' : 'kept',
          },
        ],
        outcome: 'refreshed',
      });
    }
  });

  it('takes the granted scopes when the provider names them, and resets a throttle backoff', () => {
    const decision = decideRefresh({ throttleCount: 2 }, tokens(), granted(true, { scopes: ['a'] }), now);
    expect(decision.commands).toEqual([
      expect.objectContaining({ kind: 'put_tokens', next: expect.objectContaining({ scopes: ['a'] }) }),
      { kind: 'connection', command: { kind: 'refresh_succeeded' } },
    ]);
  });

  it('lapses a grant the provider says is gone, unless a newer version was stored first', () => {
    const lapse = {
      commands: [
        { kind: 'check_version', version: 3 },
        { kind: 'connection', command: { kind: 'lapse' } },
        { kind: 'drop_entry', version: 3 },
      ],
      outcome: 'lapsed',
    };
    expect(decideRefresh({}, tokens(), { kind: 'lapsed', oauthError: 'invalid_grant' }, now)).toEqual(lapse);
    // Nothing to refresh with: lapsed once the access token ends, fresh until then.
    expect(decideRefresh({}, tokens(), { kind: 'no_refresh_token' }, now)).toEqual(lapse);
    expect(decideRefresh({}, tokens(), { kind: 'no_refresh_token' }, T0 + 30 * MIN)).toEqual({
      commands: [],
      outcome: 'fresh',
    });
  });

  it('throttles on a rate limit and writes nothing on a transient or fatal failure', () => {
    expect(decideRefresh({}, tokens(), { kind: 'throttled', retryAfterSeconds: 30 }, now)).toEqual({
      commands: [{ kind: 'connection', command: { kind: 'throttle', retryAfterSeconds: 30 } }],
      outcome: 'throttled',
    });
    for (const kind of ['transient', 'fatal'] as const) {
      expect(decideRefresh({}, tokens(), { kind }, now)).toEqual({
        commands: [],
        outcome: 'failed',
        failure: kind,
      });
    }
  });

  it('refreshes on use only when due (or expired, as asked), and always for the sweep, under a lease', () => {
    const t = tokens();
    const then = (when: 'due' | 'expired' | 'always', at: number) => refreshStart(t, when, at).then;
    expect(then('due', T0 + 10 * MIN)).toBe('fresh');
    expect(then('due', T0 + 51 * MIN)).toBe('refresh');
    expect(then('expired', T0 + 51 * MIN)).toBe('fresh');
    expect(then('expired', T0 + 59 * MIN)).toBe('refresh');
    expect(refreshStart(t, 'always', T0)).toEqual({
      then: 'refresh',
      lease: { kind: 'take_lease', version: 3, at: T0, ms: LEASE_MS },
    });
  });
});

describe('refreshEnded: how a refresh ends where its commands stopped', () => {
  const refreshed: RefreshDecision = decideRefresh({ throttleCount: 1 }, tokens(), granted(true), T0);
  const lapsed = decideLapse(3);
  const throttled = decideRefresh({}, tokens(), { kind: 'throttled' }, T0);

  it.each<[string, RefreshDecision, RefreshStop | undefined, ReturnType<typeof refreshEnded>]>([
    ['a stored refresh', refreshed, undefined, { outcome: 'refreshed' }],
    [
      'a refresh whose count reset did not take',
      refreshed,
      { at: 'connection', result: 'gone' },
      { outcome: 'refreshed' },
    ],
    [
      'a refresh another writer beat',
      refreshed,
      { at: 'tokens', stored: 4 },
      { outcome: 'refreshed_elsewhere' },
    ],
    [
      'a refresh of tokens deleted meanwhile',
      refreshed,
      { at: 'tokens', stored: undefined },
      { outcome: 'gone' },
    ],
    ['a lapse', lapsed, undefined, { outcome: 'lapsed' }],
    [
      'a lapse of a grant reconnected meanwhile',
      lapsed,
      { at: 'tokens', stored: 5 },
      { outcome: 'refreshed_elsewhere' },
    ],
    ['a lapse someone else decided', lapsed, { at: 'connection', result: 'refused' }, { outcome: 'lapsed' }],
    ['a lapse of a connection gone', lapsed, { at: 'connection', result: 'gone' }, { outcome: 'gone' }],
    ['a throttle', throttled, undefined, { outcome: 'throttled' }],
    [
      'a throttle refused',
      throttled,
      { at: 'connection', result: 'refused' },
      { outcome: 'failed', failure: 'transient' },
    ],
  ])('%s', (_name, decision, stop, ended) => {
    expect(refreshEnded(decision, stop)).toEqual(ended);
  });

  it('reads a lost lease, and a version check, against what is stored', () => {
    expect([leaseLost(3, undefined), leaseLost(3, 4), leaseLost(3, 3)]).toEqual([
      'gone',
      'refreshed_elsewhere',
      'busy',
    ]);
    expect(refreshEnded(refreshed, { at: 'lease', version: 3, stored: 3 })).toEqual({ outcome: 'busy' });
    expect([versionMoved(3, undefined), versionMoved(3, 4), versionMoved(3, 3)]).toEqual([true, true, false]);
  });

  it("moves the sweep's entry to a throttle's end, or to a grant's expiry with nothing to refresh it", () => {
    const at = { throttleEndsAt: T0 + 5 * MIN, accessTokenExpiresAt: T0 + HOUR };
    const outcomes: RefreshOutcomeKind[] = [
      'fresh',
      'refreshed',
      'refreshed_elsewhere',
      'busy',
      'lapsed',
      'throttled',
      'failed',
      'gone',
    ];
    expect(outcomes.map((o) => [o, entryDueAfter(o, at)])).toEqual([
      ['fresh', T0 + HOUR],
      ['refreshed', undefined],
      ['refreshed_elsewhere', undefined],
      ['busy', undefined],
      ['lapsed', undefined],
      ['throttled', T0 + 5 * MIN],
      ['failed', undefined],
      ['gone', undefined],
    ]);
  });
});

// ---- the model: a connection, its tokens item (with the secret's refresh token) and the provider ----

interface StoredTokens extends TokenState {
  /** The sealed secret's refresh token (undefined: the grant has none). */
  refreshToken?: string;
  /** The sweep entry's due time; undefined: no entry. */
  due?: number;
  /** The refresh lease: who holds it, until when. */
  lease?: { owner: string; until: number };
}

interface Model {
  now: number;
  connection: ConnectionRecord;
  tokens?: StoredTokens;
  /** The provider's side: for each grant's refresh token lineage, the one it accepts now. */
  providerCurrent: Map<string, string>;
  /** Which lineage a refresh token belongs to. */
  lineage: Map<string, string>;
  issued: number;
  /** Every throttle end the connection has had: times the sweep may have deferred the entry to. */
  throttleEnds: Set<number>;
  refreshers: number;
}

/** What happens between a refresher taking the lease and applying its decision. */
type Interloper = 'none' | 'reconnect' | 'disconnect' | 'holds_lease';

type Step =
  | { kind: 'advance'; ms: number }
  /** The user reconnects: a new grant, over whatever version is stored. */
  | { kind: 'reconnect' }
  | { kind: 'refresh'; mode: 'on_use' | 'sweep'; answer: ProviderAnswer; interloper: Interloper };

/** What the provider answers (a granted answer's refresh token is issued by the model). */
type ProviderAnswer =
  | { kind: 'granted'; rotated: boolean; lifetimeSeconds: number }
  | { kind: 'lapsed' }
  | { kind: 'throttled'; retryAfterSeconds?: number }
  | { kind: 'transient' }
  | { kind: 'fatal' };

function start(withRefreshToken: boolean): Model {
  const model: Model = {
    now: T0,
    connection: {
      id: 'conn_aaaaaaaaaaaaaaaaaaaa',
      organizationId: 'org_aaaaaaaaaaaaaaaaaaaa',
      provider: 'practice',
      status: 'healthy',
      scopeTier: 'standard',
      returnUrl: 'https://app.example.com/',
      createdAt: T0,
      updatedAt: T0,
      version: 1,
    },
    providerCurrent: new Map(),
    lineage: new Map(),
    issued: 0,
    throttleEnds: new Set(),
    refreshers: 0,
  };
  model.tokens = grant(model, 1, withRefreshToken);
  return model;
}

/** A new grant (a consent): its own refresh-token lineage at the provider. */
function grant(model: Model, version: number, withRefreshToken: boolean): StoredTokens {
  const rt = withRefreshToken ? issue(model, `grant-${++model.issued}`) : undefined;
  return {
    tokenVersion: version,
    tokenType: 'Bearer',
    scopes: ['files.read'],
    accessTokenExpiresAt: model.now + HOUR,
    obtainedAt: model.now,
    refreshToken: rt,
    due: tokensDueAt(model.now),
  };
}

function issue(model: Model, lineage: string): string {
  const rt = `rt-${++model.issued}`;
  model.providerCurrent.set(lineage, rt);
  model.lineage.set(rt, lineage);
  return rt;
}

/** decide() applied as the repository writes it: set, remove, version + 1. */
function change(model: Model, command: Parameters<typeof decide>[1]): 'changed' | 'refused' | 'unchanged' {
  const decision = decide(model.connection, command, model.now);
  if (decision.outcome !== 'change') return decision.outcome;
  const next = { ...model.connection, ...decision.set, version: (model.connection.version ?? 0) + 1 };
  for (const attribute of decision.remove) delete (next as Partial<ConnectionRecord>)[attribute];
  model.connection = next as ConnectionRecord;
  if (model.connection.throttleEndsAt !== undefined) model.throttleEnds.add(model.connection.throttleEndsAt);
  return 'changed';
}

/** What a refresher's commands carry besides what they say. */
interface Refresher {
  owner?: string;
  /** A rotated refresh token the provider just issued. */
  newRefreshToken?: string;
  /** The refresh token the refresher read (kept when the provider does not rotate). */
  refreshedWith?: string;
}

/** Applies commands in order with the repository's conditions; the first that does not take stops the rest. */
function apply(
  model: Model,
  commands: readonly RefreshCommand[],
  refresher: Refresher = {},
): RefreshStop | undefined {
  for (const command of commands) {
    const stored = model.tokens;
    switch (command.kind) {
      case 'take_lease':
        if (stored?.tokenVersion !== command.version || (stored.lease && stored.lease.until > command.at)) {
          return { at: 'lease', version: command.version, stored: stored?.tokenVersion };
        }
        model.tokens = { ...stored, lease: { owner: refresher.owner!, until: command.at + command.ms } };
        break;
      case 'release_lease':
        if (stored?.lease?.owner === refresher.owner) model.tokens = { ...stored!, lease: undefined };
        break;
      case 'put_tokens':
        // The write replaces the item: any lease ends with it.
        if (stored?.tokenVersion !== command.over) return { at: 'tokens', stored: stored?.tokenVersion };
        model.tokens = {
          ...command.next,
          refreshToken:
            command.refreshToken === 'rotated' ? refresher.newRefreshToken : refresher.refreshedWith,
          due: tokensDueAt(command.next.obtainedAt),
        };
        break;
      case 'check_version':
        if (versionMoved(command.version, stored?.tokenVersion))
          return { at: 'tokens', stored: stored?.tokenVersion };
        break;
      case 'connection': {
        const result = change(model, command.command);
        if (result !== 'changed') return { at: 'connection', result };
        break;
      }
      case 'drop_entry':
        if (stored?.tokenVersion === command.version) model.tokens = { ...stored, due: undefined };
        break;
      case 'defer_entry':
        if (stored?.tokenVersion === command.version) model.tokens = { ...stored, due: command.dueAt };
        break;
    }
  }
  return undefined;
}

const interfere = (model: Model, interloper: Interloper): void => {
  if (
    interloper === 'reconnect' &&
    change(model, { kind: 'reconnect', account: { external_id: 'a' } as never }) === 'changed'
  ) {
    model.tokens = grant(model, (model.tokens?.tokenVersion ?? 0) + 1, true);
  }
  if (interloper === 'disconnect') {
    model.tokens = undefined;
    change(model, { kind: 'revoke', purge: false });
  }
};

interface Ran {
  ended?: ReturnType<typeof refreshEnded> | { outcome: RefreshOutcomeKind };
  version?: number;
}

/** One refresher, as the lifecycle runs it on use or from the sweep, against the model. */
function refresh(model: Model, step: Step & { kind: 'refresh' }): Ran {
  const read = model.tokens;
  if (!read) return {};
  if (step.mode === 'sweep') {
    if (read.due === undefined) return {};
    const entry = decideTokenEntry(model.connection, read.due, model.now);
    if (entry.then === 'not_due') return {};
    if (entry.then === 'drop') {
      apply(model, [{ kind: 'drop_entry', version: read.tokenVersion }]);
      return {};
    }
    if (entry.then === 'defer') {
      apply(model, [{ kind: 'defer_entry', version: read.tokenVersion, dueAt: entry.until }]);
      return {};
    }
    if (entry.endThrottle) change(model, { kind: 'end_throttle' });
    if (model.connection.status !== 'healthy') return {};
  } else {
    if (model.connection.status === 'throttled') change(model, { kind: 'end_throttle' });
    if (model.connection.status !== 'healthy') return {};
  }
  const start = refreshStart(read, step.mode === 'sweep' ? 'always' : 'due', model.now);
  if (start.then === 'fresh') return {};
  if (step.interloper === 'holds_lease') {
    // Another refresher took the lease on this version first (and is still at the provider).
    model.tokens = { ...read, lease: { owner: 'another', until: model.now + start.lease.ms } };
  }
  const owner = `refresher-${++model.refreshers}`;
  const leased = apply(model, [start.lease], { owner });
  if (leased?.at === 'lease') return { ended: { outcome: leaseLost(leased.version, leased.stored) } };
  const connectionAtLease = model.connection;
  interfere(model, step.interloper);
  let answer: RefreshAnswer;
  let newRefreshToken: string | undefined;
  const lineage = read.refreshToken === undefined ? undefined : model.lineage.get(read.refreshToken);
  if (!read.refreshToken) answer = { kind: 'no_refresh_token' };
  else if (model.providerCurrent.get(lineage!) !== read.refreshToken) {
    // A spent refresh token: the provider says the grant is gone.
    answer = { kind: 'lapsed', oauthError: 'invalid_grant' };
  } else if (step.answer.kind === 'granted') {
    if (step.answer.rotated) newRefreshToken = issue(model, lineage!);
    answer = {
      kind: 'granted',
      tokenType: 'Bearer',
      lifetimeSeconds: step.answer.lifetimeSeconds,
      rotated: step.answer.rotated,
    };
  } else if (step.answer.kind === 'lapsed') {
    model.providerCurrent.delete(lineage!);
    answer = { kind: 'lapsed', oauthError: 'invalid_grant' };
  } else answer = step.answer;
  const decision = decideRefresh(connectionAtLease, read, answer, model.now);
  const stop = apply(model, decision.commands, { owner, newRefreshToken, refreshedWith: read.refreshToken });
  apply(model, [{ kind: 'release_lease' }], { owner });
  const ended = refreshEnded(decision, stop);
  if (step.mode === 'sweep') {
    const dueAt = entryDueAfter(ended.outcome, {
      throttleEndsAt: model.connection.throttleEndsAt,
      accessTokenExpiresAt: read.accessTokenExpiresAt,
    });
    if (dueAt !== undefined) apply(model, [{ kind: 'defer_entry', version: read.tokenVersion, dueAt }]);
  }
  return { ended, version: read.tokenVersion };
}

const providerAnswer: fc.Arbitrary<ProviderAnswer> = fc.oneof(
  fc.record({
    kind: fc.constant('granted' as const),
    rotated: fc.boolean(),
    lifetimeSeconds: fc.integer({ min: 60, max: 7200 }),
  }),
  fc.constant({ kind: 'lapsed' as const }),
  fc.record({
    kind: fc.constant('throttled' as const),
    retryAfterSeconds: fc.option(fc.integer({ min: 0, max: 7200 }), { nil: undefined }),
  }),
  fc.constant({ kind: 'transient' as const }),
  fc.constant({ kind: 'fatal' as const }),
);

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.integer({ min: 1, max: 30 * HOUR }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'reconnect' as const }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('refresh' as const),
      mode: fc.constantFrom('on_use' as const, 'sweep' as const),
      answer: providerAnswer,
      interloper: fc.constantFrom<Interloper>(
        'none',
        'none',
        'none',
        'reconnect',
        'disconnect',
        'holds_lease',
      ),
    }),
  },
);

describe('a sequence of refreshes (property-based)', () => {
  it('never loses a rotated refresh token, never leaves a healthy connection without a way to a valid token, and keeps the sweep entry on the stored tokens', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(step, { minLength: 1, maxLength: 40 }),
        (withRefreshToken, steps) => {
          const model = start(withRefreshToken);
          for (const s of steps) {
            const versionBefore = model.tokens?.tokenVersion ?? 0;
            if (s.kind === 'advance') {
              model.now += s.ms;
              continue;
            }
            if (s.kind === 'reconnect') {
              interfere(model, 'reconnect');
              continue;
            }
            const { ended, version } = refresh(model, s);
            const { connection, tokens: stored, now } = model;
            // A refresher never leaves its lease behind (only the one still at the provider holds one).
            expect([undefined, 'another']).toContain(stored?.lease?.owner);
            // Versions only move forward (a disconnect deletes the item).
            if (stored) expect(stored.tokenVersion).toBeGreaterThanOrEqual(versionBefore);

            // The refresh token stored is always the one its lineage's provider accepts now: a rotated
            // one is never dropped (nor an old, spent one written back over it).
            if (stored?.refreshToken && connection.status !== 'reauth_required') {
              const lineage = model.lineage.get(stored.refreshToken)!;
              expect(model.providerCurrent.get(lineage)).toBe(stored.refreshToken);
            }

            // After a refresh (not one left to the refresher holding the lease), a healthy connection
            // can always get a valid token: it holds a refresh token the provider accepts, or an
            // access token that has not expired.
            if (ended && ended.outcome !== 'busy' && connection.status === 'healthy') {
              expect(stored).toBeDefined();
              expect(stored!.refreshToken !== undefined || tokenFreshness(stored!, now) !== 'expired').toBe(
                true,
              );
            }
            if (ended?.outcome === 'refreshed') {
              expect(stored!.tokenVersion).toBe(version! + 1);
              expect(stored!.accessTokenExpiresAt).toBeGreaterThan(now);
            }
            if (ended?.outcome === 'lapsed') expect(connection.status).toBe('reauth_required');
            if (ended?.outcome === 'throttled') {
              expect(connection.status).toBe('throttled');
              expect(connection.throttleEndsAt).toBeGreaterThan(now);
            }

            // The sweep entry matches the stored tokens: due when the stored grant must be used
            // (sweepDueAt of when it was obtained), at a throttle's end (the sweep deferred it), or at
            // the access token's end for a grant with nothing to refresh it; never gone while the
            // connection can be refreshed, always gone once it cannot (reauth_required).
            if (stored) {
              if (connection.status === 'healthy' || connection.status === 'throttled') {
                const named = new Set([tokensDueAt(stored.obtainedAt), ...model.throttleEnds]);
                if (stored.refreshToken === undefined) named.add(stored.accessTokenExpiresAt);
                expect(named.has(stored.due!)).toBe(true);
              }
              if (connection.status === 'reauth_required') expect(stored.due).toBeUndefined();
            }
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
