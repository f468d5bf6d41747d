import { consoleRoute } from '../../../platform/http';
import { APPLICATION_ROUTE } from '../routes';
import { KeyBindings } from '../../app/bindings';
import { directoryRepositories } from '../../infra/repositories';

export const create = consoleRoute(
  APPLICATION_ROUTE.unbindApplicationKey,
  async ({ deps, session, path }) => {
    await new KeyBindings(directoryRepositories(deps), deps.clock).unbind(session, path.id, path.keyId);
    return { status: 204 };
  },
);
