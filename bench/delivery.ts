// Publish-to-verified-receipt on the local runtime: createLocalDeps, the fan-out and delivery handlers
// attached to the in-process queues, 10 endpoints on a loopback receiver that verifies every signature.
// Baseline, in the same run: a raw loop of signed POSTs (sendWebhook) to the same receiver.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { createLocalDeps } from '../functions/compose/local';
import { sendWebhook } from '../functions/webhooks/infra/send';
import { publishEvent } from '../functions/events/app/publish';
import { attachLocalWorkers } from '../functions/dev-runtime/workers';
import { isoTime } from '../functions/platform/clock';
import { newId } from '../functions/platform/ids';
import { PERMISSIONS } from '../functions/platform/permissions';
import { createEndpoint } from '../functions/webhooks/app/endpoints';
import { verifyWebhook } from '../functions/webhooks/domain/signing';

const ENDPOINTS = 10;
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200);
const BASELINE_CONCURRENCY = 10;
const TIME_LIMIT_MS = 60_000;
const RESULTS = join(import.meta.dirname ?? 'bench', 'results');

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

export async function runDeliveryBench(): Promise<void> {
  const deps = createLocalDeps();
  attachLocalWorkers(deps);
  const secrets = new Map<string, string>();
  const publishedAt = new Map<string, number>();
  const latencies: number[] = [];
  let received = 0;
  let verified = 0;
  let lastReceipt = 0;
  let done: () => void = () => undefined;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      try {
        verifyWebhook(secrets.get(request.url!)!, request.headers, body);
        verified++;
      } catch {
        // counted as received but not verified
      }
      const sent = publishedAt.get(String(request.headers['webhook-id']));
      if (sent !== undefined) latencies.push(performance.now() - sent);
      received++;
      lastReceipt = performance.now();
      response.writeHead(204).end();
      if (received === EVENTS * ENDPOINTS) done();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const principal = {
    organizationId: newId('org'),
    keyId: 'key_bench',
    permissions: [...PERMISSIONS],
    system: false,
  };
  for (let i = 0; i < ENDPOINTS; i++) {
    const { signingSecret } = await createEndpoint(deps, principal, {
      url: `http://127.0.0.1:${port}/e${i}`,
      eventTypeFilters: ['matter.*'],
    });
    secrets.set(`/e${i}`, signingSecret);
  }

  // The pipeline: publish every event, wait for every delivery (or the time limit).
  const allReceived = new Promise<void>((resolve) => (done = resolve));
  const start = performance.now();
  for (let i = 0; i < EVENTS; i++) {
    const at = performance.now();
    const event = await publishEvent(deps, {
      organizationId: principal.organizationId,
      type: 'matter.created',
      data: { matterId: `mat_${i}`, name: `Matter ${i}` },
    });
    publishedAt.set(event.id, at);
  }
  await Promise.race([allReceived, new Promise((r) => setTimeout(r, TIME_LIMIT_MS))]);
  const pipelineSeconds = (lastReceipt - start) / 1000;
  const pipelineRate = received / pipelineSeconds;

  // The baseline: the same number of signed POSTs straight from a loop, BASELINE_CONCURRENCY at a time.
  const baselineCount = EVENTS * ENDPOINTS;
  const secret = secrets.get('/e0')!;
  let next = 0;
  const before = received;
  const baselineStart = performance.now();
  await Promise.all(
    Array.from({ length: BASELINE_CONCURRENCY }, async () => {
      while (next < baselineCount && performance.now() - baselineStart < TIME_LIMIT_MS) {
        next++;
        const now = Date.now();
        await sendWebhook(
          {
            url: `http://127.0.0.1:${port}/e0`,
            event: {
              id: newId('evt'),
              type: 'matter.created',
              occurred_at: isoTime(now),
              data: { matterId: 'm', name: 'n' },
            },
            secrets: [secret],
            timestampSeconds: Math.floor(now / 1000),
          },
          { allowLoopback: true },
        );
      }
    }),
  );
  const baselineSeconds = (performance.now() - baselineStart) / 1000;
  const baselineRate = (received - before) / baselineSeconds;
  server.close();
  deps.queues.events.close();
  deps.queues.deliveries.close();

  const sorted = [...latencies].sort((a, b) => a - b);
  const result = {
    when: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version },
    setup: { runtime: 'local (createLocalDeps, in-process queues)', endpoints: ENDPOINTS, events: EVENTS },
    pipeline: {
      deliveriesExpected: EVENTS * ENDPOINTS,
      deliveriesReceived: before,
      signaturesVerified: verified - (received - before),
      seconds: Number(pipelineSeconds.toFixed(3)),
      deliveriesPerSecond: Number(pipelineRate.toFixed(1)),
      latencyMs: {
        p50: Number(percentile(sorted, 0.5).toFixed(1)),
        p99: Number(percentile(sorted, 0.99).toFixed(1)),
      },
    },
    baseline: {
      description: `raw signed POST loop (sendWebhook), ${BASELINE_CONCURRENCY} concurrent`,
      posts: received - before,
      seconds: Number(baselineSeconds.toFixed(3)),
      postsPerSecond: Number(baselineRate.toFixed(1)),
    },
    ratio: Number((pipelineRate / baselineRate).toFixed(3)),
  };
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, 'delivery.json'), JSON.stringify(result, null, 2) + '\n');
  writeFileSync(
    join(RESULTS, 'delivery.md'),
    `# Delivery benchmark\n\n${result.when}, ${result.machine.cpus} CPUs (${result.machine.cpu}), Node ${result.machine.node}.\n\n` +
      `${EVENTS} events to ${ENDPOINTS} endpoints on the local runtime (in-process queues and tables, the real fan-out ` +
      `and delivery handlers), each delivery POSTed to a loopback receiver that verifies its signature.\n\n` +
      `| Measure | Value |\n|---|---|\n` +
      `| Deliveries received / expected | ${result.pipeline.deliveriesReceived} / ${result.pipeline.deliveriesExpected} |\n` +
      `| Signatures verified | ${result.pipeline.signaturesVerified} |\n` +
      `| Pipeline throughput | ${result.pipeline.deliveriesPerSecond} deliveries/s |\n` +
      `| Publish-to-receipt latency p50 / p99 | ${result.pipeline.latencyMs.p50} ms / ${result.pipeline.latencyMs.p99} ms |\n` +
      `| Baseline: ${result.baseline.description} | ${result.baseline.postsPerSecond} POSTs/s |\n` +
      `| Pipeline / baseline | ${result.ratio} |\n\n` +
      `The pipeline publishes all events at once, so latency includes queueing behind earlier events; ` +
      `the machine is shared, so numbers vary between runs. On AWS the bound is Lambda concurrency and ` +
      `receiver latency, not this loop.\n`,
  );
  console.log(JSON.stringify(result, null, 2));
}
