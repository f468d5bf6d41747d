// SSRF guard: classifies an IP address so deliveries (and, for literal addresses, endpoint creation)
// can refuse anything that is not a public unicast address. Ranges come from a maintained library
// (ipaddr.js `range()`) and, as a second net, from IANA's IPv4 and IPv6 Special-Purpose Address
// Registries; the first one to call an address special wins.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

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

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];
const cidr = (text: string): Cidr => ipaddr.parseCIDR(text);
/**
 * The tables are parsed on the first classification, not at load. (Not platform/lazy.ts: this module
 * is loaded on demand by the provider transport, and sharing that module with a function's init would
 * put it in a chunk of its own, which the init budget counts.)
 */
function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

/** Cloud instance-metadata addresses: named first, so a refusal says what it protected. */
const METADATA = once(() =>
  [
    '169.254.169.254/32', // AWS, GCP, Azure
    '169.254.170.2/32', // ECS task metadata
    '100.100.100.200/32', // Alibaba Cloud
    '192.0.0.192/32', // Oracle Cloud
    '168.63.129.16/32', // Azure WireServer (host agent, DNS, health probes)
    'fd00:ec2::254/128', // AWS over IPv6
  ].map(cidr),
);

/** ipaddr.js range names, onto our classes. Anything not listed and not `unicast` is `reserved`. */
const LIBRARY_CLASSES: Record<string, AddressClass> = {
  unspecified: 'unspecified',
  loopback: 'loopback',
  private: 'private',
  uniqueLocal: 'private',
  deprecatedSiteLocal: 'private',
  linkLocal: 'link-local',
  carrierGradeNat: 'cgnat',
  multicast: 'multicast',
  broadcast: 'reserved',
  ipv4Mapped: 'ipv4-mapped',
  rfc6145: 'ipv4-mapped', // ::ffff:0:0:0/96, SIIT
  rfc6052: 'ipv4-mapped', // 64:ff9b::/96 and 64:ff9b:1::/48, NAT64
  '6to4': 'ipv4-mapped',
  teredo: 'ipv4-mapped',
};

/**
 * IANA IPv4 and IPv6 Special-Purpose Address Registries (every entry, as of 2025), with the class we
 * give each. Every entry is refused, also the few marked globally reachable (PCP and TURN anycast,
 * AS112, AMT, ORCHIDv2): no webhook receiver lives at an anycast protocol address or an identifier
 * block, and refusing them costs nothing.
 */
const IANA_SPECIAL = once((): [AddressClass, Cidr][] =>
  (
    [
      ['unspecified', '0.0.0.0/8'],
      ['private', '10.0.0.0/8'],
      ['cgnat', '100.64.0.0/10'],
      ['loopback', '127.0.0.0/8'],
      ['link-local', '169.254.0.0/16'],
      ['private', '172.16.0.0/12'],
      ['reserved', '192.0.0.0/24'], // IETF protocol assignments (incl. DS-Lite, PCP, TURN anycast)
      ['reserved', '192.0.2.0/24'], // TEST-NET-1
      ['reserved', '192.31.196.0/24'], // AS112-v4
      ['reserved', '192.52.193.0/24'], // AMT
      ['reserved', '192.88.99.0/24'], // deprecated 6to4 relay anycast
      ['private', '192.168.0.0/16'],
      ['reserved', '192.175.48.0/24'], // direct delegation AS112
      ['reserved', '198.18.0.0/15'], // benchmarking
      ['reserved', '198.51.100.0/24'], // TEST-NET-2
      ['reserved', '203.0.113.0/24'], // TEST-NET-3
      ['multicast', '224.0.0.0/4'],
      ['reserved', '240.0.0.0/4'], // reserved, incl. limited broadcast
      ['loopback', '::1/128'],
      ['unspecified', '::/128'],
      ['ipv4-mapped', '::/96'], // IPv4-compatible (deprecated)
      ['ipv4-mapped', '::ffff:0:0/96'],
      ['ipv4-mapped', '::ffff:0:0:0/96'], // SIIT
      ['ipv4-mapped', '64:ff9b::/96'], // NAT64 well-known prefix
      ['ipv4-mapped', '64:ff9b:1::/48'], // local-use NAT64
      ['reserved', '100::/64'], // discard-only
      ['reserved', '100:0:0:1::/64'], // dummy prefix
      ['reserved', '2001::/23'], // IETF protocol assignments
      ['ipv4-mapped', '2001::/32'], // Teredo
      ['reserved', '2001:1::1/128'], // PCP anycast
      ['reserved', '2001:1::2/128'], // TURN anycast
      ['reserved', '2001:1::3/128'], // DNS-SD SRP anycast
      ['reserved', '2001:2::/48'], // benchmarking
      ['reserved', '2001:3::/32'], // AMT
      ['reserved', '2001:4:112::/48'], // AS112-v6
      ['reserved', '2001:10::/28'], // ORCHID (deprecated)
      ['reserved', '2001:20::/28'], // ORCHIDv2
      ['reserved', '2001:30::/28'], // drone remote ID
      ['reserved', '2001:db8::/32'], // documentation
      ['ipv4-mapped', '2002::/16'], // 6to4
      ['reserved', '2620:4f:8000::/48'], // direct delegation AS112
      ['reserved', '3fff::/20'], // documentation
      ['reserved', '5f00::/16'], // SRv6 SIDs
      ['private', 'fc00::/7'], // unique local
      ['private', 'fec0::/10'], // site-local (deprecated)
      ['link-local', 'fe80::/10'],
      ['multicast', 'ff00::/8'],
    ] as const
  ).map(([kind, text]) => [kind, cidr(text)]),
);

/** IANA's IPv6 global unicast space: everything outside 2000::/3 is unassigned or special. */
const GLOBAL_UNICAST_V6 = once(() => cidr('2000::/3'));

/** Strips the brackets of an IPv6 URL host and a zone id. */
export function bareAddress(host: string): string {
  return host.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
}

export const isIpLiteral = (host: string): boolean => isIP(bareAddress(host)) !== 0;

// Every attempt classifies its addresses: remember the answers (pure, and a worker sees few distinct
// addresses). Bounded: oldest forgotten first.
const classified = new Map<string, AddressClass>();
const CLASSIFIED_MAX = 1_000;

const inRange = (address: ipaddr.IPv4 | ipaddr.IPv6, [network, prefix]: Cidr): boolean =>
  address.kind() === network.kind() && address.match(network, prefix);

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
  if (isIP(bare) === 0) throw new Error('Not an IP address');
  // Same-family checks only: ::ffff:127.0.0.1 is an IPv4-mapped IPv6 address, refused as such.
  const parsed = ipaddr.parse(bare);
  if (METADATA().some((range) => inRange(parsed, range))) return 'metadata';
  const range = parsed.range();
  if (range !== 'unicast') return LIBRARY_CLASSES[range] ?? 'reserved';
  const special = IANA_SPECIAL().find(([, block]) => inRange(parsed, block));
  if (special) return special[0];
  if (parsed.kind() === 'ipv6' && !inRange(parsed, GLOBAL_UNICAST_V6())) return 'reserved';
  return 'public';
}

/** Whether a delivery may connect to this address. Loopback is allowed outside production only. */
export function addressAllowed(address: string, options: { allowLoopback: boolean }): boolean {
  const kind = classifyAddress(address);
  return kind === 'public' || (kind === 'loopback' && options.allowLoopback);
}

/** What an attempt's history and the test route say about a refused address: never the address itself. */
export const REFUSED_ADDRESS_MESSAGE =
  'Refused to connect: the host is, or resolves to, an address that is not public';

/**
 * An attempt's error message as the API shows it. A refused address is reported without what the
 * hostname resolved to: that would turn the webhooks API into a DNS oracle for the internal network.
 */
export function shownErrorMessage(errorKind: string | undefined, message: string | undefined): string | null {
  if (errorKind === 'blocked_address') return REFUSED_ADDRESS_MESSAGE;
  return message ?? null;
}
