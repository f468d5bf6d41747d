// Wiring of the connector routes: least-privilege KMS and table grants from the route table's `uses`,
// public browser routes, provider configuration from context and secrets as dynamic references.
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import type { Template } from 'aws-cdk-lib/assertions';
import { CONNECTOR_ROUTES } from '../../functions/connectors/api/routes';
import type { ServiceStack } from '../../lib/service-stack';
import { actionsOf, resourcesOf, synthStack } from '../support/synth';

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
  const id = stack.getLogicalId(fn.fn.node.defaultChild as never);
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

  it('lets only the disconnect route send to the events queue', () => {
    expect(actionsOf(template, stack, 'deleteConnection')).toContain('sqs:SendMessage');
    for (const route of CONNECTOR_ROUTES.filter((r) => r.id !== 'deleteConnection')) {
      expect(actionsOf(template, stack, route.id).filter((a) => a.startsWith('sqs:'))).toEqual([]);
    }
  });

  it('gives read routes read-only access to the connectors table', () => {
    const connectorsTable = stack.getLogicalId(stack.data.tables.connectors.node.defaultChild as never);
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
    expect(resources[stack.getLogicalId(fn.fn.node.defaultChild as never)]!.Properties.Timeout).toBe(25);
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

  it('hands each route only the provider settings it reads, client secrets and the state key as secret references', () => {
    const callback = environmentOf('oauthCallback');
    expect(callback).toMatchObject({
      PROVIDER_PRACTICE_TOKEN_URL: 'https://practice.example/oauth/token',
      PROVIDER_PRACTICE_ACCOUNT_URL: 'https://practice.example/api/v1/me',
      PROVIDER_DRIVE_CLIENT_ID: 'drive-client',
    });
    const reference = (value: unknown) => JSON.stringify(value);
    expect(reference(callback.PROVIDER_PRACTICE_CLIENT_SECRET)).toMatch(
      /\{\{resolve:secretsmanager:.*practice_client_secret/,
    );
    expect(reference(callback.CONNECT_STATE_SIGNING_KEY)).toMatch(
      /\{\{resolve:secretsmanager:.*state_signing_key/,
    );
    expect(callback.PROVIDER_PRACTICE_AUTHORIZE_URL).toBeUndefined();

    const open = environmentOf('openConnectLink');
    expect(open).toMatchObject({
      PROVIDER_PRACTICE_AUTHORIZE_URL: 'https://practice.example/oauth/authorize',
      PROVIDER_PRACTICE_CLIENT_ID: 'practice-client',
    });
    expect(JSON.stringify(open.CONNECT_STATE_SIGNING_KEY)).toContain(':SecretString:state_signing_key::}}');
    expect(Object.keys(open).filter((k) => k.endsWith('CLIENT_SECRET') || k.endsWith('TOKEN_URL'))).toEqual(
      [],
    );

    const disconnect = environmentOf('deleteConnection');
    expect(disconnect.PROVIDER_DRIVE_REVOKE_URL).toBe('https://drive.example/oauth/revoke');
    expect(disconnect.CONNECT_STATE_SIGNING_KEY).toBeUndefined();

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

  it('creates the secret with a generated state-signing key and placeholders for the client secrets', () => {
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({
        GenerateStringKey: 'state_signing_key',
        PasswordLength: 64,
        SecretStringTemplate: JSON.stringify({
          practice_client_secret: 'set-me',
          drive_client_secret: 'set-me',
        }),
      }),
    });
  });
});

describe('connector configuration checks', () => {
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
  });
});
