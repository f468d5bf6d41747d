// Data at rest: the KMS key that wraps token and secret data keys, and the tables, built from the
// same definitions the emulator harness uses.
import { Duration } from 'aws-cdk-lib';
import { AttributeType, Billing, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import type { TableName } from '../functions/platform/ports';
import { INDEX_KEYS, TABLE_DEFINITIONS, TABLE_NAMES } from '../functions/platform/tables';
import type { StageConfig } from './stage-config';

export class DataStores extends Construct {
  readonly key: Key;
  readonly tables: Record<TableName, TableV2>;

  constructor(scope: Construct, id: string, stage: StageConfig) {
    super(scope, id);
    this.key = new Key(this, 'EnvelopeKey', {
      description: 'Wraps the data keys of provider tokens, PKCE verifiers and webhook signing secrets',
      enableKeyRotation: true,
      rotationPeriod: Duration.days(365),
      removalPolicy: stage.removalPolicy,
      pendingWindow: Duration.days(30),
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
  }
}
