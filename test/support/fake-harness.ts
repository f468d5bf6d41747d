// One provider fake (sandbox/providers/<id>/) served through the sandbox's own mount (the order of its
// checks: an injected failure, the access token, the route, the scope) over trees a test builds by hand,
// with tokens a test names: what a client test needs without the consent flow.
import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxContentStore } from '../../sandbox/content/seed';
import type { AccountTree } from '../../sandbox/content/tree';
import { AccountTree as Tree } from '../../sandbox/content/tree';
import type { BearerGrant, ContentState, InjectedError } from '../../sandbox/content/types';
import type { ProviderFake } from '../../sandbox/providers/fake';
import { mountProviderFakes } from '../../sandbox/providers/mount';
import type { ManualClock } from '../../functions/platform/clock';

export interface FakeHarness {
  base: string;
  tree(account: string): AccountTree;
  /** `clientId`: the app the grant was issued to (Graph records it on what the app writes). */
  grant(token: string, account: string, scopes: string[], clientId?: string): void;
  /** The next `count` requests answer this failure (as POST /__sandbox/next-api-error does). */
  fail(failure: Omit<InjectedError, 'remaining'> & { count?: number }): void;
  close(): Promise<void>;
}

export async function startFakeHarness(
  fake: ProviderFake,
  clock: ManualClock,
  /** Sees every request first (a test that checks where requests went). */
  observe?: (request: IncomingMessage) => void,
): Promise<FakeHarness> {
  const trees = new Map<string, AccountTree>();
  const tree = (account: string) => {
    let found = trees.get(account);
    if (!found) trees.set(account, (found = new Tree(fake.shape, account, () => clock.now())));
    return found;
  };
  const grants = new Map<string, BearerGrant>();
  const state: ContentState = {
    clock,
    store: { tree: (_provider: string, account: string) => tree(account) } as unknown as SandboxContentStore,
    grants: {
      bearer: (_provider, token) => grants.get(token),
      revokeGrants: (_provider, account) => {
        let n = 0;
        for (const [token, grant] of grants)
          if (!account || grant.accountId === account) n += Number(grants.delete(token));
        return n;
      },
    },
    injected: new Map(),
    downloadStallMs: new Map(),
    providers: [fake.id],
    idsOf: () => fake.ids,
    maxUploadBytes: 100 * 1024 * 1024,
  };
  let base = '';
  const mounted = mountProviderFakes([fake], state, () => base);
  const server: Server = createServer((request, response) => {
    observe?.(request);
    if (!mounted.serve(request, response)) response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    tree,
    grant: (token, account, scopes, clientId) =>
      grants.set(token, {
        accountId: account,
        email: `${account}@example.com`,
        name: `User ${account}`,
        scopes,
        ...(clientId ? { clientId } : {}),
      }),
    fail: ({ count, ...failure }) => state.injected.set(fake.id, { ...failure, remaining: count ?? 1 }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
