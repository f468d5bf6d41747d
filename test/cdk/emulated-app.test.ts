// What the emulated AWS runtime reads from the synthesized template: the
// functions with the deployment parameters where a local deployment's endpoints go, the SQS event
// source mappings and the schedule rules, each as the stack deploys them (the worker table's values
// reach the runtime only through the template).
import { Template } from 'aws-cdk-lib/assertions';
import type { ResourceSpec } from '../../lib/emulated-functions';
import {
  apiMethodSpecs,
  eventSourceSpecs,
  functionSpecs,
  functionsOfStack,
  parameterPlaceholder,
  permissionSpecs,
  resourceSpecs,
  restApiOf,
  roleArnsOf,
  scheduleSpecs,
} from '../../lib/emulated-functions';
import {
  API_GATEWAY,
  EVENTBRIDGE,
  KEY_USE_ACTIONS,
  apiGatewaySource,
  checkExecutionRole,
  checkInvokePermission,
  eventBridgeMaySend,
  keyPolicyAllows,
} from '../../functions/dev-runtime/emulated-aws/resource-policies';
import { PROVISIONED_TYPES } from '../../functions/dev-runtime/emulated-aws/application';
import type { ProvisionedResource } from '../../functions/dev-runtime/emulated-aws/provision';
import { resolveValue } from '../../functions/dev-runtime/emulated-aws/provision';
import type { TemplateJson } from '../support/synth';
import { policyDocumentsOfRole, roleIdOf, statementsOfRole } from '../support/synth';
import { ROUTES } from '../../functions/routes';
import { localDeploymentContext, localParameters } from '../../lib/emulated-app';
import {
  QUEUE_NAMES,
  QUEUE_WORKERS,
  SCHEDULED_WORKERS,
  SCHEDULE_RETRY_ATTEMPTS,
} from '../../functions/platform/workers';
import {
  ENVIRONMENT_LIMIT_BYTES,
  functionEnvironment,
} from '../../functions/dev-runtime/emulated-aws/function-pool';
import { synthStack } from '../support/synth';
import { startSandboxProvider } from '../../sandbox';
import { registerSandboxClients } from '../../functions/dev-runtime/hooks/sandbox-setup';

// Every provider pointed at the sandbox as `npm run start:aws` points them (each real one at its
// fake's origin): the environments below are the emulated deployment's.
const sandbox = await startSandboxProvider({ port: 0, host: '127.0.0.1' });
afterAll(() => sandbox.close());
const sandboxEnv = registerSandboxClients(sandbox, 'http://localhost:3000');
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
    expect(env.PROVIDER_PRACTICE_AUTHORIZE_URL).toBe(`${sandbox.url}/practice/authorize`);
    expect(env.PUBLIC_BASE_URL).toBe('http://localhost:3000');
    expect(env.PROVIDER_PRACTICE_CLIENT_SECRET).toBeUndefined();
    expect(JSON.stringify(specs)).not.toContain('not context: a secret');
    // A parameter without a value is refused by name, as a deployment without it would fail.
    const { PROVIDER_PRACTICE_AUTHORIZE_URL: _missing, ...withoutOne } = parameters;
    expect(() => functionEnvironment(open, () => 'x', {}, withoutOne)).toThrow(
      'openConnectLink: the template sets PROVIDER_PRACTICE_AUTHORIZE_URL to the parameter PROVIDER_PRACTICE_AUTHORIZE_URL, which has no value',
    );
  });

  it("takes a param value's own client (a region's) as a parameter, its secret as a secret setting", () => {
    const context = localDeploymentContext({
      PROVIDER_NETDOCUMENTS_CLIENT_ID: 'nd-shared',
      PROVIDER_NETDOCUMENTS_EU_CLIENT_ID: 'nd-eu',
      PROVIDER_NETDOCUMENTS_EU_CLIENT_SECRET: 'a secret',
      PROVIDER_IMANAGE_CLIENT_ID: 'im',
      PROVIDER_IMANAGE_ALLOWED_HOSTS: 'cloudimanage.com, *.firm.example',
    });
    const { providers } = JSON.parse(context.connectors as string) as {
      providers: Record<string, Record<string, unknown>>;
    };
    expect(providers.netdocuments!.clients).toEqual({
      EU: { clientId: parameterPlaceholder('PROVIDER_NETDOCUMENTS_EU_CLIENT_ID') },
    });
    expect(providers.imanage!.allowedHosts).toEqual(['cloudimanage.com', '*.firm.example']);
    expect(context.connectors).not.toContain('a secret');
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
        roleLacks: [],
      });
    }
  });

  it('reads each schedule rule with its rate, the target function’s asynchronous retries and its dead-letter queue', () => {
    expect(
      scheduleSpecs(stack, template)
        .map(({ ruleArn: _arn, ...rest }) => rest)
        .sort((a, b) => a.functionId.localeCompare(b.functionId)),
    ).toEqual(
      SCHEDULED_WORKERS.map((w) => ({
        functionId: w.id,
        rateMinutes: w.rateMinutes,
        retryAttempts: SCHEDULE_RETRY_ATTEMPTS,
        deadLetterQueue: 'queue:schedules-failures',
        onFailure: { queue: 'queue:schedules-failures', roleLacksSend: false },
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
          sourceArn: expect.stringMatching(/^arn:aws:execute-api:[^/]+\/authorizers\/\w+$/) as string,
        });
    }
  });
});

/** A request's path for a method's path: each parameter given a value. */
const requested = (path: string) => path.replace(/\{[^}]+\}/g, 'x1');

describe("the functions' resource policies on the emulated runtime", () => {
  const restApi = restApiOf(stack, template);
  const methods = apiMethodSpecs(stack, template);
  const authorizerSources = new Map(
    methods.flatMap((m) => (m.authorizer ? [[m.authorizer.functionId, m.authorizer.sourceArn]] : [])),
  );
  /** What API Gateway invokes for a method: its authorizer (if any), then its function. */
  const gatewayCalls = (m: (typeof methods)[number]) => [
    ...(m.authorizer
      ? [{ functionId: m.authorizer.functionId, event: { type: 'REQUEST', methodArn: 'any' } }]
      : []),
    { functionId: m.functionId, event: { httpMethod: m.method, path: requested(m.path) } },
  ];

  it('lets API Gateway invoke every method and authorizer, and EventBridge every scheduled function, from their sources', () => {
    const permissions = permissionSpecs(stack, template);
    for (const m of methods) {
      for (const call of gatewayCalls(m)) {
        const source = apiGatewaySource(restApi, authorizerSources, call.functionId, call.event);
        expect(() => checkInvokePermission(permissions, call.functionId, API_GATEWAY, source)).not.toThrow();
      }
    }
    for (const rule of scheduleSpecs(stack, template)) {
      expect(() =>
        checkInvokePermission(permissions, rule.functionId, EVENTBRIDGE, rule.ruleArn),
      ).not.toThrow();
    }
  });

  it('refuses, naming function, service and source, an invocation whose permission was deleted from the template', () => {
    const json = template.toJSON() as TemplateJson;
    const deleted = (predicate: (p: Record<string, unknown>) => boolean) => {
      const copy = structuredClone(json);
      for (const [id, r] of Object.entries(copy.Resources)) {
        if (r.Type === 'AWS::Lambda::Permission' && predicate(r.Properties)) delete copy.Resources[id];
      }
      return permissionSpecs(stack, Template.fromJSON(copy, { skipCyclicalDependenciesCheck: true }));
    };
    const sourceText = (p: Record<string, unknown>) => JSON.stringify(p.SourceArn);

    // One method's permission: that method is refused, its neighbours still served.
    const withoutProviders = deleted((p) => sourceText(p).includes('/GET/connectors/v1/providers"'));
    const providers = methods.find((m) => m.method === 'GET' && m.path === '/connectors/v1/providers')!;
    const source = apiGatewaySource(restApi, authorizerSources, providers.functionId, {
      httpMethod: 'GET',
      path: '/connectors/v1/providers',
    });
    expect(() => checkInvokePermission(withoutProviders, providers.functionId, API_GATEWAY, source)).toThrow(
      `apigateway.amazonaws.com may not invoke ${providers.functionId} from ${source}: the template has no AWS::Lambda::Permission allowing it`,
    );
    const other = methods.find((m) => m.functionId !== providers.functionId && !m.path.includes('{'))!;
    expect(() =>
      checkInvokePermission(
        withoutProviders,
        other.functionId,
        API_GATEWAY,
        apiGatewaySource(restApi, authorizerSources, other.functionId, {
          httpMethod: other.method,
          path: other.path,
        }),
      ),
    ).not.toThrow();

    // The authorizer's: every request it guards is refused.
    const withoutAuthorizer = deleted((p) => sourceText(p).includes('/authorizers/'));
    const authorizerSource = authorizerSources.get('apiKeyAuthorizer')!;
    expect(() =>
      checkInvokePermission(withoutAuthorizer, 'apiKeyAuthorizer', API_GATEWAY, authorizerSource),
    ).toThrow(/may not invoke apiKeyAuthorizer from .*\/authorizers\//);

    // A schedule's: EventBridge may not invoke the sweep.
    const sweep = scheduleSpecs(stack, template)[0]!;
    const ruleId = sweep.ruleArn.split('/').pop()!;
    const withoutRule = deleted((p) => p.Principal === EVENTBRIDGE && sourceText(p).includes(`"${ruleId}"`));
    expect(() => checkInvokePermission(withoutRule, sweep.functionId, EVENTBRIDGE, sweep.ruleArn)).toThrow(
      `events.amazonaws.com may not invoke ${sweep.functionId} from ${sweep.ruleArn}`,
    );
    // A permission for another source does not stand in for the rule's.
    expect(() =>
      checkInvokePermission(
        permissionSpecs(stack, template),
        sweep.functionId,
        EVENTBRIDGE,
        `${sweep.ruleArn}-other`,
      ),
    ).toThrow('may not invoke');
  });

  it("says when a function's execution role may not send to its on-failure destination", () => {
    const json = structuredClone(template.toJSON()) as TemplateJson;
    const sweep = scheduleSpecs(stack, template)[0]!;
    const documents = policyDocumentsOfRole(
      json,
      roleIdOf(stack, functionsOfStack(stack).get(sweep.functionId)!),
    );
    for (const document of documents) {
      for (const statement of document.Statement) {
        statement.Action = [statement.Action].flat().filter((a) => a !== 'sqs:SendMessage');
      }
    }
    const edited = Template.fromJSON(json, { skipCyclicalDependenciesCheck: true });
    const rule = scheduleSpecs(stack, edited).find((r) => r.functionId === sweep.functionId)!;
    expect(rule.onFailure).toEqual({ queue: 'queue:schedules-failures', roleLacksSend: true });
  });

  it("honours a permission's SourceAccount: the source's account must be the one it names", () => {
    const sweep = scheduleSpecs(stack, template)[0]!;
    const ruleId = sweep.ruleArn.split('/').pop()!;
    const withAccount = (account: string) => {
      const copy = structuredClone(template.toJSON()) as TemplateJson;
      for (const r of Object.values(copy.Resources)) {
        if (
          r.Type === 'AWS::Lambda::Permission' &&
          JSON.stringify(r.Properties.SourceArn).includes(`"${ruleId}"`)
        )
          r.Properties.SourceAccount = account;
      }
      return permissionSpecs(stack, Template.fromJSON(copy, { skipCyclicalDependenciesCheck: true }));
    };
    expect(() =>
      checkInvokePermission(withAccount(stack.account), sweep.functionId, EVENTBRIDGE, sweep.ruleArn),
    ).not.toThrow();
    expect(() =>
      checkInvokePermission(withAccount('999999999999'), sweep.functionId, EVENTBRIDGE, sweep.ruleArn),
    ).toThrow('may not invoke');
  });
});

describe('the resources the emulated runtime provisions from the template', () => {
  const specs = resourceSpecs(stack, template);

  it('names every resource of a type the emulators provision, each once, with nothing left unresolved', () => {
    const resources = template.toJSON().Resources as Record<string, { Type: string }>;
    const declared = Object.keys(resources).filter((id) =>
      (PROVISIONED_TYPES as readonly string[]).includes(resources[id]!.Type),
    );
    expect(specs.map((s) => s.logicalId).sort()).toEqual(declared.sort());
    expect(new Set(specs.map((s) => s.name)).size).toBe(specs.length);
    expect(specs.map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'table:platform',
        'queue:events',
        'dlq:events',
        'key:envelope',
        'workflow:purge',
      ]),
    );
    // Only what the runtime does not provision (the state machine's role and log group) stays unresolved.
    const unresolved = JSON.stringify(specs).match(/"unresolved":"[^"]*"/g) ?? [];
    expect(unresolved.every((u) => /PurgeLogs|PurgeStateMachineRole/.test(u))).toBe(true);
  });

  it("does not depend on the deployment's context, so the runtime provisions them before it has one", () => {
    const bare = synthStack();
    expect(resourceSpecs(bare.stack, bare.template)).toEqual(specs);
  });
});

/** The specs as if provisioned: each resource's ARN made from its name (what the policies compare). */
const provisionedAs = (specs: ResourceSpec[]): Record<string, ProvisionedResource> =>
  Object.fromEntries(
    specs.map((spec) => [
      spec.name,
      { spec, ref: spec.name, arn: `arn:aws:sqs:eu-west-1:123456789012:${spec.name.replace(':', '-')}` },
    ]),
  );

describe('the queue and key policies on the emulated runtime', () => {
  const json = () => structuredClone(template.toJSON()) as TemplateJson;
  const edited = (copy: TemplateJson) => Template.fromJSON(copy, { skipCyclicalDependenciesCheck: true });

  it("lets EventBridge send each rule's undeliverable events to its dead-letter queue, and not once the statement is gone", () => {
    const rules = scheduleSpecs(stack, template);
    expect(rules.map((r) => r.deadLetterQueue)).toEqual(rules.map(() => 'queue:schedules-failures'));
    const maySend = (specs: ResourceSpec[], ruleArn: string) => {
      const resources = provisionedAs(specs);
      const queue = resources['queue:schedules-failures']!;
      return eventBridgeMaySend(resolveValue(queue.spec.policy!, resources, 'policy'), queue.arn, ruleArn);
    };
    for (const rule of rules) expect(maySend(resourceSpecs(stack, template), rule.ruleArn)).toBe(true);
    // Another source, or no statement for the rule: refused.
    expect(maySend(resourceSpecs(stack, template), `${rules[0]!.ruleArn}-other`)).toBe(false);
    const copy = json();
    const ruleId = rules[0]!.ruleArn.split('/').pop()!;
    let removed = 0;
    for (const r of Object.values(copy.Resources)) {
      if (r.Type !== 'AWS::SQS::QueuePolicy') continue;
      const document = r.Properties.PolicyDocument as { Statement: unknown[] };
      const before = document.Statement.length;
      document.Statement = document.Statement.filter((s) => !JSON.stringify(s).includes(`"${ruleId}"`));
      removed += before - document.Statement.length;
    }
    expect(removed).toBe(1);
    const without = resourceSpecs(stack, edited(copy));
    expect(maySend(without, rules[0]!.ruleArn)).toBe(false);
    expect(maySend(without, rules[1]!.ruleArn)).toBe(true);
  });

  it("allows each function's role, in the key policy, every use of the key its own policy grants; not once its statement is gone", () => {
    const roles = roleArnsOf(stack, template);
    const key = resourceSpecs(stack, template).find((s) => s.type === 'AWS::KMS::Key')!;
    const keyArn = 'arn:aws:kms:eu-west-1:123456789012:key/k';
    let checked = 0;
    for (const [id, fn] of [...Object.entries(roles)]) {
      const granted = statementsOfRole(template, roleIdOf(stack, functionsOfStack(stack).get(id)!))
        .filter((s) => JSON.stringify(s.Resource).includes(key.logicalId))
        .flatMap((s) => [s.Action].flat())
        .filter((a) => KEY_USE_ACTIONS.includes(a));
      const allowed = keyPolicyAllows(key.properties.KeyPolicy, keyArn, fn);
      for (const action of granted) {
        expect([id, action, allowed[action]]).toEqual([id, action, true]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);

    const deliver = Object.entries(roles).find(([, arn]) => arn.includes('-Deliver-'))!;
    const copy = json();
    const keyPolicy = copy.Resources[key.logicalId]!.Properties.KeyPolicy as { Statement: unknown[] };
    keyPolicy.Statement = keyPolicy.Statement.filter((s) => !JSON.stringify(s).includes('-Deliver-'));
    const withoutDeliver = resourceSpecs(stack, edited(copy)).find((s) => s.type === 'AWS::KMS::Key')!;
    expect(keyPolicyAllows(withoutDeliver.properties.KeyPolicy, keyArn, deliver[1])['kms:Decrypt']).toBe(
      false,
    );
    // Administering the key is the account's, not a use of it by a function.
    expect(keyPolicyAllows(key.properties.KeyPolicy, keyArn, deliver[1])['kms:DescribeKey']).toBe(true);
  });
});

describe('the SQS event sources on the emulated runtime', () => {
  it("refuses a mapping whose function's execution role lost an action the poller needs on its queue", () => {
    const json = structuredClone(template.toJSON()) as TemplateJson;
    const worker = QUEUE_WORKERS.events;
    const documents = policyDocumentsOfRole(json, roleIdOf(stack, stack.queueWorkers.functions.events));
    let removed = 0;
    for (const document of documents) {
      for (const statement of document.Statement) {
        const actions = [statement.Action].flat();
        statement.Action = actions.filter((a) => a !== 'sqs:DeleteMessage');
        removed += actions.length - statement.Action.length;
      }
    }
    expect(removed).toBeGreaterThan(0);
    const edited = Template.fromJSON(json, { skipCyclicalDependenciesCheck: true });
    const mapping = eventSourceSpecs(stack, edited).find((m) => m.functionId === worker.id)!;
    expect(mapping.roleLacks).toEqual(['sqs:DeleteMessage']);
    expect(() => checkExecutionRole(mapping)).toThrow(
      `The event source mapping of queue:events to ${worker.id}: the function's execution role in the template does not allow sqs:DeleteMessage on queue:events`,
    );
    for (const other of eventSourceSpecs(stack, template))
      expect(() => checkExecutionRole(other)).not.toThrow();
  });
});

describe("Lambda's 4 KB environment limit on the template's functions", () => {
  it("keeps every function's own variables, resolved to emulator-length values, under 4 KB", () => {
    // An ARN or queue URL at the emulator is about as long as in AWS; a long one stands in for each.
    const long = (resource: string) =>
      `arn:aws:service:eu-west-1:123456789012:resource/ces-local-${resource}-0123456789abcdef`;
    for (const fn of functionSpecs(stack, template)) {
      const environment = functionEnvironment(fn, long, {}, parameters);
      const own = Object.fromEntries(Object.keys(fn.environment).map((k) => [k, environment[k]]));
      expect({ fn: fn.id, bytes: Buffer.byteLength(JSON.stringify(own)) <= ENVIRONMENT_LIMIT_BYTES }).toEqual(
        {
          fn: fn.id,
          bytes: true,
        },
      );
    }
  });
});
