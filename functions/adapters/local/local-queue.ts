// Queue port in process: messages go to a registered consumer after their delay, as SQS + Lambda would.
import type { Queue, QueueMessage } from '../../platform/ports';

export type Consumer = (bodies: string[]) => Promise<void>;

export class LocalQueue implements Queue {
  private consumer: Consumer | undefined;
  private readonly held: string[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(readonly name: string) {}

  /** Attach the worker; messages sent before it was attached are handed over at once. */
  consume(consumer: Consumer): void {
    this.consumer = consumer;
    const backlog = this.held.splice(0);
    if (backlog.length) void this.dispatch(backlog);
  }

  /** Take the messages waiting for a consumer (tests use it to read what was sent). */
  drain(): string[] {
    return this.held.splice(0);
  }

  async send(message: QueueMessage): Promise<void> {
    const delayMs = (message.delaySeconds ?? 0) * 1000;
    if (delayMs === 0) return this.enqueue(message.body);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.enqueue(message.body);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  async sendBatch(messages: QueueMessage[]): Promise<void> {
    for (const message of messages) await this.send(message);
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private enqueue(body: string): void {
    if (!this.consumer) {
      this.held.push(body);
      return;
    }
    setImmediate(() => void this.dispatch([body]));
  }

  private async dispatch(bodies: string[]): Promise<void> {
    try {
      await this.consumer?.(bodies);
    } catch (error) {
      console.error(
        JSON.stringify({
          level: 'error',
          msg: 'local queue consumer failed',
          queue: this.name,
          error: String(error),
        }),
      );
    }
  }
}
