// Wiring of the platform: functions, authorizer on every API-key route, tables, key, gateway errors.
import { Match } from 'aws-cdk-lib/assertions';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RouteUses } from '../../functions/platform/route-types';
import type { TableName } from '../../functions/platform/ports';
import { API_KEY_AUTHORIZER, CONSOLE_AUTHORIZER, ROUTES } from '../../functions/routes';
import { TABLE_NAMES } from '../../functions/platform/tables';
import type { QueueName } from '../../functions/platform/workers';
import {
  QUEUE_NAMES,
  QUEUE_WORKERS,
  SCHEDULED_WORKERS,
  WORKFLOW_TASKS,
} from '../../functions/platform/workers';
import { KEY_ADMIN_ACTIONS } from '../../lib/data';
import type { PurgeWorkflow } from '../../lib/purge';
import {
  LOGS_POLICY,
  ServiceFunction,
  TABLE_ACTIONS,
  VAULT_BUCKET_ACTIONS,
  sourceMapsDirOf,
} from '../../lib/service-function';
import type { ServiceStack } from '../../lib/service-stack';
import { actionsOf, logicalIdOf, resourcesOf, statementsOfRole, synthStack } from '../support/synth';

const { stack, template } = synthStack();

type Resources = Record<string, { Properties: Record<string, unknown> }>;

describe('service stack (dev)', () => {
  it('makes one Lambda per route plus the authorizer, all nodejs22.x on arm64 with tracing', () => {
    const functions = template.findResources('AWS::Lambda::Function') as Resources;
    const ours = Object.values(functions).filter((f) => f.Properties.Runtime === 'nodejs22.x');
    expect(ours.length).toBeGreaterThanOrEqual(ROUTES.length + 1);
    for (const fn of ours) {
      expect(fn.Properties.Architectures).toEqual(['arm64']);
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
      expect(fn.Properties.Handler).toBe('index.handler');
      const variables = (fn.Properties.Environment as { Variables: Record<string, string> }).Variables;
      expect(variables).toMatchObject({ STAGE: 'dev' });
      // Source maps are read when an error is logged (functions/platform/stack-trace.ts), not at load.
      expect(variables.NODE_OPTIONS ?? '').not.toMatch(/source-maps/);
    }
  });

  it('gives each route its Lambda timeout (10 s unless the route table says otherwise)', () => {
    for (const route of ROUTES) {
      const fn = stack.api.functions.get(route.id)!.fn.node.defaultChild as unknown as { timeout: number };
      expect({ route: route.id, timeout: fn.timeout }).toEqual({
        route: route.id,
        timeout: route.timeoutSeconds ?? 10,
      });
    }
    expect(ROUTES.find((r) => r.id === 'testWebhookEndpoint')?.timeoutSeconds).toBe(20);
  });

  it('puts an authorizer on every route but the public ones', () => {
    const methods = template.findResources('AWS::ApiGateway::Method') as Resources;
    const byOperation = new Map(
      Object.values(methods).map((m) => [m.Properties.OperationName as string, m.Properties]),
    );
    for (const route of ROUTES) {
      const method = byOperation.get(route.id);
      expect(method).toEqual(expect.objectContaining({ HttpMethod: route.method }));
      expect(method!.HttpMethod).toBe(route.method);
      expect(method!.AuthorizationType).toBe(route.auth === 'public' ? 'NONE' : 'CUSTOM');
    }
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.Authorization',
      AuthorizerResultTtlInSeconds: 0,
    });
  });

  it('gives the authorizer read access to the platform table and nothing else', () => {
    expect(actionsOf(template, stack, 'authorizer').filter((a) => !a.startsWith('xray:'))).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:GetItem',
      'dynamodb:Query',
    ]);
    const platformTable = logicalIdOf(stack.data.tables.platform.node.defaultChild as never);
    expect(resourcesOf(template, stack, 'authorizer', 'dynamodb:')).toEqual([platformTable]);
  });

  it('grants read-only routes no DynamoDB write action', () => {
    for (const route of ROUTES) {
      const writes = Object.values(route.uses.tables ?? {}).includes('write') || route.auth === 'apiKey';
      const actions = actionsOf(template, stack, route.id).filter((a) => a.startsWith('dynamodb:'));
      expect(
        actions.every((a) =>
          [
            'dynamodb:GetItem',
            'dynamodb:BatchGetItem',
            'dynamodb:Query',
            'dynamodb:PutItem',
            'dynamodb:UpdateItem',
            'dynamodb:DeleteItem',
          ].includes(a),
        ),
      ).toBe(true);
      // A route that names no table (the public GET /openapi.json) gets no DynamoDB action at all.
      const reads = route.uses.tables ? ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query'] : [];
      if (!writes) expect(actions).toEqual(reads);
    }
  });

  it('lets every API-key route write its rate-limit bucket', () => {
    const ratelimits = logicalIdOf(stack.data.tables.ratelimits.node.defaultChild as never);
    for (const route of ROUTES.filter((r) => r.auth === 'apiKey')) {
      expect(resourcesOf(template, stack, route.id, 'dynamodb:PutItem')).toContain(ratelimits);
    }
  });

  it('grants KMS only to routes that declare it', () => {
    for (const route of ROUTES) {
      const kms = actionsOf(template, stack, route.id).filter((a) => a.startsWith('kms:'));
      const expected = {
        encrypt: ['kms:GenerateDataKey'],
        decrypt: ['kms:Decrypt'],
        both: ['kms:Decrypt', 'kms:GenerateDataKey'],
      };
      expect(kms).toEqual(route.uses.kms ? expected[route.uses.kms] : []);
    }
  });

  it('encrypts tables, keeps point-in-time recovery and expires items by TTL', () => {
    const tables = template.findResources('AWS::DynamoDB::GlobalTable') as Resources;
    expect(Object.keys(tables)).toHaveLength(TABLE_NAMES.length);
    for (const table of Object.values(tables)) {
      expect(table.Properties.SSESpecification).toMatchObject({ SSEEnabled: true });
      expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'ttl', Enabled: true });
      expect(table.Properties.Replicas).toEqual([
        expect.objectContaining({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }),
      ]);
    }
  });

  it('rotates the envelope key', () => {
    template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
  });

  it('encrypts every queue, refuses plain HTTP to it, and gives it a dead-letter queue', () => {
    const queues = template.findResources('AWS::SQS::Queue') as Resources;
    const withDlq = Object.values(queues).filter((q) => q.Properties.RedrivePolicy);
    expect(withDlq.length).toBeGreaterThanOrEqual(2);
    for (const queue of Object.values(queues)) expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('answers gateway errors in the common error body', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'UNAUTHORIZED',
      StatusCode: '401',
      ResponseTemplates: {
        'application/json': JSON.stringify({
          error: { code: 'AUTH_INVALID', message: 'Missing or invalid API key' },
        }),
      },
    });
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'DEFAULT_5XX',
      StatusCode: '500',
    });
  });
});

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Principal?: unknown };
const list = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);
const refsIn = (value: unknown): string[] =>
  JSON.stringify(value) === '"*"'
    ? ['*']
    : [...JSON.stringify(value).matchAll(/"Fn::GetAtt":\["([A-Za-z0-9]+)"|"Ref":"([A-Za-z0-9]+)"/g)].map(
        (m) => m[1] ?? m[2]!,
      );

/** What a function's role may do: action -> the logical ids (or '*') it may do it on. */
function grantsOf(stack: ServiceStack, fn: ServiceFunction): Record<string, string[]> {
  const roleId = logicalIdOf(fn.fn.role!.node.defaultChild as never);
  const grants: Record<string, Set<string>> = {};
  for (const statement of statementsOfRole(template, roleId) as Statement[]) {
    expect(statement.Effect).toBe('Allow');
    for (const action of list(statement.Action)) {
      for (const ref of list(statement.Resource).flatMap(refsIn)) (grants[action] ??= new Set()).add(ref);
    }
  }
  return Object.fromEntries(Object.entries(grants).map(([a, r]) => [a, [...r].sort()]));
}

interface WorkerUses extends RouteUses {
  /** The queue an SQS event source reads. */
  reads?: QueueName;
}

/** The grants `uses` stands for, exactly: nothing more may appear on the role. */
function expectedGrants(
  stack: ServiceStack,
  uses: WorkerUses,
  apiKey = false,
  routeId?: string,
): Record<string, string[]> {
  const id = (c: { node: { defaultChild?: unknown } }) => logicalIdOf(c.node.defaultChild as never);
  const grants: Record<string, Set<string>> = {};
  const add = (actions: readonly string[], ...refs: string[]) => {
    for (const a of actions) for (const r of refs) (grants[a] ??= new Set()).add(r);
  };
  add(['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], '*');
  const tables = { ...uses.tables, ...(apiKey ? { ratelimits: 'write' as const } : {}) };
  for (const [name, access] of Object.entries(tables)) {
    add(TABLE_ACTIONS[access], id(stack.data.tables[name as TableName]));
  }
  const kms = {
    encrypt: ['kms:GenerateDataKey'],
    decrypt: ['kms:Decrypt'],
    both: ['kms:GenerateDataKey', 'kms:Decrypt'],
  };
  if (uses.kms) add(kms[uses.kms], id(stack.data.key));
  for (const queue of uses.queues ?? []) {
    add(
      ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'],
      id(stack.messaging.queues[queue].queue),
    );
  }
  for (const queue of uses.deadLetters ?? []) {
    add(['sqs:ReceiveMessage'], id(stack.messaging.queues[queue].deadLetterQueue));
  }
  if (uses.vault) add(VAULT_BUCKET_ACTIONS[uses.vault], id(stack.data.vaultBucket));
  // Readers list the bucket, so a missing key is NoSuchKey and not AccessDenied.
  if (uses.vault && uses.vault !== 'delete') add(['s3:ListBucket'], id(stack.data.vaultBucket));
  if (uses.reads) {
    add(
      [
        'sqs:ReceiveMessage',
        'sqs:ChangeMessageVisibility',
        'sqs:GetQueueUrl',
        'sqs:DeleteMessage',
        'sqs:GetQueueAttributes',
      ],
      id(stack.messaging.queues[uses.reads].queue),
    );
  }
  // The connector secrets a route reads at run time (lib/connectors.ts decides which), nothing more.
  for (const [, secret] of routeId ? stack.connectors.secretsOf({ id: routeId }) : []) {
    add(['secretsmanager:GetSecretValue'], id(secret as never));
  }
  const purge = stack.node.findChild('Purge') as PurgeWorkflow;
  if (uses.workflows?.purge) {
    const machine = id(purge.stateMachine);
    if (uses.workflows.purge === 'start') add(['states:StartExecution'], machine);
    add(['states:DescribeExecution'], machine);
  }
  return Object.fromEntries(Object.entries(grants).map(([a, r]) => [a, [...r].sort()]));
}

describe('least privilege, per function', () => {
  it.each(ROUTES.map((r) => [r.id, r] as const))(
    'grants route %s exactly the table actions, KMS operations, queues and workflows its `uses` declares',
    (_id, route) => {
      expect(grantsOf(stack, stack.api.functions.get(route.id)!)).toEqual(
        expectedGrants(stack, route.uses, route.auth === 'apiKey', route.id),
      );
    },
  );

  it('grants the workers, tasks and authorizers exactly what the worker table says they use', () => {
    const purge = stack.node.findChild('Purge') as PurgeWorkflow;
    const cases: [string, ServiceFunction | undefined, WorkerUses][] = [
      ['api key authorizer', stack.api.authorizerFunction, API_KEY_AUTHORIZER.uses],
      ['console authorizer', stack.api.consoleAuthorizerFunction, CONSOLE_AUTHORIZER.uses],
      ...QUEUE_NAMES.map((queue): [string, ServiceFunction, WorkerUses] => [
        QUEUE_WORKERS[queue].id,
        stack.queueWorkers.functions[queue],
        { ...QUEUE_WORKERS[queue].uses, reads: queue },
      ]),
      ...SCHEDULED_WORKERS.map((w): [string, ServiceFunction | undefined, WorkerUses] => [
        w.id,
        stack.scheduledWorkers.functions.get(w.id),
        w.uses,
      ]),
      ...WORKFLOW_TASKS.map((t): [string, ServiceFunction | undefined, WorkerUses] => [
        t.id,
        purge.taskFunctions[t.id as keyof PurgeWorkflow['taskFunctions']],
        t.uses,
      ]),
    ];
    // A scheduled run that fails is sent to the failures queue (its on-failure destination).
    const failures = stack.getLogicalId(stack.scheduledWorkers.failures.node.defaultChild as never);
    const scheduled = new Set(SCHEDULED_WORKERS.map((w) => w.id));
    for (const [name, fn, uses] of cases) {
      const expected = expectedGrants(stack, uses, false, name);
      if (scheduled.has(name))
        for (const action of ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'])
          expected[action] = [...(expected[action] ?? []), failures].sort();
      expect({ name, grants: grantsOf(stack, fn!) }).toEqual({
        name,
        grants: expected,
      });
    }
    // What the delivery design relies on, spelled out: fan-out has no key, delivery only decrypts.
    expect(QUEUE_WORKERS.events.uses).toEqual({ tables: { webhooks: 'write' }, queues: ['deliveries'] });
    expect(QUEUE_WORKERS.deliveries.uses.kms).toBe('decrypt');
  });

  it('lets each Lambda write only its own log group, through an inline policy instead of a managed one', () => {
    const roles = template.findResources('AWS::IAM::Role') as Resources;
    const functions = template.findResources('AWS::Lambda::Function') as Resources;
    // Not CDK's own auto-delete provider (dev buckets): test/cdk/nag.test.ts covers it.
    const ours = Object.entries(functions).filter(
      ([fnId]) => !fnId.startsWith('CustomS3AutoDeleteObjectsCustomResourceProvider'),
    );
    for (const [, fn] of ours) {
      const role = roles[(fn.Properties.Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0]]!;
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      const statements = (
        role.Properties.Policies as { PolicyName: string; PolicyDocument: { Statement: Statement[] } }[]
      )
        .filter((p) => p.PolicyName === LOGS_POLICY)
        .flatMap((p) => p.PolicyDocument.Statement);
      expect(statements).toEqual([
        expect.objectContaining({
          Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          Resource: {
            'Fn::GetAtt': [
              (fn.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref,
              'Arn',
            ],
          },
        }),
      ]);
    }
  });

  it('lets the account administer the envelope key and IAM grant its use, naming no role in the key policy', () => {
    const keys = template.findResources('AWS::KMS::Key') as Resources;
    expect(Object.keys(keys)).toHaveLength(1);
    const key = Object.values(keys)[0]!.Properties;
    expect(key.EnableKeyRotation).toBe(true);
    const statements = (key.KeyPolicy as { Statement: (Statement & { Condition?: unknown })[] }).Statement;
    const crypto = /^kms:(Encrypt|Decrypt|ReEncrypt|GenerateDataKey|CreateGrant|\*)/;
    // A role ARN as the key policy spells it (partition as a pseudo parameter), resolved for comparing.
    const text = (value: unknown): string =>
      typeof value === 'string'
        ? value
        : ((value as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1] as unknown[])
            .map((part) =>
              typeof part === 'string'
                ? part
                : JSON.stringify(part) === '{"Ref":"AWS::Partition"}'
                  ? 'aws'
                  : '?',
            )
            .join('');
    const named = new Set<string>();
    for (const statement of statements) {
      const actions = list(statement.Action);
      if (!statement.Condition) {
        // Administration, without use.
        expect(JSON.stringify(statement.Principal)).toContain(':root');
        expect(actions.sort()).toEqual([...KEY_ADMIN_ACTIONS].sort());
        continue;
      }
      // Use: only Decrypt and GenerateDataKey, each statement for exactly one role, by its ARN (the
      // roles live in the areas' nested stacks; lib/service-function.ts, bindKey).
      expect(actions.every((a) => ['kms:Decrypt', 'kms:GenerateDataKey'].includes(a))).toBe(true);
      expect(actions.some((a) => crypto.test(a))).toBe(true);
      const condition = statement.Condition as { ArnEquals: Record<string, unknown> };
      expect(Object.keys(condition)).toEqual(['ArnEquals']);
      expect(Object.keys(condition.ArnEquals)).toEqual(['aws:PrincipalArn']);
      named.add(text(condition.ArnEquals['aws:PrincipalArn']));
    }
    // The roles named for use are exactly those granted KMS in their own policies.
    const roles = template.findResources('AWS::IAM::Role') as Resources;
    const users = new Set(
      Object.keys(roles)
        .filter((roleId) =>
          statementsOfRole(template, roleId).some((s) => list(s.Action).some((a) => a.startsWith('kms:'))),
        )
        .map((roleId) => `arn:aws:iam::123456789012:role/${text(roles[roleId]!.Properties.RoleName)}`),
    );
    expect(users.size).toBeGreaterThan(0);
    expect([...named].sort()).toEqual([...users].sort());
  });
});

describe('service stack (prod)', () => {
  const prod = synthStack({ stage: 'prod' }).template;

  it('protects tables from deletion and retains them', () => {
    const tables = prod.findResources('AWS::DynamoDB::GlobalTable') as Record<
      string,
      { DeletionPolicy: string; Properties: Record<string, unknown> }
    >;
    for (const table of Object.values(tables)) {
      expect(table.DeletionPolicy).toBe('Retain');
      expect(table.Properties.Replicas).toEqual([
        expect.objectContaining({ DeletionProtectionEnabled: true }),
      ]);
    }
  });

  it('caches authorizer decisions for a minute', () => {
    prod.hasResourceProperties('AWS::ApiGateway::Authorizer', { AuthorizerResultTtlInSeconds: 60 });
  });

  it('refuses an unknown stage', () => {
    expect(() => synthStack({ stage: 'staging' as 'prod' })).toThrow('context "stage" must be dev or prod');
  });
});

describe('bundles', () => {
  it('stay under 1 MB each, without source maps; the maps apart in the cloud assembly', () => {
    const { app, stack } = synthStack({ bundle: true });
    const out = app.synth().directory;
    // Our bundles (index.mjs); not CDK's auto-delete provider (dev buckets), a CommonJS index.js.
    const assets = readdirSync(out).filter(
      (d) =>
        d.startsWith('asset.') &&
        statSync(join(out, d)).isDirectory() &&
        !(existsSync(join(out, d, 'index.js')) && !existsSync(join(out, d, 'index.mjs'))),
    );
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const file = join(out, asset, 'index.mjs');
      expect({ asset, bytes: statSync(file).size }).toEqual({ asset, bytes: expect.any(Number) });
      expect(statSync(file).size).toBeLessThan(1024 * 1024);
      // Debugging is off: no map in the package, and no comment pointing at one.
      expect(
        readdirSync(join(out, asset), { recursive: true, encoding: 'utf8' }).filter((f) =>
          f.endsWith('.map'),
        ),
      ).toEqual([]);
      expect(readFileSync(file, 'utf8').trimEnd()).not.toMatch(/\/\/# sourceMappingURL=\S+$/);
    }
    // Each function's maps, to map a deployed stack by hand; they name the sources without their text.
    const modules = new Set(
      stack.node
        .findAll()
        .filter((c): c is ServiceFunction => c instanceof ServiceFunction)
        .map((f) => f.handlerModule),
    );
    for (const module of modules) {
      const map = JSON.parse(readFileSync(join(sourceMapsDirOf(out, module), 'index.mjs.map'), 'utf8')) as {
        sources: string[];
        sourcesContent?: unknown;
      };
      expect(map.sources.some((source) => /(^|\/)functions\//.test(source))).toBe(true);
      expect(map.sourcesContent).toBeUndefined();
    }
  });
});
