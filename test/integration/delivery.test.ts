// The event pipeline on the emulators: DynamoDB Local, moto KMS and moto SQS with a real redrive to a
// dead-letter queue, and a real HTTP receiver on loopback. The worker handlers are driven the way the
// Lambda event source does it: ReceiveMessage -> SQSEvent -> handler -> delete what did not fail.
import type { Message } from '@aws-sdk/client-sqs';
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { awsKeys, awsQueues, awsSecrets, awsVault, awsWorkflows } from '../../functions/adapters/aws';
import type { Principal } from '../../functions/platform/principal';
import { deliveryWorker } from '../../functions/webhooks/api/handlers/deliver';
import { create as createFanOutWorker } from '../../functions/webhooks/api/handlers/fan-out';
import { getDeliveryWithAttempts } from '../../functions/webhooks/app/history';
import { getJob, startRecovery } from '../../functions/webhooks/app/replay';
import { attemptBody } from '../../functions/webhooks/domain/messages';
import { deliveryId, newDelivery } from '../../functions/webhooks/domain/records';
import { MAX_ATTEMPTS } from '../../functions/webhooks/domain/retry-policy';
import { receiverBody } from '../../functions/events/domain/event';
import { publishEvent } from '../../functions/events/app/publish';
import { systemClock } from '../../functions/platform/clock';
import { resetConfigCache } from '../../functions/platform/config';
import type { Deps } from '../../functions/platform/ports';
import { ids } from '../support/ids';
import { PERMISSIONS } from '../../functions/platform/permissions';
import { createEndpoint } from '../../functions/webhooks/app/endpoints';
import { createAwsTables, createKmsKey } from '../support/emulators';
import type { Receiver } from '../support/receiver';
import { startReceiver } from '../support/receiver';
import { deliveryItem, getDelivery } from '../../functions/webhooks/infra/repositories/deliveries';

type Handler = (event: SQSEvent) => Promise<SQSBatchResponse>;

const sqs = new SQSClient({});
let deps: Deps;
let urls: { events: string; deliveries: string; dlq: string };
let receiver: Receiver;
let fanOutHandler: Handler;
let deliver: Handler;

async function createQueues(): Promise<typeof urls> {
  const suffix = randomBytes(4).toString('hex');
  const make = async (name: string, attributes: Record<string, string> = {}) =>
    (await sqs.send(new CreateQueueCommand({ QueueName: `${name}-${suffix}`, Attributes: attributes })))
      .QueueUrl!;
  const dlq = await make('deliveries-dlq');
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: dlq, AttributeNames: ['QueueArn'] }),
  );
  const redrive = JSON.stringify({ deadLetterTargetArn: Attributes!.QueueArn, maxReceiveCount: 2 });
  return {
    events: await make('events', { VisibilityTimeout: '1' }),
    deliveries: await make('deliveries', { VisibilityTimeout: '1', RedrivePolicy: redrive }),
    dlq,
  };
}

const toEvent = (messages: Message[], queueUrl: string): SQSEvent => ({
  Records: messages.map((m) => ({
    messageId: m.MessageId!,
    receiptHandle: m.ReceiptHandle!,
    body: m.Body!,
    attributes: {
      ApproximateReceiveCount: m.Attributes?.ApproximateReceiveCount ?? '1',
      SentTimestamp: m.Attributes?.SentTimestamp ?? String(Date.now()),
      SenderId: m.Attributes?.SenderId ?? 'test',
      ApproximateFirstReceiveTimestamp: m.Attributes?.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: m.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:us-east-1:123456789012:${queueUrl.split('/').pop()}`,
    awsRegion: 'us-east-1',
  })),
});

async function receive(queueUrl: string, wait = 1): Promise<Message[]> {
  const out = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: wait,
      AttributeNames: ['All'],
    }),
  );
  return out.Messages ?? [];
}

/** One event-source poll: receive, run the handler, delete the records it did not report failed. */
async function poll(queueUrl: string, handler: Handler): Promise<number> {
  const messages = await receive(queueUrl);
  if (!messages.length) return 0;
  const { batchItemFailures } = await handler(toEvent(messages, queueUrl));
  const failed = new Set(batchItemFailures.map((f) => f.itemIdentifier));
  for (const m of messages.filter((m) => !failed.has(m.MessageId!))) {
    await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle }));
  }
  return messages.length;
}

/** Polls until the queue answers empty twice in a row. */
async function drain(queueUrl: string, handler: Handler): Promise<void> {
  for (let empty = 0; empty < 2;) empty = (await poll(queueUrl, handler)) ? 0 : empty + 1;
}

async function pipeline(): Promise<void> {
  await drain(urls.events, fanOutHandler);
  await drain(urls.deliveries, deliver);
}

function principal(): Principal {
  return {
    organizationId: ids.org(),
    keyId: 'key_integration',
    permissions: [...PERMISSIONS],
    system: false,
  };
}

async function endpoint(owner: Principal, path: string, filters = ['vault.*']) {
  return createEndpoint(deps, owner, { url: receiver.url(path), eventTypeFilters: filters });
}

const ingest = (organizationId: string) =>
  publishEvent(deps, {
    organizationId,
    type: 'vault.ingest.completed',
    data: { vaultId: 'vlt_1', objectId: 'obj_1', durationMs: 1200, chunkCount: 7 },
  });

const stored = (event: { id: string }, endpointId: string) =>
  getDelivery(deps, deliveryId(event.id, endpointId));

beforeAll(async () => {
  urls = await createQueues();
  const tables = await createAwsTables('delivery');
  deps = {
    tables,
    keys: awsKeys(await createKmsKey()),
    queues: awsQueues((name) => (name === 'syncs' ? 'http://unused.invalid' : urls[name])),
    clock: systemClock,
    // Never reached by the delivery workers; built lazily, so they need no resource here.
    workflows: awsWorkflows(),
    vault: awsVault(tables, systemClock),
    secrets: awsSecrets(),
  };
  fanOutHandler = createFanOutWorker(deps);
  deliver = deliveryWorker({ timeoutMs: 500, inlinePauseMs: 50 })(deps);
  receiver = await startReceiver();
});

afterAll(() => receiver.close());

describe('event pipeline on SQS, DynamoDB and KMS', () => {
  it('delivers one event to the three matching endpoints and not to a fourth, verifiable with standardwebhooks', async () => {
    const owner = principal();
    const matching = [
      await endpoint(owner, '/a', ['vault.*']),
      await endpoint(owner, '/b', ['vault.ingest.completed']),
      await endpoint(owner, '/c', ['*']),
    ];
    const other = await endpoint(owner, '/d', ['matter.*']);
    const event = await ingest(owner.organizationId);
    await pipeline();
    const got = receiver.received.filter((r) => ['/a', '/b', '/c', '/d'].includes(r.path));
    expect(got.map((r) => r.path).sort()).toEqual(['/a', '/b', '/c']);
    for (const { endpoint: e, signingSecret } of matching) {
      const request = got.find((r) => receiver.url(r.path) === e.url)!;
      const payload = new Webhook(signingSecret).verify(
        request.body,
        request.headers as Record<string, string>,
      );
      expect(payload).toEqual({
        id: event.id,
        type: event.type,
        occurred_at: event.occurred_at,
        data: event.data,
      });
      expect(request.headers['webhook-id']).toBe(event.id);
      expect((await stored(event, e.id))!.status).toBe('delivered');
    }
    expect(await stored(event, other.endpoint.id)).toBeUndefined();
  });

  it('retries a 503 and delivers on the retry, with the same event id', async () => {
    const owner = principal();
    receiver.on('/flaky', (n) => (n === 1 ? { status: 503 } : { status: 200, body: 'ok' }));
    const { endpoint: e } = await endpoint(owner, '/flaky');
    const event = await ingest(owner.organizationId);
    await pipeline();
    const requests = receiver.received.filter((r) => r.path === '/flaky');
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual([event.id, event.id]);
    const view = await getDeliveryWithAttempts(deps, owner.organizationId, deliveryId(event.id, e.id));
    expect(view.status).toBe('delivered');
    expect(view.attempts.map((a) => [a.outcome, a.statusCode])).toEqual([
      ['retry', 503],
      ['delivered', 200],
    ]);
    expect(view.attempts[1]!.responseBody).toBe('ok');
  });

  it('fails a 400 at once, without a retry', async () => {
    const owner = principal();
    receiver.on('/bad', () => ({ status: 400, body: '{"error":"no"}' }));
    const { endpoint: e } = await endpoint(owner, '/bad');
    const event = await ingest(owner.organizationId);
    await pipeline();
    expect(receiver.received.filter((r) => r.path === '/bad')).toHaveLength(1);
    const view = await getDeliveryWithAttempts(deps, owner.organizationId, deliveryId(event.id, e.id));
    expect(view).toMatchObject({
      status: 'failed',
      failureReason: 'rejected',
      attemptCount: 1,
      lastStatusCode: 400,
    });
    expect(view.attempts[0]!.responseBody).toBe('{"error":"no"}');
  });

  it('honours Retry-After on a 429: no inline retry, the next attempt no sooner than asked', async () => {
    const owner = principal();
    receiver.on('/limited', () => ({ status: 429, headers: { 'Retry-After': '600' } }));
    const { endpoint: e } = await endpoint(owner, '/limited');
    const event = await ingest(owner.organizationId);
    const before = Date.now();
    await pipeline();
    expect(receiver.received.filter((r) => r.path === '/limited')).toHaveLength(1);
    const item = (await stored(event, e.id))!;
    expect(item).toMatchObject({ status: 'retrying', attemptCount: 1, scheduledAttempt: 2 });
    const wait = item.nextAttemptAt! - before;
    expect(wait).toBeGreaterThanOrEqual(600_000 - 5_000);
    expect(wait).toBeLessThanOrEqual(600_000 + 10_000);
  });

  it('times out a receiver that hangs and schedules a background retry', async () => {
    const owner = principal();
    receiver.on('/hang', () => 'hang');
    const { endpoint: e } = await endpoint(owner, '/hang');
    const event = await ingest(owner.organizationId);
    await pipeline();
    const view = await getDeliveryWithAttempts(deps, owner.organizationId, deliveryId(event.id, e.id));
    expect(view.status).toBe('retrying');
    expect(view.attempts.map((a) => a.errorKind)).toEqual(['timeout', 'timeout']);
    // The jittered 48-72 s wait counts from the attempt's end; lastAttemptAt is its start, so the
    // hung attempt's own latency (and the moment spent recording it) lies between the two.
    const latest = view.attempts.find((a) => a.attemptedAt === view.lastAttemptAt)!;
    const wait = Date.parse(view.nextAttemptAt!) - Date.parse(view.lastAttemptAt!);
    expect(wait).toBeGreaterThanOrEqual(48_000 + latest.latencyMs);
    expect(wait - latest.latencyMs).toBeLessThanOrEqual(72_000 + 1_000);
  });

  it('does not follow a redirect: a 3xx fails without retry', async () => {
    const owner = principal();
    receiver.on('/moved', () => ({ status: 302, headers: { Location: receiver.url('/moved-target') } }));
    const { endpoint: e } = await endpoint(owner, '/moved');
    const event = await ingest(owner.organizationId);
    await pipeline();
    expect(receiver.received.filter((r) => r.path.startsWith('/moved')).map((r) => r.path)).toEqual([
      '/moved',
    ]);
    expect(await stored(event, e.id)).toMatchObject({
      status: 'failed',
      failureReason: 'rejected',
      lastStatusCode: 302,
    });
  });

  it('refuses a receiver on a loopback address in production', async () => {
    const owner = principal();
    const { endpoint: e } = await endpoint(owner, '/private');
    const event = await ingest(owner.organizationId);
    process.env.STAGE = 'prod';
    resetConfigCache();
    try {
      await drain(urls.events, fanOutHandler);
      await drain(urls.deliveries, deliveryWorker({ timeoutMs: 500 })(deps));
    } finally {
      delete process.env.STAGE;
      resetConfigCache();
    }
    expect(receiver.received.filter((r) => r.path === '/private')).toHaveLength(0);
    const view = await getDeliveryWithAttempts(deps, owner.organizationId, deliveryId(event.id, e.id));
    expect(view).toMatchObject({ status: 'failed', failureReason: 'rejected' });
    expect(view.attempts[0]!.errorKind).toBe('blocked_address');
  });

  it('moves an exhausted delivery to the dead-letter queue through the redrive policy', async () => {
    const owner = principal();
    receiver.on('/down', () => ({ status: 500 }));
    const { endpoint: e } = await endpoint(owner, '/down');
    const event = await publishEvent(deps, {
      organizationId: owner.organizationId,
      type: 'matter.created',
      data: { matterId: 'm1', name: 'x' },
    });
    // The delivery as the schedule leaves it before its last attempt (the unit tier walks the schedule).
    const item = newDelivery(event, receiverBody(event), e.id, 'pending', Date.now());
    await deps.tables.webhooks.put(
      deliveryItem({
        ...item,
        status: 'retrying',
        attemptCount: MAX_ATTEMPTS - 1,
        scheduledAttempt: MAX_ATTEMPTS,
      }),
    );
    await deps.queues.deliveries.send({
      body: attemptBody({ deliveryId: item.id, cycle: 0, attempt: MAX_ATTEMPTS, dueAt: Date.now() }),
    });
    await drain(urls.events, fanOutHandler); // not subscribed to matter.*: nothing for /down from fan-out
    const deadline = Date.now() + 20_000;
    let dead: Message[] = [];
    while (!dead.length && Date.now() < deadline) {
      await poll(urls.deliveries, deliver);
      dead = await receive(urls.dlq, 0);
    }
    expect(dead.map((m) => JSON.parse(m.Body!).deliveryId)).toEqual([item.id]);
    expect(receiver.received.filter((r) => r.path === '/down')).toHaveLength(1);
    expect(await stored(event, e.id)).toMatchObject({
      status: 'failed',
      failureReason: 'exhausted',
      attemptCount: MAX_ATTEMPTS,
    });
  });

  it('marks a delivery dead_lettered when its step fails on every receive and SQS redrives it', async () => {
    const owner = principal();
    const { endpoint: e } = await endpoint(owner, '/never-reached');
    const event = await publishEvent(deps, {
      organizationId: owner.organizationId,
      type: 'matter.created', // not subscribed: the delivery is made here, not by fan-out
      data: { matterId: 'm1', name: 'x' },
    });
    const item = newDelivery(event, receiverBody(event), e.id, 'pending', Date.now());
    await deps.tables.webhooks.put(deliveryItem(item));
    await deps.queues.deliveries.send({
      body: attemptBody({ deliveryId: item.id, cycle: 0, attempt: 1, dueAt: Date.now() }),
    });
    await drain(urls.events, fanOutHandler);
    // Our side fails on every receive (an outage, a bug): the redrive policy's last receive is the 2nd.
    const broken = deliveryWorker({
      send: async () => {
        throw new Error('outage');
      },
    })(deps);
    const deadline = Date.now() + 20_000;
    let dead: Message[] = [];
    while (!dead.length && Date.now() < deadline) {
      await poll(urls.deliveries, broken);
      dead = (await receive(urls.dlq, 0)).filter((m) => JSON.parse(m.Body!).deliveryId === item.id);
    }
    expect(dead).toHaveLength(1);
    expect(await stored(event, e.id)).toMatchObject({
      status: 'failed',
      failureReason: 'dead_lettered',
      attemptCount: 0,
    });
    expect(receiver.received.filter((r) => r.path === '/never-reached')).toHaveLength(0);
  });

  it('recovers more failed deliveries than a page, one page per message, each delivered once', async () => {
    const owner = principal();
    const { endpoint: e } = await endpoint(owner, '/recovered');
    const failed: string[] = [];
    for (let i = 0; i < 7; i++) {
      const event = await publishEvent(deps, {
        organizationId: owner.organizationId,
        type: 'matter.created', // the endpoint takes vault.*: fan-out makes no delivery of its own
        data: { matterId: `m${i}`, name: 'x' },
      });
      const item = newDelivery(event, receiverBody(event), e.id, 'pending', Date.now() - 60_000 + i);
      await deps.tables.webhooks.put(
        deliveryItem({
          ...item,
          status: 'failed',
          failureReason: 'exhausted',
          attemptCount: 12,
        }),
      );
      failed.push(event.id);
    }
    await drain(urls.events, fanOutHandler);
    const job = await startRecovery(deps, owner.organizationId, e.id, {
      since: new Date(Date.now() - 3_600_000).toISOString(),
    });
    const sent: string[] = [];
    const paging = deliveryWorker({ timeoutMs: 500, inlinePauseMs: 50 }, { pageSize: 3 })(deps);
    await drain(urls.deliveries, async (event) => {
      for (const r of event.Records) if (JSON.parse(r.body).kind === 'recover') sent.push(r.body);
      return paging(event);
    });
    expect(sent.map((body) => JSON.parse(body).page)).toEqual([0, 1, 2]);
    expect(await getJob(deps, owner.organizationId, job.id)).toMatchObject({
      status: 'succeeded',
      counts: { matched: 7, replayed: 7, failed: 0 },
    });
    const requests = receiver.received.filter((r) => r.path === '/recovered');
    expect(requests.map((r) => r.headers['webhook-id']).sort()).toEqual([...failed].sort());
  });

  it('loses nothing when the worker crashes mid-batch: every event delivered, one delivered record each', async () => {
    const owner = principal();
    const { endpoint: e } = await endpoint(owner, '/steady');
    const events = [];
    for (let i = 0; i < 4; i++) events.push(await ingest(owner.organizationId));
    await drain(urls.events, fanOutHandler);
    const crashing: Handler = async (event) => {
      await deliver({ Records: event.Records.slice(0, 1) });
      throw new Error('worker crashed after its first message');
    };
    await poll(urls.deliveries, crashing).catch(() => undefined);
    await drain(urls.deliveries, deliver);
    const requests = receiver.received.filter((r) => r.path === '/steady');
    for (const event of events) {
      expect(requests.some((r) => r.headers['webhook-id'] === event.id)).toBe(true);
      const view = await getDeliveryWithAttempts(deps, owner.organizationId, deliveryId(event.id, e.id));
      expect(view.status).toBe('delivered');
      expect(view.attempts.filter((a) => a.outcome === 'delivered')).toHaveLength(1);
    }
  });
});
