// The console's outcomes, session and layouts in Chromium against `npm start`'s server: actions that say what
// happened (a test event to a failing receiver, a replay refused on a disabled endpoint, a declined
// consent, an abandoned pending connection, a reconnect), forms that mark their fields, delivery
// detail and filters, endpoint edit and delete, the event catalog, state across reloads, tabs and an
// expired session, every width from 390 to 1920, time zones, focus, and dark mode. axe-core with zero
// violations of any impact on every page and state visited.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { RunningServer } from '../support/local-server';
import { api, startLocalServer } from '../support/local-server';
import { PROVIDERS } from '../../functions/connectors/domain/providers';
import { sweepDueAt } from '../../functions/connectors/domain/token-policy';
import {
  SCREENSHOTS,
  TIME_ZONE,
  expectAccessible,
  expectHeadingsInOrder,
  focused,
  launchBrowser,
  sessionCookie,
  signIn,
  until,
} from './browser-support';

const MINUTE = 60_000;

let server: RunningServer;
let browser: Browser;
let page: Page;
let receiver: Server;
let receiverBase = '';
const hits: string[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      hits.push(request.url ?? '');
      if (request.url === '/fail') response.writeHead(500).end('receiver exploded');
      else response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok from receiver');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // No background token sweep: the test runs it when it wants a connection to lapse.
  server = await startLocalServer({ LOCAL_SCHEDULE_INTERVAL_MS: '0' });
  ({ browser, page } = await launchBrowser());
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
}, 90_000);

afterEach(async () => {
  if (process.env.CONSOLE_DEBUG)
    await page.screenshot({ path: `/tmp/i26-${expect.getState().currentTestName}.png`, fullPage: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

const scan = (name: string, on: Page = page) => expectAccessible(on, name);

const publish = (type: string, data: Record<string, unknown>) =>
  api(server, server.credentials.systemKey)('/webhooks/v1/events', {
    method: 'POST',
    body: JSON.stringify({ organizationId: server.credentials.organizationId, type, data }),
  });

let endpointId = '';
let eventId = '';

describe('console workflows: outcomes, forms, layouts and sessions', () => {
  it('marks the fields of a form before sending, in words, with focus on the first', async () => {
    await signIn(page, server, 'owner');
    await page.getByRole('link', { name: 'New endpoint' }).click();
    await page.getByRole('heading', { name: 'New webhook endpoint' }).waitFor();
    await page.locator('input[name=eventType]').first().waitFor();
    const requests: string[] = [];
    const watch = (request: { method(): string; url(): string }) => {
      if (request.method() === 'POST') requests.push(request.url());
    };
    page.on('request', watch);
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    await page.getByText('Enter the URL that receives the events.').waitFor();
    await page.getByText('Choose at least one event type or wildcard.').waitFor();
    expect((await focused(page)).id).toBe('url');
    expect(await page.getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Endpoint URL').fill('receiver.example without a scheme');
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    await page.getByText('Enter a full URL, starting with https://').waitFor();
    expect(requests).toEqual([]);
    page.off('request', watch);
    await scan('new endpoint (field errors)');
    await page.screenshot({ path: join(SCREENSHOTS, 'new-endpoint-errors.png'), fullPage: true });

    await page.getByLabel('Endpoint URL').fill(`${receiverBase}/fail`);
    await page.locator('input[name=eventType][value="matter.*"]').check();
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    await page.getByRole('heading', { name: 'Endpoint created' }).waitFor();
    expect((await focused(page)).tag).toBe('H1');
    await page.getByRole('link', { name: 'Go to the endpoint' }).click();
    await page.getByRole('heading', { name: `${receiverBase}/fail` }).waitFor();
    endpointId = decodeURIComponent(page.url().split('#/webhooks/')[1]!);
  });

  it('shows a new delivery on its own, says what a test event did, and refuses a replay to a disabled endpoint', async () => {
    const published = await publish('matter.created', { matterId: 'mat_1', name: 'Smith v Jones' });
    eventId = ((await published.json()) as { id: string }).id;
    // No Refresh click: the list reads itself again while the page is visible.
    await page.locator('tr[data-delivery]').first().waitFor({ timeout: 15_000 });

    await page.getByRole('button', { name: 'Send test event' }).click();
    const result = page.getByTestId('test-result');
    await result.getByText('Test event not delivered: the receiver answered HTTP 500').waitFor();
    await result.getByText('receiver exploded').waitFor();
    await result.getByText(/\d+ ms/).waitFor();
    await scan('test event not delivered');
    await page.screenshot({ path: join(SCREENSHOTS, 'test-event-failed.png'), fullPage: true });

    // The endpoint list tells this endpoint from a healthy one.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('row', { name: /\/fail.*failing/ }).waitFor();
    await page.getByRole('link', { name: `${receiverBase}/fail` }).click();
    await page.getByTestId('failing-since').waitFor();

    // Disable asks first; declining keeps it enabled.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('button', { name: 'Disable' }).click();
    expect(await page.getByRole('button', { name: 'Enable' }).count()).toBe(0);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('button', { name: 'Enable' }).waitFor();
    expect((await focused(page)).text).toBe('Enable');

    const replays: string[] = [];
    const watch = (request: { url(): string }) => {
      if (request.url().endsWith('/replay')) replays.push(request.url());
    };
    page.on('request', watch);
    await page.getByRole('button', { name: 'Replay' }).first().click();
    await page
      .getByText('Replay refused: this endpoint is disabled. Enable it first, then replay.')
      .waitFor();
    page.off('request', watch);
    expect(replays).toEqual([]);
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('button', { name: 'Disable' }).waitFor();
  });

  it('shows a delivery in detail (payload, response, latency, next attempt, copyable ids) and filters the list', async () => {
    await page
      .getByRole('button', { name: /^Attempts/ })
      .first()
      .click();
    const detail = page.locator('.delivery-detail').first();
    await detail.getByText('receiver exploded').first().waitFor();
    await detail.getByText('Request payload').click();
    await detail.getByText('Smith v Jones').waitFor();
    await detail
      .getByText(/HTTP 500 · \d+ ms/)
      .first()
      .waitFor();
    await detail.getByText('Next attempt').waitFor();
    await detail.getByText('Request headers sent').first().click();
    await detail.getByText('v1,…').first().waitFor();
    await detail.getByText('Response headers').first().click();
    await detail.getByRole('button', { name: `Copy event id ${eventId}` }).click();
    await page.getByText(`Copied ${eventId}`).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(eventId);
    // Times in the browser's zone, UTC on hover.
    const time = detail.locator('time').first();
    expect(await time.textContent()).toMatch(/E[SD]T$/);
    expect(await time.getAttribute('title')).toMatch(/ UTC$/);
    await page.getByText(/% delivered of the last \d+ deliveries/).waitFor();
    const perDay = page.getByRole('table', { name: 'Success rate and latency per day' });
    await perDay
      .getByRole('cell', { name: /^\d+ ms$/ })
      .first()
      .waitFor();
    await scan('delivery detail');
    await page.screenshot({ path: join(SCREENSHOTS, 'delivery-detail.png'), fullPage: true });

    // Close the detail (the list refreshes again) and filter.
    await page
      .getByRole('button', { name: /^Attempts/ })
      .first()
      .click();
    await publish('matter.updated', { matterId: 'mat_1', changedFields: ['name'] });
    await page.getByRole('row', { name: /matter\.updated/ }).waitFor({ timeout: 15_000 });
    await page.getByLabel('Event type').fill('matter.created');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await until(
      async () => (await page.getByRole('row', { name: /matter\.updated/ }).count()) === 0,
      'the matter.updated delivery to be filtered out',
    );
    await page
      .getByRole('row', { name: /matter\.created/ })
      .first()
      .waitFor();
    await page.getByLabel('Event id').fill('not-an-event');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('An event id starts with evt_.').waitFor();
    await scan('deliveries filtered (field error)');
    await page.getByLabel('Event id').fill(eventId);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await until(
      async () => (await page.locator('tr[data-delivery]').count()) === 1,
      'one delivery for the event id',
    );
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByRole('row', { name: /matter\.updated/ }).waitFor();
  });

  it('edits an endpoint and deletes one after its confirm', async () => {
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('heading', { name: 'Edit endpoint' }).waitFor();
    expect((await focused(page)).id).toBe('url');
    await page.getByLabel('Description (optional)').fill('Docketing receiver');
    await page.getByLabel('Vault ids').fill('vault_1');
    await scan('endpoint edit');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Endpoint saved').waitFor();
    await page.getByRole('definition').filter({ hasText: 'Docketing receiver' }).waitFor();
    await page.getByRole('definition').filter({ hasText: 'vaults: vault_1' }).waitFor();

    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('button', { name: 'Delete' }).click();
    expect((await api(server)(`/webhooks/v1/endpoints/${endpointId}`)).status).toBe(200);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Webhook endpoints' }).waitFor();
    await page.getByText('Endpoint deleted').waitFor();
    expect((await api(server)(`/webhooks/v1/endpoints/${endpointId}`)).status).toBe(404);
  });

  it("shows the event catalog: each type's schema and an example payload", async () => {
    await page.getByRole('link', { name: 'Event types' }).click();
    await page.getByRole('heading', { name: 'Event types', level: 1 }).waitFor();
    expect((await focused(page)).tag).toBe('H1');
    const card = page.locator('article', { has: page.getByRole('heading', { name: 'matter.created' }) });
    await card.getByText('Data schema').click();
    await card.getByText('"properties"').waitFor();
    await card.getByText('Example payload').click();
    const example = JSON.parse((await card.getByTestId('example').textContent()) ?? '') as Record<
      string,
      unknown
    >;
    expect(Object.keys(example)).toEqual(expect.arrayContaining(['matterId', 'name']));
    await scan('event types');
    await page.screenshot({ path: join(SCREENSHOTS, 'event-types.png') });
  });

  it('binds keys picked from lists, copies ids, names the other application on a conflict, and pages the keys', async () => {
    const org = server.credentials.organizationId;
    const app = (name: string) => server.admin('create-app', '--org', org, '--name', name) as { id: string };
    const docketing = app('Docketing');
    const billing = app('Billing');
    // More keys than one page of the list holds (20).
    const listed = await api(server, await sessionCookie(page))('/connectors/v1/applications');
    const existing = ((await listed.json()) as { keys: unknown[] }).keys.length;
    const keys = Array.from(
      { length: Math.max(2, 22 - existing) },
      () => server.createKey('connectors:read').keyId,
    );
    const [first, second] = keys as [string, string];

    await page.getByRole('link', { name: 'Applications' }).click();
    await page.getByRole('cell', { name: 'Billing', exact: true }).waitFor();
    expect((await focused(page)).tag).toBe('H1');
    await page.getByRole('button', { name: `Copy application id ${docketing.id}` }).click();
    await page.getByText(`Copied ${docketing.id}`).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(docketing.id);

    // The keys come a page at a time.
    const pages = page.getByRole('navigation', { name: 'API keys pages' });
    await pages.getByText('Items 1–20').waitFor();
    await pages.getByRole('button', { name: 'Next' }).click();
    await pages.getByText(/^Items 21–\d+$/).waitFor();
    expect(await page.getByRole('table', { name: 'API keys' }).locator('tbody tr').count()).toBe(
      existing + keys.length - 20,
    );
    await pages.getByRole('button', { name: 'Previous' }).click();
    await pages.getByText('Items 1–20').waitFor();

    const bind = async (application: string, key: string) => {
      await page.getByLabel('Application', { exact: true }).selectOption(application);
      await page.getByLabel('API key', { exact: true }).selectOption(key);
      await page.getByRole('button', { name: 'Bind', exact: true }).click();
    };
    await bind(docketing.id, first);
    await page.getByText('Key bound').waitFor();
    await page.getByRole('row', { name: new RegExp(`Docketing.*${first}`) }).waitFor();
    // Known bound elsewhere: said on the field, before any request.
    const puts: string[] = [];
    const watch = (request: { method(): string; url(): string }) => {
      if (request.method() === 'PUT') puts.push(request.url());
    };
    page.on('request', watch);
    await bind(billing.id, first);
    await page.getByText('This key is bound to Docketing: unbind it there first.').waitFor();
    page.off('request', watch);
    expect(puts).toEqual([]);
    expect((await focused(page)).id).toBe('bind-key');

    // Bound elsewhere behind the page's back: the API's 409 is said on the field, naming the application.
    const behind = await api(server, await sessionCookie(page))(
      `/connectors/v1/applications/${billing.id}/keys/${second}`,
      { method: 'PUT' },
    );
    expect(behind.status).toBeLessThan(300);
    await bind(docketing.id, second);
    await page.getByText(`This key is bound to Billing (${billing.id}): unbind it there first.`).waitFor();
    expect((await focused(page)).id).toBe('bind-key');
    expect(await page.getByLabel('API key', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await scan('applications (bound elsewhere)');
  }, 240_000);

  it('fits 390, 768, 1280 and 1920 px on every signed-in page, with zero axe violations at each', async () => {
    const created = await api(server)('/webhooks/v1/endpoints', {
      method: 'POST',
      body: JSON.stringify({
        url: `${receiverBase}/ok/a-rather-long-receiver-path/that-should-wrap`,
        eventTypeFilters: ['matter.*'],
      }),
    });
    const { endpoint } = (await created.json()) as { endpoint: { id: string } };
    await publish('matter.created', { matterId: 'mat_2', name: 'Wide v Narrow' });
    const pages: [string, string][] = [
      ['endpoints', '#/webhooks'],
      ['endpoint', `#/webhooks/${endpoint.id}`],
      ['new-endpoint', '#/webhooks/new'],
      ['event-types', '#/event-types'],
      ['connections', '#/connections'],
      ['applications', '#/applications'],
    ];
    for (const width of [390, 768, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [name, hash] of pages) {
        await page.goto(`${server.baseUrl}/console/${hash}`);
        await page.locator('main h1').waitFor();
        await page.locator('main .loading').first().waitFor({ state: 'detached' });
        const overflow = Number(
          await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'),
        );
        expect({ width, name, overflow }).toEqual({ width, name, overflow: 0 });
        if (width === 390) await expectHeadingsInOrder(page, name);
        if (width === 390 || width === 768) await scan(`${name} at ${width}`);
        if (width === 390 || width === 1280)
          await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
      }
    }
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it('draws a focus ring of at least 3:1 on the page and in the header', async () => {
    await page.goto(`${server.baseUrl}/console/#/webhooks`);
    await page.locator('main h1').waitFor();
    // In the page (a string: this file is compiled without the DOM's types).
    const ring = async (selector: string) =>
      (await page.evaluate(`(() => {
        const element = document.querySelector(${JSON.stringify(selector)});
        element.focus();
        const style = getComputedStyle(element);
        let behind = element.parentElement;
        let background = 'rgba(0, 0, 0, 0)';
        while (behind) {
          background = getComputedStyle(behind).backgroundColor;
          if (!/rgba\\(.*, 0\\)$/.test(background)) break;
          behind = behind.parentElement;
        }
        return { outline: style.outlineColor, width: style.outlineWidth, background };
      })()`)) as { outline: string; width: string; background: string };
    await page.keyboard.press('Tab'); // keyboard focus: :focus-visible applies from here on
    for (const selector of ['main a.button', 'header nav a', 'header button']) {
      const { outline, width, background } = await ring(selector);
      expect({ selector, width }).toEqual({ selector, width: '3px' });
      expect({ selector, ratio: contrast(outline, background) >= 3 }).toEqual({ selector, ratio: true });
    }
  });

  it('follows the system dark setting, its colours CSS variables, with zero axe violations', async () => {
    const dark = await browser.newContext({
      viewport: { width: 1280, height: 860 },
      colorScheme: 'dark',
      timezoneId: TIME_ZONE,
    });
    const darkPage = await dark.newPage();
    await signIn(darkPage, server, 'owner');
    const colours = (await darkPage.evaluate(`({
      background: getComputedStyle(document.documentElement).backgroundColor,
      variable: getComputedStyle(document.documentElement).getPropertyValue('--bg').trim(),
    })`)) as { background: string; variable: string };
    expect(colours.variable).toBe('#12151a');
    expect(luminance(colours.background)).toBeLessThan(0.05);
    await scan('endpoints (dark)', darkPage);
    await darkPage.getByRole('link', { name: /\/ok\// }).click();
    await darkPage.locator('tr[data-delivery]').first().waitFor({ timeout: 15_000 });
    await darkPage.locator('main h1').waitFor(); // the endpoint's own read may finish after the list's
    await scan('endpoint (dark)', darkPage);
    await darkPage.screenshot({ path: join(SCREENSHOTS, 'endpoint-dark.png'), fullPage: true });
    await darkPage.getByRole('link', { name: 'Connections' }).click();
    await darkPage.getByRole('heading', { name: 'Connections' }).waitFor();
    await scan('connections (dark)', darkPage);
    await dark.close();
  });

  it('says a declined consent was declined, expires an abandoned pending connection, and reconnects a lapsed one', async () => {
    await page.getByRole('link', { name: 'Connections' }).click();
    await page.getByText('No connections match.').waitFor();
    const [declined] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Start connection' }).click(),
    ]);
    await declined.getByRole('button', { name: 'Continue' }).waitFor();
    // The interstitial (served by the API, not the console) has its main landmark and one h1.
    expect(await declined.getByRole('main').count()).toBe(1);
    await expectHeadingsInOrder(declined, 'connect interstitial');
    await scan('connect interstitial', declined);
    await declined.getByRole('button', { name: 'Continue' }).click();
    const sandboxUrl = new URL(declined.url()).origin;
    await declined.getByRole('button', { name: 'Decline' }).click();
    await declined.getByRole('heading', { name: 'The connection was not made' }).waitFor();
    await declined.getByText('Access was declined at the provider').waitFor();
    expect(await declined.getByRole('main').count()).toBe(1);
    await expectHeadingsInOrder(declined, 'connect declined');
    await scan('connect declined', declined);
    await declined.screenshot({ path: join(SCREENSHOTS, 'connect-declined.png') });
    await declined.close();
    // The console heard it from the landing tab: no Refresh needed.
    await page.getByText('The connection was not made (access denied)').waitFor();
    await page.getByRole('row', { name: /pending.*waiting for consent until/ }).waitFor();

    // Past the link's and the flow's lifetimes the pending connection says it expired.
    await server.advanceClock(21 * MINUTE);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('row', { name: /expired.*never completed/ }).waitFor();
    await scan('connections (expired pending)');

    const consent = async (account: string, start: () => Promise<unknown>) => {
      const [popup] = await Promise.all([page.waitForEvent('popup'), start()]);
      await popup.getByRole('button', { name: 'Continue' }).click();
      await popup.getByLabel('Account id').fill(account);
      await popup.getByRole('button', { name: 'Approve' }).click();
      await popup.getByRole('heading', { name: 'Connected' }).waitFor();
      await popup.close();
    };
    await consent('acct-lapse', () => page.getByRole('button', { name: 'Start connection' }).click());
    await page.getByRole('row', { name: /healthy/ }).waitFor();

    // The provider refuses the next refresh: the connection needs the user again.
    const refused = await fetch(`${sandboxUrl}/__sandbox/next-token-error`, {
      method: 'POST',
      body: JSON.stringify({ provider: 'practice', error: 'invalid_grant' }),
    });
    expect(refused.status).toBe(204);
    // Idle, it is tried by the sweep before its refresh token would lapse unused.
    await server.advanceClock(sweepDueAt(0, PROVIDERS.practice.refreshTokenIdleSeconds! * 1000));
    expect((await fetch(`${server.baseUrl}/__dev/token-sweep`, { method: 'POST' })).status).toBe(200);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const lapsed = page.getByRole('row', { name: /reauth required/ });
    await lapsed.getByRole('button', { name: /Reconnect/ }).waitFor();
    await scan('connections (reauth required)');
    await consent('acct-lapse', () => lapsed.getByRole('button', { name: /Reconnect/ }).click());
    await until(
      async () => (await page.getByRole('row', { name: /reauth required/ }).count()) === 0,
      'the reconnected connection to leave reauth_required',
    );
    await page.getByRole('row', { name: /healthy/ }).waitFor();

    // A connection's page fits a phone too.
    await page
      .getByRole('row', { name: /healthy/ })
      .getByRole('link')
      .click();
    await page.getByRole('heading', { name: 'practice connection' }).waitFor();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole('heading', { name: 'Import links' }).waitFor();
      const overflow = Number(
        await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'),
      );
      expect({ width, overflow }).toEqual({ width, overflow: 0 });
      await scan(`connection at ${width}`);
      await page.screenshot({ path: join(SCREENSHOTS, `connection-${width}.png`), fullPage: true });
    }

    // Its status changes behind the page (another user disconnects): the header follows on its own.
    const connectionId = decodeURIComponent(page.url().split('#/connections/')[1]!);
    const disconnected = await api(server)(`/connectors/v1/connections/${connectionId}`, {
      method: 'DELETE',
    });
    expect(disconnected.status).toBeLessThan(300);
    await page.locator('.title-row .badge', { hasText: 'revoked' }).waitFor({ timeout: 20_000 });
  });

  it('keeps the session and the page across a reload and a new tab, and signs in back to the same page', async () => {
    await page.getByRole('link', { name: 'Applications' }).click();
    await page.getByRole('heading', { name: 'Applications and keys' }).waitFor();
    expect((await focused(page)).tag).toBe('H1');
    await page.reload();
    await page.getByRole('heading', { name: 'Applications and keys' }).waitFor();

    const tab = await page.context().newPage();
    await tab.goto(`${server.baseUrl}/console/#/event-types`);
    await tab.getByRole('heading', { name: 'Event types', level: 1 }).waitFor();
    await tab.close();

    // One read of the list per visit: the sign-in does not draw the page twice.
    await page.getByRole('button', { name: 'Sign out' }).click();
    const reads: string[] = [];
    const watch = (request: { method(): string; url(): string }) => {
      if (request.method() === 'GET' && /\/webhooks\/v1\/endpoints\?/.test(request.url()))
        reads.push(request.url());
    };
    page.on('request', watch);
    await page.getByLabel('Role').selectOption('owner');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Webhook endpoints' }).waitFor();
    await page.locator('main .loading').first().waitFor({ state: 'detached' });
    page.off('request', watch);
    expect(reads).toHaveLength(1);

    // The session expires on a page: signing in again comes back to it.
    await page.getByRole('link', { name: 'Connections' }).click();
    await page.getByRole('heading', { name: 'Connections' }).waitFor();
    await server.advanceClock(9 * 60 * MINUTE);
    // The page's own refresh may notice the ended session first (the button is then gone); otherwise
    // the Refresh button asks. Either way the sign-in page says why.
    await page
      .getByRole('button', { name: 'Refresh' })
      .click({ timeout: 3_000 })
      .catch(() => undefined);
    await page.getByText('Your session has ended: sign in again.').waitFor();
    await scan('sign-in (session ended)');
    await page.getByLabel('Role').selectOption('owner');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Connections' }).waitFor();
    expect(page.url()).toContain('#/connections');
  });
});

/** Relative luminance of a CSS rgb() colour (WCAG 2). */
function luminance(colour: string): number {
  const [r, g, b] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [light, dim] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dim! + 0.05);
}
