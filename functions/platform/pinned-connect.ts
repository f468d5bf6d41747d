// Connecting only to vetted addresses: a host is resolved once, every address it resolves to is checked
// by the address guard (one forbidden address refuses the host: DNS rebinding), and the socket then
// connects through a lookup that hands back exactly those addresses, checked once more. Webhook
// deliveries and the provider URLs a provider hands back (redirects, upload sessions) go through here.
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import { addressAllowed, bareAddress, classifyAddress } from './addresses';
import type { HostResolver } from './resolve';
import { systemResolve } from './resolve';

export interface AddressPolicy {
  /** Loopback addresses pass (outside production only). */
  allowLoopback: boolean;
}

export class BlockedAddressError extends Error {
  constructor(readonly address: string) {
    super(`Refused to connect to ${classifyAddress(address)} address ${address}`);
    this.name = 'BlockedAddressError';
  }
}

/** Resolves the host and vets the whole answer: one forbidden address refuses it (DNS rebinding). */
export async function vetHost(
  hostname: string,
  options: AddressPolicy & { resolve?: HostResolver },
): Promise<LookupAddress[]> {
  const literal = bareAddress(hostname);
  const version = isIP(literal);
  const addresses = version
    ? [{ address: literal, family: version }]
    : await (options.resolve ?? systemResolve)(hostname);
  const blocked = addresses.find((a) => !addressAllowed(a.address, options));
  if (blocked) throw new BlockedAddressError(blocked.address);
  if (addresses.length === 0) {
    throw Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' });
  }
  return addresses;
}

/**
 * The `lookup` a socket connects through: no DNS, only the addresses vetted for this request, each
 * checked again (a socket can never reach an address the guard did not pass).
 */
export function pinnedLookup(vetted: readonly LookupAddress[], policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    const blocked = vetted.find((a) => !addressAllowed(a.address, policy));
    if (blocked) return callback(new BlockedAddressError(blocked.address), '', 0);
    const family = options.family === 4 || options.family === 6 ? options.family : undefined;
    const candidates = vetted.filter((a) => !family || a.family === family);
    if (candidates.length === 0) {
      const error = Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' });
      return callback(error, '', 0);
    }
    if (options.all) {
      return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [...candidates]);
    }
    callback(null, candidates[0]!.address, candidates[0]!.family);
  };
}
