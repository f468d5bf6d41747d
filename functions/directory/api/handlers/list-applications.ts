// GET /connectors/v1/applications: what the console's applications page shows — each application with
// its bound keys, and each key of the organization with the application it is bound to (or none).
import { isoTime } from '../../../platform/clock';
import { consoleRoute } from '../../../platform/http';
import { APPLICATION_ROUTE } from '../routes';
import { Directory } from '../../app/directory';
import { KeyBindings } from '../../app/bindings';
import { directoryRepositories } from '../../infra/repositories';

export const create = consoleRoute(APPLICATION_ROUTE.listApplications, async ({ deps, session, query }) => {
  const directory = new Directory(directoryRepositories(deps), deps.clock);
  const bindings = new KeyBindings(directoryRepositories(deps), deps.clock);
  const [applications, keys] = await Promise.all([
    directory.listApplications(session.organizationId),
    directory.listApiKeys(session.organizationId),
  ]);
  applications.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  const page = applications.slice(query.offset, query.offset + query.limit);
  const boundKeys = await Promise.all(page.map((app) => bindings.listForApplication(app.id)));
  const keyBindings = await Promise.all(keys.map((key) => bindings.get(key.id)));
  return {
    status: 200,
    body: {
      data: page.map((app, i) => ({
        id: app.id,
        name: app.name,
        created_at: isoTime(app.createdAt),
        api_key_ids: boundKeys[i]!.map((b) => b.apiKeyId),
      })),
      keys: keys.map((key, i) => ({
        id: key.id,
        name: key.name,
        permissions: key.permissions,
        system: key.system,
        revoked: Boolean(key.revokedAt),
        application_id: keyBindings[i]?.applicationId ?? null,
      })),
      limit: query.limit,
      offset: query.offset,
      has_more: applications.length > query.offset + query.limit,
    },
  };
});
