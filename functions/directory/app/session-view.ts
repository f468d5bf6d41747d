// Who a presented console session signs in, as the console reads it when it loads: the kind, role,
// organization (and its name), the sections a portal shows and the page it starts on, and the
// organization's theme. An issued session (a link's) is read from the table; an identity provider's JWT
// is verified as the authorizers verify it.
import { decodeJwt } from 'jose';
import { isoTime } from '../../platform/clock';
import type { Clock } from '../../platform/clock';
import {
  consoleSessionConfig,
  looksLikeConsoleSession,
  remoteKeys,
  verifyConsoleSession,
} from '../../platform/console-sessions';
import { AuthInvalidError } from '../../platform/errors';
import type { PortalSection, SessionGrant } from '../../platform/portal-sessions';
import { PORTAL_SECTIONS, issuedSessionPrincipalId } from '../../platform/portal-sessions';
import { DEFAULT_PORTAL_SETTINGS } from '../domain/portal';
import type { DirectoryRepositories } from '../infra/repositories';
import { Portal } from './portal';

export interface CurrentSession {
  kind: 'portal' | 'console';
  role: SessionGrant['role'];
  organizationId: string;
  organizationName: string | null;
  userId: string;
  expiresAt: string;
  sections: PortalSection[];
  home: string;
  theme: { brandColor: string | null; logoUrl: string | null; appearance: 'light' | 'dark' | 'system' };
}

/** The console page a session starts on: its first section. */
export const sessionHome = (grant: SessionGrant): string =>
  grant.kind === 'portal' && !grant.sections.includes('webhooks') ? '#/connections' : '#/webhooks';

export async function currentSession(
  repositories: DirectoryRepositories,
  clock: Clock,
  token: string,
): Promise<CurrentSession | undefined> {
  const portal = new Portal(repositories, clock);
  if (looksLikeConsoleSession(token)) {
    const config = consoleSessionConfig();
    const session = await verifyConsoleSession(token, {
      keys: remoteKeys(config.jwksUrl),
      issuer: config.issuer,
      audience: config.audience,
      clock,
    }).catch((error: unknown) => {
      if (error instanceof AuthInvalidError) return undefined;
      throw error;
    });
    if (!session) return undefined;
    return {
      kind: 'console',
      role: session.role,
      organizationId: session.organizationId,
      organizationName: (await portal.organizationName(session.organizationId)) ?? null,
      userId: session.userId,
      expiresAt: isoTime((decodeJwt(token).exp ?? 0) * 1000),
      sections: [...PORTAL_SECTIONS],
      home: '#/webhooks',
      theme: { brandColor: null, logoUrl: null, appearance: DEFAULT_PORTAL_SETTINGS.appearance },
    };
  }
  const session = await portal.authenticate(token);
  if (!session) return undefined;
  const { grant } = session;
  const settings =
    grant.kind === 'portal' ? await portal.settings(grant.organizationId) : DEFAULT_PORTAL_SETTINGS;
  return {
    kind: grant.kind,
    role: grant.role,
    organizationId: grant.organizationId,
    organizationName: (await portal.organizationName(grant.organizationId)) ?? null,
    userId: grant.user ?? issuedSessionPrincipalId(session.id),
    expiresAt: isoTime(session.expiresAt),
    sections: grant.kind === 'portal' ? grant.sections : [...PORTAL_SECTIONS],
    home: sessionHome(grant),
    theme: {
      brandColor: settings.brandColor ?? null,
      logoUrl: settings.logoUrl ?? null,
      appearance: settings.appearance,
    },
  };
}
