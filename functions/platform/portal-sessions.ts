// Sessions the service issues itself: a one-time link (`lpl_`) minted through the API is exchanged once
// for a session (`lps_`), which the browser keeps in the console's session cookie and the edge turns
// into the bearer as it does any console session. Both are `<prefix>_<id>_<secret>`, the secret stored
// only as a SHA-256 (platform/api-keys.ts). A grant is what the session may do: a portal (a customer's
// own users, in a frame on the customer's site: some sections, read-only or manage) or the full console
// for a deployment's operators.
import type { ConsoleRole } from './console-sessions';
import type { Permission } from './permissions';

export const PORTAL_ROLES = ['read-only', 'manage'] as const;
export type PortalRole = (typeof PORTAL_ROLES)[number];
export const PORTAL_SECTIONS = ['webhooks', 'connections'] as const;
export type PortalSection = (typeof PORTAL_SECTIONS)[number];

export type SessionGrant =
  | {
      kind: 'portal';
      organizationId: string;
      applicationId?: string;
      role: PortalRole;
      sections: PortalSection[];
      /** Who the customer says the user is (shown in the header and the session list), never checked. */
      user?: string;
    }
  | { kind: 'console'; organizationId: string; role: ConsoleRole; user?: string };

/** A link lives 15 minutes unless the minter says otherwise; at most an hour. */
export const LINK_TTL_DEFAULT_SECONDS = 15 * 60;
export const LINK_TTL_MAX_SECONDS = 3600;
/** A session lives at most 8 hours once its link is opened. */
export const SESSION_TTL_MAX_SECONDS = 8 * 3600;

const TOKEN = /^(lpl|lps)_([a-z2-7]{20})_([A-Za-z0-9_-]{43})$/;

/** A presented link or session token's parts, or undefined for anything not shaped as one. */
export function parseSessionToken(
  kind: 'link' | 'session',
  presented: string,
): { id: string; secret: string } | undefined {
  const match = TOKEN.exec(presented);
  if (!match || match[1] !== (kind === 'link' ? 'lpl' : 'lps')) return undefined;
  return { id: `${kind === 'link' ? 'pln' : 'pss'}_${match[2]}`, secret: match[3]! };
}

/** The token of a link or session id and its secret (what parseSessionToken reads back). */
export function sessionToken(id: string, secret: string): string {
  const [prefix, body] = id.split('_');
  return `${prefix === 'pln' ? 'lpl' : 'lps'}_${body}_${secret}`;
}

/** An issued session, as opposed to a JWT or an API key: the authorizers' switch. */
export const looksLikeIssuedSession = (token: string): boolean => token.startsWith('lps_');

/**
 * What a portal session may do on the API-key routes: its sections' read permissions, and their write
 * permissions when it manages. Never the portal's own permissions (a portal user mints no links), never
 * vaults or anything else the sections do not show.
 */
export function portalPermissions(grant: {
  role: PortalRole;
  sections: readonly PortalSection[];
}): Permission[] {
  const permissions: Permission[] = [];
  for (const section of grant.sections) {
    const area = section === 'webhooks' ? 'webhooks' : 'connectors';
    permissions.push(`${area}:read`);
    if (grant.role === 'manage') permissions.push(`${area}:write`);
  }
  return permissions;
}

/** The principal id (rate-limit bucket) and user id of an issued session. */
export const issuedSessionPrincipalId = (sessionId: string): string => `session:${sessionId}`;
