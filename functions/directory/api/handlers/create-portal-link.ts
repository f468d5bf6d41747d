// POST /connectors/v1/portal/links: a one-time link for a grant; its secret travels in the fragment.
import { isoTime } from '../../../platform/clock';
import { InvalidRequestError } from '../../../platform/errors';
import { apiRoute } from '../../../platform/http';
import { grantFrom } from '../../app/portal-grant';
import { Portal } from '../../app/portal';
import { directoryRepositories } from '../../infra/repositories';
import { PORTAL_ROUTE } from '../portal-routes';
import { consoleOrigin } from '../session-web';

export const create = apiRoute(PORTAL_ROUTE.createPortalLink, async ({ deps, principal, body, event }) => {
  const grant = grantFrom(principal, body);
  if (typeof grant === 'string') throw new InvalidRequestError(grant);
  const minted = await new Portal(directoryRepositories(deps), deps.clock).mintLink(principal, grant, {
    linkTtlSeconds: body.link_ttl_seconds,
    sessionTtlSeconds: body.session_ttl_seconds,
  });
  return {
    status: 201,
    body: {
      id: minted.id,
      url: `${consoleOrigin(event)}/connectors/v1/session/open/${minted.id}#${minted.token}`,
      expires_at: isoTime(minted.expiresAt),
    },
  };
});
