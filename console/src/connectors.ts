// What the connection pages read from the API, and how its states are shown.

export const CONNECTION_STATUSES = ['pending', 'healthy', 'reauth_required', 'revoked', 'throttled'];
export const PROVIDERS = ['practice', 'drive'];

export interface Connection {
  id: string;
  provider: string;
  status: string;
  enabled: boolean;
  scope_tier: string;
  account: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

export function connectionTone(status: string): 'ok' | 'warn' | 'bad' | 'neutral' {
  return status === 'healthy'
    ? 'ok'
    : status === 'pending' || status === 'throttled'
      ? 'warn'
      : status === 'revoked'
        ? 'neutral'
        : 'bad';
}

export function accountName(c: Connection): string {
  const account = c.account as { name?: string; email?: string; id?: string } | null;
  return account ? (account.name ?? account.email ?? account.id ?? '—') : '—';
}
