// Where an organization's record lives in the platform table: the directory writes it, and a route
// that takes an organization id from a caller it trusts (the system-key publish route) checks it here.
import type { Item, Table } from './ports';

export const organizationKey = (id: string) => ({ pk: `ORG#${id}`, sk: 'ORG' });

export interface OrganizationRecord {
  id: string;
  /** The platform's own organization (its system keys publish into every organization). */
  platform?: boolean;
}

export async function organizationRecord(
  platform: Table,
  id: string,
): Promise<OrganizationRecord | undefined> {
  return platform.get<OrganizationRecord & Item>(organizationKey(id));
}
