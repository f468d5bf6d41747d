// What the connection pages read from the API (the connector routes' snake_case views), and how its
// states are shown.
import { api } from './api';
import { badge } from './dom';

export const CONNECTION_STATUSES = ['pending', 'healthy', 'reauth_required', 'revoked', 'throttled'];
export const PROVIDERS = ['practice', 'drive'];

/** A connector list page: `has_more` says whether another page follows. */
export interface ListPage<T> {
  data: T[];
  limit: number;
  offset: number;
  has_more: boolean;
}

export interface Connection {
  id: string;
  provider: string;
  status: string;
  enabled: boolean;
  scope_tier: string;
  account: { external_id?: string; email?: string; display_name?: string } | null;
  created_at: string;
  updated_at: string;
  /** Pending only: when its connect flow can no longer complete. */
  pending_until?: string;
  /** Pending only: the flow was never completed and no longer can be. */
  abandoned?: boolean;
}

/** GET /connectors/v1/connections/{id} adds the status history, newest first. */
export interface ConnectionDetail extends Connection {
  status_history: { status: string; at: string }[];
}

export type Counts = Record<string, number>;

export interface ImportLink {
  id: string;
  connection_id: string;
  vault_id: string;
  source: { id: string; name: string | null };
  schedule: { every_minutes: number } | null;
  status: 'idle' | 'running';
  active_run_id: string | null;
  last_run: { job_id: string; status: string; reason?: string; finished_at: string; counts: Counts } | null;
  next_run_at: string | null;
  last_skipped: { at: string; reason: string } | null;
  created_at: string;
  updated_at: string;
}

/** A connector job (an import run, an export, a purge) as GET /connectors/jobs/{id} shows it. */
export interface ConnectorJob {
  id: string;
  kind: string;
  status: 'processing' | 'succeeded' | 'failed';
  reason?: string;
  message?: string;
  trigger?: string;
  counts?: Counts;
  failures?: { item_id?: string; document_id?: string; name?: string; reason: string }[];
  waiting?: { reason: string; until: string };
  created_at: string;
  finished_at?: string;
}

/** An entry of the provider's tree: a container (matter, folder) or a file. */
export interface SourceEntry {
  id: string;
  name: string;
  kind: 'container' | 'file';
  size?: number;
  version?: string;
  content_type?: string;
  updated_at?: string;
}

/** An entry of a link's ledger: the provider file and the vault document it became. */
export interface LinkDocument {
  document_id: string;
  vault_id: string;
  source: { id: string; name: string; version: string | null };
  vault_version: number | null;
  status: 'imported' | 'importing' | 'deleted_at_source';
  imported_at: string;
  updated_at: string;
}

export type Tone = 'ok' | 'warn' | 'bad' | 'neutral';

/** A pending connection whose connect flow can no longer complete (the API's clock says so). */
export const abandoned = (c: Connection): boolean => c.status === 'pending' && c.abandoned === true;

/** The status as the user reads it: an abandoned pending connection says it expired. */
export function connectionBadge(c: Connection): HTMLElement {
  if (abandoned(c)) return badge('expired', 'neutral');
  return badge(c.status.replace(/_/g, ' '), connectionTone(c.status));
}

/**
 * Starts a connect flow for `provider` in a new tab (the console keeps its page meanwhile); completing
 * it for an account already connected reconnects that connection.
 */
export async function startConnectFlow(provider: string): Promise<void> {
  const created = await api<{ connection_id: string; connect_url: string }>(
    'POST',
    '/connectors/v1/connections',
    {
      provider,
      return_url: `${location.origin}/console/connected`,
    },
  );
  window.open(created.connect_url, '_blank');
}

/** Calls `changed` when a connect flow this browser opened ends (its landing page says so). */
export function onConnectFlowEnd(owner: HTMLElement, changed: (end: { error: string | null }) => void): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel('console-connect');
  channel.onmessage = (event: MessageEvent<{ error: string | null }>) => {
    if (!owner.isConnected) return channel.close();
    changed(event.data);
  };
}

export function connectionTone(status: string): Tone {
  return status === 'healthy'
    ? 'ok'
    : status === 'pending' || status === 'throttled'
      ? 'warn'
      : status === 'revoked'
        ? 'neutral'
        : 'bad';
}

export function jobTone(status: string): Tone {
  return status === 'succeeded' ? 'ok' : status === 'failed' ? 'bad' : 'warn';
}

/** The account as the provider names it: display name, else email, else its id there. */
export function accountName(c: Connection): string {
  const account = c.account;
  return account ? (account.display_name ?? account.email ?? account.external_id ?? '—') : '—';
}

/** "imported 3 · updated 1 · …" in the API's order of counts. */
export function countsText(counts: Counts | undefined): string {
  if (!counts) return '—';
  return Object.entries(counts)
    .map(([name, value]) => `${name} ${value}`)
    .join(' · ');
}

/** A connection the console may read sources from or export to (not revoked, not pending). */
export const usable = (c: Connection): boolean => c.status !== 'revoked' && c.status !== 'pending';

export function bytes(size: number | undefined): string {
  if (size === undefined) return '';
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KiB`;
  return `${(size / 1024 / 1024).toFixed(1)} MiB`;
}
