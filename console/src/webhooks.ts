// What the webhook pages read from the API, and how its states are shown.
import { badge } from './dom';

export const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed', 'skipped_disabled'];

export interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  eventTypeFilters: string[];
  resourceScopes: { vaultIds?: string[]; matterIds?: string[] } | null;
  enabled: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  createdAt: string;
  previousSecretExpiresAt: string | null;
  /** Since when its deliveries keep failing (no success since); null when healthy. */
  failingSince?: string | null;
}
export interface Delivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: string;
  failureReason: string | null;
  attemptCount: number;
  lastStatusCode: number | null;
  /** How long the last attempt took (absent before the first attempt). */
  lastLatencyMs?: number;
  lastError: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  deliveredAt: string | null;
  nextAttemptAt: string | null;
  /** The event as the receiver was sent it. */
  event: unknown;
}
export interface Attempt {
  attempt: number;
  attemptedAt: string;
  outcome: string;
  statusCode: number | null;
  errorKind: string | null;
  errorMessage: string | null;
  latencyMs: number;
  responseBody: string;
  /** The request headers sent (the signature cut to its prefix) and the response's headers. */
  requestHeaders?: Record<string, string>;
  responseHeaders?: Record<string, string>;
}
/** POST /webhooks/v1/endpoints/{id}/test: the attempt's outcome. */
export interface TestDelivery {
  eventId: string;
  delivered: boolean;
  outcome: string;
  statusCode: number | null;
  errorKind: string | null;
  errorMessage: string | null;
  latencyMs: number;
  responseBody: string;
}
export interface EventType {
  type: string;
  description: string;
  permission: string;
  /** JSON Schema of the event's data. */
  schema: Record<string, unknown>;
}

export function endpointBadge(endpoint: Endpoint): HTMLElement {
  if (endpoint.enabled && endpoint.failingSince) return badge('failing', 'bad');
  if (endpoint.enabled) return badge('enabled', 'ok');
  return badge(
    endpoint.disabledReason?.startsWith('Disabled automatically') ? 'auto-disabled' : 'disabled',
    'bad',
  );
}

export function deliveryTone(status: string): 'ok' | 'warn' | 'bad' | 'neutral' {
  return status === 'delivered'
    ? 'ok'
    : status === 'failed'
      ? 'bad'
      : status === 'retrying'
        ? 'warn'
        : 'neutral';
}
