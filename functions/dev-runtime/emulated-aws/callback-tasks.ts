// Answers a state machine's callback tasks (`arn:aws:states:::sqs:sendMessage.waitForTaskToken`): the
// stand-in for the task Lambdas when the definition runs on moto's interpreter, which cannot run them
// (it has no Lambda runtime without Docker; docs/notes/step-functions-on-moto.md). Only the
// integration test of the callback variant uses it now (test/integration/purge.test.ts); the emulated
// runtime runs the Lambda-task definition on its own endpoint (./step-functions-endpoint.ts). Each message carries the task's name, its
// input and the task token; the runner runs the task and answers SendTaskSuccess with its output, or
// SendTaskFailure with the error's name (what Step Functions' Retry and Catch match, as a Lambda's
// errorType) and a cause shaped like a Lambda error payload. The message is deleted once answered.
import type { Message, SQSClient } from '@aws-sdk/client-sqs';
import type { SFNClient } from '@aws-sdk/client-sfn';
import type { ClientRef } from '../../compose/aws';
import { sfn, sqs } from '../../compose/aws';
import type { EventSourceLog } from './event-source';

const POLL_SECONDS = 20;

/** The task and its input, as the task Lambda receives them (the definition's Parameters). */
export interface CallbackTask {
  task: string;
  input: unknown;
}

export type TaskInvoker = (task: CallbackTask) => Promise<unknown>;

export class CallbackTaskRunner {
  private running = false;
  private poller: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(
    private readonly queueUrl: string,
    private readonly invoke: TaskInvoker,
    private readonly log: EventSourceLog,
    private readonly clients: { sqs: ClientRef<SQSClient>; sfn: ClientRef<SFNClient> } = {
      sqs: sqs(),
      sfn: sfn(),
    },
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.poller = this.poll();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopping.abort();
    await this.poller;
    await Promise.all([...this.inFlight]);
  }

  private async poll(): Promise<void> {
    const [client, { ReceiveMessageCommand }] = await Promise.all([
      this.clients.sqs,
      import('@aws-sdk/client-sqs'),
    ]);
    while (this.running) {
      let messages: Message[];
      try {
        ({ Messages: messages = [] } = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: this.queueUrl,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: POLL_SECONDS,
          }),
          { abortSignal: this.stopping.signal },
        ));
      } catch (error) {
        if (!this.running) break;
        this.log.error('receive failed', { queue: this.queueUrl, error });
        await new Promise((resolve) => setTimeout(resolve, 1000));
        continue;
      }
      for (const message of messages) {
        const run = this.answer(message).finally(() => this.inFlight.delete(run));
        this.inFlight.add(run);
      }
    }
  }

  private async answer(message: Message): Promise<void> {
    const [client, sdk] = await Promise.all([this.clients.sfn, import('@aws-sdk/client-sfn')]);
    let envelope: CallbackTask & { taskToken?: string };
    try {
      envelope = JSON.parse(message.Body ?? '') as CallbackTask & { taskToken?: string };
    } catch {
      envelope = { task: '', input: undefined };
    }
    const { taskToken, task, input } = envelope;
    if (!taskToken || !task) {
      // Nothing can be answered without a token; the execution's task timeout fails the attempt.
      this.log.error('callback task without a task or token: dropped', { messageId: message.MessageId });
      return this.delete(message);
    }
    const outcome = await Promise.resolve()
      .then(() => this.invoke({ task, input }))
      .then(
        (output) => ({ output }),
        (error: unknown) => ({ error: error instanceof Error ? error : new Error(String(error)) }),
      );
    const answered =
      'output' in outcome
        ? client.send(
            new sdk.SendTaskSuccessCommand({ taskToken, output: JSON.stringify(outcome.output ?? null) }),
          )
        : client.send(
            new sdk.SendTaskFailureCommand({
              taskToken,
              error: outcome.error.name,
              cause: JSON.stringify({ errorType: outcome.error.name, errorMessage: outcome.error.message }),
            }),
          );
    // A spent token (the task timed out meanwhile) is refused: Step Functions has moved on.
    await answered.catch((error: unknown) =>
      this.log.warn('could not answer a callback task', { task, error }),
    );
    await this.delete(message);
  }

  private async delete(message: Message): Promise<void> {
    const [client, { DeleteMessageCommand }] = await Promise.all([
      this.clients.sqs,
      import('@aws-sdk/client-sqs'),
    ]);
    await client
      .send(new DeleteMessageCommand({ QueueUrl: this.queueUrl, ReceiptHandle: message.ReceiptHandle }))
      .catch((error: unknown) => this.log.error('delete failed', { queue: this.queueUrl, error }));
  }
}
