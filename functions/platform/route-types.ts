// The shape of a route-table entry: everything the CDK stack, the local server and the OpenAPI
// generator need to know about a route, including what it may touch (its IAM grants).
import type { Permission } from './permissions';
import type { QueueName, TableName, WorkflowName } from './ports';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteUses {
  tables?: Partial<Record<TableName, 'read' | 'write'>>;
  /** encrypt: GenerateDataKey; decrypt: Decrypt; both. */
  kms?: 'encrypt' | 'decrypt' | 'both';
  queues?: QueueName[];
  /** start: StartExecution (and DescribeExecution); describe: DescribeExecution only. */
  workflows?: Partial<Record<WorkflowName, 'start' | 'describe'>>;
}

export interface RouteDefinition {
  /** Unique, stable: names the Lambda function and the OpenAPI operation. */
  id: string;
  method: HttpMethod;
  /** API Gateway resource path, with {param} segments. */
  path: string;
  /** Module under functions/ (without extension) whose `handler` export serves the route. */
  handler: string;
  /** apiKey: the Lambda authorizer; public: a browser or the provider calls it; console: a console session. */
  auth: 'apiKey' | 'public' | 'console';
  permission?: Permission;
  /** Only system keys may call it (platform services publishing events). */
  systemOnly?: boolean;
  summary: string;
  uses: RouteUses;
  /** The Lambda's timeout (default 10 s; API Gateway waits 29 s at most). */
  timeoutSeconds?: number;
}
