// The Microsoft Graph routes of the OneDrive fake (under /microsoft). Milestone 1: `/v1.0/me` (the
// account); drives, driveItems, delta, content and upload sessions follow.
import { sendJson } from '../../content/http';
import type { FakeRoute } from '../fake';

export function graphRoutes(): FakeRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1.0/me',
      scopes: ['User.Read'],
      handle: ({ grant, response }) =>
        sendJson(response, 200, {
          '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#users/$entity',
          id: grant.accountId,
          displayName: grant.name,
          mail: grant.email || null,
          userPrincipalName: grant.email || `${grant.accountId}@example.onmicrosoft.com`,
        }),
    },
  ];
}
