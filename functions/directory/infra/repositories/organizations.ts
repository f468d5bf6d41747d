// Organizations in the platform table: pk ORG#<id>, sk ORG (the key platform/tenancy.ts reads too).
import type { Item, Table } from '../../../platform/ports';
import { organizationKey } from '../../../platform/tenancy';
import type { Organization } from '../../domain/records';

export class OrganizationRepository {
  constructor(private readonly table: Table) {}

  /** Fails with ConditionFailedError when the id is taken. */
  async create(org: Organization): Promise<void> {
    await this.table.put({ ...organizationKey(org.id), ...org }, { itemExists: false });
  }

  async get(id: string): Promise<Organization | undefined> {
    const item = await this.table.get<Item & Organization>(organizationKey(id));
    if (!item) return undefined;
    return {
      id: item.id,
      name: item.name,
      createdAt: item.createdAt,
      ...(item.platform ? { platform: true as const } : {}),
    };
  }
}
