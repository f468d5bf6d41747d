// CloudFormation refuses a stack of more than 500 resources. The production stack, with every optional
// setting on, keeps under a budget that leaves room for what is planned (the import/export and sync
// routes, more console routes), and a route costs a fixed, small number of resources.
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { RouteDefinition } from '../../functions/platform/route-types';
import { ROUTES } from '../../functions/routes';
import { Api } from '../../lib/api';
import { DataStores } from '../../lib/data';
import { Messaging } from '../../lib/messaging';
import { Observability } from '../../lib/observability';
import { stageConfig } from '../../lib/stage-config';
import { synthStack } from '../support/synth';

/** CloudFormation's hard limit per stack. */
const CLOUDFORMATION_LIMIT = 500;
/** What the production stack may use: 80 below the limit, for what nobody has planned yet. */
const BUDGET = 420;
/** A route's Lambda, its role (grants inline), its method, its invoke permission and its error alarm. */
const ROUTE_COST = 5;
/** A route that seals or opens with the envelope key adds the key grant's own policy. */
const KEY_ROUTE_COST = ROUTE_COST + 1;
/** Routes still to come (the import/export and console routes have landed), each with new path parts. */
const PLANNED_ROUTES = 4;
const PATH_PARTS_PER_PLANNED_ROUTE = 2;

const FULL_CONTEXT = {
  alarmEmail: 'ops@example.com',
  consoleIssuer: 'https://idp.example.com/',
  consoleAudience: 'connector-event-service',
  consoleJwksUrl: 'https://idp.example.com/.well-known/jwks.json',
  connectors: JSON.stringify({
    providers: Object.fromEntries(
      ['practice', 'drive'].map((id) => [
        id,
        {
          authorizeUrl: `https://${id}.example/authorize`,
          tokenUrl: `https://${id}.example/token`,
          revokeUrl: `https://${id}.example/revoke`,
          accountUrl: `https://${id}.example/me`,
          clientId: `${id}-client`,
        },
      ]),
    ),
  }),
};

const count = (template: Template) => Object.keys(template.toJSON().Resources as object).length;

/** The API alone (with the alarms every function gets), for the cost of one more route. */
function apiWithRoutes(routes: readonly RouteDefinition[]): number {
  const app = new App({ context: { stage: 'prod', 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'Routes', { env: { account: '123456789012', region: 'eu-west-1' } });
  const stage = stageConfig(app.node);
  const data = new DataStores(stack, 'Data', stage);
  const messaging = new Messaging(stack, 'Messaging');
  const api = new Api(stack, 'Api', { stage, data, messaging, routes });
  new Observability(stack, 'Observability', { stage, restApi: api.restApi, messaging });
  return count(Template.fromStack(stack));
}

/** Another method on the path of an existing route: no new path resource, only what a route costs. */
const probe = (id: string, like: RouteDefinition): RouteDefinition => ({ ...like, id, method: 'PUT' });

describe('the CloudFormation resource budget', () => {
  let total: number;

  beforeAll(() => {
    total = count(synthStack({ stage: 'prod', context: FULL_CONTEXT }).template);
  });

  it(`keeps the production stack with every option at or under ${BUDGET} resources`, () => {
    expect(total).toBeLessThanOrEqual(BUDGET);
    expect(BUDGET).toBeLessThan(CLOUDFORMATION_LIMIT);
  });

  it(`costs ${ROUTE_COST} resources per route, ${KEY_ROUTE_COST} with the envelope key`, () => {
    const base = ROUTES.filter((r) => r.id === 'getConnection' || r.id === 'oauthCallback');
    const plain = base.find((r) => r.id === 'getConnection')!;
    const sealing = base.find((r) => r.id === 'oauthCallback')!;
    expect(plain.uses.kms).toBeUndefined();
    expect(sealing.uses.kms).toBe('both');
    const without = apiWithRoutes(base);
    expect(apiWithRoutes([...base, probe('budgetProbe', plain)]) - without).toBe(ROUTE_COST);
    expect(apiWithRoutes([...base, probe('budgetKeyProbe', sealing)]) - without).toBe(KEY_ROUTE_COST);
  });

  it(`leaves room in the budget for ${PLANNED_ROUTES} planned routes`, () => {
    const planned = PLANNED_ROUTES * (KEY_ROUTE_COST + PATH_PARTS_PER_PLANNED_ROUTE);
    expect(total + planned).toBeLessThanOrEqual(BUDGET);
  });
});
