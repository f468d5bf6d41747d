// The purge workflow's Amazon States Language definition, as data: the CDK construct deploys it, the
// local runtime interprets it, the integration test runs it on moto. Only the Task resource differs
// per environment (docs/notes/step-functions-on-moto.md): a Lambda in AWS and locally, an SQS
// callback on the emulator. Every Task sits in a one-branch Parallel that carries the Retry, so each
// attempt is a fresh task (and a fresh token on callback tasks).
import type { AslDefinition, AslState } from '../../platform/asl';

export type PurgeTask = 'purgePage' | 'finishPurge';

export const PURGE_TASKS: readonly PurgeTask[] = ['purgePage', 'finishPurge'];

export type PurgeTaskTarget =
  /** Invoke a Lambda per task, its result being the task's output (LambdaInvoke, payloadResponseOnly). */
  | { kind: 'lambda'; functionArns: Record<PurgeTask, string> }
  /** Send the task to a queue and wait for a worker's SendTaskSuccess/SendTaskFailure. */
  | { kind: 'sqsCallback'; queueUrl: string };

export interface PurgeRetry {
  intervalSeconds: number;
  backoffRate: number;
  maxAttempts: number;
  maxDelaySeconds?: number;
}

/** About three minutes of retries: 2, 4, 8, 16, 32, 60, 60 s. */
export const PRODUCTION_RETRY: PurgeRetry = {
  intervalSeconds: 2,
  backoffRate: 2,
  maxAttempts: 7,
  maxDelaySeconds: 60,
};

/**
 * What the deployed state machine runs with, on AWS (lib/purge.ts) and on the emulated runtime alike:
 * production retries, two minutes per task attempt, a day per execution.
 */
export const DEPLOYED_PURGE_SETTINGS = {
  retry: PRODUCTION_RETRY,
  taskTimeoutSeconds: 120,
  timeoutSeconds: 24 * 3600,
} as const satisfies Omit<PurgeDefinitionProps, 'target'>;

/** The error a task throws when retrying cannot help (unknown job, another organization's job). */
export const PURGE_REFUSED = 'PurgeRefused';

export interface PurgeDefinitionProps {
  target: PurgeTaskTarget;
  retry?: PurgeRetry;
  /** Per task attempt; a Lambda target should be longer than the function's own timeout. */
  taskTimeoutSeconds?: number;
  /** The whole execution. */
  timeoutSeconds?: number;
}

/** What a task receives: its name and the state it runs on (plus the callback token on SQS). */
export interface PurgeTaskEnvelope {
  task: PurgeTask;
  input: unknown;
  taskToken?: string;
}

function task(name: PurgeTask, props: PurgeDefinitionProps): AslState {
  const { target } = props;
  const common = { Type: 'Task' as const, TimeoutSeconds: props.taskTimeoutSeconds ?? 120, End: true };
  if (target.kind === 'lambda') {
    return { ...common, Resource: target.functionArns[name], Parameters: { task: name, 'input.$': '$' } };
  }
  return {
    ...common,
    Resource: 'arn:aws:states:::sqs:sendMessage.waitForTaskToken',
    Parameters: {
      QueueUrl: target.queueUrl,
      MessageBody: { task: name, 'input.$': '$', 'taskToken.$': '$$.Task.Token' },
    },
  };
}

/** A task inside a one-branch Parallel that carries the retries; its output lands at `$.result.value`. */
function step(stateName: string, name: PurgeTask, props: PurgeDefinitionProps, next: string): AslState {
  const retry = props.retry ?? PRODUCTION_RETRY;
  return {
    Type: 'Parallel',
    Branches: [{ StartAt: `${stateName}Task`, States: { [`${stateName}Task`]: task(name, props) } }],
    ResultSelector: { 'value.$': '$[0]' },
    ResultPath: '$.result',
    Retry: [
      { ErrorEquals: [PURGE_REFUSED], MaxAttempts: 0 },
      {
        ErrorEquals: ['States.ALL'],
        IntervalSeconds: retry.intervalSeconds,
        BackoffRate: retry.backoffRate,
        MaxAttempts: retry.maxAttempts,
        ...(retry.maxDelaySeconds ? { MaxDelaySeconds: retry.maxDelaySeconds } : {}),
      },
    ],
    Next: next,
  };
}

const job = {
  'jobId.$': '$.jobId',
  'organizationId.$': '$.organizationId',
  'connectionId.$': '$.connectionId',
};

/**
 * Input: {jobId, organizationId, connectionId, cursor: null, pageSize, pages: 0}. Deletes a page of the
 * connection's ledger per DeletePage until a page says it was the last, then marks the job; when the
 * final check finds entries runs were still writing, FinishJob answers `processing` and the ledger gets
 * another pass; any step that still fails after its retries marks the job failed and fails the execution.
 */
export function purgeDefinition(props: PurgeDefinitionProps): AslDefinition {
  return {
    Comment: "Purge on disconnect: delete every vault document in a connection's ledgers, page by page",
    StartAt: 'DeletePage',
    ...(props.timeoutSeconds ? { TimeoutSeconds: props.timeoutSeconds } : {}),
    States: {
      DeletePage: {
        ...step('DeletePage', 'purgePage', props, 'MorePages?'),
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'PurgeFailed' }],
      },
      'MorePages?': {
        Type: 'Choice',
        Choices: [{ Variable: '$.result.value.done', BooleanEquals: false, Next: 'NextPage' }],
        Default: 'PurgeSucceeded',
      },
      NextPage: {
        Type: 'Pass',
        Parameters: {
          ...job,
          'pageSize.$': '$.pageSize',
          'cursor.$': '$.result.value.cursor',
          'pages.$': 'States.MathAdd($.pages, 1)',
        },
        Next: 'DeletePage',
      },
      PurgeSucceeded: {
        Type: 'Pass',
        Parameters: {
          ...job,
          outcome: 'succeeded',
          'pageSize.$': '$.pageSize',
          'pages.$': 'States.MathAdd($.pages, 1)',
        },
        Next: 'FinishJob',
      },
      PurgeFailed: {
        Type: 'Pass',
        Parameters: { ...job, outcome: 'failed', 'pages.$': '$.pages', 'error.$': '$.error' },
        Next: 'FinishJob',
      },
      FinishJob: step('FinishJob', 'finishPurge', props, 'Outcome?'),
      'Outcome?': {
        Type: 'Choice',
        Choices: [
          { Variable: '$.result.value.status', StringEquals: 'succeeded', Next: 'Succeeded' },
          // Entries runs were still writing remained: another pass from the start of the ledger.
          { Variable: '$.result.value.status', StringEquals: 'processing', Next: 'NextPass' },
        ],
        Default: 'Failed',
      },
      NextPass: {
        Type: 'Pass',
        Parameters: { ...job, 'pageSize.$': '$.pageSize', cursor: null, 'pages.$': '$.pages' },
        Next: 'DeletePage',
      },
      Succeeded: { Type: 'Succeed' },
      Failed: {
        Type: 'Fail',
        Error: 'PurgeFailed',
        Cause: 'The purge did not complete; the job record holds the reason',
      },
    },
  };
}
