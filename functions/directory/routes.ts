// Application routes (section of the route table in ../routes.ts): key bindings, called from the
// console with a console session, never with an API key.
import type { RouteDefinition } from '../platform/route-types';

const APPLICATION_KEY = '/connectors/v1/applications/{id}/keys/{keyId}';

export const APPLICATION_ROUTES: RouteDefinition[] = [
  {
    id: 'bindApplicationKey',
    method: 'PUT',
    path: APPLICATION_KEY,
    handler: 'directory/handlers/bind-key',
    auth: 'console',
    summary: 'Bind a connector API key to an application (owner or admin console session); idempotent',
    uses: { tables: { platform: 'write' } },
  },
  {
    id: 'unbindApplicationKey',
    method: 'DELETE',
    path: APPLICATION_KEY,
    handler: 'directory/handlers/unbind-key',
    auth: 'console',
    summary: 'Remove the binding of an API key to an application, for rotation (owner or admin session)',
    uses: { tables: { platform: 'write' } },
  },
];
