// Wiring of the webhook routes: one Lambda each behind the API-key authorizer, with exactly the table
// and KMS grants their `uses` declare.
import type { Template } from 'aws-cdk-lib/assertions';
import type { ServiceStack } from '../../lib/service-stack';
import { WEBHOOK_ROUTES } from '../../functions/webhooks/api/routes';
import { actionsOf, logicalIdOf, resourcesOf, synthStack } from '../support/synth';

let stack: ServiceStack;
let template: Template;

beforeAll(() => {
  ({ stack, template } = synthStack());
});

type Resources = Record<string, { Properties: Record<string, unknown> }>;

const tableId = (name: 'webhooks' | 'ratelimits') =>
  logicalIdOf(stack.data.tables[name].node.defaultChild as never);
const keyId = () => logicalIdOf(stack.data.key.node.defaultChild as never);
const kmsActions = (routeId: string) =>
  actionsOf(template, stack, routeId).filter((a) => a.startsWith('kms:'));
const variables = (routeId: string) => {
  const fn = stack.api.functions.get(routeId)!;
  const resource = template.findResources('AWS::Lambda::Function')[
    logicalIdOf(fn.fn.node.defaultChild as never)
  ] as {
    Properties: { Environment: { Variables: Record<string, unknown> } };
  };
  return resource.Properties.Environment.Variables;
};

describe('webhook routes in the service stack', () => {
  it('has every route of the webhook section, each on its own Lambda', () => {
    expect(WEBHOOK_ROUTES.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /webhooks/v1/endpoints',
      'GET /webhooks/v1/endpoints',
      'GET /webhooks/v1/endpoints/{id}',
      'PATCH /webhooks/v1/endpoints/{id}',
      'DELETE /webhooks/v1/endpoints/{id}',
      'POST /webhooks/v1/endpoints/{id}/enable',
      'POST /webhooks/v1/endpoints/{id}/disable',
      'POST /webhooks/v1/endpoints/{id}/rotate-secret',
      'POST /webhooks/v1/endpoints/{id}/test',
      'GET /webhooks/v1/event-types',
    ]);
    const functionIds = WEBHOOK_ROUTES.map((r) => stack.api.functions.get(r.id)!.fn.node.path);
    expect(new Set(functionIds).size).toBe(WEBHOOK_ROUTES.length);
    for (const route of WEBHOOK_ROUTES) {
      template.hasResourceProperties('AWS::Lambda::Function', {
        Description: `${route.method} ${route.path}`,
      });
    }
  });

  it('puts the API-key authorizer on every webhook route', () => {
    const authorizerFunction = logicalIdOf(stack.api.authorizerFunction.fn.node.defaultChild as never);
    const authorizers = Object.entries(template.findResources('AWS::ApiGateway::Authorizer') as Resources)
      .filter(([, a]) => JSON.stringify(a.Properties.AuthorizerUri).includes(authorizerFunction))
      .map(([id]) => id);
    expect(authorizers).toHaveLength(1);
    const methods = Object.values(template.findResources('AWS::ApiGateway::Method') as Resources);
    for (const route of WEBHOOK_ROUTES) {
      const method = methods.find((m) => m.Properties.OperationName === route.id);
      expect(method?.Properties).toMatchObject({
        HttpMethod: route.method,
        AuthorizationType: 'CUSTOM',
        AuthorizerId: { Ref: authorizers[0] },
      });
    }
  });

  it('lets create and rotate-secret generate data keys, and nothing else with KMS', () => {
    for (const id of ['createWebhookEndpoint', 'rotateWebhookSecret']) {
      expect(kmsActions(id)).toEqual(['kms:GenerateDataKey']);
      expect(resourcesOf(template, stack, id, 'kms:')).toEqual([keyId()]);
      expect(variables(id)).toHaveProperty('KMS_KEY_ID');
    }
  });

  it('lets the test route decrypt (to sign) but not generate keys nor write the table', () => {
    expect(kmsActions('testWebhookEndpoint')).toEqual(['kms:Decrypt']);
    expect(resourcesOf(template, stack, 'testWebhookEndpoint', 'dynamodb:PutItem')).toEqual([
      tableId('ratelimits'),
    ]);
    expect(resourcesOf(template, stack, 'testWebhookEndpoint', 'dynamodb:GetItem')).toEqual(
      [tableId('ratelimits'), tableId('webhooks')].sort(),
    );
  });

  it('gives list, get and the catalog no KMS and no write to the webhooks table', () => {
    for (const id of ['listWebhookEndpoints', 'getWebhookEndpoint', 'listWebhookEventTypes']) {
      expect(kmsActions(id)).toEqual([]);
      expect(variables(id)).not.toHaveProperty('KMS_KEY_ID');
      expect(resourcesOf(template, stack, id, 'dynamodb:PutItem')).toEqual([tableId('ratelimits')]);
    }
    expect(variables('getWebhookEndpoint')).toHaveProperty('TABLE_WEBHOOKS');
  });

  it('gives the catalog route no webhooks table at all', () => {
    expect(resourcesOf(template, stack, 'listWebhookEventTypes', 'dynamodb:')).toEqual([
      tableId('ratelimits'),
    ]);
    expect(variables('listWebhookEventTypes')).not.toHaveProperty('TABLE_WEBHOOKS');
  });

  it('gives the mutating routes write access to the webhooks table and no KMS unless they seal', () => {
    for (const id of [
      'updateWebhookEndpoint',
      'deleteWebhookEndpoint',
      'enableWebhookEndpoint',
      'disableWebhookEndpoint',
    ]) {
      expect(resourcesOf(template, stack, id, 'dynamodb:PutItem')).toEqual(
        [tableId('ratelimits'), tableId('webhooks')].sort(),
      );
      expect(kmsActions(id)).toEqual([]);
    }
    expect(resourcesOf(template, stack, 'createWebhookEndpoint', 'dynamodb:PutItem')).toContain(
      tableId('webhooks'),
    );
  });
});
