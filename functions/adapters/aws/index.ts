// The aws adapter set. Each table, key and queue is built on first use, so a Lambda needs the
// environment variables (and IAM grants) of only the resources it touches.
import { getStringFromEnv } from '../../platform/config';
import type {
  KeyManagement,
  Secrets,
  Queue,
  QueueName,
  Queues,
  Table,
  TableName,
  Tables,
  VaultDocuments,
  WorkflowName,
  Workflows,
} from '../../platform/ports';
import {
  DLQ_URL_ENV,
  QUEUE_URL_ENV,
  TABLE_DEFINITIONS,
  TABLE_NAMES,
  VAULT_BUCKET_ENV,
  WORKFLOW_ARN_ENV,
} from '../../platform/tables';
import type { Clock } from '../../platform/clock';
import { QUEUE_NAMES } from '../../platform/resource-names';
import { dynamo, kms, s3, secretsManager, sfn, sqs } from './clients';
import { DynamoDbTable } from './dynamodb-table';
import { KmsKeyManagement } from './kms-keys';
import { SecretsManagerSecrets } from './secrets-manager';
import { SfnWorkflows } from './sfn-workflows';
import { SqsQueue } from './sqs-queue';
import { VaultStandIn } from '../vault/stand-in';
import { S3BlobStore } from './s3-blobs';

function lazyRecord<K extends string, V>(names: readonly K[], build: (name: K) => V): Record<K, V> {
  const built = new Map<K, V>();
  const record = {} as Record<K, V>;
  for (const name of names) {
    Object.defineProperty(record, name, {
      enumerable: true,
      get: () => {
        if (!built.has(name)) built.set(name, build(name));
        return built.get(name)!;
      },
    });
  }
  return record;
}

export function awsTables(
  physicalName: (name: TableName) => string = (n) => getStringFromEnv(TABLE_DEFINITIONS[n].envVar),
): Tables {
  return lazyRecord<TableName, Table>(TABLE_NAMES, (name) => new DynamoDbTable(physicalName(name), dynamo()));
}

export function awsQueues(
  url: (name: QueueName) => string = (n) => getStringFromEnv(QUEUE_URL_ENV[n]),
  deadLetterUrl: (name: QueueName) => string = (n) => getStringFromEnv(DLQ_URL_ENV[n]),
): Queues {
  return lazyRecord<QueueName, Queue>(
    QUEUE_NAMES,
    (name) =>
      new SqsQueue(
        name,
        () => url(name),
        sqs(),
        () => deadLetterUrl(name),
      ),
  );
}

export function awsKeys(keyId: string = getStringFromEnv('KMS_KEY_ID')): KeyManagement {
  return new KmsKeyManagement(keyId, kms());
}

/** State machine ARNs are read when a workflow is started, so describing needs no variable. */
export function awsWorkflows(
  arn: (name: WorkflowName) => string = (n) => getStringFromEnv(WORKFLOW_ARN_ENV[n]),
): Workflows {
  return new SfnWorkflows(arn, sfn());
}

/** The vault stand-in: metadata in the vault table, content in the vault bucket (names read at first use). */
export function awsVault(
  tables: Tables,
  clock: Clock,
  bucket: string | (() => string) = () => getStringFromEnv(VAULT_BUCKET_ENV),
): VaultDocuments {
  return new VaultStandIn(tables.vault, new S3BlobStore(bucket, s3()), clock);
}

/** Secret settings from Secrets Manager (each NAME's secret ARN in NAME_ARN), cached per container. */
export function awsSecrets(maxAgeSeconds?: number): Secrets {
  return new SecretsManagerSecrets(secretsManager(), maxAgeSeconds);
}
