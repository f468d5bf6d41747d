// The content API client of a provider: its code is its module's (functions/connectors/providers/<id>/),
// its root URL and any setting of its own come from configuration (PROVIDER_<ID>_API_URL,
// PROVIDER_<ID>_<NAME>).
import type { ProviderDefinition } from '../../domain/providers';
import { providerModuleOf } from '../../providers';
import type { ContainerApi, ContentApi } from './api';
import type { ClientSettings, UrlGuard } from './http';

/** What a client is built from: the API's origin and the provider's own settings. */
export interface ContentApiSettings {
  apiUrl: string;
  /** A provider-specific setting by name (e.g. Dropbox's CONTENT_URL), its default when not set. */
  setting(name: string): string;
  /** Our client id at the provider, read when needed (Graph names the app that wrote a file). */
  clientId?(): string;
  /** Where URLs the provider hands back may go; the stage's guard when not given. */
  guard?: UrlGuard;
  /** The API's host came from the connection (a customer's server): requests to it are vetted too. */
  guardApi?: boolean;
}

type Definition = Pick<
  ProviderDefinition,
  'id' | 'throttleReasons' | 'rateLimitHeaders' | 'accessTokenHeader'
>;

function settingsOf(definition: Definition, settings: ContentApiSettings): ClientSettings {
  return {
    apiUrl: settings.apiUrl,
    throttleReasons: definition.throttleReasons,
    rateLimitHeaders: definition.rateLimitHeaders,
    ...(definition.accessTokenHeader ? { accessTokenHeader: definition.accessTokenHeader } : {}),
    setting: settings.setting,
    ownClientId: () => {
      // Without our client id no file counts as ours: exports then never update one, only add beside.
      try {
        return settings.clientId?.();
      } catch {
        return undefined;
      }
    },
    ...(settings.guard ? { guard: settings.guard } : {}),
    ...(settings.guardApi ? { guardApi: true } : {}),
  };
}

/**
 * The provider's whole client (what the sync worker's imports and exports use), its code loaded when a
 * step first needs it: a worker's steps are of one provider at a time, so the other clients' code stays
 * out of its cold start.
 */
export async function contentApi(definition: Definition, settings: ContentApiSettings): Promise<ContentApi> {
  const { Content } = await providerModuleOf(definition.id).client();
  return new Content(settingsOf(definition, settings));
}

/**
 * The part of the client a route calls (browse, checkContainer), loaded on first use as the whole
 * client is: no bundle loads any provider's client code at init.
 */
export async function containerApi(
  definition: Definition,
  settings: ContentApiSettings,
): Promise<ContainerApi> {
  const { Containers } = await providerModuleOf(definition.id).client();
  return new Containers(settingsOf(definition, settings));
}

export type {
  ChangedFile,
  ContainerApi,
  ChangesPage,
  ChangesPosition,
  ContentApi,
  Download,
  ProviderFile,
  SourceEntry,
  Upload,
} from './api';
export { FeedRestartError, UploadRefusedError, nameProblem } from './api';
export { ProviderApiError, ProviderBody } from './http';
export type { UrlGuard } from './http';
