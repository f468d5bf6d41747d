// Applications in the platform table: pk APP#<id>, sk APP; gsi1 lists an organization's applications
// by creation time (ORG#<org>#APPS, <epoch ms>#<id>).
import { queryAll } from '../../../platform/pagination';
import type { Item, Table } from '../../../platform/ports';
import type { Application } from '../../domain/records';

type ApplicationItem = Item & Application;

const appKey = (id: string) => ({ pk: `APP#${id}`, sk: 'APP' });

export class ApplicationRepository {
  constructor(private readonly table: Table) {}

  /** Fails with ConditionFailedError when the id is taken. */
  async create(app: Application): Promise<void> {
    await this.table.put(
      {
        ...appKey(app.id),
        gsi1pk: `ORG#${app.organizationId}#APPS`,
        gsi1sk: `${app.createdAt}#${app.id}`,
        ...app,
      },
      { itemExists: false },
    );
  }

  async get(id: string): Promise<Application | undefined> {
    const item = await this.table.get<ApplicationItem>(appKey(id));
    return item
      ? { id: item.id, organizationId: item.organizationId, name: item.name, createdAt: item.createdAt }
      : undefined;
  }

  async listForOrganization(organizationId: string): Promise<Application[]> {
    const items = await queryAll<ApplicationItem>(this.table, {
      index: 'gsi1',
      partition: `ORG#${organizationId}#APPS`,
    });
    return items.map(({ id, name, createdAt }) => ({ id, organizationId, name, createdAt }));
  }
}
