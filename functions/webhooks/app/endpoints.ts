// Webhook endpoint use cases over the webhooks table: subscriptions with KMS-sealed signing secrets,
// organization-scoped (another organization's endpoint is simply not found).
import type { Principal } from '../../platform/principal';
import type { SendOptions } from '../infra/send';
import { sendWebhook } from '../infra/send';
import { receiverBody } from '../../events';
import { epochSeconds, isoTime, wallTime } from '../../platform/clock';
import type { Deps } from '../../platform/ports';
import { getHealth } from '../infra/repositories/health';
import { open, seal } from '../../platform/envelope';
import { shownErrorMessage } from '../../platform/addresses';
import { ConflictError, NotFoundError, PermissionDeniedError } from '../../platform/errors';
import { isId, newId } from '../../platform/ids';
import type { Pagination, Window } from '../../platform/pagination';
import * as endpoints from '../infra/repositories/endpoints';
import { endpointScope } from '../infra/repositories/endpoints';
import { permissionsNeeded } from '../domain/filters';
import type { OpenedSecret } from './endpoint-cache';
import { cacheSecrets, cachedSecrets, forgetEndpoint } from './endpoint-cache';
import type { CreateEndpointInput, UpdateEndpointInput } from '../domain/endpoint-schemas';
import type { EndpointItem } from '../domain/endpoint';
import type { EndpointWithSecret, TestDelivery, WebhookEndpoint } from '../api/views';
import { generateSigningSecret } from '../domain/signing';

export type { EndpointItem } from '../domain/endpoint';

/** How long a rotated-out secret keeps signing next to the new one. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

type EndpointDeps = Pick<Deps, 'tables' | 'keys' | 'clock'>;

/** The endpoint as the API shows it (api/views.ts): never a secret, nor the stored permissions. */
export type { WebhookEndpoint } from '../api/views';

/** Binds a sealed secret to its organization and endpoint: it opens for no other. */
export const secretContext = (organizationId: string, endpointId: string): Record<string, string> => ({
  purpose: 'webhook-signing-secret',
  organizationId,
  endpointId,
});

export function toView(item: EndpointItem, now: number): WebhookEndpoint {
  const retiring = item.signingSecrets.filter((s) => s.retiresAt !== undefined && s.retiresAt > now);
  const lastRetiring = Math.max(...retiring.map((s) => s.retiresAt!));
  return {
    id: item.id,
    url: item.url,
    description: item.description ?? null,
    eventTypeFilters: item.eventTypeFilters,
    resourceScopes: item.resourceScopes ?? null,
    enabled: item.enabled,
    disabledAt: item.disabledAt === undefined ? null : isoTime(item.disabledAt),
    disabledReason: item.disabledReason ?? null,
    createdAt: isoTime(item.createdAt),
    updatedAt: isoTime(item.updatedAt),
    previousSecretExpiresAt: retiring.length ? isoTime(lastRetiring) : null,
  };
}

/** 403 when the filters select a type the key may not receive (`*` is narrowed instead, at fan-out). */
function checkReceivable(filters: readonly string[], principal: Principal): void {
  for (const [permission, types] of permissionsNeeded(filters)) {
    if (!principal.permissions.includes(permission)) {
      throw new PermissionDeniedError(
        `eventTypeFilters: this key lacks the ${permission} permission needed to receive ${types.join(', ')}`,
      );
    }
  }
}

export async function loadEndpoint(
  deps: Pick<Deps, 'tables'>,
  organizationId: string,
  id: string,
): Promise<EndpointItem> {
  // A malformed id cannot exist; answering 404 also keeps odd strings away from the table's key.
  const item = isId('we', id) ? await endpoints.getEndpoint(deps, organizationId, id) : undefined;
  if (!item) throw new NotFoundError('Webhook endpoint not found');
  return item;
}

export async function createEndpoint(
  deps: EndpointDeps,
  principal: Principal,
  input: CreateEndpointInput,
): Promise<EndpointWithSecret> {
  checkReceivable(input.eventTypeFilters, principal);
  const now = deps.clock.now();
  const id = newId('we');
  const signingSecret = generateSigningSecret();
  const createdAt = now;
  const item: EndpointItem = {
    id,
    organizationId: principal.organizationId,
    url: input.url,
    eventTypeFilters: input.eventTypeFilters,
    ...(input.resourceScopes ? { resourceScopes: input.resourceScopes } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    enabled: true,
    createdAt,
    updatedAt: createdAt,
    permissions: [...principal.permissions],
    permissionsFromKeyId: principal.keyId,
    signingSecrets: [
      {
        sealed: await seal(deps.keys, signingSecret, secretContext(principal.organizationId, id)),
        createdAt,
      },
    ],
    secretVersion: 1,
  };
  await endpoints.createEndpoint(deps, item);
  forgetEndpoint(endpointScope(deps), principal.organizationId, id);
  return { endpoint: toView(item, now), signingSecret };
}

export async function listEndpoints(
  deps: EndpointDeps,
  organizationId: string,
  page: Pagination,
  visible: (item: EndpointItem) => boolean = () => true,
): Promise<Window<WebhookEndpoint>> {
  const window = await endpoints.endpointWindow(deps, organizationId, page, visible);
  const now = deps.clock.now();
  const items = await Promise.all(window.items.map((item) => withHealth(deps, toView(item, now))));
  return { items, hasMore: window.hasMore };
}

export async function getEndpoint(
  deps: EndpointDeps,
  organizationId: string,
  id: string,
): Promise<WebhookEndpoint> {
  return withHealth(deps, toView(await loadEndpoint(deps, organizationId, id), deps.clock.now()));
}

/**
 * The read views say whether deliveries keep failing (the health item's streak, written by the
 * delivery worker): an endpoint retrying every delivery reads `failingSince`, not just `enabled`.
 */
export async function withHealth(deps: EndpointDeps, view: WebhookEndpoint): Promise<WebhookEndpoint> {
  const since = (await getHealth(deps, view.id)).failingSinceAt;
  return { ...view, failingSince: since === undefined ? null : isoTime(since) };
}

async function updateExisting(
  deps: EndpointDeps,
  organizationId: string,
  id: string,
  set: Partial<EndpointItem>,
  remove: (keyof EndpointItem)[] = [],
): Promise<WebhookEndpoint> {
  await loadEndpoint(deps, organizationId, id);
  const updated = await endpoints.updateEndpoint(
    deps,
    organizationId,
    id,
    { ...set, updatedAt: deps.clock.now() },
    remove,
  );
  forgetEndpoint(endpointScope(deps), organizationId, id);
  if (!updated) throw new NotFoundError('Webhook endpoint not found');
  return toView(updated, deps.clock.now());
}

/**
 * New filters are checked against the calling key, whose permissions then become the endpoint's: an
 * endpoint receives what the key that last chose its filters may receive.
 */
export async function updateEndpoint(
  deps: EndpointDeps,
  principal: Principal,
  id: string,
  patch: UpdateEndpointInput,
): Promise<WebhookEndpoint> {
  const set: Partial<EndpointItem> = {};
  const remove: (keyof EndpointItem)[] = [];
  if (patch.url !== undefined) set.url = patch.url;
  if (patch.eventTypeFilters !== undefined) {
    checkReceivable(patch.eventTypeFilters, principal);
    set.eventTypeFilters = patch.eventTypeFilters;
    set.permissions = [...principal.permissions];
    set.permissionsFromKeyId = principal.keyId;
  }
  if (patch.resourceScopes === null) remove.push('resourceScopes');
  else if (patch.resourceScopes !== undefined) set.resourceScopes = patch.resourceScopes;
  if (patch.description === null) remove.push('description');
  else if (patch.description !== undefined) set.description = patch.description;
  return updateExisting(deps, principal.organizationId, id, set, remove);
}

/** Every endpoint of an organization as stored: fan-out matches on filters, scopes and permissions. */
export function listEndpointItems(
  deps: Pick<Deps, 'tables'>,
  organizationId: string,
): Promise<EndpointItem[]> {
  return endpoints.allEndpoints(deps, organizationId);
}

export async function setEndpointEnabled(
  deps: EndpointDeps,
  organizationId: string,
  id: string,
  enabled: boolean,
): Promise<WebhookEndpoint> {
  return enabled
    ? updateExisting(deps, organizationId, id, { enabled: true }, ['disabledAt', 'disabledReason'])
    : updateExisting(deps, organizationId, id, {
        enabled: false,
        disabledAt: deps.clock.now(),
        disabledReason: 'disabled through the API',
      });
}

export async function deleteEndpoint(deps: EndpointDeps, organizationId: string, id: string): Promise<void> {
  await loadEndpoint(deps, organizationId, id);
  const deleted = await endpoints.deleteEndpoint(deps, organizationId, id);
  forgetEndpoint(endpointScope(deps), organizationId, id);
  if (!deleted) throw new NotFoundError('Webhook endpoint not found');
}

/** At most this many secrets sign at once: a rotation that would make more is refused (409). */
export const MAX_SIGNING_SECRETS = 5;

/**
 * A new secret becomes current; the one it replaces keeps signing for `overlapMs` (deliveries carry
 * every signature meanwhile). Secrets already past their window are dropped; none inside it is, so
 * each rotated-out secret verifies for its whole window however often the secret is rotated.
 */
export async function rotateSecret(
  deps: EndpointDeps,
  organizationId: string,
  id: string,
  overlapMs = SECRET_OVERLAP_MS,
): Promise<EndpointWithSecret> {
  const signingSecret = generateSigningSecret();
  const sealed = await seal(deps.keys, signingSecret, secretContext(organizationId, id));
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await loadEndpoint(deps, organizationId, id);
    const now = deps.clock.now();
    const kept = current.signingSecrets
      .map((s) => (s.retiresAt === undefined ? { ...s, retiresAt: now + overlapMs } : s))
      .filter((s) => s.retiresAt! > now);
    if (kept.length >= MAX_SIGNING_SECRETS) {
      throw new ConflictError(
        `${kept.length + 1} secrets would sign at once; rotate again when the oldest retires ` +
          `(${isoTime(Math.min(...kept.map((s) => s.retiresAt!)))})`,
      );
    }
    const next: EndpointItem = {
      ...current,
      signingSecrets: [{ sealed, createdAt: now }, ...kept],
      secretVersion: current.secretVersion + 1,
      updatedAt: now,
    };
    if (await endpoints.replaceEndpoint(deps, next, current.secretVersion)) {
      forgetEndpoint(endpointScope(deps), organizationId, id);
      return { endpoint: toView(next, now), signingSecret };
    }
  }
  throw new ConflictError('The endpoint changed while its secret was being rotated; retry');
}

/**
 * The secrets that sign a delivery now, newest first. Opened with KMS once per secret version and kept
 * in this process's memory for a while (endpoint-cache.ts), so warm attempts make no KMS call.
 */
export async function activeSigningSecrets(deps: EndpointDeps, endpoint: EndpointItem): Promise<string[]> {
  const now = deps.clock.now();
  let opened = cachedSecrets(endpointScope(deps), endpoint, now);
  if (!opened) {
    const context = secretContext(endpoint.organizationId, endpoint.id);
    opened = await Promise.all(
      // Only those active now: a retired secret never signs again, and its version is never reused.
      endpoint.signingSecrets
        .filter((s) => s.retiresAt === undefined || s.retiresAt > now)
        .map(async (s): Promise<OpenedSecret> => ({
          secret: await open(deps.keys, s.sealed, context),
          ...(s.retiresAt !== undefined ? { retiresAt: s.retiresAt } : {}),
        })),
    );
    cacheSecrets(endpointScope(deps), endpoint, opened, now);
  }
  return opened.filter((s) => s.retiresAt === undefined || s.retiresAt > now).map((s) => s.secret);
}

/** The test attempt, reported like an attempt in a delivery's history. */
export type TestDeliveryResult = TestDelivery;

/** Sends a `webhook.test` event to the endpoint now (enabled or not), signed with its active secrets. */
export async function sendTestEvent(
  deps: EndpointDeps,
  organizationId: string,
  id: string,
  options: SendOptions,
): Promise<TestDeliveryResult> {
  const endpoint = await loadEndpoint(deps, organizationId, id);
  const now = deps.clock.now();
  const event = {
    id: newId('evt'),
    type: 'webhook.test',
    occurred_at: isoTime(now),
    data: { endpointId: endpoint.id, message: 'Test event sent on request from the webhooks API' },
  };
  const secrets = await activeSigningSecrets(deps, endpoint);
  const outcome = await sendWebhook(
    {
      url: endpoint.url,
      eventId: event.id,
      body: receiverBody(event),
      secrets,
      timestampSeconds: epochSeconds(wallTime(deps.clock)),
      clock: deps.clock,
    },
    options,
  );
  return {
    eventId: event.id,
    delivered: outcome.kind === 'delivered',
    outcome: outcome.kind,
    statusCode: outcome.statusCode ?? null,
    errorKind: outcome.errorKind ?? null,
    errorMessage: shownErrorMessage(outcome.errorKind, outcome.errorMessage),
    latencyMs: outcome.latencyMs,
    responseBody: outcome.responseBody,
  };
}
