// The mount point of the provider fakes: each serves its API under its own prefix on the sandbox
// origin (`http://127.0.0.1:3001/google/drive/v3/...`), over the shared account trees and the shared
// test hooks' state (injected failures, revoked grants). Checks run in the order a provider makes
// them: an injected failure, the access token (in the header the fake's provider takes it in), the
// route, the scope. The OAuth paths under a prefix are the authorization server's (../oauth-server.ts),
// not served here.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SandboxApiError, readUpload, sendJson } from '../content/http';
import type { ContentState } from '../content/types';
import type { FakeRoute, ProviderFake } from './fake';

interface Compiled {
  route: FakeRoute;
  segments: string[];
}

/** The route for `segments`: its parameters, or the methods the path allows (405), or none (404). */
type Match = { route: FakeRoute; params: Record<string, string> } | { route?: undefined; allowed: string[] };

function match(routes: Compiled[], method: string, segments: string[]): Match {
  const allowed: string[] = [];
  for (const { route, segments: parts } of routes) {
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const fits = parts.every((part, i) => {
      if (part.startsWith('{')) return (params[part.slice(1, -1)] = segments[i]!) !== '';
      return part === segments[i];
    });
    if (!fits) continue;
    if (route.method === method) return { route, params };
    allowed.push(route.method);
  }
  return { allowed };
}

function decodeSegments(path: string): string[] | undefined {
  try {
    return path.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

/**
 * Where `path` is within a fake: the tenant segment (a fake with tenants, else '') and the rest, or
 * undefined when the tenant segment is missing, not UTF-8, or one the fake does not serve.
 */
export function fakePath(fake: ProviderFake, path: string): { tenant: string; rest: string } | undefined {
  const rest = path.slice(fake.prefix.length);
  if (!fake.tenant) return { tenant: '', rest };
  const found = /^\/([^/]+)(\/.*)?$/.exec(rest);
  if (!found) return undefined;
  let tenant: string;
  try {
    tenant = decodeURIComponent(found[1]!);
  } catch {
    return undefined;
  }
  return fake.tenant.accepts(tenant) ? { tenant, rest: found[2] ?? '' } : undefined;
}

/**
 * The access token a request presents, read where the fake's provider reads it: its own header (the
 * bare token) when it has one, else `Authorization: Bearer`. A token elsewhere is no token, as the
 * provider's 401 for a missing one says.
 */
export function presentedToken(fake: ProviderFake, request: IncomingMessage): string | undefined {
  if (!fake.accessTokenHeader) return /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  const value = request.headers[fake.accessTokenHeader.toLowerCase()];
  return typeof value === 'string' && /^\S+$/.test(value.trim()) ? value.trim() : undefined;
}

/** A fake that owns `path`: its prefix, and not one of its OAuth paths. */
export function fakeOwning(fakes: readonly ProviderFake[], path: string): ProviderFake | undefined {
  return fakes.find((fake) => path.startsWith(`${fake.prefix}/`));
}

/** Whether `path` is one of the fake's OAuth endpoints (served by the authorization server). */
export function oauthAction(fake: ProviderFake, path: string): 'authorize' | 'token' | 'revoke' | undefined {
  const rest = fakePath(fake, path)?.rest;
  if (rest === undefined) return undefined;
  if (rest === fake.oauth.authorizePath) return 'authorize';
  if (rest === fake.oauth.tokenPath) return 'token';
  if (fake.oauth.revokePath && rest === fake.oauth.revokePath) return 'revoke';
  return undefined;
}

export function mountProviderFakes(
  fakes: readonly ProviderFake[],
  state: ContentState,
  origin: () => string,
) {
  const compiled = new Map(
    fakes.map((fake) => [
      fake,
      fake.routes.map((route) => ({ route, segments: route.path.split('/').slice(1) })),
    ]),
  );

  async function api(fake: ProviderFake, request: IncomingMessage, response: ServerResponse) {
    const target = new URL(request.url ?? '/', 'http://sandbox');
    const located = fakePath(fake, target.pathname);
    if (!located) throw new SandboxApiError(404, 'not_found', 'no such host');
    const segments = decodeSegments(located.rest);
    if (!segments) throw new SandboxApiError(400, 'invalid_request', 'the path is not percent-encoded UTF-8');
    const found = match(compiled.get(fake)!, request.method ?? 'GET', segments);
    if (!found.route) {
      if (found.allowed.length)
        throw new SandboxApiError(405, 'method_not_allowed', undefined, { Allow: found.allowed.join(', ') });
      throw new SandboxApiError(404, 'not_found', 'no such endpoint');
    }
    const { route, params } = found;
    // A pre-authenticated URL (download, upload session) carries its own proof: no token, no injection.
    let grant = { accountId: '', email: '', name: '', scopes: [] as readonly string[] };
    if (!route.anonymous) {
      const injected = state.injected.get(fake.id);
      if (injected) {
        if (--injected.remaining <= 0) state.injected.delete(fake.id);
        throw fake.injected(injected);
      }
      const token = presentedToken(fake, request);
      const live = token ? state.grants.bearer(fake.id, token, located.tenant) : undefined;
      if (!live) throw fake.unauthorized();
      if (!route.scopes.some((scope) => live.scopes.includes(scope))) throw fake.forbidden(route.scopes);
      grant = live;
    }
    await route.handle({
      get tree() {
        return state.store.tree(fake.id, grant.accountId);
      },
      treeOf: (accountId) => state.store.tree(fake.id, accountId),
      grant,
      tenant: located.tenant,
      params,
      query: target.searchParams,
      request,
      response,
      origin: origin(),
      now: state.clock.now(),
      upload: () => readUpload(request, state.maxUploadBytes),
    });
  }

  return {
    /** Whether the request is a fake's API request (then it is answered here). */
    serve(request: IncomingMessage, response: ServerResponse): boolean {
      const path = (request.url ?? '/').split('?')[0]!;
      const fake = fakeOwning(fakes, path);
      if (!fake || oauthAction(fake, path)) return false;
      api(fake, request, response).catch((error: unknown) => {
        if (response.headersSent) return void response.destroy();
        if (error instanceof SandboxApiError) return fake.sendError(response, error);
        sendJson(response, 500, { error: 'server_error' });
      });
      return true;
    },
  };
}
