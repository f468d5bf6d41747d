// API keys in the platform table: pk KEY#<id>, sk KEY; gsi1 lists an organization's keys by creation
// time (ORG#<org>#KEYS, <iso time>#<id>).
import { isoTime } from '../../../platform/clock';
import { queryAll } from '../../../platform/pagination';
import type { Item, Table } from '../../../platform/ports';
import type { StoredApiKey } from '../../domain/records';

type KeyItem = Item & StoredApiKey;

export const apiKeyKey = (id: string) => ({ pk: `KEY#${id}`, sk: 'KEY' });

const stored = ({
  id,
  organizationId,
  name,
  permissions,
  system,
  createdAt,
  revokedAt,
  secretHash,
}: KeyItem): StoredApiKey => ({
  id,
  organizationId,
  name,
  permissions,
  system,
  createdAt,
  ...(revokedAt ? { revokedAt } : {}),
  secretHash,
});

export class ApiKeyRepository {
  constructor(private readonly table: Table) {}

  /** Fails with ConditionFailedError when the id is taken. */
  async create(key: StoredApiKey): Promise<void> {
    await this.table.put(
      {
        ...apiKeyKey(key.id),
        gsi1pk: `ORG#${key.organizationId}#KEYS`,
        gsi1sk: `${isoTime(key.createdAt)}#${key.id}`,
        ...key,
      },
      { itemExists: false },
    );
  }

  async get(id: string): Promise<StoredApiKey | undefined> {
    const item = await this.table.get<KeyItem>(apiKeyKey(id));
    return item ? stored(item) : undefined;
  }

  async listForOrganization(organizationId: string): Promise<StoredApiKey[]> {
    const items = await queryAll<KeyItem>(this.table, {
      index: 'gsi1',
      partition: `ORG#${organizationId}#KEYS`,
    });
    return items.map(stored);
  }

  /** Sets the revocation time of an existing key; NotFound-style ConditionFailedError when there is none. */
  async markRevoked(id: string, at: number): Promise<StoredApiKey> {
    return stored(
      await this.table.update<KeyItem>(apiKeyKey(id), { set: { revokedAt: at } }, { itemExists: true }),
    );
  }
}
