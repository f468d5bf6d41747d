// The calls bench's capacity units: what DynamoDB reports a call consumed (ReturnConsumedCapacity
// INDEXES), split into the table's and the index copies', as writes or reads by the operation.
import { askConsumedCapacity, consumedUnits } from '../../functions/adapters/aws/call-counter';

describe('capacity units of a DynamoDB answer', () => {
  it('splits a write into the table and its index copies', () => {
    expect(
      consumedUnits('PutItem', {
        ConsumedCapacity: {
          CapacityUnits: 4,
          Table: { CapacityUnits: 2 },
          GlobalSecondaryIndexes: { gsi1: { CapacityUnits: 1 }, gsi2: { CapacityUnits: 1 } },
        },
      }),
    ).toEqual({ kind: 'write', table: 2, index: 2 });
  });

  it('counts an update that wrote no index copy as the table alone', () => {
    expect(
      consumedUnits('UpdateItem', { ConsumedCapacity: { CapacityUnits: 2, Table: { CapacityUnits: 2 } } }),
    ).toEqual({ kind: 'write', table: 2, index: 0 });
  });

  it("sums a batch's tables and counts reads as reads", () => {
    expect(
      consumedUnits('BatchWriteItem', {
        ConsumedCapacity: [
          { CapacityUnits: 3 },
          { CapacityUnits: 1, GlobalSecondaryIndexes: { gsi1: { CapacityUnits: 1 } } },
        ],
      }),
    ).toEqual({ kind: 'write', table: 3, index: 1 });
    expect(consumedUnits('GetItem', { ConsumedCapacity: { CapacityUnits: 0.5 } })).toEqual({
      kind: 'read',
      table: 0.5,
      index: 0,
    });
  });

  it('reports nothing for an answer without consumed capacity', () => {
    expect(consumedUnits('PutItem', {})).toBeUndefined();
    expect(consumedUnits('SendMessage', undefined)).toBeUndefined();
  });

  it('asks DynamoDB calls only, and keeps what a call asked for itself', () => {
    const put: Record<string, unknown> = { TableName: 't' };
    askConsumedCapacity('DynamoDB', put);
    expect(put.ReturnConsumedCapacity).toBe('INDEXES');
    const own: Record<string, unknown> = { ReturnConsumedCapacity: 'TOTAL' };
    askConsumedCapacity('DynamoDB', own);
    expect(own.ReturnConsumedCapacity).toBe('TOTAL');
    const send: Record<string, unknown> = { QueueUrl: 'q' };
    askConsumedCapacity('SQS', send);
    expect(send).toEqual({ QueueUrl: 'q' });
  });
});
