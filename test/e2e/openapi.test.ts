// GET /openapi.json on the local server: the generated description, public, with every operation; and
// real answers of every operation hold to it: each body validates (JSON Schema 2020-12, formats checked)
// against the schema the document gives its operation and status, and each required header is there.
// Schemathesis checks the same over generated requests (scripts/schemathesis.sh); this makes a drift
// visible in the jest run too, with the request that showed it.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ROUTES } from '../../functions/routes';
import type { RunningServer } from '../support/local-server';
import { api, startLocalServer } from '../support/local-server';
import { startReceiver } from '../support/receiver';
import type { Receiver } from '../support/receiver';
import { until } from '../support/until';
import { connectThroughSandbox } from '../support/connect';

interface Doc {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
  components: { responses: Record<string, unknown> };
}

interface ResponseSpec {
  headers?: Record<string, { required?: boolean; $ref?: string }>;
  content?: Record<string, { schema: unknown }>;
}

let server: RunningServer;
let receiver: Receiver;
let doc: Doc;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
/** Every operation a check has seen answer, by operationId. */
const checked = new Set<string>();

beforeAll(async () => {
  server = await startLocalServer();
  receiver = await startReceiver();
  receiver.on('/hook', () => ({ status: 204 }));
  doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as Doc;
  ajv.addSchema(doc, 'openapi.json');
});

afterAll(async () => {
  await receiver.close();
  await server.stop();
});

/** Resolves a local `$ref` of the document (components.responses, components.headers). */
function deref<T>(value: T): T {
  const target = (value as { $ref?: string }).$ref;
  if (!target) return value;
  return target
    .slice(2)
    .split('/')
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], doc) as T;
}

/**
 * The response holds to the document: a status the operation declares, the declared media type, a
 * body valid against its schema, every required header. Answers the parsed body.
 */
async function conforms(operationId: string, response: Response): Promise<unknown> {
  const [path, method] = Object.entries(doc.paths).flatMap(([p, item]) =>
    Object.entries(item)
      .filter(([, op]) => op.operationId === operationId)
      .map(([m]) => [p, m] as const),
  )[0]!;
  const operation = doc.paths[path]![method]!;
  const label = `${method.toUpperCase()} ${path} -> ${response.status}`;
  const declared = operation.responses[String(response.status)];
  expect({ label, declared: declared !== undefined }).toEqual({ label, declared: true });
  const spec = deref(declared as ResponseSpec);
  for (const [name, header] of Object.entries(spec.headers ?? {})) {
    if (deref(header).required)
      expect({ label, header: name, present: response.headers.has(name) }).toEqual({
        label,
        header: name,
        present: true,
      });
  }
  checked.add(operationId);
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  const declaredTypes = Object.keys(spec.content ?? {});
  if (declaredTypes.length === 0) {
    expect({ label, body: text }).toEqual({ label, body: '' });
    return undefined;
  }
  const mediaType = declaredTypes.find((type) => contentType.startsWith(type));
  expect({ label, contentType, declared: mediaType !== undefined }).toEqual({
    label,
    contentType,
    declared: true,
  });
  const media = spec.content![mediaType!];
  const body: unknown = mediaType === 'application/json' ? JSON.parse(text) : text;
  const validate = ajv.compile(inDocument(media!.schema));
  const valid = validate(body);
  expect({ label, errors: valid ? [] : validate.errors }).toEqual({ label, errors: [] });
  return body;
}

/** A schema of the document, its references pointed at the document ajv holds. */
const inDocument = (schema: unknown): object =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/')) as object;

describe('GET /openapi.json', () => {
  it('answers the OpenAPI 3.1 document with every route as an operation, without credentials', async () => {
    const response = await fetch(`${server.baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const served = (await response.json()) as Doc;
    expect(served.openapi).toBe('3.1.0');
    expect(served.info.version).toBe('1.0.0');
    const operations = Object.entries(served.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations.sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path} ${r.id}`).sort());
  });
});

describe('real answers', () => {
  const post = (body: unknown, headers: Record<string, string> = {}) => ({
    method: 'POST',
    body: JSON.stringify(body),
    headers,
  });

  it('of the connector operations hold to the document, errors included', async () => {
    const call = api(server);
    await conforms('listProviders', await call('/connectors/v1/providers'));
    const create = () =>
      call(
        '/connectors/v1/connections',
        post(
          { provider: 'practice', return_url: 'http://localhost:3001/return' },
          { 'Idempotency-Key': 'oas-1' },
        ),
      );
    const pending = (await conforms('createConnection', await create())) as {
      connection_id: string;
      connect_url: string;
    };
    const retried = await create();
    expect(retried.headers.get('Idempotent-Replayed')).toBe('true');
    await conforms('createConnection', retried);
    await conforms('getConnection', await call(`/connectors/v1/connections/${pending.connection_id}`));
    await conforms('listConnections', await call('/connectors/v1/connections?limit=5&status=pending'));
    await conforms(
      'setProviderEnabled',
      await call('/connectors/v1/connections', {
        method: 'PATCH',
        body: JSON.stringify({ provider: 'drive', enabled: true, confirm_organization_wide: true }),
      }),
    );
    await conforms('showConnectLink', await fetch(pending.connect_url));
    await conforms(
      'openConnectLink',
      await fetch(pending.connect_url, { method: 'POST', redirect: 'manual' }),
    );
    const spent = await fetch(pending.connect_url, { method: 'POST', headers: { Accept: 'text/html' } });
    expect(spent.headers.get('content-type')).toMatch(/^text\/html/); // a person's browser gets a page
    await conforms('openConnectLink', spent);
    const forged = `${server.baseUrl}/connectors/v1/oauth/practice/callback?code=c&state=e30.${'A'.repeat(43)}`;
    await conforms('oauthCallback', await fetch(forged, { redirect: 'manual' }));

    const toPurge = (await conforms(
      'createConnection',
      await call(
        '/connectors/v1/connections',
        post({ provider: 'drive', return_url: 'https://example.com/r' }),
      ),
    )) as { connection_id: string };
    const job = (await conforms(
      'deleteConnection',
      await call(`/connectors/v1/connections/${toPurge.connection_id}?purge=true`, { method: 'DELETE' }),
    )) as { id: string };
    await conforms('getConnectorJob', await call(`/connectors/jobs/${job.id}`));
    await conforms(
      'deleteConnection',
      await call(`/connectors/v1/connections/${pending.connection_id}`, { method: 'DELETE' }),
    );

    await conforms('listProviders', await fetch(`${server.baseUrl}/connectors/v1/providers`)); // 401
    await conforms('getConnection', await call('/connectors/v1/connections/conn_aaaaaaaaaaaaaaaaaaaa')); // 404
    await conforms('getConnection', await call('/connectors/v1/connections/nope')); // 404, malformed
    await conforms('createConnection', await call('/connectors/v1/connections', post({ provider: 'x' }))); // 400
  });

  it('of the import and export operations hold to the document', async () => {
    const call = api(server);
    const { connectionId } = await connectThroughSandbox(call, { account: 'acct-oas-imports' });
    const sources = (await conforms(
      'listSources',
      await call(`/connectors/v1/connections/${connectionId}/sources?limit=2`),
    )) as { data: { id: string }[] };
    const matter = sources.data[0]!.id;
    await conforms(
      'listSources',
      await call(`/connectors/v1/connections/${connectionId}/sources?parent=${encodeURIComponent(matter)}`),
    );
    await conforms(
      'listSources',
      await call(`/connectors/v1/connections/${connectionId}/sources?parent=nope`),
    ); // 404
    const link = (await conforms(
      'createImportLink',
      await call(
        `/connectors/v1/connections/${connectionId}/links`,
        post({ vault_id: 'vlt_oas', source: { id: matter }, schedule: { every_minutes: 60 } }),
      ),
    )) as { id: string };
    await conforms(
      'createImportLink',
      await call(
        `/connectors/v1/connections/${connectionId}/links`,
        post({ vault_id: 'vlt_oas', source: { id: matter } }),
      ),
    ); // 409: the same source into the same vault
    await conforms('listImportLinks', await call(`/connectors/v1/connections/${connectionId}/links`));
    await conforms('getImportLink', await call(`/connectors/v1/links/${link.id}`));
    const run = (await conforms(
      'startSyncRun',
      await call(`/connectors/v1/links/${link.id}/runs`, { method: 'POST' }),
    )) as { id: string };
    await until('the run to finish', async () => {
      const job = (await (await call(`/connectors/jobs/${run.id}`)).json()) as { status: string };
      return job.status === 'processing' ? undefined : job;
    });
    await conforms('getConnectorJob', await call(`/connectors/jobs/${run.id}`));
    await conforms('listSyncRuns', await call(`/connectors/v1/links/${link.id}/runs`));
    const documents = (await conforms(
      'listLinkDocuments',
      await call(`/connectors/v1/links/${link.id}/documents?limit=2`),
    )) as { data: { document_id: string }[] };
    const exported = (await conforms(
      'createExport',
      await call(
        `/connectors/v1/connections/${connectionId}/exports`,
        post({
          vault_id: 'vlt_oas',
          document_ids: documents.data.map((d) => d.document_id),
          destination: { id: matter },
        }),
      ),
    )) as { id: string };
    await until('the export to finish', async () => {
      const job = (await (await call(`/connectors/jobs/${exported.id}`)).json()) as { status: string };
      return job.status === 'processing' ? undefined : job;
    });
    await conforms('getConnectorJob', await call(`/connectors/jobs/${exported.id}`));
    await conforms(
      'updateImportLink',
      await call(`/connectors/v1/links/${link.id}`, {
        method: 'PATCH',
        body: JSON.stringify({ label: 'oas', paused: true, schedule: { every_minutes: 30 } }),
      }),
    );
    await conforms('deleteImportLink', await call(`/connectors/v1/links/${link.id}`, { method: 'DELETE' }));
    await conforms('getImportLink', await call(`/connectors/v1/links/${link.id}`)); // 404
  });

  it('of the webhook and delivery operations hold to the document', async () => {
    const call = api(server);
    const system = api(server, server.credentials.systemKey);
    const { endpoint } = (await conforms(
      'createWebhookEndpoint',
      await call(
        '/webhooks/v1/endpoints',
        post({ url: receiver.url('/hook'), eventTypeFilters: ['matter.*'] }),
      ),
    )) as { endpoint: { id: string } };
    const at = `/webhooks/v1/endpoints/${endpoint.id}`;
    await conforms('getWebhookEndpoint', await call(at));
    await conforms('listWebhookEndpoints', await call('/webhooks/v1/endpoints?limit=2'));
    await conforms(
      'updateWebhookEndpoint',
      await call(at, { method: 'PATCH', body: JSON.stringify({ description: 'e2e', resourceScopes: null }) }),
    );
    await conforms('disableWebhookEndpoint', await call(`${at}/disable`, { method: 'POST' }));
    await conforms('enableWebhookEndpoint', await call(`${at}/enable`, { method: 'POST' }));
    await conforms('rotateWebhookSecret', await call(`${at}/rotate-secret`, { method: 'POST' }));
    await conforms('testWebhookEndpoint', await call(`${at}/test`, { method: 'POST' }));
    await conforms('listWebhookEventTypes', await call('/webhooks/v1/event-types?limit=20'));

    const event = {
      organizationId: server.credentials.organizationId,
      type: 'matter.created',
      data: { matterId: 'mat_oas', name: 'Doe v. Roe' },
    };
    await conforms('publishWebhookEvent', await system('/webhooks/v1/events', post(event)));
    const deliveries = await until('the delivery of the published event', async () => {
      const page = (await (await call(`${at}/deliveries`)).json()) as { data: { id: string }[] };
      return page.data.length ? page : undefined;
    });
    await conforms('listWebhookDeliveries', await call(`${at}/deliveries?status=delivered`));
    const deliveryId = deliveries.data[0]!.id;
    await conforms('getWebhookDelivery', await call(`/webhooks/v1/deliveries/${deliveryId}`));
    await conforms(
      'replayWebhookDelivery',
      await call(`/webhooks/v1/deliveries/${deliveryId}/replay`, { method: 'POST' }),
    );
    const job = (await conforms(
      'recoverWebhookEndpoint',
      await call(`${at}/recover`, post({ since: new Date(Date.now() - 3600_000).toISOString() })),
    )) as { id: string };
    await conforms('getWebhookJob', await call(`/webhooks/jobs/${job.id}`));
    await conforms('listWebhookDeadLetters', await call('/webhooks/v1/dead-letters'));
    await conforms('deleteWebhookEndpoint', await call(at, { method: 'DELETE' }));

    await conforms('publishWebhookEvent', await call('/webhooks/v1/events', post(event))); // 403: not a system key
    await conforms(
      'publishWebhookEvent',
      await system('/webhooks/v1/events', post({ ...event, organizationId: 'org_aaaaaaaaaaaaaaaaaaaa' })),
    ); // 404
  });

  it('of the application and documentation operations hold to the document', async () => {
    const { id: applicationId } = server.admin(
      'create-app',
      '--org',
      server.credentials.organizationId,
      '--name',
      'oas',
    ) as { id: string };
    const { keyId } = server.createKey('connectors:read');
    const owner = api(server, server.credentials.consoleToken!);
    const binding = `/connectors/v1/applications/${applicationId}/keys/${keyId}`;
    await conforms('bindApplicationKey', await owner(binding, { method: 'PUT' }));
    await conforms('listApplications', await owner('/connectors/v1/applications'));
    await conforms('unbindApplicationKey', await owner(binding, { method: 'DELETE' }));
    await conforms('getOpenApi', await fetch(`${server.baseUrl}/openapi.json`));
  });

  it('of the sign-in link and portal session operations hold to the document', async () => {
    const key = api(server, server.createKey('portal:read,portal:write').apiKey);
    const fromConsole = {
      'X-Console-Request': '1',
      'Content-Type': 'application/json',
      Origin: server.baseUrl,
    };
    await conforms(
      'putPortalSettings',
      await key('/connectors/v1/portal/settings', {
        method: 'PUT',
        body: JSON.stringify({
          frame_ancestors: [],
          brand_color: '#5b2a86',
          logo_url: null,
          appearance: 'dark',
        }),
      }),
    );
    await conforms('getPortalSettings', await key('/connectors/v1/portal/settings'));
    const minted = (await conforms(
      'createPortalLink',
      await key('/connectors/v1/portal/links', post({ role: 'read-only', sections: ['webhooks'] })),
    )) as { url: string };
    await conforms('createPortalLink', await key('/connectors/v1/portal/links', post({ role: 'nobody' }))); // 400
    const link = new URL(minted.url);
    await conforms('openPortalLink', await fetch(`${server.baseUrl}${link.pathname}`));
    const exchange = () =>
      fetch(`${server.baseUrl}/connectors/v1/session/exchange`, {
        method: 'POST',
        headers: fromConsole,
        body: JSON.stringify({ token: decodeURIComponent(link.hash.slice(1)) }),
      });
    const exchanged = await exchange();
    const cookie = exchanged.headers
      .getSetCookie()
      .find((c) => c.startsWith('console_session='))!
      .split(';')[0]!;
    const { redirect } = (await conforms('exchangePortalLink', exchanged)) as { redirect: string };
    await conforms('exchangePortalLink', await exchange()); // 410: spent
    const asConsole = { Cookie: cookie, 'X-Console-Request': '1' };
    await conforms(
      'readSession',
      await fetch(`${server.baseUrl}/connectors/v1/session`, { headers: asConsole }),
    );
    await conforms(
      'showPortal',
      await fetch(`${server.baseUrl}${redirect.split('#')[0]}`, { headers: { Cookie: cookie } }),
    );
    const sessions = (await conforms('listPortalSessions', await key('/connectors/v1/portal/sessions'))) as {
      data: { id: string }[];
    };
    await conforms(
      'signOut',
      await fetch(`${server.baseUrl}/connectors/v1/session/sign-out`, {
        method: 'POST',
        headers: { ...asConsole, Origin: server.baseUrl },
      }),
    );
    await conforms(
      'revokePortalSession',
      await key(`/connectors/v1/portal/sessions/${sessions.data[0]!.id}`, { method: 'DELETE' }),
    );
  });

  // After the three above (jest runs a file's tests in order): a route added without a check here fails.
  it('were seen for every operation of the route table', () => {
    expect([...checked].sort()).toEqual(ROUTES.map((route) => route.id).sort());
  });
});
