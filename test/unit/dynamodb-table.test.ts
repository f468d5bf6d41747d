// What the DynamoDB adapter asks DynamoDB for, where an emulator cannot tell: DynamoDB Local answers
// every read consistently, so only the request shows whether production reads are strongly consistent.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDbTable } from '../../functions/adapters/aws/dynamodb-table';

function recordingTable() {
  const sent: { name: string; input: Record<string, unknown> }[] = [];
  const client = {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      sent.push({ name: command.constructor.name, input: command.input });
      return { Items: [] };
    },
  } as unknown as DynamoDBDocumentClient;
  return { table: new DynamoDbTable('t', client), sent };
}

describe('DynamoDB table adapter requests', () => {
  it('reads an item strongly consistently', async () => {
    const { table, sent } = recordingTable();
    await table.get({ pk: 'A', sk: 'B' });
    expect(sent).toEqual([{ name: 'GetCommand', input: expect.objectContaining({ ConsistentRead: true }) }]);
  });

  it('asks for a consistent query only when the caller does', async () => {
    const { table, sent } = recordingTable();
    await table.query({ partition: 'A', consistent: true });
    await table.query({ partition: 'A' });
    await table.query({ index: 'gsi1', partition: 'A' });
    expect(sent.map((s) => s.input.ConsistentRead)).toEqual([true, undefined, undefined]);
  });

  it('reads many keys consistently, 100 a request, and asks again for what DynamoDB left unprocessed', async () => {
    const sent: Record<string, unknown>[] = [];
    let leftOnce = false;
    const client = {
      send: async (command: { input: { RequestItems: Record<string, { Keys: { sk: string }[] }> } }) => {
        const request = command.input.RequestItems.t!;
        sent.push({ keys: request.Keys.length, ...request, Keys: undefined });
        // The first request of the first batch: all but two keys read, those two unprocessed.
        if (!leftOnce) {
          leftOnce = true;
          const [a, b, ...read] = request.Keys;
          return { Responses: { t: read }, UnprocessedKeys: { t: { Keys: [a, b] } } };
        }
        return { Responses: { t: request.Keys } };
      },
    } as unknown as DynamoDBDocumentClient;
    const table = new DynamoDbTable('t', client);
    const keys = Array.from({ length: 150 }, (_, i) => ({ pk: 'P', sk: `S#${i}` }));
    const found = await table.getMany([...keys, keys[3]!]);
    expect(found.map((item) => item.sk).sort()).toEqual(keys.map((k) => k.sk).sort());
    expect(sent).toEqual([
      { keys: 100, ConsistentRead: true, Keys: undefined },
      { keys: 2, ConsistentRead: true, Keys: undefined },
      { keys: 50, ConsistentRead: true, Keys: undefined },
    ]);
  });

  it('refuses a consistent query of an index before calling DynamoDB', async () => {
    const { table, sent } = recordingTable();
    await expect(table.query({ index: 'gsi2', partition: 'A', consistent: true })).rejects.toThrow(
      /index gsi2/,
    );
    expect(sent).toEqual([]);
  });
});
