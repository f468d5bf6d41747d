// The functions' resource policies on the emulated AWS runtime: a service (API Gateway, EventBridge)
// invokes a function only if the template holds an AWS::Lambda::Permission letting that service call
// lambda:InvokeFunction on it from that source, as Lambda checks a function's policy on every call from
// another service. A call without one fails, naming the function, the service and the source. An SQS
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
  const allowed = permissions.some(
    (p) =>
      p.functionId === functionId &&
      p.principal === principal &&
      invokes(p.action) &&
      (p.sourceArn === undefined || arnMatches(p.sourceArn, sourceArn)),
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
