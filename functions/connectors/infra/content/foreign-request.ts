// A request to a URL a provider handed back (a redirect, an upload session, a pre-signed URL): its host
// resolved and vetted by the address guard, the socket connected to exactly the vetted addresses (so a
// name cannot rebind between the check and the connection), no redirect followed, no pooling. The
// caller (./http.ts) strips credentials first and reads the answer as any other.
//
// The API's own origin on a customer's server (`keepAlive`) is vetted the same way, but its connections
// are kept and reused: a fresh connection per request cost every call a TCP (and, in production, a TLS)
// handshake to that server, one more round trip per file an import downloads. The pooled sockets still
// connect only through the pinned lookup of the addresses vetted for their agent, and an agent serves
// for VETTED_FOR_MS: then the host is resolved and vetted again and new connections use the new answer.
import type { IncomingMessage } from 'node:http';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { Readable as NodeReadable } from 'node:stream';
import type { AddressPolicy } from '../../../platform/pinned-connect';
import { BlockedAddressError, pinnedLookup, vetHost } from '../../../platform/pinned-connect';
import type { HostResolver } from '../../../platform/resolve';
import { systemResolve } from '../../../platform/resolve';

export { BlockedAddressError };

export interface ForeignRequest {
  method: string;
  headers: Record<string, string>;
  body?: Readable | Buffer;
  guard: AddressPolicy & { resolve?: HostResolver };
  /** The answer's headers must arrive within this. */
  timeoutMs: number;
  /** Keep the connection for further requests to this origin (the API's own, on a customer's server). */
  keepAlive?: boolean;
}

/** How long one resolution of a kept origin's host serves new connections before it is vetted again. */
export const VETTED_FOR_MS = 60_000;
/** A kept connection idle this long is closed (a server's own keep-alive is usually 5-60 s). */
const IDLE_SOCKET_MS = 4_000;

interface KeptOrigin {
  agent: HttpAgent;
  vettedAt: number;
}

/**
 * The agents of kept origins, per resolver and address policy (both part of what was vetted): a guard
 * is made per client, and a run's steps (each a client of its own) share the container's connections.
 */
const kept = new WeakMap<HostResolver, Map<string, Promise<KeptOrigin>>>();

/** The agent for `url`'s origin: reused while its vetting is fresh, else the host is vetted again. */
async function keptAgent(url: URL, guard: ForeignRequest['guard']): Promise<HttpAgent> {
  const resolver = guard.resolve ?? systemResolve;
  let byOrigin = kept.get(resolver);
  if (!byOrigin) kept.set(resolver, (byOrigin = new Map()));
  const origins = byOrigin;
  const key = `${guard.allowLoopback ? 'loopback ' : ''}${url.origin}`;
  const now = performance.now();
  const current = origins.get(key);
  if (current) {
    const origin = await current.catch(() => undefined);
    if (origin && now - origin.vettedAt < VETTED_FOR_MS) return origin.agent;
    if (origins.get(key) !== current) return keptAgent(url, guard); // replaced meanwhile
  }
  const next = vetHost(url.hostname, guard).then((vetted): KeptOrigin => {
    const options = { keepAlive: true, timeout: IDLE_SOCKET_MS, lookup: pinnedLookup(vetted, guard) };
    return {
      agent: url.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options),
      vettedAt: now,
    };
  });
  origins.set(key, next);
  // A refused or failed resolution is not kept: the next request resolves again.
  next.catch(() => {
    if (origins.get(key) === next) origins.delete(key);
  });
  return next.then((origin) => origin.agent);
}

/** Statuses whose answer has no body (a Response refuses one). */
const NULL_BODY = new Set([204, 205, 304]);

/** Throws BlockedAddressError for a refused address; any other error means no answer. */
export async function foreignRequest(url: URL, request: ForeignRequest): Promise<Response> {
  const connection = request.keepAlive
    ? { agent: await keptAgent(url, request.guard) }
    : { agent: false, lookup: pinnedLookup(await vetHost(url.hostname, request.guard), request.guard) };
  return new Promise<Response>((resolve, reject) => {
    const outgoing = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      {
        protocol: url.protocol,
        hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
        port: url.port ? Number(url.port) : undefined,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: request.headers,
        ...connection,
      },
      (incoming: IncomingMessage) => {
        clearTimeout(deadline);
        const headers = new Headers();
        for (const [name, value] of Object.entries(incoming.headers))
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
            headers.append(name, one);
        const status = incoming.statusCode ?? 0;
        if (status < 200 || status > 599) {
          incoming.destroy();
          reject(new Error(`unusable status ${status}`));
          return;
        }
        const body = NULL_BODY.has(status)
          ? null
          : (NodeReadable.toWeb(incoming) as ReadableStream<Uint8Array>);
        if (!body) incoming.resume();
        resolve(new Response(body, { status, headers }));
      },
    );
    const deadline = setTimeout(() => outgoing.destroy(new Error('no answer in time')), request.timeoutMs);
    outgoing.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    if (Buffer.isBuffer(request.body)) outgoing.end(request.body);
    else if (request.body) request.body.on('error', (error) => outgoing.destroy(error)).pipe(outgoing);
    else outgoing.end();
  });
}
