// What publishing through the API reads and keeps: the organizations a system key may publish into
// (the platform table) and the Idempotency-Key records of POST /webhooks/v1/events (the webhooks table).
import type { IdempotentOutcome } from '../../../platform/idempotency';
import { idempotent } from '../../../platform/idempotency';
import type { Deps } from '../../../platform/ports';
import type { OrganizationRecord } from '../../../platform/tenancy';
import { organizationRecord } from '../../../platform/tenancy';

/** Looks organizations up by id. */
export const organizations =
  (deps: Pick<Deps, 'tables'>) =>
  (id: string): Promise<OrganizationRecord | undefined> =>
    organizationRecord(deps.tables.platform, id);

/** Runs `publish` once per Idempotency-Key of the calling key (platform/idempotency.ts). */
export function publishOnce<S>(
  deps: Pick<Deps, 'tables' | 'clock'>,
  scope: { keyId: string; route: string; key: string | undefined; request: unknown },
  publish: () => Promise<S>,
): Promise<IdempotentOutcome<S>> {
  return idempotent(deps.tables.webhooks, deps.clock, scope, publish);
}
