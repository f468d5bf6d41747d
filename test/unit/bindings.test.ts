// The binding rules in core, on the in-memory table: who may bind, what may be bound, and unbinding.
import { KeyBindings } from '../../functions/directory/app/bindings';
import { Directory } from '../../functions/directory/app/directory';
import { directoryRepositories } from '../../functions/directory/infra/repositories';
import { createLocalDeps } from '../../functions/compose/local';
import { ManualClock } from '../../functions/platform/clock';
import type { ConsoleSession } from '../../functions/platform/console-sessions';

const clock = new ManualClock(Date.UTC(2026, 0, 1));
const table = createLocalDeps({ clock }).tables.platform;
const directory = new Directory(directoryRepositories({ tables: { platform: table } }), clock);
const bindings = new KeyBindings(directoryRepositories({ tables: { platform: table } }), clock);

let org: string;
let app: string;
let otherApp: string;
const as = (role: ConsoleSession['role'], organizationId = org): ConsoleSession => ({
  userId: `usr_${role}`,
  organizationId,
  role,
});
const newKey = async (system = false) =>
  (
    await directory.createApiKey({
      organizationId: org,
      name: 'k',
      permissions: [],
      system,
      orgBound: system,
    })
  ).key.id;

beforeAll(async () => {
  org = (await directory.createOrganization('Org')).id;
  app = (await directory.createApplication(org, 'app')).id;
  otherApp = (await directory.createApplication(org, 'other')).id;
});

describe('KeyBindings', () => {
  it('records who bound the key and when', async () => {
    const key = await newKey();
    expect(await bindings.bind(as('owner'), app, key)).toEqual({
      id: expect.stringMatching(/^bnd_/),
      applicationId: app,
      apiKeyId: key,
      organizationId: org,
      createdAt: Date.parse('2026-01-01T00:00:00.000Z'),
      createdBy: 'usr_owner',
    });
  });

  it('refuses a member before looking anything up (403 even for an unknown application)', async () => {
    await expect(bindings.bind(as('member'), 'app_unknown', 'key_unknown')).rejects.toMatchObject({
      status: 403,
    });
  });

  it('refuses system keys with 400 and revoked keys with 404', async () => {
    await expect(bindings.bind(as('admin'), app, await newKey(true))).rejects.toMatchObject({ status: 400 });
    const revoked = await newKey();
    await directory.revokeApiKey(revoked);
    await expect(bindings.bind(as('admin'), app, revoked)).rejects.toMatchObject({ status: 404 });
  });

  it('unbinds a key when it is revoked and says from which application', async () => {
    const key = await newKey();
    await bindings.bind(as('admin'), app, key);
    const revoked = await directory.revokeApiKey(key);
    expect(revoked.revokedAt).toBe(clock.now());
    expect(revoked.unboundFromApplicationId).toBe(app);
    expect(await bindings.get(key)).toBeUndefined();
    expect((await bindings.listForApplication(app)).map((b) => b.apiKeyId)).not.toContain(key);
    expect((await directory.revokeApiKey(key)).unboundFromApplicationId).toBeNull();
  });

  it('refuses a system key in a customer organization unless it is bound to that organization', async () => {
    await expect(
      directory.createApiKey({ organizationId: org, name: 's', permissions: [], system: true }),
    ).rejects.toMatchObject({ status: 400 });
    const platform = await directory.createOrganization('Platform', { platform: true });
    const minted = await directory.createApiKey({
      organizationId: platform.id,
      name: 's',
      permissions: [],
      system: true,
    });
    expect(minted.key.system).toBe(true);
  });

  it('unbinds only from the application the key is bound to', async () => {
    const key = await newKey();
    await bindings.bind(as('admin'), app, key);
    await expect(bindings.unbind(as('admin'), otherApp, key)).rejects.toMatchObject({ status: 404 });
    await bindings.unbind(as('admin'), app, key);
    expect(await bindings.get(key)).toBeUndefined();
    expect((await bindings.bind(as('admin'), otherApp, key)).applicationId).toBe(otherApp);
  });
});
