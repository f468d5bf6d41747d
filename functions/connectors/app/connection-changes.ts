// How every connection change is made: load, decide (domain/connection-decide.ts), write the change
// with its events conditionally over what was decided on, flush the outbox. A lost race is decided
// again on what the winner wrote.
import type { OutboxEvent } from '../../events';
import { describePending, flushOutbox, outboxEvent, pendingEvents } from '../../events';
import type { Deps } from '../../platform/ports';
import type { Logger } from '../../platform/logger';
import type { ConnectionCommand, RefusalReason } from '../domain/connection-decide';
import { decide } from '../domain/connection-decide';
import type { ConnectionItem } from '../infra/repositories/connections';
import { ConnectionRepository } from '../infra/repositories/connections';

export type ChangeDeps = Pick<Deps, 'tables' | 'queues' | 'clock'>;

export type Transition =
  | { outcome: 'changed'; connection: ConnectionItem; before: ConnectionItem; events: OutboxEvent[] }
  | { outcome: 'refused'; reason: RefusalReason; connection: ConnectionItem }
  | { outcome: 'unchanged'; connection: ConnectionItem }
  | { outcome: 'gone' };

const ATTEMPTS = 5;

/**
 * Applies `command` to the connection (an id, or the item just read, which saves the first read).
 * The events the change emits are published before this returns, or left in the outbox for the sweep.
 */
export async function transition(
  deps: ChangeDeps,
  connection: string | ConnectionItem,
  command: ConnectionCommand,
  log: Logger,
): Promise<Transition> {
  const repository = ConnectionRepository.of(deps);
  const id = typeof connection === 'string' ? connection : connection.id;
  let read = typeof connection === 'string' ? undefined : connection;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const before = read ?? (await repository.get(id));
    read = undefined;
    if (!before) return { outcome: 'gone' };
    const now = deps.clock.now();
    const decision = decide(before, command, now);
    if (decision.outcome === 'refused') return { ...decision, connection: before };
    if (decision.outcome === 'unchanged') return { outcome: 'unchanged', connection: before };
    const events = decision.events.map((draft) =>
      outboxEvent({ organizationId: before.organizationId, ...draft }, now),
    );
    const written = await repository.apply(before, decision, events);
    if (!written) continue; // another change came first: decide again on it
    await flushConnection(deps, written, log);
    return { outcome: 'changed', connection: written, before, events };
  }
  throw new Error(`connection ${id}: change lost to concurrent changes ${ATTEMPTS} times`);
}

/**
 * Publishes what the connection's outbox holds. A failure leaves the rest for the next flush (a
 * repeated call, the sweep) and answers false; the change it came with stands either way.
 */
export async function flushConnection(
  deps: ChangeDeps,
  connection: ConnectionItem,
  log: Logger,
): Promise<boolean> {
  const events = pendingEvents(connection);
  if (!events.length) return true;
  const repository = ConnectionRepository.of(deps);
  try {
    await flushOutbox(deps, events, (event) => repository.acknowledge(connection.id, event.id));
    return true;
  } catch (error) {
    log.warn('connection events left in the outbox for the sweep', {
      connectionId: connection.id,
      events: describePending(events),
      error,
    });
    return false;
  }
}
