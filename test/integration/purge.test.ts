// The purge workflow as the CDK construct synthesizes it (its emulator variant: SQS callback tasks),
// executed by moto's Step Functions interpreter, with our own task code doing the work on DynamoDB
// Local through the aws adapters: a callback task runner (functions/dev-runtime/emulated-aws/callback-tasks.ts,
// kept for this test) answers each task with the task handler module, as the task Lambdas would.
//
// The production variant (Lambda tasks) cannot run on moto: invoking a Lambda needs moto's Docker
// backend (its Docker-less backend only echoes the payload). The emulated runtime runs it on its own
// Step Functions endpoint (step-functions-endpoint.ts; the e2e-aws purge tests); the last test here
// runs it only where the endpoint has a Lambda runtime with the stack deployed (LocalStack after
// `cdklocal deploy`; docs/deploy.md).
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnQueue } from 'aws-cdk-lib/aws-sqs';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { CreateStateMachineCommand, SFNClient } from '@aws-sdk/client-sfn';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { randomBytes } from 'node:crypto';
import {
  awsKeys,
  awsQueues,
  awsSecrets,
  awsTables,
  awsVault,
  awsWorkflows,
} from '../../functions/adapters/aws';
import { SfnWorkflows } from '../../functions/adapters/aws/sfn-workflows';
import { Readable } from 'node:stream';
import { S3BlobStore } from '../../functions/adapters/aws/s3-blobs';
import { VaultStandIn } from '../../functions/adapters/vault/stand-in';
import { getConnectorJob } from '../../functions/connectors/app/job-status';
import { importDocument } from '../../functions/connectors/app/ledger';
import { Ledger } from '../../functions/connectors/infra/repositories/ledger';
import type { ImportLinkRecord } from '../../functions/connectors/infra/repositories/import-links';
import { Links } from '../../functions/connectors/infra/repositories/import-links';
import type { JobView } from '../../functions/connectors/app/purge';
import { startPurge } from '../../functions/connectors/app/purge';
import { ConnectionRepository } from '../../functions/connectors/infra/repositories/connections';
import { systemClock } from '../../functions/platform/clock';
import type { Deps } from '../../functions/platform/ports';
import { newId } from '../../functions/platform/ids';
import type { VaultDocuments, VaultRef, Workflows } from '../../functions/platform/ports';
import { create } from '../../functions/connectors/api/handlers/purge-tasks';
import { CallbackTaskRunner } from '../../functions/dev-runtime/emulated-aws/callback-tasks';
import { DataStores } from '../../lib/data';
import { Messaging } from '../../lib/messaging';
import { PurgeWorkflow } from '../../lib/purge';
import { stageConfig } from '../../lib/stage-config';
import { createAwsTables, createBucket, requireEmulators } from '../support/emulators';

const ORG = 'org_integrationpurgeaaa';
const sfn = new SFNClient({});
const sqs = new SQSClient({});

type CfnValue = string | { Ref: string } | { 'Fn::Join': [string, CfnValue[]] };

/** The DefinitionString the construct synthesizes, its tokens filled in as CloudFormation would. */
function synthesizedDefinition(queueUrl: string): string {
  const app = new App({ context: { stage: 'dev', 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'PurgeOnEmulator', { env: { account: '123456789012', region: 'us-east-1' } });
  const stage = stageConfig(app.node);
  const queue = new Queue(stack, 'PurgeTasks');
  new PurgeWorkflow(stack, 'Purge', {
    stage,
    data: new DataStores(stack, 'Data', stage),
    messaging: new Messaging(stack, 'Messaging'),
    retry: { intervalSeconds: 1, backoffRate: 1, maxAttempts: 3 },
    callbackQueue: queue,
  });
  const machines = Template.fromStack(stack).findResources('AWS::StepFunctions::StateMachine');
  const [machine] = Object.values(machines) as { Properties: { DefinitionString: CfnValue } }[];
  const refs: Record<string, string> = {
    'AWS::Partition': 'aws',
    'AWS::Region': 'us-east-1',
    'AWS::AccountId': '123456789012',
    [stack.getLogicalId(queue.node.defaultChild as CfnQueue)]: queueUrl,
  };
  const resolve = (value: CfnValue): string => {
    if (typeof value === 'string') return value;
    if ('Ref' in value) {
      const resolved = refs[value.Ref];
      if (resolved === undefined) throw new Error(`unresolved Ref ${value.Ref} in the definition`);
      return resolved;
    }
    const [separator, parts] = value['Fn::Join'];
    return parts.map(resolve).join(separator);
  };
  return resolve(machine!.Properties.DefinitionString);
}

let deps: Deps & { vault: VaultDocuments; workflows: Workflows };
let queueUrl: string;
let worker: CallbackTaskRunner;
const tasksRun: string[] = [];
let injectedFailures = 0;

/**
 * What the task Lambdas do in AWS, done by the emulated runtime's task runner: receive the callback
 * task, run the task handler module, answer SendTaskSuccess/SendTaskFailure, delete the message.
 */
function startTaskRunner(): CallbackTaskRunner {
  const runner = new CallbackTaskRunner(
    queueUrl,
    async ({ task, input }) => {
      tasksRun.push(task);
      return create(deps)({ task, input });
    },
    { error: () => undefined, warn: () => undefined },
  );
  runner.start();
  return runner;
}

type PurgeDeps = typeof deps;

async function revokedConnection(d: PurgeDeps = deps): Promise<string> {
  const id = newId('conn');
  const now = Date.now();
  await new ConnectionRepository(d.tables.connectors).create({
    id,
    organizationId: ORG,
    provider: 'practice',
    status: 'revoked',
    scopeTier: 'standard',
    returnUrl: 'https://app.example.com/back',
    createdAt: now,
    updatedAt: now,
    revokedAt: now,
  });
  return id;
}

async function link(connectionId: string, vaultId: string, d: PurgeDeps = deps): Promise<ImportLinkRecord> {
  const now = Date.now();
  const record: ImportLinkRecord = {
    id: newId('lnk'),
    organizationId: ORG,
    connectionId,
    provider: 'practice',
    vaultId,
    sourceId: 'matter-1',
    createdAt: now,
    updatedAt: now,
  };
  await new Links(d.tables.connectors).put(record);
  return record;
}

/** Imports `count` small documents through the link; returns their vault object ids. */
async function seed(
  link: ImportLinkRecord,
  count: number,
  prefix: string,
  d: PurgeDeps = deps,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 50) {
    const batch = Array.from({ length: Math.min(50, count - i) }, (_, j) => `${prefix}-${i + j}`);
    const stored = await Promise.all(
      batch.map((sourceId) =>
        importDocument(
          d,
          link,
          {
            sourceId,
            name: `${sourceId}.txt`,
            version: '1',
            contentType: 'text/plain',
            content: Readable.from([sourceId]),
          },
          { jobId: 'job_seed', outcome: 'imported' },
        ),
      ),
    );
    ids.push(...stored.map((s) => s.objectId));
  }
  return ids;
}

async function surviving(vaultId: string, objectIds: string[], d: PurgeDeps = deps): Promise<number> {
  let found = 0;
  for (let i = 0; i < objectIds.length; i += 50) {
    const chunk = await Promise.all(
      objectIds.slice(i, i + 50).map((objectId) => d.vault.get({ organizationId: ORG, vaultId, objectId })),
    );
    found += chunk.filter(Boolean).length;
  }
  return found;
}

beforeAll(async () => {
  requireEmulators();
  ({ QueueUrl: queueUrl } = (await sqs.send(
    new CreateQueueCommand({ QueueName: `purge-tasks-${randomBytes(4).toString('hex')}` }),
  )) as { QueueUrl: string });
  const { stateMachineArn } = await sfn.send(
    new CreateStateMachineCommand({
      name: `purge-${randomBytes(4).toString('hex')}`,
      definition: synthesizedDefinition(queueUrl),
      roleArn: 'arn:aws:iam::123456789012:role/purge-state-machine',
    }),
  );
  const [tables, bucket] = await Promise.all([createAwsTables('purge'), createBucket('purge')]);
  const vault: VaultDocuments = new VaultStandIn(
    tables.vault,
    new S3BlobStore(bucket.name, bucket.client),
    systemClock,
  );
  const remove = vault.delete.bind(vault);
  let deletions = 0;
  // One failure mid-way: the 250th deletion (in the third page) fails once, as a throttled call would.
  vault.delete = async (ref: VaultRef) => {
    if (++deletions === 250) {
      injectedFailures++;
      throw new Error('ProvisionedThroughputExceeded (injected)');
    }
    return remove(ref);
  };
  deps = {
    tables,
    vault,
    workflows: new SfnWorkflows(() => stateMachineArn!, sfn),
    keys: awsKeys('alias/unused-by-the-purge'),
    queues: awsQueues(() => 'http://unused.invalid'),
    clock: systemClock,
    secrets: awsSecrets(), // never read by the purge; built lazily
  };
  worker = startTaskRunner();
}, 120_000);

afterAll(async () => {
  await worker?.stop();
});

async function settled(jobId: string, ms = 180_000, d: PurgeDeps = deps): Promise<JobView> {
  const deadline = Date.now() + ms;
  for (;;) {
    const job = (await getConnectorJob(d, ORG, jobId)) as JobView;
    if (job.status !== 'processing') return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still processing after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('purge workflow on moto Step Functions and DynamoDB Local', () => {
  it('purges 1,000 ledger entries in pages, retries a failed task, and touches no other connection', async () => {
    const purged = await revokedConnection();
    const kept = await revokedConnection();
    const ledger = Ledger.of(deps);
    const purgedIds = await seed(await link(purged, 'vlt_shared'), 1000, 'purged');
    const keptIds = await seed(await link(kept, 'vlt_shared'), 25, 'kept');

    const job = await startPurge(deps, ORG, purged, { pageSize: 100 });
    expect(job.status).toBe('processing');
    const view = await settled(job.id);

    expect(view).toMatchObject({ status: 'succeeded', counts: { deleted: 1000 } });
    expect(view.counts.pages).toBeGreaterThanOrEqual(10);
    expect(injectedFailures).toBe(1);
    // Every page ran once, the failed one twice, then the job was marked.
    const pages = tasksRun.filter((t) => t === 'purgePage').length;
    expect(pages).toBe(view.counts.pages + 1);
    expect(tasksRun.filter((t) => t === 'finishPurge')).toHaveLength(1);

    // The job is marked by the last task; the execution ends when Step Functions takes that task's
    // answer, a moment later (longer on a loaded machine): wait for it to leave RUNNING.
    const executionId = (await deps.tables.connectors.get<{ pk: string; sk: string; executionId: string }>({
      pk: `JOB#${job.id}`,
      sk: 'JOB',
    }))!.executionId;
    let execution = await deps.workflows.describe(executionId);
    for (let deadline = Date.now() + 30_000; execution?.status === 'RUNNING' && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 200));
      execution = await deps.workflows.describe(executionId);
    }
    expect(execution?.status).toBe('SUCCEEDED');

    expect(await ledger.isEmpty(purged)).toBe(true);
    expect(await surviving('vlt_shared', purgedIds)).toBe(0);
    expect(await surviving('vlt_shared', keptIds)).toBe(25);
    expect((await ledger.page(kept, { limit: 100 })).items).toHaveLength(25);
  }, 240_000);
});

/**
 * The production definition, Lambda tasks included, needs an endpoint that runs Lambda code and a
 * stack deployed there with its functions: LocalStack after `cdklocal deploy` (docs/deploy.md), with
 * the stack's outputs in the environment. moto cannot: its Lambda backend needs Docker.
 */
const DEPLOYED = process.env.DEPLOYED_STACK === '1';
const NOT_HERE =
  'the production purge definition (Lambda tasks) does not run here: moto cannot invoke Lambda code ' +
  'without Docker. It runs on LocalStack after `cdklocal deploy` with DEPLOYED_STACK=1, ' +
  'STATE_MACHINE_PURGE_ARN, TABLE_CONNECTORS, TABLE_VAULT and VAULT_BUCKET from the stack outputs (docs/deploy.md)';

afterAll(() => {
  if (!DEPLOYED) console.warn(`integration: ${NOT_HERE}`);
});

(DEPLOYED ? describe : describe.skip)(
  DEPLOYED
    ? 'purge workflow of a deployed stack (Lambda tasks)'
    : `production variant [skipped: ${NOT_HERE}]`,
  () => {
    it('purges a ledger through the deployed state machine and task Lambdas', async () => {
      const tables = awsTables();
      const stack: PurgeDeps = {
        ...deps,
        tables,
        vault: awsVault(tables, systemClock),
        workflows: awsWorkflows(),
      };
      const purged = await revokedConnection(stack);
      const ids = await seed(await link(purged, 'vlt_deployed', stack), 120, 'deployed', stack);
      const job = await startPurge(stack, ORG, purged, { pageSize: 50 });
      expect(await settled(job.id, 180_000, stack)).toMatchObject({
        status: 'succeeded',
        counts: { deleted: 120 },
      });
      expect(await surviving('vlt_deployed', ids, stack)).toBe(0);
    }, 240_000);
  },
);
