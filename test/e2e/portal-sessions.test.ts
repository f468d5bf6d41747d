// Sign-in links over HTTP, on both runtimes (the emulated AWS runtime too: its Lambdas, table and IAM):
// an operator signs in to the full console with a link the admin CLI mints through the API, exactly
// as against a deployment, and uses it; a link opens once; a portal session stays in its organization
// and its sections; sessions are listed and revoked.
import type { RunningServer } from '../support/local-server';
import { api, startLocalServer } from '../support/local-server';

let server: RunningServer;

beforeAll(async () => {
  server = await startLocalServer();
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

/** The link's page path and its token (the fragment, which a browser never sends). */
function splitLink(url: string): { path: string; token: string } {
  const parsed = new URL(url);
  expect(parsed.origin).toBe(server.baseUrl);
  return { path: parsed.pathname, token: decodeURIComponent(parsed.hash.slice(1)) };
}

/** What the console's own page sends: its header, JSON, its own origin. */
const fromConsole = (extra: Record<string, string> = {}) => ({
  'X-Console-Request': '1',
  'Content-Type': 'application/json',
  Origin: server.baseUrl,
  ...extra,
});

const exchange = (token: string, headers: Record<string, string> = fromConsole()) =>
  fetch(`${server.baseUrl}/connectors/v1/session/exchange`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ token }),
  });

/** The session cookie a response sets, and its attributes. */
function setCookie(response: Response): { value: string; attributes: string[] } {
  const header = response.headers.getSetCookie().find((c) => c.startsWith('console_session='))!;
  const [pair, ...attributes] = header.split(';').map((p) => p.trim());
  return { value: pair!.slice('console_session='.length), attributes };
}

/** A request the console page makes with the cookie (the edge turns it into the bearer). */
const asConsole =
  (cookie: string) =>
  (path: string, init: RequestInit = {}) =>
    fetch(`${server.baseUrl}${path}`, {
      redirect: 'manual',
      ...init,
      headers: { Cookie: `console_session=${cookie}`, 'X-Console-Request': '1', ...(init.headers ?? {}) },
    });

describe('an operator signs in with a minted link', () => {
  let cookie = '';
  let token = '';

  it('mints a console link through the API with the admin CLI; its page opens without spending it', async () => {
    const minted = server.admin(
      'portal-link',
      '--org',
      server.credentials.organizationId,
      '--role',
      'owner',
      '--user',
      'ops@deployer.example',
    ) as { url: string; expires_at: string };
    const link = splitLink(minted.url);
    token = link.token;
    expect(token).toMatch(/^lpl_/);
    const page = await fetch(`${server.baseUrl}${link.path}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await page.text()).toContain('/console/open.js');
  });

  it('refuses an exchange from anywhere but the console page, and leaves the link unspent', async () => {
    const foreign = [
      { 'Content-Type': 'text/plain' },
      fromConsole({ 'Content-Type': 'text/plain' }),
      fromConsole({ Origin: 'https://attacker.example' }),
      fromConsole({ 'Sec-Fetch-Site': 'cross-site' }),
    ];
    for (const headers of foreign) {
      const refused = await exchange(token, headers);
      // A body that is not JSON is refused before anything reads it (415); the rest by the guard (403).
      expect([403, 415]).toContain(refused.status);
      expect(refused.headers.getSetCookie()).toEqual([]);
    }
  });

  it('exchanges the link once for a Strict, HttpOnly, Secure session cookie and says where to go', async () => {
    const response = await exchange(token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ redirect: '/console/#/webhooks' });
    const set = setCookie(response);
    cookie = set.value;
    expect(cookie).toMatch(/^lps_/);
    expect(set.attributes).toEqual(
      expect.arrayContaining(['Path=/', 'HttpOnly', 'Secure', 'SameSite=Strict']),
    );
    const again = await exchange(token);
    expect(again.status).toBe(410);
    const body = (await again.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('GONE');
    expect(body.error.message).toMatch(/already been used/);
    expect(body.error.message).not.toContain(token.split('_').slice(2).join('_'));
  });

  it('uses the console: reads its session, the API-key routes and the organization administration', async () => {
    const as = asConsole(cookie);
    const session = (await (await as('/connectors/v1/session')).json()) as Record<string, unknown>;
    expect(session).toMatchObject({
      kind: 'console',
      role: 'owner',
      organizationId: server.credentials.organizationId,
      organizationName: 'Development',
      userId: 'ops@deployer.example',
    });
    const created = await as('/webhooks/v1/endpoints', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: 'https://receiver.example/hooks', eventTypeFilters: ['*'] }),
    });
    expect(created.status).toBe(201);
    expect((await as('/connectors/v1/applications')).status).toBe(200);
    // Without the console's header the cookie authorizes nothing (a cross-site form or link).
    const bare = await fetch(`${server.baseUrl}/webhooks/v1/endpoints`, {
      headers: { Cookie: `console_session=${cookie}` },
    });
    expect(bare.status).toBe(401);
  });

  it('signs out: the session is revoked, not only its cookie cleared', async () => {
    const out = await asConsole(cookie)('/connectors/v1/session/sign-out', {
      method: 'POST',
      headers: { Origin: server.baseUrl },
    });
    expect(out.status).toBe(204);
    expect(setCookie(out).attributes).toContain('Max-Age=0');
    expect((await asConsole(cookie)('/connectors/v1/session')).status).toBe(401);
    expect((await asConsole(cookie)('/webhooks/v1/endpoints')).status).toBe(401);
  });
});

describe('portal links', () => {
  let portalKey = '';
  const asKey = () => api(server, portalKey);
  const mint = async (body: Record<string, unknown>) => {
    const response = await asKey()('/connectors/v1/portal/links', {
      method: 'POST',
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as { url: string; error?: { code: string } },
    };
  };

  beforeAll(() => {
    portalKey = server.createKey('portal:read,portal:write').apiKey;
  });

  it("opens a read-only portal of the key's organization, its sections only, without administration", async () => {
    const minted = await mint({ role: 'read-only', sections: ['connections'] });
    expect(minted.status).toBe(201);
    const response = await exchange(splitLink(minted.body.url).token);
    expect(response.status).toBe(200);
    const { redirect } = (await response.json()) as { redirect: string };
    expect(redirect).toMatch(/^\/connectors\/v1\/session\/portal\/pss_[a-z2-7]{20}#\/connections$/);
    const set = setCookie(response);
    expect(set.attributes).toEqual(
      expect.arrayContaining(['SameSite=None', 'Partitioned', 'Secure', 'HttpOnly']),
    );
    const as = asConsole(set.value);
    expect((await as('/connectors/v1/connections')).status).toBe(200);
    expect((await as('/webhooks/v1/endpoints')).status).toBe(403);
    expect((await as('/connectors/v1/applications')).status).toBe(401);
    expect((await as('/connectors/v1/portal/links', { method: 'POST', body: '{}' })).status).toBe(403);
    const write = await as('/connectors/v1/connections', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ provider: 'sandbox', return_url: 'https://app.example/back' }),
    });
    expect(write.status).toBe(403);
  });

  it('refuses what a key may not mint: the full console, another organization', async () => {
    expect((await mint({ kind: 'console', role: 'owner' })).status).toBe(403);
    const other = server.otherOrganization('Elsewhere');
    expect((await mint({ role: 'manage', organization_id: other.organizationId })).status).toBe(403);
    expect((await mint({ role: 'owner' })).status).toBe(400);
    expect((await mint({ role: 'manage', session_ttl_seconds: 9 * 3600 })).status).toBe(400);
  });

  it('refuses an expired link and a tampered one', async () => {
    const { body } = await mint({ role: 'manage', link_ttl_seconds: 60 });
    const { token } = splitLink(body.url);
    const tampered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    const refusedTampered = await exchange(tampered);
    expect(refusedTampered.status).toBe(410);
    expect(((await refusedTampered.json()) as { error: { message: string } }).error.message).toMatch(
      /not a valid/,
    );
    await server.advanceClock(61_000);
    const expired = await exchange(token);
    expect(expired.status).toBe(410);
    expect(((await expired.json()) as { error: { message: string } }).error.message).toMatch(/expired/);
  });

  it('lists live sessions and revokes one: its next call is refused', async () => {
    const { body } = await mint({ role: 'manage', user: 'jane@customer.example' });
    const cookie = setCookie(await exchange(splitLink(body.url).token)).value;
    expect((await asConsole(cookie)('/webhooks/v1/endpoints')).status).toBe(200);
    const list = (await (await asKey()('/connectors/v1/portal/sessions')).json()) as {
      data: { id: string; user: string | null }[];
    };
    const jane = list.data.find((s) => s.user === 'jane@customer.example')!;
    expect(jane).toBeDefined();
    expect((await asKey()(`/connectors/v1/portal/sessions/${jane.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    expect((await asKey()(`/connectors/v1/portal/sessions/${jane.id}`, { method: 'DELETE' })).status).toBe(
      404,
    );
    expect((await asConsole(cookie)('/webhooks/v1/endpoints')).status).toBe(401);
  });
});
