// The ports core talks through. Each has an `aws` and a `local` adapter, held to one contract suite.
import type { Readable } from 'node:stream';
import type { Clock } from './clock';
import type { TableName, WorkflowName } from './resource-names';
import type { QueueName } from './workers';

export type { TableName, WorkflowName } from './resource-names';
/** The queues are the worker table's (./workers.ts): a queue exists because a worker consumes it. */
export type { QueueName } from './workers';

export type Scalar = string | number | boolean;

/** Every item has a partition key and a sort key; two generic secondary indexes serve the other lookups. */
export interface Key {
  pk: string;
  sk: string;
}

export interface Item extends Key {
  gsi1pk?: string;
  gsi1sk?: string;
  gsi2pk?: string;
  gsi2sk?: string;
  /** Epoch seconds; the table's TTL attribute. Readers still check it: TTL deletion is lazy. */
  ttl?: number;
  [attribute: string]: unknown;
}

/** A small condition language both adapters evaluate identically (the contract suite checks it). */
export type Condition =
  | { itemExists: boolean }
  | { attr: string; exists: boolean }
  | { attr: string; op: '=' | '<>' | '<' | '<=' | '>' | '>='; value: Scalar }
  | { and: Condition[] }
  | { or: Condition[] };

export interface Update {
  set?: Record<string, unknown>;
  /** Set only where the item does not have the attribute yet (DynamoDB's if_not_exists). */
  setIfMissing?: Record<string, unknown>;
  /**
   * Target attribute ← the value the source attribute had before this update (null when it had none),
   * in the same atomic write: what a write displaced (`{ previousBlobKey: 'blobKey' }` with a new
   * `blobKey` in `set`) comes back in the returned item, exactly the one this write replaced.
   */
  copy?: Record<string, string>;
  /** Atomic numeric increments; a missing attribute counts as 0. */
  add?: Record<string, number>;
  remove?: string[];
}

export type IndexName = 'gsi1' | 'gsi2';

export interface Query {
  index?: IndexName;
  /** Value of the partition key of the table (pk) or of the index (gsi1pk / gsi2pk). */
  partition: string;
  /** Sort key of the table (sk) or of the index (gsi1sk / gsi2sk) begins with. */
  beginsWith?: string;
  /** Newest first when the sort key is a timestamp. */
  descending?: boolean;
  limit?: number;
  cursor?: string;
  /**
   * Keyset pagination: start after the item with this key (pk and sk, and on an index its keys too),
   * as DynamoDB's ExclusiveStartKey; the item need not exist any more. A list's cursor is built from
   * its last item (platform/pagination.ts), so a page deep in a list reads only that page.
   */
  startAfter?: Record<string, string>;
  /**
   * A strongly consistent read: every write acknowledged before the query is seen. Needed where a
   * query reads what was just written and acts on it (a list right after its change, a check that a
   * partition is empty after deletes). The base table only: an index is eventually consistent by
   * nature, and asking for it there is refused (InvalidQueryError), as DynamoDB does.
   */
  consistent?: boolean;
}

export interface Page<T> {
  items: T[];
  cursor?: string;
}

export interface Table {
  readonly name: string;
  /** Always a strongly consistent read: callers read-modify-write, and a get is one item. */
  get<T extends Item = Item>(key: Key): Promise<T | undefined>;
  /**
   * The items of many keys at once (a repeated key is read once), strongly consistent as `get`: those
   * that exist, in no particular order. On DynamoDB one BatchGetItem per 100 keys, what it leaves
   * unprocessed asked again after a pause.
   */
  getMany<T extends Item = Item>(keys: Key[]): Promise<T[]>;
  /** Throws ConditionFailedError when `condition` does not hold. */
  put(item: Item, condition?: Condition): Promise<void>;
  /** Applies the update and returns the whole item as it is afterwards; creates the item if missing. */
  update<T extends Item = Item>(key: Key, update: Update, condition?: Condition): Promise<T>;
  delete(key: Key, condition?: Condition): Promise<void>;
  query<T extends Item = Item>(query: Query): Promise<Page<T>>;
}

export type Tables = Record<TableName, Table>;

export interface DataKey {
  plaintext: Buffer;
  /** The data key encrypted under the master key, bound to the encryption context. */
  ciphertext: Buffer;
  keyId: string;
}

/** Envelope-encryption master key (KMS): data keys are bound to an encryption context. */
export interface KeyManagement {
  generateDataKey(context: Record<string, string>): Promise<DataKey>;
  /**
   * Throws when the context differs from the one the key was generated with. `keyId` is the master
   * key the data key was generated under (stored with the ciphertext): data sealed before a change of
   * the configured key still opens, as long as that key exists and may be used.
   */
  decryptDataKey(ciphertext: Buffer, context: Record<string, string>, keyId?: string): Promise<Buffer>;
}

export interface QueueMessage {
  body: string;
  delaySeconds?: number;
}

/** A message the queue gave up on after its maximum receives (SQS: moved to the dead-letter queue). */
export interface DeadLetter {
  id: string;
  body: string;
  receiveCount: number;
  /** Epoch ms it was dead-lettered (SQS: when it was first sent, the only time SQS keeps). */
  deadAt: number;
}

export interface Queue {
  readonly name: string;
  send(message: QueueMessage): Promise<void>;
  sendBatch(messages: QueueMessage[]): Promise<void>;
  /** The newest dead letters first, at most `limit`; reading them leaves them where they are. */
  listDeadLetters(limit?: number): Promise<DeadLetter[]>;
  /**
   * How many receives a message gets before the queue moves it to its dead-letter queue (SQS: the
   * redrive policy's maxReceiveCount); undefined without one. A consumer compares a record's receive
   * count with it to know its last chance.
   */
  maxReceiveCount(): Promise<number | undefined>;
}

export type Queues = Record<QueueName, Queue>;

export type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';

export interface Execution {
  id: string;
  status: ExecutionStatus;
  /** The parsed output of a succeeded execution. */
  output?: unknown;
  /** Error name and cause of a failed execution. */
  error?: string;
  cause?: string;
}

/** Durable workflows (Step Functions): one state machine per name. */
export interface Workflows {
  /**
   * Starts the workflow once per `executionName`: starting again with a name already used returns
   * the first execution's id and starts nothing.
   */
  start(name: WorkflowName, input: Record<string, unknown>, executionName: string): Promise<string>;
  /** undefined when no such execution is known. */
  describe(executionId: string): Promise<Execution | undefined>;
}

/** Which document: vaults are namespaced by organization, so no organization can name another's. */
export interface VaultRef {
  organizationId: string;
  vaultId: string;
  objectId: string;
}

/** A document of the vault area, as the connectors see it. Instants in epoch ms. */
export interface VaultDocument extends VaultRef {
  name: string;
  contentType: string;
  size: number;
  /** Hex SHA-256 of the content. */
  sha256: string;
  /** 1 at creation, +1 with each new content. */
  version: number;
  /** Chunks the vault's ingestion split the content into. */
  chunkCount: number;
  /** Where it came from (an import link and the provider's item), when an import brought it in. */
  source?: Record<string, string>;
  createdAt: number;
  updatedAt: number;
}

export interface VaultWrite extends VaultRef {
  name: string;
  contentType: string;
  source?: Record<string, string>;
  /** Streamed through: never held whole in memory. */
  content: Readable;
}

/**
 * The vault area's documents, as far as connectors need them: imports write them, exports read them,
 * purges delete them. Another area of the platform owns vaults; this port is how connectors reach it.
 */
export interface VaultDocuments {
  /** Creates the document, or gives an existing one new content (its version goes up). */
  put(write: VaultWrite): Promise<VaultDocument>;
  get(ref: VaultRef): Promise<VaultDocument | undefined>;
  /** The content, streamed; undefined when there is no such document. */
  read(ref: VaultRef): Promise<Readable | undefined>;
  /** Idempotent: deleting a document that is already gone succeeds. */
  delete(ref: VaultRef): Promise<void>;
  /** A vault's documents, a page at a time, in id order. */
  list(
    organizationId: string,
    vaultId: string,
    page?: { cursor?: string; limit?: number },
  ): Promise<Page<VaultDocument>>;
}

/** Blobs by key (S3, or files): the vault stand-in keeps content in one, metadata in a table. */
export interface BlobStore {
  /** Streams the content to the key, replacing what was there; returns its size and hex SHA-256. */
  put(key: string, content: Readable, contentType: string): Promise<{ size: number; sha256: string }>;
  /** undefined when there is no blob at the key. */
  get(key: string): Promise<Readable | undefined>;
  /** Idempotent. */
  delete(key: string): Promise<void>;
}

/**
 * Secret configuration read at run time, by name (the name of the environment variable that would
 * hold it, e.g. PROVIDER_PRACTICE_CLIENT_SECRET): from Secrets Manager on AWS, cached for minutes, so
 * a rotated value reaches the functions without a deploy; from the environment in the local runtime.
 */
export interface Secrets {
  /** Throws ConfigurationError when the setting has no value. */
  get(name: string): Promise<string>;
}

/** The ports a handler is built from; each runtime's composition module provides every one of them. */
export interface Deps {
  tables: Tables;
  keys: KeyManagement;
  queues: Queues;
  clock: Clock;
  workflows: Workflows;
  vault: VaultDocuments;
  secrets: Secrets;
}
