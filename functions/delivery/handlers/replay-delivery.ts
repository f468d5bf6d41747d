import { apiRoute } from '../../platform/http';
import { replayDelivery } from '../replay';
import { idPath } from '../schemas';

export const handler = apiRoute(
  'replayWebhookDelivery',
  { path: idPath },
  async ({ deps, principal, path }) => ({
    status: 202,
    body: await replayDelivery(deps, principal.organizationId, path.id),
  }),
);
