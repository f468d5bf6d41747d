import { loopbackAllowed } from '../../platform/config';
import { apiRoute } from '../../platform/http';
import { sendTestEvent } from '../endpoints';
import { endpointPath } from '../schemas';

// The route's Lambda runs for 10 s, so the attempt gets 8 s here rather than the pipeline's 15 s.
const TEST_ATTEMPT_TIMEOUT_MS = 8_000;

export const handler = apiRoute(
  'testWebhookEndpoint',
  { path: endpointPath },
  async ({ deps, principal, path }) => ({
    status: 200,
    body: await sendTestEvent(deps, principal.organizationId, path.id, {
      allowLoopback: loopbackAllowed(),
      timeoutMs: TEST_ATTEMPT_TIMEOUT_MS,
    }),
  }),
);
