// Where a system key may publish. A system key in the platform's organization publishes for the
// platform, into any existing organization; one bound to a customer organization (minted there on
// purpose, `--org-bound`) publishes into that organization only. The body's organizationId is never
// trusted on its own.
import type { Principal } from '../../platform/principal';
import type { OrganizationRecord } from '../../platform/tenancy';
import { NotFoundError, PermissionDeniedError } from '../../platform/errors';

export async function assertMayPublishInto(
  organization: (id: string) => Promise<OrganizationRecord | undefined>,
  principal: Principal,
  organizationId: string,
): Promise<void> {
  if (!principal.system) throw new PermissionDeniedError('Only a system key may call this route');
  if (organizationId === principal.organizationId) return;
  const own = await organization(principal.organizationId);
  if (!own?.platform) {
    throw new PermissionDeniedError(
      "This system key is bound to its organization: organizationId must be the key's own",
    );
  }
  // Well formed but naming no organization: the target is not found (404), the request is not malformed.
  if (!(await organization(organizationId))) {
    throw new NotFoundError('organizationId: no such organization');
  }
}
