// Purge on disconnect over HTTP against `npm start`'s server: DELETE ?purge=true answers 202 with a
// job, the workflow (the deployed definition, interpreted locally) deletes the imported documents,
// and GET /connectors/jobs/{id} follows it to the end. Ledgers are seeded through a local test hook.
import type { RunningServer } from '../support/local-server';
import { api, startLocalServer } from '../support/local-server';
import type { Receiver } from '../support/receiver';
import { startReceiver } from '../support/receiver';
import { until } from '../support/until';

let server: RunningServer;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startLocalServer();
  call = api(server);
});

afterAll(async () => {
  await server?.stop();
});

async function connection(): Promise<string> {
  const response = await call('/connectors/v1/connections', {
    method: 'POST',
    body: JSON.stringify({ provider: 'practice', return_url: 'https://app.example.com/back' }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { connection_id: string }).connection_id;
}

async function seed(connectionId: string, count: number) {
  const response = await fetch(`${server.baseUrl}/__dev/ledger`, {
    method: 'POST',
    body: JSON.stringify({ connectionId, count, vaultId: 'vlt_e2e' }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { vaultId: string; organizationId: string; objectIds: string[] };
}

const documentStatus = async (vaultId: string, objectId: string) =>
  (await fetch(`${server.baseUrl}/__dev/vault/${server.credentials.organizationId}/${vaultId}/${objectId}`))
    .status;

interface Job {
  id: string;
  status: string;
  counts: { deleted: number; pages: number };
  connection_id: string;
}

async function settled(id: string): Promise<Job> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await call(`/connectors/jobs/${id}`);
    expect(response.status).toBe(200);
    const job = (await response.json()) as Job;
    if (job.status !== 'processing') return job;
    if (Date.now() > deadline) throw new Error(`purge job ${id} still processing after 30 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('DELETE /connectors/v1/connections/{id}?purge=true', () => {
  it('answers 202 with a processing job that ends succeeded once every imported document is gone', async () => {
    const purged = await connection();
    const kept = await connection();
    const seeded = await seed(purged, 120);
    const other = await seed(kept, 3);

    const response = await call(`/connectors/v1/connections/${purged}?purge=true`, { method: 'DELETE' });
    expect(response.status).toBe(202);
    const job = (await response.json()) as { id: string; status: string };
    expect(job).toEqual({ id: expect.stringMatching(/^job_[a-z2-7]{20}$/), status: 'processing' });

    expect(await settled(job.id)).toMatchObject({
      id: job.id,
      status: 'succeeded',
      connection_id: purged,
      counts: { deleted: 120 },
    });
    for (const objectId of [seeded.objectIds[0]!, seeded.objectIds[119]!]) {
      expect(await documentStatus('vlt_e2e', objectId)).toBe(404);
    }
    for (const objectId of other.objectIds) expect(await documentStatus('vlt_e2e', objectId)).toBe(200);

    const connectionAfter = (await (await call(`/connectors/v1/connections/${purged}`)).json()) as {
      status: string;
    };
    expect(connectionAfter.status).toBe('revoked');

    // Asking again returns the same job, now finished: nothing is purged twice.
    const again = await call(`/connectors/v1/connections/${purged}?purge=true`, { method: 'DELETE' });
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual({ id: job.id, status: 'succeeded' });
  });

  it('publishes connection.revoked with purge:true for ?purge=true and purge:false without', async () => {
    const receiver: Receiver = await startReceiver();
    try {
      const registered = await call('/webhooks/v1/endpoints', {
        method: 'POST',
        body: JSON.stringify({ url: receiver.url('/revoked'), eventTypeFilters: ['connection.revoked'] }),
      });
      expect(registered.status).toBe(201);
      const purged = await connection();
      const plain = await connection();
      expect(
        (await call(`/connectors/v1/connections/${purged}?purge=true`, { method: 'DELETE' })).status,
      ).toBe(202);
      expect((await call(`/connectors/v1/connections/${plain}`, { method: 'DELETE' })).status).toBe(204);
      const purgeOf = async (connectionId: string) =>
        until(`the connection.revoked event of ${connectionId}`, async () => {
          const hit = receiver.received
            .map((r) => JSON.parse(r.body) as { data: { connectionId: string; purge: boolean } })
            .find((event) => event.data.connectionId === connectionId);
          return hit?.data.purge;
        });
      expect(await purgeOf(purged)).toBe(true);
      expect(await purgeOf(plain)).toBe(false);
    } finally {
      await receiver.close();
    }
  });

  it("answers 404 to another organization's job and to an unknown one", async () => {
    const id = await connection();
    const started = await call(`/connectors/v1/connections/${id}?purge=true`, { method: 'DELETE' });
    const job = (await started.json()) as { id: string };
    const { apiKey } = server.otherOrganization();
    const foreign = await api(server, apiKey)(`/connectors/jobs/${job.id}`);
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    expect((await call('/connectors/jobs/job_aaaaaaaaaaaaaaaaaaaa')).status).toBe(404);
    expect((await call('/connectors/jobs/not-a-job')).status).toBe(404);
  });
});
