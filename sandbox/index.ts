// The sandbox provider, a fake of an OAuth provider and its content APIs, as its own package: the
// development runtime, the tests and the benches start it through this file and nothing else. It
// imports nothing of the service (functions/): it stands where a third party stands.
export { startSandboxProvider } from './oauth-server';
export type { SandboxOptions, SandboxProvider } from './oauth-server';
export { CONTENT_SCOPES, isContentShape } from './content/mount';
export type { Clock } from './clock';
export { PROVIDER_FAKES, externalAccountId } from './providers';
export type { ProviderFake } from './providers';
