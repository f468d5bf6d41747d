// IAM, recorded: every AWS SDK call a function makes on the emulated AWS runtime,
// as (function, action, resource). Written once
// each to `<dataDir>/aws-calls.jsonl` when RECORD_AWS_CALLS=1, as each function's execution environment
// reports them (./function-pool.ts); the e2e-aws tier checks each line
// against that function's role policy in the synthesized template (test/support/iam-check.ts).
// Resources are named by what the stack calls them (table:platform, queue:deliveries, key:envelope),
// so the emulator's prefixed names and the template's logical ids meet in one vocabulary.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AwsService } from '../../compose/aws';

export const AWS_CALLS_FILE = 'aws-calls.jsonl';

export interface RecordedCall {
  function: string;
  action: string;
  resource: string;
}

const IAM_PREFIX: Record<AwsService, string> = {
  DynamoDB: 'dynamodb',
  KMS: 'kms',
  SQS: 'sqs',
  SFN: 'states',
  S3: 's3',
  SecretsManager: 'secretsmanager',
};

type Input = Record<string, unknown> | undefined;

/**
 * The IAM actions a call needs where they are not its API name: a DynamoDB transaction needs each of
 * its items' actions, an SQS batch the single action, S3's HeadObject GetObject and so on.
 */
const ACTION_OF: Record<string, string> = {
  'sqs:SendMessageBatch': 'sqs:SendMessage',
  'sqs:DeleteMessageBatch': 'sqs:DeleteMessage',
  'sqs:ChangeMessageVisibilityBatch': 'sqs:ChangeMessageVisibility',
  's3:HeadObject': 's3:GetObject',
  's3:DeleteObjects': 's3:DeleteObject',
  's3:ListObjectsV2': 's3:ListBucket',
};
const TRANSACT_ACTION: Record<string, string> = {
  Put: 'dynamodb:PutItem',
  Update: 'dynamodb:UpdateItem',
  Delete: 'dynamodb:DeleteItem',
  ConditionCheck: 'dynamodb:ConditionCheckItem',
  Get: 'dynamodb:GetItem',
};

/** What IAM authorizes for one call: (action, resource) pairs, resources by the stack's names. */
export function iamCallsOf(
  service: AwsService,
  command: string,
  input: Input,
  prefix: string,
): { action: string; resource: string }[] {
  const strip = (name: string) => (name.startsWith(`${prefix}-`) ? name.slice(prefix.length + 1) : name);
  const named = `${IAM_PREFIX[service]}:${command}`;
  const action = ACTION_OF[named] ?? named;
  const one = (resource: string) => [{ action, resource }];
  switch (service) {
    case 'DynamoDB': {
      const items = (input?.TransactItems as Record<string, { TableName?: string }>[] | undefined) ?? [];
      if (items.length) {
        return items.flatMap((item) =>
          Object.entries(item).map(([op, body]) => ({
            action: TRANSACT_ACTION[op] ?? named,
            resource: `table:${strip(body?.TableName ?? '')}`,
          })),
        );
      }
      const names = new Set<string>();
      if (typeof input?.TableName === 'string') names.add(input.TableName);
      for (const name of Object.keys((input?.RequestItems as object | undefined) ?? {})) names.add(name);
      return [...names].map((n) => ({ action, resource: `table:${strip(n)}` }));
    }
    case 'SQS': {
      const name = strip(
        String(input?.QueueUrl ?? '')
          .split('/')
          .pop() ?? '',
      );
      return one(name.endsWith('-dlq') ? `dlq:${name.slice(0, -4)}` : `queue:${name}`);
    }
    case 'KMS':
      return one('key:envelope');
    case 'S3':
      return one(`bucket:${strip(String(input?.Bucket ?? ''))}`);
    case 'SFN': {
      const arn = String(input?.stateMachineArn ?? input?.executionArn ?? '');
      return one(`workflow:${strip(arn.split(':')[6] ?? '')}`);
    }
    case 'SecretsManager': {
      // By ARN (arn:...:secret:<prefix>-<NAME>-<6 characters>) or by name: the setting's NAME.
      const id = String(input?.SecretId ?? input?.Name ?? '');
      const name = id.startsWith('arn:') ? (id.split(':')[6] ?? '').replace(/-[A-Za-z0-9]{6}$/, '') : id;
      return one(`secret:${strip(name)}`);
    }
  }
}

/**
 * The recorder of the functions' calls (the function pool's onCall): each (function, action, resource)
 * written once to `<dataDir>/aws-calls.jsonl`.
 */
export function awsCallRecorder(
  dataDir: string,
  prefix: string,
): (functionId: string, call: { service: AwsService; command: string; input: unknown }) => void {
  const file = join(dataDir, AWS_CALLS_FILE);
  const seen = new Set<string>();
  return (fn, { service, command, input }) => {
    for (const { action, resource } of iamCallsOf(service, command, input as Input, prefix)) {
      const call: RecordedCall = { function: fn, action, resource };
      const line = JSON.stringify(call);
      if (seen.has(line)) continue;
      seen.add(line);
      appendFileSync(file, `${line}\n`);
    }
  };
}
