// Sync semantics a user of imports asks for, over HTTP against `npm start`'s server and its
// sandbox provider, on both runtimes: a link edited in place (schedule, pause/resume, label) keeps its
// documents; overlapping links into one vault import a file once.
import type { RunningServer } from '../support/local-server';
import { api, startLocalServer } from '../support/local-server';
import { connectThroughSandbox } from '../support/connect';
import { until } from '../support/until';
import type { Receiver } from '../support/receiver';
import { startReceiver } from '../support/receiver';

let server: RunningServer;
let receiver: Receiver;
let call: ReturnType<typeof api>;
let sandboxUrl = '';

const waitFor = (what: string, condition: () => Promise<boolean>, ms = 30_000) =>
  until(what, async () => ((await condition()) ? true : undefined), ms);

interface Source {
  id: string;
  name: string;
  kind: 'container' | 'file';
}

interface Job {
  id: string;
  status: 'processing' | 'succeeded' | 'failed';
  trigger: string;
  counts: Record<string, number>;
}

interface Link {
  id: string;
  label: string | null;
  schedule: { every_minutes: number } | null;
  paused: boolean;
  status: string;
  next_run_at: string | null;
  last_run: { job_id: string; status: string } | null;
  last_skipped: { reason: string } | null;
}

interface LinkDocument {
  document_id: string;
  source: { id: string; name: string };
  status: string;
}

beforeAll(async () => {
  // One after the other: had one failed while the other started, afterAll could not close the other.
  receiver = await startReceiver();
  server = await startLocalServer({ LOCAL_SCHEDULE_INTERVAL_MS: '0' });
  call = api(server);
});

afterAll(async () => {
  await Promise.all([server?.stop(), receiver?.close()]);
});

async function json<T>(path: string, init?: RequestInit & { expect?: number }): Promise<T> {
  const response = await call(path, init);
  const body = response.status === 204 ? undefined : await response.json();
  expect({ path, status: response.status, body }).toMatchObject({ path, status: init?.expect ?? 200 });
  return body as T;
}

async function connect(provider: 'practice' | 'drive', account: string): Promise<string> {
  const connected = await connectThroughSandbox(call, { provider, account });
  sandboxUrl = connected.sandboxUrl;
  return connected.connectionId;
}

async function settled(jobId: string): Promise<Job> {
  let job: Job | undefined;
  await waitFor(
    `job ${jobId} to finish`,
    async () => {
      await new Promise((r) => setTimeout(r, 200)); // within the key's rate limit
      job = await json<Job>(`/connectors/jobs/${jobId}`);
      return job.status !== 'processing';
    },
    90_000,
  );
  return job!;
}

async function start(linkId: string): Promise<string> {
  return (await json<{ id: string }>(`/connectors/v1/links/${linkId}/runs`, { method: 'POST', expect: 202 }))
    .id;
}

const run = async (linkId: string) => settled(await start(linkId));

async function sweepNow(): Promise<void> {
  const response = await fetch(`${server.baseUrl}/__dev/sync-sweep`, { method: 'POST' });
  expect(response.status).toBe(200);
}

const patch = (linkId: string, body: unknown, expect = 200) =>
  json<Link>(`/connectors/v1/links/${linkId}`, { method: 'PATCH', body: JSON.stringify(body), expect });

const documents = async (linkId: string) =>
  (await json<{ data: LinkDocument[] }>(`/connectors/v1/links/${linkId}/documents?limit=200`)).data;

const sources = async (connectionId: string, parent?: string) =>
  (
    await json<{ data: Source[] }>(
      `/connectors/v1/connections/${connectionId}/sources${parent ? `?parent=${encodeURIComponent(parent)}` : ''}`,
    )
  ).data;

/** Every file of the account at the sandbox, at any depth. */
async function sandboxFiles(provider: string, account: string) {
  const response = await fetch(`${sandboxUrl}/__sandbox/files?provider=${provider}&account_id=${account}`);
  return ((await response.json()) as { files: { id: string; path: string }[] }).files;
}

describe('PATCH /connectors/v1/links/{id}', () => {
  let connectionId: string;
  let linkId: string;
  let imported: LinkDocument[];

  beforeAll(async () => {
    connectionId = await connect('practice', 'acct-sync-edit');
    const matter = (await sources(connectionId))[0]!;
    const link = await json<Link>(`/connectors/v1/connections/${connectionId}/links`, {
      method: 'POST',
      body: JSON.stringify({ vault_id: 'vlt_edit', source: { id: matter.id }, label: 'Matter one' }),
      expect: 201,
    });
    expect(link).toMatchObject({ label: 'Matter one', schedule: null, paused: false, next_run_at: null });
    linkId = link.id;
    expect(await run(linkId)).toMatchObject({ status: 'succeeded' });
    imported = await documents(linkId);
    expect(imported.length).toBeGreaterThan(0);
  });

  it('schedules a link in place: the scheduled run imports nothing again and keeps the document ids', async () => {
    const edited = await patch(linkId, { schedule: { every_minutes: 60 } });
    expect(edited).toMatchObject({ id: linkId, schedule: { every_minutes: 60 }, paused: false });
    expect(edited.next_run_at).toEqual(expect.any(String));
    await sweepNow();
    await waitFor(
      'the scheduled run',
      async () => (await json<Link>(`/connectors/v1/links/${linkId}`)).last_run?.status === 'succeeded',
    );
    const runs = (await json<{ data: Job[] }>(`/connectors/v1/links/${linkId}/runs`)).data;
    expect(runs[0]).toMatchObject({ trigger: 'schedule', counts: { imported: 0, updated: 0 } });
    expect((await documents(linkId)).map((d) => d.document_id).sort()).toEqual(
      imported.map((d) => d.document_id).sort(),
    );
  });

  it('pauses a link: no scheduled run, runs refused with 409; resuming runs it at the next sweep', async () => {
    const paused = await patch(linkId, { paused: true });
    expect(paused).toMatchObject({ paused: true, next_run_at: null, schedule: { every_minutes: 60 } });
    const refused = await call(`/connectors/v1/links/${linkId}/runs`, { method: 'POST' });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('paused');
    const before = (await json<{ data: Job[] }>(`/connectors/v1/links/${linkId}/runs`)).data.length;
    await server.advanceClock(2 * 60 * 60_000);
    await sweepNow();
    const still = await json<Link>(`/connectors/v1/links/${linkId}`);
    expect(still).toMatchObject({ paused: true, status: 'idle', last_skipped: null });
    expect((await json<{ data: Job[] }>(`/connectors/v1/links/${linkId}/runs`)).data).toHaveLength(before);

    const resumed = await patch(linkId, { paused: false });
    expect(resumed.paused).toBe(false);
    expect(Date.parse(resumed.next_run_at!)).toBeLessThanOrEqual(await server.clockNow());
    await sweepNow();
    await waitFor(
      'the run after the resume',
      async () => (await json<{ data: Job[] }>(`/connectors/v1/links/${linkId}/runs`)).data.length > before,
    );
    expect(await run(linkId)).toMatchObject({ status: 'succeeded', counts: { imported: 0 } });
  });

  it('changes and removes the label and the schedule', async () => {
    expect(await patch(linkId, { label: 'Renamed' })).toMatchObject({ label: 'Renamed' });
    expect(await patch(linkId, { label: null, schedule: null })).toMatchObject({
      label: null,
      schedule: null,
      next_run_at: null,
    });
  });

  it.each([
    ['an empty edit', {}],
    ['a field it does not know', { vault_id: 'vlt_other' }],
    ['a schedule too frequent', { schedule: { every_minutes: 1 } }],
    ['paused that is not a boolean', { paused: 'yes' }],
    ['an empty label', { label: '' }],
  ])('refuses %s with 400', async (_name, body) => {
    const response = await call(`/connectors/v1/links/${linkId}`, {
      method: 'PATCH',
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('INVALID_REQUEST');
  });

  it("answers 404 for a link that does not exist or is another organization's", async () => {
    const missing = await call('/connectors/v1/links/lnk_00000000000000000000', {
      method: 'PATCH',
      body: JSON.stringify({ paused: true }),
    });
    expect(missing.status).toBe(404);
    const other = server.otherOrganization('sync-edit-other');
    const foreign = await fetch(`${server.baseUrl}/connectors/v1/links/${linkId}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${other.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ paused: true }),
    });
    expect(foreign.status).toBe(404);
    expect((await json<Link>(`/connectors/v1/links/${linkId}`)).paused).toBe(false);
  });
});

describe('overlapping links into one vault', () => {
  beforeAll(() => {
    call = api(server, server.createKey().apiKey);
  });

  it('import each file once when a folder and its subfolder are linked and run at the same time', async () => {
    const account = 'acct-sync-overlap';
    const connectionId = await connect('drive', account);
    const clients = (await sources(connectionId)).find(
      (s) => s.kind === 'container' && s.name === 'Clients',
    )!;
    const sub = (await sources(connectionId, clients.id)).find((s) => s.kind === 'container')!;
    const link = (source: Source) =>
      json<Link>(`/connectors/v1/connections/${connectionId}/links`, {
        method: 'POST',
        body: JSON.stringify({ vault_id: 'vlt_overlap', source: { id: source.id } }),
        expect: 201,
      });
    const [outer, inner] = [await link(clients), await link(sub)];
    const jobs = await Promise.all([start(outer.id), start(inner.id)]);
    const [outerRun, innerRun] = (await Promise.all(jobs.map(settled))) as [Job, Job];
    expect([outerRun.status, innerRun.status]).toEqual(['succeeded', 'succeeded']);

    const files = (await sandboxFiles('drive', account)).filter((f) => f.path.startsWith('/Clients/'));
    expect(files.length).toBeGreaterThan(2);
    const held = [...(await documents(outer.id)), ...(await documents(inner.id))];
    expect(held.map((d) => d.source.id).sort()).toEqual(files.map((f) => f.id).sort());
    expect(new Set(held.map((d) => d.document_id)).size).toBe(files.length);
    expect(outerRun.counts.imported! + innerRun.counts.imported!).toBe(files.length);

    // Again, one after the other: nothing new.
    expect((await run(outer.id)).counts).toMatchObject({ imported: 0, updated: 0 });
    expect((await run(inner.id)).counts).toMatchObject({ imported: 0, updated: 0 });
  });
});

/** Every page of a list, by offset and by cursor, as the ids (or `key`s) of its items. */
async function walk(path: string, limit: number, key: (item: Record<string, unknown>) => unknown) {
  type Page = { data: Record<string, unknown>[]; has_more?: boolean; hasMore?: boolean } & Record<
    string,
    unknown
  >;
  const sep = path.includes('?') ? '&' : '?';
  const byOffset: unknown[] = [];
  for (let offset = 0; ; offset += limit) {
    const page = await json<Page>(`${path}${sep}limit=${limit}&offset=${offset}`);
    byOffset.push(...page.data.map(key));
    if (!(page.has_more ?? page.hasMore)) break;
  }
  const byCursor: unknown[] = [];
  let cursor: string | null = null;
  do {
    const page: Page = await json<Page>(
      `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    byCursor.push(...page.data.map(key));
    cursor = ('next_cursor' in page ? page.next_cursor : page.nextCursor) as string | null;
    expect(cursor !== null).toBe(page.has_more ?? page.hasMore);
  } while (cursor);
  return { byOffset, byCursor };
}

describe('cursor pagination of the long lists', () => {
  const account = 'acct-sync-pages';
  let linkId: string;
  let endpointId: string;
  let files: number;

  beforeAll(async () => {
    call = api(server, server.createKey().apiKey); // a rate limit of its own (100 requests a minute)
    const endpoint = await json<{ endpoint: { id: string } }>('/webhooks/v1/endpoints', {
      method: 'POST',
      body: JSON.stringify({ url: receiver.url('/pages'), eventTypeFilters: ['vault.ingest.completed'] }),
      expect: 201,
    });
    endpointId = endpoint.endpoint.id;
    const connectionId = await connect('practice', account);
    const matter = (await sources(connectionId))[0]!;
    const seeded = await fetch(`${sandboxUrl}/__sandbox/seed`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        provider: 'practice',
        account_id: account,
        container_id: matter.id,
        count: 120,
      }),
    });
    expect(seeded.status).toBeLessThan(300);
    const link = await json<Link>(`/connectors/v1/connections/${connectionId}/links`, {
      method: 'POST',
      body: JSON.stringify({ vault_id: 'vlt_pages', source: { id: matter.id } }),
      expect: 201,
    });
    linkId = link.id;
    const first = await run(linkId);
    expect(first.status).toBe('succeeded');
    files = first.counts.imported!;
    expect(files).toBeGreaterThan(60);
    for (let i = 0; i < 3; i++) await run(linkId);
  }, 240_000);

  it("walks a link's documents by cursor exactly as by offset", async () => {
    const { byOffset, byCursor } = await walk(
      `/connectors/v1/links/${linkId}/documents`,
      50,
      (d) => d.document_id,
    );
    expect(byCursor).toHaveLength(files);
    expect(byCursor).toEqual(byOffset);
  });

  it("walks a link's runs by cursor exactly as by offset, newest first", async () => {
    const { byOffset, byCursor } = await walk(`/connectors/v1/links/${linkId}/runs`, 1, (r) => r.id);
    expect(byCursor).toHaveLength(4);
    expect(byCursor).toEqual(byOffset);
  });

  it("walks an endpoint's deliveries by cursor exactly as by offset, with a filter", async () => {
    const path = `/webhooks/v1/endpoints/${endpointId}/deliveries`;
    await waitFor(
      'every delivery',
      async () => {
        await new Promise((r) => setTimeout(r, 1_000)); // one request a second, under the rate limit
        const page = await json<{ data: unknown[] }>(`${path}?status=delivered&limit=200`);
        return page.data.length === files;
      },
      60_000,
    );
    const { byOffset, byCursor } = await walk(`${path}?status=delivered`, 20, (d) => d.id);
    expect(new Set(byCursor).size).toBe(files);
    expect(byCursor).toEqual(byOffset);
  });

  it('refuses a cursor of another list, a made-up one, and a cursor with an offset, with 400', async () => {
    const documents = await json<{ next_cursor: string }>(`/connectors/v1/links/${linkId}/documents?limit=5`);
    for (const path of [
      `/connectors/v1/links/${linkId}/documents?cursor=bm90IGEgY3Vyc29y`,
      `/connectors/v1/links/${linkId}/documents?cursor=${documents.next_cursor}&offset=5`,
      `/webhooks/v1/endpoints/${endpointId}/deliveries?cursor=${documents.next_cursor}`,
    ]) {
      const response = await call(path);
      expect({ path, status: response.status }).toEqual({ path, status: 400 });
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('INVALID_REQUEST');
    }
  });
});

describe('deletions at the provider', () => {
  // The Dropbox fake's file ids are lower-cased paths: a file deleted and re-created keeps its id.
  const account = 'acct-sync-deletions';
  const provider = 'dropbox';
  let connectionId: string;
  let folder: Source;
  const links: Record<'keep' | 'remove', string> = { keep: '', remove: '' };
  const vaults = { keep: 'vlt_del_keep', remove: 'vlt_del_remove' };

  const hook = async (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') => {
    const response = await fetch(`${sandboxUrl}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status).toBeLessThan(300);
    return response.status === 204 ? undefined : ((await response.json()) as { id: string });
  };
  const putFile = (name: string, content: string) =>
    hook('/__sandbox/files', { provider, account_id: account, container_id: folder.id, name, content });
  const vaultStatus = async (vault: string, documentId: string) =>
    (
      await fetch(
        `${server.baseUrl}/__dev/vault/${server.credentials.organizationId}/${vault}/${documentId}/content`,
      )
    ).status;
  const documentOf = async (which: 'keep' | 'remove', sourceId: string) =>
    (await documents(links[which])).find((d) => d.source.id === sourceId) as LinkDocument & {
      vault_version: number;
    };
  const deletedEvents = () =>
    receiver.received
      .filter((r) => r.path === '/deletions')
      .map((r) => JSON.parse(r.body) as { id: string; type: string; data: Record<string, unknown> });

  beforeAll(async () => {
    call = api(server, server.createKey().apiKey);
    await json('/webhooks/v1/endpoints', {
      method: 'POST',
      body: JSON.stringify({ url: receiver.url('/deletions'), eventTypeFilters: ['connector.document.*'] }),
      expect: 201,
    });
    ({ connectionId, sandboxUrl } = await connectThroughSandbox(call, {
      provider,
      account,
      scopeTier: 'import_export',
    }));
    folder = (await sources(connectionId)).find((s) => s.kind === 'container')!;
    for (const which of ['keep', 'remove'] as const) {
      const link = await json<Link & { on_source_delete: string }>(
        `/connectors/v1/connections/${connectionId}/links`,
        {
          method: 'POST',
          body: JSON.stringify({
            vault_id: vaults[which],
            source: { id: folder.id },
            ...(which === 'remove' ? { on_source_delete: 'remove' } : {}),
          }),
          expect: 201,
        },
      );
      expect(link.on_source_delete).toBe(which);
      links[which] = link.id;
    }
  });

  it('counts, announces and marks a deleted file; the remove policy takes its document out of the vault', async () => {
    const gone = (await putFile('deleted-later.txt', 'here for now'))!;
    for (const which of ['keep', 'remove'] as const)
      expect(await run(links[which])).toMatchObject({ status: 'succeeded', counts: { failed: 0 } });
    const before = { keep: await documentOf('keep', gone.id), remove: await documentOf('remove', gone.id) };
    expect(before.keep.status).toBe('imported');

    await hook(`/__sandbox/files/${provider}/${account}/${encodeURIComponent(gone.id)}`, undefined, 'DELETE');
    for (const which of ['keep', 'remove'] as const)
      expect(await run(links[which])).toMatchObject({
        status: 'succeeded',
        counts: { deleted: 1, imported: 0, updated: 0 },
      });
    const keep = await documentOf('keep', gone.id);
    expect(keep).toMatchObject({ document_id: before.keep.document_id, status: 'deleted_at_source' });
    expect(await vaultStatus(vaults.keep, keep.document_id)).toBe(200);
    const removed = await documentOf('remove', gone.id);
    expect(removed).toMatchObject({ document_id: before.remove.document_id, status: 'removed_from_vault' });
    expect(await vaultStatus(vaults.remove, removed.document_id)).toBe(404);

    await waitFor('both deletion events', async () => deletedEvents().length >= 2);
    expect(
      deletedEvents()
        .map((e) => ({ type: e.type, ...e.data }) as Record<string, unknown>)
        .sort((a, b) => String(a.vaultId).localeCompare(String(b.vaultId))),
    ).toEqual([
      expect.objectContaining({
        type: 'connector.document.deleted',
        vaultId: vaults.keep,
        objectId: keep.document_id,
        sourceId: gone.id,
        removedFromVault: false,
      }),
      expect.objectContaining({
        type: 'connector.document.deleted',
        vaultId: vaults.remove,
        objectId: removed.document_id,
        removedFromVault: true,
      }),
    ]);
    // Seen once: the next run does not count it again.
    expect(await run(links.keep)).toMatchObject({ counts: { deleted: 0 } });
  });

  it('makes a file re-created under the same id the same document again', async () => {
    const back = (await putFile('deleted-later.txt', 'back again'))!;
    const keep = await run(links.keep);
    expect(keep.counts).toMatchObject({ updated: 1, imported: 0, deleted: 0 });
    const remove = await run(links.remove);
    expect(remove.counts).toMatchObject({ imported: 1, updated: 0 });
    const kept = await documentOf('keep', back.id);
    expect(kept).toMatchObject({ status: 'imported', vault_version: 2 });
    const restored = await documentOf('remove', back.id);
    expect(restored.status).toBe('imported');
    expect(await vaultStatus(vaults.remove, restored.document_id)).toBe(200);
    const all = await documents(links.keep);
    expect(all.filter((d) => d.source.id === back.id)).toHaveLength(1);
  });
});

describe("a link's change feed and its skipped runs", () => {
  const account = 'acct-sync-feed';
  let connectionId: string;
  let matter: Source;
  let linkId: string;

  type FeedPage = {
    data: (LinkDocument & { updated_at: string; source: { version: string | null } })[];
    has_more: boolean;
    next_cursor: string;
  };
  const feed = (since: string, limit = 2) =>
    json<FeedPage>(
      `/connectors/v1/links/${linkId}/documents?changed_since=${encodeURIComponent(since)}&limit=${limit}`,
    );
  /** Every change ready after `since`, page by page; the position to ask from next time. */
  async function drain(since: string) {
    const changes: FeedPage['data'] = [];
    let position = since;
    for (;;) {
      const page = await feed(position);
      changes.push(...page.data);
      expect(page.next_cursor).toEqual(expect.any(String));
      position = page.next_cursor;
      if (!page.has_more) return { changes, position };
    }
  }
  const settle = () => server.advanceClock(10_000); // past the feed's settle time (FEED_SETTLE_MS)

  beforeAll(async () => {
    call = api(server, server.createKey().apiKey);
    await json('/webhooks/v1/endpoints', {
      method: 'POST',
      body: JSON.stringify({ url: receiver.url('/skips'), eventTypeFilters: ['connector.sync.skipped'] }),
      expect: 201,
    });
    connectionId = await connect('practice', account);
    matter = (await sources(connectionId))[0]!;
    const link = await json<Link>(`/connectors/v1/connections/${connectionId}/links`, {
      method: 'POST',
      body: JSON.stringify({ vault_id: 'vlt_feed', source: { id: matter.id } }),
      expect: 201,
    });
    linkId = link.id;
    expect(await run(linkId)).toMatchObject({ status: 'succeeded' });
  });

  it('serves every document once from a time, then only what changed, deletions included', async () => {
    await settle();
    const everything = await documents(linkId);
    const first = await drain('2000-01-01T00:00:00Z');
    expect(first.changes.map((d) => d.document_id).sort()).toEqual(
      everything.map((d) => d.document_id).sort(),
    );
    const times = first.changes.map((d) => d.updated_at);
    expect(times).toEqual([...times].sort());
    expect(await feed(first.position)).toEqual(
      expect.objectContaining({ data: [], has_more: false, next_cursor: first.position }),
    );

    const [changed, deleted] = await (async () => {
      const response = await fetch(
        `${sandboxUrl}/__sandbox/files?provider=practice&account_id=${account}&container_id=${encodeURIComponent(matter.id)}`,
      );
      return ((await response.json()) as { files: { id: string; name: string }[] }).files;
    })();
    await fetch(`${sandboxUrl}/__sandbox/files`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        provider: 'practice',
        account_id: account,
        container_id: matter.id,
        name: changed!.name,
        content: 'changed for the feed\n',
      }),
    });
    await fetch(`${sandboxUrl}/__sandbox/files/practice/${account}/${encodeURIComponent(deleted!.id)}`, {
      method: 'DELETE',
    });
    expect(await run(linkId)).toMatchObject({ counts: { updated: 1, deleted: 1 } });
    // Not yet served: younger than the settle time.
    expect((await feed(first.position)).data).toEqual([]);
    await settle();
    const next = await drain(first.position);
    expect(next.changes.map((d) => [d.source.id, d.status]).sort()).toEqual(
      [
        [changed!.id, 'imported'],
        [deleted!.id, 'deleted_at_source'],
      ].sort(),
    );
    expect((await drain(next.position)).changes).toEqual([]);
  });

  it.each([
    [
      'a cursor of the documents list',
      async () =>
        (await json<{ next_cursor: string }>(`/connectors/v1/links/${linkId}/documents?limit=1`)).next_cursor,
    ],
    ['a made-up position', async () => 'bm90IGEgcG9zaXRpb24'],
    ['an impossible time', async () => '2026-13-45T99:00:00Z'],
  ])('refuses changed_since that is %s with 400', async (_name, since) => {
    const response = await call(
      `/connectors/v1/links/${linkId}/documents?changed_since=${encodeURIComponent(await since())}`,
    );
    expect(response.status).toBe(400);
  });

  it('lists a scheduled run that did not start as a skipped run, with its reason and event', async () => {
    await patch(linkId, { schedule: { every_minutes: 30 } });
    const toggle = (enabled: boolean) =>
      json('/connectors/v1/connections', {
        method: 'PATCH',
        body: JSON.stringify({ provider: 'practice', enabled, confirm_organization_wide: true }),
      });
    await toggle(false);
    try {
      await sweepNow();
    } finally {
      await toggle(true);
    }
    const runs = (
      await json<{ data: (Job & { reason?: string; message?: string })[] }>(
        `/connectors/v1/links/${linkId}/runs`,
      )
    ).data;
    expect(runs[0]).toMatchObject({
      status: 'skipped',
      trigger: 'schedule',
      reason: 'provider_disabled',
      counts: { listed: 0, imported: 0 },
    });
    expect(await json(`/connectors/jobs/${runs[0]!.id}`)).toMatchObject({ status: 'skipped' });
    await waitFor('the skipped event', async () => receiver.received.some((r) => r.path === '/skips'));
    const event = JSON.parse(receiver.received.find((r) => r.path === '/skips')!.body) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(event).toMatchObject({
      type: 'connector.sync.skipped',
      data: { linkId, jobId: runs[0]!.id, errorCode: 'provider_disabled' },
    });
  });
});

describe('a full reconcile run ({"mode":"full"})', () => {
  const account = 'acct-sync-full';
  let connectionId: string;
  let matters: Source[];
  let linkId: string;

  const sandboxPost = async (path: string, body: unknown) => {
    const response = await fetch(`${sandboxUrl}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBeLessThan(300);
    return (await response.json()) as { id: string };
  };
  const full = async () =>
    settled(
      (
        await json<{ id: string }>(`/connectors/v1/links/${linkId}/runs`, {
          method: 'POST',
          body: JSON.stringify({ mode: 'full' }),
          expect: 202,
        })
      ).id,
    );

  beforeAll(async () => {
    call = api(server, server.createKey().apiKey);
    connectionId = await connect('practice', account);
    matters = await sources(connectionId);
    const link = await json<Link>(`/connectors/v1/connections/${connectionId}/links`, {
      method: 'POST',
      body: JSON.stringify({ vault_id: 'vlt_full', source: { id: matters[0]!.id } }),
      expect: 201,
    });
    linkId = link.id;
    expect(await run(linkId)).toMatchObject({ status: 'succeeded', counts: { failed: 0 } });
  });

  it('passes over every file again without minting a document id, counting them unchanged', async () => {
    const before = await documents(linkId);
    const job = await full();
    expect(job).toMatchObject({
      status: 'succeeded',
      mode: 'full',
      counts: { listed: before.length, unchanged: before.length, imported: 0, updated: 0, deleted: 0 },
    });
    expect((await documents(linkId)).map((d) => d.document_id).sort()).toEqual(
      before.map((d) => d.document_id).sort(),
    );
  });

  it('catches a file moved out of the source and a rename, keeping the document ids', async () => {
    const before = await documents(linkId);
    const [movedOut, renamed] = before.filter((d) => d.status === 'imported');
    await sandboxPost('/__sandbox/move', {
      provider: 'practice',
      account_id: account,
      file_id: movedOut!.source.id,
      container_id: matters[1]!.id,
    });
    await sandboxPost('/__sandbox/move', {
      provider: 'practice',
      account_id: account,
      file_id: renamed!.source.id,
      container_id: matters[0]!.id,
      name: 'Renamed by the user.txt',
    });
    const changes = await run(linkId);
    const job = await full();
    expect(job).toMatchObject({ status: 'succeeded', counts: { imported: 0 } });
    // Whether or not the changes feed reported the move, the reconcile leaves it counted once.
    expect(changes.counts.deleted! + job.counts.deleted!).toBe(1);
    const after = await documents(linkId);
    expect(after.map((d) => d.document_id).sort()).toEqual(before.map((d) => d.document_id).sort());
    expect(after.find((d) => d.document_id === movedOut!.document_id)!.status).toBe('deleted_at_source');
    expect(after.find((d) => d.document_id === renamed!.document_id)!.source.name).toBe(
      'Renamed by the user.txt',
    );
    // And nothing more the next time.
    expect((await full()).counts).toMatchObject({ deleted: 0, imported: 0, updated: 0 });
  });

  it('refuses a mode it does not know with 400', async () => {
    const response = await call(`/connectors/v1/links/${linkId}/runs`, {
      method: 'POST',
      body: JSON.stringify({ mode: 'everything' }),
    });
    expect(response.status).toBe(400);
  });
});
