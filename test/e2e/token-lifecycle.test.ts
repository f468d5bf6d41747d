// The token lifecycle over HTTP against `npm start`'s server and its sandbox provider, on the server's
// movable clock (the sandbox judges token expiry by the same clock): an idle connection refreshed by
// the timer only before its refresh token would lapse unused or for its daily check, an expired token
// refreshed on use, one provider call for ten concurrent users of an expired rotating token,
// invalid_grant to reauth_required with its webhook and back through the connect flow, 429 to
// throttled and back to healthy after Retry-After.
import { createHash } from 'node:crypto';
import type { RunningServer } from '../support/local-server';
import { api, startLocalServer } from '../support/local-server';
import type { Receiver } from '../support/receiver';
import { startReceiver } from '../support/receiver';
import { until } from '../support/until';
import { connectThroughSandbox } from '../support/connect';
import { PROVIDERS } from '../../functions/connectors/domain/providers';
import { STATUS_CHECK_MS, sweepDueAt } from '../../functions/connectors/domain/token-policy';

const MIN = 60_000;
const HOUR = 60 * MIN;
const SWEEP_INTERVAL_MS = 2_000;
/** When the sweep takes an idle practice connection: before its unused refresh token lapses (4 h). */
const IDLE_DUE_MS = sweepDueAt(0, PROVIDERS.practice.refreshTokenIdleSeconds! * 1000);

let server: RunningServer;
let receiver: Receiver;
let call: ReturnType<typeof api>;
let sandboxUrl = '';

interface Issued {
  accessTokens: string[];
  revoked: string[];
  tokenRequests: { provider: string; grantType: string; status: number }[];
}

beforeAll(async () => {
  [server, receiver] = await Promise.all([
    startLocalServer({ LOCAL_SCHEDULE_INTERVAL_MS: String(SWEEP_INTERVAL_MS) }),
    startReceiver(),
  ]);
  call = api(server);
});

afterAll(async () => {
  await Promise.all([server?.stop(), receiver?.close()]);
});

/** Runs the hosted connect flow for a practice account; returns the connection id it came back with. */
async function connect(account: string): Promise<string> {
  const connected = await connectThroughSandbox(call, { account });
  sandboxUrl = connected.sandboxUrl;
  return connected.connectionId;
}

const status = async (id: string) =>
  ((await (await call(`/connectors/v1/connections/${id}`)).json()) as { status: string }).status;

const issued = async (): Promise<Issued> =>
  (await (await fetch(`${sandboxUrl}/__sandbox/issued`)).json()) as Issued;

const refreshCount = async () =>
  (await issued()).tokenRequests.filter((r) => r.provider === 'practice' && r.grantType === 'refresh_token')
    .length;

async function sweepNow(): Promise<Record<string, number>> {
  const response = await fetch(`${server.baseUrl}/__dev/token-sweep`, { method: 'POST' });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, number>;
}

/** An access token on use, as a sync worker gets one: the server answers a fingerprint, never the token. */
async function useToken(id: string) {
  const response = await fetch(`${server.baseUrl}/__dev/connections/${id}/access-token`, { method: 'POST' });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function nextTokenError(error: 'invalid_grant' | 'rate_limited', retryAfter?: number) {
  const response = await fetch(`${sandboxUrl}/__sandbox/next-token-error`, {
    method: 'POST',
    body: JSON.stringify({ provider: 'practice', error, retry_after: retryAfter }),
  });
  expect(response.status).toBe(204);
}

const fingerprint = (token: string) => createHash('sha256').update(token).digest('hex').slice(0, 16);

describe('token lifecycle through the local server', () => {
  let current: string | undefined;
  afterEach(async () => {
    // One connection at a time is due: a test's connection is disconnected when it ends.
    if (current)
      expect((await call(`/connectors/v1/connections/${current}`, { method: 'DELETE' })).status).toBe(204);
    current = undefined;
  });

  it('leaves an idle connection alone as its access token expires, and refreshes it on the server timer before its refresh token would lapse unused', async () => {
    current = await connect('acct-e2e-timer');
    const before = await refreshCount();
    // Past the access token's 50-minute mark (where a clock-driven sweep used to refresh): nothing.
    await server.advanceClock(55 * MIN);
    expect((await sweepNow()).refreshed).toBeUndefined();
    await server.advanceClock(IDLE_DUE_MS - 55 * MIN - MIN);
    expect((await sweepNow()).refreshed).toBeUndefined();
    expect(await refreshCount()).toBe(before);

    // Near the end of the practice provider's idle lifetime (4 hours unused): the timer refreshes it.
    await server.advanceClock(2 * MIN);
    await until(
      'a refresh by the background sweep',
      async () => ((await refreshCount()) > before ? true : undefined),
      4 * SWEEP_INTERVAL_MS + 5_000,
    );
    // The provider has answered; the sweep may still be writing the new tokens under its lease (on
    // DynamoDB that takes a moment). A user then gets the refreshed token without another call.
    const used = await until('the refreshed token in use', async () => {
      const answer = await useToken(current!);
      return answer.body.token_version === 2 ? answer : undefined;
    });
    expect(used.status).toBe(200);
    expect(await refreshCount()).toBe(before + 1); // the sweep's refresh, and no call on use
    expect(await status(current)).toBe('healthy');
  });

  it('refreshes on use the expired access token of an idle connection, once', async () => {
    current = await connect('acct-e2e-on-use');
    const before = await refreshCount();
    await server.advanceClock(2 * HOUR);
    expect((await sweepNow()).refreshed).toBeUndefined();
    const used = await useToken(current);
    expect(used).toMatchObject({ status: 200, body: { token_version: 2 } });
    expect(await refreshCount()).toBe(before + 1);
  });

  it('makes exactly one token call for 10 concurrent users of an expired rotating token', async () => {
    current = await connect('acct-e2e-race');
    const before = await refreshCount();
    await server.advanceClock(2 * HOUR);
    const id = current;
    const results = await Promise.all(Array.from({ length: 10 }, () => useToken(id)));

    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.body.fingerprint)).size).toBe(1);
    expect(results.every((r) => r.body.token_version === 2)).toBe(true);
    const after = await issued();
    const refreshes = after.tokenRequests.filter((r) => r.grantType === 'refresh_token').slice(before);
    expect(refreshes).toEqual([{ provider: 'practice', grantType: 'refresh_token', status: 200 }]);
    // The token all ten got is the newest the provider issued, and nothing was revoked for reuse.
    const newest = after.accessTokens[after.accessTokens.length - 1]!;
    expect(results[0]!.body.fingerprint).toBe(fingerprint(newest));
    expect(after.revoked).not.toContain(newest);
    expect(await status(id)).toBe('healthy');
  });

  it('turns invalid_grant into reauth_required with its webhook, and the connect flow brings the same connection back', async () => {
    const endpoint = await call('/webhooks/v1/endpoints', {
      method: 'POST',
      body: JSON.stringify({ url: receiver.url('/lifecycle'), eventTypeFilters: ['connection.*'] }),
    });
    expect(endpoint.status).toBe(201);
    current = await connect('acct-e2e-lapse');
    const id = current;
    await nextTokenError('invalid_grant');
    // Idle all along: the sweep notices the lapsed grant when it keeps the refresh token alive.
    await server.advanceClock(IDLE_DUE_MS);
    await sweepNow();

    await until('the connection to read reauth_required', async () =>
      (await status(id)) === 'reauth_required' ? true : undefined,
    );
    const delivery = await until('the connection.reauth_required delivery', async () =>
      receiver.received.find((r) => r.path === '/lifecycle' && r.body.includes('connection.reauth_required')),
    );
    expect(JSON.parse(delivery.body)).toMatchObject({
      type: 'connection.reauth_required',
      data: { connectionId: id, provider: 'practice', status: 'reauth_required', previousStatus: 'healthy' },
    });
    expect(await useToken(id)).toEqual({ status: 409, body: { error: 'reauth_required' } });

    // Reauthorization: the same provider account through the real flow returns the same connection.
    expect(await connect('acct-e2e-lapse')).toBe(id);
    expect(await status(id)).toBe('healthy');
    const used = await useToken(id);
    expect(used.status).toBe(200);
    expect(receiver.received.filter((r) => r.body.includes('connection.reauth_required'))).toHaveLength(1);
  });

  it('throttles on a provider 429 and clears on its own after Retry-After, back to healthy', async () => {
    current = await connect('acct-e2e-throttle');
    const id = current;
    await nextTokenError('rate_limited', 120);
    await server.advanceClock(IDLE_DUE_MS);
    await sweepNow();
    await until('the connection to read throttled', async () =>
      (await status(id)) === 'throttled' ? true : undefined,
    );
    const refused = await useToken(id);
    expect(refused).toMatchObject({ status: 429, body: { error: 'throttled' } });
    await server.advanceClock(60_000);
    expect(await status(id)).toBe('throttled');

    const before = await refreshCount();
    await server.advanceClock(61_000);
    await sweepNow();
    expect(await status(id)).toBe('healthy');
    // The sweep that ended the throttle also refreshed the token that fell due meanwhile.
    await until('a refresh after the throttle', async () =>
      (await refreshCount()) > before ? true : undefined,
    );
    const used = await useToken(id);
    expect(used.status).toBe(200);
    expect(used.body.token_version).toBe(2);
  });

  it('checks an idle connection whose refresh token never lapses once a day, so a revoked grant is noticed', async () => {
    const connected = await connectThroughSandbox(call, { account: 'acct-e2e-check', provider: 'drive' });
    current = connected.connectionId;
    sandboxUrl = connected.sandboxUrl;
    const id = current;
    const driveRefreshes = async () =>
      (await issued()).tokenRequests.filter((r) => r.provider === 'drive' && r.grantType === 'refresh_token')
        .length;
    const before = await driveRefreshes();
    await server.advanceClock(STATUS_CHECK_MS - MIN);
    expect((await sweepNow()).refreshed).toBeUndefined();
    expect(await driveRefreshes()).toBe(before);

    await fetch(`${sandboxUrl}/__sandbox/next-token-error`, {
      method: 'POST',
      body: JSON.stringify({ provider: 'drive', error: 'invalid_grant' }),
    });
    await server.advanceClock(2 * MIN);
    await sweepNow();
    await until('the daily check to find the grant gone', async () =>
      (await status(id)) === 'reauth_required' ? true : undefined,
    );
    expect(await driveRefreshes()).toBe(before + 1);
  });

  it('never logs or answers a provider token', () => {
    expect(server.logs()).not.toMatch(/sbx_(at|rt|code)_/);
  });
});
