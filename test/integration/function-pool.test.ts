// Functions of the synthesized template run from their bundles on the emulators: the
// bundles built as `cdk synth` builds them, each function in its own workers with exactly the
// template's environment resolved to the provisioned resources. Every function's environment
// resolves; the API-key authorizer, run from its bundle, allows a real key and refuses an unknown one
// by reading the platform table; with a variable it needs removed from its template it fails, naming
// the function and the variable; and with the entry of its policy removed, the emulated API Gateway
// refuses the route it let through (403).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent } from 'aws-lambda';
import type { FunctionSpec } from '../../lib/emulated-functions';
import { bundleFileOf, bundleFunctions, functionSpecs, resourceSpecs } from '../../lib/emulated-functions';
import {
  FunctionPool,
  emulatorEnvironment,
  functionEnvironment,
} from '../../functions/dev-runtime/emulated-aws/function-pool';
import type { ProvisionedStack } from '../../functions/dev-runtime/emulated-aws/provision';
import {
  provisionSecrets,
  provisionStack,
  resourceValues,
} from '../../functions/dev-runtime/emulated-aws/provision';
import { STATE_KEY_ENV } from '../../functions/connectors';
import { clientSecretName } from '../../functions/connectors/infra/config';
import { PROVIDER_IDS } from '../../functions/connectors/domain/providers';
import { createAwsDeps } from '../../functions/compose/aws';
import { ensureDevCredentials } from '../../functions/dev-runtime/identity/bootstrap';
import { TABLE_DEFINITIONS } from '../../functions/platform/tables';
import { ApiGateway, apiGatewaySettings } from '../../functions/dev-runtime/server/api-gateway';
import type { Invocable } from '../../functions/dev-runtime/server/lambda-runtime';
import { inProcess } from '../../functions/dev-runtime/server/lambda-runtime';
import { API_KEY_AUTHORIZER, ROUTES } from '../../functions/routes';
import { localStageContext } from '../support/iam-check';
import { synthStack } from '../support/synth';
import { requireEmulators } from '../support/emulators';

const ROOT = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');
// Inside the repository's git-ignored build directory (the bundles carry the SDK: nothing to resolve).
const BUNDLES = join(ROOT, '.build', 'emulated-functions-test');
const prefix = `pool-${randomBytes(3).toString('hex')}`;

let specs: FunctionSpec[];
let provisioned: ProvisionedStack;
let secrets: Record<string, string>;
/** A real API key, made in the provisioned platform table as the runtime's bootstrap makes it. */
let credentials: { apiKey: string; organizationId: string };

beforeAll(async () => {
  requireEmulators();
  const { stack, template } = synthStack({ context: localStageContext() });
  specs = functionSpecs(stack, template);
  provisioned = await provisionStack({ prefix, resources: resourceSpecs(stack, template) });
  const names = [STATE_KEY_ENV, ...PROVIDER_IDS.map((id) => clientSecretName(id))];
  secrets = await provisionSecrets(prefix, Object.fromEntries(names.map((n) => [n, `value-of-${n}`])));
  process.env[TABLE_DEFINITIONS.platform.envVar] = `${prefix}-platform`;
  try {
    const dataDir = mkdtempSync(join(tmpdir(), 'ces-pool-'));
    ({ credentials } = await ensureDevCredentials(createAwsDeps(), dataDir, 'http://localhost'));
  } finally {
    delete process.env[TABLE_DEFINITIONS.platform.envVar];
  }
  await bundleFunctions(
    specs.filter((s) => s.id === 'apiKeyAuthorizer').map((s) => s.handlerModule),
    BUNDLES,
  );
}, 180_000);

const spec = (id: string): FunctionSpec => {
  const found = specs.find((s) => s.id === id);
  if (!found) throw new Error(`no ${id} in the template`);
  return found;
};

const pooled = (fn: FunctionSpec) => ({
  id: fn.id,
  bundle: bundleFileOf(BUNDLES, fn.handlerModule),
  memorySize: fn.memorySize,
  timeoutSeconds: fn.timeoutSeconds,
  environment: functionEnvironment(fn, resourceValues(provisioned, secrets), emulatorEnvironment()),
});

const authorizerEvent = (apiKey: string) => ({
  type: 'REQUEST',
  methodArn: 'arn:aws:execute-api:local:000000000000:api/dev/GET/connectors/v1/providers',
  headers: { Authorization: `Bearer ${apiKey}` },
  requestContext: { requestId: 'req-pool' },
});

describe('functions of the template on the emulated runtime', () => {
  it("resolves every function's environment to the provisioned resources", () => {
    expect(specs.length).toBeGreaterThan(40);
    const environments = specs.map((fn) => pooled(fn).environment);
    const authorizer = environments[specs.indexOf(spec('apiKeyAuthorizer'))]!;
    expect(authorizer[TABLE_DEFINITIONS.platform.envVar]).toBe(`${prefix}-platform`);
    expect(authorizer.STAGE).toBe('dev');
    // Only what the template grants it: no other table's variable.
    expect(authorizer[TABLE_DEFINITIONS.connectors.envVar]).toBeUndefined();
  });

  it('runs the API-key authorizer from its bundle against the platform table', async () => {
    const fn = spec('apiKeyAuthorizer');
    const pool = new FunctionPool([pooled(fn)]);
    try {
      const allowed = (await pool.invoke(
        fn.id,
        authorizerEvent(credentials.apiKey),
      )) as APIGatewayAuthorizerResult;
      expect(allowed.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow' });
      expect(allowed.context?.organizationId).toBe(credentials.organizationId);

      const unknown = `lpk_${'a'.repeat(20)}_${'b'.repeat(43)}`;
      await expect(pool.invoke(fn.id, authorizerEvent(unknown))).rejects.toThrow(
        'apiKeyAuthorizer failed: Error: Unauthorized',
      );
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('fails, naming the function and the variable, when its template lacks a variable it needs', async () => {
    const fn = spec('apiKeyAuthorizer');
    const { [TABLE_DEFINITIONS.platform.envVar]: _removed, ...rest } = fn.environment;
    const pool = new FunctionPool([pooled({ ...fn, environment: rest })]);
    try {
      const unknown = `lpk_${'a'.repeat(20)}_${'b'.repeat(43)}`;
      const error = (await pool.invoke(fn.id, authorizerEvent(unknown)).catch((e: unknown) => e)) as Error;
      expect(error.message).toMatch(/^apiKeyAuthorizer failed: /);
      expect(error.message).toContain(TABLE_DEFINITIONS.platform.envVar);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("lets a route through on the authorizer's policy, and refuses it (403) with the policy's entry removed", async () => {
    const fn = spec('apiKeyAuthorizer');
    const pool = new FunctionPool([pooled(fn)]);
    const route = ROUTES.find((r) => r.method === 'GET' && r.auth === 'apiKey')!;
    // The route's own function is not what is under test: it answers what the gateway let through.
    const reached: Invocable = async () => ({ statusCode: 200, body: '{}' });
    const gatewayWith = (edit: (result: APIGatewayAuthorizerResult) => APIGatewayAuthorizerResult) =>
      new ApiGateway(
        inProcess(async (module) =>
          module === API_KEY_AUTHORIZER.handler
            ? async (event) => edit((await pool.invoke(fn.id, event)) as APIGatewayAuthorizerResult)
            : reached,
        ),
        apiGatewaySettings('dev'),
      );
    const request = () =>
      ({
        httpMethod: route.method,
        path: route.path.replace(/\{[^}]+\}/g, 'x'),
        resource: route.path,
        headers: { Authorization: `Bearer ${credentials.apiKey}` },
        multiValueHeaders: {},
        pathParameters: null,
        queryStringParameters: null,
        multiValueQueryStringParameters: null,
        requestContext: { requestId: 'req-gateway' },
        body: null,
        isBase64Encoded: false,
      }) as unknown as APIGatewayProxyEvent;
    try {
      const method = (await gatewayWith((r) => r).match(route.method, request().path))!.method;
      expect((await gatewayWith((r) => r).invoke(method, request())).statusCode).toBe(200);
      const withoutEntry = (r: APIGatewayAuthorizerResult) => ({
        ...r,
        policyDocument: { ...r.policyDocument, Statement: r.policyDocument.Statement.slice(1) },
      });
      const refused = await gatewayWith(withoutEntry).invoke(method, request());
      expect(refused.statusCode).toBe(403);
      expect(JSON.parse(refused.body)).toEqual({
        error: { code: 'PERMISSION_DENIED', message: 'Access denied' },
      });
    } finally {
      await pool.close();
    }
  }, 60_000);
});
