import { consoleRoute } from '../../../platform/http';
import { APPLICATION_ROUTE } from '../routes';
import { KeyBindings, bindingBody } from '../../app/bindings';

export const create = consoleRoute(APPLICATION_ROUTE.bindApplicationKey, async ({ deps, session, path }) => {
  const binding = await new KeyBindings(deps.tables.platform, deps.clock).bind(session, path.id, path.keyId);
  return { status: 200, body: bindingBody(binding) };
});
