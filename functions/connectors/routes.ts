// Connector routes (section of the route table in ../routes.ts).
import type { RouteDefinition } from '../platform/route-types';

export const CONNECTOR_ROUTES: RouteDefinition[] = [
  {
    id: 'listProviders',
    method: 'GET',
    path: '/connectors/v1/providers',
    handler: 'connectors/handlers/list-providers',
    auth: 'apiKey',
    permission: 'connectors:read',
    summary: 'List the providers, their scope tiers, and whether each is enabled for the organization',
    uses: { tables: { connectors: 'read' } },
  },
];
