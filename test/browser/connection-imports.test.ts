// A connection at work in the console, in Chromium against `npm start`'s server and its sandbox
// provider: connect a practice account and a drive account through the consent pages, read the status
// history, create an import link with the source picker (opening matters, "Load more"), run it and see
// its counts, runs and documents, export documents to a drive folder and see the export's counts,
// delete a link after its confirm, and a member's read-only view with the API refusing forged writes.
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import type { RunningServer } from '../support/local-server';
import { api, startLocalServer } from '../support/local-server';
import {
  SCREENSHOTS,
  expectAccessible,
  focused,
  launchBrowser,
  scriptVisibleSecrets,
  sessionCookie,
  signIn,
  storedItems,
  until,
} from './browser-support';

const PRACTICE_ACCOUNT = 'acct-console-practice';
const DRIVE_ACCOUNT = 'acct-console-drive';
const VAULT = 'vlt_console';
/** More than one page of the sources route (50 by default), so the picker offers "Load more". */
const SEEDED = 60;

let server: RunningServer;
let browser: Browser;
let page: Page;
let sandboxUrl = '';
let practiceId = '';
let driveId = '';

interface Source {
  id: string;
  name: string;
  kind: 'container' | 'file';
}

beforeAll(async () => {
  // No background sweeps: every run here is started by the test, so counts are exact.
  server = await startLocalServer({ LOCAL_SCHEDULE_INTERVAL_MS: '0' });
  ({ browser, page } = await launchBrowser());
}, 90_000);

afterEach(async () => {
  if (process.env.CONSOLE_DEBUG)
    await page.screenshot({ path: `/tmp/i14-${expect.getState().currentTestName}.png`, fullPage: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const call = () => api(server);

async function sources(connectionId: string, parent?: string): Promise<Source[]> {
  const query = parent ? `?parent=${encodeURIComponent(parent)}&limit=200` : '?limit=200';
  const response = await call()(`/connectors/v1/connections/${connectionId}/sources${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Source[] }).data;
}

async function sandbox<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${sandboxUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status).toBeLessThan(300);
  return (await response.json()) as T;
}

/** The connect flow from the console: a new tab, the connect link's page, the sandbox's consent. */
async function connect(provider: 'practice' | 'drive', account: string, displayName: string): Promise<void> {
  await page.getByLabel('Connect a provider').selectOption(provider);
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('button', { name: 'Start connection' }).click(),
  ]);
  await popup.getByRole('button', { name: 'Continue' }).click();
  await popup.getByLabel('Account id').fill(account);
  await popup.getByLabel('Display name').fill(displayName);
  sandboxUrl = new URL(popup.url()).origin;
  await popup.getByRole('button', { name: 'Approve' }).click();
  await popup.getByRole('heading', { name: 'Connected' }).waitFor();
  await popup.close();
}

/** The connection's id from the row that shows `displayName`. */
async function connectionIdOf(displayName: string): Promise<string> {
  return until(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    const row = page.getByRole('row', { name: new RegExp(`healthy.*${displayName}`) });
    if ((await row.count()) === 0) return undefined;
    return (await row.getByRole('link').textContent()) ?? undefined;
  }, `a healthy connection of ${displayName}`);
}

const linkCard = (sourceId: string): Locator =>
  page.locator('article.link', { has: page.locator('h3 code', { hasText: sourceId }) });

describe('a connection at work in the console', () => {
  let matter: Source;
  let busyMatter: Source;
  let matterFiles: Source[];

  it('connects a practice account and a drive account through the sandbox consent', async () => {
    await signIn(page, server, 'owner');
    await page.getByRole('link', { name: 'Connections' }).click();
    await connect('practice', PRACTICE_ACCOUNT, 'Harlow Legal');
    practiceId = await connectionIdOf('Harlow Legal');
    await connect('drive', DRIVE_ACCOUNT, 'Harlow Files');
    driveId = await connectionIdOf('Harlow Files');
    expect(practiceId).toMatch(/^conn_/);
    expect(driveId).toMatch(/^conn_/);
  });

  it('shows the status history and creates an import link with the source picker', async () => {
    const matters = await sources(practiceId);
    [matter, busyMatter] = matters as [Source, Source];
    matterFiles = await sources(practiceId, matter.id);
    await sandbox('/__sandbox/seed', {
      provider: 'practice',
      account_id: PRACTICE_ACCOUNT,
      container_id: busyMatter.id,
      count: SEEDED,
    });

    await page.getByRole('link', { name: practiceId }).click();
    await page.getByRole('heading', { name: 'practice connection' }).waitFor();
    const history = page.getByRole('table', { name: 'Status history, newest first' });
    await expect(history.locator('tbody tr').allTextContents()).resolves.toEqual([
      expect.stringContaining('healthy'),
      expect.stringContaining('pending'),
    ]);
    await page.getByText('No import links yet.').waitFor();

    // The picker: a matter opened shows its documents, a page at a time; the breadcrumb leads back.
    await page.getByRole('button', { name: 'New import link' }).click();
    const picker = page.getByRole('group', { name: 'Source to import' });
    // By keyboard: Enter on "Open" shows the matter's entries and moves the focus to them.
    await picker.getByRole('button', { name: `Open ${busyMatter.name}` }).focus();
    await page.keyboard.press('Enter');
    await picker.getByText('seed-000001.txt').waitFor();
    const focused = () =>
      page.evaluate(() => {
        const g = globalThis as unknown as {
          document: { activeElement: { getAttribute(name: string): string | null } | null };
        };
        return g.document.activeElement?.getAttribute('aria-label');
      });
    await until(async () => (await focused()) === 'Source to import: contents', 'the focus on the entries');
    const shown = await picker.locator('li.entry').count();
    expect(shown).toBeLessThan(SEEDED);
    await picker.getByRole('button', { name: 'Load more' }).click();
    await until(async () => (await picker.locator('li.entry').count()) > shown, 'the next page of entries');
    await picker.getByText(`seed-0000${SEEDED}.txt`).waitFor();
    await expect(picker.getByRole('button', { name: 'Load more' }).count()).resolves.toBe(0);
    await expectAccessible(page, 'connection detail with the source picker');
    await picker.getByRole('button', { name: 'Top level' }).click();
    await picker.getByRole('button', { name: `Choose ${matter.name}` }).click();
    await picker.getByText(`Chosen: ${matter.name}`).waitFor();

    // The API's own words for a schedule it refuses; then the link without one.
    await page.getByLabel('Vault id').fill(VAULT);
    await page.getByLabel('Run every (minutes, optional)').fill('2');
    await page.getByRole('button', { name: 'Create link' }).click();
    await page.getByText('schedule.every_minutes must be at least 5').waitFor();
    await page.getByLabel('Run every (minutes, optional)').fill('');
    await page.getByRole('button', { name: 'Create link' }).click();
    await linkCard(matter.id).waitFor();
    await expect(linkCard(matter.id).getByTestId('last-run').textContent()).resolves.toBe('never run');

    // The form closed on success; opened again, it is fresh. A scheduled link shows its next run.
    await expect(picker.count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'New import link' }).click();
    await picker.getByRole('button', { name: `Choose ${busyMatter.name}` }).click();
    await page.getByLabel('Vault id').fill(VAULT);
    await page.getByLabel('Run every (minutes, optional)').fill('60');
    await page.getByRole('button', { name: 'Create link' }).click();
    await linkCard(busyMatter.id).getByText('every 60 minutes').waitFor();
    await expect(linkCard(busyMatter.id).getByTestId('next-run').textContent()).resolves.toMatch(/E[SD]T$/);
  });

  it('runs a link now and shows the run with its counts, its runs and the documents it imported', async () => {
    const card = linkCard(matter.id);
    await card.getByRole('button', { name: 'Run now' }).click();
    const job = card.locator('.run-job');
    await job.locator('.badge', { hasText: 'succeeded' }).waitFor({ timeout: 30_000 });
    const counts = `listed ${matterFiles.length} · imported ${matterFiles.length} · updated 0 · unchanged 0 · failed 0 · deleted 0`;
    await expect(job.getByTestId('job-counts').textContent()).resolves.toBe(counts);
    // The link itself is read again once its run settles: its last run says the same.
    await card.getByTestId('last-run').filter({ hasText: counts }).waitFor();

    await card.getByRole('button', { name: 'Runs' }).click();
    const runs = card.getByRole('table', { name: 'Runs, newest first' });
    await runs.locator('tbody tr').first().waitFor();
    await expect(runs.locator('tbody tr').allTextContents()).resolves.toEqual([
      expect.stringMatching(new RegExp(`api.*succeeded.*${counts}`)),
    ]);
    await card.getByRole('button', { name: 'Documents' }).click();
    const documents = card.getByRole('table', { name: 'Imported documents' });
    await documents.locator('tbody tr').first().waitFor();
    await expect(documents.locator('tbody tr td:nth-child(2)').allTextContents()).resolves.toEqual(
      expect.arrayContaining(matterFiles.map((f) => f.name)),
    );
    await expect(documents.locator('tbody tr').count()).resolves.toBe(matterFiles.length);
    await expectAccessible(page, 'connection detail with runs and documents');
    await page.screenshot({ path: join(SCREENSHOTS, 'connection-imports.png'), fullPage: true });
  });

  it("exports documents to a drive connection's folder and shows the export's counts", async () => {
    const card = linkCard(matter.id);
    const documents = card.getByRole('table', { name: 'Imported documents' });
    const chosen = matterFiles.slice(0, 2).map((f) => f.name);
    for (const name of chosen) await documents.getByRole('checkbox', { name: `Select ${name}` }).check();
    await card.getByText('2 documents selected.').waitFor();

    const exporting = card.getByRole('form', { name: 'Export documents' });
    // Nothing chosen yet: the form says what is missing instead of asking the API.
    await exporting.getByRole('button', { name: 'Export selected documents' }).click();
    await exporting.getByText('Choose a destination container').waitFor();
    await exporting.getByLabel('Destination connection').selectOption(driveId);
    const picker = exporting.getByRole('group', { name: 'Destination container' });
    await picker.getByRole('button', { name: 'Choose Templates' }).click();
    await exporting.getByLabel('When a file of the same name is there').selectOption('rename');
    await expectAccessible(page, 'export form');
    await exporting.getByRole('button', { name: 'Export selected documents' }).click();
    const job = exporting.locator('.job');
    await job.locator('.badge', { hasText: 'succeeded' }).waitFor({ timeout: 30_000 });
    await expect(job.getByTestId('job-counts').textContent()).resolves.toBe(
      'requested 2 · exported 2 · unchanged 0 · skipped 0 · failed 0',
    );

    const templates = (await sources(driveId)).find((s) => s.name === 'Templates')!;
    const landed = await sandbox<{ files: { name: string }[] }>(
      `/__sandbox/files?provider=drive&account_id=${DRIVE_ACCOUNT}&container_id=${encodeURIComponent(templates.id)}`,
    );
    expect(landed.files.map((f) => f.name)).toEqual(expect.arrayContaining(chosen));
  });

  it('shows a run waiting out a throttled provider, resuming by itself, with nothing to import again', async () => {
    await sandbox('/__sandbox/next-api-error', { provider: 'practice', status: 429, retry_after: 3 });
    const card = linkCard(matter.id);
    await card.getByRole('button', { name: 'Run now' }).click();
    const job = card.locator('.run-job');
    await job.getByText(/Waiting \(throttled\) until .* E[SD]T; it resumes by itself\./).waitFor();
    await job.locator('.badge', { hasText: 'succeeded' }).waitFor({ timeout: 30_000 });
    // From the link's cursor the provider's feed has no change: nothing listed, nothing imported again.
    await expect(job.getByTestId('job-counts').textContent()).resolves.toBe(
      'listed 0 · imported 0 · updated 0 · unchanged 0 · failed 0 · deleted 0',
    );
    // The throttle is in the connection's history once the page is read again: a reload keeps the
    // session and the page (its address), and focus starts at its heading.
    await page.reload();
    await page.getByRole('heading', { name: 'practice connection' }).waitFor();
    expect(page.url()).toContain(`#/connections/${practiceId}`);
    await page.getByRole('table', { name: 'Status history, newest first' }).getByText('throttled').waitFor();
    expect((await focused(page)).tag).toBe('H1');
  });

  it('deletes a link only once its confirm is accepted', async () => {
    const card = linkCard(busyMatter.id);
    const id = await card.getAttribute('data-link');
    const linkStatus = async () => (await call()(`/connectors/v1/links/${id}`)).status;
    let question = '';
    page.once('dialog', (dialog) => {
      question = dialog.message();
      void dialog.dismiss();
    });
    await card.getByRole('button', { name: 'Delete link' }).click();
    expect(question).toContain('the documents it imported stay in the vault');
    expect(await linkStatus()).toBe(200);
    page.once('dialog', (dialog) => void dialog.accept());
    await card.getByRole('button', { name: 'Delete link' }).click();
    await page.getByText('Import link deleted').waitFor();
    await until(async () => (await card.count()) === 0, 'the deleted link to leave the page');
    expect(await linkStatus()).toBe(404);
    await linkCard(matter.id).waitFor();
  });

  it("shows a member the links, runs and documents without write controls, and the API refuses the member's writes", async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Role').waitFor();
    await signIn(page, server, 'member');
    const memberAuthorization = `Bearer ${await sessionCookie(page)}`;
    await page.getByRole('link', { name: 'Connections' }).click();
    await page.getByRole('link', { name: practiceId }).click();
    const card = linkCard(matter.id);
    await card.waitFor();
    await card.getByRole('button', { name: 'Runs' }).click();
    await card.getByRole('table', { name: 'Runs, newest first' }).locator('tbody tr').first().waitFor();
    await card.getByRole('button', { name: 'Documents' }).click();
    await card.getByRole('table', { name: 'Imported documents' }).locator('tbody tr').first().waitFor();
    for (const name of ['Run now', 'Delete link', 'Create link', 'Export selected documents', 'Disconnect']) {
      expect({ name, count: await page.getByRole('button', { name }).count() }).toEqual({ name, count: 0 });
    }
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.getByRole('group', { name: 'Source to import' }).count()).toBe(0);
    await expectAccessible(page, 'connection detail (member)');

    const linkId = await card.getAttribute('data-link');
    expect(memberAuthorization).toMatch(/^Bearer ey/);
    const forged = [
      [`/connectors/v1/links/${linkId}/runs`, 'POST', undefined],
      [`/connectors/v1/links/${linkId}`, 'DELETE', undefined],
      [
        `/connectors/v1/connections/${practiceId}/links`,
        'POST',
        { vault_id: VAULT, source: { id: matter.id } },
      ],
    ] as const;
    for (const [path, method, body] of forged) {
      const response = await fetch(`${server.baseUrl}${path}`, {
        method,
        headers: { Authorization: memberAuthorization, 'Content-Type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      expect({ path, method, status: response.status, body: await response.json() }).toEqual({
        path,
        method,
        status: 403,
        body: { error: { code: 'PERMISSION_DENIED', message: expect.any(String) } },
      });
    }
    // Neither the session nor a provider page token is kept in the URL or in storage, nor logged.
    expect(page.url()).not.toMatch(/page_token|ey[A-Za-z0-9_-]{20}/);
    expect(await storedItems(page)).toBe(0);
    expect(await scriptVisibleSecrets(page)).not.toContain(memberAuthorization.slice('Bearer '.length));
    expect(server.logs()).not.toContain(memberAuthorization.slice('Bearer '.length));
  });

  it("purges a connection: the header shows revoked and a link's card no longer shows a schedule", async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Role').waitFor();
    await signIn(page, server, 'owner');
    await page.goto(`${server.baseUrl}/console/#/connections/${practiceId}`);
    const card = linkCard(matter.id);
    await card.waitFor();
    await page.getByLabel('Also purge the data imported through this connection').check();
    await page.getByLabel('Confirmation').fill(practiceId);
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.locator('.title-row .badge', { hasText: 'revoked' }).waitFor();
    await page.locator('[data-job]').locator('.badge', { hasText: 'succeeded' }).waitFor({ timeout: 30_000 });
    await expect(linkCard(matter.id).getByTestId('schedule').textContent()).resolves.toBe(
      'stopped: the connection is revoked',
    );
    await expect(linkCard(matter.id).getByTestId('next-run').textContent()).resolves.toBe('—');
    await expectAccessible(page, 'connection purged');
  });
});
