// Events over HTTP against the local server: a system key publishes, the local pipeline (fan-out and
// delivery workers on the in-process queues) signs and delivers to a loopback receiver, and history,
// replay and recover work through the API.
import { Webhook } from 'standardwebhooks';
import type { RunningServer } from '../support/local-server';
import { api, startLocalServer } from '../support/local-server';
import type { Receiver } from '../support/receiver';
import { startReceiver } from '../support/receiver';
import { until } from '../support/until';

let server: RunningServer;
let receiver: Receiver;
let call: ReturnType<typeof api>;
let system: ReturnType<typeof api>;

beforeAll(async () => {
  // One after the other: had one failed while the other started, afterAll could not close the other.
  receiver = await startReceiver();
  server = await startLocalServer();
  call = api(server);
  system = api(server, server.credentials.systemKey);
});

afterAll(async () => {
  await Promise.all([server?.stop(), receiver?.close()]);
});

async function register(path: string) {
  const response = await call('/webhooks/v1/endpoints', {
    method: 'POST',
    body: JSON.stringify({ url: receiver.url(path), eventTypeFilters: ['matter.*'] }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { endpoint: { id: string }; signingSecret: string };
}

const publish = (
  key: ReturnType<typeof api>,
  data: Record<string, unknown> = { matterId: 'mat_1', name: 'Smith v Jones' },
) =>
  key('/webhooks/v1/events', {
    method: 'POST',
    body: JSON.stringify({ organizationId: server.credentials.organizationId, type: 'matter.created', data }),
  });

describe('events through the local server', () => {
  it('delivers an event published with the system key to a registered endpoint, verifiable with standardwebhooks', async () => {
    const { endpoint, signingSecret } = await register('/e2e-ok');
    const response = await publish(system);
    expect(response.status).toBe(202);
    const event = (await response.json()) as { id: string; occurred_at: string };
    expect(event.occurred_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const request = await until('the signed delivery at /e2e-ok', async () =>
      receiver.received.find((r) => r.path === '/e2e-ok'),
    );
    const payload = new Webhook(signingSecret).verify(
      request.body,
      request.headers as Record<string, string>,
    );
    expect(payload).toMatchObject({ id: event.id, type: 'matter.created', data: { matterId: 'mat_1' } });

    const list = await until('the delivery in the endpoint history', async () => {
      const body = (await (
        await call(`/webhooks/v1/endpoints/${endpoint.id}/deliveries?status=delivered`)
      ).json()) as {
        data: { id: string; eventId: string }[];
      };
      return body.data.length ? body : undefined;
    });
    expect(list.data[0]!.eventId).toBe(event.id);
    const detail = (await (await call(`/webhooks/v1/deliveries/${list.data[0]!.id}`)).json()) as {
      status: string;
      attempts: { statusCode: number }[];
    };
    expect(detail).toMatchObject({ status: 'delivered', attempts: [{ statusCode: 204 }] });
    // The delivery says how long its last attempt took (the console's latency chart).
    expect((detail as unknown as { lastLatencyMs: number }).lastLatencyMs).toEqual(expect.any(Number));
    // The attempt keeps the headers sent (the signature cut to its prefix) and the answer's headers.
    const [attempt] = (
      detail as unknown as {
        attempts: { requestHeaders: Record<string, string>; responseHeaders: Record<string, string> }[];
      }
    ).attempts;
    expect(attempt!.requestHeaders).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': event.id,
      'webhook-timestamp': request.headers['webhook-timestamp'],
      'webhook-signature': 'v1,…',
    });
    expect(String(request.headers['webhook-signature'])).toMatch(/^v1,.{20,}/);
    expect(JSON.stringify(detail)).not.toContain(String(request.headers['webhook-signature']).slice(3));
    expect(attempt!.responseHeaders).toEqual(expect.objectContaining({ date: expect.any(String) }));

    const replay = await call(`/webhooks/v1/deliveries/${list.data[0]!.id}/replay`, { method: 'POST' });
    expect(replay.status).toBe(202);
    const again = await until('the replayed delivery', async () => {
      const hits = receiver.received.filter((r) => r.path === '/e2e-ok');
      return hits.length === 2 ? hits[1] : undefined;
    });
    expect(again.headers['webhook-id']).toBe(event.id);
  });

  it('lists the dead letters of the organization through the API (none while the pipeline is healthy)', async () => {
    const response = await call('/webhooks/v1/dead-letters?limit=10');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: [] });
    expect((await call('/webhooks/v1/dead-letters?limit=0')).status).toBe(400);
  });

  it("refuses every endpoint, secret and delivery route to a key lacking the endpoint's event permissions", async () => {
    const { endpoint } = await register('/e2e-guarded');
    expect((await publish(system)).status).toBe(202);
    const delivery = await until('the delivery of the guarded endpoint', async () => {
      const body = (await (await call(`/webhooks/v1/endpoints/${endpoint.id}/deliveries`)).json()) as {
        data: { id: string }[];
      };
      return body.data[0];
    });
    // webhooks:read/write alone, without matters:read which the endpoint's matter.* events need.
    const webhooksOnly = api(server, server.createKey('webhooks:read,webhooks:write').apiKey);
    const post = { method: 'POST' };
    const probes: [string, RequestInit?][] = [
      [`/webhooks/v1/endpoints/${endpoint.id}`],
      [
        `/webhooks/v1/endpoints/${endpoint.id}`,
        { method: 'PATCH', body: JSON.stringify({ url: 'https://evil.example.com/x' }) },
      ],
      [`/webhooks/v1/endpoints/${endpoint.id}/rotate-secret`, post],
      [`/webhooks/v1/endpoints/${endpoint.id}/test`, post],
      [`/webhooks/v1/endpoints/${endpoint.id}/disable`, post],
      [`/webhooks/v1/endpoints/${endpoint.id}/enable`, post],
      [`/webhooks/v1/endpoints/${endpoint.id}/deliveries`],
      [
        `/webhooks/v1/endpoints/${endpoint.id}/recover`,
        { method: 'POST', body: JSON.stringify({ since: '2020-01-01T00:00:00Z' }) },
      ],
      [`/webhooks/v1/deliveries/${delivery.id}`],
      [`/webhooks/v1/deliveries/${delivery.id}/replay`, post],
      [`/webhooks/v1/endpoints/${endpoint.id}`, { method: 'DELETE' }],
    ];
    for (const [path, init] of probes) {
      const response = await webhooksOnly(path, init);
      const text = await response.text();
      expect({ path, method: init?.method ?? 'GET', status: response.status }).toEqual({
        path,
        method: init?.method ?? 'GET',
        status: 403,
      });
      expect(text).toContain('matters:read');
      expect(text).not.toContain('whsec_');
      expect(text).not.toContain('Smith v Jones');
    }
    const listed = (await (await webhooksOnly('/webhooks/v1/endpoints?limit=200')).json()) as {
      data: { id: string }[];
    };
    expect(listed.data.map((e) => e.id)).not.toContain(endpoint.id);
    // The same routes are open to a key holding matters:read too.
    const withMatters = api(server, server.createKey('webhooks:read,webhooks:write,matters:read').apiKey);
    expect((await withMatters(`/webhooks/v1/deliveries/${delivery.id}`)).status).toBe(200);
    expect((await withMatters(`/webhooks/v1/endpoints/${endpoint.id}/rotate-secret`, post)).status).toBe(200);
  });

  it('refuses a non-system key with 403, bad input with 400 or 413, an unknown organization with 404', async () => {
    expect((await publish(call)).status).toBe(403);
    expect((await publish(system, { matterId: 5 })).status).toBe(400);
    const extra = await publish(system, { matterId: 'm', name: 'x', clientSecret: 'leak' });
    expect(extra.status).toBe(400); // the catalog's schema has additionalProperties: false
    expect(((await extra.json()) as { error: { message: string } }).error.message).toContain('clientSecret');
    expect((await publish(system, { matterId: 'm', name: 'x'.repeat(70_000) })).status).toBe(413);
    const nowhere = await system('/webhooks/v1/events', {
      method: 'POST',
      body: JSON.stringify({
        organizationId: 'org_nosuchorganizationzz',
        type: 'matter.created',
        data: { matterId: 'mat_1', name: 'x' },
      }),
    });
    expect(nowhere.status).toBe(404); // well formed, names no organization
    expect(((await nowhere.json()) as { error: { message: string } }).error.message).toContain(
      'organizationId: no such organization',
    );
    const unknown = await system('/webhooks/v1/events', {
      method: 'POST',
      body: JSON.stringify({
        organizationId: server.credentials.organizationId,
        type: 'nope.nothing',
        data: {},
      }),
    });
    expect(unknown.status).toBe(400);
    expect((await call('/webhooks/v1/deliveries/dlv_aaaaaaaaaaaaaaaaaaaa')).status).toBe(404);
    expect((await call('/webhooks/v1/endpoints/we_aaaaaaaaaaaaaaaaaaaa/deliveries?status=odd')).status).toBe(
      400,
    );
  });

  it('scopes system keys: the platform key publishes into existing organizations, an org-bound one only into its own', async () => {
    const toOrg = (key: ReturnType<typeof api>, organizationId: string) =>
      key('/webhooks/v1/events', {
        method: 'POST',
        body: JSON.stringify({
          organizationId,
          type: 'matter.created',
          data: { matterId: 'mat_9', name: 'Doe' },
        }),
      });
    // An organization that does not exist is refused, not accepted into the void.
    const missing = await toOrg(system, 'org_aaaaaaaaaaaaaaaaaaaa');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('organizationId: no such organization');

    const other = server.otherOrganization('publish-target');
    const into = await toOrg(system, other.organizationId);
    expect(await into.text()).toContain('"id"');
    expect(into.status).toBe(202);

    // The admin CLI refuses a system key in a customer organization unless asked to bind it there.
    expect(() =>
      server.admin(
        'create-key',
        '--org',
        other.organizationId,
        '--name',
        's',
        '--permissions',
        'all',
        '--system',
      ),
    ).toThrow(/platform organization/);
    const bound = server.admin(
      'create-key',
      '--org',
      other.organizationId,
      '--name',
      's',
      '--permissions',
      'all',
      '--system',
      '--org-bound',
    ) as { apiKey: string };
    const boundKey = api(server, bound.apiKey);
    expect((await toOrg(boundKey, other.organizationId)).status).toBe(202);
    const elsewhere = await toOrg(boundKey, server.credentials.organizationId);
    expect(elsewhere.status).toBe(403);
    expect(await elsewhere.text()).toContain('bound to its organization');
  });

  it('spends a platform bucket of its own on publish, apart from the customer rate limit', async () => {
    const published = await publish(system);
    expect(published.status).toBe(202);
    expect(published.headers.get('x-ratelimit-limit')).toBe('12000');
    const customerRoute = await system('/webhooks/v1/event-types');
    expect(customerRoute.headers.get('x-ratelimit-limit')).toBe('200');
  });

  it('answers a retried publish with the same Idempotency-Key with the first event, not a second id', async () => {
    const send = (key: string | undefined, name: string) =>
      system('/webhooks/v1/events', {
        method: 'POST',
        headers: key ? { 'Idempotency-Key': key } : {},
        body: JSON.stringify({
          organizationId: server.credentials.organizationId,
          type: 'matter.created',
          data: { matterId: 'mat_idem', name },
        }),
      });
    const first = await send('retry-1', 'A');
    const again = await send('retry-1', 'A');
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as { id: string }).id).toBe(((await first.json()) as { id: string }).id);
    const reused = await send('retry-1', 'B');
    expect(reused.status).toBe(409);
    const a = (await (await send(undefined, 'A')).json()) as { id: string };
    const b = (await (await send(undefined, 'A')).json()) as { id: string };
    expect(a.id).not.toBe(b.id);
    expect((await send('x'.repeat(256), 'A')).status).toBe(400);
  });

  it('recovers failed deliveries of a window as a job', async () => {
    receiver.on('/e2e-flip', (n) => (n === 1 ? { status: 400 } : { status: 200 }));
    const since = new Date(Date.now() - 1000).toISOString();
    const { endpoint } = await register('/e2e-flip');
    expect((await publish(system)).status).toBe(202);
    await until('the first delivery to fail (400)', async () => {
      const body = (await (
        await call(`/webhooks/v1/endpoints/${endpoint.id}/deliveries?status=failed`)
      ).json()) as {
        data: unknown[];
      };
      return body.data.length ? true : undefined;
    });
    const started = await call(`/webhooks/v1/endpoints/${endpoint.id}/recover`, {
      method: 'POST',
      body: JSON.stringify({ since }),
    });
    expect(started.status).toBe(202);
    const job = (await started.json()) as { id: string; status: string };
    expect(job.status).toBe('processing');
    const done = await until('the recover job to finish', async () => {
      const body = (await (await call(`/webhooks/jobs/${job.id}`)).json()) as {
        status: string;
        counts: { replayed: number };
      };
      return body.status === 'processing' ? undefined : body;
    });
    expect(done).toMatchObject({ status: 'succeeded', counts: { replayed: 1 } });
    await until('the recovered delivery to be delivered', async () => {
      const body = (await (
        await call(`/webhooks/v1/endpoints/${endpoint.id}/deliveries?status=delivered`)
      ).json()) as {
        data: unknown[];
      };
      return body.data.length ? true : undefined;
    });
  });

  it('filters deliveries by event type, event id and creation window, and marks an endpoint failing until a success', async () => {
    let failing = true;
    receiver.on('/e2e-filter', () => ({ status: failing ? 500 : 200 }));
    const { endpoint } = await register('/e2e-filter');
    const start = new Date(Date.now() - 1000).toISOString();
    const created = (await (await publish(system)).json()) as { id: string };
    const updated = (await (
      await system('/webhooks/v1/events', {
        method: 'POST',
        body: JSON.stringify({
          organizationId: server.credentials.organizationId,
          type: 'matter.updated',
          data: { matterId: 'mat_1', changedFields: ['name'] },
        }),
      })
    ).json()) as { id: string };
    const list = async (query: string) => {
      const response = await call(`/webhooks/v1/endpoints/${endpoint.id}/deliveries?${query}`);
      expect({ query, status: response.status }).toEqual({ query, status: 200 });
      return ((await response.json()) as { data: { eventId: string; eventType: string }[] }).data;
    };
    await until('both deliveries', async () => ((await list('')).length === 2 ? true : undefined));
    expect((await list('eventType=matter.updated')).map((d) => d.eventId)).toEqual([updated.id]);
    expect((await list(`eventId=${created.id}`)).map((d) => d.eventType)).toEqual(['matter.created']);
    expect(await list(`since=${encodeURIComponent(start)}`)).toHaveLength(2);
    expect(await list(`until=${encodeURIComponent(start)}`)).toHaveLength(0);
    expect(await list('eventType=matter.created&eventId=' + updated.id)).toHaveLength(0);
    // A window whose until is not after its since is empty, not an error (the document can't say it).
    expect(
      await list(`since=${encodeURIComponent(new Date().toISOString())}&until=${encodeURIComponent(start)}`),
    ).toHaveLength(0);
    for (const bad of ['eventId=nope', 'since=yesterday']) {
      const response = await call(`/webhooks/v1/endpoints/${endpoint.id}/deliveries?${bad}`);
      expect({ bad, status: response.status }).toEqual({ bad, status: 400 });
    }

    // A 500 starts a failing streak: the endpoint reads failingSince (get and list), enabled as it is.
    const failingSince = await until('the endpoint to read failing', async () => {
      const body = (await (await call(`/webhooks/v1/endpoints/${endpoint.id}`)).json()) as {
        enabled: boolean;
        failingSince: string | null;
      };
      return body.failingSince ? body : undefined;
    });
    expect(failingSince.enabled).toBe(true);
    const listed = (await (await call('/webhooks/v1/endpoints?limit=200')).json()) as {
      data: { id: string; failingSince: string | null }[];
    };
    expect(listed.data.find((e) => e.id === endpoint.id)!.failingSince).toBe(failingSince.failingSince);
    failing = false;
    const test = await call(`/webhooks/v1/endpoints/${endpoint.id}/test`, { method: 'POST', body: '{}' });
    expect(test.status).toBe(200);
    const delivery = (await list(`eventId=${created.id}`)) as unknown as { id: string }[];
    expect((await call(`/webhooks/v1/deliveries/${delivery[0]!.id}/replay`, { method: 'POST' })).status).toBe(
      202,
    );
    await until('the endpoint to read healthy again', async () => {
      const body = (await (await call(`/webhooks/v1/endpoints/${endpoint.id}`)).json()) as {
        failingSince: string | null;
      };
      return body.failingSince === null ? true : undefined;
    });
  });
});
