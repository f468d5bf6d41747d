// What a provider module is: its definition (what the service must know of the provider) and its
// content-API client, loaded on first use so that a bundle holds no client's code at init. The list of
// modules is ./index.ts; each module's folder holds what is its own (definition.ts, client.ts).
import type { ProviderDefinition } from '../domain/provider-definition';
import type { ContainerApi, ContentApi } from '../infra/content/api';
import type { ClientSettings } from '../infra/content/http';

/** A provider's client classes, both built from ClientSettings: the whole client and a route's part. */
export interface ProviderClient {
  /** The whole client: what the sync worker's imports and exports use. */
  Content: new (settings: ClientSettings) => ContentApi;
  /** The part of the client a route calls (browse, checkContainer). */
  Containers: new (settings: ClientSettings) => ContainerApi;
}

export interface ProviderModule<Id extends string = string> {
  definition: ProviderDefinition<Id>;
  /**
   * A provider of the sandbox's own (a wire format of our invention, served by sandbox/): offered
   * always. Any other is a real provider, offered only where its CLIENT_ID is configured.
   */
  sandbox?: true;
  /** Its client, by dynamic import of the module's client.ts. */
  client(): Promise<ProviderClient>;
}

/** A module as its folder's index.ts declares it (keeps the id's and `sandbox`'s literal types for the list). */
export const providerModule = <M extends ProviderModule>(module: M): M => module;
