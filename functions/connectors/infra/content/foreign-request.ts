// A request to a URL a provider handed back (a redirect, an upload session, a pre-signed URL): its host
// resolved and vetted by the address guard, the socket connected to exactly the vetted addresses (so a
// name cannot rebind between the check and the connection), no redirect followed, no pooling. The
// caller (./http.ts) strips credentials first and reads the answer as any other.
import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { Readable as NodeReadable } from 'node:stream';
import type { AddressPolicy } from '../../../platform/pinned-connect';
import { BlockedAddressError, pinnedLookup, vetHost } from '../../../platform/pinned-connect';
import type { HostResolver } from '../../../platform/resolve';

export { BlockedAddressError };

export interface ForeignRequest {
  method: string;
  headers: Record<string, string>;
  body?: Readable | Buffer;
  guard: AddressPolicy & { resolve?: HostResolver };
  /** The answer's headers must arrive within this. */
  timeoutMs: number;
}

/** Statuses whose answer has no body (a Response refuses one). */
const NULL_BODY = new Set([204, 205, 304]);

/** Throws BlockedAddressError for a refused address; any other error means no answer. */
export async function foreignRequest(url: URL, request: ForeignRequest): Promise<Response> {
  const vetted = await vetHost(url.hostname, request.guard);
  return new Promise<Response>((resolve, reject) => {
    const outgoing = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      {
        protocol: url.protocol,
        hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
        port: url.port ? Number(url.port) : undefined,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: request.headers,
        agent: false,
        lookup: pinnedLookup(vetted, request.guard),
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
