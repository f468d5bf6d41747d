// Organizations, API keys and applications: the tenancy every route runs under. Stored through the
// area's repositories (infra/repositories/), which own the key formats.
import { generateApiKey, parseApiKey, secretMatches } from '../../platform/api-keys';
import type { Clock } from '../../platform/clock';
import { InvalidRequestError, NotFoundError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { Permission } from '../../platform/permissions';
import { PERMISSIONS, isPermission } from '../../platform/permissions';
import type { Principal } from '../../platform/principal';
import type { ApiKeyRecord, Application, Organization, StoredApiKey } from '../domain/records';
import type { DirectoryRepositories } from '../infra/repositories';

export type { Principal } from '../../platform/principal';
export type { ApiKeyRecord, Application, Organization } from '../domain/records';

/** The key without the hash of its secret. */
const keyRecord = ({ secretHash: _secretHash, ...record }: StoredApiKey): ApiKeyRecord => record;

export class Directory {
  constructor(
    private readonly repositories: DirectoryRepositories,
    private readonly clock: Clock,
  ) {}

  async createOrganization(name: string, options: { platform?: boolean } = {}): Promise<Organization> {
    const org: Organization = {
      id: newId('org'),
      name,
      createdAt: this.clock.now(),
      ...(options.platform ? { platform: true as const } : {}),
    };
    await this.repositories.organizations.create(org);
    return org;
  }

  async getOrganization(id: string): Promise<Organization | undefined> {
    return this.repositories.organizations.get(id);
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
    const item: StoredApiKey = {
      id: generated.keyId,
      organizationId: input.organizationId,
      name: input.name,
      permissions: [...new Set(input.permissions)] as Permission[],
      system: input.system ?? false,
      createdAt,
      secretHash: generated.secretHash,
    };
    await this.repositories.apiKeys.create(item);
    return { key: keyRecord(item), apiKey: generated.apiKey };
  }

  async getApiKey(keyId: string): Promise<ApiKeyRecord | undefined> {
    const item = await this.repositories.apiKeys.get(keyId);
    return item ? keyRecord(item) : undefined;
  }

  async listApiKeys(organizationId: string): Promise<ApiKeyRecord[]> {
    return (await this.repositories.apiKeys.listForOrganization(organizationId)).map(keyRecord);
  }

  /**
   * Revokes a key and removes its application binding in the same call: a revoked key is no
   * application's credential any more, and the console must not list it as one. The result names
   * the application it was unbound from. A repeat (already revoked) still removes a left-over binding.
   */
  async revokeApiKey(keyId: string): Promise<ApiKeyRecord & { unboundFromApplicationId: string | null }> {
    const current = await this.repositories.apiKeys.get(keyId);
    if (!current) throw new NotFoundError('API key not found');
    const record = keyRecord(
      current.revokedAt ? current : await this.repositories.apiKeys.markRevoked(keyId, this.clock.now()),
    );
    const binding = await this.repositories.bindings.deleteAny(keyId);
    return { ...record, unboundFromApplicationId: binding?.applicationId ?? null };
  }

  /** The principal a presented key stands for, or undefined for anything not a live key. */
  async authenticate(presented: string): Promise<Principal | undefined> {
    const parsed = parseApiKey(presented);
    if (!parsed) return undefined;
    const item = await this.repositories.apiKeys.get(parsed.keyId);
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
    await this.repositories.applications.create(app);
    return app;
  }

  async getApplication(id: string): Promise<Application | undefined> {
    return this.repositories.applications.get(id);
  }

  async listApplications(organizationId: string): Promise<Application[]> {
    return this.repositories.applications.listForOrganization(organizationId);
  }
}
