// Key bindings in the platform table, one item per API key beside the key (pk KEY#<key id>, sk
// BINDING): the conditional put on this one item is what makes a key single-bound. gsi1 lists an
// application's bound keys (APP#<app>#KEYS, <key id>).
import { queryAll } from '../../../platform/pagination';
import type { Item, Table } from '../../../platform/ports';
import type { KeyBinding } from '../../domain/records';
import { apiKeyKey } from './api-keys';

type BindingItem = Item & KeyBinding;

const bindingKey = (apiKeyId: string) => ({ pk: apiKeyKey(apiKeyId).pk, sk: 'BINDING' });
const applicationKeys = (applicationId: string) => `APP#${applicationId}#KEYS`;

const bindingOf = ({
  id,
  applicationId,
  apiKeyId,
  organizationId,
  createdAt,
  createdBy,
}: BindingItem): KeyBinding => ({ id, applicationId, apiKeyId, organizationId, createdAt, createdBy });

export class KeyBindingRepository {
  constructor(private readonly table: Table) {}

  /** Fails with ConditionFailedError when the key is bound already (to any application). */
  async create(binding: KeyBinding): Promise<void> {
    await this.table.put(
      {
        ...bindingKey(binding.apiKeyId),
        gsi1pk: applicationKeys(binding.applicationId),
        gsi1sk: binding.apiKeyId,
        ...binding,
      },
      { itemExists: false },
    );
  }

  async get(apiKeyId: string): Promise<KeyBinding | undefined> {
    const item = await this.table.get<BindingItem>(bindingKey(apiKeyId));
    return item ? bindingOf(item) : undefined;
  }

  /** Removes the key's binding if it is to this application; ConditionFailedError otherwise. */
  async deleteIfBoundTo(apiKeyId: string, applicationId: string): Promise<void> {
    await this.table.delete(bindingKey(apiKeyId), { attr: 'applicationId', op: '=', value: applicationId });
  }

  /** Removes the key's binding, whatever its application; answers the binding it removed, if any. */
  async deleteAny(apiKeyId: string): Promise<KeyBinding | undefined> {
    const existing = await this.get(apiKeyId);
    if (existing) await this.table.delete(bindingKey(apiKeyId));
    return existing;
  }

  async listForApplication(applicationId: string): Promise<KeyBinding[]> {
    const items = await queryAll<BindingItem>(this.table, {
      index: 'gsi1',
      partition: applicationKeys(applicationId),
    });
    return items.map(bindingOf);
  }
}
