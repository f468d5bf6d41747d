// Accepting a connection's params (a region, a server) from the customer's server or the connect page:
// the definition's checks (domain/connection-params.ts), then the deployment's: the hosts it allows
// (PROVIDER_<ID>_ALLOWED_HOSTS) and, in production, the address guard the webhook URLs pass, so a
// server name that resolves to a private, loopback or metadata address is refused before any token
// or code is sent to it. Each refusal is a 400 naming the param.
import { getStringFromEnv, loopbackAllowed } from '../../platform/config';
import { PermissionDeniedError } from '../../platform/errors';
import { invalidField } from '../../platform/validation';
import type { ConnectionParams } from '../domain/connection-params';
import { ParamsError, checkParams, completeParams, paramSpecs } from '../domain/connection-params';
import type { ProviderId } from '../domain/providers';
import { PROVIDERS, providerEnv } from '../domain/providers';

/**
 * The hosts a deployment lets a provider's host params name (PROVIDER_<ID>_ALLOWED_HOSTS: comma
 * separated, `*.example.com` for any name under example.com); empty: any public host.
 */
export function allowedHosts(provider: ProviderId): string[] {
  return getStringFromEnv(providerEnv(provider, 'ALLOWED_HOSTS'), { default: '' })
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
}

/** Whether `host` matches one of the patterns (`*.x.y` matches any name under x.y, not x.y itself). */
export const hostAllowed = (host: string, patterns: readonly string[]): boolean =>
  patterns.length === 0 ||
  patterns.some((pattern) => (pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern));

/** Where a refusal is reported: the API's request body, or the connect page's form. */
type Source = { what: string; prefix: string };
export const FROM_BODY: Source = { what: 'request body', prefix: 'params.' };
export const FROM_PAGE: Source = { what: 'form', prefix: '' };

/** The given params, checked by the definition and the deployment (a 400 naming the param otherwise). */
export async function acceptParams(
  provider: ProviderId,
  given: Record<string, string> | undefined,
  source: Source,
  /** The organization's own list for the provider (ProviderSettings), read only when a host is given. */
  organizationHosts: () => Promise<string[]>,
): Promise<ConnectionParams> {
  const definition = PROVIDERS[provider];
  let params: ConnectionParams;
  try {
    params = checkParams(definition, given);
  } catch (error) {
    if (error instanceof ParamsError)
      throw invalidField(source.what, `${source.prefix}${error.param}`, error.problem);
    throw error;
  }
  for (const [name, spec] of paramSpecs(definition)) {
    const host = params[name];
    if (spec.kind !== 'host' || host === undefined) continue;
    const field = `${source.prefix}${name}`;
    // A well-formed host that policy refuses is a 403 (the request is valid; this account may not).
    if (!hostAllowed(host, allowedHosts(provider)))
      throw new PermissionDeniedError(
        `${field}: ${host} is not a host this deployment allows for ${provider}`,
      );
    if (!hostAllowed(host, await organizationHosts()))
      throw new PermissionDeniedError(
        `${field}: ${host} is not a host this organization allows for ${provider}`,
      );
    if (!loopbackAllowed()) await vetPublicHost(host, source.what, field);
  }
  return params;
}

/** Every param for a flow: the connection's, the page's answers for the rest, defaults for what is left. */
export async function flowParams(
  provider: ProviderId,
  stored: ConnectionParams | undefined,
  answers: Record<string, string>,
  organizationHosts: () => Promise<string[]>,
): Promise<ConnectionParams | undefined> {
  const definition = PROVIDERS[provider];
  if (!paramSpecs(definition).length) return undefined;
  const asked = Object.fromEntries(
    paramSpecs(definition)
      .filter(([name]) => !Object.hasOwn(stored ?? {}, name) && (answers[name] ?? '') !== '')
      .map(([name]) => [name, answers[name]!]),
  );
  const given = { ...(await acceptParams(provider, asked, FROM_PAGE, organizationHosts)), ...stored };
  try {
    return completeParams(definition, given);
  } catch (error) {
    if (error instanceof ParamsError) throw invalidField(FROM_PAGE.what, error.param, error.problem);
    throw error;
  }
}

/** In production: the host must resolve, and only to addresses the webhook guard passes. */
async function vetPublicHost(host: string, what: string, field: string): Promise<void> {
  const { BlockedAddressError, vetHost } = await import('../../platform/pinned-connect');
  try {
    await vetHost(host, { allowLoopback: false });
  } catch (error) {
    throw invalidField(
      what,
      field,
      error instanceof BlockedAddressError
        ? `${host} resolves to an address that is not public`
        : `${host} does not resolve`,
    );
  }
}
