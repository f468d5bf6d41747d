// The purge workflow as the CDK construct synthesizes it (its emulator variant: SQS callback tasks),
// executed by moto's Step Functions interpreter, with our own task code doing the work on DynamoDB
// Local through the aws adapters: a worker answers each task as the task Lambdas would.
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnQueue } from 'aws-cdk-lib/aws-sqs';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import {
  CreateStateMachineCommand,
  SendTaskFailureCommand,
  SendTaskSuccessCommand,
  SFNClient,
} from '@aws-sdk/client-sfn';
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { randomBytes } from 'node:crypto';
import { awsKeys, awsQueues, awsSecrets } from '../../functions/adapters/aws';
import { SfnWorkflows } from '../../functions/adapters/aws/sfn-workflows';
import { VaultTable } from '../../functions/adapters/aws/vault-table';
import type { ImportLinkRecord } from '../../functions/connectors/app/ledger';
import { importDocument, Ledger } from '../../functions/connectors/app/ledger';
import type { JobView } from '../../functions/connectors/app/purge';
import { getPurgeJob, startPurge } from '../../functions/connectors/app/purge';
import { ConnectorStore } from '../../functions/connectors/app/store';
import { systemClock } from '../../functions/platform/clock';
import type { Deps } from '../../functions/platform/ports';
import { newId } from '../../functions/platform/ids';
import type { VaultDocuments, Workflows } from '../../functions/platform/ports';
import type { PurgeTaskEnvelope } from '../../functions/connectors/infra/purge-definition';
import { runPurgeTask } from '../../functions/connectors/api/handlers/purge-tasks';
import { DataStores } from '../../lib/data';
import { PurgeWorkflow } from '../../lib/purge';
import { stageConfig } from '../../lib/stage-config';
import { createAwsTables, documentClient, requireEmulators } from '../support/emulators';

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
let stopWorker = false;
let worker: Promise<void>;
const tasksRun: string[] = [];
let injectedFailures = 0;

/** What the task Lambdas do in AWS, as a callback worker: receive, run our handler, report, delete. */
async function runWorker(): Promise<void> {
  while (!stopWorker) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    for (const message of Messages) {
      const { task, input, taskToken } = JSON.parse(message.Body!) as PurgeTaskEnvelope;
      tasksRun.push(task);
      try {
        const output = await runPurgeTask(deps, { task, input });
        await sfn.send(new SendTaskSuccessCommand({ taskToken, output: JSON.stringify(output) }));
      } catch (error) {
        const { name, message: cause } = error as Error;
        await sfn.send(new SendTaskFailureCommand({ taskToken, error: name, cause }));
      }
      await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }));
    }
  }
}

async function revokedConnection(): Promise<string> {
  const id = newId('conn');
  const now = Date.now();
  await new ConnectorStore(deps.tables.connectors).putConnection({
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

async function seed(link: ImportLinkRecord, count: number, prefix: string): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `${prefix}_${String(i).padStart(4, '0')}`);
  for (let i = 0; i < ids.length; i += 50) {
    await Promise.all(ids.slice(i, i + 50).map((objectId) => importDocument(deps, link, { objectId })));
  }
  return ids;
}

async function surviving(vaultId: string, objectIds: string[]): Promise<number> {
  let found = 0;
  for (let i = 0; i < objectIds.length; i += 50) {
    const chunk = await Promise.all(objectIds.slice(i, i + 50).map((o) => deps.vault.get(vaultId, o)));
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
  const tables = await createAwsTables('purge');
  const vault = new VaultTable(tables.vault.name, documentClient());
  const remove = vault.delete.bind(vault);
  let deletions = 0;
  // One failure mid-way: the 250th deletion (in the third page) fails once, as a throttled call would.
  vault.delete = async (vaultId, objectId) => {
    if (++deletions === 250) {
      injectedFailures++;
      throw new Error('ProvisionedThroughputExceeded (injected)');
    }
    return remove(vaultId, objectId);
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
  worker = runWorker();
}, 120_000);

afterAll(async () => {
  stopWorker = true;
  await worker;
});

async function settled(jobId: string, ms = 180_000): Promise<JobView> {
  const deadline = Date.now() + ms;
  for (;;) {
    const job = await getPurgeJob(deps, ORG, jobId);
    if (job.status !== 'processing') return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still processing after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('purge workflow on moto Step Functions and DynamoDB Local', () => {
  it('purges 1,000 ledger entries in pages, retries a failed task, and touches no other connection', async () => {
    const purged = await revokedConnection();
    const kept = await revokedConnection();
    const ledger = new Ledger(deps.tables.connectors);
    const link = await ledger.createLink(
      { connectionId: purged, organizationId: ORG, source: 'folder:/matters', vaultId: 'vlt_shared' },
      Date.now(),
    );
    const otherLink = await ledger.createLink(
      { connectionId: kept, organizationId: ORG, source: 'folder:/other', vaultId: 'vlt_shared' },
      Date.now(),
    );
    const purgedIds = await seed(link, 1000, 'obj_purged');
    const keptIds = await seed(otherLink, 25, 'obj_kept');

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

    const execution = await deps.workflows.describe(
      (await deps.tables.connectors.get<{ pk: string; sk: string; executionId: string }>({
        pk: `JOB#${job.id}`,
        sk: 'JOB',
      }))!.executionId,
    );
    expect(execution?.status).toBe('SUCCEEDED');

    expect(await ledger.isEmpty(purged)).toBe(true);
    expect(await surviving('vlt_shared', purgedIds)).toBe(0);
    expect(await surviving('vlt_shared', keptIds)).toBe(25);
    expect((await ledger.page(kept, { limit: 100 })).items).toHaveLength(25);
  }, 240_000);
});
