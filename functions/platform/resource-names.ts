// The names the ports give the stack's tables and workflows. A leaf module, so the worker table
// (./workers.ts, which names the queues) can use them without an import cycle through ./ports.

/** `vault` stands in for the vault area's documents (see VaultDocuments); the others are ours. */
export type TableName = 'platform' | 'ratelimits' | 'connectors' | 'webhooks' | 'vault';

export type WorkflowName = 'purge';
