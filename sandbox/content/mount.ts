// The sandbox provider's content APIs, mounted by ../oauth-server.ts on its own origin. Two shapes,
// as real providers differ (the service's provider clients are adapters over each):
//
// Practice management, under /practice/api/v1 (Clio-like: page tokens, a delta feed, sync tokens)
//   GET  /matters?limit&page_token                              matters.read
//        -> {"data":[{id,name,updated_at}],"next_page_token":string|null}
//   GET  /matters/{matter_id}/documents?limit&page_token        documents.read
//        -> {"data":[Doc],"next_page_token"}   Doc = {id,name,content_type,size,version,updated_at}
//        (?name=<name>: only the document of exactly that name, if any)
//   GET  /matters/{matter_id}/documents/delta?since&limit&page_token   documents.read
//        -> {"data":[Doc & {deleted}],"next_page_token","sync_token"}: without `since` every current
//        document (and, deleted:true, any deleted while the pages are walked); with since=<sync_token>
//        every document added, changed or deleted since. sync_token only on the last page.
//   GET  /documents/{id}/content                                documents.read
//        -> the bytes, streamed; Content-Type, Content-Length, ETag "<version>" (If-None-Match -> 304)
//   POST /matters/{matter_id}/documents?name=<name>   raw body, Idempotency-Key (<= 255 chars) required
//        -> 201 Doc (a new document, or the next version of the one of that name); the same key again
//        within 24 h -> 200 and the same Doc; the key with another matter, name or body -> 422
//        idempotency_key_reused; If-None-Match: * / If-Match: "<version>" as the drive's PUT   documents.write
//   Every answer to a token carries X-RateLimit-Limit, -Remaining, -Reset (Unix seconds).
//
// File storage, under /drive/api/v1 (Dropbox-like: cursors with has_more, a recursive change feed)
//   GET  /folders/{folder_id}/children?limit&cursor   (`root` is the top)   files.read
//        -> {"entries":[{id,name,type:"folder"|"file",size?,version?,mime_type?,modified_at}],
//            "cursor":string|null,"has_more"}   (?name=<name>: only the child of exactly that name)
//   GET  /folders/{folder_id}/changes?cursor&limit                          files.read
//        -> {"entries":[File & {path, deleted?:true}],"cursor":string,"has_more"}: files of the whole
//        subtree; without a cursor every current file, then what changed since the cursor given.
//        `cursor` is always there: a continuation while has_more, else the one to keep.
//   GET  /files/{id}/content       bytes streamed, Content-Type, Content-Length, ETag "<version>"
//   PUT  /folders/{folder_id}/files/{name}   raw body -> 201 File (new) | 200 File (overwritten; a
//        body and type identical to the current version keep its version)   files.write
//        If-None-Match: * creates only (412 precondition_failed when the name holds other bytes);
//        If-Match: "<version>" overwrites only that version (412 otherwise)
//
// Both: `Authorization: Bearer <access token>` of that provider. Unknown, expired (sandbox clock) or
// revoked -> 401 {"error":"invalid_token"} + WWW-Authenticate; a scope the grant lacks -> 403
// {"error":"insufficient_scope"}; unknown ids -> 404 {"error":"not_found"}; bad parameters -> 400
// {"error":"invalid_request"} (each error may add an error_description). `limit` 1-1000, default 100.
// Page tokens and cursors are opaque; listings page in id order and feeds in change order, so a walk
// while files change never skips or repeats an unchanged file. Uploads stream in (413 past 100 MiB);
// downloads stream out (a generated large file is produced as it is read). Requests per account are
// limited per minute of the sandbox clock (`apiRequestsPerMinute`, default 100,000): past it, 429
// with Retry-After.
//
// Which account: the account id typed on the consent page (`account_id`, default acct-1001) is the
// grant's account, the id `GET /<provider>/account` answers and the connection's
// `account.external_id`; each (provider, account id) has its own tree, seeded on first access
// (./seed.ts). The test hooks (./hooks.ts) address a tree by the same id.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../clock';
import { epochSeconds } from '../clock';
import { SandboxApiError, notFound, readUpload, sendError, sendJson } from './http';
import { SandboxContentStore } from './seed';
import type { ContentShape } from './tree';
import type { ContentRoute, ContentState, GrantDirectory, InjectedError } from './types';
import { contentHooks } from './hooks';
import { driveRoutes } from './drive-api';
import { practiceRoutes } from './practice-api';
import type { ProviderFake } from '../providers/fake';
import { mountProviderFakes } from '../providers/mount';

export interface ContentApiOptions {
  clock: Clock;
  /** The fakes of real providers (../providers/), each under its own prefix. */
  fakes?: readonly ProviderFake[];
  /** The sandbox's origin, once it listens (fakes answer absolute URLs). */
  origin?: () => string;
  grants: GrantDirectory;
  /** The /__sandbox/ test hooks (LOCAL_TEST_HOOKS, as /__sandbox/issued). */
  testHooks: boolean;
  apiRequestsPerMinute?: number;
  maxUploadBytes?: number;
}

export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
const DEFAULT_REQUESTS_PER_MINUTE = 100_000;

/** The scopes each provider's content API checks (the sandbox clients must know them). */
export const CONTENT_SCOPES: Record<ContentShape, string[]> = {
  practice: ['matters.read', 'documents.read', 'documents.write'],
  drive: ['files.read', 'files.write'],
};

export const isContentShape = (provider: string): provider is ContentShape =>
  provider === 'practice' || provider === 'drive';

const invalidToken = () =>
  new SandboxApiError(401, 'invalid_token', undefined, {
    'WWW-Authenticate': 'Bearer error="invalid_token"',
  });

function injectedAnswer(injected: InjectedError): SandboxApiError {
  if (injected.status === 401) return invalidToken();
  const retryAfter: Record<string, string> =
    injected.retryAfter !== undefined && injected.status !== 500
      ? { 'Retry-After': String(injected.retryAfter) }
      : {};
  if (injected.status === 429) return new SandboxApiError(429, 'rate_limited', undefined, retryAfter);
  if (injected.status === 503)
    return new SandboxApiError(503, 'temporarily_unavailable', undefined, retryAfter);
  return new SandboxApiError(500, 'server_error');
}

/** A fixed window per account per minute of the sandbox clock, as providers count requests. */
class RequestWindows {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly limit: number,
  ) {}

  /** Counts a request; its rate-limit headers, or a 429 when the window is spent. */
  take(key: string, withHeaders: boolean): Record<string, string> {
    const now = this.clock.now();
    const start = now - (now % 60_000);
    let window = this.windows.get(key);
    if (!window || window.start !== start) this.windows.set(key, (window = { start, count: 0 }));
    window.count++;
    const reset = start + 60_000;
    const headers: Record<string, string> = withHeaders
      ? {
          'X-RateLimit-Limit': String(this.limit),
          'X-RateLimit-Remaining': String(Math.max(0, this.limit - window.count)),
          'X-RateLimit-Reset': String(epochSeconds(reset)),
        }
      : {};
    if (window.count > this.limit) {
      const retryAfter = String(Math.max(1, Math.ceil((reset - now) / 1000)));
      throw new SandboxApiError(429, 'rate_limited', undefined, { ...headers, 'Retry-After': retryAfter });
    }
    return headers;
  }
}

interface CompiledRoute extends ContentRoute {
  segments: string[];
}

function compile(routes: ContentRoute[]): CompiledRoute[] {
  return routes.map((route) => ({ ...route, segments: route.path.split('/').slice(1) }));
}

/** The route for `segments`, or the methods the path allows (405) or nothing there (404). */
function match(routes: CompiledRoute[], method: string, segments: string[]) {
  const allowed: string[] = [];
  for (const route of routes) {
    if (route.segments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const fits = route.segments.every((part, i) => {
      if (part.startsWith('{')) return (params[part.slice(1, -1)] = segments[i]!) !== '';
      return part === segments[i];
    });
    if (!fits) continue;
    if (route.method === method) return { route, params };
    allowed.push(route.method);
  }
  if (allowed.length)
    throw new SandboxApiError(405, 'method_not_allowed', undefined, { Allow: allowed.join(', ') });
  throw notFound('no such endpoint');
}

function decodeSegments(path: string): string[] {
  try {
    return path.split('/').map(decodeURIComponent);
  } catch {
    throw new SandboxApiError(400, 'invalid_request', 'the path is not percent-encoded UTF-8');
  }
}

/** Mounts the content APIs and their test hooks; `serve` takes the requests that are theirs. */
export function mountSandboxContent(options: ContentApiOptions) {
  const fakes = options.fakes ?? [];
  const shapes = new Map<string, ContentShape>([
    ['practice', 'practice'],
    ['drive', 'drive'],
    ...fakes.map((fake) => [fake.id, fake.shape] as const),
  ]);
  const state: ContentState = {
    clock: options.clock,
    store: new SandboxContentStore(options.clock, (provider) => shapes.get(provider)),
    grants: options.grants,
    injected: new Map(),
    downloadStallMs: new Map(),
    providers: [...shapes.keys()],
    idsOf: (provider) => fakes.find((fake) => fake.id === provider)?.ids,
    maxUploadBytes: options.maxUploadBytes ?? MAX_UPLOAD_BYTES,
  };
  const fakeApis = mountProviderFakes(fakes, state, options.origin ?? (() => ''));
  const windows = new RequestWindows(
    options.clock,
    options.apiRequestsPerMinute ?? DEFAULT_REQUESTS_PER_MINUTE,
  );
  const routes: Record<ContentShape, CompiledRoute[]> = {
    practice: compile(practiceRoutes()),
    drive: compile(driveRoutes()),
  };
  const hooks = options.testHooks ? contentHooks(state) : undefined;

  /** Injected failure, token, rate limit, route, scope: in the order a provider would check them. */
  async function api(shape: ContentShape, rest: string, request: IncomingMessage, response: ServerResponse) {
    const injected = state.injected.get(shape);
    if (injected) {
      if (--injected.remaining <= 0) state.injected.delete(shape);
      throw injectedAnswer(injected);
    }
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const grant = bearer ? state.grants.bearer(shape, bearer) : undefined;
    if (!grant) throw invalidToken();
    const limits = windows.take(`${shape}\u0000${grant.accountId}`, shape === 'practice');
    for (const [name, value] of Object.entries(limits)) response.setHeader(name, value);
    const target = new URL(request.url ?? '/', 'http://sandbox');
    const { route, params } = match(routes[shape], request.method ?? 'GET', decodeSegments(rest).slice(1));
    if (!grant.scopes.includes(route.scope))
      throw new SandboxApiError(403, 'insufficient_scope', `this needs the ${route.scope} scope`);
    await route.handle({
      tree: state.store.tree(shape, grant.accountId),
      params,
      query: target.searchParams,
      request,
      response,
      now: state.clock.now(),
      stallMs: state.downloadStallMs.get(shape) ?? 0,
      upload: () => readUpload(request, state.maxUploadBytes),
    });
  }

  function answer(response: ServerResponse, work: Promise<void>) {
    work.catch((error: unknown) => {
      if (response.headersSent) return void response.destroy();
      if (error instanceof SandboxApiError) return sendError(response, error);
      sendJson(response, 500, { error: 'server_error' });
    });
  }

  return {
    /** Whether the request is the content APIs' or their hooks' (then it is answered here). */
    serve(request: IncomingMessage, response: ServerResponse): boolean {
      if (fakeApis.serve(request, response)) return true;
      const path = (request.url ?? '/').split('?')[0]!;
      const under = /^\/([a-z]+)\/api\/v1(\/.*)$/.exec(path);
      if (under && isContentShape(under[1]!)) {
        answer(response, api(under[1], under[2]!, request, response));
        return true;
      }
      if (hooks?.owns(path)) {
        answer(response, hooks.handle(path, request, response));
        return true;
      }
      return false;
    },
  };
}
