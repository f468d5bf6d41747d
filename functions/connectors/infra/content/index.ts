// The content API client of a provider: its shape comes from its definition, its root URL from
// configuration (PROVIDER_<ID>_API_URL).
import type { ProviderDefinition } from '../../domain/providers';
import type { ContentApi } from './api';
import { DriveApi } from './drive';
import { PracticeApi } from './practice';

export function contentApi(definition: Pick<ProviderDefinition, 'contentApi'>, baseUrl: string): ContentApi {
  return definition.contentApi === 'practice-v1' ? new PracticeApi(baseUrl) : new DriveApi(baseUrl);
}

export type {
  ChangedFile,
  ChangesPage,
  ChangesPosition,
  ContentApi,
  Download,
  SourceEntry,
  Upload,
} from './api';
export { ProviderApiError } from './http';
