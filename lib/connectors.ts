// Connector configuration for the Lambdas: provider endpoints and client ids from CDK context as
// environment variables; the client secrets and the OAuth state-signing key in Secrets Manager, one
// secret each, read at run time (functions/adapters/aws/secrets-manager.ts). Each route gets only the
// variables it reads and may read only the secrets it needs (see docs/decisions.md, "Provider configuration"
// and "Provider client secrets at run time").
import { Annotations, RemovalPolicy, SecretValue } from 'aws-cdk-lib';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import * as z from 'zod';
import {
  CLIENT_SECRET_PLACEHOLDER,
  STATE_KEY_ENV,
  clientSecretName,
} from '../functions/connectors/infra/config';
import type { ProviderId, ProviderSetting } from '../functions/connectors/domain/providers';
import {
  PROVIDERS,
  PROVIDER_IDS,
  PROVIDER_SETTINGS,
  isRealProvider,
  providerEnv,
  providerProfileSchema,
} from '../functions/connectors/domain/providers';
import { paramSpecs } from '../functions/connectors/domain/connection-params';
import type { RouteDefinition } from '../functions/platform/route-types';
import type { ServiceFunction } from './service-function';
import type { StageConfig } from './stage-config';

type PublicSetting = Exclude<ProviderSetting, 'clientSecret'>;

/** A content-API call: the API, and the token endpoint and client to refresh the access token on use. */
const CONTENT_CALLS: ProviderSetting[] = ['apiUrl', 'tokenUrl', 'clientId', 'clientSecret'];

/** What each route reads: provider settings, and whether it signs or verifies the OAuth state. */
const ROUTE_NEEDS: Record<
  string,
  { settings: ProviderSetting[]; stateKey: boolean; realOnly?: boolean; issuer?: true; params?: true }
> = {
  // A real provider is offered (listed, connectable) only where its client id is configured.
  listProviders: { settings: ['clientId'], stateKey: false, realOnly: true },
  // Both accept a connection's params (a server name checked against the deployment's allowed hosts).
  createConnection: { settings: ['clientId'], stateKey: false, realOnly: true, params: true },
  openConnectLink: { settings: ['authorizeUrl', 'clientId'], stateKey: true, params: true },
  // The callback checks the redirect's `iss` against the provider's issuer (RFC 9207) when one is set.
  oauthCallback: {
    settings: ['tokenUrl', 'accountUrl', 'revokeUrl', 'clientId', 'clientSecret'],
    stateKey: true,
    issuer: true,
  },
  deleteConnection: { settings: ['revokeUrl', 'clientId', 'clientSecret'], stateKey: false },
  /** The scheduled token refresh sweep (lib/workers.ts): the token endpoint and the client. */
  refreshSweep: { settings: ['tokenUrl', 'clientId', 'clientSecret'], stateKey: false },
  // Routes and workers that call a provider's content API through a connection (refreshing on use).
  listSources: { settings: CONTENT_CALLS, stateKey: false },
  createImportLink: { settings: CONTENT_CALLS, stateKey: false },
  createExport: { settings: CONTENT_CALLS, stateKey: false },
  syncWorker: { settings: CONTENT_CALLS, stateKey: false },
};

/**
 * An endpoint, or a template of one whose `{name}` placeholders a connection's params fill (a
 * provider hosted per region or per customer server): a URL once each placeholder is filled.
 */
const endpoint = z
  .string()
  .refine(
    (value) => z.url({ protocol: /^https?$/ }).safeParse(value.replace(/\{[a-z][a-z0-9_]*\}/g, 'x')).success,
    {
      message: 'must be an http(s) URL (with {param} placeholders where the provider has params)',
    },
  );
const secretArn = z.string().startsWith('arn:', 'must be the complete ARN of a Secrets Manager secret');
const providerSchema = z.strictObject({
  // Optional for a real provider (its production URL is the default), required for the sandbox's.
  authorizeUrl: endpoint.optional(),
  tokenUrl: endpoint.optional(),
  revokeUrl: endpoint.optional(),
  accountUrl: endpoint.optional(),
  /** The content API's root (imports, exports). */
  apiUrl: endpoint.optional(),
  /**
   * Where the provider's production endpoints are served instead, each at its own path
   * (PROVIDER_<ID>_ORIGIN: a gateway, a regional proxy, the sandbox's fake); an endpoint given by name wins.
   */
  origin: endpoint.optional(),
  clientId: z.string().min(1),
  /** The provider's own settings (PROVIDER_<ID>_<NAME>: Dropbox's CONTENT_URL, Clio's REGION). */
  settings: z.record(z.string().regex(/^[A-Z][A-Z0-9_]{0,39}$/), z.string().min(1)).optional(),
  /** Account fields, scope tiers, separator, token auth method (PROVIDER_<ID>_PROFILE). */
  profile: z.optional(providerProfileSchema()),
  /** A secret managed elsewhere holding the client secret (plain text); else the stack makes one. */
  clientSecretArn: secretArn.optional(),
  /**
   * The provider's issuer identifier when it advertises RFC 9207 (PROVIDER_<ID>_ISSUER): the callback
   * refuses a redirect without that `iss`. Any provider id, so a provider added to the registry has it.
   */
  issuer: z.string().min(1).optional(),
  /**
   * The hosts a host param (an iManage Work server) may name (PROVIDER_<ID>_ALLOWED_HOSTS): exact
   * names or `*.example.com`; absent, any public host.
   */
  allowedHosts: z
    .array(z.string().regex(/^(\*\.)?[a-z0-9.-]+$/))
    .min(1)
    .optional(),
  /**
   * The OAuth clients of a provider's param values that have their own (a NetDocuments region: each
   * region registers its apps apart), by the value's settings suffix (`EU`): PROVIDER_<ID>_<SUFFIX>_CLIENT_ID
   * and a secret of its own, as `clientId` and `clientSecretArn` are the provider's shared client.
   */
  clients: z
    .record(
      z.string().regex(/^[A-Z][A-Z0-9]{0,15}$/),
      z.strictObject({ clientId: z.string().min(1), clientSecretArn: secretArn.optional() }),
    )
    .optional(),
});
/** The endpoints a provider must be given: those it has no production default for. */
type ProviderContext = z.infer<typeof providerSchema>;
const missingEndpoints = (id: ProviderId, configured: ProviderContext): string[] =>
  (['authorizeUrl', 'tokenUrl', 'revokeUrl', 'accountUrl'] as const).filter(
    (setting) =>
      configured[setting] === undefined &&
      PROVIDERS[id].defaults[setting] === undefined &&
      !(setting === 'revokeUrl' && PROVIDERS[id].revocation.style === 'none'),
  );
/** The settings suffixes of a provider's param values that have a client of their own (`EU`). */
const valueSuffixes = (id: ProviderId): string[] =>
  paramSpecs(PROVIDERS[id]).flatMap(([, spec]) =>
    spec.kind === 'choice'
      ? Object.values(spec.choices).flatMap((choice) =>
          choice.settingsSuffix ? [choice.settingsSuffix] : [],
        )
      : [],
  );

const contextSchema = z.strictObject({
  providers: z
    .partialRecord(z.enum(PROVIDER_IDS), providerSchema)
    .default({})
    .superRefine((providers, ctx) => {
      for (const [id, configured] of Object.entries(providers) as [ProviderId, ProviderContext][]) {
        const unknown = Object.keys(configured.settings ?? {}).filter(
          (name) => !Object.hasOwn(PROVIDERS[id].extraSettings, name),
        );
        for (const name of unknown)
          ctx.addIssue({
            code: 'custom',
            path: [id, 'settings', name],
            message: `${id} has no such setting`,
          });
        const suffixes = valueSuffixes(id);
        for (const suffix of Object.keys(configured.clients ?? {}).filter((s) => !suffixes.includes(s)))
          ctx.addIssue({
            code: 'custom',
            path: [id, 'clients', suffix],
            message: suffixes.length
              ? `${id} has no param value with its own client ${suffix}; known: ${suffixes.join(', ')}`
              : `${id} has no param value with a client of its own`,
          });
        for (const setting of missingEndpoints(id, configured))
          ctx.addIssue({
            code: 'custom',
            path: [id, setting],
            message: 'required: no default for this provider',
          });
      }
    }),
  /** A secret managed elsewhere holding the OAuth state-signing key; else the stack makes one. */
  stateKeySecretArn: secretArn.optional(),
});

/** Context of the deploy-time design, refused by name rather than silently ignored. */
const RETIRED = {
  secretArn:
    'the client secrets and the state key are one secret each now: give "providers.<id>.clientSecretArn" and "stateKeySecretArn"',
  secretVersion:
    'secrets are read at run time now (cached 5 minutes): put-secret-value is the whole rotation, no deploy',
} as const;

export type ConnectorContext = z.infer<typeof contextSchema>;

/** Reads `-c connectors='{"providers":{"practice":{...}}}'` (a JSON string or, in cdk.json, an object). */
export function connectorContext(raw: unknown): ConnectorContext {
  const value = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : (raw ?? {});
  const retired = Object.keys(RETIRED).filter((k) => typeof value === 'object' && value && k in value);
  if (retired.length) {
    const why = retired.map((k) => `${k}: ${RETIRED[k as keyof typeof RETIRED]}`).join('; ');
    throw new Error(`Invalid CDK context "connectors": ${why}`);
  }
  const parsed = contextSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid CDK context "connectors": ${issues}`);
  }
  return parsed.data;
}

/** What a client secret the stack makes holds until an operator puts the real one (docs/deploy.md). */
export { CLIENT_SECRET_PLACEHOLDER };

export class ConnectorSettings extends Construct {
  /** The state-signing key's secret. */
  readonly stateKey: ISecret;
  /** Each provider's client secret, by provider id (configured providers only). */
  readonly clientSecrets: Partial<Record<ProviderId, ISecret>> = {};
  /** The client secrets of param values with a client of their own (a region's), by setting name. */
  readonly valueClientSecrets: Record<string, ISecret> = {};

  constructor(
    scope: Construct,
    id: string,
    private readonly props: { stage: StageConfig; context: ConnectorContext },
  ) {
    super(scope, id);
    const { stage, context } = props;
    if (stage.stage === 'prod') {
      const plain = Object.entries(context.providers).filter(([, p]) =>
        [p.authorizeUrl, p.tokenUrl, p.revokeUrl, p.accountUrl, p.apiUrl, p.origin].some(
          (u) => u !== undefined && !u.startsWith('https://'),
        ),
      );
      if (plain.length)
        throw new Error(`Provider endpoints must be https in prod: ${plain.map(([k]) => k).join(', ')}`);
    }
    // A real provider not in the context is simply not offered; the sandbox's would fail its flows.
    for (const provider of PROVIDER_IDS.filter((p) => !context.providers[p] && !isRealProvider(p))) {
      Annotations.of(this).addWarningV2(
        'connectors:provider-not-configured',
        `Provider ${provider} has no endpoints in context "connectors": its connect flow fails until configured`,
      );
    }
    const removalPolicy = stage.stage === 'prod' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    this.stateKey = context.stateKeySecretArn
      ? Secret.fromSecretCompleteArn(this, 'StateSigningKey', context.stateKeySecretArn)
      : new Secret(this, 'StateSigningKey', {
          description:
            'HMAC key of the connector OAuth state (generated; rotating it ends flows in progress)',
          generateSecretString: { passwordLength: 64, excludePunctuation: true },
          removalPolicy,
        });
    for (const [provider, configured] of Object.entries(context.providers) as [
      ProviderId,
      NonNullable<ConnectorContext['providers'][ProviderId]>,
    ][]) {
      const name = `${provider[0]!.toUpperCase()}${provider.slice(1)}ClientSecret`;
      this.clientSecrets[provider] = configured.clientSecretArn
        ? Secret.fromSecretCompleteArn(this, name, configured.clientSecretArn)
        : new Secret(this, name, {
            description: `OAuth client secret at the ${provider} provider (put the real one after the first deploy)`,
            // Not a secret: a marker the operator replaces (docs/deploy.md, "Provider client secrets").
            secretStringValue: SecretValue.unsafePlainText(CLIENT_SECRET_PLACEHOLDER),
            removalPolicy,
          });
      for (const [suffix, client] of Object.entries(configured.clients ?? {})) {
        const id = `${name.slice(0, -'ClientSecret'.length)}${suffix}ClientSecret`;
        this.valueClientSecrets[providerEnv(provider, `${suffix}_CLIENT_SECRET`)] = client.clientSecretArn
          ? Secret.fromSecretCompleteArn(this, id, client.clientSecretArn)
          : new Secret(this, id, {
              description: `OAuth client secret at the ${provider} provider for ${suffix} (put the real one after the first deploy)`,
              secretStringValue: SecretValue.unsafePlainText(CLIENT_SECRET_PLACEHOLDER),
              removalPolicy,
            });
      }
    }
  }

  /** The environment of one route: the provider settings it reads that are not secret. */
  readonly environmentFor = (route: Pick<RouteDefinition, 'id'>): Record<string, string> => {
    const needs = ROUTE_NEEDS[route.id];
    if (!needs) return {};
    const env: Record<string, string> = {};
    for (const provider of PROVIDER_IDS) {
      const configured = this.props.context.providers[provider];
      if (!configured || (needs.realOnly && !isRealProvider(provider))) continue;
      if (configured.profile) env[providerEnv(provider, 'PROFILE')] = JSON.stringify(configured.profile);
      // Every endpoint the route reads may be its production URL under the origin.
      if (configured.origin && needs.settings.some((s) => s !== 'clientId' && s !== 'clientSecret'))
        env[providerEnv(provider, 'ORIGIN')] = configured.origin;
      if (needs.settings.includes('apiUrl'))
        for (const [name, value] of Object.entries(configured.settings ?? {}))
          env[providerEnv(provider, name)] = value;
      for (const setting of needs.settings.filter((s): s is PublicSetting => s !== 'clientSecret')) {
        const value = configured[setting];
        if (value !== undefined) env[providerEnv(provider, PROVIDER_SETTINGS[setting])] = value;
      }
      if (needs.settings.includes('clientId'))
        for (const [suffix, client] of Object.entries(configured.clients ?? {}))
          env[providerEnv(provider, `${suffix}_CLIENT_ID`)] = client.clientId;
      if (needs.issuer && configured.issuer) env[providerEnv(provider, 'ISSUER')] = configured.issuer;
      if (needs.params && configured.allowedHosts)
        env[providerEnv(provider, 'ALLOWED_HOSTS')] = configured.allowedHosts.join(',');
    }
    return env;
  };

  /**
   * The secrets one route reads: GetSecretValue on exactly those, and their ARNs in its environment.
   * Pass to `new Api(..., { bindSecrets })`; the stack binds the refresh sweep's itself.
   */
  readonly bindSecrets = (route: Pick<RouteDefinition, 'id'>, fn: ServiceFunction): void => {
    for (const [name, secret] of this.secretsOf(route)) fn.bindSecret(name, secret);
  };

  /** The secret settings one route reads, by setting name (the CDK tier checks grants against it). */
  secretsOf(route: Pick<RouteDefinition, 'id'>): [string, ISecret][] {
    const needs = ROUTE_NEEDS[route.id];
    if (!needs) return [];
    const secrets: [string, ISecret][] = needs.stateKey ? [[STATE_KEY_ENV, this.stateKey]] : [];
    if (needs.settings.includes('clientSecret')) {
      for (const [provider, secret] of Object.entries(this.clientSecrets) as [ProviderId, ISecret][]) {
        secrets.push([clientSecretName(provider), secret]);
      }
      secrets.push(...Object.entries(this.valueClientSecrets));
    }
    return secrets;
  }
}
