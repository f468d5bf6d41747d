// How a provider's API takes our access token, decided here for every request that carries one: the
// content transport's (./content/http.ts), the account lookup's and a bearer-style revocation's
// (./oauth-client.ts). `Authorization: Bearer <token>` (RFC 6750) unless the definition names a header
// of the provider's own (iManage Work's `X-Auth-Token`), which then holds the bare token: a server that
// takes only its own header answers a Bearer header as a missing token.
import type { ProviderDefinition } from '../domain/provider-definition';

/** The definition's field this module reads. */
export type TokenHeader = ProviderDefinition['accessTokenHeader'];

/** The header (name and value) our access token travels in to the provider's API. */
export function accessTokenHeaders(header: TokenHeader, token: string): Record<string, string> {
  return header && header.toLowerCase() !== 'authorization'
    ? { [header]: token }
    : { Authorization: `Bearer ${token}` };
}

/**
 * `headers` without any that could carry our access token (the provider's own header and
 * Authorization, in any case): what a request to a host outside the API's origins may take.
 */
export function withoutAccessToken(
  headers: Record<string, string>,
  header: TokenHeader,
): Record<string, string> {
  const credentials = new Set(['authorization', (header ?? 'authorization').toLowerCase()]);
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (!credentials.has(name.toLowerCase())) kept[name] = value;
  return kept;
}
