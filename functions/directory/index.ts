// The directory area's public face: organizations, API keys and applications (the tenancy every
// route runs under), the key-binding routes, and what the admin CLI and local bootstrap use.
export { APPLICATION_ROUTES } from './api/routes';
export { PORTAL_ROUTES } from './api/portal-routes';
export type { ApiKeyRecord, Application, Organization } from './app/directory';
export { Directory } from './app/directory';
export { KeyBindings } from './app/bindings';
export { Portal } from './app/portal';
export type { DirectoryRepositories } from './infra/repositories';
export { directoryRepositories } from './infra/repositories';
