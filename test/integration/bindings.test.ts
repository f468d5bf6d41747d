// Key binding on DynamoDB Local: separate use-case instances (separate Lambdas) racing to bind one
// key to two applications; the conditional put lets exactly one application have it.
import { KeyBindings } from '../../functions/directory/app/bindings';
import { Directory } from '../../functions/directory/app/directory';
import { directoryRepositories } from '../../functions/directory/infra/repositories';
import { systemClock } from '../../functions/platform/clock';
import type { ConsoleSession } from '../../functions/platform/console-sessions';
import { ConflictError } from '../../functions/platform/errors';
import { createAwsTables } from '../support/emulators';

describe('key bindings on DynamoDB', () => {
  it('binds one key to exactly one application when 10 binds to two applications race', async () => {
    const tables = await createAwsTables('bindings');
    const directory = new Directory(directoryRepositories({ tables }), systemClock);
    const org = await directory.createOrganization('Race');
    const [first, second] = await Promise.all([
      directory.createApplication(org.id, 'first'),
      directory.createApplication(org.id, 'second'),
    ]);
    const { key } = await directory.createApiKey({
      organizationId: org.id,
      name: 'contested',
      permissions: ['connectors:read'],
    });
    const session: ConsoleSession = { userId: 'usr_admin', organizationId: org.id, role: 'admin' };

    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        new KeyBindings(directoryRepositories({ tables }), systemClock).bind(
          session,
          (i % 2 ? second : first)!.id,
          key.id,
        ),
      ),
    );

    const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const lost = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    const winner = won[0]!.applicationId;
    expect(won).toHaveLength(5); // every bind for the winning application: idempotent
    expect(new Set(won.map((b) => `${b.id} ${b.applicationId}`)).size).toBe(1);
    expect(lost).toHaveLength(5);
    for (const error of lost) expect(error).toBeInstanceOf(ConflictError);

    const bindings = new KeyBindings(directoryRepositories({ tables }), systemClock);
    const loser = winner === first!.id ? second! : first!;
    expect(await bindings.listForApplication(winner)).toEqual([won[0]]);
    expect(await bindings.listForApplication(loser.id)).toEqual([]);
    expect(await bindings.get(key.id)).toEqual(won[0]);
  });
});
