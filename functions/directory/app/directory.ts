// Organizations, API keys and applications: the tenancy every route runs under.
import { generateApiKey, parseApiKey, secretMatches } from '../../platform/api-keys';
import type { Clock } from '../../platform/clock';
import { isoTime } from '../../platform/clock';
import { InvalidRequestError, NotFoundError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { queryAll } from '../../platform/pagination';
import type { Permission } from '../../platform/permissions';
import { PERMISSIONS, isPermission } from '../../platform/permissions';
import type { Item, Table } from '../../platform/ports';
import type { Principal } from '../../platform/principal';
import { organizationKey } from '../../platform/tenancy';

export type { Principal } from '../../platform/principal';

export interface Organization {
  id: string;
  name: string;
  createdAt: number;
  /** The platform's own organization holds the system keys platform services publish with. */
  platform?: true;
}

export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  name: string;
  permissions: Permission[];
  system: boolean;
  createdAt: number;
  revokedAt?: number;
}

export interface Application {
  id: string;
  organizationId: string;
  name: string;
  createdAt: number;
}

interface KeyItem extends Item, ApiKeyRecord {
  secretHash: string;
}

const orgKey = organizationKey;
const apiKeyKey = (id: string) => ({ pk: `KEY#${id}`, sk: 'KEY' });
const appKey = (id: string) => ({ pk: `APP#${id}`, sk: 'APP' });

const keyRecord = ({
  id,
  organizationId,
  name,
  permissions,
  system,
  createdAt,
  revokedAt,
}: KeyItem): ApiKeyRecord => ({
  id,
  organizationId,
  name,
  permissions,
  system,
  createdAt,
  ...(revokedAt ? { revokedAt } : {}),
});

export class Directory {
  constructor(
    private readonly table: Table,
    private readonly clock: Clock,
  ) {}

  async createOrganization(name: string, options: { platform?: boolean } = {}): Promise<Organization> {
    const org: Organization = {
      id: newId('org'),
      name,
      createdAt: this.clock.now(),
      ...(options.platform ? { platform: true as const } : {}),
    };
    await this.table.put({ ...orgKey(org.id), ...org }, { itemExists: false });
    return org;
  }

  async getOrganization(id: string): Promise<Organization | undefined> {
    const item = await this.table.get<Item & Organization>(orgKey(id));
    if (!item) return undefined;
    return {
      id: item.id,
      name: item.name,
      createdAt: item.createdAt,
      ...(item.platform ? { platform: true as const } : {}),
    };
  }

  async createApiKey(input: {
    organizationId: string;
    name: string;
    permissions: string[];
    system?: boolean;
    /** A system key in a customer organization, bound to publish into that organization only. */
    orgBound?: boolean;
  }): Promise<{ key: ApiKeyRecord; apiKey: string }> {
    const organization = await this.getOrganization(input.organizationId);
    if (!organization) throw new NotFoundError('Organization not found');
    // A system key publishes for the platform; minted into a customer organization only on request,
    // and then it publishes into that organization alone (see publish-scope.ts).
    if (input.system && !organization.platform && !input.orgBound) {
      throw new InvalidRequestError(
        'A system key belongs to a platform organization (create-org --platform); pass --org-bound to bind one to this customer organization',
      );
    }
    const unknown = input.permissions.filter((p) => !isPermission(p));
    if (unknown.length) {
      throw new InvalidRequestError(
        `Unknown permissions: ${unknown.join(', ')}; known: ${PERMISSIONS.join(', ')}`,
      );
    }
    const generated = generateApiKey();
    const createdAt = this.clock.now();
    const item: KeyItem = {
      ...apiKeyKey(generated.keyId),
      gsi1pk: `ORG#${input.organizationId}#KEYS`,
      gsi1sk: `${isoTime(createdAt)}#${generated.keyId}`,
      id: generated.keyId,
      organizationId: input.organizationId,
      name: input.name,
      permissions: [...new Set(input.permissions)] as Permission[],
      system: input.system ?? false,
      createdAt,
      secretHash: generated.secretHash,
    };
    await this.table.put(item, { itemExists: false });
    return { key: keyRecord(item), apiKey: generated.apiKey };
  }

  async getApiKey(keyId: string): Promise<ApiKeyRecord | undefined> {
    const item = await this.table.get<KeyItem>(apiKeyKey(keyId));
    return item ? keyRecord(item) : undefined;
  }

  async listApiKeys(organizationId: string): Promise<ApiKeyRecord[]> {
    const items = await queryAll<KeyItem>(this.table, {
      index: 'gsi1',
      partition: `ORG#${organizationId}#KEYS`,
    });
    return items.map(keyRecord);
  }

  /**
   * Revokes a key and removes its application binding in the same call: a revoked key is no
   * application's credential any more, and the console must not list it as one. The result names
   * the application it was unbound from. A repeat (already revoked) still removes a left-over binding.
   */
  async revokeApiKey(keyId: string): Promise<ApiKeyRecord & { unboundFromApplicationId: string | null }> {
    const current = await this.table.get<KeyItem>(apiKeyKey(keyId));
    if (!current) throw new NotFoundError('API key not found');
    const record = current.revokedAt
      ? keyRecord(current)
      : keyRecord(
          await this.table.update<KeyItem>(
            apiKeyKey(keyId),
            { set: { revokedAt: this.clock.now() } },
            { itemExists: true },
          ),
        );
    // The binding item (bindings.ts) lives beside the key: pk KEY#<id>, sk BINDING.
    const bindingKey = { pk: apiKeyKey(keyId).pk, sk: 'BINDING' };
    const binding = await this.table.get<Item & { applicationId: string }>(bindingKey);
    if (binding) await this.table.delete(bindingKey);
    return { ...record, unboundFromApplicationId: binding?.applicationId ?? null };
  }

  /** The principal a presented key stands for, or undefined for anything not a live key. */
  async authenticate(presented: string): Promise<Principal | undefined> {
    const parsed = parseApiKey(presented);
    if (!parsed) return undefined;
    const item = await this.table.get<KeyItem>(apiKeyKey(parsed.keyId));
    if (!item || !secretMatches(parsed.secret, item.secretHash) || item.revokedAt) return undefined;
    return {
      organizationId: item.organizationId,
      keyId: item.id,
      permissions: item.permissions,
      system: item.system,
    };
  }

  async createApplication(organizationId: string, name: string): Promise<Application> {
    if (!(await this.getOrganization(organizationId))) throw new NotFoundError('Organization not found');
    const app: Application = { id: newId('app'), organizationId, name, createdAt: this.clock.now() };
    await this.table.put(
      {
        ...appKey(app.id),
        gsi1pk: `ORG#${organizationId}#APPS`,
        gsi1sk: `${app.createdAt}#${app.id}`,
        ...app,
      },
      { itemExists: false },
    );
    return app;
  }

  async getApplication(id: string): Promise<Application | undefined> {
    const item = await this.table.get<Item & Application>(appKey(id));
    return item
      ? { id: item.id, organizationId: item.organizationId, name: item.name, createdAt: item.createdAt }
      : undefined;
  }

  async listApplications(organizationId: string): Promise<Application[]> {
    const items = await queryAll<Item & Application>(this.table, {
      index: 'gsi1',
      partition: `ORG#${organizationId}#APPS`,
    });
    return items.map(({ id, name, createdAt }) => ({ id, organizationId, name, createdAt }));
  }
}
