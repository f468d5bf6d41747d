// Wiring of the connector routes: least-privilege KMS and table grants from the route table's `uses`,
// public browser routes, provider configuration from context, secrets read at run time (ARNs and
// GetSecretValue on exactly the ones a route needs).
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import type { Template } from 'aws-cdk-lib/assertions';
import { CONNECTOR_ROUTES } from '../../functions/connectors/api/route-docs';
import { CLIENT_SECRET_PLACEHOLDER } from '../../lib/connectors';
import { PROVIDER_IDS, providerEnv } from '../../functions/connectors/domain/providers';
import type { ServiceStack } from '../../lib/service-stack';
import { actionsOf, logicalIdOf, resourcesOf, synthStack } from '../support/synth';

const endpoints = (host: string) => ({
  authorizeUrl: `https://${host}/oauth/authorize`,
  tokenUrl: `https://${host}/oauth/token`,
  revokeUrl: `https://${host}/oauth/revoke`,
  accountUrl: `https://${host}/api/v1/me`,
});
const CONTEXT = {
  providers: {
    practice: { ...endpoints('practice.example'), clientId: 'practice-client' },
    drive: { ...endpoints('drive.example'), clientId: 'drive-client' },
  },
};

let stack: ServiceStack;
let template: Template;

beforeAll(() => {
  ({ stack, template } = synthStack({ context: { connectors: JSON.stringify(CONTEXT) } }));
});

const kmsActions = (routeId: string) =>
  actionsOf(template, stack, routeId).filter((a) => a.startsWith('kms:'));

function environmentOf(routeId: string): Record<string, unknown> {
  const fn = stack.api.functions.get(routeId)!;
  const id = logicalIdOf(fn.fn.node.defaultChild as never);
  const resource = template.toJSON().Resources[id] as {
    Properties: { Environment: { Variables: Record<string, unknown> } };
  };
  return resource.Properties.Environment.Variables;
}

describe('connector routes in the stack', () => {
  it('makes one Lambda per connector route', () => {
    for (const route of CONNECTOR_ROUTES)
      expect(stack.api.functions.get(route.id)?.fn.node.id).toBe('Function');
  });

  it('grants KMS only where tokens or verifiers are sealed or opened', () => {
    expect(kmsActions('oauthCallback')).toEqual(['kms:Decrypt', 'kms:GenerateDataKey']);
    expect(kmsActions('openConnectLink')).toEqual(['kms:GenerateDataKey']);
    expect(kmsActions('deleteConnection')).toEqual(['kms:Decrypt']);
    for (const id of [
      'createConnection',
      'getConnection',
      'listConnections',
      'setProviderEnabled',
      'listProviders',
    ]) {
      expect(kmsActions(id)).toEqual([]);
    }
  });

  it('lets only the routes that publish or queue work send to a queue, and each only to its own', () => {
    expect(actionsOf(template, stack, 'deleteConnection')).toContain('sqs:SendMessage');
    for (const route of CONNECTOR_ROUTES) {
      const sends = actionsOf(template, stack, route.id).filter((a) => a.startsWith('sqs:')).length > 0;
      expect({ route: route.id, sends }).toEqual({
        route: route.id,
        sends: Boolean(route.uses.queues?.length),
      });
    }
    expect(
      CONNECTOR_ROUTES.filter((r) => r.uses.queues?.length)
        .map((r) => r.id)
        .sort(),
    ).toEqual(['createExport', 'createImportLink', 'deleteConnection', 'listSources', 'startSyncRun'].sort());
  });

  it('gives read routes read-only access to the connectors table', () => {
    const connectorsTable = logicalIdOf(stack.data.tables.connectors.node.defaultChild as never);
    for (const id of ['getConnection', 'listConnections', 'listProviders']) {
      expect(resourcesOf(template, stack, id, 'dynamodb:GetItem')).toContain(connectorsTable);
      expect(resourcesOf(template, stack, id, 'dynamodb:PutItem')).not.toContain(connectorsTable);
      expect(resourcesOf(template, stack, id, 'dynamodb:UpdateItem')).not.toContain(connectorsTable);
    }
    for (const id of [
      'createConnection',
      'openConnectLink',
      'oauthCallback',
      'deleteConnection',
      'setProviderEnabled',
    ]) {
      expect(resourcesOf(template, stack, id, 'dynamodb:PutItem')).toContain(connectorsTable);
    }
  });

  it("gives the OAuth callback 25 s, under API Gateway's 29 s for its integration", () => {
    const fn = stack.api.functions.get('oauthCallback')!;
    const resources = template.toJSON().Resources as Record<string, { Properties: Record<string, unknown> }>;
    expect(resources[logicalIdOf(fn.fn.node.defaultChild as never)]!.Properties.Timeout).toBe(25);
    const method = Object.values(resources).find((r) => r.Properties.OperationName === 'oauthCallback')!;
    expect(method.Properties.Integration).toMatchObject({ TimeoutInMillis: 29_000 });
  });

  it('serves the connect link and the provider callback without the API-key authorizer, the rest with it', () => {
    const methods = template.findResources('AWS::ApiGateway::Method') as Record<
      string,
      { Properties: Record<string, unknown> }
    >;
    const auth = new Map(
      Object.values(methods).map((m) => [m.Properties.OperationName, m.Properties.AuthorizationType]),
    );
    expect(auth.get('openConnectLink')).toBe('NONE');
    expect(auth.get('oauthCallback')).toBe('NONE');
    for (const id of [
      'createConnection',
      'getConnection',
      'listConnections',
      'deleteConnection',
      'setProviderEnabled',
      'listProviders',
    ]) {
      expect(auth.get(id)).toBe('CUSTOM');
    }
    template.hasResourceProperties('AWS::ApiGateway::Resource', { PathPart: '{token}' });
    template.hasResourceProperties('AWS::ApiGateway::Resource', { PathPart: 'callback' });
  });

  it('hands each route only the provider settings it reads, and no secret value', () => {
    const callback = environmentOf('oauthCallback');
    expect(callback).toMatchObject({
      PROVIDER_PRACTICE_TOKEN_URL: 'https://practice.example/oauth/token',
      PROVIDER_PRACTICE_ACCOUNT_URL: 'https://practice.example/api/v1/me',
      PROVIDER_DRIVE_CLIENT_ID: 'drive-client',
    });
    expect(callback.PROVIDER_PRACTICE_AUTHORIZE_URL).toBeUndefined();

    const open = environmentOf('openConnectLink');
    expect(open).toMatchObject({
      PROVIDER_PRACTICE_AUTHORIZE_URL: 'https://practice.example/oauth/authorize',
      PROVIDER_PRACTICE_CLIENT_ID: 'practice-client',
    });
    expect(Object.keys(open).filter((k) => k.endsWith('TOKEN_URL'))).toEqual([]);

    const disconnect = environmentOf('deleteConnection');
    expect(disconnect.PROVIDER_DRIVE_REVOKE_URL).toBe('https://drive.example/oauth/revoke');

    // Secrets are read at run time: no value and no dynamic reference in any function's configuration.
    const functions = template.findResources('AWS::Lambda::Function');
    expect(JSON.stringify(functions)).not.toContain('resolve:secretsmanager');
    for (const id of [
      'createConnection',
      'getConnection',
      'listConnections',
      'setProviderEnabled',
      'listProviders',
    ]) {
      expect(
        Object.keys(environmentOf(id)).filter((k) => k.startsWith('PROVIDER_') || k.startsWith('CONNECT_')),
      ).toEqual([]);
    }
  });

  it('lets each route read exactly the secrets it needs, with GetSecretValue alone', () => {
    const settings = stack.connectors;
    const secret = (s: { node: { defaultChild?: unknown } }) => logicalIdOf(s.node.defaultChild as never);
    const state = secret(settings.stateKey as never);
    const practice = secret(settings.clientSecrets.practice as never);
    const drive = secret(settings.clientSecrets.drive as never);
    const expected: Record<string, string[]> = {
      openConnectLink: [state],
      oauthCallback: [drive, practice, state].sort(),
      deleteConnection: [drive, practice].sort(),
      // Calls to a content API refresh the access token on use: the client secrets.
      listSources: [drive, practice].sort(),
      createImportLink: [drive, practice].sort(),
      createExport: [drive, practice].sort(),
    };
    for (const route of CONNECTOR_ROUTES) {
      const actions = actionsOf(template, stack, route.id).filter((a) => a.startsWith('secretsmanager:'));
      const targets = resourcesOf(template, stack, route.id, 'secretsmanager:');
      expect({ route: route.id, actions, targets }).toEqual({
        route: route.id,
        actions: expected[route.id] ? ['secretsmanager:GetSecretValue'] : [],
        targets: expected[route.id] ?? [],
      });
    }
    // Where to find them: each secret's ARN beside the name of the setting it holds.
    expect(environmentOf('oauthCallback')).toMatchObject({
      CONNECT_STATE_SIGNING_KEY_ARN: { Ref: state },
      PROVIDER_PRACTICE_CLIENT_SECRET_ARN: { Ref: practice },
      PROVIDER_DRIVE_CLIENT_SECRET_ARN: { Ref: drive },
    });
    expect(Object.keys(environmentOf('openConnectLink')).filter((k) => k.endsWith('_ARN'))).toEqual([
      'CONNECT_STATE_SIGNING_KEY_ARN',
    ]);
  });

  it('makes a generated state-signing key and a placeholder client secret per configured provider', () => {
    template.resourceCountIs('AWS::SecretsManager::Secret', 3);
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { PasswordLength: 64, ExcludePunctuation: true },
    });
    const placeholders = Object.values(
      template.findResources('AWS::SecretsManager::Secret', {
        Properties: { SecretString: CLIENT_SECRET_PLACEHOLDER },
      }),
    );
    expect(placeholders).toHaveLength(2);
  });
});

describe('connector configuration checks', () => {
  it('sets PROVIDER_<ID>_ISSUER from context for any provider id, on the callback only', () => {
    const providers = Object.fromEntries(
      PROVIDER_IDS.map((id) => [
        id,
        { ...endpoints(`${id}.example`), clientId: `${id}-client`, issuer: `https://${id}.example` },
      ]),
    );
    const { stack: withIssuers, template: own } = synthStack({
      context: { connectors: JSON.stringify({ providers }) },
    });
    const variables = (routeId: string) =>
      (
        own.toJSON().Resources[
          withIssuers.getLogicalId(withIssuers.api.functions.get(routeId)!.fn.node.defaultChild as never)
        ] as { Properties: { Environment: { Variables: Record<string, unknown> } } }
      ).Properties.Environment.Variables;
    for (const id of PROVIDER_IDS) {
      expect(variables('oauthCallback')[providerEnv(id, 'ISSUER')]).toBe(`https://${id}.example`);
      expect(variables('openConnectLink')[providerEnv(id, 'ISSUER')]).toBeUndefined();
    }
    // Without it in context, the callback has no issuer to check against (RFC 9207 off for that provider).
    expect(Object.keys(environmentOf('oauthCallback')).filter((k) => k.endsWith('_ISSUER'))).toEqual([]);
  });

  it('gives a param value with a client of its own (a NetDocuments region) its client id and secret', () => {
    const providers = {
      netdocuments: {
        clientId: 'nd-shared',
        clients: { EU: { clientId: 'nd-eu' } },
        allowedHosts: undefined,
      },
      imanage: { clientId: 'im-client', allowedHosts: ['cloudimanage.com', '*.firm.example'] },
      box: { clientId: 'box-client', origin: 'https://gateway.example/box' },
    };
    const { stack: own, template: synthesized } = synthStack({
      context: { connectors: JSON.stringify({ providers }) },
    });
    const variables = (routeId: string) =>
      (
        synthesized.toJSON().Resources[
          own.getLogicalId(own.api.functions.get(routeId)!.fn.node.defaultChild as never)
        ] as { Properties: { Environment: { Variables: Record<string, unknown> } } }
      ).Properties.Environment.Variables;
    for (const route of ['openConnectLink', 'oauthCallback', 'createExport'])
      expect(variables(route)[providerEnv('netdocuments', 'EU_CLIENT_ID')]).toBe('nd-eu');
    // The region's secret is a secret of its own, read by the routes that read client secrets.
    const regional = own.connectors.valueClientSecrets[providerEnv('netdocuments', 'EU_CLIENT_SECRET')]!;
    const id = logicalIdOf(regional.node.defaultChild as never);
    expect(resourcesOf(synthesized, own, 'oauthCallback', 'secretsmanager:')).toContain(id);
    expect(resourcesOf(synthesized, own, 'openConnectLink', 'secretsmanager:')).not.toContain(id);
    // The allowed hosts reach the routes that accept params, and only those.
    expect(variables('createConnection')[providerEnv('imanage', 'ALLOWED_HOSTS')]).toBe(
      'cloudimanage.com,*.firm.example',
    );
    expect(variables('oauthCallback')[providerEnv('imanage', 'ALLOWED_HOSTS')]).toBeUndefined();
    // An origin reaches every route that reads an endpoint, and not those that read the client id alone.
    for (const route of ['openConnectLink', 'oauthCallback', 'deleteConnection', 'createExport'])
      expect(variables(route)[providerEnv('box', 'ORIGIN')]).toBe('https://gateway.example/box');
    for (const route of ['listProviders', 'createConnection'])
      expect(variables(route)[providerEnv('box', 'ORIGIN')]).toBeUndefined();
    // A suffix no param value names is refused at synth, naming the known ones.
    const unknown = { providers: { netdocuments: { clientId: 'x', clients: { XX: { clientId: 'y' } } } } };
    expect(() => synthStack({ context: { connectors: JSON.stringify(unknown) } })).toThrow(
      /known: US, EU, DE, AU/,
    );
  });

  it('warns at synth when a provider has no endpoints', () => {
    const { stack: bare } = synthStack();
    Annotations.fromStack(bare).hasWarning('*', Match.stringLikeRegexp('Provider practice has no endpoints'));
  });

  it('refuses malformed provider context and plain-http endpoints in prod', () => {
    const bad = { providers: { practice: { ...CONTEXT.providers.practice, tokenUrl: 'not a url' } } };
    expect(() => synthStack({ context: { connectors: bad } })).toThrow(/providers.practice.tokenUrl/);
    const plain = {
      providers: { practice: { ...CONTEXT.providers.practice, tokenUrl: 'http://practice.example/token' } },
    };
    expect(() => synthStack({ stage: 'prod', context: { connectors: plain } })).toThrow(/https in prod/);
    const plainOrigin = { providers: { box: { clientId: 'b', origin: 'http://gateway.example/box' } } };
    expect(() => synthStack({ stage: 'prod', context: { connectors: plainOrigin } })).toThrow(
      /https in prod: box/,
    );
  });

  it('uses secrets managed elsewhere, by complete ARN, and makes none of its own then', () => {
    const arn = (name: string) => `arn:aws:secretsmanager:eu-west-1:123456789012:secret:${name}-AbCdEf`;
    const context = {
      providers: {
        practice: { ...CONTEXT.providers.practice, clientSecretArn: arn('practice') },
        drive: { ...CONTEXT.providers.drive, clientSecretArn: arn('drive') },
      },
      stateKeySecretArn: arn('state'),
    };
    const { template: own, stack: elsewhere } = synthStack({
      context: { connectors: JSON.stringify(context) },
    });
    own.resourceCountIs('AWS::SecretsManager::Secret', 0);
    const fn = elsewhere.api.functions.get('oauthCallback')!;
    const variables = (
      own.toJSON().Resources[logicalIdOf(fn.fn.node.defaultChild as never)] as {
        Properties: { Environment: { Variables: Record<string, unknown> } };
      }
    ).Properties.Environment.Variables;
    expect(variables).toMatchObject({
      CONNECT_STATE_SIGNING_KEY_ARN: arn('state'),
      PROVIDER_PRACTICE_CLIENT_SECRET_ARN: arn('practice'),
    });
  });

  it('refuses the retired secretArn and secretVersion context, saying what replaced them', () => {
    for (const retired of [{ secretArn: 'arn:aws:secretsmanager:x' }, { secretVersion: 'v1' }]) {
      expect(() =>
        synthStack({ context: { connectors: JSON.stringify({ ...CONTEXT, ...retired }) } }),
      ).toThrow(/read at run time|one secret each/);
    }
  });
});
