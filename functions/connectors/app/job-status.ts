// GET /connectors/jobs/{id}: any connector job of the organization, in the view of its kind.
import type { Deps } from '../../platform/ports';
import { NotFoundError } from '../../platform/errors';
import type { ConnectorJob } from '../api/views';
import type { ExportJobRecord } from './exports';
import { exportView } from './exports';
import { JobRepository } from '../infra/repositories/jobs';
import type { JobRecord as PurgeJobRecord } from './purge';
import { purgeJobView } from './purge';
import type { SyncJobRecord } from './sync-runs';
import { syncRunView } from './sync-runs';

export async function getConnectorJob(
  deps: Pick<Deps, 'tables' | 'workflows'>,
  organizationId: string,
  id: string,
): Promise<ConnectorJob> {
  const job = await JobRepository.of(deps).find<PurgeJobRecord | SyncJobRecord | ExportJobRecord>(
    organizationId,
    id,
  );
  if (!job) throw new NotFoundError('Job not found');
  switch (job.kind) {
    case 'purge':
      return purgeJobView(deps, job);
    case 'sync':
      return syncRunView(job);
    case 'export':
      return exportView(job);
  }
}
