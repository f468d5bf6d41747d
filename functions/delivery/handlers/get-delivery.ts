import { apiRoute } from '../../platform/http';
import { getDeliveryWithAttempts } from '../history';
import { idPath } from '../schemas';

export const handler = apiRoute(
  'getWebhookDelivery',
  { path: idPath },
  async ({ deps, principal, path }) => ({
    status: 200,
    body: await getDeliveryWithAttempts(deps, principal.organizationId, path.id),
  }),
);
