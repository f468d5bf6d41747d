// Table definitions: read by the CDK stack, the emulator harness and the adapters, so they cannot drift.
import type { IndexName, Query, QueueName, TableName, WorkflowName } from './ports';

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
      "stand-in for the vault area's documents (VaultDocuments port), until the vault is reached as a service",
  },
};

export const TABLE_NAMES = Object.keys(TABLE_DEFINITIONS) as TableName[];

export const INDEX_KEYS: Record<IndexName, { pk: 'gsi1pk' | 'gsi2pk'; sk: 'gsi1sk' | 'gsi2sk' }> = {
  gsi1: { pk: 'gsi1pk', sk: 'gsi1sk' },
  gsi2: { pk: 'gsi2pk', sk: 'gsi2sk' },
};

/** Environment variable carrying each queue's URL into a Lambda. */
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

export const QUEUE_URL_ENV: Record<QueueName, string> = {
  events: 'QUEUE_EVENTS_URL',
  deliveries: 'QUEUE_DELIVERIES_URL',
};

/** Environment variable carrying each queue's dead-letter queue URL (routes that list dead letters). */
export const DLQ_URL_ENV: Record<QueueName, string> = {
  events: 'QUEUE_EVENTS_DLQ_URL',
  deliveries: 'QUEUE_DELIVERIES_DLQ_URL',
};

/** Environment variable carrying each state machine's ARN into a Lambda. */
export const WORKFLOW_ARN_ENV: Record<WorkflowName, string> = {
  purge: 'STATE_MACHINE_PURGE_ARN',
};
