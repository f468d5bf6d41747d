// Pooled keep-alive connections for deliveries that keep the SSRF guard whole. Every attempt resolves
// and vets its host first (send.ts); the request then carries the vetted addresses as its "pin". A pool
// is keyed by origin (scheme, host, port, TLS options: what Agent#getName gives) plus the pin, so a
// socket is only ever reused for the same hostname resolving to the same vetted addresses, and a new
// socket connects through a lookup that hands back exactly those addresses (checked once more). Sockets
// idle for POOL_IDLE_MS are closed; each origin gets at most MAX_SOCKETS_PER_ORIGIN sockets, further
// requests wait for one (within their attempt timeout), so a slow receiver only slows itself.
import type { LookupAddress } from 'node:dns';
import type { ClientRequestArgs } from 'node:http';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

/** Idle keep-alive sockets are closed after this long (below common server keep-alive timeouts of 5 s). */
export const POOL_IDLE_MS = 4_000;
/** Sockets one origin may hold: one SQS batch (10 records) to one receiver all in flight at once. */
export const MAX_SOCKETS_PER_ORIGIN = 10;

/** Request options the pool reads besides Node's own: the vetted addresses, as the pool key's suffix. */
export interface PinnedRequest {
  pin: string;
}

export const pinOf = (vetted: readonly LookupAddress[]): string =>
  vetted
    .map((a) => a.address)
    .sort()
    .join(',');

type PinnedArgs = ClientRequestArgs & Partial<PinnedRequest>;

function pinnedName(name: string, options: PinnedArgs | undefined): string {
  // A request without a pin (not one of ours) gets a name no pinned request shares.
  return `${name}|${options?.pin ?? 'unpinned'}`;
}

class PinnedHttpAgent extends HttpAgent {
  override getName(options?: PinnedArgs): string {
    return pinnedName(super.getName(options), options);
  }
}

class PinnedHttpsAgent extends HttpsAgent {
  override getName(options?: PinnedArgs): string {
    return pinnedName(super.getName(options as never), options);
  }
}

export interface PoolOptions {
  maxSocketsPerOrigin?: number;
  idleMs?: number;
  /** Trusted CAs for https instead of Node's bundle (tests with their own certificate authority). */
  ca?: string | Buffer;
}

/** One http and one https agent whose socket pools are keyed by origin + pin (see above). */
export class DeliveryPool {
  private readonly http: HttpAgent;
  private readonly https: HttpsAgent;

  constructor(options: PoolOptions = {}) {
    const agentOptions = {
      keepAlive: true,
      // Free sockets get this socket timeout, and the agent destroys a free socket when it fires.
      timeout: options.idleMs ?? POOL_IDLE_MS,
      maxSockets: options.maxSocketsPerOrigin ?? MAX_SOCKETS_PER_ORIGIN,
      maxFreeSockets: options.maxSocketsPerOrigin ?? MAX_SOCKETS_PER_ORIGIN,
      scheduling: 'lifo' as const, // keep reusing the warmest sockets; the rest idle out
    };
    this.http = new PinnedHttpAgent(agentOptions);
    this.https = new PinnedHttpsAgent({ ...agentOptions, ...(options.ca ? { ca: options.ca } : {}) });
  }

  agentFor(protocol: string): HttpAgent {
    return protocol === 'https:' ? this.https : this.http;
  }

  /** Open sockets (in use and idle), for tests and the benchmark. */
  openSockets(): number {
    const count = (agent: HttpAgent) =>
      [agent.sockets, agent.freeSockets].reduce(
        (sum, pools) => sum + Object.values(pools).reduce((n, list) => n + (list?.length ?? 0), 0),
        0,
      );
    return count(this.http) + count(this.https);
  }

  destroy(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

let shared: DeliveryPool | undefined;

/** The worker's pool: one per process, so a warm Lambda container keeps its connections. */
export function sharedPool(): DeliveryPool {
  shared ??= new DeliveryPool();
  return shared;
}
