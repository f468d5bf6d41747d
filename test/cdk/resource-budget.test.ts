// CloudFormation refuses a stack of more than 500 resources. The service is a parent stack (everything
// stateful, the API's surface) and a nested stack per area (its functions, roles, schedules, alarms:
// lib/area-stacks.ts). With every optional setting on, each stack keeps under a budget that leaves room
// for what is planned, and a route costs each stack a fixed, small number of resources.
import { App, NestedStack, Stack } from 'aws-cdk-lib';
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
/** What any one stack may use: 80 below the limit, for what nobody has planned yet. */
const BUDGET = 420;
/** In the parent: a route's method and its invoke permission (API Gateway's, scoped to the method). */
const PARENT_ROUTE_COST = 2;
/** In its area's stack: a route's Lambda, its role (grants inline) and its error alarm. */
const AREA_ROUTE_COST = 3;
/** A route that seals or opens with the envelope key adds the key grant's own policy. */
const AREA_KEY_ROUTE_COST = AREA_ROUTE_COST + 1;
/** Routes still to come, each with new path parts; all in the largest area, to be safe. */
const PLANNED_ROUTES = 40;
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

/** The API alone (with the alarms every function gets), its route functions in a nested stack. */
function apiWithRoutes(routes: readonly RouteDefinition[]): { parent: number; area: number } {
  const app = new App({ context: { stage: 'prod', 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'Routes', { env: { account: '123456789012', region: 'eu-west-1' } });
  const stage = stageConfig(app.node);
  const data = new DataStores(stack, 'Data', stage);
  const messaging = new Messaging(stack, 'Messaging');
  const area = new NestedStack(stack, 'Area');
  const api = new Api(stack, 'Api', { stage, data, messaging, routes, functionScope: () => area });
  new Observability(stack, 'Observability', { stage, restApi: api.restApi, messaging });
  return { parent: count(Template.fromStack(stack)), area: count(Template.fromStack(area)) };
}

/** Another method on the path of an existing route: no new path resource, only what a route costs. */
const probe = (id: string, like: RouteDefinition): RouteDefinition => ({ ...like, id, method: 'PUT' });

describe('the CloudFormation resource budget', () => {
  let parent: number;
  let areas: Record<string, number>;

  beforeAll(() => {
    const synth = synthStack({ stage: 'prod', context: FULL_CONTEXT });
    parent = count(synth.parent);
    areas = Object.fromEntries(synth.stack.areas.all().map((a) => [a.node.id, count(Template.fromStack(a))]));
  });

  it(`keeps the parent and every area stack, with every option, at or under ${BUDGET} resources`, () => {
    expect(BUDGET).toBeLessThan(CLOUDFORMATION_LIMIT);
    expect(parent).toBeLessThanOrEqual(BUDGET);
    expect(Object.keys(areas).sort()).toEqual(
      ['ConnectorsArea', 'ConnectorsWorkflowArea', 'DirectoryArea', 'DocsArea', 'WebhooksArea'].sort(),
    );
    for (const [id, n] of Object.entries(areas)) expect({ id, n: n <= BUDGET }).toEqual({ id, n: true });
  });

  it(`costs the parent ${PARENT_ROUTE_COST} resources per route, the area ${AREA_ROUTE_COST} (${AREA_KEY_ROUTE_COST} with the envelope key)`, () => {
    const base = ROUTES.filter((r) => r.id === 'getConnection' || r.id === 'oauthCallback');
    const plain = base.find((r) => r.id === 'getConnection')!;
    const sealing = base.find((r) => r.id === 'oauthCallback')!;
    expect(plain.uses.kms).toBeUndefined();
    expect(sealing.uses.kms).toBe('both');
    const without = apiWithRoutes(base);
    const withPlain = apiWithRoutes([...base, probe('budgetProbe', plain)]);
    const withKey = apiWithRoutes([...base, probe('budgetKeyProbe', sealing)]);
    expect(withPlain.parent - without.parent).toBe(PARENT_ROUTE_COST);
    expect(withPlain.area - without.area).toBe(AREA_ROUTE_COST);
    expect(withKey.parent - without.parent).toBe(PARENT_ROUTE_COST);
    expect(withKey.area - without.area).toBe(AREA_KEY_ROUTE_COST);
  });

  it(`leaves room in every stack for ${PLANNED_ROUTES} planned routes`, () => {
    expect(parent + PLANNED_ROUTES * (PARENT_ROUTE_COST + PATH_PARTS_PER_PLANNED_ROUTE)).toBeLessThanOrEqual(
      BUDGET,
    );
    const largest = Math.max(...Object.values(areas));
    expect(largest + PLANNED_ROUTES * AREA_KEY_ROUTE_COST).toBeLessThanOrEqual(BUDGET);
  });
});
