// NetDocuments' catalog entry, from the certified Power Platform connector (microsoft/PowerPlatformConnectors,
// certified-connectors/NetDocuments: apiProperties.json, apiDefinition.swagger.json) and NetDocuments'
// REST API overview. A repository lives in one region (data center), each with its own hosts and its own
// registered client: the authorize page at https://<web host>/neWeb2/OAuth.aspx, the token endpoint at
// https://api.<web host>/v1/OAuth, the REST API under https://api.<web host>/v1 and /v2. Scopes are
// NetDocuments' (`read`, `edit`, ...), asked comma-separated as the connector asks them. Refresh tokens
// last 40 days and are renewed by each use (not rotated); access tokens about an hour.
import type { ProviderDefinition } from '../../domain/provider-definition';

/**
 * Each region's domain: the web host (the consent page) is the domain, the API host (the token endpoint
 * and the REST API) `api.` before it, as NetDocuments' connector builds them.
 */
const region = (label: string, domain: string, settingsSuffix: string) => ({
  label,
  vars: { domain },
  settingsSuffix,
});

export const definition: ProviderDefinition<'netdocuments'> = {
  id: 'netdocuments',
  displayName: 'NetDocuments',
  kind: 'file_storage',
  scopeTiers: {
    import: {
      scopes: ['read'],
      required: ['read'],
      description: 'Read cabinets, workspaces, folders and documents',
    },
    import_export: {
      scopes: ['read', 'edit'],
      required: ['read'],
      description: 'Read documents, and upload exports as new documents or new versions',
    },
  },
  defaultTier: 'import',
  // expires_in is answered (3600); access tokens also lapse after 45-90 idle minutes.
  defaultAccessTokenSeconds: 3600,
  // A refresh answers a new access token; the refresh token stays, its 40 days renewed by the use.
  rotatesRefreshTokens: false,
  refreshTokenIdleSeconds: 40 * 86_400,
  accountFields: { externalId: 'id', email: 'email', displayName: 'displayName' },
  // NetDocuments documents no remaining-quota headers; a 429 carries Retry-After.
  rateLimitHeaders: { retryAfter: 'Retry-After' },
  throttleReasons: [],
  scopeSeparator: ',',
  tokenEndpointAuthMethod: 'client_secret_basic',
  writeScopes: ['edit'],
  authorizeParams: {},
  // No token revocation endpoint is published: deleting a connection deletes our tokens, and the user
  // removes the application's access in NetDocuments (docs/providers.md says where).
  revocation: { style: 'none' },
  params: {
    region: {
      kind: 'choice',
      label: 'Region',
      description: 'The NetDocuments data center that hosts the repository',
      choices: {
        us: region('United States', 'vault.netvoyage.com', 'US'),
        eu: region('Europe', 'eu.netdocuments.com', 'EU'),
        de: region('Germany', 'de.netdocuments.com', 'DE'),
        au: region('Australia', 'au.netdocuments.com', 'AU'),
      },
      default: 'us',
    },
  },
  defaults: {
    authorizeUrl: 'https://{domain}/neWeb2/OAuth.aspx',
    tokenUrl: 'https://api.{domain}/v1/OAuth',
    accountUrl: 'https://api.{domain}/v1/User/info',
    apiUrl: 'https://api.{domain}',
  },
  extraSettings: {},
};
