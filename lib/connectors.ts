// Connector configuration for the Lambdas: provider endpoints and client ids from CDK context, the
// client secrets and the OAuth state-signing key from one Secrets Manager secret. Each route gets
// only the variables it reads (see docs/decisions.md, "Connectors").
import { Annotations, RemovalPolicy, SecretValue } from 'aws-cdk-lib';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import * as z from 'zod';
import { STATE_KEY_ENV } from '../functions/connectors/infra/config';
import type { ProviderId, ProviderSetting } from '../functions/connectors/domain/providers';
import {
  PROVIDER_IDS,
  PROVIDER_SETTINGS,
  providerEnv,
  providerProfileSchema,
} from '../functions/connectors/domain/providers';
import type { RouteDefinition } from '../functions/platform/route-types';
import type { StageConfig } from './stage-config';

type PublicSetting = Exclude<ProviderSetting, 'clientSecret'>;

/** A content-API call: the API, and the token endpoint and client to refresh the access token on use. */
const CONTENT_CALLS: ProviderSetting[] = ['apiUrl', 'tokenUrl', 'clientId', 'clientSecret'];

/** What each route reads: provider settings, and whether it signs or verifies the OAuth state. */
const ROUTE_NEEDS: Record<string, { settings: ProviderSetting[]; stateKey: boolean }> = {
  openConnectLink: { settings: ['authorizeUrl', 'clientId'], stateKey: true },
  oauthCallback: {
    settings: ['tokenUrl', 'accountUrl', 'revokeUrl', 'clientId', 'clientSecret'],
    stateKey: true,
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

const endpoint = z.url({ protocol: /^https?$/ });
const providerSchema = z.strictObject({
  authorizeUrl: endpoint,
  tokenUrl: endpoint,
  revokeUrl: endpoint,
  accountUrl: endpoint,
  /** The content API's root (imports, exports). */
  apiUrl: endpoint.optional(),
  clientId: z.string().min(1),
  /** Account fields, scope tiers, separator, token auth method (PROVIDER_<ID>_PROFILE). */
  profile: providerProfileSchema.optional(),
});
const contextSchema = z.object({
  providers: z.partialRecord(z.enum(PROVIDER_IDS), providerSchema).default({}),
  /** An existing secret (complete ARN) instead of the one the stack creates. */
  secretArn: z.string().startsWith('arn:').optional(),
  /** Pins the secret version the Lambdas get: change it to roll out a new client secret. */
  secretVersion: z.string().min(1).optional(),
});

export type ConnectorContext = z.infer<typeof contextSchema>;

/** Reads `-c connectors='{"providers":{"practice":{...}}}'` (a JSON string or, in cdk.json, an object). */
export function connectorContext(raw: unknown): ConnectorContext {
  const value = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : (raw ?? {});
  const parsed = contextSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid CDK context "connectors": ${issues}`);
  }
  return parsed.data;
}

/** The JSON field of the secret holding a provider's client secret. */
export const clientSecretField = (id: ProviderId) => `${id}_client_secret`;
export const STATE_KEY_FIELD = 'state_signing_key';

export class ConnectorSettings extends Construct {
  readonly secret: ISecret;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: { stage: StageConfig; context: ConnectorContext },
  ) {
    super(scope, id);
    const { stage, context } = props;
    if (stage.stage === 'prod') {
      const plain = Object.entries(context.providers).filter(([, p]) =>
        [p.authorizeUrl, p.tokenUrl, p.revokeUrl, p.accountUrl].some((u) => !u.startsWith('https://')),
      );
      if (plain.length)
        throw new Error(`Provider endpoints must be https in prod: ${plain.map(([k]) => k).join(', ')}`);
    }
    for (const provider of PROVIDER_IDS.filter((p) => !context.providers[p])) {
      Annotations.of(this).addWarningV2(
        'connectors:provider-not-configured',
        `Provider ${provider} has no endpoints in context "connectors": its connect flow fails until configured`,
      );
    }
    this.secret = context.secretArn
      ? Secret.fromSecretCompleteArn(this, 'Secret', context.secretArn)
      : new Secret(this, 'Secret', {
          description:
            'Connector OAuth client secrets (set them after the first deploy) and the state-signing key',
          generateSecretString: {
            secretStringTemplate: JSON.stringify(
              Object.fromEntries(PROVIDER_IDS.map((p) => [clientSecretField(p), 'set-me'])),
            ),
            generateStringKey: STATE_KEY_FIELD,
            passwordLength: 64,
            excludePunctuation: true,
          },
          removalPolicy: stage.stage === 'prod' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
        });
  }

  private fromSecret(field: string): string {
    // A CloudFormation dynamic reference, resolved at deploy time (see docs/decisions.md).
    return SecretValue.secretsManager(this.secret.secretArn, {
      jsonField: field,
      ...(this.props.context.secretVersion ? { versionId: this.props.context.secretVersion } : {}),
    }).unsafeUnwrap();
  }

  /** The environment of one route: only what it reads. Pass to `new Api(..., { environmentFor })`. */
  readonly environmentFor = (route: Pick<RouteDefinition, 'id'>): Record<string, string> => {
    const needs = ROUTE_NEEDS[route.id];
    if (!needs) return {};
    const env: Record<string, string> = {};
    if (needs.stateKey) env[STATE_KEY_ENV] = this.fromSecret(STATE_KEY_FIELD);
    for (const provider of PROVIDER_IDS) {
      const configured = this.props.context.providers[provider];
      if (!configured) continue;
      if (configured.profile) env[providerEnv(provider, 'PROFILE')] = JSON.stringify(configured.profile);
      for (const setting of needs.settings) {
        const value =
          setting === 'clientSecret'
            ? this.fromSecret(clientSecretField(provider))
            : configured[setting as PublicSetting];
        if (value !== undefined) env[providerEnv(provider, PROVIDER_SETTINGS[setting])] = value;
      }
    }
    return env;
  };
}
