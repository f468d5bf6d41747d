// The directory's repositories: the only code of the area that knows its key and index formats and
// talks to the platform table (eslint, "Repositories own the keys", eslint.config.js).
import type { Tables } from '../../../platform/ports';
import { ApiKeyRepository } from './api-keys';
import { ApplicationRepository } from './applications';
import { KeyBindingRepository } from './bindings';
import { OrganizationRepository } from './organizations';
import { PortalRepository } from './portal';

export {
  ApiKeyRepository,
  ApplicationRepository,
  KeyBindingRepository,
  OrganizationRepository,
  PortalRepository,
};

export interface DirectoryRepositories {
  organizations: OrganizationRepository;
  apiKeys: ApiKeyRepository;
  applications: ApplicationRepository;
  bindings: KeyBindingRepository;
  portal: PortalRepository;
}

/** Every directory repository, over the platform table of the ports. */
export function directoryRepositories(deps: { tables: Pick<Tables, 'platform'> }): DirectoryRepositories {
  const platform = deps.tables.platform;
  return {
    organizations: new OrganizationRepository(platform),
    apiKeys: new ApiKeyRepository(platform),
    applications: new ApplicationRepository(platform),
    bindings: new KeyBindingRepository(platform),
    portal: new PortalRepository(platform),
  };
}
