// The resource policies on the emulated AWS runtime. A service (API Gateway, EventBridge) invokes a
// function only if the template holds an AWS::Lambda::Permission letting that service call
// lambda:InvokeFunction on it from that source (and account, if it names one), as Lambda checks a
// function's policy on every call from another service. EventBridge sends an event it could not
// deliver to the rule's dead-letter queue only if the queue's policy lets it; a function uses the key
// only for what the key policy allows its role (evaluateResourcePolicy). A call without one fails, naming the function, the service and the source. An SQS
// event source mapping has no resource policy: Lambda's poller receives and deletes with the function's
// execution role, so a mapping whose role lacks those actions on its queue is refused at start, as
// Lambda refuses to create it.
import type { EventSourceSpec, PermissionSpec } from './application';
import { arnMatches } from '../server/api-gateway';

export const API_GATEWAY = 'apigateway.amazonaws.com';
export const EVENTBRIDGE = 'events.amazonaws.com';

/** A call a function's resource policy does not allow (Lambda's AccessDeniedException). */
export class InvokePermissionError extends Error {
  constructor(functionId: string, principal: string, sourceArn: string) {
    super(
      `${principal} may not invoke ${functionId} from ${sourceArn}: the template has no AWS::Lambda::Permission ` +
        "allowing it (the function's resource policy)",
    );
    this.name = 'AccessDeniedException';
  }
}

/** Whether a permission's action covers invoking. */
const invokes = (action: string) => arnMatches(action.toLowerCase(), 'lambda:invokefunction');

/** Refuses an invocation of `functionId` by `principal` from `sourceArn` that no permission allows. */
export function checkInvokePermission(
  permissions: readonly PermissionSpec[],
  functionId: string,
  principal: string,
  sourceArn: string,
): void {
  // The source's account (an execute-api or rule ARN names it), for a permission's SourceAccount.
  const sourceAccount = sourceArn.split(':')[4];
  const allowed = permissions.some(
    (p) =>
      p.functionId === functionId &&
      p.principal === principal &&
      invokes(p.action) &&
      (p.sourceArn === undefined || arnMatches(p.sourceArn, sourceArn)) &&
      (p.sourceAccount === undefined || p.sourceAccount === sourceAccount),
  );
  if (!allowed) throw new InvokePermissionError(functionId, principal, sourceArn);
}

/**
 * The source API Gateway invokes from: an authorizer's (`<api>/authorizers/<id>`, given per
 * authorizer function) for a REQUEST authorizer's event, else the method's own
 * (`<api>/<stage>/<METHOD>/<path as requested>`).
 */
export function apiGatewaySource(
  restApi: { arn: string; stage: string },
  authorizerSources: ReadonlyMap<string, string>,
  functionId: string,
  event: unknown,
): string {
  const e = event as { type?: string; methodArn?: string; httpMethod?: string; path?: string };
  if (e.type === 'REQUEST' && e.methodArn !== undefined) {
    return authorizerSources.get(functionId) ?? `${restApi.arn}/authorizers/(none for ${functionId})`;
  }
  return `${restApi.arn}/${restApi.stage}/${e.httpMethod}${e.path}`;
}

/** An event source mapping Lambda would refuse at deployment (InvalidParameterValueException). */
export class EventSourceRoleError extends Error {
  constructor(functionId: string, queue: string, lacks: string[]) {
    super(
      `The event source mapping of ${queue} to ${functionId}: the function's execution role in the template ` +
        `does not allow ${lacks.join(', ')} on ${queue}`,
    );
    this.name = 'InvalidParameterValueException';
  }
}

/** Refuses a mapping whose function's execution role lacks what the poller calls on its queue. */
export function checkExecutionRole(mapping: EventSourceSpec): void {
  if (mapping.roleLacks.length) {
    throw new EventSourceRoleError(mapping.functionId, mapping.queue, mapping.roleLacks);
  }
}

/** Who makes a call a resource policy is asked about: a service, or a role of the account. */
export type PolicyPrincipal = { service: string } | { arn: string; account: string };

/** A call as a resource-based policy sees it: who, what, on which resource, with which context keys. */
export interface PolicyRequest {
  principal: PolicyPrincipal;
  action: string;
  resource: string;
  /** Condition keys: aws:SourceArn, aws:SourceAccount, aws:PrincipalArn, aws:SecureTransport, ... */
  context: Record<string, string>;
}

type PolicyStatement = {
  Effect?: string;
  Principal?: unknown;
  Action?: string | string[];
  Resource?: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
};

const listOf = (value: unknown): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)];

function principalMatches(principal: unknown, who: PolicyPrincipal): boolean {
  if (principal === '*') return true;
  const p = (principal ?? {}) as { Service?: unknown; AWS?: unknown };
  if ('service' in who) return listOf(p.Service).includes(who.service) || listOf(p.AWS).includes('*');
  return listOf(p.AWS).some(
    (arn) =>
      arn === '*' || arn === who.arn || arn === who.account || arn === `arn:aws:iam::${who.account}:root`,
  );
}

/**
 * The condition operators the template's policies use, each over the request's context key. A key
 * the request lacks fails its condition (no ...IfExists operator is used); an operator not listed
 * here fails too: the runtime refuses what it cannot evaluate rather than allow it.
 */
const OPERATORS: Record<string, (pattern: string, value: string) => boolean> = {
  ArnEquals: (p, v) => p === v,
  ArnLike: (p, v) => arnMatches(p, v),
  StringEquals: (p, v) => p === v,
  StringLike: (p, v) => arnMatches(p, v),
  Bool: (p, v) => p.toLowerCase() === v.toLowerCase(),
};

function conditionsHold(condition: PolicyStatement['Condition'], context: Record<string, string>): boolean {
  return Object.entries(condition ?? {}).every(([operator, keys]) => {
    const test = OPERATORS[operator];
    if (!test) return false;
    return Object.entries(keys).every(([key, patterns]) => {
      const value =
        context[key] ?? Object.entries(context).find(([k]) => k.toLowerCase() === key.toLowerCase())?.[1];
      return value !== undefined && listOf(patterns).some((pattern) => test(pattern, value));
    });
  });
}

/**
 * A resource-based policy's answer to a request, as IAM evaluates one: an explicit Deny wins, else an
 * Allow whose principal, action, resource and conditions all match, else nothing (the caller's own
 * policies may still allow a principal of the account; a service has only the resource policy).
 */
export function evaluateResourcePolicy(policy: unknown, request: PolicyRequest): 'Allow' | 'Deny' | 'None' {
  const statements = listOfStatements(policy);
  const matching = statements.filter(
    (s) =>
      principalMatches(s.Principal, request.principal) &&
      listOf(s.Action).some((a) => arnMatches(a.toLowerCase(), request.action.toLowerCase())) &&
      (s.Resource === undefined || listOf(s.Resource).some((r) => arnMatches(r, request.resource))) &&
      conditionsHold(s.Condition, request.context),
  );
  if (matching.some((s) => s.Effect === 'Deny')) return 'Deny';
  return matching.some((s) => s.Effect === 'Allow') ? 'Allow' : 'None';
}

const listOfStatements = (policy: unknown): PolicyStatement[] => {
  const statement = (policy as { Statement?: unknown } | undefined)?.Statement;
  return (Array.isArray(statement) ? statement : statement ? [statement] : []) as PolicyStatement[];
};

/**
 * Whether EventBridge may send a rule's undeliverable event to its dead-letter queue: the queue's
 * policy must allow events.amazonaws.com sqs:SendMessage with the rule as aws:SourceArn (services
 * call over TLS).
 */
export function eventBridgeMaySend(queuePolicy: unknown, queueArn: string, ruleArn: string): boolean {
  const account = ruleArn.split(':')[4] ?? '';
  return (
    evaluateResourcePolicy(queuePolicy, {
      principal: { service: EVENTBRIDGE },
      action: 'sqs:SendMessage',
      resource: queueArn,
      context: { 'aws:SourceArn': ruleArn, 'aws:SourceAccount': account, 'aws:SecureTransport': 'true' },
    }) === 'Allow'
  );
}

/**
 * The key's data-plane actions a function's calls are checked for against the key policy: what the
 * functions' KMS clients can send with a key (the service's other actions administer the key).
 */
export const KEY_USE_ACTIONS = [
  'kms:Decrypt',
  'kms:Encrypt',
  'kms:GenerateDataKey',
  'kms:GenerateDataKeyWithoutPlaintext',
  'kms:ReEncryptFrom',
  'kms:ReEncryptTo',
  'kms:DescribeKey',
];

/**
 * Which of KEY_USE_ACTIONS a key policy lets a role of the account use the key for. A key policy must
 * allow a role itself (by its ARN, or the account with an aws:PrincipalArn condition naming it), or
 * the account without conditions, which hands the decision to IAM alone: KMS refuses a call the key
 * policy does not allow, whatever the role's own policy grants.
 */
export function keyPolicyAllows(
  keyPolicy: unknown,
  keyArn: string,
  roleArn: string,
): Record<string, boolean> {
  const account = roleArn.split(':')[4] ?? '';
  return Object.fromEntries(
    KEY_USE_ACTIONS.map((action) => [
      action,
      evaluateResourcePolicy(keyPolicy, {
        principal: { arn: roleArn, account },
        action,
        resource: keyArn,
        context: {
          'aws:PrincipalArn': roleArn,
          'aws:PrincipalAccount': account,
          'aws:SecureTransport': 'true',
        },
      }) === 'Allow',
    ]),
  );
}
