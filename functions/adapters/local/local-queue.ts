// Queue port in process, with SQS's semantics and durable: a message is journaled before `send`
// returns (so an accepted event survives a crash or restart), becomes visible when its delay has
// passed on the clock port (so moving the development clock drives the background schedule), is
// handed to the attached SQS-shaped consumer in batches with a receive count, stays invisible for
// the visibility timeout while it is processed, is deleted when the consumer does not report it in
// batchItemFailures, and after maxReceiveCount receives goes to the dead letters: the redrive SQS
// applies, so the same handlers run here. On start the journal is replayed: every message not yet
// deleted is there again. One that was in flight when the process died (SIGKILL, or SIGTERM mid-way)
// is visible again at once when the process opening the journal owns it: in this single-process
// runtime no consumer outlived the last one, so waiting out the visibility timeout (minutes on the
// syncs queue) would only stall the work. A message waiting out its delay keeps it.
// `shutdown` (SIGTERM) drains what is in hand for a grace period and hands back the rest.
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Clock } from '../../platform/clock';
import { systemClock } from '../../platform/clock';
import type { DeadLetter, Queue, QueueMessage } from '../../platform/ports';
import {
  JournalAppender,
  compact,
  describeReading,
  frame,
  isDamaged,
  keepAside,
  markWritten,
  readJournal,
} from './journal';

export type SqsConsumer = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

export interface SqsConsumerOptions {
  batchSize?: number;
  visibilityTimeoutMs?: number;
  maxReceiveCount?: number;
  /** Batches handed out at once, as an SQS event source's maximum concurrency (default: no limit). */
  maxConcurrency?: number;
}

export interface LocalQueueOptions {
  clock?: Clock;
  /** The journal file; omitted: memory only (tests). */
  journal?: string;
  /** This process owns the journal (the server): messages the last one held are handed back at open. */
  owner?: boolean;
}

interface Message {
  id: string;
  body: string;
  sentAt: number;
  /** Clock time from which it may be received (after its delay, or its visibility timeout). */
  visibleAt: number;
  receiveCount: number;
}

type JournalLine =
  | { op: 'put'; message: Message }
  | { op: 'receive'; id: string; visibleAt: number; receiveCount: number }
  | { op: 'delete'; id: string }
  | { op: 'dead'; id: string; deadAt: number };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isMessage = (m: unknown): m is Message =>
  isObject(m) &&
  typeof m.id === 'string' &&
  typeof m.body === 'string' &&
  typeof m.sentAt === 'number' &&
  typeof m.visibleAt === 'number' &&
  typeof m.receiveCount === 'number';

/** A line of this journal's shape: valid JSON of another shape (`{"op":"put"}`) is damage, not a crash. */
const isJournalLine = (line: unknown): line is JournalLine => {
  if (!isObject(line) || typeof line.op !== 'string') return false;
  switch (line.op) {
    case 'put':
      return isMessage(line.message);
    case 'receive':
      return (
        typeof line.id === 'string' &&
        typeof line.visibleAt === 'number' &&
        typeof line.receiveCount === 'number'
      );
    case 'delete':
      return typeof line.id === 'string';
    case 'dead':
      return typeof line.id === 'string' && typeof line.deadAt === 'number';
    default:
      return false;
  }
};

/** How often, at most, a quiet queue looks at the clock again: a moved clock is noticed this fast. */
const MAX_SLEEP_MS = 500;

export class LocalQueue implements Queue {
  private readonly clock: Clock;
  private readonly journal: string | undefined;
  private readonly messages = new Map<string, Message>();
  /**
   * The messages not in flight (visible or delayed), in the order they became so: what a wake reads,
   * so thousands of messages in flight are not read again each time a batch settles.
   */
  private readonly waiting = new Map<string, Message>();
  private readonly dead: DeadLetter[] = [];
  /** Received by this process and not settled yet: never handed out twice at once here. */
  private readonly inFlight = new Set<string>();
  private consumer: { run: SqsConsumer; options: Required<SqsConsumerOptions> } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private scheduled = false;
  private closed = false;
  private readonly running = new Set<Promise<void>>();
  /** What opening the journal found wrong (damaged lines, messages lost), naming the file; else undefined. */
  report: string | undefined;
  /** Messages the last process held when it stopped, visible again at this open (owner only). */
  reclaimed = 0;
  /** The manifest knows this journal holds something (journal.ts `markWritten`). */
  private marked = false;
  private appender: JournalAppender | undefined;

  constructor(
    readonly name: string,
    options: LocalQueueOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.journal = options.journal;
    if (this.journal) this.open(this.journal, options.owner ?? false);
  }

  /** Bodies of the messages that were received maxReceiveCount times without success. */
  get deadLetters(): string[] {
    return this.dead.map((d) => d.body);
  }

  async listDeadLetters(limit = 100): Promise<DeadLetter[]> {
    return this.dead.slice(-limit).reverse();
  }

  /** The attached consumer's, as SQS's redrive policy; undefined before one is attached. */
  async maxReceiveCount(): Promise<number | undefined> {
    return this.consumer?.options.maxReceiveCount;
  }

  /** Attach an SQS-triggered Lambda handler, with SQS's batch, visibility and redrive behaviour. */
  attach(run: SqsConsumer, options: SqsConsumerOptions = {}): void {
    this.consumer = {
      run,
      options: {
        batchSize: 10,
        visibilityTimeoutMs: 30_000,
        maxReceiveCount: 5,
        maxConcurrency: Infinity,
        ...options,
      },
    };
    this.wake();
  }

  /** Takes the visible messages when no consumer is attached (tests read what was sent). */
  drain(): string[] {
    if (this.consumer) throw new Error(`queue ${this.name} has a consumer: nothing to drain`);
    const now = this.clock.now();
    const due = [...this.messages.values()].filter((m) => m.visibleAt <= now);
    for (const message of due) this.remove(message.id);
    return due.map((m) => m.body);
  }

  async send(message: QueueMessage): Promise<void> {
    const now = this.clock.now();
    const item: Message = {
      id: randomUUID(),
      body: message.body,
      sentAt: now,
      visibleAt: now + (message.delaySeconds ?? 0) * 1000,
      receiveCount: 0,
    };
    this.write({ op: 'put', message: item });
    this.messages.set(item.id, item);
    this.waiting.set(item.id, item);
    this.wake();
  }

  async sendBatch(messages: QueueMessage[]): Promise<void> {
    for (const message of messages) await this.send(message);
  }

  /** Hands every message due now to the consumer and waits until they are settled (tests). */
  async pump(): Promise<void> {
    await Promise.all(this.deliverDue());
  }

  /** Messages not yet deleted or dead-lettered (visible, delayed or in flight). */
  get size(): number {
    return this.messages.size;
  }

  /** Stops handing out messages; what was journaled stays for the next start. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /**
   * A stop that leaves nothing stranded (SIGTERM): stops handing out messages, waits at most `graceMs`
   * for the batches in hand to settle (drain), then hands back what is still in hand, visible again at
   * once with its receive counted (as SQS's ChangeMessageVisibility to 0), so whichever process reads
   * the journal next need not wait out a visibility timeout. A handler still running after that may
   * settle its message before the process exits; the journal then says so, and either way it runs
   * again at most once more (handlers are idempotent: at-least-once, as on SQS).
   */
  async shutdown(graceMs: number): Promise<{ settled: number; handedBack: number }> {
    this.close();
    const inHand = this.inFlight.size;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.running]),
      new Promise((resolve) => (timer = setTimeout(resolve, graceMs))),
    ]);
    clearTimeout(timer);
    const now = this.clock.now();
    let handedBack = 0;
    for (const id of this.inFlight) {
      const message = this.messages.get(id);
      if (!message) continue;
      message.visibleAt = now;
      this.write({ op: 'receive', id, visibleAt: now, receiveCount: message.receiveCount });
      handedBack++;
    }
    return { settled: inHand - this.inFlight.size, handedBack };
  }

  private wake(): void {
    if (!this.consumer || this.closed || this.scheduled) return;
    this.scheduled = true;
    if (this.timer) clearTimeout(this.timer);
    setImmediate(() => {
      this.scheduled = false;
      this.deliverDue();
    });
  }

  /** Wakes the queue when the earliest message not in flight becomes visible (at most MAX_SLEEP_MS on). */
  private sleepUntil(next: number, now: number): void {
    if (this.closed || next === Infinity) return; // all in flight: their settling wakes the queue
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), Math.min(Math.max(0, next - now), MAX_SLEEP_MS));
    this.timer.unref();
  }

  /**
   * Hands out what is due now, oldest sent first (SQS's best-effort order), as many as the free slots
   * take; returns the batches it started. One pass over the messages, which stops once the slots are
   * filled (what waits for a slot stays due: a batch that settles wakes the queue again); a pass that
   * reads them all also finds when the next delayed one becomes visible and sleeps until then. It was
   * a copy, filter and sort of every message on every wake, then a second pass to sleep: quadratic in
   * a burst of thousands.
   */
  private deliverDue(): Promise<void>[] {
    if (!this.consumer || this.closed) return [];
    const now = this.clock.now();
    const { batchSize, maxReceiveCount, maxConcurrency } = this.consumer.options;
    const wanted = Math.max(0, maxConcurrency - this.running.size) * batchSize;
    const due: Message[] = [];
    const exhausted: Message[] = [];
    let next = Infinity;
    let full = false;
    for (const m of this.waiting.values()) {
      if (m.visibleAt > now) {
        next = Math.min(next, m.visibleAt);
        continue;
      }
      // As SQS: a message already received maxReceiveCount times (a consumer that died holding it)
      // moves to the dead letters on its next receive instead of being handed out again.
      if (m.receiveCount >= maxReceiveCount) exhausted.push(m);
      else if (due.length < wanted) due.push(m);
      else {
        full = true; // every slot taken: the next batch to settle wakes the queue
        break;
      }
    }
    for (const message of exhausted) this.deadLetter(message);
    if (!full) this.sleepUntil(next, now);
    const started: Promise<void>[] = [];
    for (let i = 0; i < due.length; i += batchSize) {
      const run = this.deliverBatch(due.slice(i, i + batchSize), now).finally(() => {
        this.running.delete(run);
        this.wake();
      });
      this.running.add(run);
      started.push(run);
    }
    return started;
  }

  private async deliverBatch(batch: Message[], now: number): Promise<void> {
    const { run, options } = this.consumer!;
    for (const message of batch) {
      message.receiveCount++;
      message.visibleAt = now + options.visibilityTimeoutMs;
      this.inFlight.add(message.id);
      this.waiting.delete(message.id);
      this.write({
        op: 'receive',
        id: message.id,
        visibleAt: message.visibleAt,
        receiveCount: message.receiveCount,
      });
    }
    let failed: Set<string>;
    try {
      const response = await run({ Records: batch.map((m) => this.toRecord(m, now)) });
      failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (error) {
      this.logFailure(error);
      failed = new Set(batch.map((m) => m.id));
    }
    for (const message of batch) {
      this.inFlight.delete(message.id);
      if (!this.messages.has(message.id)) continue;
      if (!failed.has(message.id)) this.remove(message.id);
      else if (message.receiveCount >= options.maxReceiveCount) this.deadLetter(message);
      else this.waiting.set(message.id, message); // visible again once its visibility timeout has passed, as on SQS
    }
  }

  private remove(id: string): void {
    this.write({ op: 'delete', id });
    this.messages.delete(id);
    this.waiting.delete(id);
  }

  private deadLetter(message: Message): void {
    const deadAt = this.clock.now();
    this.write({ op: 'dead', id: message.id, deadAt });
    this.messages.delete(message.id);
    this.waiting.delete(message.id);
    this.dead.push({ id: message.id, body: message.body, receiveCount: message.receiveCount, deadAt });
  }

  private toRecord(message: Message, now: number): SQSRecord {
    const record = {
      messageId: message.id,
      receiptHandle: `${message.id}#${message.receiveCount}`,
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: String(message.sentAt),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: String(now),
      },
      messageAttributes: {},
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:local:000000000000:${this.name}`,
      awsRegion: 'local',
    };
    // Hashed when read: no worker reads it, and an MD5 per record was a visible share of the
    // delivery bench's profile.
    let md5: string | undefined;
    return Object.defineProperty(record, 'md5OfBody', {
      enumerable: true,
      get: () => (md5 ??= createHash('md5').update(message.body).digest('hex')),
    }) as SQSRecord;
  }

  /** Appended synchronously: once `send` returns, the message is on disk. */
  private write(line: JournalLine): void {
    if (!this.journal) return;
    if (!this.marked) markWritten(this.journal);
    this.marked = true;
    (this.appender ??= new JournalAppender(this.journal)).append(frame(line));
  }

  /**
   * Replays the journal, then compacts it to the messages and dead letters that remain. A damaged line
   * (or a last line a crash cut short: it never returned to its sender) is skipped and reported; a
   * damaged file is kept aside first.
   */
  private open(path: string, owner: boolean): void {
    mkdirSync(dirname(path), { recursive: true });
    const reading = readJournal(path, isJournalLine);
    for (const line of reading.entries) this.replay(line);
    if (owner) {
      // Received and still invisible: the last process held it (its visibility timeout runs).
      const now = this.clock.now();
      for (const message of this.messages.values()) {
        if (message.receiveCount === 0 || message.visibleAt <= now) continue;
        message.visibleAt = now;
        this.reclaimed++;
      }
    }
    for (const message of this.messages.values()) this.waiting.set(message.id, message);
    const keptAt = isDamaged(reading) ? keepAside(path) : undefined;
    this.report = describeReading(path, reading, 'messages', keptAt);
    const compacted = [
      ...[...this.messages.values()].map((message) => ({ op: 'put', message })),
      ...this.dead.map((d) => ({
        op: 'put',
        message: {
          id: d.id,
          body: d.body,
          sentAt: d.deadAt,
          visibleAt: d.deadAt,
          receiveCount: d.receiveCount,
        },
      })),
      ...this.dead.map((d) => ({ op: 'dead', id: d.id, deadAt: d.deadAt })),
    ];
    compact(path, compacted, this.messages.size + this.dead.length);
  }

  private replay(line: JournalLine): void {
    if (line.op === 'put') this.messages.set(line.message.id, { ...line.message });
    else if (line.op === 'receive') {
      const message = this.messages.get(line.id);
      if (message) Object.assign(message, { visibleAt: line.visibleAt, receiveCount: line.receiveCount });
    } else if (line.op === 'delete') this.messages.delete(line.id);
    else if (line.op === 'dead') {
      const message = this.messages.get(line.id);
      if (!message) return;
      this.messages.delete(line.id);
      this.dead.push({
        id: line.id,
        body: message.body,
        receiveCount: message.receiveCount,
        deadAt: line.deadAt,
      });
    }
  }

  private logFailure(error: unknown): void {
    console.error(
      JSON.stringify({
        level: 'ERROR',
        message: 'local queue consumer failed',
        queue: this.name,
        error: String(error),
      }),
    );
  }
}
