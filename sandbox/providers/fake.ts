// What a wire-faithful fake of a real provider is: its OAuth authorization server's shape (paths,
// refresh behaviour, revocation, the parameters that earn a refresh token, `iss`) served by the
// sandbox's shared authorization server (../oauth-server.ts), and its API routes served under its own
// prefix on the sandbox origin (./mount.ts), over the shared account trees (../content/tree.ts).
// One directory per provider (./<id>/index.ts) says all of this from the provider's API reference.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxApiError, Upload } from '../content/http';
import type { AccountTree, ContentShape } from '../content/tree';
import type { BearerGrant, InjectedError, ProviderIds } from '../content/types';

/** How the provider's authorization server behaves where providers differ. */
export interface FakeOAuthShape {
  /** Paths under the fake's prefix. No revokePath: the provider has no revocation endpoint. */
  authorizePath: string;
  tokenPath: string;
  revokePath?: string;
  /**
   * `rfc7009`: a form POST of `token`, client authenticated; `rfc7009-public`: the same without client
   * authentication (Google); `bearer`: the access token, presented as the API takes it
   * (accessTokenHeader), revokes its grant (Dropbox, Clio's deauthorize).
   */
  revocation?: 'rfc7009' | 'rfc7009-public' | 'bearer';
  /** What a refresh answers: a new refresh token (`rotate`, the old one spent), the same, or none. */
  refresh: 'rotate' | 'same' | 'omit';
  /** What earns a refresh token at all: an authorize parameter (Google, Dropbox) or a scope (Microsoft). */
  offline: { param: string; value: string } | { scope: string } | 'always';
  /** The `iss` of every authorization response (RFC 9207), when the provider sends one. */
  issuer?: (origin: string) => string;
  /** Whether the authorize request must name scopes (Clio's come from the app's registration). */
  scopesInRequest: boolean;
  /** How the provider separates scopes in the authorize request and the token answer (NetDocuments: `,`). */
  scopeSeparator?: ' ' | ',';
  /** Fields the provider adds to its token response (Dropbox's account_id, Microsoft's ext_expires_in). */
  tokenExtras?: (grant: { accountId: string }) => Record<string, unknown>;
}

/** What a fake's route is given: the request, the caller's grant and account tree. */
export interface FakeRouteContext {
  /** The caller's tree (an anonymous route's is the empty account's: use treeOf). */
  tree: AccountTree;
  /** Any account's tree at this provider (a pre-authenticated URL names its own). */
  treeOf(accountId: string): AccountTree;
  grant: BearerGrant;
  /** The tenant segment the request came under (a fake with `tenant`), else ''. */
  tenant: string;
  params: Record<string, string>;
  query: URLSearchParams;
  request: IncomingMessage;
  response: ServerResponse;
  /** The sandbox origin (download URLs, upload session URLs are absolute). */
  origin: string;
  /** The sandbox clock's time when the request came. */
  now: number;
  /** The request body, read as a stream under the upload cap. */
  upload(): Promise<Upload>;
}

export interface FakeRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Under the fake's prefix, `{name}` for a path parameter (`/drive/v3/files/{fileId}`). */
  path: string;
  /** The grant must hold one of these (a write scope usually covers reading too). */
  scopes: string[];
  /** No bearer token needed (a pre-authenticated download or upload-session URL). */
  anonymous?: boolean;
  handle(context: FakeRouteContext): Promise<void> | void;
}

/** The PROVIDER_<ID>_<FIELD> values that point the service at a fake. */
export interface FakeEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  /** Absent where the provider has no revocation endpoint. */
  revokeUrl?: string;
  accountUrl: string;
  apiUrl: string;
  issuer?: string;
  /** The provider's own settings (PROVIDER_<ID>_<NAME>), e.g. Dropbox's CONTENT_URL. */
  extra: Record<string, string>;
}

export interface ProviderFake {
  /** The service's provider id (google_drive). */
  id: string;
  /** Where it is served on the sandbox origin (`/google`). */
  prefix: string;
  /**
   * A provider hosted per region or per customer server: the first path segment under the prefix
   * names the host it stands for (`/netdocuments/eu/...`, `/imanage/work.firm.example/...`), its OAuth
   * paths and routes are matched after it, and a grant is good only under the tenant that issued it.
   */
  tenant?: { accepts(value: string): boolean };
  /** The shape of its accounts' trees (folders anywhere, or matters with documents). */
  shape: ContentShape;
  oauth: FakeOAuthShape;
  /** Every scope its authorization server knows (clients are registered with these). */
  scopes: string[];
  /**
   * The request header its API takes the access token in, holding the bare token (iManage Work's
   * `X-Auth-Token`); absent, `Authorization: Bearer <token>`. A token in any other header is none.
   */
  accessTokenHeader?: string;
  routes: FakeRoute[];
  /** An error as the provider words it (status, body, headers). */
  sendError(response: ServerResponse, error: SandboxApiError): void;
  /** A failure injected by the test hook, as the provider would answer it. */
  injected(injected: InjectedError): SandboxApiError;
  /** A request without a valid token, as the provider answers it. */
  unauthorized(): SandboxApiError;
  /** A grant without the scope a route needs. */
  forbidden(scopes: string[]): SandboxApiError;
  endpoints(origin: string): FakeEndpoints;
  /** The provider's own ids, when they are not the tree's. */
  ids?: ProviderIds;
  /** The account id the provider reports for a sandbox account, when it is not the account's name. */
  accountId?: (sandboxAccount: string) => string;
}
