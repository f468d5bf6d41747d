// The endpoint store on DynamoDB Local with KMS (moto): secrets are stored only as ciphertext, bound to
// their organization and endpoint, and rotation keeps the previous one signing for its window.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { awsKeys, awsSecrets, awsVault, awsWorkflows } from '../../functions/adapters/aws';
import { createLocalDeps } from '../../functions/compose/local';
import type { Principal } from '../../functions/directory/app/directory';
import { ManualClock } from '../../functions/platform/clock';
import type { Deps } from '../../functions/platform/ports';
import { open } from '../../functions/platform/envelope';
import { NotFoundError } from '../../functions/platform/errors';
import { PERMISSIONS } from '../../functions/platform/permissions';
import type { EndpointItem } from '../../functions/webhooks/app/endpoints';
import {
  SECRET_OVERLAP_MS,
  activeSigningSecrets,
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  loadEndpoint,
  rotateSecret,
  secretContext,
  updateEndpoint,
} from '../../functions/webhooks/app/endpoints';
import { createAwsTables, createKmsKey, documentClient } from '../support/emulators';

let deps: Deps;
let clock: ManualClock;
const principal: Principal = {
  organizationId: 'org_aaaaaaaaaaaaaaaaaaaa',
  keyId: 'key_a',
  permissions: [...PERMISSIONS],
  system: false,
};
const other: Principal = { ...principal, organizationId: 'org_bbbbbbbbbbbbbbbbbbbb', keyId: 'key_b' };
const input = { url: 'https://hooks.example.com/in', eventTypeFilters: ['vault.*'] };

beforeAll(async () => {
  clock = new ManualClock(Date.parse('2026-03-01T00:00:00.000Z'));
  const tables = await createAwsTables('webhooks');
  deps = {
    tables,
    keys: awsKeys(await createKmsKey()),
    queues: createLocalDeps().queues,
    clock,
    // Not used by these use cases; built lazily, so they need no resource here.
    workflows: awsWorkflows(),
    vault: awsVault(tables, clock),
    secrets: awsSecrets(),
  };
});

async function rawItems(): Promise<Record<string, unknown>[]> {
  const out = await documentClient().send(new ScanCommand({ TableName: deps.tables.webhooks.name }));
  return (out.Items ?? []) as Record<string, unknown>[];
}

describe('webhook endpoint store on DynamoDB and KMS', () => {
  it('stores the signing secret only as KMS-enveloped ciphertext', async () => {
    const { endpoint, signingSecret } = await createEndpoint(deps, principal, input);
    const raw = JSON.stringify(await rawItems());
    expect(raw).toContain(endpoint.id);
    expect(raw).not.toContain(signingSecret);
    expect(raw).not.toContain(signingSecret.slice('whsec_'.length));
    expect(raw).not.toContain('whsec_');
    const item = await loadEndpoint(deps, principal.organizationId, endpoint.id);
    expect(item.signingSecrets[0]!.sealed).toMatchObject({
      v: 1,
      keyId: expect.any(String),
      ciphertext: expect.any(String),
    });
    expect(await activeSigningSecrets(deps, item)).toEqual([signingSecret]);
  });

  it("refuses to open a secret with another endpoint's or organization's context", async () => {
    const first = await createEndpoint(deps, principal, input);
    const second = await createEndpoint(deps, principal, input);
    const sealed = (await loadEndpoint(deps, principal.organizationId, first.endpoint.id)).signingSecrets[0]!
      .sealed;
    await expect(
      open(deps.keys, sealed, secretContext(principal.organizationId, second.endpoint.id)),
    ).rejects.toThrow();
    await expect(
      open(deps.keys, sealed, secretContext(other.organizationId, first.endpoint.id)),
    ).rejects.toThrow();
    expect(await open(deps.keys, sealed, secretContext(principal.organizationId, first.endpoint.id))).toBe(
      first.signingSecret,
    );
  });

  it("keeps organizations apart: another organization's endpoint is not found", async () => {
    const { endpoint } = await createEndpoint(deps, principal, input);
    await expect(getEndpoint(deps, other.organizationId, endpoint.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(updateEndpoint(deps, other, endpoint.id, { description: 'x' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(deleteEndpoint(deps, other.organizationId, endpoint.id)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const listed = await listEndpoints(deps, other.organizationId, { limit: 50, offset: 0 });
    expect(listed.items).toEqual([]);
    expect((await getEndpoint(deps, principal.organizationId, endpoint.id)).description).toBeNull();
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one', async () => {
    const { endpoint, signingSecret: previous } = await createEndpoint(deps, principal, input);
    const { signingSecret: next, endpoint: view } = await rotateSecret(
      deps,
      principal.organizationId,
      endpoint.id,
    );
    expect(view.previousSecretExpiresAt).toBe(new Date(clock.now() + SECRET_OVERLAP_MS).toISOString());
    const load = () => loadEndpoint(deps, principal.organizationId, endpoint.id);
    expect(await activeSigningSecrets(deps, await load())).toEqual([next, previous]);
    const raw = JSON.stringify(await rawItems());
    for (const secret of [previous, next]) expect(raw).not.toContain(secret.slice('whsec_'.length));
    clock.advance(SECRET_OVERLAP_MS + 1);
    expect(await activeSigningSecrets(deps, await load())).toEqual([next]);
    const third = await rotateSecret(deps, principal.organizationId, endpoint.id);
    const item: EndpointItem = await load();
    expect(item.signingSecrets).toHaveLength(2); // the expired one is dropped
    expect(await activeSigningSecrets(deps, item)).toEqual([third.signingSecret, next]);
  });

  it('lists newest first, in windows, and deletes', async () => {
    const org: Principal = { ...principal, organizationId: 'org_cccccccccccccccccccc' };
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      ids.push((await createEndpoint(deps, org, input)).endpoint.id);
    }
    const first = await listEndpoints(deps, org.organizationId, { limit: 2, offset: 0 });
    expect(first.items.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    expect(first.hasMore).toBe(true);
    await deleteEndpoint(deps, org.organizationId, ids[2]!);
    const after = await listEndpoints(deps, org.organizationId, { limit: 50, offset: 0 });
    expect(after.items.map((e) => e.id)).toEqual([ids[1], ids[0]]);
    expect(after.hasMore).toBe(false);
  });
});
