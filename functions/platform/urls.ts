// One reading of a URL a client gives us (return_url, webhook endpoint url): what we store, redirect to
// and deliver to is the WHATWG-normalised form, so what was validated is exactly what is used.
import { isIP } from 'node:net';
import * as z from 'zod/mini';

/** C0 controls, space, DEL: never part of a URL; WHATWG parsing would silently strip or encode them. */
const forbidden = (char: string): boolean => char.charCodeAt(0) <= 0x20 || char.charCodeAt(0) === 0x7f;

/**
 * Why a URL as typed is refused before parsing, or undefined. Surrounding spaces, tabs, CR, LF and
 * NUL are refused rather than trimmed: a client that sends them has a bug we should not hide.
 */
export function rawUrlProblem(raw: string): string | undefined {
  if ([...raw].some(forbidden)) return 'must not contain spaces or control characters';
  return emptyRawHost(raw) ? 'must name a host' : undefined;
}

/**
 * Whether the host is empty as typed: WHATWG skips any run of slashes (or backslashes) after a special
 * scheme, so `https:///cb` parses as `https://cb/`, a host the client never wrote. Judged on the raw
 * string, before that normalisation; `https:host` (no slashes) names its host and stays accepted.
 */
function emptyRawHost(raw: string): boolean {
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(raw);
  if (!scheme) return false;
  const rest = raw.slice(scheme[0].length);
  const slashes = /^[/\\]*/.exec(rest)![0].length;
  if (slashes > 2) return true;
  if (slashes < 2) return false;
  const authority = /^[^/\\?#]*/.exec(rest.slice(2))![0];
  const host = authority.slice(authority.lastIndexOf('@') + 1).replace(/:[0-9]*$/, '');
  return host === '';
}

const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The host without the one trailing dot of a fully qualified name (`localhost.` is localhost). */
export const hostName = (hostname: string): string => hostname.replace(/\.$/, '');

/**
 * Why a parsed URL's host (WHATWG's `hostname`: lower case, punycode) is not an address literal nor
 * a DNS host name (letters, digits and inner hyphens per label, 63 per label, 253 in all), or
 * undefined. WHATWG admits `exa'mple.com`, `a*.example.com` and `a..b.com`; the documented pattern
 * does not, and neither does the server.
 */
export function hostProblem(hostname: string): string | undefined {
  if (isIP(hostname.replace(/^\[|\]$/g, ''))) return undefined;
  const name = hostName(hostname);
  if (name.length > 253 || !name.split('.').every((label) => DNS_LABEL.test(label)))
    return 'must name a DNS host (letters, digits and hyphens, dot-separated) or an IP address';
  return undefined;
}

/**
 * The normalised URL: scheme and host lower-cased, an IDN host in punycode, non-ASCII and unsafe
 * characters percent-encoded, `https:host` spelled `https://host/`. Call on a URL that parses.
 */
export function normalizeUrl(raw: string): string {
  return new URL(raw).href;
}

const LABEL = '(?!xn--)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** The last label starts with a letter: a host that ends in a number is an IPv4 address to WHATWG. */
const TOP_LABEL = '(?!xn--|localhost(?:[:/?]|$))[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?';
const PORT = '(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4}))?';
/** RFC 3986 path and query characters; a `%` only as an escape, so the form is a URI as well as a URL. */
const CHAR = "(?:[A-Za-z0-9._~!$&'()*+,;=:@/-]|%[0-9A-Fa-f]{2})";
const PATH = `(?:/${CHAR}*)?`;
const QUERY = `(?:\\?(?:${CHAR}|\\?)*)?`;

/**
 * An https URL in its plain form, as the OpenAPI document shows the URLs a client sends (return_url,
 * webhook endpoint url): a lower-case DNS name (no address literal, no localhost, no punycode label,
 * which must decode), an optional port, path and query. Every URL of this form passes the URL rules in
 * every stage (test/unit/url-pattern.test.ts holds them to it), so a client that sends this form is
 * never refused; the rules also accept other spellings of a URL (upper case, IDN host names, characters
 * to percent-encode), which are stored normalised, and http on localhost outside production.
 */
export const HTTPS_URL_PATTERN = `^https://(?:${LABEL}\\.)+${TOP_LABEL}${PORT}${PATH}${QUERY}$`;

/**
 * Documents a URL schema with the plain form every stage accepts (the refinements cannot be shown). No
 * `format: uri`: the server accepts WHATWG URLs that RFC 3986 does not (a stray `%`), so a client
 * checking the format would refuse URLs the server takes.
 */
export const documentedUrl = <T extends z.ZodMiniType>(schema: T, description: string): T =>
  withMeta(schema, { pattern: HTTPS_URL_PATTERN, description });

/**
 * A copy of the schema carrying JSON Schema metadata, as classic zod's `.meta()`: for metadata a
 * generic schema's `.register()` cannot type (it is checked against the schema's own type).
 */
export function withMeta<T extends z.ZodMiniType>(schema: T, meta: z.core.GlobalMeta): T {
  const copy = schema.clone();
  z.globalRegistry.add(copy, meta);
  return copy;
}
