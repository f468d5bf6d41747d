// A webhook endpoint as stored (its keys are the endpoint repository's; the API's view is in
// app/endpoints.ts).
import type { SealedValue } from '../../platform/envelope';
import type { Permission } from '../../platform/permissions';
import type { ResourceScopes } from './filters';

export interface StoredSecret {
  sealed: SealedValue;
  createdAt: number;
  /** Epoch ms after which it no longer signs; absent on the current secret. */
  retiresAt?: number;
}

/**
 * An event the endpoint's last change emits, written with that change (the item-embedded outbox) and
 * published after it by the worker that made it, or by the next worker that reads the endpoint.
 */
export interface OutboxEvent {
  /** Fixed when the change is written: a second publication is the same event (fan-out is idempotent per id). */
  id: string;
  type: string;
  data: Record<string, unknown>;
}

export interface EndpointItem {
  id: string;
  organizationId: string;
  url: string;
  eventTypeFilters: string[];
  resourceScopes?: ResourceScopes;
  description?: string;
  enabled: boolean;
  disabledAt?: number;
  disabledReason?: string;
  createdAt: number;
  updatedAt: number;
  /** Permissions of the key that last set the filters: what `*` and fan-out are narrowed to. */
  permissions: Permission[];
  permissionsFromKeyId: string;
  /** Newest first. */
  signingSecrets: StoredSecret[];
  secretVersion: number;
  /** Events of the last change not yet known to be published, and the token that clears them. */
  outbox?: OutboxEvent[];
  outboxToken?: string;
}
