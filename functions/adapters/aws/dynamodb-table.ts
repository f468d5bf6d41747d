// Table port on DynamoDB: conditions and updates translated to expressions with placeholders.
import type { DynamoDBDocumentClient } from './sdk/dynamodb';
import { ConditionFailedError } from '../../platform/errors';
import type { Condition, Item, Key, Page, Query, Table, Update } from '../../platform/ports';
import { INDEX_KEYS, checkQuery } from '../../platform/tables';
import type { ClientRef } from './clients';

const commands = () => import('./sdk/dynamodb');

class Expressions {
  names: Record<string, string> = {};
  values: Record<string, unknown> = {};
  private n = 0;

  name(attr: string): string {
    const placeholder = `#n${Object.keys(this.names).length}`;
    const existing = Object.entries(this.names).find(([, v]) => v === attr);
    if (existing) return existing[0];
    this.names[placeholder] = attr;
    return placeholder;
  }

  value(v: unknown): string {
    const placeholder = `:v${this.n++}`;
    this.values[placeholder] = v;
    return placeholder;
  }

  condition(c: Condition): string {
    if ('and' in c) return `(${c.and.map((x) => this.condition(x)).join(' AND ')})`;
    if ('or' in c) return `(${c.or.map((x) => this.condition(x)).join(' OR ')})`;
    if ('itemExists' in c) {
      return c.itemExists
        ? `attribute_exists(${this.name('pk')})`
        : `attribute_not_exists(${this.name('pk')})`;
    }
    if ('exists' in c) {
      return c.exists
        ? `attribute_exists(${this.name(c.attr)})`
        : `attribute_not_exists(${this.name(c.attr)})`;
    }
    return `${this.name(c.attr)} ${c.op} ${this.value(c.value)}`;
  }

  params(): {
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Record<string, unknown>;
  } {
    return {
      ...(Object.keys(this.names).length ? { ExpressionAttributeNames: this.names } : {}),
      ...(Object.keys(this.values).length ? { ExpressionAttributeValues: this.values } : {}),
    };
  }
}

const encodeCursor = (key: Record<string, unknown> | undefined): string | undefined =>
  key ? Buffer.from(JSON.stringify(key)).toString('base64url') : undefined;

const decodeCursor = (cursor: string | undefined): Record<string, unknown> | undefined =>
  cursor
    ? (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>)
    : undefined;

/** BatchGetItem's limit of keys per request. */
const BATCH_GET_KEYS = 100;
/** Requests for one batch's keys before giving up on what DynamoDB keeps leaving unprocessed. */
const BATCH_GET_ATTEMPTS = 8;
/** Backoff with full jitter before asking again for unprocessed keys: 50 ms doubling, at most 2 s. */
const pause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2_000, 50 * 2 ** attempt)));

async function conditional<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    // By name: the exception class lives in client-dynamodb, which this adapter need not load.
    if ((error as Error).name === 'ConditionalCheckFailedException') throw new ConditionFailedError();
    throw error;
  }
}

export class DynamoDbTable implements Table {
  constructor(
    readonly name: string,
    private readonly client: ClientRef<DynamoDBDocumentClient>,
  ) {}

  async get<T extends Item = Item>(key: Key): Promise<T | undefined> {
    const [client, { GetCommand }] = await Promise.all([this.client, commands()]);
    const out = await client.send(
      new GetCommand({ TableName: this.name, Key: { pk: key.pk, sk: key.sk }, ConsistentRead: true }),
    );
    return out.Item as T | undefined;
  }

  async getMany<T extends Item = Item>(keys: Key[]): Promise<T[]> {
    const [client, { BatchGetCommand }] = await Promise.all([this.client, commands()]);
    // BatchGetItem refuses a request that names a key twice.
    const unique = [...new Map(keys.map((k) => [`${k.pk.length}:${k.pk}${k.sk}`, k])).values()];
    const found: T[] = [];
    for (let i = 0; i < unique.length; i += BATCH_GET_KEYS) {
      let pending: Record<string, unknown>[] = unique
        .slice(i, i + BATCH_GET_KEYS)
        .map((k) => ({ pk: k.pk, sk: k.sk }));
      for (let attempt = 0; pending.length; attempt++) {
        if (attempt === BATCH_GET_ATTEMPTS)
          throw new Error(`DynamoDB left ${pending.length} keys of ${this.name} unread after retries`);
        if (attempt) await pause(attempt);
        const out = await client.send(
          new BatchGetCommand({
            RequestItems: { [this.name]: { Keys: pending, ConsistentRead: true } },
          }),
        );
        found.push(...((out.Responses?.[this.name] ?? []) as T[]));
        pending = out.UnprocessedKeys?.[this.name]?.Keys ?? [];
      }
    }
    return found;
  }

  async put(item: Item, condition?: Condition): Promise<void> {
    const [client, { PutCommand }] = await Promise.all([this.client, commands()]);
    const expr = new Expressions();
    const ConditionExpression = condition ? expr.condition(condition) : undefined;
    await conditional(() =>
      client.send(
        new PutCommand({ TableName: this.name, Item: item, ConditionExpression, ...expr.params() }),
      ),
    );
  }

  async update<T extends Item = Item>(key: Key, update: Update, condition?: Condition): Promise<T> {
    const [client, { UpdateCommand }] = await Promise.all([this.client, commands()]);
    const expr = new Expressions();
    const clauses: string[] = [];
    const set = Object.entries(update.set ?? {})
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${expr.name(k)} = ${expr.value(v)}`);
    for (const [k, v] of Object.entries(update.setIfMissing ?? {}))
      if (v !== undefined) set.push(`${expr.name(k)} = if_not_exists(${expr.name(k)}, ${expr.value(v)})`);
    // Every operand of one SET reads the item as it was before the update.
    for (const [target, source] of Object.entries(update.copy ?? {}))
      set.push(`${expr.name(target)} = if_not_exists(${expr.name(source)}, ${expr.value(null)})`);
    if (set.length) clauses.push(`SET ${set.join(', ')}`);
    const add = Object.entries(update.add ?? {});
    if (add.length) clauses.push(`ADD ${add.map(([k, v]) => `${expr.name(k)} ${expr.value(v)}`).join(', ')}`);
    if (update.remove?.length) clauses.push(`REMOVE ${update.remove.map((k) => expr.name(k)).join(', ')}`);
    const ConditionExpression = condition ? expr.condition(condition) : undefined;
    const out = await conditional(() =>
      client.send(
        new UpdateCommand({
          TableName: this.name,
          Key: { pk: key.pk, sk: key.sk },
          UpdateExpression: clauses.length ? clauses.join(' ') : undefined,
          ConditionExpression,
          ReturnValues: 'ALL_NEW',
          ...expr.params(),
        }),
      ),
    );
    return (out.Attributes ?? { pk: key.pk, sk: key.sk }) as T;
  }

  async delete(key: Key, condition?: Condition): Promise<void> {
    const [client, { DeleteCommand }] = await Promise.all([this.client, commands()]);
    const expr = new Expressions();
    const ConditionExpression = condition ? expr.condition(condition) : undefined;
    await conditional(() =>
      client.send(
        new DeleteCommand({
          TableName: this.name,
          Key: { pk: key.pk, sk: key.sk },
          ConditionExpression,
          ...expr.params(),
        }),
      ),
    );
  }

  async query<T extends Item = Item>(query: Query): Promise<Page<T>> {
    checkQuery(query);
    const [client, { QueryCommand }] = await Promise.all([this.client, commands()]);
    const keys = query.index ? INDEX_KEYS[query.index] : { pk: 'pk', sk: 'sk' };
    const expr = new Expressions();
    let keyCondition = `${expr.name(keys.pk)} = ${expr.value(query.partition)}`;
    if (query.beginsWith)
      keyCondition += ` AND begins_with(${expr.name(keys.sk)}, ${expr.value(query.beginsWith)})`;
    const out = await client.send(
      new QueryCommand({
        TableName: this.name,
        IndexName: query.index,
        KeyConditionExpression: keyCondition,
        ScanIndexForward: !query.descending,
        Limit: query.limit,
        ExclusiveStartKey: query.startAfter ?? decodeCursor(query.cursor),
        ...(query.consistent ? { ConsistentRead: true } : {}),
        ...expr.params(),
      }),
    );
    return { items: (out.Items ?? []) as T[], cursor: encodeCursor(out.LastEvaluatedKey) };
  }
}
