// Application routes (section of the route table in ../routes.ts): key bindings, called from the
// console with a console session, never with an API key.
import type { RouteDefinition } from '../../platform/route-types';
import { paginationQuery } from '../../platform/pagination-query';
import { applicationListView, keyBindingView } from './views';
import { applicationKeyPath } from './schemas';

const APPLICATION_KEY = '/connectors/v1/applications/{id}/keys/{keyId}';

/** Keyed by route id, so a handler names its entry (and gets the types of its schemas). */
export const APPLICATION_ROUTE = {
  listApplications: {
    id: 'listApplications',
    method: 'GET',
    path: '/connectors/v1/applications',
    handler: 'directory/api/handlers/list-applications',
    auth: 'console',
    summary:
      "The organization's applications with the keys bound to each, and its API keys with where each is bound (any console role)",
    request: {
      get query() {
        return paginationQuery();
      },
    },
    responses: {
      200: {
        description: 'A page of applications, and every key of the organization',
        get schema() {
          return applicationListView();
        },
      },
    },
    uses: { tables: { platform: 'read' } },
  },
  bindApplicationKey: {
    id: 'bindApplicationKey',
    method: 'PUT',
    path: APPLICATION_KEY,
    handler: 'directory/api/handlers/bind-key',
    auth: 'console',
    summary: 'Bind a connector API key to an application (owner or admin console session); idempotent',
    request: { path: applicationKeyPath },
    responses: {
      200: {
        description: 'The binding: id, application_id, api_key_id',
        get schema() {
          return keyBindingView();
        },
      },
      409: { description: 'The key is bound to another application (CONFLICT)' },
    },
    uses: { tables: { platform: 'write' } },
  },
  unbindApplicationKey: {
    id: 'unbindApplicationKey',
    method: 'DELETE',
    path: APPLICATION_KEY,
    handler: 'directory/api/handlers/unbind-key',
    auth: 'console',
    summary: 'Remove the binding of an API key to an application, for rotation (owner or admin session)',
    request: { path: applicationKeyPath },
    responses: { 204: { description: 'Unbound' } },
    uses: { tables: { platform: 'write' } },
  },
} satisfies Record<string, RouteDefinition>;

export const APPLICATION_ROUTES: RouteDefinition[] = Object.values(APPLICATION_ROUTE);
