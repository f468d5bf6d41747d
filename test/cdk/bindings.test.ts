// Wiring of the application key routes: behind the console-session authorizer (not the API-key one),
// that authorizer with no data access and the identity provider from context, the routes writing
// only the platform table.
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { APPLICATION_ROUTES } from '../../functions/directory/api/routes';
import type { ServiceStack } from '../../lib/service-stack';
import { stageConfig } from '../../lib/stage-config';
import { actionsOf, actionsOfRole, logicalIdOf, resourcesOf, synthStack } from '../support/synth';

const CONSOLE_CONTEXT = {
  consoleIssuer: 'https://console.example.test',
  consoleAudience: 'connector-and-event-service',
  consoleJwksUrl: 'https://console.example.test/.well-known/jwks.json',
};

let stack: ServiceStack;
let template: Template;

beforeAll(() => {
  ({ stack, template } = synthStack({ context: CONSOLE_CONTEXT }));
});

type Resources = Record<string, { Properties: Record<string, unknown> }>;

const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
  logicalIdOf(construct.node.defaultChild as never);

function methodOf(routeId: string): Record<string, unknown> {
  const methods = template.findResources('AWS::ApiGateway::Method') as Resources;
  return Object.values(methods).find((m) => m.Properties.OperationName === routeId)!.Properties;
}

function authorizerIdFor(handlerLogicalId: string): string {
  const authorizers = template.findResources('AWS::ApiGateway::Authorizer') as Resources;
  const [id] = Object.entries(authorizers).find(([, a]) =>
    JSON.stringify(a.Properties.AuthorizerUri).includes(`"${handlerLogicalId}"`),
  )!;
  return id;
}

/** Every action in the policies of the console authorizer's role. */
function consoleAuthorizerActions(): string[] {
  const fn = stack.api.consoleAuthorizerFunction!;
  const roleId = logicalIdOf(fn.fn.role!.node.defaultChild as never);
  return actionsOfRole(template, roleId);
}

describe('application key routes in the service stack', () => {
  it('has the list, the PUT and the DELETE route, each on its own Lambda', () => {
    expect(APPLICATION_ROUTES.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /connectors/v1/applications',
      'PUT /connectors/v1/applications/{id}/keys/{keyId}',
      'DELETE /connectors/v1/applications/{id}/keys/{keyId}',
    ]);
    for (const route of APPLICATION_ROUTES)
      expect(stack.api.functions.get(route.id)?.fn.node.id).toBe('Function');
  });

  it('puts the console authorizer on them, not the API-key authorizer', () => {
    const consoleAuthorizer = authorizerIdFor(logicalId(stack.api.consoleAuthorizerFunction!.fn));
    const apiKeyAuthorizer = authorizerIdFor(logicalId(stack.api.authorizerFunction.fn));
    expect(consoleAuthorizer).not.toBe(apiKeyAuthorizer);
    for (const route of APPLICATION_ROUTES) {
      const method = methodOf(route.id);
      expect(method.HttpMethod).toBe(route.method);
      expect(method.AuthorizationType).toBe('CUSTOM');
      expect(method.AuthorizerId).toEqual({ Ref: consoleAuthorizer });
    }
    expect(methodOf('listProviders').AuthorizerId).toEqual({ Ref: apiKeyAuthorizer });
  });

  it('makes the console authorizer a REQUEST authorizer on the Authorization header, cached like the other', () => {
    const authorizers = template.findResources('AWS::ApiGateway::Authorizer') as Resources;
    const consoleAuthorizer =
      authorizers[authorizerIdFor(logicalId(stack.api.consoleAuthorizerFunction!.fn))]!;
    expect(consoleAuthorizer.Properties).toMatchObject({
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.Authorization',
      AuthorizerResultTtlInSeconds: 0,
    });
    const prod = synthStack({ stage: 'prod', context: CONSOLE_CONTEXT }).template;
    const ttls = Object.values(prod.findResources('AWS::ApiGateway::Authorizer') as Resources).map(
      (a) => a.Properties.AuthorizerResultTtlInSeconds,
    );
    expect(ttls).toEqual([60, 60]);
  });

  it('gives the console authorizer read access to the platform table only (sessions from sign-in links), and the identity provider settings', () => {
    const actions = consoleAuthorizerActions().filter((a) => !a.startsWith('xray:'));
    expect(actions).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query']);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: 'Console session authorizer',
      Environment: {
        Variables: Match.objectEquals({
          STAGE: 'dev',
          CONSOLE_ISSUER: CONSOLE_CONTEXT.consoleIssuer,
          CONSOLE_AUDIENCE: CONSOLE_CONTEXT.consoleAudience,
          CONSOLE_JWKS_URL: CONSOLE_CONTEXT.consoleJwksUrl,
          TABLE_PLATFORM: Match.anyValue(),
        }),
      },
    });
  });

  it('lets the binding functions write the platform table and the list read it, nothing else (no rate-limit bucket, no KMS)', () => {
    const platform = logicalId(stack.data.tables.platform);
    for (const route of APPLICATION_ROUTES) {
      const actions = actionsOf(template, stack, route.id).filter((a) => !a.startsWith('xray:'));
      if (route.method === 'GET') {
        expect(
          actions.every((a) =>
            [
              'dynamodb:GetItem',
              'dynamodb:Query',
              'dynamodb:BatchGetItem',
              'dynamodb:Scan',
              'dynamodb:ConditionCheckItem',
              'dynamodb:DescribeTable',
              'dynamodb:GetRecords',
              'dynamodb:GetShardIterator',
            ].includes(a),
          ),
        ).toBe(true);
        expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
      } else {
        expect(actions).toEqual([
          'dynamodb:BatchGetItem',
          'dynamodb:DeleteItem',
          'dynamodb:GetItem',
          'dynamodb:PutItem',
          'dynamodb:Query',
          'dynamodb:UpdateItem',
        ]);
      }
      expect(resourcesOf(template, stack, route.id, 'dynamodb:')).toEqual([platform]);
    }
  });
});

describe('console identity provider context', () => {
  const configFor = (context: Record<string, string>) =>
    stageConfig(new App({ context: { stage: 'prod', ...context } }).node);

  it('is read into the stage config', () => {
    expect(configFor(CONSOLE_CONTEXT).console).toEqual({
      issuer: CONSOLE_CONTEXT.consoleIssuer,
      audience: CONSOLE_CONTEXT.consoleAudience,
      jwksUrl: CONSOLE_CONTEXT.consoleJwksUrl,
    });
  });

  it('must be complete and name an https JWKS', () => {
    expect(() => configFor({ consoleIssuer: 'https://console.example.test' })).toThrow(/or none/);
    expect(() =>
      configFor({ ...CONSOLE_CONTEXT, consoleJwksUrl: 'http://console.example.test/jwks' }),
    ).toThrow(/consoleJwksUrl/);
  });

  it('when absent, leaves the authorizer unconfigured (it fails closed) and warns at synth', () => {
    const bare = synthStack();
    expect(bare.stack.api.consoleAuthorizerFunction?.fn.node.id).toBe('Function');
    const fn = bare.template.findResources('AWS::Lambda::Function', {
      Properties: { Description: 'Console session authorizer' },
    }) as Resources;
    const variables = (Object.values(fn)[0]!.Properties.Environment as { Variables: Record<string, string> })
      .Variables;
    expect(Object.keys(variables).filter((v) => v.startsWith('CONSOLE_'))).toEqual([]);
    Annotations.fromStack(bare.stack).hasWarning(
      '*',
      Match.stringLikeRegexp('console routes will fail closed'),
    );
  });
});
