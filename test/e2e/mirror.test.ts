// The vault mirrors the source (docs/decisions.md, "Import runs: the vault mirrors the source"), over
// HTTP against `npm start`'s server (or the emulated AWS runtime) and the sandbox's fakes: after each
// run that succeeds, the link's live documents are the files under the linked container. Each test is
// a source change a change feed's happy path misses: a feed the provider restarts while a file was
// deleted, a Dropbox folder deleted (reported as the folder alone), a restore, a Clio rename that
// keeps the version, a Clio document moved to another matter (which only the reconcile period catches,
// shown with the development clock), a subfolder moved out of the linked folder.
import type { Job, LinkDocument, ProviderSandbox } from '../support/provider-e2e';
import { providerE2e } from '../support/provider-e2e';
import { until } from '../support/until';

const e2e = providerE2e();
const { json } = e2e;

interface Run extends Job {
  mode: 'changes' | 'full';
  mode_reason?: string;
}

interface LinkState {
  active_run_id: string | null;
  last_run: { job_id: string } | null;
}

interface Linked {
  sandbox: ProviderSandbox;
  /** The linked container (the provider's id, as the hooks and the service name it). */
  container: string;
  linkId: string;
}

const TIERS: Record<string, string | undefined> = {
  practice: undefined,
  drive: undefined,
  clio: undefined,
  dropbox: 'import_export',
  onedrive: 'import_export',
  google_drive: 'import_export',
};

/** Connects, links a seeded folder or matter (`/<container>/<file>` in the sandbox) and runs it once. */
async function linked(
  provider: string,
  account: string,
  body: Record<string, unknown> = {},
): Promise<Linked> {
  const { connectionId, sandbox } = await e2e.connect(provider, account, TIERS[provider]);
  const home = (await sandbox.files()).find((f) => f.path.split('/').length === 3)!;
  expect(home).toBeDefined();
  const link = await json<{ id: string }>(`/connectors/v1/connections/${connectionId}/links`, {
    method: 'POST',
    body: JSON.stringify({ vault_id: `vlt_mirror_${account}`, source: { id: home.container_id }, ...body }),
    expect: 201,
  });
  for (const name of ['mirror-a.txt', 'mirror-b.txt'])
    await sandbox.write(home.container_id, name, `${name} at ${provider}`);
  const first = (await e2e.run(link.id)) as Run;
  expect(first).toMatchObject({ status: 'succeeded', counts: { failed: 0 } });
  return { sandbox, container: home.container_id, linkId: link.id };
}

const statusOf = (documents: LinkDocument[], sourceId: string) =>
  documents.find((d) => d.source.id === sourceId)?.status;

/** The invariant after a successful run: the live documents are the files under the container. */
async function mirrors({ sandbox, linkId }: Linked, under: (path: string) => boolean) {
  const files = (await sandbox.files()).filter((f) => under(f.path));
  const live = (await e2e.documents(linkId)).filter((d) => d.status === 'imported');
  expect(live.map((d) => [d.source.id, d.source.name]).sort()).toEqual(
    files.map((f) => [f.id, f.name]).sort(),
  );
}

describe.each(['practice', 'drive', 'onedrive', 'dropbox', 'google_drive'])(
  '%s: a feed the provider restarts',
  (provider) => {
    it('becomes a full run that marks a file deleted meanwhile, downloading nothing again', async () => {
      const link = await linked(provider, `acct-mirror-reset-${provider}`);
      const doomed = (await link.sandbox.files(link.container)).find((f) => f.name === 'mirror-a.txt')!;
      const prefix = doomed.path.slice(0, doomed.path.lastIndexOf('/') + 1);
      await link.sandbox.remove(doomed.id);
      await link.sandbox.hook(
        '/__sandbox/reset-feed',
        { provider, account_id: link.sandbox.account },
        'POST',
      );
      const run = (await e2e.run(link.linkId)) as Run;
      expect(run).toMatchObject({
        status: 'succeeded',
        mode: 'full',
        mode_reason: 'feed_restarted',
        counts: { imported: 0, updated: 0, deleted: 1, failed: 0 },
      });
      expect(statusOf(await e2e.documents(link.linkId), doomed.id)).toBe('deleted_at_source');
      await mirrors(link, (path) => path.startsWith(prefix));
      // The link's cursor is the restarted feed's: the next run is a changes run again.
      expect(await e2e.run(link.linkId)).toMatchObject({ status: 'succeeded', mode: 'changes' });
    });
  },
);

describe('dropbox: a subfolder deleted (Dropbox reports the folder alone)', () => {
  it('marks every file that was under it, at any depth, in a changes run', async () => {
    const link = await linked('dropbox', 'acct-mirror-folder');
    const all = await link.sandbox.files();
    const top = all.find((f) => f.container_id === link.container)!;
    const prefix = top.path.slice(0, top.path.lastIndexOf('/') + 1);
    // A subfolder of the linked folder that holds files (some in a folder of its own).
    const sub = all.find((f) => f.path.startsWith(prefix) && f.path.split('/').length === 4)!;
    const subPrefix = sub.path.slice(0, sub.path.lastIndexOf('/') + 1);
    const under = all.filter((f) => f.path.startsWith(subPrefix));
    expect(under.length).toBeGreaterThanOrEqual(2);
    await link.sandbox.hook(
      '/__sandbox/delete-folder',
      { provider: 'dropbox', account_id: link.sandbox.account, folder_id: sub.container_id },
      'POST',
    );
    const run = (await e2e.run(link.linkId)) as Run;
    expect(run).toMatchObject({ status: 'succeeded', mode: 'changes', counts: { deleted: under.length } });
    const documents = await e2e.documents(link.linkId);
    for (const file of under) expect(statusOf(documents, file.id)).toBe('deleted_at_source');
    await mirrors(link, (path) => path.startsWith(prefix));
  });
});

describe.each([
  ['onedrive', 'changes'],
  ['dropbox', 'changes'],
  ['drive', 'reconcile'],
  ['google_drive', 'reconcile'],
])('%s: a subfolder moved out of the linked folder', (provider, seenBy) => {
  const when =
    seenBy === 'changes' ? 'in the changes run that sees it' : 'at the reconcile (the feed does not tell)';
  it(`marks every file that was under it deleted_at_source ${when}`, async () => {
    const link = await linked(provider, `acct-mirror-foldermove-${provider}`, { reconcile_every_hours: 1 });
    const all = await link.sandbox.files();
    const top = all.find((f) => f.container_id === link.container)!;
    const prefix = top.path.slice(0, top.path.lastIndexOf('/') + 1);
    // A subfolder of the linked folder that holds files, and a folder beside the linked one.
    const sub = all.find((f) => f.path.startsWith(prefix) && f.path.split('/').length === 4)!;
    const subPrefix = sub.path.slice(0, sub.path.lastIndexOf('/') + 1);
    const under = all.filter((f) => f.path.startsWith(subPrefix));
    const outside = all.find((f) => !f.path.startsWith(prefix) && f.path.split('/').length === 3)!;
    expect(under.length).toBeGreaterThanOrEqual(1);
    await link.sandbox.hook(
      '/__sandbox/move-folder',
      {
        provider,
        account_id: link.sandbox.account,
        folder_id: sub.container_id,
        container_id: outside.container_id,
      },
      'POST',
    );
    const run = (await e2e.run(link.linkId)) as Run;
    if (seenBy === 'changes') {
      expect(run).toMatchObject({ status: 'succeeded', mode: 'changes', counts: { deleted: under.length } });
    } else {
      expect(run).toMatchObject({ status: 'succeeded', mode: 'changes', counts: { deleted: 0 } });
      for (const file of under) expect(statusOf(await e2e.documents(link.linkId), file.id)).toBe('imported');
      await e2e.server.advanceClock(3_600_000 + 60_000);
      expect(await e2e.run(link.linkId)).toMatchObject({
        status: 'succeeded',
        mode: 'full',
        mode_reason: 'reconcile_due',
        counts: { deleted: under.length, failed: 0 },
      });
    }
    const documents = await e2e.documents(link.linkId);
    for (const file of under) expect(statusOf(documents, file.id)).toBe('deleted_at_source');
    await mirrors(link, (path) => path.startsWith(prefix));
  });
});

describe.each(['onedrive', 'dropbox', 'google_drive'])('%s: a file trashed, then restored', (provider) => {
  it('returns as the same document in a changes run (the provider reports the restore)', async () => {
    const link = await linked(provider, `acct-mirror-restore-${provider}`);
    const file = (await link.sandbox.files(link.container)).find((f) => f.name === 'mirror-b.txt')!;
    const before = (await e2e.documents(link.linkId)).find((d) => d.source.id === file.id)!;
    await link.sandbox.remove(file.id);
    expect(await e2e.run(link.linkId)).toMatchObject({ status: 'succeeded', counts: { deleted: 1 } });
    await link.sandbox.hook(
      '/__sandbox/restore',
      { provider, account_id: link.sandbox.account, file_id: file.id },
      'POST',
    );
    expect(await e2e.run(link.linkId)).toMatchObject({ status: 'succeeded', mode: 'changes' });
    const after = (await e2e.documents(link.linkId)).find((d) => d.source.id === file.id)!;
    expect(after).toMatchObject({ document_id: before.document_id, status: 'imported' });
  });
});

describe('a source change no feed reports, caught by the reconcile period (development clock)', () => {
  it('practice: a scheduled link converges with no user action once the period runs out (a restore the feed does not list)', async () => {
    const link = await linked('practice', 'acct-mirror-period', {
      reconcile_every_hours: 2,
      schedule: { every_minutes: 60 },
    });
    const file = (await link.sandbox.files(link.container)).find((f) => f.name === 'mirror-b.txt')!;
    await link.sandbox.remove(file.id);
    expect(await e2e.run(link.linkId)).toMatchObject({ counts: { deleted: 1 } });
    await link.sandbox.hook(
      '/__sandbox/restore',
      { provider: 'practice', account_id: link.sandbox.account, file_id: file.id },
      'POST',
    );
    // Within the period a changes run does not see it (the sandbox's feed records no change).
    expect(await e2e.run(link.linkId)).toMatchObject({ status: 'succeeded', mode: 'changes' });
    expect(statusOf(await e2e.documents(link.linkId), file.id)).toBe('deleted_at_source');
    // The period runs out; the schedule's sweep starts the link's next run, nobody else.
    const before = await json<LinkState>(`/connectors/v1/links/${link.linkId}`);
    await e2e.server.advanceClock(2 * 3_600_000 + 60_000);
    const swept = await fetch(`${e2e.server.baseUrl}/__dev/sync-sweep`, { method: 'POST' });
    expect(swept.status).toBe(200);
    const after = await until('the scheduled run to finish', async () => {
      const state = await json<LinkState>(`/connectors/v1/links/${link.linkId}`);
      const done =
        state.last_run && state.last_run.job_id !== before.last_run?.job_id && !state.active_run_id;
      return done ? state : undefined;
    });
    // The link lets go of its run a moment before the job records its outcome (two writes).
    const run = await until('the scheduled run to record its outcome', async () => {
      const job = await json<Run & { trigger: string }>(`/connectors/jobs/${after.last_run!.job_id}`);
      return ['queued', 'processing'].includes(job.status) ? undefined : job;
    });
    expect(run).toMatchObject({
      status: 'succeeded',
      trigger: 'schedule',
      mode: 'full',
      mode_reason: 'reconcile_due',
      counts: { updated: 1, failed: 0 },
    });
    expect(statusOf(await e2e.documents(link.linkId), file.id)).toBe('imported');
    await mirrors(link, (path) => path.startsWith(file.path.slice(0, file.path.lastIndexOf('/') + 1)));
    // Reconciled just now: the next run is a changes run.
    expect(await e2e.run(link.linkId)).toMatchObject({ mode: 'changes' });
  });

  it('the period is the link’s: PATCH sets it, and bad values are 400s', async () => {
    const link = await linked('practice', 'acct-mirror-patch');
    const view = await json<{ reconcile_every_hours: number }>(`/connectors/v1/links/${link.linkId}`);
    expect(view.reconcile_every_hours).toBe(24);
    const patched = await json<{ reconcile_every_hours: number }>(`/connectors/v1/links/${link.linkId}`, {
      method: 'PATCH',
      body: JSON.stringify({ reconcile_every_hours: 6 }),
    });
    expect(patched.reconcile_every_hours).toBe(6);
    for (const bad of [0, 1.5, 'x', 24 * 31]) {
      const answer = await json<{ error: { code: string } }>(`/connectors/v1/links/${link.linkId}`, {
        method: 'PATCH',
        body: JSON.stringify({ reconcile_every_hours: bad }),
        expect: 400,
      });
      expect(answer.error.code).toBeDefined();
    }
  });

  it('clio: a rename keeping the version shows in a changes run; a document moved to another matter leaves at the reconcile', async () => {
    const link = await linked('clio', 'acct-mirror-clio', { reconcile_every_hours: 1 });
    const mine = await link.sandbox.files(link.container);
    const renamed = mine.find((f) => f.name === 'mirror-a.txt')!;
    const leaving = mine.find((f) => f.name === 'mirror-b.txt')!;
    const version = (await e2e.documents(link.linkId)).find((d) => d.source.id === renamed.id)!.source
      .version;
    await link.sandbox.hook(
      '/__sandbox/move',
      {
        provider: 'clio',
        account_id: link.sandbox.account,
        file_id: renamed.id,
        container_id: link.container,
        name: 'mirror-renamed.txt',
      },
      'POST',
    );
    const other = (await link.sandbox.files()).find((f) => f.container_id !== link.container)!;
    await link.sandbox.move(leaving.id, other.container_id);
    // Clio keeps the DocumentVersion on a rename: the name changes, nothing is downloaded again.
    expect(await e2e.run(link.linkId)).toMatchObject({
      status: 'succeeded',
      mode: 'changes',
      counts: { imported: 0, updated: 0 },
    });
    const documents = await e2e.documents(link.linkId);
    expect(documents.find((d) => d.source.id === renamed.id)?.source).toMatchObject({
      name: 'mirror-renamed.txt',
      version,
    });
    await e2e.server.advanceClock(3_600_000 + 60_000);
    expect(await e2e.run(link.linkId)).toMatchObject({
      status: 'succeeded',
      mode: 'full',
      mode_reason: 'reconcile_due',
    });
    expect(statusOf(await e2e.documents(link.linkId), leaving.id)).toBe('deleted_at_source');
    const prefix = mine[0]!.path.slice(0, mine[0]!.path.lastIndexOf('/') + 1);
    await mirrors(link, (path) => path.startsWith(prefix));
  });
});

describe.each(['practice', 'drive'])('%s: the linked container itself gone', (provider) => {
  it('shows the link source_missing with an event, its documents no longer live; it recovers when the container is back', async () => {
    const link = await linked(provider, `acct-mirror-missing-${provider}`);
    const folder = { provider, account_id: link.sandbox.account, folder_id: link.container };
    await link.sandbox.hook('/__sandbox/delete-folder', folder, 'POST');
    const failed = (await e2e.run(link.linkId)) as Run;
    expect(failed).toMatchObject({ status: 'failed', reason: 'source_not_found' });
    const missing = await json<{ status: string }>(`/connectors/v1/links/${link.linkId}`);
    expect(missing.status).toBe('source_missing');
    const documents = await e2e.documents(link.linkId);
    expect(documents.length).toBeGreaterThan(0);
    expect(documents.filter((d) => d.status === 'imported')).toEqual([]);
    expect(new Set(documents.map((d) => d.status))).toEqual(new Set(['source_missing']));

    await link.sandbox.hook('/__sandbox/restore-folder', folder, 'POST');
    expect(await e2e.run(link.linkId)).toMatchObject({ status: 'succeeded' });
    const back = await json<{ status: string }>(`/connectors/v1/links/${link.linkId}`);
    expect(back.status).toBe('idle');
    const prefix = (await link.sandbox.files(link.container))[0]!.path.replace(/[^/]*$/, '');
    await mirrors(link, (path) => path.startsWith(prefix));
  });
});

describe.each([
  ['google_drive', 'insufficientFilePermissions', 'userRateLimitExceeded'],
  ['onedrive', 'accessDenied', 'activityLimitReached'],
])('%s: access to the linked container revoked (a 403)', (provider, denied, rateLimited) => {
  it('shows the link source_missing, not on a rate-limit 403; it recovers when access is back', async () => {
    const link = await linked(provider, `acct-mirror-denied-${provider}`);
    const inject = (reason: string) =>
      link.sandbox.hook(
        '/__sandbox/next-api-error',
        { provider, status: 403, reason, retry_after: 1 },
        'POST',
      );
    // A 403 that says "slow down" in the provider's words is a wait, not a missing source.
    await inject(rateLimited);
    expect(await e2e.run(link.linkId)).toMatchObject({ status: 'succeeded' });
    expect((await json<{ status: string }>(`/connectors/v1/links/${link.linkId}`)).status).toBe('idle');

    await inject(denied);
    expect(await e2e.run(link.linkId)).toMatchObject({ status: 'failed', reason: 'source_not_found' });
    expect((await json<{ status: string }>(`/connectors/v1/links/${link.linkId}`)).status).toBe(
      'source_missing',
    );
    expect((await e2e.documents(link.linkId)).filter((d) => d.status === 'imported')).toEqual([]);

    expect(await e2e.run(link.linkId)).toMatchObject({ status: 'succeeded' });
    expect((await json<{ status: string }>(`/connectors/v1/links/${link.linkId}`)).status).toBe('idle');
    const prefix = (await link.sandbox.files(link.container))[0]!.path.replace(/[^/]*$/, '');
    await mirrors(link, (path) => path.startsWith(prefix));
  });
});
