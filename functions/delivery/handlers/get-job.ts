import { apiRoute } from '../../platform/http';
import { getJob } from '../replay';
import { idPath } from '../schemas';

export const handler = apiRoute('getWebhookJob', { path: idPath }, async ({ deps, principal, path }) => ({
  status: 200,
  body: await getJob(deps, principal.organizationId, path.id),
}));
