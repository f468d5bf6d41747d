// Sessions made outside the console's own sign-in page, in a real browser: a cross-site page that tries
// to switch a signed-in browser's session (login CSRF) fails.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import type { RunningServer } from '../support/local-server';
import { startLocalServer } from '../support/local-server';
import { launchBrowser, sessionCookie, signIn } from './browser-support';

let server: RunningServer;
let browser: Browser;
let page: Page;
/** Another site (127.0.0.1, where the console is on localhost): pages a test sets by path. */
let foreign: Server;
let foreignUrl = '';
const foreignPages = new Map<string, string>();

beforeAll(async () => {
  foreign = createServer((request, response) => {
    const html = foreignPages.get(request.url ?? '');
    if (html === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
  foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
  server = await startLocalServer();
  ({ browser, page } = await launchBrowser());
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((resolve) => foreign?.close(resolve));
});

/** Who the browser's session cookie signs in, as the console's own page reads it. */
async function signedInRole(): Promise<string | undefined> {
  await page.goto(`${server.baseUrl}/console/`);
  return page.evaluate(async () => {
    const response = await fetch('/__dev/console/session', { headers: { 'X-Console-Request': '1' } });
    return response.ok ? ((await response.json()) as { role: string }).role : undefined;
  });
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
    await page.waitForFunction(() => document.title === 'sent');

    expect(await sessionCookie(page)).toBe(before);
    expect(await signedInRole()).toBe('owner');
  });
});
