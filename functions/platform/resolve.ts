// Receivers' host names, resolved by asking DNS (c-ares, on the event loop) rather than through
// getaddrinfo. getaddrinfo runs on libuv's thread pool (four threads): a burst of lookups a resolver is
// slow to answer would hold every thread, and with them every other use of the pool in the process (file
// and crypto work, other lookups; in the single-process local runtime, the provider calls of a sync run
// waited minutes behind endpoints at made-up names). Here each lookup has its own time limit.
import type { LookupAddress } from 'node:dns';
import { Resolver } from 'node:dns/promises';

/** Per query to one server; c-ares doubles it for each retry. */
export const RESOLVE_TIMEOUT_MS = 2_000;
const RESOLVE_TRIES = 2;

/** RFC 6761 6.3: `localhost` and names under it are the loopback addresses, never asked of DNS. */
const LOOPBACK: readonly LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/** Codes that say the name has no address (as opposed to DNS failing to answer). */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);

export type HostResolver = (hostname: string) => Promise<LookupAddress[]>;

/** A resolver over the system's DNS servers (`servers` for tests: "127.0.0.1:5353"). */
export function hostResolver(options: { servers?: string[]; timeoutMs?: number } = {}): HostResolver {
  const dns = new Resolver({ timeout: options.timeoutMs ?? RESOLVE_TIMEOUT_MS, tries: RESOLVE_TRIES });
  if (options.servers) dns.setServers(options.servers);
  return async (hostname) => {
    const name = hostname.toLowerCase().replace(/\.$/, '');
    if (name === 'localhost' || name.endsWith('.localhost')) return [...LOOPBACK];
    const [v4, v6] = await Promise.allSettled([dns.resolve4(name), dns.resolve6(name)]);
    const addresses: LookupAddress[] = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (addresses.length) return addresses;
    const codes = [v4, v6].map((r) =>
      r.status === 'rejected' ? String((r.reason as NodeJS.ErrnoException).code) : 'ENODATA',
    );
    const absent = codes.every((code) => ABSENT.has(code));
    // The codes getaddrinfo would give, which the attempt's classification knows (both mean 'dns').
    throw Object.assign(new Error(`${absent ? 'No address' : 'DNS did not answer'} for ${hostname}`), {
      code: absent ? 'ENOTFOUND' : 'EAI_AGAIN',
    });
  };
}

let shared: HostResolver | undefined;

/** The process-wide resolver over the system's DNS servers. */
export const systemResolve: HostResolver = (hostname) => (shared ??= hostResolver())(hostname);
