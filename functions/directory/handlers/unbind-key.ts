import { consoleRoute } from '../../platform/http';
import { KeyBindings } from '../bindings';
import { applicationKeyPath } from '../schemas';

export const handler = consoleRoute(
  'unbindApplicationKey',
  { path: applicationKeyPath },
  async ({ deps, session, path }) => {
    await new KeyBindings(deps.tables.platform, deps.clock).unbind(session, path.id, path.keyId);
    return { status: 204 };
  },
);
