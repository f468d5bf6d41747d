// The content API client of a provider: its kind comes from its definition (`contentApi`), its root
// URL and any setting of its own from configuration (PROVIDER_<ID>_API_URL, PROVIDER_<ID>_<NAME>).
import { ConfigurationError } from '../../../platform/errors';
import type { ContentApiKind, ProviderDefinition } from '../../domain/providers';
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
}

type Definition = Pick<ProviderDefinition, 'contentApi' | 'throttleReasons' | 'rateLimitHeaders'>;

/** Each kind's class, the whole client or its ContainerApi part: every one is built from ClientSettings. */
type Classes<T> = Record<
  'practice-v1' | 'drive-v1' | 'clio-v4' | 'dropbox-v2' | 'google-drive-v3' | 'graph-v1',
  new (settings: ClientSettings) => T
>;

/** A kind not here has no client yet (its provider cannot import or export). */
const KINDS: readonly (keyof Classes<unknown>)[] = [
  'practice-v1',
  'drive-v1',
  'clio-v4',
  'dropbox-v2',
  'google-drive-v3',
  'graph-v1',
];

/** Whether a content-API client speaks this kind yet (a provider without one can only connect). */
export const hasContentApi = (kind: ContentApiKind): kind is keyof Classes<unknown> =>
  (KINDS as readonly ContentApiKind[]).includes(kind);

function build<T>(classes: Classes<T>, definition: Definition, settings: ContentApiSettings): T {
  const kind = definition.contentApi;
  if (!hasContentApi(kind)) throw new ConfigurationError(`no content-API client for ${kind}`);
  return new classes[kind]({
    apiUrl: settings.apiUrl,
    throttleReasons: definition.throttleReasons,
    rateLimitHeaders: definition.rateLimitHeaders,
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
  });
}

/**
 * Each kind's whole client, loaded when a step first needs it: a worker's steps are of one provider
 * at a time, so the other clients' code stays out of its cold start.
 */
const CONTENT_CLIENTS: { [K in keyof Classes<ContentApi>]: () => Promise<Classes<ContentApi>[K]> } = {
  'practice-v1': async () => (await import('./practice')).PracticeApi,
  'drive-v1': async () => (await import('./drive')).DriveApi,
  'clio-v4': async () => (await import('./clio')).ClioApi,
  'dropbox-v2': async () => (await import('./dropbox')).DropboxApi,
  'google-drive-v3': async () => (await import('./google-drive')).GoogleDriveApi,
  'graph-v1': async () => (await import('./onedrive')).OneDriveApi,
};

/** The whole client: what the sync worker's imports and exports use. */
export async function contentApi(definition: Definition, settings: ContentApiSettings): Promise<ContentApi> {
  const kind = definition.contentApi;
  if (!hasContentApi(kind)) throw new ConfigurationError(`no content-API client for ${kind}`);
  const Client = await CONTENT_CLIENTS[kind]();
  return build<ContentApi>({ [kind]: Client } as unknown as Classes<ContentApi>, definition, settings);
}

/**
 * The part of the client a route calls (browse, checkContainer), loaded on first use as the whole
 * client is: no bundle loads any provider's client code at init.
 */
const CONTAINER_CLIENTS: { [K in keyof Classes<ContainerApi>]: () => Promise<Classes<ContainerApi>[K]> } = {
  'practice-v1': async () => (await import('./practice')).PracticeContainers,
  'drive-v1': async () => (await import('./drive')).DriveContainers,
  'clio-v4': async () => (await import('./clio')).ClioContainers,
  'dropbox-v2': async () => (await import('./dropbox')).DropboxContainers,
  'google-drive-v3': async () => (await import('./google-drive')).GoogleDriveContainers,
  'graph-v1': async () => (await import('./onedrive')).OneDriveContainers,
};

export async function containerApi(
  definition: Definition,
  settings: ContentApiSettings,
): Promise<ContainerApi> {
  const kind = definition.contentApi;
  if (!hasContentApi(kind)) throw new ConfigurationError(`no content-API client for ${kind}`);
  const Client = await CONTAINER_CLIENTS[kind]();
  return build<ContainerApi>({ [kind]: Client } as unknown as Classes<ContainerApi>, definition, settings);
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
