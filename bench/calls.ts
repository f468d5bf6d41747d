// AWS calls per unit of work, the cost driver on AWS: the emulated AWS runtime
// (moto + DynamoDB Local, the aws adapters, an SQS event source per worker as `npm run start:aws`
// runs it) with the bench's call counter on every SDK client (functions/adapters/aws/call-counter.ts:
// an SDK middleware after the retry step, so each request on the wire counts; off unless a bench
// turns it on). Counts DynamoDB, SQS, KMS and S3 calls
//  1. per delivery: events published to an organization of ENDPOINTS endpoints on a local receiver,
//     until every delivery has arrived and its worker has settled;
//  2. per imported file: an import run of IMPORT_FILES small files from the sandbox provider.
// Run it on emulators: `bash scripts/with-emulators.sh npm run bench -- calls`. The event sources'
// ReceiveMessage/DeleteMessage calls stand for Lambda's poller (SQS bills those too) and depend on
// how long the queues sat idle, so they are shown apart.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  WRITE_OPERATIONS,
  addConsumed,
  enableCallCounting,
  takeCallCounts,
  takeCapacityUnits,
} from '../functions/adapters/aws/call-counter';
import { STATE_KEY_ENV } from '../functions/connectors';
import { getConnectorJob } from '../functions/connectors/app/job-status';
import { startRun } from '../functions/connectors/app/sync-runs';
import { startEmulatedAws } from '../functions/dev-runtime/emulated-aws/runtime';
import { provisionSecrets } from '../functions/dev-runtime/emulated-aws/provision';
import { emulatedApp, emulatedResources, localDeploymentContext, localParameters } from '../lib/emulated-app';
import { publishEvent } from '../functions/events/app/publish';
import { OffsetClock } from '../functions/platform/clock';
import { newId } from '../functions/platform/ids';
import { Logger } from '../functions/platform/logger';
import { PERMISSIONS } from '../functions/platform/permissions';
import type { Deps } from '../functions/platform/ports';
import { createEndpoint } from '../functions/webhooks/app/endpoints';
import { SandboxProcess, seededLink } from './import';

const ENDPOINTS = 10;
const EVENTS = Number(process.env.BENCH_CALL_EVENTS ?? 50);
const IMPORT_FILES = Number(process.env.BENCH_CALL_FILES ?? 200);
const BASE_URL = 'http://localhost:3999';
/** What the event sources (Lambda's poller on AWS) call, not the functions. */
const POLLER = new Set(['SQS:ReceiveMessage', 'SQS:DeleteMessage', 'SQS:DeleteMessageBatch']);
const SERVICES = ['DynamoDB', 'SQS', 'KMS', 'S3'] as const;
const RESULTS = process.env.BENCH_RESULTS_DIR ?? join(import.meta.dirname ?? 'bench', 'results');
const quiet = new Logger({}, 'error');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (n: number, digits = 2) => Number(n.toFixed(digits));

type Counts = Record<string, number>;

/** The functions' calls, as the emulated runtime's observer reports them from their workers. */
const functionCalls = new Map<string, number>();
/** The capacity units of the functions' DynamoDB calls, `<Operation>:table` and `<Operation>:index`. */
const functionUnits = new Map<string, number>();

/**
 * Every call counted since the last take, this process's (the bench's setup, the pollers) and the
 * functions', with DynamoDB's capacity units under `units`.
 */
function takeCounts(): Counts & { units?: Counts } {
  const counts: Counts & { units?: Counts } = takeCallCounts();
  for (const [key, n] of functionCalls) counts[key] = (counts[key] ?? 0) + n;
  functionCalls.clear();
  const units = takeCapacityUnits();
  for (const [key, n] of functionUnits) units[key] = (units[key] ?? 0) + n;
  functionUnits.clear();
  counts.units = units;
  return counts;
}

/**
 * DynamoDB's capacity units per unit of work: write units (1 KB of item rounded up, per table write
 * plus per index copy written) and read units, each operation's apart.
 */
function capacityPerUnit(consumed: Counts, units: number) {
  const sum = (write: boolean, part: 'table' | 'index') =>
    Object.entries(consumed)
      .filter(([key]) => key.endsWith(`:${part}`) && WRITE_OPERATIONS.has(key.split(':')[0]!) === write)
      .reduce((a, [, n]) => a + n, 0);
  const operations = [...new Set(Object.keys(consumed).map((key) => key.split(':')[0]!))].sort();
  return {
    writeUnits: round((sum(true, 'table') + sum(true, 'index')) / units),
    writeUnitsTable: round(sum(true, 'table') / units),
    writeUnitsIndexes: round(sum(true, 'index') / units),
    readUnits: round((sum(false, 'table') + sum(false, 'index')) / units),
    byOperation: Object.fromEntries(
      operations.map((op) => [
        op,
        {
          table: round((consumed[`${op}:table`] ?? 0) / units, 3),
          index: round((consumed[`${op}:index`] ?? 0) / units, 3),
        },
      ]),
    ),
  };
}

/** Counts per unit of work: each operation, each service's functions' total, and the poller's apart. */
function perUnit({ units: consumed = {}, ...counts }: Counts & { units?: Counts }, units: number) {
  const functions = Object.entries(counts).filter(([key]) => !POLLER.has(key));
  const byService = Object.fromEntries(
    SERVICES.map((service) => [
      service,
      round(
        functions.filter(([key]) => key.startsWith(`${service}:`)).reduce((a, [, n]) => a + n, 0) / units,
      ),
    ]),
  );
  return {
    units,
    byService,
    byOperation: Object.fromEntries(
      functions.sort(([a], [b]) => a.localeCompare(b)).map(([key, n]) => [key, round(n / units, 3)]),
    ),
    poller: Object.fromEntries(
      Object.entries(counts)
        .filter(([key]) => POLLER.has(key))
        .map(([key, n]) => [key, round(n / units, 3)]),
    ),
    capacity: capacityPerUnit(consumed, units),
    raw: counts,
    rawUnits: consumed,
  };
}
type PerUnit = ReturnType<typeof perUnit>;

/** A receiver answering 204 to every POST, counting them. */
async function receiver() {
  let received = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received: () => received,
    close: () => server.close(),
  };
}

/** Waits until `done()` holds, then `settleMs` more for the workers' last writes; throws after limitMs. */
async function until(
  done: () => boolean | Promise<boolean>,
  what: string,
  limitMs = 120_000,
  settleMs = 3_000,
) {
  const deadline = Date.now() + limitMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
  await sleep(settleMs);
}

async function deliveries(deps: Deps) {
  const server = await receiver();
  try {
    const principal = {
      organizationId: newId('org'),
      keyId: 'key_bench',
      permissions: [...PERMISSIONS],
      system: false,
    };
    for (let i = 0; i < ENDPOINTS; i++) {
      await createEndpoint(deps, principal, {
        url: `http://127.0.0.1:${server.port}/e${i}`,
        eventTypeFilters: ['matter.*'],
      });
    }
    const setup = takeCounts(); // creating the endpoints is not the deliveries' work
    // In groups of a fan-out batch (10 events), each delivered before the next is published: a burst
    // overloads the emulators on a busy machine, and an invocation that times out repeats its work.
    for (let i = 0; i < EVENTS; i++) {
      await publishEvent(deps, {
        organizationId: principal.organizationId,
        type: 'matter.created',
        data: { matterId: `mat_${i}`, name: `Matter ${i}` },
      });
      const published = i + 1;
      if (published % 10 === 0 || published === EVENTS)
        await until(() => server.received() >= published * ENDPOINTS, 'the deliveries', 120_000, 0);
    }
    await until(() => true, 'the last writes');
    return { setup, perDelivery: perUnit(takeCounts(), EVENTS * ENDPOINTS) };
  } finally {
    server.close();
  }
}

async function imports(deps: Deps, url: string) {
  {
    const organizationId = newId('org');
    const { linkId } = await seededLink(deps, url, BASE_URL, organizationId, IMPORT_FILES, 'vlt_bench');
    const setup = takeCounts(); // connecting and linking happen once per link, not per file
    const run = await startRun(deps, organizationId, linkId, 'api', quiet);
    let job: { status: string; counts: Record<string, number> } | undefined;
    let polls = 0;
    const poll = async () => {
      polls++;
      job = (await getConnectorJob(deps, organizationId, run.id)) as typeof job;
      return job!;
    };
    await until(async () => (await poll()).status !== 'processing', 'the import run');
    if (job!.status !== 'succeeded') throw new Error(`the run ended ${job!.status}`);
    const counts = takeCounts();
    // The bench's own polling of the job is not the import's work: one poll's calls, times the polls.
    polls--;
    await poll();
    const { units: pollUnits = {}, ...pollCounts } = takeCounts();
    for (const [key, n] of Object.entries(pollCounts)) counts[key] = (counts[key] ?? 0) - n * polls;
    for (const [key, n] of Object.entries(pollUnits))
      counts.units![key] = (counts.units![key] ?? 0) - n * polls;
    const imported = job!.counts.imported ?? 0;
    return { setup, imported, perFile: perUnit(counts, imported) };
  }
}

export async function runCallsBench(): Promise<void> {
  if (!process.env.AWS_ENDPOINT_URL) {
    console.error('calls: runs on the emulators only: bash scripts/with-emulators.sh npm run bench -- calls');
    process.exit(2);
  }
  enableCallCounting(); // before the first client is built: clients built earlier count nothing
  const prefix = `bench-${Date.now().toString(36)}`;
  const root = join(import.meta.dirname ?? 'bench', '..');
  const aws = await startEmulatedAws({
    prefix,
    resources: await emulatedResources({ root, stage: 'dev' }),
    clock: new OffsetClock(),
  });
  // The sandbox provider, registered as the runtime registers it; the bench's own setup (connecting,
  // linking) runs in this process and reads the settings from its environment.
  const sandbox = SandboxProcess.start();
  let delivery: Awaited<ReturnType<typeof deliveries>>;
  let imported: Awaited<ReturnType<typeof imports>>;
  try {
    const { url } = await sandbox.startRegistered(BASE_URL);
    // The functions run from their bundles, as `npm run start:aws` runs them; their calls reach the
    // count through the runtime's observer (once per call; this process's own count every attempt).
    const secretNames = Object.keys(process.env).filter(
      (n) => n === STATE_KEY_ENV || n.endsWith('_CLIENT_SECRET'),
    );
    const secrets = await provisionSecrets(
      prefix,
      Object.fromEntries(secretNames.map((n) => [n, process.env[n]!])),
    );
    const parameters = localParameters(process.env, BASE_URL);
    const app = await emulatedApp({
      root: join(import.meta.dirname ?? 'bench', '..'),
      stage: 'dev',
      context: localDeploymentContext(parameters),
    });
    const functions = await aws.startFunctions({
      app,
      parameters,
      secrets,
      onCall: (_fn, { service, command }) => {
        const key = `${service}:${command}`;
        functionCalls.set(key, (functionCalls.get(key) ?? 0) + 1);
      },
      onConsumed: (_fn, { command, ConsumedCapacity }) =>
        addConsumed(functionUnits, command, { ConsumedCapacity }),
    });
    try {
      takeCounts(); // provisioning is not the work measured
      delivery = await deliveries(aws.deps);
      imported = await imports(aws.deps, url);
    } finally {
      await functions.stop();
    }
  } finally {
    sandbox.close();
  }
  const result = {
    when: new Date().toISOString(),
    setup: {
      runtime:
        "emulated AWS (moto + DynamoDB Local; the functions from their bundles, the template's event source mappings)",
      endpoints: ENDPOINTS,
      events: EVENTS,
      importFiles: IMPORT_FILES,
    },
    delivery,
    import: imported,
  };
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, 'calls.json'), JSON.stringify(result, null, 2) + '\n');
  writeFileSync(join(RESULTS, 'calls.md'), markdown(result.delivery.perDelivery, result.import.perFile));
  console.log(markdown(result.delivery.perDelivery, result.import.perFile));
}

function table(unit: PerUnit): string {
  return [
    '| Service | Calls | Operations |',
    '|---|---|---|',
    ...SERVICES.map((service) => {
      const ops = Object.entries(unit.byOperation)
        .filter(([key]) => key.startsWith(`${service}:`))
        .map(([key, n]) => `${key.slice(service.length + 1)} ${n}`)
        .join(', ');
      return `| ${service} | ${unit.byService[service]} | ${ops || '-'} |`;
    }),
  ].join('\n');
}

/** DynamoDB's capacity units per unit of work, as DynamoDB reported them: writes per table and index copy. */
function capacity(unit: PerUnit): string {
  const { capacity: c } = unit;
  const ops = Object.entries(c.byOperation)
    .filter(([, { table, index }]) => table || index)
    .map(([op, { table, index }]) => `${op} ${table}${index ? ` + ${index} index` : ''}`)
    .join(', ');
  return `DynamoDB capacity units, as DynamoDB reported them (ReturnConsumedCapacity INDEXES): **${c.writeUnits} write
units** (${c.writeUnitsTable} on tables, ${c.writeUnitsIndexes} on index copies) and ${c.readUnits} read units;
by operation: ${ops || 'none'}.`;
}

function markdown(delivery: PerUnit, file: PerUnit): string {
  const poller = (unit: PerUnit) =>
    Object.entries(unit.poller)
      .map(([key, n]) => `${key} ${n}`)
      .join(', ') || 'none';
  return `# AWS calls per unit of work

${new Date().toISOString()}. \`bash scripts/with-emulators.sh npm run bench -- calls\`; raw counts in
[calls.json](calls.json). The emulated AWS runtime (moto + DynamoDB Local, the aws adapters, one SQS
event source per worker as \`npm run start:aws\` runs them); every SDK request on the wire counted by
a middleware after the retry step (retries count). Counts of calls do not depend on the machine's
load. These are the counts [docs/cost.md](../../docs/cost.md) prices.

## Per delivery

${delivery.units} deliveries (${delivery.units / ENDPOINTS} events to an organization of ${ENDPOINTS} endpoints, all
delivered at the first attempt): publish, fan-out and delivery, per delivery.

${table(delivery)}

${capacity(delivery)}

Event sources (Lambda's poller; SQS bills these as well, and their number depends on batching and
idle time): ${poller(delivery)} per delivery.

## Per imported file

An import run of ${file.units} files from the sandbox provider (connecting and creating the link not
counted, nor the bench's own polling of the job's status).

${table(file)}

${capacity(file)}

Event sources: ${poller(file)} per file.
`;
}
