// The directory's records: organizations, API keys, applications and key bindings, as the use cases
// and the repositories (infra/repositories/) exchange them. No key format here: the repositories own those.
import type { Permission } from '../../platform/permissions';

export interface Organization {
  id: string;
  name: string;
  createdAt: number;
  /** The platform's own organization holds the system keys platform services publish with. */
  platform?: true;
}

export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  name: string;
  permissions: Permission[];
  system: boolean;
  createdAt: number;
  revokedAt?: number;
}

/** A key as stored: its record and the hash of its secret (never the secret). */
export interface StoredApiKey extends ApiKeyRecord {
  secretHash: string;
}

export interface Application {
  id: string;
  organizationId: string;
  name: string;
  createdAt: number;
}

export interface KeyBinding {
  id: string;
  applicationId: string;
  apiKeyId: string;
  organizationId: string;
  createdAt: number;
  /** The console user who made it. */
  createdBy: string;
}
