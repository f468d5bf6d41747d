// Who is calling with an API key: what the authorizer puts in the request context and routes check.
import type { Permission } from './permissions';

/** Who is calling: what the authorizer puts in the request context. */
export interface Principal {
  organizationId: string;
  keyId: string;
  permissions: Permission[];
  system: boolean;
}
