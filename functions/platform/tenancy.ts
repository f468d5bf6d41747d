// Where an organization's record lives in the platform table: the directory writes it, and a route
// that takes an organization id from a caller it trusts (the system-key publish route) checks it here.
import type { Table } from './ports';

export const organizationKey = (id: string) => ({ pk: `ORG#${id}`, sk: 'ORG' });

export async function organizationExists(platform: Table, id: string): Promise<boolean> {
  return (await platform.get(organizationKey(id))) !== undefined;
}
