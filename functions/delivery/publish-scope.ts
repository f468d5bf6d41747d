// Where a system key may publish. A system key in the platform's organization publishes for the
// platform, into any existing organization; one bound to a customer organization (minted there on
// purpose, `--org-bound`) publishes into that organization only. The body's organizationId is never
// trusted on its own.
import type { Directory, Principal } from '../directory/directory';
import { InvalidRequestError, PermissionDeniedError } from '../platform/errors';

export async function assertMayPublishInto(
  directory: Pick<Directory, 'getOrganization'>,
  principal: Principal,
  organizationId: string,
): Promise<void> {
  if (!principal.system) throw new PermissionDeniedError('Only a system key may call this route');
  if (organizationId === principal.organizationId) return;
  const own = await directory.getOrganization(principal.organizationId);
  if (!own?.platform) {
    throw new PermissionDeniedError(
      "This system key is bound to its organization: organizationId must be the key's own",
    );
  }
  if (!(await directory.getOrganization(organizationId))) {
    throw new InvalidRequestError('Invalid request body: organizationId: no such organization');
  }
}
