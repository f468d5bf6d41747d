// The types the sandbox's content APIs, their route modules and their test hooks share.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../clock';
import type { Upload } from './http';
import type { SandboxContentStore } from './seed';
import type { AccountTree, TreeNode } from './tree';

/** What the authorization server knows of an access token: whose, and what it may do. */
export interface BearerGrant {
  accountId: string;
  /** The account's email and display name (as typed on the consent page). */
  email: string;
  name: string;
  scopes: readonly string[];
  /** The client the grant was issued to (Graph names the app that wrote a file). */
  clientId?: string;
}

/** The authorization server, as the content APIs need it. */
export interface GrantDirectory {
  /** The live grant behind an access token issued for `provider`: undefined when unknown, expired or revoked. */
  /** The grant of a live token of `provider`, issued under `tenant` ('' for a fake without tenants). */
  bearer(provider: string, token: string, tenant?: string): BearerGrant | undefined;
  /** Revokes every grant (access and refresh tokens) of `provider`, or of one account there; how many. */
  revokeGrants(provider: string, accountId?: string): number;
}

export interface InjectedError {
  /** 403 only with a provider's own throttling reason (Google's userRateLimitExceeded). */
  status: 401 | 403 | 429 | 500 | 503;
  /** The provider's own error reason, for a fake that answers one (`userRateLimitExceeded`). */
  reason?: string;
  retryAfter?: number;
  remaining: number;
}

/** What the APIs and the test hooks share. */
/**
 * How a provider names the tree's folders and files where it does not use the tree's ids (Clio's
 * integers, Dropbox's `id:` folders and paths): the test hooks take and answer the provider's own ids,
 * so a test addresses what the production client sees.
 */
export interface ProviderIds {
  /** The tree id of the node a provider id names (undefined: none). */
  treeId(tree: AccountTree, providerId: string): string | undefined;
  /** The provider's id of a tree node. */
  providerId(tree: AccountTree, node: TreeNode): string;
}

export interface ContentState {
  clock: Clock;
  store: SandboxContentStore;
  grants: GrantDirectory;
  /** Failures the next requests of a provider answer (POST /__sandbox/next-api-error). */
  injected: Map<string, InjectedError>;
  /** Per provider: downloads pause this long after their first chunk (POST /__sandbox/stall-downloads). */
  downloadStallMs: Map<string, number>;
  /** Every provider with content here: the sandbox's two and each fake's id. */
  providers: readonly string[];
  /** A fake's own ids (the hooks take and answer them); undefined where they are the tree's. */
  idsOf(provider: string): ProviderIds | undefined;
  maxUploadBytes: number;
}

export interface RouteContext {
  tree: AccountTree;
  params: Record<string, string>;
  query: URLSearchParams;
  request: IncomingMessage;
  response: ServerResponse;
  /** The sandbox clock's time when the request came. */
  now: number;
  /** How long a download pauses after its first chunk (a test hook; 0 normally). */
  stallMs: number;
  /** The request body, read as a stream under the upload cap. */
  upload(): Promise<Upload>;
}

export interface ContentRoute {
  method: 'GET' | 'POST' | 'PUT';
  /** Under /<provider>/api/v1, `{name}` for a path parameter. */
  path: string;
  scope: string;
  handle(context: RouteContext): Promise<void> | void;
}
