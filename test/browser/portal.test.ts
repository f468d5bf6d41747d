// Sessions made outside the console's own sign-in page, in a real browser: a cross-site page that tries
// to switch a signed-in browser's session (login CSRF) fails; a customer's page embeds the portal
// through a freshly minted link and sees its own organization only, once per link, and only from an
// origin the organization allows.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Frame, Page } from 'playwright-core';
import type { RunningServer } from '../support/local-server';
import { api, startLocalServer } from '../support/local-server';
import { launchBrowser, sessionCookie, signIn, until } from './browser-support';

let server: RunningServer;
let browser: Browser;
let page: Page;
/** Another site (127.0.0.1, where the console is on localhost): pages a test sets by path. */
let foreign: Server;
let other: Server;
let receiver: Server;
let receiverUrl = '';
let foreignUrl = '';
/** A second origin of that site, which the organization does not allow to frame its portal. */
let otherUrl = '';
const foreignPages = new Map<string, string>();
/** The webhook receiver both organizations' endpoints deliver to: the paths it was sent. */
const received: string[] = [];

beforeAll(async () => {
  foreign = createServer((request, response) => {
    const html = foreignPages.get(request.url ?? '');
    if (html === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
  foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
  other = createServer((request, response) => {
    const html = foreignPages.get(request.url ?? '');
    if (html === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push(request.url ?? '');
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  server = await startLocalServer();
  ({ browser, page } = await launchBrowser());
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  for (const s of [foreign, other, receiver]) await new Promise((resolve) => s?.close(resolve));
});

/** Who the browser's session cookie signs in, as the console's own page reads it. */
async function signedInRole(): Promise<string | undefined> {
  await page.goto(`${server.baseUrl}/console/`);
  return (await page.evaluate(`fetch('/connectors/v1/session', { headers: { 'X-Console-Request': '1' } })
    .then((r) => (r.ok ? r.json() : {}))
    .then((s) => s.role)`)) as string | undefined;
}

describe('login CSRF', () => {
  it('a cross-site form or script cannot switch a signed-in browser to another role', async () => {
    await signIn(page, server, 'owner');
    const before = await sessionCookie(page);
    const target = `${server.baseUrl}/__dev/console/sign-in`;
    // A text/plain form whose body parses as JSON, a urlencoded one, and a no-cors fetch: the simple
    // requests a foreign page can make without a preflight.
    foreignPages.set(
      '/text-form',
      `<form method="post" enctype="text/plain" action="${target}">` +
        `<input name='{"role":"member","x":"' value='"}'></form>` +
        `<script>document.forms[0].submit()</script>`,
    );
    foreignPages.set(
      '/url-form',
      `<form method="post" action="${target}"><input name="role" value="member"></form>` +
        `<script>document.forms[0].submit()</script>`,
    );
    foreignPages.set(
      '/fetch',
      `<script>fetch(${JSON.stringify(target)}, {method: 'POST', mode: 'no-cors', credentials: 'include', ` +
        `headers: {'Content-Type': 'text/plain'}, body: '{"role":"member"}'})` +
        `.finally(() => { document.title = 'sent'; })</script>`,
    );
    for (const path of ['/text-form', '/url-form']) {
      const answered = page.waitForResponse((r) => r.url() === target);
      await page.goto(`${foreignUrl}${path}`);
      expect((await answered).status()).toBe(403);
    }
    await page.goto(`${foreignUrl}/fetch`);
    await page.waitForFunction(`document.title === 'sent'`);

    expect(await sessionCookie(page)).toBe(before);
    expect(await signedInRole()).toBe('owner');
  });
});

describe('embedded portal', () => {
  let portalKey = '';
  let otherOrg: { organizationId: string; apiKey: string };
  const asPortal = () => api(server, portalKey);
  const publish = (organizationId: string, type: string) =>
    api(server, server.credentials.systemKey)('/webhooks/v1/events', {
      method: 'POST',
      body: JSON.stringify({ organizationId, type, data: { matterId: 'mat_1', name: 'Smith v Jones' } }),
    });

  async function mint(body: Record<string, unknown>): Promise<{ id: string; url: string }> {
    const response = await asPortal()('/connectors/v1/portal/links', {
      method: 'POST',
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string; url: string };
  }

  /** The customer's page, on `origin`, with the portal in a frame; the frame once it has navigated. */
  async function embed(origin: string, url: string, path: string): Promise<Frame> {
    foreignPages.set(
      path,
      `<!doctype html><title>Customer app</title><h1>Customer app</h1>` +
        `<iframe src="${url}" title="Webhooks" width="1100" height="700"></iframe>`,
    );
    await page.goto(`${origin}${path}`);
    return until(async () => page.frames().find((f) => f !== page.mainFrame()), 'the portal frame');
  }

  beforeAll(async () => {
    // A key of the development organization that mints portal links and sets the portal's settings.
    portalKey = server.createKey('portal:read,portal:write').apiKey;
    otherOrg = server.otherOrganization('Other firm');
    const own = await api(server)('/webhooks/v1/endpoints', {
      method: 'POST',
      body: JSON.stringify({ url: `${receiverUrl}/own-hooks`, eventTypeFilters: ['*'] }),
    });
    expect(own.status).toBe(201);
    const theirs = await api(server, otherOrg.apiKey)('/webhooks/v1/endpoints', {
      method: 'POST',
      body: JSON.stringify({ url: `${receiverUrl}/other-firm-hooks`, eventTypeFilters: ['*'] }),
    });
    expect(theirs.status).toBe(201);
    expect((await publish(server.credentials.organizationId, 'matter.created')).status).toBe(202);
    expect((await publish(otherOrg.organizationId, 'matter.created')).status).toBe(202);
    await until(
      async () => received.includes('/own-hooks') && received.includes('/other-firm-hooks'),
      'both deliveries',
    );
    const settings = await asPortal()('/connectors/v1/portal/settings', {
      method: 'PUT',
      body: JSON.stringify({
        frame_ancestors: [foreignUrl],
        brand_color: '#5b2a86',
        logo_url: null,
        appearance: 'dark',
      }),
    });
    expect(settings.status).toBe(200);
  }, 60_000);

  let firstLink = '';
  it("shows one organization's endpoints and deliveries in a frame on an allowed origin, and retries a delivery", async () => {
    const { url } = await mint({ role: 'manage', user: 'jane@customer.example' });
    firstLink = url;
    const frame = await embed(foreignUrl, url, '/embed');
    await frame.getByRole('heading', { name: 'Webhook endpoints' }).waitFor();
    // The organization's name and theme, its granted sections only, no administration.
    const header = frame.locator('header');
    expect(await header.locator('.brand').textContent()).toBe('Development');
    expect(await header.getByRole('link').allTextContents()).toEqual([
      'Webhooks',
      'Event types',
      'Connections',
    ]);
    expect(
      await frame.evaluate(`[getComputedStyle(document.documentElement).getPropertyValue('--brand').trim(),
        document.documentElement.dataset.appearance]`),
    ).toEqual(['#5b2a86', 'dark']);
    await frame.getByText(`${receiverUrl}/own-hooks`).waitFor();
    expect(await frame.getByText('other-firm-hooks').count()).toBe(0);
    // The cookie the frame holds: partitioned to the customer's site, HttpOnly, never readable by script.
    const cookies = await page.context().cookies();
    const portalCookie = cookies.find((c) => c.name === 'console_session' && c.sameSite === 'None');
    expect(portalCookie).toMatchObject({ httpOnly: true, secure: true });
    expect(await frame.evaluate('document.cookie')).toBe('');

    const endpoint = await frame.getByRole('link', { name: `${receiverUrl}/own-hooks` }).getAttribute('href');
    await frame.evaluate(`location.hash = ${JSON.stringify(endpoint)}`);
    // Clicks as DOM events: pointer clicks in a cross-origin frame never land in headless Chromium here.
    const replay = frame.getByRole('button', { name: 'Replay' }).first();
    await until(async () => {
      const refresh = frame.getByRole('button', { name: 'Refresh' });
      if (await refresh.count()) await refresh.first().dispatchEvent('click');
      return (await replay.count()) > 0;
    }, 'a delivery row');
    expect(await frame.getByText('other-firm-hooks').count()).toBe(0);
    const before = received.filter((p) => p === '/own-hooks').length;
    await replay.dispatchEvent('click');
    await until(
      async () => received.filter((p) => p === '/own-hooks').length > before,
      'the replayed delivery',
    );
    // The portal's organization only, whatever the session asks the API for.
    const listed =
      await frame.evaluate(`fetch('/webhooks/v1/endpoints', { headers: { 'X-Console-Request': '1' } })
      .then((r) => r.json()).then((b) => b.data.map((e) => e.url))`);
    expect(listed).toEqual([`${receiverUrl}/own-hooks`]);
    // No organization administration, whatever the page shows.
    const admin =
      await frame.evaluate(`fetch('/connectors/v1/applications', { headers: { 'X-Console-Request': '1' } })
      .then((r) => r.status)`);
    expect(admin).toBe(401);
  });

  it('refuses the same link opened again, with a page that says so', async () => {
    const frame = await embed(foreignUrl, firstLink, '/embed-again');
    await frame.getByRole('heading', { name: 'This link cannot be used' }).waitFor();
    expect(await frame.getByRole('alert').textContent()).toMatch(/already been used/);
  });

  it('is not framed by an origin the organization does not allow, and the link is not spent', async () => {
    const { url } = await mint({ role: 'read-only', sections: ['webhooks'] });
    const refusedFrame = page.waitForEvent('console', (m) => /frame-ancestors/.test(m.text()));
    const frame = await embed(otherUrl, url, '/embed-elsewhere');
    await refusedFrame;
    expect(await frame.getByRole('heading', { name: 'Webhook endpoints' }).count()).toBe(0);
    // Never opened, so it still opens once, on an allowed origin.
    const allowed = await embed(foreignUrl, url, '/embed-later');
    await allowed.getByRole('heading', { name: 'Webhook endpoints' }).waitFor();
  });

  it('lists the live sessions and revokes one: the frame is signed out', async () => {
    const list = (await (await asPortal()('/connectors/v1/portal/sessions')).json()) as {
      data: { id: string; user: string | null; role: string }[];
    };
    expect(list.data.map((s) => s.role).sort()).toEqual(['manage', 'read-only']);
    for (const s of list.data) {
      expect((await asPortal()(`/connectors/v1/portal/sessions/${s.id}`, { method: 'DELETE' })).status).toBe(
        204,
      );
    }
    expect(
      ((await (await asPortal()('/connectors/v1/portal/sessions')).json()) as { data: [] }).data,
    ).toEqual([]);
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    await frame.evaluate(`location.hash = '#/event-types'`);
    await frame.getByRole('heading', { name: 'This session has ended' }).waitFor();
  });
});
