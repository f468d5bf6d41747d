// Portal links and sessions: minting a one-time link for a grant, exchanging it once for a session,
// recognising a presented session, listing and revoking an organization's sessions, and the
// organization's portal settings. Keys and conditions are the repository's (infra/repositories/portal.ts).
import { randomBytes } from 'node:crypto';
import { hashSecret, secretMatches } from '../../platform/api-keys';
import type { Clock } from '../../platform/clock';
import { NotFoundError, PermissionDeniedError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { Principal } from '../../platform/principal';
import type { SessionGrant } from '../../platform/portal-sessions';
import {
  LINK_TTL_DEFAULT_SECONDS,
  SESSION_TTL_MAX_SECONDS,
  parseSessionToken,
  sessionToken,
} from '../../platform/portal-sessions';
import type { ExchangeRefusal, PortalLink, PortalSession, PortalSettings } from '../domain/portal';
import { exchangeRefusal, sessionLive } from '../domain/portal';
import type { DirectoryRepositories } from '../infra/repositories';

export type { ExchangeRefusal, PortalSession, PortalSettings } from '../domain/portal';

/** A link as minted: its id, the token (shown once) and when it stops opening. */
export interface MintedLink {
  id: string;
  token: string;
  expiresAt: number;
}

export type ExchangeResult =
  { ok: true; session: PortalSession; token: string } | { ok: false; refusal: ExchangeRefusal };

const newSecret = () => randomBytes(32).toString('base64url');

export class Portal {
  constructor(
    private readonly repositories: DirectoryRepositories,
    private readonly clock: Clock,
  ) {}

  /**
   * A one-time link for `grant`, minted by `principal`. A key mints for its own organization only;
   * the full console (operators' sign-in) only a system key mints, for any existing organization.
   */
  async mintLink(
    principal: Principal,
    grant: SessionGrant,
    options: { linkTtlSeconds?: number; sessionTtlSeconds?: number } = {},
  ): Promise<MintedLink> {
    if (grant.kind === 'console' && !principal.system)
      throw new PermissionDeniedError('Only a system key may mint a link to the full console');
    if (grant.organizationId !== principal.organizationId && !principal.system)
      throw new PermissionDeniedError('A key mints links for its own organization only');
    if (!(await this.repositories.organizations.get(grant.organizationId)))
      throw new NotFoundError('Organization not found');
    if (grant.kind === 'portal' && grant.applicationId) {
      const application = await this.repositories.applications.get(grant.applicationId);
      if (!application || application.organizationId !== grant.organizationId)
        throw new NotFoundError('Application not found');
    }
    const now = this.clock.now();
    const secret = newSecret();
    const link: PortalLink = {
      id: newId('pln'),
      grant,
      secretHash: hashSecret(secret),
      createdAt: now,
      expiresAt: now + (options.linkTtlSeconds ?? LINK_TTL_DEFAULT_SECONDS) * 1000,
      sessionTtlSeconds: Math.min(
        options.sessionTtlSeconds ?? SESSION_TTL_MAX_SECONDS,
        SESSION_TTL_MAX_SECONDS,
      ),
      createdBy: principal.keyId,
    };
    await this.repositories.portal.createLink(link);
    return { id: link.id, token: sessionToken(link.id, secret), expiresAt: link.expiresAt };
  }

  /** The link a token names, if the token's secret is its own (the page that opens it needs its grant). */
  async presentedLink(token: string): Promise<PortalLink | undefined> {
    const parsed = parseSessionToken('link', token);
    if (!parsed) return undefined;
    const link = await this.repositories.portal.getLink(parsed.id);
    return link && secretMatches(parsed.secret, link.secretHash) ? link : undefined;
  }

  /** The link's grant without its secret: which organization's page frames it, before it is opened. */
  async linkGrant(linkId: string): Promise<SessionGrant | undefined> {
    return (await this.repositories.portal.getLink(linkId))?.grant;
  }

  /** Exchanges a link token once for a new session; a second opening, an expired or unknown token is refused. */
  async exchange(token: string): Promise<ExchangeResult> {
    const link = await this.presentedLink(token);
    const now = this.clock.now();
    const refused = exchangeRefusal(link, now);
    if (refused || !link) return { ok: false, refusal: refused ?? 'unknown' };
    // Two openings at once: the conditional write lets one through; the other reads why it lost.
    if (!(await this.repositories.portal.consumeLink(link.id, now))) {
      const again = exchangeRefusal(await this.repositories.portal.getLink(link.id), now);
      return { ok: false, refusal: again ?? 'used' };
    }
    const secret = newSecret();
    const session: PortalSession = {
      id: newId('pss'),
      grant: link.grant,
      secretHash: hashSecret(secret),
      linkId: link.id,
      createdAt: now,
      expiresAt: now + link.sessionTtlSeconds * 1000,
    };
    await this.repositories.portal.createSession(session);
    return { ok: true, session, token: sessionToken(session.id, secret) };
  }

  /** The live session a presented token stands for, or undefined. */
  async authenticate(token: string): Promise<PortalSession | undefined> {
    const parsed = parseSessionToken('session', token);
    if (!parsed) return undefined;
    const session = await this.repositories.portal.getSession(parsed.id);
    if (!session || !secretMatches(parsed.secret, session.secretHash)) return undefined;
    return sessionLive(session, this.clock.now()) ? session : undefined;
  }

  /** A session by id, live or not (the page that shows it reads its organization's settings). */
  async getSession(id: string): Promise<PortalSession | undefined> {
    return this.repositories.portal.getSession(id);
  }

  /** The organization's live sessions, newest first. */
  async listLiveSessions(organizationId: string): Promise<PortalSession[]> {
    const now = this.clock.now();
    return (await this.repositories.portal.listSessions(organizationId))
      .filter((s) => sessionLive(s, now))
      .sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id));
  }

  /** Ends a session of the organization now; NotFound for another organization's or an ended one. */
  async revoke(organizationId: string, sessionId: string): Promise<void> {
    const session = await this.repositories.portal.getSession(sessionId);
    if (
      !session ||
      session.grant.organizationId !== organizationId ||
      !sessionLive(session, this.clock.now())
    )
      throw new NotFoundError('Session not found');
    if (!(await this.repositories.portal.revokeSession(sessionId, this.clock.now())))
      throw new NotFoundError('Session not found');
  }

  /** Ends the session a presented token stands for, if it is live (signing out). */
  async signOut(token: string): Promise<void> {
    const session = await this.authenticate(token);
    if (session) await this.repositories.portal.revokeSession(session.id, this.clock.now());
  }

  async settings(organizationId: string): Promise<PortalSettings> {
    return this.repositories.portal.getSettings(organizationId);
  }

  async putSettings(organizationId: string, settings: PortalSettings): Promise<void> {
    await this.repositories.portal.putSettings(organizationId, settings);
  }

  async organizationName(organizationId: string): Promise<string | undefined> {
    return (await this.repositories.organizations.get(organizationId))?.name;
  }
}
