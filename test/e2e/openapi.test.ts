// GET /openapi.json on the local server: the generated description, public, with every operation.
import { ROUTES } from '../../functions/routes';
import type { RunningServer } from '../support/local-server';
import { startLocalServer } from '../support/local-server';

let server: RunningServer;

beforeAll(async () => {
  server = await startLocalServer();
});

afterAll(async () => {
  await server.stop();
});

describe('GET /openapi.json', () => {
  it('answers the OpenAPI 3.1 document with every route as an operation, without credentials', async () => {
    const response = await fetch(`${server.baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = (await response.json()) as {
      openapi: string;
      info: { version: string };
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations.sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path} ${r.id}`).sort());
  });
});
