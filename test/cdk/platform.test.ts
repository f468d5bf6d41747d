// Wiring of the platform: functions, authorizer on every API-key route, tables, key, gateway errors.
import { Match } from 'aws-cdk-lib/assertions';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROUTES } from '../../functions/routes';
import { TABLE_NAMES } from '../../functions/platform/tables';
import { actionsOf, resourcesOf, synthStack } from '../support/synth';

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
      expect((fn.Properties.Environment as { Variables: Record<string, string> }).Variables).toMatchObject({
        STAGE: 'dev',
        NODE_OPTIONS: '--enable-source-maps',
      });
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
      expect(method).toBeDefined();
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
      'dynamodb:GetItem',
      'dynamodb:Query',
    ]);
    const platformTable = stack.getLogicalId(stack.data.tables.platform.node.defaultChild as never);
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
            'dynamodb:Query',
            'dynamodb:PutItem',
            'dynamodb:UpdateItem',
            'dynamodb:DeleteItem',
          ].includes(a),
        ),
      ).toBe(true);
      if (!writes) expect(actions).toEqual(['dynamodb:GetItem', 'dynamodb:Query']);
    }
  });

  it('lets every API-key route write its rate-limit bucket', () => {
    const ratelimits = stack.getLogicalId(stack.data.tables.ratelimits.node.defaultChild as never);
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
      expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
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
  it('stay under 1 MB each', () => {
    const { app } = synthStack({ bundle: true });
    const out = app.synth().directory;
    const assets = readdirSync(out).filter(
      (d) => d.startsWith('asset.') && statSync(join(out, d)).isDirectory(),
    );
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const file = join(out, asset, 'index.mjs');
      expect({ asset, bytes: statSync(file).size }).toEqual({ asset, bytes: expect.any(Number) });
      expect(statSync(file).size).toBeLessThan(1024 * 1024);
    }
  });
});
