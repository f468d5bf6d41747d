// A connection's lifecycle states (spec: States and transitions) and the record that holds them.
import type { ConnectionParams } from './connection-params';
import type { ProviderId } from './providers';

export const CONNECTION_STATUSES = ['pending', 'healthy', 'reauth_required', 'revoked', 'throttled'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

export interface Account {
  external_id: string;
  email: string;
  display_name: string;
}

export interface ConnectionRecord {
  id: string;
  organizationId: string;
  provider: ProviderId;
  status: ConnectionStatus;
  scopeTier: string;
  returnUrl: string;
  /**
   * What its provider was told before the consent (a region, a server): as the customer's server gave
   * them while pending, every declared param once connected. Never changed afterwards.
   */
  params?: ConnectionParams;
  account?: Account;
  /** Epoch ms, as every stored instant (ISO only in API views). */
  createdAt: number;
  updatedAt: number;
  /**
   * Fences every change (connection-decide.ts): a decision made on version n is written only while n
   * is stored, as n + 1. Absent (0) on connections written before it existed.
   */
  version?: number;
  /** Set when a reconnect folded this pending connection into an existing one. */
  supersededBy?: string;
  /** The hash of its one live connect link: a reissued link retires the one before it. */
  linkHash?: string;
  revokedAt?: number;
  /** While throttled: when the throttle ends and the status it returns to. */
  throttleEndsAt?: number;
  previousStatus?: ConnectionStatus;
  /** Consecutive throttles since the last successful refresh (drives the backoff without Retry-After). */
  throttleCount?: number;
}
