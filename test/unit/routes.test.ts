import { ROUTES } from '../../functions/routes';

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
