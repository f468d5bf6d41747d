// The hosted connect flow as a person's browser runs it against the local server and its sandbox
// provider: the connect link's page, its button, consent at the sandbox, back to return_url.
import type { ConnectorConfig } from '../../functions/connectors/infra/config';
import type { ProviderId } from '../../functions/connectors/domain/providers';
import { createConnection } from '../../functions/connectors/app/connections';
import { completeConnection, openConnectLink } from '../../functions/connectors/app/connect-flow';
import { logger } from '../../functions/platform/logger';
import type { Deps } from '../../functions/platform/ports';
import type { api } from './local-server';
import { approveAtSandbox } from './sandbox';

/** A browser: one cookie jar per origin, redirects followed by hand. */
export class Browser {
  private readonly jar = new Map<string, string[]>();

  async request(url: string, form?: Record<string, string>) {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        Cookie: (this.jar.get(new URL(url).origin) ?? []).join('; '),
        ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    const cookies = this.jar.get(new URL(url).origin) ?? [];
    for (const line of response.headers.getSetCookie()) cookies.push(line.split(';')[0]!);
    this.jar.set(new URL(url).origin, cookies);
    return {
      status: response.status,
      location: response.headers.get('location'),
      body: await response.text(),
    };
  }
}

/**
 * Runs the connect flow for `account` at the sandbox (approving consent); returns the connection id the
 * browser came back with and the sandbox's origin.
 */
export async function connectThroughSandbox(
  call: ReturnType<typeof api>,
  options: {
    provider?: string;
    account: string;
    scopeTier?: string;
    /** The connection's params as the customer's server gives them (a region, a server). */
    params?: Record<string, string>;
    /** The connect page's answers for the params not given. */
    answers?: Record<string, string>;
  },
): Promise<{ connectionId: string; sandboxUrl: string }> {
  const created = await call('/connectors/v1/connections', {
    method: 'POST',
    body: JSON.stringify({
      provider: options.provider ?? 'practice',
      return_url: 'https://app.example.com/back',
      ...(options.scopeTier ? { scope_tier: options.scopeTier } : {}),
      ...(options.params ? { params: options.params } : {}),
    }),
  });
  if (created.status !== 201) throw new Error(`create connection answered ${created.status}`);
  const { connect_url } = (await created.json()) as { connect_url: string };
  return consentThroughSandbox(connect_url, options.account, options.answers);
}

/**
 * A person's browser on a connect link: opens it, presses its button, approves consent at the sandbox
 * for `account`, and follows the redirects back; returns the connection id the return URL carries.
 */
export async function consentThroughSandbox(
  connectUrl: string,
  account: string,
  /** What the person fills in on the link's page (the params the customer's server did not give). */
  answers: Record<string, string> = {},
): Promise<{ connectionId: string; sandboxUrl: string }> {
  const browser = new Browser();
  // The link's page spends nothing; its button (a POST to the same URL) starts the flow.
  if ((await browser.request(connectUrl)).status !== 200)
    throw new Error('the connect link page did not open');
  const opened = await browser.request(connectUrl, answers);
  if (!opened.location) throw new Error(`the connect link's button answered ${opened.status}`);
  const authorize = new URL(opened.location!);
  const page = await browser.request(authorize.toString());
  const requestId = /name="request_id" value="([^"]+)"/.exec(page.body)![1]!;
  const consent = await browser.request(`${authorize.origin}${authorize.pathname}`, {
    request_id: requestId,
    decision: 'approve',
    simulate: 'none',
    account_id: account,
  });
  const done = await browser.request(consent.location!);
  const back = new URL(done.location!);
  const connectionId = back.searchParams.get('connection_id');
  if (!connectionId) throw new Error(`the connect flow came back with ${back.search}`);
  return { connectionId, sandboxUrl: authorize.origin };
}

/**
 * The connect flow in process, through the use cases the routes call (for tiers without an HTTP
 * server: integration, benchmarks): create, open the link, consent at the sandbox, the callback.
 */
export async function connectInProcess(
  deps: Deps,
  config: ConnectorConfig,
  options: { organizationId: string; account: string; provider?: ProviderId; baseUrl: string },
): Promise<string> {
  const provider = options.provider ?? 'practice';
  const created = await createConnection(
    deps,
    options.organizationId,
    { provider, return_url: 'https://app.example.com/back' },
    options.baseUrl,
  );
  const token = created.connect_url.split('/').pop()!;
  const opened = await openConnectLink(deps, config, { token, baseUrl: options.baseUrl });
  const query = await approveAtSandbox(opened.location, options.account);
  const done = await completeConnection(
    deps,
    config,
    { provider, query, cookieHeader: opened.cookie!.split(';')[0]!, baseUrl: options.baseUrl },
    logger,
  );
  if (!done.location.includes('connection_id='))
    throw new Error(`the connect flow ended with ${done.location}`);
  return done.connectionId;
}
