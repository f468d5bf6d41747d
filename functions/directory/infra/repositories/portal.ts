// Portal links, sessions and settings in the platform table. A link: pk PORTAL_LINK#<id>, sk LINK. A
// session: pk PORTAL_SESSION#<id>, sk SESSION, gsi1 lists an organization's sessions by creation time
// (ORG#<org>#PORTAL_SESSIONS, <iso time>#<id>). Settings: pk ORG#<org>, sk PORTAL. Links and sessions
// carry the table's TTL a day past their expiry; readers check expiry themselves.
import { isoTime } from '../../../platform/clock';
import { ConditionFailedError } from '../../../platform/errors';
import { queryAll } from '../../../platform/pagination';
import type { Item, Table } from '../../../platform/ports';
import type { PortalLink, PortalSession, PortalSettings } from '../../domain/portal';
import { DEFAULT_PORTAL_SETTINGS } from '../../domain/portal';

const linkKey = (id: string) => ({ pk: `PORTAL_LINK#${id}`, sk: 'LINK' });
const sessionKey = (id: string) => ({ pk: `PORTAL_SESSION#${id}`, sk: 'SESSION' });
const settingsKey = (organizationId: string) => ({ pk: `ORG#${organizationId}`, sk: 'PORTAL' });
const DAY_SECONDS = 24 * 3600;
const ttlAfter = (expiresAt: number) => Math.ceil(expiresAt / 1000) + DAY_SECONDS;

type LinkItem = Item & PortalLink;
type SessionItem = Item & PortalSession;

const link = (item: LinkItem): PortalLink => ({
  id: item.id,
  grant: item.grant,
  secretHash: item.secretHash,
  createdAt: item.createdAt,
  expiresAt: item.expiresAt,
  sessionTtlSeconds: item.sessionTtlSeconds,
  createdBy: item.createdBy,
  ...(item.consumedAt !== undefined ? { consumedAt: item.consumedAt } : {}),
});

const session = (item: SessionItem): PortalSession => ({
  id: item.id,
  grant: item.grant,
  secretHash: item.secretHash,
  linkId: item.linkId,
  createdAt: item.createdAt,
  expiresAt: item.expiresAt,
  ...(item.revokedAt !== undefined ? { revokedAt: item.revokedAt } : {}),
});

export class PortalRepository {
  constructor(private readonly table: Table) {}

  async createLink(value: PortalLink): Promise<void> {
    await this.table.put(
      { ...linkKey(value.id), ...value, ttl: ttlAfter(value.expiresAt) },
      { itemExists: false },
    );
  }

  async getLink(id: string): Promise<PortalLink | undefined> {
    const item = await this.table.get<LinkItem>(linkKey(id));
    return item ? link(item) : undefined;
  }

  /**
   * Marks the link used, only if it exists, is unused and unexpired at `now`: of two openings at once,
   * one wins. False when the condition did not hold.
   */
  async consumeLink(id: string, now: number): Promise<boolean> {
    try {
      await this.table.update(
        linkKey(id),
        { set: { consumedAt: now } },
        {
          and: [
            { itemExists: true },
            { attr: 'consumedAt', exists: false },
            { attr: 'expiresAt', op: '>', value: now },
          ],
        },
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionFailedError) return false;
      throw error;
    }
  }

  async createSession(value: PortalSession): Promise<void> {
    await this.table.put(
      {
        ...sessionKey(value.id),
        gsi1pk: `ORG#${value.grant.organizationId}#PORTAL_SESSIONS`,
        gsi1sk: `${isoTime(value.createdAt)}#${value.id}`,
        ...value,
        ttl: ttlAfter(value.expiresAt),
      },
      { itemExists: false },
    );
  }

  async getSession(id: string): Promise<PortalSession | undefined> {
    const item = await this.table.get<SessionItem>(sessionKey(id));
    return item ? session(item) : undefined;
  }

  async listSessions(organizationId: string): Promise<PortalSession[]> {
    const items = await queryAll<SessionItem>(this.table, {
      index: 'gsi1',
      partition: `ORG#${organizationId}#PORTAL_SESSIONS`,
    });
    return items.map(session);
  }

  /** Sets the revocation time of an existing, unrevoked session; false when there is none such. */
  async revokeSession(id: string, at: number): Promise<boolean> {
    try {
      await this.table.update(
        sessionKey(id),
        { set: { revokedAt: at } },
        { and: [{ itemExists: true }, { attr: 'revokedAt', exists: false }] },
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionFailedError) return false;
      throw error;
    }
  }

  async getSettings(organizationId: string): Promise<PortalSettings> {
    const item = await this.table.get<Item & PortalSettings>(settingsKey(organizationId));
    if (!item) return DEFAULT_PORTAL_SETTINGS;
    return {
      frameAncestors: item.frameAncestors ?? [],
      appearance: item.appearance ?? 'system',
      ...(item.brandColor ? { brandColor: item.brandColor } : {}),
      ...(item.logoUrl ? { logoUrl: item.logoUrl } : {}),
    };
  }

  async putSettings(organizationId: string, settings: PortalSettings): Promise<void> {
    await this.table.put({ ...settingsKey(organizationId), organizationId, ...settings });
  }
}
