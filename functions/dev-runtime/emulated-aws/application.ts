// What the emulated AWS runtime runs, as read from the synthesized template (lib/emulated-app.ts
// builds it): each function with its handler module, memory, timeout and environment, the SQS event
// source mappings and the schedule rules. Plain data, so the runtime never loads the CDK.
import type { TemplateValue } from './function-pool';

export interface FunctionSpec {
  /** The id the runtimes invoke it by (route id, worker id, task id, apiKeyAuthorizer). */
  id: string;
  handlerModule: string;
  memorySize: number;
  timeoutSeconds: number;
  environment: Record<string, TemplateValue>;
}

/** An SQS event source mapping of the template: the queue (by the stack's name), the function, its settings. */
export interface EventSourceSpec {
  functionId: string;
  /** The stack's name of the queue (queue:events). */
  queue: string;
  batchSize: number;
  batchingWindowSeconds: number;
  maxConcurrency?: number;
  reportBatchItemFailures: boolean;
  /** The poller's SQS actions the function's execution role does not grant on the queue. */
  roleLacks: string[];
}

/** A schedule rule of the template and its one target. */
export interface ScheduleSpec {
  functionId: string;
  /** The rule's ARN, the source EventBridge invokes the function from. */
  ruleArn: string;
  /**
   * The target's dead-letter queue (the stack's name of it): where EventBridge sends the event it could
   * not deliver (refused by the function's resource policy, too large), if the queue's policy lets it.
   */
  deadLetterQueue?: string;
  /**
   * The function's on-failure destination (its EventInvokeConfig): the queue (the stack's name of it)
   * Lambda sends a failed asynchronous invocation's record to with the function's execution role, and
   * whether that role lacks sqs:SendMessage on it (Lambda then cannot deliver the record).
   */
  onFailure?: { queue: string; roleLacksSend: boolean };
  rateMinutes: number;
  /** The function's asynchronous retries (its EventInvokeConfig), which EventBridge's invocation gets. */
  retryAttempts: number;
}

/** A method of the template's REST API (AWS::ApiGateway::Method with a Lambda proxy integration). */
export interface ApiMethodSpec {
  method: string;
  /** The resource's path from the API's root, parameters in braces. */
  path: string;
  functionId: string;
  integrationTimeoutSeconds: number;
  /** A REQUEST authorizer (AWS::ApiGateway::Authorizer): its function, cache TTL and identity header. */
  authorizer?: { functionId: string; ttlSeconds: number; identityHeader: string; sourceArn: string };
}

/**
 * An AWS::Lambda::Permission of the template: the function's resource policy lets `principal` (a
 * service, apigateway.amazonaws.com) call `action` on it, from sources matching `sourceArn` (an ARN
 * pattern; any source without one).
 */
export interface PermissionSpec {
  functionId: string;
  action: string;
  principal: string;
  sourceArn?: string;
  /** The account the source must belong to (SourceAccount), for a source named without one. */
  sourceAccount?: string;
}

/**
 * A value of the template as the runtime provisions it: pseudo parameters and joins of literals rendered,
 * a reference to a resource of the stack named by the stack's name of it (`{ ref: 'queue:events' }` for
 * a Ref, `{ arn: 'dlq:events' }` for an Fn::GetAtt Arn; a function's as `function:<id>`), a join or an
 * Fn::Sub that keeps a reference as `{ parts }`, and what the runtime cannot resolve as `{ unresolved }`.
 */
export type ResourceValue =
  | string
  | number
  | boolean
  | null
  | ResourceValue[]
  | { ref: string }
  | { arn: string }
  | { parts: ResourceValue[] }
  | { unresolved: string }
  | { [key: string]: ResourceValue };

/** The resource types the emulators provision (moto, DynamoDB Local, the runtime's Step Functions). */
export const PROVISIONED_TYPES = [
  'AWS::DynamoDB::GlobalTable',
  'AWS::DynamoDB::Table',
  'AWS::SQS::Queue',
  'AWS::KMS::Key',
  'AWS::S3::Bucket',
  'AWS::StepFunctions::StateMachine',
] as const;
export type ProvisionedType = (typeof PROVISIONED_TYPES)[number];

/**
 * A resource of the template the runtime provisions: its type, the stack's name of it (table:platform,
 * queue:events, dlq:events, queue:schedules-failures, bucket:console-assets, ...: what its physical name
 * at the emulator is made from), its logical id and its properties as the template sets them. A queue
 * carries the policy documents of the template's AWS::SQS::QueuePolicy resources that name it.
 */
export interface ResourceSpec {
  type: ProvisionedType;
  name: string;
  logicalId: string;
  properties: Record<string, ResourceValue>;
  /** A queue's: the statements of every AWS::SQS::QueuePolicy of the template naming it. */
  policy?: ResourceValue;
}

export interface EmulatedApp {
  stage: 'dev' | 'prod';
  functions: FunctionSpec[];
  eventSources: EventSourceSpec[];
  schedules: ScheduleSpec[];
  /** The REST API's methods. */
  api: ApiMethodSpec[];
  /** The REST API's ARN prefix (arn:aws:execute-api:<region>:<account>:<api id>) and its stage's name. */
  restApi: { arn: string; stage: string };
  /** The functions' resource policies. */
  permissions: PermissionSpec[];
  /** Each function's execution role's ARN (as the template names it), by function id: key policies name them. */
  roles: Record<string, string>;
  /** Where the bundles are: bundleFileOf(bundleDir, handlerModule). */
  bundleDir: string;
}

/** The bundle file of a handler module under `outDir` (as lib/emulated-functions.ts builds it). */
export const bundleFileOf = (outDir: string, handlerModule: string): string =>
  `${outDir}/${handlerModule.split('/').join('--')}/index.mjs`;
