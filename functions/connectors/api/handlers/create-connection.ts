import { apiRoute, publicBaseUrl } from '../../../platform/http';
import { createOnce } from '../../infra/repositories/connections';
import { createConnectionRoute } from '../routes';
import { createConnection, reissueConnectLink } from '../../app/connections';

export const create = apiRoute(createConnectionRoute, async ({ body, headers, deps, event, principal }) => {
  const baseUrl = publicBaseUrl(event);
  let created: Awaited<ReturnType<typeof createConnection>> | undefined;
  // Only the connection id is kept for a retry: the link's token is a secret, stored as a hash.
  const { stored, replayed } = await createOnce(
    deps,
    {
      keyId: principal.keyId,
      route: createConnectionRoute.id,
      key: headers['Idempotency-Key'],
      request: body,
    },
    async () => {
      created = await createConnection(deps, principal.organizationId, body, baseUrl);
      return { connection_id: created.connection_id };
    },
  );
  return {
    status: 201,
    body:
      replayed || !created
        ? await reissueConnectLink(deps, principal.organizationId, stored.connection_id, baseUrl)
        : created,
    ...(replayed ? { headers: { 'Idempotent-Replayed': 'true' } } : {}),
  };
});
