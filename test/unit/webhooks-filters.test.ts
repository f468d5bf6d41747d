import { EVENT_TYPES, EVENT_TYPE_NAMES } from '../../functions/events/domain/catalog';
import { publishedCatalog } from '../../functions/events/domain/catalog-docs';
import {
  filterKind,
  filterMatches,
  filterProblem,
  filtersMatch,
  permissionsNeeded,
  scopeMatches,
  subscriptionMatches,
  typesMatching,
} from '../../functions/webhooks/domain/filters';
import { PERMISSIONS } from '../../functions/platform/permissions';

describe('event-type filters', () => {
  it('classifies filters by shape', () => {
    expect(filterKind('*')).toBe('all');
    expect(filterKind('vault.*')).toBe('prefix');
    expect(filterKind('vault.ingest.*')).toBe('prefix');
    expect(filterKind('vault.ingest.completed')).toBe('exact');
    for (const bad of [
      '',
      'vault*',
      '*.completed',
      'vault.*.completed',
      'vault..x',
      'Vault.x',
      'vault.',
      '.vault',
      '**',
      'vault.**',
      ' vault.*',
    ]) {
      expect(filterKind(bad)).toBeUndefined();
    }
  });

  it('matches an exact type and nothing else', () => {
    expect(filterMatches('vault.ingest.completed', 'vault.ingest.completed')).toBe(true);
    expect(filterMatches('vault.ingest.completed', 'vault.ingest.failed')).toBe(false);
    expect(filterMatches('vault.ingest', 'vault.ingest.completed')).toBe(false);
  });

  it('matches a prefix wildcard at every dot level, never a longer segment', () => {
    expect(filterMatches('vault.*', 'vault.ingest.completed')).toBe(true);
    expect(filterMatches('vault.ingest.*', 'vault.ingest.completed')).toBe(true);
    expect(filterMatches('vault.ingest.*', 'vault.ingest.failed')).toBe(true);
    expect(filterMatches('vault.ingest.completed.*', 'vault.ingest.completed')).toBe(false);
    expect(filterMatches('vault.*', 'vaults.x')).toBe(false);
    expect(filterMatches('vault.ingest.*', 'vault.ingestion.completed')).toBe(false);
    expect(filterMatches('webhook.*', 'webhook.endpoint.disabled')).toBe(true);
    expect(filterMatches('webhook.endpoint.*', 'webhook.test')).toBe(false);
  });

  it('matches every type with *, and a malformed filter matches nothing', () => {
    for (const type of EVENT_TYPE_NAMES) expect(filterMatches('*', type)).toBe(true);
    expect(filterMatches('vault*', 'vault.ingest.completed')).toBe(false);
  });

  it('matches a list when any filter matches', () => {
    expect(filtersMatch(['matter.*', 'vault.ingest.completed'], 'vault.ingest.completed')).toBe(true);
    expect(filtersMatch(['matter.*', 'vault.ingest.completed'], 'vault.ingest.failed')).toBe(false);
    expect(filtersMatch([], 'vault.ingest.completed')).toBe(false);
  });

  it('accepts catalog types, prefixes that select something, and *; explains the rest', () => {
    expect(filterProblem('*')).toBeUndefined();
    expect(filterProblem('vault.*')).toBeUndefined();
    expect(filterProblem('connection.revoked')).toBeUndefined();
    expect(filterProblem('vault.ingest.done')).toMatch(/unknown event type vault.ingest.done/);
    expect(filterProblem('nothing.*')).toBe('nothing.* matches no event type');
    expect(filterProblem('vault.ingest.completed.*')).toBe('vault.ingest.completed.* matches no event type');
    expect(filterProblem('vault*')).toMatch(/must be an event type, a prefix wildcard/);
    expect(typesMatching('connection.*')).toEqual(['connection.reauth_required', 'connection.revoked']);
  });

  it('names the permissions filters need, with the types needing them; * needs none', () => {
    expect(permissionsNeeded(['*'])).toEqual(new Map());
    expect(permissionsNeeded(['vault.ingest.completed', 'vault.*', 'matter.created'])).toEqual(
      new Map([
        ['vaults:read', ['vault.ingest.completed', 'vault.ingest.failed']],
        ['matters:read', ['matter.created']],
      ]),
    );
  });
});

describe('resource scopes', () => {
  it('lets every event through an unscoped endpoint', () => {
    expect(scopeMatches(undefined, {})).toBe(true);
    expect(scopeMatches({}, { vaultId: 'v1' })).toBe(true);
  });

  it('filters by vault', () => {
    const scopes = { vaultIds: ['v1', 'v2'] };
    expect(scopeMatches(scopes, { vaultId: 'v1' })).toBe(true);
    expect(scopeMatches(scopes, { vaultId: 'v3' })).toBe(false);
  });

  it('filters by matter', () => {
    const scopes = { matterIds: ['m1'] };
    expect(scopeMatches(scopes, { matterId: 'm1' })).toBe(true);
    expect(scopeMatches(scopes, { matterId: 'm2' })).toBe(false);
  });

  it('does not deliver events without a vault or matter id to a scoped endpoint', () => {
    expect(scopeMatches({ vaultIds: ['v1'] }, { invoiceId: 'inv_1' })).toBe(false);
    expect(scopeMatches({ vaultIds: ['v1'] }, { matterId: 'm1' })).toBe(false);
    expect(scopeMatches({ matterIds: ['m1'] }, { vaultId: 'v1' })).toBe(false);
    expect(scopeMatches({ vaultIds: ['v1'] }, { vaultId: 7 })).toBe(false);
  });

  it('delivers when the event concerns any listed vault or matter (both kinds scoped)', () => {
    const scopes = { vaultIds: ['v1'], matterIds: ['m1'] };
    expect(scopeMatches(scopes, { vaultId: 'v1' })).toBe(true);
    expect(scopeMatches(scopes, { matterId: 'm1' })).toBe(true);
    expect(scopeMatches(scopes, { vaultId: 'v2', matterId: 'm1' })).toBe(true);
    expect(scopeMatches(scopes, { vaultId: 'v2', matterId: 'm2' })).toBe(false);
    expect(scopeMatches(scopes, {})).toBe(false);
  });
});

describe('subscription matching', () => {
  const all = [...PERMISSIONS];
  const ingest = {
    type: 'vault.ingest.completed',
    data: { vaultId: 'v1', objectId: 'o', durationMs: 1, chunkCount: 2 },
  };

  it('needs a filter, the scope and the permission of the type', () => {
    expect(subscriptionMatches({ eventTypeFilters: ['*'], permissions: all }, ingest)).toBe(true);
    expect(subscriptionMatches({ eventTypeFilters: ['matter.*'], permissions: all }, ingest)).toBe(false);
    expect(
      subscriptionMatches(
        { eventTypeFilters: ['*'], resourceScopes: { vaultIds: ['v2'] }, permissions: all },
        ingest,
      ),
    ).toBe(false);
    expect(subscriptionMatches({ eventTypeFilters: ['*'], permissions: ['webhooks:read'] }, ingest)).toBe(
      false,
    );
  });

  it('narrows * to what the stored permissions may receive', () => {
    const subscription = { eventTypeFilters: ['*'], permissions: ['matters:read' as const] };
    expect(
      subscriptionMatches(subscription, { type: 'matter.created', data: { matterId: 'm', name: 'n' } }),
    ).toBe(true);
    expect(subscriptionMatches(subscription, ingest)).toBe(false);
  });

  it('never matches a type outside the catalog', () => {
    expect(
      subscriptionMatches({ eventTypeFilters: ['*'], permissions: all }, { type: 'vault.unknown', data: {} }),
    ).toBe(false);
  });
});

describe('catalog', () => {
  it('has unique types, known permissions, one or more per family, and vault / matter ids', () => {
    expect(new Set(EVENT_TYPE_NAMES).size).toBe(EVENT_TYPE_NAMES.length);
    for (const t of EVENT_TYPES) expect(PERMISSIONS).toContain(t.permission);
    for (const t of EVENT_TYPES.filter((e) => /^(vault|ocr|transcription)\./.test(e.type))) {
      expect(Object.keys(t.data.shape)).toContain('vaultId');
    }
    for (const t of EVENT_TYPES.filter((e) => e.type.startsWith('matter.')))
      expect(Object.keys(t.data.shape)).toContain('matterId');
  });

  it('publishes each data schema as JSON Schema', () => {
    const ingest = publishedCatalog().find((t) => t.type === 'vault.ingest.completed')!;
    expect(ingest.schema).toMatchObject({
      type: 'object',
      required: ['vaultId', 'objectId', 'durationMs', 'chunkCount'],
      properties: { durationMs: { type: 'integer', minimum: 0 } },
    });
  });
});
