// VaultDocuments port on a DynamoDB table standing in for the vault area (pk VAULT#<vault>, sk OBJ#<object>).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { VaultDocument, VaultDocuments } from '../../platform/ports';
import type { ClientRef } from './clients';

const commands = () => import('@aws-sdk/lib-dynamodb');

const key = (vaultId: string, objectId: string) => ({ pk: `VAULT#${vaultId}`, sk: `OBJ#${objectId}` });

export class VaultTable implements VaultDocuments {
  /** @param table its name, or how to read it at first use (an environment variable). */
  constructor(
    private readonly table: string | (() => string),
    private readonly client: ClientRef<DynamoDBDocumentClient>,
  ) {}

  get name(): string {
    return typeof this.table === 'string' ? this.table : this.table();
  }

  async put(document: VaultDocument): Promise<void> {
    const [client, { PutCommand }] = await Promise.all([this.client, commands()]);
    await client.send(
      new PutCommand({
        TableName: this.name,
        Item: { ...document, ...key(document.vaultId, document.objectId) },
      }),
    );
  }

  async get(vaultId: string, objectId: string): Promise<VaultDocument | undefined> {
    const [client, { GetCommand }] = await Promise.all([this.client, commands()]);
    const out = await client.send(
      new GetCommand({ TableName: this.name, Key: key(vaultId, objectId), ConsistentRead: true }),
    );
    if (!out.Item) return undefined;
    const { pk: _pk, sk: _sk, ...document } = out.Item;
    return document as VaultDocument;
  }

  /** DeleteItem on a missing key succeeds: deleting twice is deleting once. */
  async delete(vaultId: string, objectId: string): Promise<void> {
    const [client, { DeleteCommand }] = await Promise.all([this.client, commands()]);
    await client.send(new DeleteCommand({ TableName: this.name, Key: key(vaultId, objectId) }));
  }
}
