import { QUEUE_WORKERS, SCHEDULED_WORKERS, WORKFLOW_TASKS } from '../../functions/platform/workers';
import { ROUTES, ROUTE_AREAS, ROUTE_SECTIONS, areaOfHandler } from '../../functions/routes';

describe('the route table', () => {
  it('names each route once and serves each method and path once', () => {
    expect(new Set(ROUTES.map((r) => r.id)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((r) => `${r.method} ${r.path}`)).size).toBe(ROUTES.length);
  });

  it('gives every API-key route a permission or restricts it to system keys', () => {
    for (const route of ROUTES.filter((r) => r.auth === 'apiKey')) {
      expect({ route: route.id, guarded: Boolean(route.permission || route.systemOnly) }).toEqual({
        route: route.id,
        guarded: true,
      });
    }
  });
});

describe('the route table by area (one stack per area, lib/area-stacks.ts)', () => {
  it('has every route in exactly one section, the section of its handler module', () => {
    const sectioned = ROUTE_AREAS.flatMap((area) => ROUTE_SECTIONS[area].map((r) => ({ area, id: r.id })));
    expect(sectioned.map((r) => r.id).sort()).toEqual(ROUTES.map((r) => r.id).sort());
    for (const area of ROUTE_AREAS) {
      for (const route of ROUTE_SECTIONS[area])
        expect([route.id, areaOfHandler(route.handler)]).toEqual([route.id, area]);
    }
  });

  it('places every worker in an area, and refuses a handler outside the areas', () => {
    const handlers = [...Object.values(QUEUE_WORKERS), ...SCHEDULED_WORKERS, ...WORKFLOW_TASKS].map(
      (w) => w.handler,
    );
    for (const handler of handlers) expect(ROUTE_AREAS).toContain(areaOfHandler(handler));
    expect(() => areaOfHandler('platform/workers')).toThrow('platform/workers is in no area');
  });
});
