// Table definitions: read by the CDK stack, the emulator harness and the adapters, so they cannot drift.
// Also the environment variables that carry every resource's physical name into a Lambda.
import type { IndexName, Query, QueueName, TableName, WorkflowName } from './ports';
import { QUEUE_NAMES } from './resource-names';

export interface TableDefinition {
  /** Environment variable that carries the physical table name into a Lambda. */
  envVar: string;
  indexes: IndexName[];
  /** Name of the TTL attribute (epoch seconds). */
  ttlAttribute: 'ttl';
  purpose: string;
}

export const TABLE_DEFINITIONS: Record<TableName, TableDefinition> = {
  platform: {
    envVar: 'TABLE_PLATFORM',
    indexes: ['gsi1'],
    ttlAttribute: 'ttl',
    purpose: 'organizations, API keys, applications and key bindings',
  },
  ratelimits: {
    envVar: 'TABLE_RATELIMITS',
    indexes: [],
    ttlAttribute: 'ttl',
    purpose: 'per-key token buckets',
  },
  connectors: {
    envVar: 'TABLE_CONNECTORS',
    indexes: ['gsi1', 'gsi2'],
    ttlAttribute: 'ttl',
    purpose: 'connections, connect links, encrypted tokens, provider settings, ledgers and jobs',
  },
  webhooks: {
    envVar: 'TABLE_WEBHOOKS',
    indexes: ['gsi1', 'gsi2'],
    ttlAttribute: 'ttl',
    purpose: 'endpoints, encrypted signing secrets, deliveries, attempts and jobs',
  },
  vault: {
    envVar: 'TABLE_VAULT',
    indexes: [],
    ttlAttribute: 'ttl',
    purpose:
      "stand-in for the vault area's document metadata (VaultDocuments port; content in the vault bucket), until the vault is reached as a service",
  },
};

export const TABLE_NAMES = Object.keys(TABLE_DEFINITIONS) as TableName[];

export const INDEX_KEYS: Record<IndexName, { pk: 'gsi1pk' | 'gsi2pk'; sk: 'gsi1sk' | 'gsi2sk' }> = {
  gsi1: { pk: 'gsi1pk', sk: 'gsi1sk' },
  gsi2: { pk: 'gsi2pk', sk: 'gsi2sk' },
};

/**
 * Both Table adapters refuse a consistent read of an index the same way (DynamoDB cannot do one), so
 * a caller that asks for it fails in the local runtime's tests too, not first in AWS.
 */
export function checkQuery(query: Query): void {
  if (query.index && query.consistent) {
    throw new Error(
      `A consistent read of index ${query.index} is impossible (indexes are eventually consistent): read the base table, or re-read each item`,
    );
  }
}

const queueEnv = (suffix: string) =>
  Object.fromEntries(QUEUE_NAMES.map((q) => [q, `QUEUE_${q.toUpperCase()}_${suffix}`])) as Record<
    QueueName,
    string
  >;

/** Environment variable carrying each queue's URL into a Lambda (QUEUE_EVENTS_URL, ...). */
export const QUEUE_URL_ENV: Record<QueueName, string> = queueEnv('URL');

/** Environment variable carrying each queue's dead-letter queue URL (QUEUE_EVENTS_DLQ_URL, ...). */
export const DLQ_URL_ENV: Record<QueueName, string> = queueEnv('DLQ_URL');

/** Environment variable carrying the vault stand-in's content bucket name into a Lambda. */
export const VAULT_BUCKET_ENV = 'VAULT_BUCKET';

/** Environment variable carrying each state machine's ARN into a Lambda. */
export const WORKFLOW_ARN_ENV: Record<WorkflowName, string> = {
  purge: 'STATE_MACHINE_PURGE_ARN',
};
