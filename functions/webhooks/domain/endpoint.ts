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
  // Events a change emitted and not yet known to be published ride in `outbox_<event id>`
  // attributes (functions/events' outbox; app/outbox.ts flushes them).
}
