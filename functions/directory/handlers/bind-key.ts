import { consoleRoute } from '../../platform/http';
import { KeyBindings, bindingBody } from '../bindings';
import { applicationKeyPath } from '../schemas';

export const handler = consoleRoute(
  'bindApplicationKey',
  { path: applicationKeyPath },
  async ({ deps, session, path }) => {
    const binding = await new KeyBindings(deps.tables.platform, deps.clock).bind(
      session,
      path.id,
      path.keyId,
    );
    return { status: 200, body: bindingBody(binding) };
  },
);
