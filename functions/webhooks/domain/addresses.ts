// SSRF guard: classifies an IP address so deliveries (and, for literal addresses, endpoint creation)
// can refuse anything that is not a public unicast address.
import { BlockList, isIP } from 'node:net';

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'metadata'
  | 'ipv4-mapped'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

type Rule = [AddressClass, 'ipv4' | 'ipv6', string, number];

// Order matters: the first match wins (metadata before link-local and private).
const RULES: Rule[] = [
  ['metadata', 'ipv4', '169.254.169.254', 32], // AWS, GCP, Azure instance metadata
  ['metadata', 'ipv4', '169.254.170.2', 32], // ECS task metadata
  ['metadata', 'ipv4', '100.100.100.200', 32], // Alibaba Cloud metadata
  ['metadata', 'ipv4', '192.0.0.192', 32], // Oracle Cloud metadata
  ['metadata', 'ipv6', 'fd00:ec2::254', 128], // AWS metadata over IPv6
  ['unspecified', 'ipv4', '0.0.0.0', 8],
  ['loopback', 'ipv4', '127.0.0.0', 8],
  ['private', 'ipv4', '10.0.0.0', 8],
  ['private', 'ipv4', '172.16.0.0', 12],
  ['private', 'ipv4', '192.168.0.0', 16],
  ['cgnat', 'ipv4', '100.64.0.0', 10],
  ['link-local', 'ipv4', '169.254.0.0', 16],
  ['reserved', 'ipv4', '192.0.0.0', 24], // IETF protocol assignments
  ['reserved', 'ipv4', '192.0.2.0', 24], // documentation
  ['reserved', 'ipv4', '198.18.0.0', 15], // benchmarking
  ['reserved', 'ipv4', '198.51.100.0', 24], // documentation
  ['reserved', 'ipv4', '203.0.113.0', 24], // documentation
  ['multicast', 'ipv4', '224.0.0.0', 4],
  ['reserved', 'ipv4', '240.0.0.0', 4], // including 255.255.255.255
  ['unspecified', 'ipv6', '::', 128],
  ['loopback', 'ipv6', '::1', 128],
  ['ipv4-mapped', 'ipv6', '::ffff:0:0', 96],
  ['ipv4-mapped', 'ipv6', '::', 96], // IPv4-compatible (deprecated)
  ['ipv4-mapped', 'ipv6', '64:ff9b::', 96], // NAT64
  ['ipv4-mapped', 'ipv6', '2002::', 16], // 6to4
  ['private', 'ipv6', 'fc00::', 7], // unique local
  ['link-local', 'ipv6', 'fe80::', 10],
  ['multicast', 'ipv6', 'ff00::', 8],
  ['reserved', 'ipv6', '2001:db8::', 32], // documentation
  ['reserved', 'ipv6', '100::', 64], // discard
];

const LISTS: [AddressClass, 'ipv4' | 'ipv6', BlockList][] = RULES.map(([kind, family, network, prefix]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return [kind, family, list];
});

/** Strips the brackets of an IPv6 URL host and a zone id. */
export function bareAddress(host: string): string {
  return host.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
}

export const isIpLiteral = (host: string): boolean => isIP(bareAddress(host)) !== 0;

// Every attempt classifies its addresses, and BlockList#check builds objects per rule: remember the
// answers (pure, and a worker sees few distinct addresses). Bounded: oldest forgotten first.
const classified = new Map<string, AddressClass>();
const CLASSIFIED_MAX = 1_000;

export function classifyAddress(address: string): AddressClass {
  let kind = classified.get(address);
  if (kind === undefined) {
    kind = classifyUncached(address);
    classified.set(address, kind);
    if (classified.size > CLASSIFIED_MAX) classified.delete(classified.keys().next().value!);
  }
  return kind;
}

function classifyUncached(address: string): AddressClass {
  const bare = bareAddress(address);
  const version = isIP(bare);
  if (version === 0) throw new Error(`Not an IP address: ${address}`);
  const family = version === 4 ? 'ipv4' : 'ipv6';
  // Same-family rules only: BlockList would otherwise match ::ffff:127.0.0.1 as IPv4 loopback.
  for (const [kind, ruleFamily, list] of LISTS)
    if (ruleFamily === family && list.check(bare, family)) return kind;
  return 'public';
}

/** Whether a delivery may connect to this address. Loopback is allowed outside production only. */
export function addressAllowed(address: string, options: { allowLoopback: boolean }): boolean {
  const kind = classifyAddress(address);
  return kind === 'public' || (kind === 'loopback' && options.allowLoopback);
}
