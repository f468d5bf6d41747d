// The console in a real browser (Chromium through playwright-core) against `npm start`'s server: sign
// in, webhooks end to end with a real receiver, a connection through the sandbox consent, a member's
// read-only view, and an axe-core scan of every page. Screenshots land in docs/screenshots/.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PROVIDER_IDS } from '../../functions/connectors/providers';
import type { RunningServer } from '../support/local-server';
import { api, startLocalServer } from '../support/local-server';
import {
  SCREENSHOTS,
  TIME_ZONE,
  expectAccessible as scan,
  focused,
  launchBrowser,
  scriptVisibleSecrets,
  sessionCookie,
  signIn as signInAs,
  storedItems,
  until,
} from './browser-support';

const DAY = 24 * 3600 * 1000;

let server: RunningServer;
let browser: Browser;
let page: Page;
let receiver: Server;
let receiverUrl = '';
let failing = false;
const received: string[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push(request.url ?? '');
      if (failing) {
        // A redirect fails for good at once (never followed): the quickest road to auto-disable.
        response.writeHead(307, { Location: 'https://example.invalid/' }).end('moved away');
      } else {
        response.writeHead(200, { 'Content-Type': 'text/plain' }).end('received by the test receiver');
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  server = await startLocalServer();
  ({ browser, page } = await launchBrowser());
}, 90_000);

afterEach(async () => {
  if (process.env.CONSOLE_DEBUG)
    await page.screenshot({ path: `/tmp/i14-${expect.getState().currentTestName}.png`, fullPage: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

const expectAccessible = (name: string) => scan(page, name);
const signIn = (role: 'owner' | 'admin' | 'member') => signInAs(page, server, role);

const publish = (type: string, data: Record<string, unknown>) =>
  api(server, server.credentials.systemKey)('/webhooks/v1/events', {
    method: 'POST',
    body: JSON.stringify({ organizationId: server.credentials.organizationId, type, data }),
  });

async function endpointState(): Promise<{ id: string; enabled: boolean }> {
  const list = (await (await api(server)('/webhooks/v1/endpoints')).json()) as {
    data: { id: string; enabled: boolean }[];
  };
  return list.data[0]!;
}

/** Clicks Refresh on the deliveries until a row shows `status` (the pipeline runs in the background). */
async function refreshUntilDelivery(status: string): Promise<void> {
  await until(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page
      .locator('tr[data-delivery]')
      .first()
      .waitFor({ timeout: 2000 })
      .catch(() => undefined);
    return (await page.locator('tr[data-delivery] .badge', { hasText: status }).count()) > 0;
  }, `a ${status} delivery`);
}

describe('console in a browser', () => {
  it('shows the sign-in page, accessible, and signs an owner in', async () => {
    await page.goto(`${server.baseUrl}/console/`);
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await expectAccessible('sign-in');
    await page.screenshot({ path: join(SCREENSHOTS, 'sign-in.png') });
    // Keyboard only: the role picker has focus, Tab reaches the button, Enter signs in.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Webhook endpoints' }).waitFor();
    await page.getByText('No endpoints yet.').waitFor();
    await expectAccessible('endpoints (empty)');
  });

  let firstSecret = '';
  it('creates an endpoint from the catalog picker and shows its secret once', async () => {
    await page.getByRole('link', { name: 'New endpoint' }).click();
    await page.getByLabel('Endpoint URL').fill(receiverUrl);
    await page.getByLabel('Description (optional)').fill('Matter updates for the docketing app');
    await page.locator('input[name=eventType][value="matter.*"]').check();
    await expectAccessible('new endpoint');
    await page.screenshot({ path: join(SCREENSHOTS, 'new-endpoint.png'), fullPage: true });
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    firstSecret = (await page.getByTestId('secret').textContent()) ?? '';
    expect(firstSecret).toMatch(/^whsec_/);
    // Never in the URL, nor in storage.
    expect(page.url()).not.toContain(firstSecret);
    expect(await storedItems(page)).toBe(0);
    await expectAccessible('endpoint created');
    await page.getByRole('link', { name: 'Go to the endpoint' }).click();
    await page.getByRole('heading', { name: receiverUrl }).waitFor();
  });

  it('shows a published event as a delivery with its attempt', async () => {
    expect((await publish('matter.created', { matterId: 'mat_1', name: 'Smith v Jones' })).status).toBe(202);
    await refreshUntilDelivery('delivered');
    await page
      .getByRole('button', { name: /^Attempts/ })
      .first()
      .click();
    const attempts = page.locator('ol.attempts');
    await attempts.getByText('received by the test receiver').waitFor();
    await expect(attempts.locator('li.attempt').first().textContent()).resolves.toContain('HTTP 200');
    await expectAccessible('endpoint detail');
    await page.screenshot({ path: join(SCREENSHOTS, 'endpoint-deliveries.png'), fullPage: true });
  });

  it('shows the auto-disable reason when the receiver keeps failing, and re-enables from the console', async () => {
    failing = true;
    expect((await publish('matter.created', { matterId: 'mat_2', name: 'Doe v Roe' })).status).toBe(202);
    await refreshUntilDelivery('failed');
    await server.advanceClock(5 * DAY + 60_000); // the dev clock hook, instead of waiting five days
    expect((await publish('matter.created', { matterId: 'mat_3', name: 'Late' })).status).toBe(202);
    await until(async () => !(await endpointState()).enabled, 'the endpoint to be disabled');

    // Five days on, the eight-hour session has expired: the console says so and asks to sign in again.
    // The deliveries' own refresh (every 5 s) may notice first, and the link is then gone.
    await page
      .getByRole('link', { name: 'Webhooks' })
      .click({ timeout: 3_000 })
      .catch(() => undefined);
    await page.getByText('Your session has ended: sign in again.').waitFor();
    await signIn('owner');
    await page.getByRole('cell', { name: 'auto-disabled' }).waitFor();
    await page.getByRole('link', { name: receiverUrl }).click();
    await expect(page.getByTestId('disabled-reason').textContent()).resolves.toContain(
      'Disabled automatically',
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'endpoint-auto-disabled.png'), fullPage: true });

    failing = false;
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('button', { name: 'Disable' }).waitFor();
    expect((await endpointState()).enabled).toBe(true);
  });

  it('replays a failed delivery, rotates the secret, sends a test event and recovers a window', async () => {
    await page.getByLabel('Status').selectOption('failed');
    await page.locator('tr[data-delivery]').first().waitFor();
    const before = received.length;
    await page.getByRole('button', { name: 'Replay' }).first().click();
    await page.getByText('Replay queued').waitFor();
    await until(async () => received.length > before, 'the replayed delivery at the receiver');
    await page.getByLabel('Status').selectOption('delivered');
    await refreshUntilDelivery('delivered');

    // Rotating asks first: declining rotates nothing.
    let question = '';
    page.once('dialog', (dialog) => {
      question = dialog.message();
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    expect(question).toContain('previous one keeps signing for 24 hours');
    expect(await page.getByTestId('secret').count()).toBe(0);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = (await page.getByTestId('secret').textContent()) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(firstSecret);
    await page.getByText('Previous secret signs until').waitFor();

    const beforeTest = received.length;
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByTestId('test-result').getByText('Test event delivered').waitFor();
    await until(async () => received.length > beforeTest, 'the test event at the receiver');

    // The window is typed in the browser's zone (as every time is shown) and sent as that instant.
    const hourAgo = new Date(Date.now() - 3600_000);
    hourAgo.setSeconds(0, 0);
    const local = new Intl.DateTimeFormat('sv-SE', {
      timeZone: TIME_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .format(hourAgo)
      .replace(' ', 'T');
    await page.getByLabel(`Recover from (${TIME_ZONE})`).fill(local);
    const [recover] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/recover')),
      page.getByRole('button', { name: 'Recover failed deliveries' }).click(),
    ]);
    expect(JSON.parse(recover.postData() ?? '{}')).toEqual({ since: hourAgo.toISOString() });
    await page.getByText('Recovery started').waitFor();
  });

  it('starts a connection, consents on the sandbox provider, comes back, switches the provider org-wide and disconnects', async () => {
    await page.getByRole('link', { name: 'Connections' }).click();
    await page.getByText('No connections match.').waitFor();
    await expectAccessible('connections (empty)');
    // The picker follows GET /connectors/v1/providers: locally every provider module, by display name.
    await page
      .locator('#connect-provider option', { hasText: 'Google Drive' })
      .waitFor({ state: 'attached' });
    expect(await page.locator('#connect-provider option').count()).toBe(PROVIDER_IDS.length);
    await page.locator('#connect-provider').selectOption('practice');
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Start connection' }).click(),
    ]);
    // The connect link opens on its interstitial page: only the person's click spends it.
    await popup.getByRole('button', { name: 'Continue' }).click();
    await popup.getByRole('button', { name: 'Approve' }).click();
    await popup.getByRole('heading', { name: 'Connected' }).waitFor();
    await popup.close();

    // The landing tab told this one: the list shows the connection without a click on Refresh.
    await page.locator('.badge', { hasText: 'healthy' }).waitFor();
    await page.getByText('Connection completed').waitFor();
    await expectAccessible('connections');
    await page.screenshot({ path: join(SCREENSHOTS, 'connections.png'), fullPage: true });

    // The organization-wide switch asks first; declining changes nothing, accepting switches it.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('button', { name: 'Apply to the organization' }).click();
    expect(await page.getByText('practice switched off').count()).toBe(0);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Apply to the organization' }).click();
    await page.getByText('practice switched off').waitFor();
    await page.getByText('(provider switched off)').waitFor();
    await page.getByLabel('action').selectOption('true');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Apply to the organization' }).click();
    await page.getByText('practice switched on').waitFor();

    await page.locator('tbody a').first().click();
    await page.getByRole('heading', { name: 'Disconnect' }).waitFor();
    await expectAccessible('connection detail');
    // Purge asks for the typed id first: a wrong confirmation changes nothing.
    await page.getByLabel('Also purge the data imported through this connection').check();
    await page.getByLabel('Confirmation').fill('not the id');
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByText('Type the connection id to confirm the purge').waitFor();
    await page.getByLabel('Also purge the data imported through this connection').uncheck();
    // Without purge it asks too: declining changes nothing.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.locator('.title-row .badge', { hasText: 'healthy' }).waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Disconnect' }).click();
    // The header shows the status the action left, and focus goes to it.
    await page.locator('.title-row .badge', { hasText: 'revoked' }).waitFor();
    expect((await focused(page)).tag).toBe('H1');
    await page.getByRole('table', { name: 'Status history, newest first' }).getByText('revoked').waitFor();
  });

  it('binds a key to an application and shows which keys are bound where', async () => {
    const { id: appId } = server.admin(
      'create-app',
      '--org',
      server.credentials.organizationId,
      '--name',
      'Docketing',
    ) as {
      id: string;
    };
    const { keyId } = server.createKey('connectors:read');
    await page.getByRole('link', { name: 'Applications' }).click();
    await page.getByRole('cell', { name: 'Docketing' }).waitFor();
    // Picked from lists: nothing to type; nothing picked is said on the fields, before any request.
    await page.getByRole('button', { name: 'Bind', exact: true }).click();
    await page.getByText('Choose the application.').waitFor();
    expect((await focused(page)).id).toBe('bind-app');
    expect(await page.getByLabel('Application', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await expectAccessible('applications (errors)');
    await page.getByLabel('Application', { exact: true }).selectOption(appId);
    await page.getByLabel('API key', { exact: true }).selectOption(keyId);
    await page.getByRole('button', { name: 'Bind', exact: true }).click();
    await page.getByText('Key bound').waitFor();
    await page.getByRole('row', { name: new RegExp(`Docketing.*${keyId}`) }).waitFor();
    await page.getByRole('row', { name: new RegExp(`${keyId}.*${appId}`) }).waitFor();
    await expectAccessible('applications');
    await page.screenshot({ path: join(SCREENSHOTS, 'applications.png'), fullPage: true });
  });

  it('shows a member no write controls, and the API refuses a write forged with the member session', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Role').waitFor();
    await signIn('member');
    const memberAuthorization = `Bearer ${await sessionCookie(page)}`;
    await page.getByRole('link', { name: receiverUrl }).waitFor();
    expect(await page.getByRole('link', { name: 'New endpoint' }).count()).toBe(0);
    await page.getByRole('link', { name: receiverUrl }).click();
    await page.getByRole('heading', { name: receiverUrl }).waitFor();
    await page.locator('tr[data-delivery]').first().waitFor();
    for (const name of [
      'Disable',
      'Enable',
      'Rotate secret',
      'Send test event',
      'Replay',
      'Edit',
      'Delete',
    ]) {
      expect({ name, count: await page.getByRole('button', { name }).count() }).toEqual({ name, count: 0 });
    }
    await expectAccessible('endpoint detail (member)');

    expect(memberAuthorization).toMatch(/^Bearer ey/);
    // The page's script cannot read the session; its cookie alone (no CSRF header) authorizes nothing.
    expect(await scriptVisibleSecrets(page)).not.toContain(memberAuthorization.slice('Bearer '.length));
    const { id } = await endpointState();
    const cookieOnly = await fetch(`${server.baseUrl}/webhooks/v1/endpoints/${id}`, {
      headers: { Cookie: `console_session=${memberAuthorization.slice('Bearer '.length)}` },
    });
    expect(cookieOnly.status).toBe(401);
    const forged = await fetch(`${server.baseUrl}/webhooks/v1/endpoints/${id}/disable`, {
      method: 'POST',
      headers: {
        Cookie: `console_session=${memberAuthorization.slice('Bearer '.length)}`,
        'X-Console-Request': '1',
      },
    });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({
      error: { code: 'PERMISSION_DENIED', message: expect.any(String) },
    });
    expect((await endpointState()).enabled).toBe(true);
    // Tokens are never logged by the server.
    expect(server.logs()).not.toContain(memberAuthorization.slice('Bearer '.length));
  });
});
