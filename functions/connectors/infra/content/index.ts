// The content API client of a provider: its kind comes from its definition (`contentApi`), its root
// URL and any setting of its own from configuration (PROVIDER_<ID>_API_URL, PROVIDER_<ID>_<NAME>).
import { ConfigurationError } from '../../../platform/errors';
import type { ContentApiKind, ProviderDefinition } from '../../domain/providers';
import type { ContainerApi, ContentApi } from './api';
import type { ClientSettings, UrlGuard } from './http';
import { ClioApi, ClioContainers } from './clio';
import { DriveApi, DriveContainers } from './drive';
import { DropboxApi, DropboxContainers } from './dropbox';
import { GoogleDriveApi, GoogleDriveContainers } from './google-drive';
import { OneDriveApi, OneDriveContainers } from './onedrive';
import { PracticeApi, PracticeContainers } from './practice';

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

/** The whole client: what the sync worker's imports and exports use. */
export function contentApi(definition: Definition, settings: ContentApiSettings): ContentApi {
  return build<ContentApi>(
    {
      'practice-v1': PracticeApi,
      'drive-v1': DriveApi,
      'clio-v4': ClioApi,
      'dropbox-v2': DropboxApi,
      'google-drive-v3': GoogleDriveApi,
      'graph-v1': OneDriveApi,
    },
    definition,
    settings,
  );
}

/**
 * The part of the client a route calls (browse, checkContainer). Its own function, naming its own
 * classes, so a route's bundle holds neither contentApi nor the transfer code.
 */
export function containerApi(definition: Definition, settings: ContentApiSettings): ContainerApi {
  return build<ContainerApi>(
    {
      'practice-v1': PracticeContainers,
      'drive-v1': DriveContainers,
      'clio-v4': ClioContainers,
      'dropbox-v2': DropboxContainers,
      'google-drive-v3': GoogleDriveContainers,
      'graph-v1': OneDriveContainers,
    },
    definition,
    settings,
  );
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
