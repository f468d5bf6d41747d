// Data at rest: the KMS key that wraps token and secret data keys, and the tables, built from the
// same definitions the emulator harness uses.
import { Duration } from 'aws-cdk-lib';
import { AttributeType, Billing, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { AccountRootPrincipal, PolicyDocument, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { TableName } from '../functions/platform/ports';
import { INDEX_KEYS, TABLE_DEFINITIONS, TABLE_NAMES } from '../functions/platform/tables';
import type { StageConfig } from './stage-config';

/** Administration without use: no Encrypt, Decrypt, GenerateDataKey*, ReEncrypt* or CreateGrant. */
export const KEY_ADMIN_ACTIONS = [
  'kms:CreateAlias',
  'kms:UpdateAlias',
  'kms:DeleteAlias',
  'kms:Describe*',
  'kms:List*',
  'kms:Get*',
  'kms:PutKeyPolicy',
  'kms:UpdateKeyDescription',
  'kms:EnableKey',
  'kms:DisableKey',
  'kms:EnableKeyRotation',
  'kms:DisableKeyRotation',
  'kms:RotateKeyOnDemand',
  'kms:TagResource',
  'kms:UntagResource',
  'kms:RevokeGrant',
  'kms:RetireGrant',
  'kms:ScheduleKeyDeletion',
  'kms:CancelKeyDeletion',
];

/** The only use an IAM policy may grant: envelope encryption's data keys. */
export const KEY_USE_ACTIONS = ['kms:GenerateDataKey', 'kms:Decrypt'];

/** Days a replaced or deleted vault object stays recoverable: point-in-time recovery's window. */
export const VAULT_NONCURRENT_DAYS = 35;

export class DataStores extends Construct {
  readonly key: Key;
  readonly tables: Record<TableName, TableV2>;
  /** The vault stand-in's document content (metadata in the vault table). */
  readonly vaultBucket: Bucket;

  constructor(scope: Construct, id: string, stage: StageConfig) {
    super(scope, id);
    this.key = new Key(this, 'EnvelopeKey', {
      description: 'Wraps the data keys of provider tokens, PKCE verifiers and webhook signing secrets',
      enableKeyRotation: true,
      rotationPeriod: Duration.days(365),
      removalPolicy: stage.removalPolicy,
      pendingWindow: Duration.days(30),
      // The account administers the key but does not use it. Use (GenerateDataKey, Decrypt; never
      // Encrypt, ReEncrypt or CreateGrant) is allowed per role by ServiceFunction.bindKey: a statement
      // whose principal is the account and whose condition is the role's ARN. The key policy names no
      // role as a principal: KMS refuses a role created a moment before as an invalid principal until
      // IAM has propagated it (an intermittent first deploy), while a condition is only a string.
      policy: new PolicyDocument({
        statements: [
          new PolicyStatement({
            sid: 'AccountAdministersTheKey',
            principals: [new AccountRootPrincipal()],
            actions: KEY_ADMIN_ACTIONS,
            resources: ['*'],
          }),
        ],
      }),
    });
    this.tables = Object.fromEntries(
      TABLE_NAMES.map((name) => {
        const definition = TABLE_DEFINITIONS[name];
        const table = new TableV2(this, `${name[0]!.toUpperCase()}${name.slice(1)}Table`, {
          partitionKey: { name: 'pk', type: AttributeType.STRING },
          sortKey: { name: 'sk', type: AttributeType.STRING },
          billing: Billing.onDemand(),
          encryption: TableEncryptionV2.awsManagedKey(),
          pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
          deletionProtection: stage.deletionProtection,
          removalPolicy: stage.removalPolicy,
          timeToLiveAttribute: definition.ttlAttribute,
          globalSecondaryIndexes: definition.indexes.map((index) => ({
            indexName: index,
            partitionKey: { name: INDEX_KEYS[index].pk, type: AttributeType.STRING },
            sortKey: { name: INDEX_KEYS[index].sk, type: AttributeType.STRING },
          })),
        });
        return [name, table];
      }),
    ) as Record<TableName, TableV2>;

    const accessLogs = new Bucket(this, 'VaultAccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // S3 server access logging writes through the log-delivery ACL.
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: stage.removalPolicy,
      autoDeleteObjects: stage.autoDeleteObjects,
    });
    this.vaultBucket = new Bucket(this, 'VaultContent', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'vault/',
      // Versioned, as the tables have point-in-time recovery: an overwrite or a delete (a re-import, a
      // purge) keeps the previous content recoverable for the same 35 days, then it expires.
      versioned: true,
      lifecycleRules: [
        // A failed multipart upload (a worker killed mid-file) leaves parts that cost storage until then.
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        {
          noncurrentVersionExpiration: Duration.days(VAULT_NONCURRENT_DAYS),
          expiredObjectDeleteMarker: true,
        },
      ],
      removalPolicy: stage.removalPolicy,
      autoDeleteObjects: stage.autoDeleteObjects,
    });
  }
}
