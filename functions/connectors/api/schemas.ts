// Request schemas of the connector routes: the single source of their types (and of the OpenAPI document).
import * as z from 'zod/mini';
import { loopbackAllowed } from '../../platform/config';
import { idSchema } from '../../platform/ids';
import { lazy } from '../../platform/lazy';
import { paginationQuery } from '../../platform/pagination-query';
import { documentedUrl, hostProblem, normalizeUrl, rawUrlProblem } from '../../platform/urls';
import { CONNECTION_STATUSES } from '../domain/connection';
import { CONNECT_TOKEN_PATTERN, STATE_PATTERN } from '../domain/flow-crypto';
import { PROVIDERS, PROVIDER_IDS } from '../domain/providers';
import type { ProviderId } from '../domain/providers';
import { paramSpecs } from '../domain/connection-params';

const MAX_RETURN_URL = 2048;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1']);

/**
 * The return_url rules: absolute, https (http on localhost or 127.0.0.1 outside production), no
 * embedded credentials. Returns the reason it is refused, or undefined when it is acceptable.
 */
export function returnUrlProblem(value: string, options: { loopbackAllowed: boolean }): string | undefined {
  if (value.length > MAX_RETURN_URL) return `must be at most ${MAX_RETURN_URL} characters`;
  const raw = rawUrlProblem(value);
  if (raw) return raw;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not contain credentials';
  if (url.protocol === 'https:') return url.hostname ? hostProblem(url.hostname) : 'must name a host';
  if (url.protocol === 'http:') {
    if (!LOOPBACK_HOSTS.has(url.hostname)) return 'must use https (http only on localhost or 127.0.0.1)';
    return options.loopbackAllowed ? undefined : 'must use https';
  }
  return 'must be an absolute https URL';
}

export const returnUrl = lazy(() =>
  documentedUrl(
    z.pipe(
      z
        .string({ error: 'return_url is required and must be a string' })
        .check(z.maxLength(MAX_RETURN_URL, `must be at most ${MAX_RETURN_URL} characters`))
        .check(
          z.superRefine((value, ctx) => {
            const problem = returnUrlProblem(value, { loopbackAllowed: loopbackAllowed() });
            if (problem) ctx.addIssue({ code: 'custom', message: problem });
          }),
        ),
      z.transform(normalizeUrl),
    ),
    'Where the browser is sent back, with connection_id or error appended: absolute, https (http on ' +
      'localhost or 127.0.0.1 outside production), no credentials, no spaces or control characters',
  ),
);

const providerMessage = `provider must be one of ${PROVIDER_IDS.join(', ')}`;
const provider = lazy(() => z.enum(PROVIDER_IDS, { error: providerMessage }));

/**
 * The provider's scope tiers as configured (PROVIDER_<ID>_PROFILE), read at the first parse, not at
 * import, so a route reads only the providers it touches; the document shows the tiers of the
 * configuration it is built under.
 */
const scopeTier = (id: ProviderId) =>
  z
    .optional(
      z.lazy(() => {
        const tiers = Object.keys(PROVIDERS[id].scopeTiers) as [string, ...string[]];
        return z.enum(tiers, { error: `unknown for ${id}; known: ${tiers.join(', ')}` });
      }),
    )
    .check(z.describe("A scope tier of the provider; omitted means the provider's default tier"));

/** One shape per provider, so the scope tiers shown (and accepted) are that provider's own. */
export const createConnectionBody = lazy(() =>
  z.discriminatedUnion(
    'provider',
    PROVIDER_IDS.map((id) =>
      z.strictObject({
        provider: z.literal(id),
        return_url: returnUrl(),
        scope_tier: scopeTier(id),
        ...(PROVIDERS[id].params ? { params: connectionParams(id) } : {}),
      }),
    ) as unknown as [CreateConnectionShape, ...CreateConnectionShape[]],
    {
      error: (issue) =>
        issue.code === 'invalid_union'
          ? providerMessage
          : issue.code === 'invalid_type'
            ? 'must be an object'
            : undefined,
    },
  ),
);
type CreateConnectionShape = z.ZodMiniObject<{
  provider: z.ZodMiniLiteral<ProviderId>;
  return_url: ReturnType<typeof returnUrl>;
  scope_tier: ReturnType<typeof scopeTier>;
  params: z.ZodMiniOptional<z.ZodMiniType<Record<string, string | undefined>>>;
}>;

/**
 * A provider's params (a region, a server), each optional here: one not given is asked on the connect
 * page. The values' own rules (a host name's form, the deployment's allowed hosts) are checked by the
 * use case (app/connection-params.ts), which names the param in its 400.
 */
const connectionParams = (id: ProviderId) =>
  z.optional(
    z
      .strictObject(
        Object.fromEntries(
          paramSpecs(PROVIDERS[id]).map(([name, spec]) => [
            name,
            z
              .optional(
                spec.kind === 'choice'
                  ? z.enum(Object.keys(spec.choices) as [string, ...string[]], {
                      error: `must be one of ${Object.keys(spec.choices).join(', ')}`,
                    })
                  : z
                      .string()
                      .check(
                        z.maxLength(253),
                        z.regex(
                          /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/i,
                          'must be a DNS host name (letters, digits and hyphens, dot-separated, with a domain)',
                        ),
                      ),
              )
              .check(z.describe(`${spec.label}: ${spec.description}`)),
          ]),
        ) as Record<string, z.ZodMiniOptional<z.ZodMiniString>>,
      )
      .check(
        z.describe(
          "What the provider must know before the consent (GET /connectors/v1/providers lists each provider's params); those not given are asked on the connect page",
        ),
      )
      // A named schema per provider (NetdocumentsConnectionParams): generated clients get one type each.
      .register(z.globalRegistry, { id: `${pascal(id)}ConnectionParams` }),
  );

/** `google_drive` -> `GoogleDrive`. */
const pascal = (id: string): string =>
  id.replace(/(^|_)([a-z])/g, (_whole, _sep: string, letter: string) => letter.toUpperCase());

export const connectionIdPath = lazy(() => z.object({ id: idSchema('conn', 'a connection') }));

export const listConnectionsQuery = lazy(() =>
  z.extend(paginationQuery(), {
    provider: z.optional(provider()),
    status: z.optional(
      z.enum(CONNECTION_STATUSES, { error: `status must be one of ${CONNECTION_STATUSES.join(', ')}` }),
    ),
  }),
);

export const deleteConnectionQuery = lazy(() =>
  z.object({
    purge: z.optional(z.enum(['true', 'false'], { error: 'purge must be true or false' })),
  }),
);

export const setProviderEnabledBody = lazy(() =>
  z.strictObject({
    provider: provider(),
    enabled: z.boolean({ error: 'enabled is required and must be a boolean' }),
    allowed_hosts: z
      .optional(
        z.nullable(
          z
            .array(
              z
                .string()
                .check(
                  z.regex(
                    /^(\*\.)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/,
                    'must be a lower-case DNS host name, or *. and one (any name under it)',
                  ),
                ),
            )
            .check(z.maxLength(50)),
        ),
      )
      .check(
        z.describe(
          "A provider whose connections name a server (an iManage Work host): the hosts this organization's connections may name, exact or `*.example.com`, over the deployment's own list. Null or empty: any the deployment allows. Omitted: unchanged",
        ),
      ),
    confirm_organization_wide: z.literal(true, {
      error: 'confirm_organization_wide must be true: this changes the provider for the whole organization',
    }),
  }),
);

export const connectTokenPath = lazy(() =>
  z.object({
    token: z
      .string()
      .check(z.regex(CONNECT_TOKEN_PATTERN, 'must be a connect token (43 characters of base64url)')),
  }),
);

export const callbackPath = lazy(() =>
  z.object({
    provider: z.enum(PROVIDER_IDS, { error: `must be one of ${PROVIDER_IDS.join(', ')}` }),
  }),
);

/**
 * What the provider sends back; `iss` is checked when the provider advertises it (RFC 9207). `state` is
 * always there (we always send one): without it the callback cannot name its flow. Only the connect flow
 * can make a state that verifies; any other of this form is forged (400).
 */
export const callbackQuery = lazy(() =>
  z.looseObject({
    code: z.optional(z.string().check(z.maxLength(4096))),
    state: z
      .string({ error: 'missing, forged or unknown' })
      .check(z.regex(STATE_PATTERN, 'missing, forged or unknown'))
      .check(z.describe('The signed state the connect flow sent to the provider')),
    error: z.optional(z.string().check(z.maxLength(256))),
    iss: z.optional(z.string().check(z.maxLength(2048))),
  }),
);
