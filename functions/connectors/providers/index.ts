// The provider modules: one entry per provider, each a folder of its own (./<id>/: definition.ts,
// client.ts, index.ts). Everything that goes over the providers reads this list: the ids and the API's
// provider enum, the registry (domain/providers.ts), the client loading (infra/content/index.ts), the
// contract suites, the Chromium connect test and the import bench. The order is the API's enum order.
import { box } from './box';
import { clio } from './clio';
import { drive } from './drive';
import { dropbox } from './dropbox';
import { googleDrive } from './google_drive';
import { imanage } from './imanage';
import { onedrive } from './onedrive';
import { practice } from './practice';

export const PROVIDER_MODULES = [
  practice,
  drive,
  clio,
  googleDrive,
  onedrive,
  dropbox,
  box,
  imanage,
] as const;

export type ProviderModuleOf = (typeof PROVIDER_MODULES)[number];
export type ProviderId = ProviderModuleOf['definition']['id'];
export type ProviderClient = Awaited<ReturnType<ProviderModuleOf['client']>>;

/** A real provider's id: of a module not marked `sandbox`. */
export type RealProviderId = Exclude<ProviderModuleOf, { sandbox: true }>['definition']['id'];

type Ids = readonly [ProviderId, ...ProviderId[]];

export const PROVIDER_IDS = PROVIDER_MODULES.map((module) => module.definition.id) as unknown as Ids;
/** The sandbox's own providers (wire formats of our invention, served by sandbox/), offered always. */
export const SANDBOX_PROVIDER_IDS = PROVIDER_MODULES.filter((module) => 'sandbox' in module).map(
  (module) => module.definition.id,
) as unknown as Ids;
/** Real providers: offered only where their CLIENT_ID is configured (providerConfigured). */
export const REAL_PROVIDER_IDS = PROVIDER_IDS.filter(
  (id) => !(SANDBOX_PROVIDER_IDS as readonly string[]).includes(id),
) as unknown as readonly [RealProviderId, ...RealProviderId[]];

/** A provider's module by its id. */
export function providerModuleOf(id: ProviderId): ProviderModuleOf {
  const found = PROVIDER_MODULES.find((module) => module.definition.id === id);
  if (!found) throw new Error(`no provider module ${id}`);
  return found;
}
