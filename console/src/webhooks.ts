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
}
export interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  status: string;
  attemptCount: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  nextAttemptAt: string | null;
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
}
export interface EventType {
  type: string;
  description: string;
  permission: string;
}

export function endpointBadge(endpoint: Endpoint): HTMLElement {
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
