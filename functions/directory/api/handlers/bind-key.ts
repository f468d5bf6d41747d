import { consoleRoute } from '../../../platform/http';
import { APPLICATION_ROUTE } from '../routes';
import { KeyBindings, bindingBody } from '../../app/bindings';
import { directoryRepositories } from '../../infra/repositories';

export const create = consoleRoute(APPLICATION_ROUTE.bindApplicationKey, async ({ deps, session, path }) => {
  const binding = await new KeyBindings(directoryRepositories(deps), deps.clock).bind(
    session,
    path.id,
    path.keyId,
  );
  return { status: 200, body: bindingBody(binding) };
});
