// Portal links, the sessions they open, and an organization's portal settings, as the use case and the
// repository exchange them; and the one rule of a link's life: whether it may be exchanged now.
import type { SessionGrant } from '../../platform/portal-sessions';

export interface PortalLink {
  id: string;
  grant: SessionGrant;
  secretHash: string;
  createdAt: number;
  expiresAt: number;
  /** How long the session it opens lives, from the moment it is opened. */
  sessionTtlSeconds: number;
  /** The API key that minted it. */
  createdBy: string;
  consumedAt?: number;
}

export interface PortalSession {
  id: string;
  grant: SessionGrant;
  secretHash: string;
  linkId: string;
  createdAt: number;
  expiresAt: number;
  revokedAt?: number;
}

/** What the organization sets for its portal: who may frame it, and how it looks. */
export interface PortalSettings {
  /** Origins (scheme://host[:port]) allowed to frame the portal; none by default. */
  frameAncestors: string[];
  brandColor?: string;
  logoUrl?: string;
  appearance: 'light' | 'dark' | 'system';
}

export const DEFAULT_PORTAL_SETTINGS: PortalSettings = { frameAncestors: [], appearance: 'system' };

export type ExchangeRefusal = 'unknown' | 'used' | 'expired';

/** Whether a link may be exchanged at `now`: the refusal, or undefined. */
export function exchangeRefusal(link: PortalLink | undefined, now: number): ExchangeRefusal | undefined {
  if (!link) return 'unknown';
  if (link.consumedAt !== undefined) return 'used';
  if (link.expiresAt <= now) return 'expired';
  return undefined;
}

/** Whether a session is live at `now`. */
export const sessionLive = (session: PortalSession | undefined, now: number): session is PortalSession =>
  Boolean(session && session.revokedAt === undefined && session.expiresAt > now);
