// The names the ports give the stack's tables, queues and workflows. A leaf module, so the worker table
// (./workers.ts) can use them without an import cycle through ./ports, and so every bundle that only
// needs the queue names (the table and queue adapters) does not carry the worker table.

/** `vault` stands in for the vault area's documents (see VaultDocuments); the others are ours. */
export type TableName = 'platform' | 'ratelimits' | 'connectors' | 'webhooks' | 'vault';

export type WorkflowName = 'purge';

/** The queues, one per worker table entry (./workers.ts checks that its QUEUES has exactly these). */
export const QUEUE_NAMES = ['events', 'deliveries', 'syncs'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];
