// The hosted OAuth flow over HTTP against `npm start`'s server and its sandbox provider. The test acts
// as the browser: it keeps cookies per browser and follows every redirect by hand.
import type { RunningServer } from '../support/local-server';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUNTIME, api, startLocalServer } from '../support/local-server';

let server: RunningServer;
let sandboxUrl = '';
/** Every response the service sent (status line, headers, body): scanned for codes and tokens at the end. */
const serviceResponses: string[] = [];

const RETURN_URL = 'https://app.example.com/connected?tenant=t%201&x=';

type Simulation =
  | 'none'
  | 'provider_error'
  | 'missing_code'
  | 'reduced_scopes'
  | 'exchange_failed'
  | 'rate_limited'
  | 'wrong_issuer';

async function record(
  url: string,
  response: Response,
): Promise<{ status: number; headers: Headers; body: string }> {
  const body = await response.text();
  if (url.startsWith(server.baseUrl)) {
    serviceResponses.push(`${response.status} ${JSON.stringify([...response.headers])} ${body}`);
  }
  return { status: response.status, headers: response.headers, body };
}

/** A browser: a cookie jar (name=value per origin) and no automatic redirects. */
class Browser {
  private readonly jar = new Map<string, Map<string, string>>();

  private cookieHeader(url: string): string {
    return [...(this.jar.get(new URL(url).origin) ?? new Map<string, string>())]
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
  }

  private keep(url: string, response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      const cookies = this.jar.get(new URL(url).origin) ?? new Map<string, string>();
      cookies.set(name!.trim(), value.join('='));
      this.jar.set(new URL(url).origin, cookies);
    }
  }

  /**
   * Opens a connect link as a person does: the page (which spends nothing), then its button (a POST).
   * Any answer but the page is returned as is.
   */
  async open(url: string) {
    const page = await this.get(url);
    if (page.status !== 200) return page;
    expect(page.headers.get('content-type')).toContain('text/html');
    const action = /<form method="post" action="([^"]+)"/
      .exec(page.body)![1]!
      .replace(/&#(\d+);/g, (_m, c: string) => String.fromCharCode(Number(c)));
    return this.post(new URL(action, url).toString(), {});
  }

  async get(url: string) {
    const response = await fetch(url, { redirect: 'manual', headers: { Cookie: this.cookieHeader(url) } });
    this.keep(url, response);
    return record(url, response);
  }

  async post(url: string, form: Record<string, string>) {
    const response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { Cookie: this.cookieHeader(url), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    this.keep(url, response);
    return record(url, response);
  }
}

async function call(path: string, init: RequestInit = {}, key?: string) {
  return record(`${server.baseUrl}${path}`, await api(server, key)(path, init));
}

async function create(body: Record<string, unknown> = {}, key?: string) {
  const response = await call(
    '/connectors/v1/connections',
    { method: 'POST', body: JSON.stringify({ provider: 'practice', return_url: RETURN_URL, ...body }) },
    key,
  );
  expect(response.status).toBe(201);
  return JSON.parse(response.body) as { connection_id: string; connect_url: string; expires_at: string };
}

/** Answers the sandbox consent page; returns where the provider sends the browser (our callback). */
async function consent(
  browser: Browser,
  authorizeUrl: string,
  options: { decision?: 'approve' | 'decline'; simulate?: Simulation; account?: string } = {},
): Promise<string> {
  const page = await browser.get(authorizeUrl);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toContain('text/html');
  const requestId = /name="request_id" value="([^"]+)"/.exec(page.body)![1]!;
  const answer = await browser.post(`${new URL(authorizeUrl).origin}${new URL(authorizeUrl).pathname}`, {
    request_id: requestId,
    decision: options.decision ?? 'approve',
    simulate: options.simulate ?? 'none',
    account_id: options.account ?? 'acct-1001',
    email: 'lawyer@example.com',
    display_name: 'A Lawyer',
  });
  expect(answer.status).toBe(302);
  return answer.headers.get('location')!;
}

/** The whole flow in one browser; returns the final redirect to return_url. */
async function connect(
  options: {
    decision?: 'approve' | 'decline';
    simulate?: Simulation;
    account?: string;
    provider?: string;
  } = {},
) {
  const browser = new Browser();
  const created = await create({ provider: options.provider ?? 'practice' });
  const opened = await browser.open(created.connect_url);
  expect(opened.status).toBe(302);
  const callback = await consent(browser, opened.headers.get('location')!, options);
  const done = await browser.get(callback);
  expect(done.status).toBe(302);
  return { created, opened, done, location: new URL(done.headers.get('location')!) };
}

beforeAll(async () => {
  server = await startLocalServer();
  const opened = await new Browser().open((await create()).connect_url);
  sandboxUrl = new URL(opened.headers.get('location')!).origin;
});

afterAll(async () => {
  await server.stop();
});

describe('creating a connection', () => {
  it('answers 201 with a pending connection, a one-time connect URL and an expiry 10 minutes out', async () => {
    const created = await create();
    expect(created.connection_id).toMatch(/^conn_[a-z2-7]{20}$/);
    expect(created.connect_url).toMatch(
      new RegExp(`^${server.baseUrl}/connectors/v1/connect/[A-Za-z0-9_-]{43}$`),
    );
    const minutes = (Date.parse(created.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9);
    expect(minutes).toBeLessThanOrEqual(10.1);
    const connection = await call(`/connectors/v1/connections/${created.connection_id}`);
    expect(JSON.parse(connection.body)).toMatchObject({ status: 'pending', enabled: true, account: null });
  });

  it.each([
    ['a relative URL', '/done', 'must be an absolute URL'],
    ['plain http', 'http://app.example.com/done', 'must use https'],
    ['embedded credentials', 'https://user:pw@app.example.com/done', 'must not contain credentials'],
    ['another scheme', 'javascript:alert(1)', 'absolute https URL'],
  ])('answers 400 naming return_url for %s', async (_what, returnUrl, message) => {
    const response = await call('/connectors/v1/connections', {
      method: 'POST',
      body: JSON.stringify({ provider: 'practice', return_url: returnUrl }),
    });
    expect(response.status).toBe(400);
    const body = JSON.parse(response.body) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('INVALID_REQUEST');
    expect(body.error.message).toContain('return_url');
    expect(body.error.message).toContain(message);
  });

  it.each([
    ['a CR/LF header injection', 'http://localhost:3001/ret\r\nSet-Cookie: x=1'],
    ['a NUL', 'http://localhost:3001/ret\u0000x'],
    ['a tab', 'http://localhost:3001/r\tet'],
    ['surrounding spaces', ' http://localhost:3001/ret '],
  ])('answers 400 to a return_url with %s', async (_what, returnUrl) => {
    const response = await call('/connectors/v1/connections', {
      method: 'POST',
      body: JSON.stringify({ provider: 'practice', return_url: returnUrl }),
    });
    expect(response.status).toBe(400);
    expect(response.body).toContain('return_url: must not contain spaces or control characters');
  });

  it('redirects to the normalised return_url (encoded query, one connection_id) after consent', async () => {
    const browser = new Browser();
    const created = await create({
      return_url: 'http://LOCALHOST:3001/back?q=é&connection_id=forged&error=old#frag',
    });
    const opened = await browser.open(created.connect_url);
    const done = await browser.get(await consent(browser, opened.headers.get('location')!));
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe(
      `http://localhost:3001/back?q=%C3%A9&connection_id=${created.connection_id}#frag`,
    );
  });

  it('answers a retried create with the same Idempotency-Key with the same connection and a fresh link', async () => {
    const post = (key: string, returnUrl = RETURN_URL) =>
      call('/connectors/v1/connections', {
        method: 'POST',
        headers: { 'Idempotency-Key': key },
        body: JSON.stringify({ provider: 'practice', return_url: returnUrl }),
      });
    const first = await post('conn-retry');
    const again = await post('conn-retry');
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    const a = JSON.parse(first.body) as { connection_id: string; connect_url: string };
    const b = JSON.parse(again.body) as { connection_id: string; connect_url: string };
    expect(b.connection_id).toBe(a.connection_id);
    expect(b.connect_url).not.toBe(a.connect_url);
    // Only the newest link is live: the first shows no page and starts no flow.
    expect((await new Browser().get(a.connect_url)).status).toBe(404);
    expect((await new Browser().open(a.connect_url)).status).toBe(404);
    const c = JSON.parse((await post('conn-retry')).body) as { connect_url: string };
    expect((await new Browser().get(b.connect_url)).status).toBe(404);
    const person = await new Browser().open(c.connect_url);
    expect(person.status).toBe(302);
    expect(new URL(person.headers.get('location')!).origin).toBe(sandboxUrl);
    expect((await post('conn-retry', 'https://app.example.com/elsewhere')).status).toBe(409);
    await call(`/connectors/v1/connections/${a.connection_id}`, { method: 'DELETE' });
    expect((await post('conn-retry')).status).toBe(409);
  });

  it('accepts http on localhost and 127.0.0.1 outside production', async () => {
    await create({ return_url: 'http://localhost:8080/back' });
    await create({ return_url: 'http://127.0.0.1/back' });
  });

  it('answers 400 for an unknown provider or scope tier', async () => {
    for (const body of [{ provider: 'netdrive' }, { scope_tier: 'admin' }, { scope_tier: 'constructor' }]) {
      const response = await call('/connectors/v1/connections', {
        method: 'POST',
        body: JSON.stringify({ provider: 'practice', return_url: RETURN_URL, ...body }),
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatch(/provider|scope_tier/);
    }
  });
});

describe('the connect link page', () => {
  it('is not spent by a link preview: GET shows a page with a button, only the POST starts the flow', async () => {
    const created = await create();
    for (let i = 0; i < 3; i++) {
      const preview = await new Browser().get(created.connect_url);
      expect(preview.status).toBe(200);
      expect(preview.body).toContain('<form method="post"');
      expect(preview.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(preview.headers.get('set-cookie')).toBeNull();
    }
    const person = await new Browser().open(created.connect_url);
    expect(person.status).toBe(302);
    expect(new URL(person.headers.get('location')!).origin).toBe(sandboxUrl);
    const after = await new Browser().get(created.connect_url);
    expect(after.status).toBe(404);
  });
});

describe('the connect flow', () => {
  it('connects: consent with signed state and PKCE S256, tokens kept server-side, back to return_url', async () => {
    const browser = new Browser();
    const created = await create();
    const opened = await browser.open(created.connect_url);
    expect(opened.status).toBe(302);
    expect(opened.headers.get('referrer-policy')).toBe('no-referrer');
    const cookie = opened.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/); // http://localhost only
    const authorize = new URL(opened.headers.get('location')!);
    expect(authorize.origin).toBe(sandboxUrl);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('scope')).toBe(
      'matters.read documents.read contacts.read documents.write',
    );
    expect(authorize.searchParams.get('redirect_uri')).toBe(
      `${server.baseUrl}/connectors/v1/oauth/practice/callback`,
    );
    expect(authorize.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);

    const callback = await consent(browser, authorize.toString(), { account: 'acct-happy' });
    const done = await browser.get(callback);
    expect(done.status).toBe(302);
    expect(done.headers.get('referrer-policy')).toBe('no-referrer');
    expect(done.headers.get('location')).toBe(`${RETURN_URL}&connection_id=${created.connection_id}`);

    const read = await call(`/connectors/v1/connections/${created.connection_id}`);
    expect(read.status).toBe(200);
    const connection = JSON.parse(read.body) as Record<string, unknown>;
    expect(Object.keys(connection).sort()).toEqual(
      [
        'account',
        'created_at',
        'enabled',
        'id',
        'provider',
        'scope_tier',
        'status',
        'status_history',
        'updated_at',
      ].sort(),
    );
    expect(connection).toMatchObject({
      id: created.connection_id,
      provider: 'practice',
      status: 'healthy',
      enabled: true,
      scope_tier: 'standard',
      account: { external_id: 'acct-happy', email: 'lawyer@example.com', display_name: 'A Lawyer' },
    });
  });

  it('connects a drive account too', async () => {
    const { location, created } = await connect({ provider: 'drive', account: 'drive-1' });
    expect(location.searchParams.get('connection_id')).toBe(created.connection_id);
  });

  it.each([
    ['access_denied', { decision: 'decline' as const }],
    ['provider_error', { simulate: 'provider_error' as const }],
    ['missing_code', { simulate: 'missing_code' as const }],
    ['connector_scope_not_enabled', { simulate: 'reduced_scopes' as const }],
    ['oauth_exchange_failed', { simulate: 'exchange_failed' as const }],
    ['oauth_exchange_failed', { simulate: 'rate_limited' as const }],
    ['issuer_mismatch', { simulate: 'wrong_issuer' as const }],
  ])(
    'returns error=%s to return_url (%j), keeping its query, and the connection stays pending',
    async (error, options) => {
      const { location, created } = await connect(options);
      expect(location.toString().startsWith(`${RETURN_URL}&error=`)).toBe(true);
      expect(location.searchParams.get('error')).toBe(error);
      expect(location.searchParams.get('connection_id')).toBeNull();
      const read = JSON.parse((await call(`/connectors/v1/connections/${created.connection_id}`)).body) as {
        status: string;
      };
      expect(read.status).toBe('pending');
    },
  );

  it('refuses a callback without the iss the provider advertises (RFC 9207), before any code exchange', async () => {
    const browser = new Browser();
    const created = await create();
    const opened = await browser.open(created.connect_url);
    const callback = new URL(await consent(browser, opened.headers.get('location')!));
    expect(callback.searchParams.get('iss')).toBe(`${sandboxUrl}/practice`);
    callback.searchParams.delete('iss');
    const exchangesBefore = (
      (await (await fetch(`${sandboxUrl}/__sandbox/issued`)).json()) as { tokenRequests: unknown[] }
    ).tokenRequests.length;
    const done = await browser.get(callback.toString());
    expect(new URL(done.headers.get('location')!).searchParams.get('error')).toBe('issuer_mismatch');
    const exchangesAfter = (
      (await (await fetch(`${sandboxUrl}/__sandbox/issued`)).json()) as { tokenRequests: unknown[] }
    ).tokenRequests.length;
    expect(exchangesAfter).toBe(exchangesBefore);
  });

  it('returns error=oauth_flow_inactive when another browser brings the callback', async () => {
    const browser = new Browser();
    const created = await create();
    const opened = await browser.open(created.connect_url);
    const callback = await consent(browser, opened.headers.get('location')!);
    const done = await new Browser().get(callback);
    expect(new URL(done.headers.get('location')!).searchParams.get('error')).toBe('oauth_flow_inactive');
    // The flow is spent: the right browser cannot finish it afterwards either.
    const retry = await browser.get(callback);
    expect(new URL(retry.headers.get('location')!).searchParams.get('error')).toBe('oauth_flow_inactive');
  });

  it('returns error=oauth_flow_inactive when the pending connection was disconnected meanwhile', async () => {
    const browser = new Browser();
    const created = await create();
    const opened = await browser.open(created.connect_url);
    const callback = await consent(browser, opened.headers.get('location')!);
    expect(
      (await call(`/connectors/v1/connections/${created.connection_id}`, { method: 'DELETE' })).status,
    ).toBe(204);
    const done = await browser.get(callback);
    expect(new URL(done.headers.get('location')!).searchParams.get('error')).toBe('oauth_flow_inactive');
  });

  it('answers 410 for an expired link', async () => {
    const created = await create();
    await server.advanceClock(10 * 60 * 1000 + 1000);
    const opened = await new Browser().open(created.connect_url);
    expect(opened.status).toBe(410);
    expect(JSON.parse(opened.body)).toEqual({ error: { code: 'GONE', message: expect.any(String) } });
  });

  it('answers 404 for a link already used, and for an unknown one', async () => {
    const created = await create();
    expect((await new Browser().open(created.connect_url)).status).toBe(302);
    expect((await new Browser().open(created.connect_url)).status).toBe(404);
    expect(
      (await new Browser().get(`${server.baseUrl}/connectors/v1/connect/${'A'.repeat(43)}`)).status,
    ).toBe(404);
    expect((await new Browser().get(`${server.baseUrl}/connectors/v1/connect/short`)).status).toBe(404);
  });

  it('redirects exactly one of two concurrent opens of one link', async () => {
    const created = await create();
    const results = await Promise.all([
      new Browser().open(created.connect_url),
      new Browser().open(created.connect_url),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([302, 404]);
  });

  it('answers 400 to a tampered state and leaves the connection pending', async () => {
    const browser = new Browser();
    const created = await create();
    const opened = await browser.open(created.connect_url);
    const callback = new URL(await consent(browser, opened.headers.get('location')!));
    const [body, signature] = callback.searchParams.get('state')!.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...payload, t: 'admin' })).toString('base64url');
    for (const state of [`${forged}.${signature}`, `${body}.${'A'.repeat(43)}`, 'garbage']) {
      callback.searchParams.set('state', state);
      const done = await browser.get(callback.toString());
      expect(done.status).toBe(400);
      expect(JSON.parse(done.body)).toEqual({
        error: { code: 'INVALID_REQUEST', message: expect.stringContaining('state') },
      });
    }
    const read = JSON.parse((await call(`/connectors/v1/connections/${created.connection_id}`)).body) as {
      status: string;
    };
    expect(read.status).toBe('pending');
  });

  it('asks for the signed tier whatever the query string of the link says', async () => {
    const created = await create();
    const opened = await new Browser().open(`${created.connect_url}?scope_tier=admin&scope=everything.write`);
    expect(opened.status).toBe(302);
    expect(new URL(opened.headers.get('location')!).searchParams.get('scope')).toBe(
      'matters.read documents.read contacts.read documents.write',
    );
  });
});

describe('reconnecting', () => {
  it('returns the existing connection id for the same provider account and retires the new pending one', async () => {
    const first = await connect({ account: 'acct-reconnect' });
    const id = first.location.searchParams.get('connection_id')!;
    const second = await connect({ account: 'acct-reconnect' });
    expect(second.location.searchParams.get('connection_id')).toBe(id);
    expect(second.created.connection_id).not.toBe(id);
    const existing = JSON.parse((await call(`/connectors/v1/connections/${id}`)).body) as { status: string };
    expect(existing.status).toBe('healthy');
    const retired = JSON.parse(
      (await call(`/connectors/v1/connections/${second.created.connection_id}`)).body,
    ) as {
      status: string;
    };
    expect(retired.status).toBe('revoked');
    // Another account is another connection.
    const other = await connect({ account: 'acct-reconnect-2' });
    expect(other.location.searchParams.get('connection_id')).toBe(other.created.connection_id);
  });
});

describe('reconnecting and the provider grants', () => {
  const issued = async () =>
    (await (await fetch(`${sandboxUrl}/__sandbox/issued`)).json()) as {
      refreshTokens: string[];
      revoked: string[];
    };

  it('revokes the superseded grant at the provider, and DELETE then leaves no live grant', async () => {
    const before = new Set((await issued()).refreshTokens);
    const first = await connect({ account: 'acct-regrant' });
    const id = first.location.searchParams.get('connection_id')!;
    const afterFirst = await issued();
    const firstGrant = afterFirst.refreshTokens.filter((t) => !before.has(t));
    expect(firstGrant).toHaveLength(1);

    const second = await connect({ account: 'acct-regrant' });
    expect(second.location.searchParams.get('connection_id')).toBe(id);
    const afterSecond = await issued();
    const secondGrant = afterSecond.refreshTokens.filter((t) => !before.has(t) && !firstGrant.includes(t));
    expect(secondGrant).toHaveLength(1);
    expect(afterSecond.revoked).toContain(firstGrant[0]);
    expect(afterSecond.revoked).not.toContain(secondGrant[0]);

    expect((await call(`/connectors/v1/connections/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await issued()).revoked).toContain(secondGrant[0]);
  });
});

describe('reading across organizations', () => {
  it("answers 404 for another organization's connection and lists only the caller's", async () => {
    const { created } = await connect({ account: 'acct-tenant-a' });
    const { apiKey } = server.otherOrganization();
    const read = await call(`/connectors/v1/connections/${created.connection_id}`, {}, apiKey);
    expect(read.status).toBe(404);
    expect(JSON.parse(read.body)).toEqual({ error: { code: 'NOT_FOUND', message: 'Connection not found' } });
    expect(
      (await call(`/connectors/v1/connections/${created.connection_id}`, { method: 'DELETE' }, apiKey))
        .status,
    ).toBe(404);
    const list = JSON.parse((await call('/connectors/v1/connections', {}, apiKey)).body) as {
      data: unknown[];
    };
    expect(list.data).toEqual([]);
  });
});

describe('listing connections', () => {
  it('pages with limit and offset and filters by provider and status', async () => {
    const all = JSON.parse((await call('/connectors/v1/connections?limit=200')).body) as {
      data: { id: string; provider: string; status: string }[];
      has_more: boolean;
    };
    expect(all.data.length).toBeGreaterThan(5);
    expect(all.has_more).toBe(false);
    const page = JSON.parse((await call('/connectors/v1/connections?limit=2&offset=1')).body) as {
      data: { id: string }[];
      limit: number;
      offset: number;
      has_more: boolean;
    };
    expect(page).toMatchObject({ limit: 2, offset: 1, has_more: true });
    expect(page.data.map((c) => c.id)).toEqual(all.data.slice(1, 3).map((c) => c.id));
    const drive = JSON.parse((await call('/connectors/v1/connections?provider=drive')).body) as typeof all;
    expect(drive.data.length).toBeGreaterThan(0);
    expect(drive.data.every((c) => c.provider === 'drive')).toBe(true);
    const healthy = JSON.parse(
      (await call('/connectors/v1/connections?status=healthy&provider=practice')).body,
    ) as typeof all;
    expect(healthy.data.length).toBeGreaterThan(0);
    expect(healthy.data.every((c) => c.status === 'healthy' && c.provider === 'practice')).toBe(true);
    for (const bad of ['status=broken', 'provider=netdrive', 'limit=0', 'offset=-1']) {
      const response = await call(`/connectors/v1/connections?${bad}`);
      expect(response.status).toBe(400);
      expect(response.body).toContain(bad.split('=')[0]);
    }
  });
});

describe('turning a provider off for the organization', () => {
  it('requires confirm_organization_wide: true', async () => {
    for (const body of [
      { provider: 'drive', enabled: false },
      { provider: 'drive', enabled: false, confirm_organization_wide: false },
    ]) {
      const response = await call('/connectors/v1/connections', {
        method: 'PATCH',
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(400);
      expect(response.body).toContain('confirm_organization_wide');
    }
  });

  it('ends new flows in connector_scope_not_enabled, shows enabled false, keeps connections, and turns on again', async () => {
    const { created: existing } = await connect({ provider: 'drive', account: 'drive-toggle' });
    const browser = new Browser();
    const inFlight = await create({ provider: 'drive' });
    const inFlightOpened = await browser.open(inFlight.connect_url);
    const inFlightCallback = await consent(browser, inFlightOpened.headers.get('location')!, {
      account: 'drive-late',
    });

    const off = await call('/connectors/v1/connections', {
      method: 'PATCH',
      body: JSON.stringify({ provider: 'drive', enabled: false, confirm_organization_wide: true }),
    });
    expect(off.status).toBe(200);
    expect(JSON.parse(off.body)).toEqual({
      provider: 'drive',
      enabled: false,
      updated_at: expect.any(String),
    });

    const read = JSON.parse(
      (await call(`/connectors/v1/connections/${existing.connection_id}`)).body,
    ) as Record<string, unknown>;
    expect(read).toMatchObject({
      status: 'healthy',
      enabled: false,
      account: { external_id: 'drive-toggle' },
    });
    const providers = JSON.parse((await call('/connectors/v1/providers')).body) as {
      data: { id: string; enabled: boolean }[];
    };
    expect(providers.data.find((p) => p.id === 'drive')!.enabled).toBe(false);
    expect(providers.data.find((p) => p.id === 'practice')!.enabled).toBe(true);

    const fresh = await create({ provider: 'drive' });
    const opened = await new Browser().open(fresh.connect_url);
    expect(opened.status).toBe(302);
    expect(new URL(opened.headers.get('location')!).searchParams.get('error')).toBe(
      'connector_scope_not_enabled',
    );
    const late = await browser.get(inFlightCallback);
    expect(new URL(late.headers.get('location')!).searchParams.get('error')).toBe(
      'connector_scope_not_enabled',
    );

    const on = await call('/connectors/v1/connections', {
      method: 'PATCH',
      body: JSON.stringify({ provider: 'drive', enabled: true, confirm_organization_wide: true }),
    });
    expect(JSON.parse(on.body)).toMatchObject({ provider: 'drive', enabled: true });
    const again = JSON.parse(
      (await call(`/connectors/v1/connections/${existing.connection_id}`)).body,
    ) as Record<string, unknown>;
    expect(again).toMatchObject({ status: 'healthy', enabled: true });
    const { location } = await connect({ provider: 'drive', account: 'drive-after' });
    expect(location.searchParams.get('connection_id')).toMatch(/^conn_/);
  });
});

describe('disconnecting', () => {
  it('revokes at the provider, marks revoked, answers 204 twice', async () => {
    const { created } = await connect({ account: 'acct-delete' });
    const before = (await (await fetch(`${sandboxUrl}/__sandbox/issued`)).json()) as { revoked: string[] };
    const first = await call(`/connectors/v1/connections/${created.connection_id}`, { method: 'DELETE' });
    expect(first.status).toBe(204);
    expect(first.body).toBe('');
    const after = (await (await fetch(`${sandboxUrl}/__sandbox/issued`)).json()) as { revoked: string[] };
    expect(after.revoked.length).toBeGreaterThan(before.revoked.length);
    const second = await call(`/connectors/v1/connections/${created.connection_id}`, { method: 'DELETE' });
    expect(second.status).toBe(204);
    const read = JSON.parse((await call(`/connectors/v1/connections/${created.connection_id}`)).body) as {
      status: string;
    };
    expect(read.status).toBe('revoked');
    // The account is free again: connecting it now makes a new connection.
    const again = await connect({ account: 'acct-delete' });
    expect(again.location.searchParams.get('connection_id')).toBe(again.created.connection_id);
  });

  it('answers 202 with a job to purge=true (test/e2e/purge.test.ts follows it), and 404 for an unknown connection', async () => {
    const { created } = await connect({ account: 'acct-purge' });
    const purge = await call(`/connectors/v1/connections/${created.connection_id}?purge=true`, {
      method: 'DELETE',
    });
    expect(purge.status).toBe(202);
    expect(JSON.parse(purge.body)).toEqual({ id: expect.stringMatching(/^job_/), status: 'processing' });
    const unknown = await call('/connectors/v1/connections/conn_aaaaaaaaaaaaaaaaaaaa', { method: 'DELETE' });
    expect(unknown.status).toBe(404);
  });
});

describe('secrecy', () => {
  it('never shows a code, access token or refresh token in a service response or log', async () => {
    const issued = (await (await fetch(`${sandboxUrl}/__sandbox/issued`)).json()) as {
      codes: string[];
      accessTokens: string[];
      refreshTokens: string[];
    };
    expect(issued.codes.length).toBeGreaterThan(10);
    expect(issued.accessTokens.length).toBeGreaterThan(5);
    expect(issued.refreshTokens.length).toBeGreaterThan(5);
    const responses = serviceResponses.join('\n');
    const logs = server.logs();
    for (const secret of [...issued.codes, ...issued.accessTokens, ...issued.refreshTokens]) {
      expect(responses.includes(secret)).toBe(false);
      expect(logs.includes(secret)).toBe(false);
    }
    for (const prefix of ['sbx_code_', 'sbx_at_', 'sbx_rt_']) {
      expect(responses).not.toContain(prefix);
      expect(logs).not.toContain(prefix);
    }
    expect(logs).toContain('oauth flow ended');
  });
});

// On the emulated AWS runtime, as in a deployment, the state key and the client secrets are Secrets
// Manager secrets read at run time by the functions (recorded SDK calls), not environment values.
(RUNTIME === 'aws' ? describe : describe.skip)('secrets on the emulated AWS runtime', () => {
  it('are read from Secrets Manager by the functions of the connect flow', () => {
    const calls = readFileSync(join(server.dataDir, 'aws-calls.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { function: string; action: string; resource: string });
    const reads = calls.filter((c) => c.action === 'secretsmanager:GetSecretValue').map((c) => c.resource);
    expect(reads).toContain('secret:CONNECT_STATE_SIGNING_KEY');
    expect(reads.some((r) => /^secret:PROVIDER_[A-Z0-9_-]+_CLIENT_SECRET$/.test(r))).toBe(true);
  });
});
