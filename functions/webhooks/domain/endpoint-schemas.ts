// Request schemas of the webhook routes: the single source of their types and validation messages.
import * as z from 'zod/mini';
import { lazy } from '../../platform/lazy';
import { isIpLiteral, classifyAddress } from '../../platform/addresses';
import { loopbackAllowed } from '../../platform/config';
import { idSchema } from '../../platform/ids';
import {
  documentedUrl,
  hostName,
  hostProblem,
  normalizeUrl,
  rawUrlProblem,
  withMeta,
} from '../../platform/urls';
import { VALID_FILTERS, filterProblem } from './filters';

export const LIMITS = {
  urlLength: 2048,
  filters: 50,
  filterLength: 200,
  scopeIds: 100,
  scopeIdLength: 128,
  descriptionLength: 500,
} as const;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1']);

/**
 * Why an endpoint URL is refused, or undefined. https only; http on localhost / 127.0.0.1 outside
 * production; no credentials; in production no literal private, loopback, link-local or metadata
 * address (names are checked again, after DNS, at every delivery).
 */
export function endpointUrlProblem(raw: string, options: { loopbackAllowed: boolean }): string | undefined {
  const typed = rawUrlProblem(raw);
  if (typed) return typed;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  const host = hostName(url.hostname.toLowerCase());
  const notDns = hostProblem(url.hostname);
  if (notDns) return notDns;
  if (url.protocol === 'http:') {
    if (!options.loopbackAllowed) return 'must use https';
    if (!LOOPBACK_HOSTS.has(host))
      return 'must use https (http is accepted only for localhost and 127.0.0.1)';
  } else if (url.protocol !== 'https:') {
    return 'must use https';
  }
  if (url.username || url.password) return 'must not embed credentials (user:password@host)';
  if (!options.loopbackAllowed) {
    if (host === 'localhost' || host.endsWith('.localhost')) return 'must not point at localhost';
    if (isIpLiteral(host) && classifyAddress(host) !== 'public') {
      return `must not point at a ${classifyAddress(host)} address`;
    }
  }
  return undefined;
}

const endpointUrl = lazy(() =>
  documentedUrl(
    z.pipe(
      z
        .string({ error: 'must be a string' })
        .check(z.maxLength(LIMITS.urlLength, `must be at most ${LIMITS.urlLength} characters`))
        .check(
          z.superRefine((value, ctx) => {
            const problem = endpointUrlProblem(value, { loopbackAllowed: loopbackAllowed() });
            if (problem) ctx.addIssue({ code: 'custom', message: problem });
          }),
        ),
      z.transform(normalizeUrl),
    ),
    'The receiver: https (http on localhost or 127.0.0.1 outside production), no credentials, no ' +
      'spaces or control characters; in production no localhost and no private, loopback, link-local ' +
      'or metadata address',
  ),
);

/** Refuses repeated values (400 naming the index) and says so in the document (uniqueItems). */
const distinct = <T extends z.ZodMiniArray<z.ZodMiniType<string>>>(array: T): T =>
  withMeta(
    array.check(
      z.superRefine((values, ctx) => {
        const seen = new Set<string>();
        values.forEach((value, index) => {
          if (seen.has(value))
            ctx.addIssue({ code: 'custom', path: [index], message: `duplicate value ${value}` });
          seen.add(value);
        });
      }),
    ),
    { uniqueItems: true },
  );

/** An enum of every acceptable filter; the message says why one is not. */
const eventTypeFilter = lazy(() =>
  z.enum(VALID_FILTERS as [string, ...string[]], {
    error: (issue) => {
      const input: unknown = issue.input;
      if (typeof input !== 'string') return 'must be a string';
      if (input.length > LIMITS.filterLength) return `must be at most ${LIMITS.filterLength} characters`;
      return filterProblem(input);
    },
  }),
);

const eventTypeFilters = lazy(() =>
  distinct(
    z
      .array(eventTypeFilter(), { error: 'must be an array of strings' })
      .check(z.minLength(1, 'must name at least one filter'))
      .check(z.maxLength(LIMITS.filters, `must name at most ${LIMITS.filters} filters`))
      .check(z.describe('Exact event types, prefix wildcards that select at least one type (vault.*), or *')),
  ),
);

const scopeIds = lazy(() =>
  distinct(
    z
      .array(
        z
          .string({ error: 'must be a string' })
          .check(z.regex(/^[A-Za-z0-9_-]+$/, 'must be an identifier (letters, digits, _ and -)'))
          .check(z.maxLength(LIMITS.scopeIdLength, `must be at most ${LIMITS.scopeIdLength} characters`)),
        { error: 'must be an array of strings' },
      )
      .check(z.minLength(1, 'must name at least one id (omit the field for no restriction)'))
      .check(z.maxLength(LIMITS.scopeIds, `must name at most ${LIMITS.scopeIds} ids`)),
  ),
);

/** "must be an object" for a wrong type; zod's own message (naming the key) for unknown keys. */
function objectExpected(issue: { code?: string }): string | undefined {
  return issue.code === 'invalid_type' ? 'must be an object' : undefined;
}

// minProperties: the document's way of saying "at least one of the fields", which is the refinement.
const resourceScopes = lazy(() =>
  z
    .strictObject(
      { vaultIds: z.optional(scopeIds()), matterIds: z.optional(scopeIds()) },
      { error: objectExpected },
    )
    .check(
      z.refine(
        (s) => s.vaultIds !== undefined || s.matterIds !== undefined,
        'must name vaultIds or matterIds',
      ),
    )
    .clone()
    .register(z.globalRegistry, { minProperties: 1 }),
);

const description = lazy(() =>
  z
    .string({ error: 'must be a string' })
    .check(z.maxLength(LIMITS.descriptionLength, `must be at most ${LIMITS.descriptionLength} characters`)),
);

export const createEndpointBody = lazy(() =>
  z.strictObject(
    {
      url: endpointUrl(),
      eventTypeFilters: eventTypeFilters(),
      resourceScopes: z.optional(resourceScopes()),
      description: z.optional(description()),
    },
    { error: objectExpected },
  ),
);

/** PATCH: any of the fields; null removes resourceScopes or description. */
export const updateEndpointBody = lazy(() =>
  z
    .strictObject(
      {
        url: z.optional(endpointUrl()),
        eventTypeFilters: z.optional(eventTypeFilters()),
        resourceScopes: z.optional(z.nullable(resourceScopes())),
        description: z.optional(z.nullable(description())),
      },
      { error: objectExpected },
    )
    .check(
      z.refine(
        (patch) => Object.keys(patch).length > 0,
        'must change at least one of url, eventTypeFilters, resourceScopes, description',
      ),
    )
    .clone()
    .register(z.globalRegistry, { minProperties: 1 }),
);

export const endpointPath = lazy(() => z.object({ id: idSchema('we', 'a webhook endpoint') }));

export type CreateEndpointInput = z.infer<ReturnType<typeof createEndpointBody>>;
export type UpdateEndpointInput = z.infer<ReturnType<typeof updateEndpointBody>>;
