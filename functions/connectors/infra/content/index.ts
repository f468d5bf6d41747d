// The content API client of a provider: its kind comes from its definition (`contentApi`), its root
// URL and any setting of its own from configuration (PROVIDER_<ID>_API_URL, PROVIDER_<ID>_<NAME>).
import { ConfigurationError } from '../../../platform/errors';
import type { ContentApiKind, ProviderDefinition } from '../../domain/providers';
import type { ContentApi } from './api';
import { ClioApi } from './clio';
import { DriveApi } from './drive';
import { DropboxApi } from './dropbox';
import { GoogleDriveApi } from './google-drive';
import { OneDriveApi } from './onedrive';
import { PracticeApi } from './practice';

/** What a client is built from: the API's origin and the provider's own settings. */
export interface ContentApiSettings {
  apiUrl: string;
  /** A provider-specific setting by name (e.g. Dropbox's CONTENT_URL), its default when not set. */
  setting(name: string): string;
  /** Our client id at the provider, read when needed (Graph names the app that wrote a file). */
  clientId?(): string;
}

type ClientFactory = (
  settings: ContentApiSettings,
  definition: Pick<ProviderDefinition, 'contentApi' | 'throttleReasons'>,
) => ContentApi;

/** One client per kind; a kind not here has no client yet (its provider cannot import or export). */
const CLIENTS: Partial<Record<ContentApiKind, ClientFactory>> = {
  'practice-v1': (settings) => new PracticeApi(settings.apiUrl),
  'drive-v1': (settings) => new DriveApi(settings.apiUrl),
  'clio-v4': (settings) => new ClioApi(settings.apiUrl),
  'dropbox-v2': (settings) =>
    new DropboxApi(settings.apiUrl, { contentUrl: settings.setting('CONTENT_URL') }),
  'google-drive-v3': (settings, definition) =>
    new GoogleDriveApi(settings.apiUrl, definition.throttleReasons),
  'graph-v1': (settings, definition) =>
    new OneDriveApi(settings.apiUrl, definition.throttleReasons, () => {
      // Without our client id no file counts as ours: exports then never update one, only add beside.
      try {
        return settings.clientId?.();
      } catch {
        return undefined;
      }
    }),
};

/** Whether a content-API client speaks this kind yet (a provider without one can only connect). */
export const hasContentApi = (kind: ContentApiKind): boolean => CLIENTS[kind] !== undefined;

export function contentApi(
  definition: Pick<ProviderDefinition, 'contentApi' | 'throttleReasons'>,
  settings: ContentApiSettings,
): ContentApi {
  const factory = CLIENTS[definition.contentApi];
  if (!factory) throw new ConfigurationError(`no content-API client for ${definition.contentApi}`);
  return factory(settings, definition);
}

export type {
  ChangedFile,
  ChangesPage,
  ChangesPosition,
  ContentApi,
  Download,
  ProviderFile,
  SourceEntry,
  Upload,
} from './api';
export { UploadRefusedError, nameProblem } from './api';
export { ProviderApiError } from './http';
