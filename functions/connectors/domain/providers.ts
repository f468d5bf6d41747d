// The provider registry: each provider module's definition (functions/connectors/providers/) as
// configured. Endpoints, client ids and secrets are configuration (PROVIDER_<ID>_* variables), so a
// deployment points them at the real providers.
import * as z from 'zod/mini';
import { getStringFromEnv } from '../../platform/config';
import { ConfigurationError } from '../../platform/errors';
import { lazy } from '../../platform/lazy';
import type { ProviderId, RealProviderId } from '../providers';
import { PROVIDER_IDS, PROVIDER_MODULES, REAL_PROVIDER_IDS } from '../providers';
import type { ConnectionParams } from './connection-params';
import { completeParams, fillTemplate, paramVars, settingsSuffix, unfilled } from './connection-params';
import type { EndpointSetting, ProviderDefinition as DefinitionOf } from './provider-definition';

export { PROVIDER_IDS, REAL_PROVIDER_IDS, SANDBOX_PROVIDER_IDS } from '../providers';
export type { ProviderId, RealProviderId } from '../providers';
export type { EndpointSetting, RevocationStyle, ScopeTier } from './provider-definition';

/** A provider's definition (one of the modules'). */
export type ProviderDefinition = DefinitionOf<ProviderId>;

/**
 * What a deployment may set per provider in PROVIDER_<ID>_PROFILE (JSON), over the built-in defaults:
 * a standard OpenID Connect provider, for one, names the account id `sub` and needs the `openid` scope
 * (`{"accountFields":{"externalId":"sub"},"scopeTiers":{"standard":{"scopes":["openid","email"],...}}}`).
 */
export const providerProfileSchema = lazy(() =>
  z.strictObject({
    accountFields: z.optional(
      z.strictObject({
        externalId: z.optional(z.string().check(z.minLength(1))),
        email: z.optional(z.string().check(z.minLength(1))),
        displayName: z.optional(z.string().check(z.minLength(1))),
      }),
    ),
    scopeTiers: z.optional(
      z.record(
        z.string().check(z.regex(/^[a-z][a-z0-9_-]{0,63}$/)),
        z.strictObject({
          scopes: z.array(z.string().check(z.minLength(1))).check(z.minLength(1)),
          required: z.array(z.string().check(z.minLength(1))),
          description: z.string().check(z.minLength(1)),
        }),
      ),
    ),
    defaultTier: z.optional(z.string().check(z.minLength(1))),
    scopeSeparator: z.optional(z.enum([' ', ','])),
    tokenEndpointAuthMethod: z.optional(z.enum(['client_secret_basic', 'client_secret_post'])),
    defaultAccessTokenSeconds: z.optional(z.number().check(z.int()).check(z.positive())),
    rotatesRefreshTokens: z.optional(z.boolean()),
  }),
);

export type ProviderProfile = z.infer<ReturnType<typeof providerProfileSchema>>;

/** A built-in definition with a deployment's profile applied; refuses a profile that contradicts itself. */
export function applyProfile(base: ProviderDefinition, profile: ProviderProfile): ProviderDefinition {
  const merged: ProviderDefinition = {
    ...base,
    ...(profile.scopeTiers ? { scopeTiers: profile.scopeTiers } : {}),
    ...(profile.defaultTier ? { defaultTier: profile.defaultTier } : {}),
    ...(profile.scopeSeparator ? { scopeSeparator: profile.scopeSeparator } : {}),
    ...(profile.tokenEndpointAuthMethod ? { tokenEndpointAuthMethod: profile.tokenEndpointAuthMethod } : {}),
    ...(profile.defaultAccessTokenSeconds
      ? { defaultAccessTokenSeconds: profile.defaultAccessTokenSeconds }
      : {}),
    ...(profile.rotatesRefreshTokens !== undefined
      ? { rotatesRefreshTokens: profile.rotatesRefreshTokens }
      : {}),
    accountFields: { ...base.accountFields, ...profile.accountFields },
  };
  if (!Object.hasOwn(merged.scopeTiers, merged.defaultTier)) {
    throw new ConfigurationError(
      `provider ${base.id}: defaultTier ${merged.defaultTier} is not one of its scopeTiers`,
    );
  }
  for (const [name, tier] of Object.entries(merged.scopeTiers)) {
    if (tier.required.some((scope) => !tier.scopes.includes(scope)))
      throw new ConfigurationError(`provider ${base.id}: tier ${name} requires a scope it does not ask for`);
  }
  return merged;
}

function configuredDefinition(base: ProviderDefinition): ProviderDefinition {
  const raw = getStringFromEnv(providerEnv(base.id, 'PROFILE'), { default: '' });
  if (!raw) return base;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigurationError(`${providerEnv(base.id, 'PROFILE')} is not JSON`);
  }
  const profile = providerProfileSchema().safeParse(parsed);
  if (!profile.success) {
    throw new ConfigurationError(`${providerEnv(base.id, 'PROFILE')}: ${profile.error.issues[0]?.message}`);
  }
  return applyProfile(base, profile.data);
}

/** The configuration variables of a provider, each PROVIDER_<ID>_<FIELD>. */
export const PROVIDER_SETTINGS = {
  authorizeUrl: 'AUTHORIZE_URL',
  tokenUrl: 'TOKEN_URL',
  revokeUrl: 'REVOKE_URL',
  accountUrl: 'ACCOUNT_URL',
  apiUrl: 'API_URL',
  clientId: 'CLIENT_ID',
  clientSecret: 'CLIENT_SECRET',
} as const;

export type ProviderSetting = keyof typeof PROVIDER_SETTINGS;

export type ProviderEndpoints = Record<ProviderSetting, string>;

const BUILT_IN = Object.fromEntries(
  PROVIDER_MODULES.map((module) => [module.definition.id, module.definition]),
) as Record<ProviderId, ProviderDefinition>;

/**
 * The provider registry as configured: each built-in definition with its PROVIDER_<ID>_PROFILE
 * applied, read when a provider is first looked up (so a route reads only the providers it touches).
 */
export const PROVIDERS = {} as Record<ProviderId, ProviderDefinition>;
for (const id of Object.keys(BUILT_IN) as ProviderId[]) {
  let definition: ProviderDefinition | undefined;
  Object.defineProperty(PROVIDERS, id, {
    enumerable: true,
    get: () => (definition ??= configuredDefinition(BUILT_IN[id])),
  });
}

export const isProviderId = (value: string): value is ProviderId =>
  (PROVIDER_IDS as readonly string[]).includes(value);

/** Environment variable names of a provider's configuration, e.g. PROVIDER_PRACTICE_TOKEN_URL. */
export const providerEnv = (id: ProviderId, field: string): string => `PROVIDER_${id.toUpperCase()}_${field}`;

/**
 * One configuration value of a provider, read when first needed (a route gets only what it uses); an
 * endpoint not set is the provider's production URL. With a connection's params, its `{name}`
 * placeholders are filled, and a chosen value with its own client (`settingsSuffix`) reads
 * PROVIDER_<ID>_<SUFFIX>_CLIENT_ID when that is set.
 */
export function providerSetting(id: ProviderId, setting: ProviderSetting, params?: ConnectionParams): string {
  const definition = BUILT_IN[id];
  const suffix = params && settingsSuffix(definition, params);
  if (suffix && (setting === 'clientId' || setting === 'clientSecret')) {
    const own = getStringFromEnv(providerEnv(id, `${suffix}_${PROVIDER_SETTINGS[setting]}`), { default: '' });
    if (own) return own;
  }
  const fallback = settingDefault(id, PROVIDER_SETTINGS[setting], providerOrigin(id));
  const raw = getStringFromEnv(
    providerEnv(id, PROVIDER_SETTINGS[setting]),
    fallback ? { default: fallback } : {},
  );
  return setting === 'clientId' || setting === 'clientSecret' ? raw : filled(id, raw, params);
}

/**
 * PROVIDER_<ID>_ORIGIN, optional: where the provider's production endpoints are served instead, each
 * at its own path (`http://127.0.0.1:3001/box` serves `https://api.box.com/2.0/users/me` at
 * `/box/2.0/users/me`): a gateway, a regional proxy, or the sandbox's fake. A setting set by name wins.
 */
const providerOrigin = (id: ProviderId): string | undefined =>
  getStringFromEnv(providerEnv(id, 'ORIGIN'), { default: '' }) || undefined;

/** A production URL served under `origin` at its own path and query (a setting that is no URL is kept). */
export function rebased(url: string, origin: string): string {
  const at = /^https:\/\/[^/?#]+/.exec(url);
  return at ? origin.replace(/\/+$/, '') + url.slice(at[0].length) : url;
}

const ENDPOINT_OF = Object.fromEntries(
  Object.entries(PROVIDER_SETTINGS).map(([setting, name]) => [name, setting as ProviderSetting]),
);

/**
 * The default of a provider's setting by its name (`TOKEN_URL`, Dropbox's `CONTENT_URL`): the
 * production value, under `origin` when one is given; undefined where the provider has none.
 */
export function settingDefault(id: ProviderId, name: string, origin?: string): string | undefined {
  const definition = BUILT_IN[id];
  const endpoint = ENDPOINT_OF[name];
  const fallback = endpoint
    ? definition.defaults[endpoint as EndpointSetting]
    : Object.hasOwn(definition.extraSettings, name)
      ? definition.extraSettings[name]
      : undefined;
  return fallback !== undefined && origin ? rebased(fallback, origin) : fallback;
}

/** A template of the provider's filled for a connection; one left unfilled is a configuration error. */
function filled(id: ProviderId, template: string, params?: ConnectionParams): string {
  if (!template.includes('{')) return template;
  const definition = BUILT_IN[id];
  const value = fillTemplate(template, paramVars(definition, completeParams(definition, params)));
  const left = unfilled(value);
  if (left.length)
    throw new ConfigurationError(`provider ${id}: a setting names {${left.join('}, {')}}, not a param of it`);
  return value;
}

/** A setting of one provider only (PROVIDER_<ID>_<NAME>), its default when not set, filled for a connection. */
export function providerExtraSetting(id: ProviderId, name: string, params?: ConnectionParams): string {
  if (!Object.hasOwn(BUILT_IN[id].extraSettings, name))
    throw new ConfigurationError(`provider ${id} has no setting ${name}`);
  const fallback = settingDefault(id, name, providerOrigin(id))!;
  return filled(id, getStringFromEnv(providerEnv(id, name), { default: fallback }), params);
}

export const isRealProvider = (id: ProviderId): id is RealProviderId =>
  (REAL_PROVIDER_IDS as readonly string[]).includes(id);

/**
 * Whether the provider is offered: the sandbox's always (as before real providers came), a real one
 * only where its CLIENT_ID is configured (the environment locally, CDK context `connectors` on AWS).
 */
export function providerConfigured(id: ProviderId): boolean {
  return !isRealProvider(id) || getStringFromEnv(providerEnv(id, 'CLIENT_ID'), { default: '' }) !== '';
}

/**
 * PROVIDER_<ID>_ISSUER, optional: set it when the provider advertises RFC 9207 (its metadata has
 * `authorization_response_iss_parameter_supported: true`) to its `issuer`.
 */
export function providerIssuer(id: ProviderId, params?: ConnectionParams): string | undefined {
  const issuer = getStringFromEnv(providerEnv(id, 'ISSUER'), { default: '' });
  return issuer ? filled(id, issuer, params) : undefined;
}

/** A provider's settings that are not secret: its endpoints and client id. */
export type ProviderSettings = Omit<ProviderEndpoints, 'clientSecret'>;

/**
 * A provider's non-secret settings for a connection (its params fill the endpoint templates), each a
 * getter that reads its environment variable when first used (the client secret is a secret setting,
 * read through the Secrets port).
 */
export function providerEndpoints(id: ProviderId, params?: ConnectionParams): ProviderSettings {
  const out = {} as ProviderSettings;
  for (const setting of Object.keys(PROVIDER_SETTINGS) as ProviderSetting[]) {
    if (setting === 'clientSecret') continue;
    Object.defineProperty(out, setting, {
      enumerable: true,
      get: () => providerSetting(id, setting, params),
    });
  }
  return out;
}
