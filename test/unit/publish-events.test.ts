// Publishing several events at once: one batch send, each event as publishEvent would send it.
import { createLocalDeps } from '../../functions/compose/local';
import { publishEvent, publishEvents } from '../../functions/events/app/publish';
import { ManualClock } from '../../functions/platform/clock';
import { InvalidRequestError } from '../../functions/platform/errors';
import type { QueueMessage } from '../../functions/platform/ports';

const ORG = 'org_unitpublishaaaaaaaa';
const ingest = (objectId: string) => ({
  id: `evt_${objectId.slice(4)}`,
  organizationId: ORG,
  type: 'vault.ingest.completed',
  data: { vaultId: 'vlt_unit', objectId, durationMs: 3, chunkCount: 1 },
});

function depsWithSends() {
  const deps = createLocalDeps({ clock: new ManualClock(Date.UTC(2026, 0, 1)) });
  const sends: { kind: 'send' | 'batch'; messages: QueueMessage[] }[] = [];
  const events = deps.queues.events;
  const send = events.send.bind(events);
  const sendBatch = events.sendBatch.bind(events);
  let inBatch = false;
  events.send = async (message) => {
    if (!inBatch) sends.push({ kind: 'send', messages: [message] });
    return send(message);
  };
  events.sendBatch = async (messages) => {
    sends.push({ kind: 'batch', messages });
    inBatch = true;
    try {
      return await sendBatch(messages);
    } finally {
      inBatch = false;
    }
  };
  return { deps, sends };
}

describe('publishEvents', () => {
  it('sends the events in batches of ten, each body as publishEvent would send it', async () => {
    const batch = depsWithSends();
    const one = depsWithSends();
    const inputs = Array.from({ length: 23 }, (_, i) =>
      ingest(`doc_${String.fromCharCode(97 + i).repeat(20)}`),
    );
    const published = await publishEvents(batch.deps, inputs);
    for (const input of inputs) await publishEvent(one.deps, input);
    expect(batch.sends.map((s) => [s.kind, s.messages.length])).toEqual([
      ['batch', 10],
      ['batch', 10],
      ['batch', 3],
    ]);
    expect(batch.sends.flatMap((s) => s.messages)).toEqual(one.sends.flatMap((s) => s.messages));
    expect(published.map((e) => e.id)).toEqual(inputs.map((i) => i.id));
    expect(batch.deps.queues.events.drain()).toHaveLength(23);
  });

  it('keeps each batch within the 256 KiB an SQS batch request may carry', async () => {
    const { deps, sends } = depsWithSends();
    // Events of about 60 KiB (a long failure message): four to a request at most.
    const large = Array.from({ length: 9 }, (_, i) => ({
      organizationId: ORG,
      type: 'vault.ingest.failed',
      data: {
        vaultId: 'vlt_unit',
        objectId: `doc_${String.fromCharCode(97 + i).repeat(20)}`,
        errorCode: 'unreadable',
        message: 'x'.repeat(60_000),
      },
    }));
    await publishEvents(deps, large);
    expect(sends.map((s) => s.messages.length)).toEqual([4, 4, 1]);
    for (const { messages } of sends)
      expect(messages.reduce((n, m) => n + Buffer.byteLength(m.body), 0)).toBeLessThanOrEqual(256 * 1024);
  });

  it('sends none of them when the catalog refuses one', async () => {
    const { deps, sends } = depsWithSends();
    const refused = { ...ingest('doc_cccccccccccccccccccc'), data: { vaultId: 'vlt_unit' } };
    await expect(publishEvents(deps, [ingest('doc_aaaaaaaaaaaaaaaaaaaa'), refused])).rejects.toThrow(
      InvalidRequestError,
    );
    expect(sends).toEqual([]);
    expect(deps.queues.events.drain()).toEqual([]);
  });

  it('sends nothing for no events', async () => {
    const { deps, sends } = depsWithSends();
    expect(await publishEvents(deps, [])).toEqual([]);
    expect(sends).toEqual([]);
  });
});
