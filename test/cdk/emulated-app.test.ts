// What the emulated AWS runtime reads from the synthesized template: the
// functions with the deployment parameters where a local deployment's endpoints go, the SQS event
// source mappings and the schedule rules, each as the stack deploys them (the worker table's values
// reach the runtime only through the template).
import { apiMethodSpecs, eventSourceSpecs, functionSpecs, scheduleSpecs } from '../../lib/emulated-functions';
import { ROUTES } from '../../functions/routes';
import { localDeploymentContext, localParameters } from '../../lib/emulated-app';
import {
  QUEUE_NAMES,
  QUEUE_WORKERS,
  SCHEDULED_WORKERS,
  SCHEDULE_RETRY_ATTEMPTS,
} from '../../functions/platform/workers';
import { functionEnvironment } from '../../functions/dev-runtime/emulated-aws/function-pool';
import { synthStack } from '../support/synth';

const sandboxEnv = {
  PROVIDER_PRACTICE_AUTHORIZE_URL: 'http://localhost:3001/practice/authorize',
  PROVIDER_PRACTICE_TOKEN_URL: 'http://localhost:3001/practice/token',
  PROVIDER_PRACTICE_REVOKE_URL: 'http://localhost:3001/practice/revoke',
  PROVIDER_PRACTICE_ACCOUNT_URL: 'http://localhost:3001/practice/me',
  PROVIDER_PRACTICE_API_URL: 'http://localhost:3001/practice/api',
  PROVIDER_PRACTICE_CLIENT_ID: 'sandbox-practice',
  PROVIDER_PRACTICE_CLIENT_SECRET: 'not context: a secret',
};
const parameters = localParameters(sandboxEnv, 'http://localhost:3000');
const { stack, template } = synthStack({ context: localDeploymentContext(parameters) });

describe('the application the emulated runtime reads from the template', () => {
  it("gives each function the deployment parameters' values where the template has placeholders", () => {
    const specs = functionSpecs(stack, template);
    const open = specs.find((s) => s.id === 'openConnectLink')!;
    expect(open.environment.PROVIDER_PRACTICE_AUTHORIZE_URL).toEqual({
      parameter: 'PROVIDER_PRACTICE_AUTHORIZE_URL',
    });
    const env = functionEnvironment(open, (resource) => `value-of-${resource}`, {}, parameters);
    expect(env.PROVIDER_PRACTICE_AUTHORIZE_URL).toBe('http://localhost:3001/practice/authorize');
    expect(env.PUBLIC_BASE_URL).toBe('http://localhost:3000');
    expect(env.PROVIDER_PRACTICE_CLIENT_SECRET).toBeUndefined();
    expect(JSON.stringify(specs)).not.toContain('not context: a secret');
    // A parameter without a value is refused by name, as a deployment without it would fail.
    const { PROVIDER_PRACTICE_AUTHORIZE_URL: _missing, ...withoutOne } = parameters;
    expect(() => functionEnvironment(open, () => 'x', {}, withoutOne)).toThrow(
      'openConnectLink: the template sets PROVIDER_PRACTICE_AUTHORIZE_URL to the parameter PROVIDER_PRACTICE_AUTHORIZE_URL, which has no value',
    );
  });

  it('reads each SQS event source mapping with its batch, window, maximum concurrency and partial batch responses', () => {
    const mappings = eventSourceSpecs(stack, template);
    expect(mappings).toHaveLength(QUEUE_NAMES.length);
    for (const queue of QUEUE_NAMES) {
      const worker = QUEUE_WORKERS[queue];
      expect(mappings).toContainEqual({
        functionId: worker.id,
        queue: `queue:${queue}`,
        batchSize: worker.batchSize,
        batchingWindowSeconds: worker.batchingWindowSeconds,
        maxConcurrency: worker.maxConcurrency,
        reportBatchItemFailures: true,
      });
    }
  });

  it('reads each schedule rule with its rate and the target function’s asynchronous retries', () => {
    expect(scheduleSpecs(stack, template).sort((a, b) => a.functionId.localeCompare(b.functionId))).toEqual(
      SCHEDULED_WORKERS.map((w) => ({
        functionId: w.id,
        rateMinutes: w.rateMinutes,
        retryAttempts: SCHEDULE_RETRY_ATTEMPTS,
      })).sort((a, b) => a.functionId.localeCompare(b.functionId)),
    );
  });

  it("reads the REST API's methods: each route's path, function and timeout, and its authorizer with its TTL", () => {
    const methods = apiMethodSpecs(stack, template);
    expect(methods).toHaveLength(ROUTES.length);
    for (const route of ROUTES) {
      const method = methods.find((m) => m.method === route.method && m.path === route.path);
      expect({ route: route.id, functionId: method?.functionId }).toEqual({
        route: route.id,
        functionId: route.id,
      });
      expect(method!.integrationTimeoutSeconds).toBeLessThanOrEqual(29);
      if (route.auth === 'public') expect(method!.authorizer).toBeUndefined();
      else
        expect(method!.authorizer).toEqual({
          functionId: route.auth === 'apiKey' ? 'apiKeyAuthorizer' : 'consoleAuthorizer',
          ttlSeconds: 0, // the dev stage caches nothing; prod 60 s
          identityHeader: 'Authorization',
        });
    }
  });
});
