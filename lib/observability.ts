// Alarms and the dashboard for everything the stack runs. It finds the functions, queues, state
// machines and the web ACL in the stack itself, so a construct added later is covered without an
// edit here; it must therefore be made last in the stack. Each alarm is explained in docs/runbook.md.
import { Duration, Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { IAlarm, IAlarmAction, IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { IConstruct } from 'constructs';
import { Construct } from 'constructs';
import type { MetricName } from '../functions/platform/metrics';
import { METRICS_NAMESPACE, metricDimensions } from '../functions/platform/metrics';
import type { Messaging } from './messaging';
import { ServiceQueue } from './messaging';
import { ServiceFunction } from './service-function';
import type { StageConfig } from './stage-config';
import { QueueWorkers, ScheduledWorkers } from './workers';

export interface ObservabilityProps {
  stage: StageConfig;
  restApi: RestApi;
  messaging: Messaging;
}

const FIVE_MINUTES = Duration.minutes(5);
const FIFTEEN_MINUTES = Duration.minutes(15);

/** API Gateway answers at most 29 s; a p99 above this for 15 minutes is worth a look. */
const API_P99_LATENCY_MS = 5_000;

const pascal = (text: string) =>
  text.replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_m, _s, c: string) => c.toUpperCase());

export class Observability extends Construct {
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;
  /** Alarm notifications: only with context `alarmEmail`. */
  readonly topic?: Topic;
  private readonly action?: IAlarmAction;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const { stage, restApi, messaging } = props;
    const stack = Stack.of(this);
    const all = stack.node.findAll();
    const functions = all.filter((c): c is ServiceFunction => c instanceof ServiceFunction);
    const queueWorkers = all.find((c): c is QueueWorkers => c instanceof QueueWorkers);
    const workers = [
      ...Object.values(queueWorkers?.functions ?? {}),
      ...all.flatMap((c) => (c instanceof ScheduledWorkers ? [...c.functions.values()] : [])),
    ];
    const stateMachines = all.filter((c): c is StateMachine => c instanceof StateMachine);
    const rules = all.filter((c): c is Rule => c instanceof Rule);
    // The API stage's (the console distribution's, when made here, has its own dimensions).
    const webAcl = all.find((c): c is CfnWebACL => c instanceof CfnWebACL && c.scope === 'REGIONAL');

    // One topic for every alarm: the queue workers' when they made one, else ours.
    if (stage.alarmEmail) {
      const existing = queueWorkers?.node.tryFindChild('Alarms');
      this.topic = existing instanceof Topic ? existing : this.makeTopic(stage.alarmEmail);
      this.action = new SnsAction(this.topic);
    }
    // The queue workers' own alarms (dead letters, oldest message) already notify the topic.
    const inherited: IAlarm[] = queueWorkers?.alarms ?? [];

    this.queueAlarms(all, queueWorkers ? Object.values(messaging.queues) : []);

    this.functionAlarms(functions, stage);
    this.apiAlarms(restApi, stage);
    const business = this.businessAlarms(stage);
    this.workflowAlarms(stateMachines);
    this.scheduleAlarms(rules);
    for (const scheduled of all.filter((c): c is ScheduledWorkers => c instanceof ScheduledWorkers)) {
      this.alarm('ScheduledRunFailures', {
        metric: scheduled.failures.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1) }),
        threshold: 0,
        description:
          'A scheduled sweep failed (error, timeout) or its schedule event could not be delivered: see the failures queue (docs/runbook.md)',
      });
    }
    this.executionLogs(restApi, stage);

    this.dashboard = this.makeDashboard({
      stage,
      restApi,
      messaging,
      workers,
      stateMachines,
      webAcl,
      business,
      alarms: [...inherited, ...this.alarms],
    });
  }

  /** Dead letters of the queues the queue workers' construct does not watch (it watches the table's). */
  private queueAlarms(all: IConstruct[], watchedByWorkers: ServiceQueue[]): void {
    const stack = Stack.of(this);
    const watched = new Set<ServiceQueue>(watchedByWorkers);
    for (const queue of all.filter((c): c is ServiceQueue => c instanceof ServiceQueue && !watched.has(c))) {
      const name = pascal(queue.node.path.replace(`${stack.node.path}/`, ''));
      this.alarm(`${name}DeadLetters`, {
        metric: queue.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(1),
        }),
        threshold: 0,
        description: `Messages in the dead-letter queue of ${queue.node.path}`,
      });
    }
  }

  /** Lambda: unhandled errors (crashes, timeouts; handled 5xx show up on the API) and the account's throttles. */
  private functionAlarms(functions: ServiceFunction[], stage: StageConfig): void {
    const stack = Stack.of(this);
    for (const fn of functions) {
      const name = pascal(fn.node.path.replace(`${stack.node.path}/`, ''));
      // In the function's own stack (its area's nested stack): the alarm goes and comes with it.
      const scope = Stack.of(fn) === stack ? this : Stack.of(fn);
      const invocations = fn.fn.metricInvocations({ period: FIVE_MINUTES, statistic: 'Sum' });
      const errors = fn.fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' });
      this.alarm(`${name}ErrorRate`, {
        metric: new MathExpression({
          expression: 'IF(invocations > 0, 100 * errors / invocations, 0)',
          usingMetrics: { invocations, errors },
          period: FIVE_MINUTES,
          label: `${name} error %`,
        }),
        threshold: stage.alarms.functionErrorPercent,
        description: `More than ${stage.alarms.functionErrorPercent}% of ${fn.node.path} invocations ended in an error (crash or timeout) in 5 minutes`,
        scope,
      });
    }
    // No function reserves concurrency (workers are bounded by their event source's maximum
    // concurrency), so a throttle anywhere means the account's concurrency is exhausted.
    this.alarm('AccountLambdaThrottles', {
      metric: new Metric({
        namespace: 'AWS/Lambda',
        metricName: 'Throttles',
        statistic: 'Sum',
        period: FIVE_MINUTES,
      }),
      threshold: 0,
      evaluationPeriods: 3,
      description:
        "Lambda throttled invocations in the account and region (the account's concurrency is exhausted), in each of 3 periods of 5 minutes",
    });
  }

  /** API: 5xx share and latency. */
  private apiAlarms(restApi: RestApi, stage: StageConfig): void {
    const requests = restApi.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    const serverErrors = restApi.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    this.alarm('Api5xxRate', {
      metric: new MathExpression({
        expression: 'IF(requests >= 20, 100 * serverErrors / requests, 0)',
        usingMetrics: { requests, serverErrors },
        period: FIVE_MINUTES,
        label: 'API 5xx %',
      }),
      threshold: stage.alarms.api5xxPercent,
      description: `More than ${stage.alarms.api5xxPercent}% of API requests answered 5xx in 5 minutes (at least 20 requests)`,
    });
    this.alarm('ApiLatencyP99', {
      metric: restApi.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' }),
      threshold: API_P99_LATENCY_MS,
      evaluationPeriods: 3,
      description: `API p99 latency above ${API_P99_LATENCY_MS} ms for 15 minutes`,
    });
  }

  /** Business outcomes, from the embedded metrics the workers write (functions/platform/metrics.ts). */
  private businessAlarms(stage: StageConfig) {
    const business = (name: MetricName, statistic = 'Sum', period = FIFTEEN_MINUTES) =>
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: name,
        dimensionsMap: metricDimensions(stage.stage),
        statistic,
        period,
      });
    this.alarm('DeliveriesFailed', {
      metric: business('DeliveriesFailed'),
      threshold: stage.alarms.failedDeliveriesPer15Minutes,
      description: `More than ${stage.alarms.failedDeliveriesPer15Minutes} deliveries failed for good (rejected or exhausted) in 15 minutes`,
    });
    this.alarm('TokenRefreshFailures', {
      metric: business('TokenRefreshFailures'),
      threshold: stage.alarms.refreshFailuresPer15Minutes,
      description: `More than ${stage.alarms.refreshFailuresPer15Minutes} provider token refreshes failed in 15 minutes`,
    });
    this.alarm('ConnectionThrottles', {
      metric: business('ConnectionThrottles'),
      threshold: stage.alarms.connectionThrottlesPer15Minutes,
      description: `More than ${stage.alarms.connectionThrottlesPer15Minutes} connections were throttled by their provider in 15 minutes`,
    });
    this.alarm('SyncRunsFailed', {
      metric: business('SyncRunsFailed'),
      threshold: stage.alarms.failedRunsPer15Minutes,
      description: `More than ${stage.alarms.failedRunsPer15Minutes} import runs ended failed in 15 minutes`,
    });
    this.alarm('ExportJobsFailed', {
      metric: business('ExportJobsFailed'),
      threshold: stage.alarms.failedExportsPer15Minutes,
      description: `More than ${stage.alarms.failedExportsPer15Minutes} exports ended failed in 15 minutes`,
    });
    // A failed purge leaves a revoked connection's documents in the vault: one is worth a look.
    this.alarm('PurgeJobsFailed', {
      metric: business('PurgeJobsFailed'),
      threshold: 0,
      description: 'A purge job ended failed: documents of a revoked connection are still in the vault',
    });
    return business;
  }

  /** Step Functions executions that failed, timed out or were aborted. */
  private workflowAlarms(stateMachines: StateMachine[]): void {
    const stack = Stack.of(this);
    for (const machine of stateMachines) {
      const name = pascal(machine.node.scope!.node.path.replace(`${stack.node.path}/`, ''));
      this.alarm(`${name}ExecutionsFailed`, {
        metric: new MathExpression({
          expression: 'failed + timedOut + aborted',
          usingMetrics: {
            failed: machine.metricFailed({ period: FIVE_MINUTES, statistic: 'Sum' }),
            timedOut: machine.metricTimedOut({ period: FIVE_MINUTES, statistic: 'Sum' }),
            aborted: machine.metricAborted({ period: FIVE_MINUTES, statistic: 'Sum' }),
          },
          period: FIVE_MINUTES,
          label: `${name} executions failed`,
        }),
        threshold: 0,
        description: `An execution of ${machine.node.path} failed, timed out or was aborted`,
      });
    }
  }

  /** Schedules that could not invoke their target. */
  private scheduleAlarms(rules: Rule[]): void {
    const stack = Stack.of(this);
    for (const rule of rules) {
      const name = pascal(rule.node.path.replace(`${stack.node.path}/`, ''));
      this.alarm(`${name}FailedInvocations`, {
        scope: Stack.of(rule) === stack ? this : Stack.of(rule),
        metric: new Metric({
          namespace: 'AWS/Events',
          metricName: 'FailedInvocations',
          dimensionsMap: { RuleName: rule.ruleName },
          statistic: 'Sum',
          period: FIFTEEN_MINUTES,
        }),
        threshold: 0,
        description: `The schedule ${rule.node.path} could not invoke its target`,
      });
    }
  }

  /**
   * API Gateway writes execution logs to `API-Gateway-Execution-Logs_<api id>/<stage>`, a group it
   * makes itself, without retention, on the first logged request. Made here first, with the stage's
   * retention, and the stage waits for it, so API Gateway finds it and never makes its own.
   */
  private executionLogs(restApi: RestApi, stage: StageConfig): void {
    const group = new LogGroup(this, 'ApiExecutionLogs', {
      // The stage's name from the configuration, not the stage's own token: that would be a cycle.
      logGroupName: `API-Gateway-Execution-Logs_${restApi.restApiId}/${stage.stage}`,
      retention: stage.logRetention,
      removalPolicy: stage.removalPolicy,
    });
    restApi.deploymentStage.node.addDependency(group);
  }

  private makeTopic(email: string): Topic {
    const topic = new Topic(this, 'Alarms', { enforceSSL: true });
    topic.addSubscription(new EmailSubscription(email));
    return topic;
  }

  private alarm(
    id: string,
    props: {
      metric: IMetric;
      threshold: number;
      description: string;
      evaluationPeriods?: number;
      /** Where the alarm is made: the stack of what it watches when that is a nested one. */
      scope?: Construct;
    },
  ): void {
    const alarm = new Alarm(props.scope ?? this, id, {
      metric: props.metric,
      threshold: props.threshold,
      evaluationPeriods: props.evaluationPeriods ?? 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: `${props.description}. See docs/runbook.md, "${id}".`,
    });
    if (this.action) alarm.addAlarmAction(this.action);
    this.alarms.push(alarm);
  }

  private makeDashboard(input: {
    stage: StageConfig;
    restApi: RestApi;
    messaging: Messaging;
    /** The queue consumers and scheduled workers. */
    workers: ServiceFunction[];
    stateMachines: StateMachine[];
    webAcl?: CfnWebACL;
    business: (name: MetricName, statistic?: string, period?: Duration) => Metric;
    alarms: IAlarm[];
  }): Dashboard {
    const { restApi, messaging, workers, stateMachines, webAcl, business } = input;
    const stack = Stack.of(this);
    const graph = (title: string, left: IMetric[], right: IMetric[] = [], width = 12) =>
      new GraphWidget({ title, left, right, width, height: 6 });
    const per5 = (name: MetricName, statistic = 'Sum') => business(name, statistic, FIVE_MINUTES);
    const queues = Object.entries(messaging.queues);
    const dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: stack.stackName,
      defaultInterval: Duration.hours(6),
    });
    dashboard.addWidgets(
      new TextWidget({
        markdown: `# ${stack.stackName}\nStage **${input.stage.stage}**. What each alarm means and what to do: docs/runbook.md. Logs carry \`requestId\`; delivery logs and metrics carry \`eventId\` and \`deliveryId\`.`,
        width: 24,
        height: 2,
      }),
      new AlarmStatusWidget({ title: 'Alarms', alarms: input.alarms, width: 24, height: 4 }),
    );
    dashboard.addWidgets(
      graph(
        'API requests and errors',
        [restApi.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' })],
        [
          restApi.metricClientError({ period: FIVE_MINUTES, statistic: 'Sum' }),
          restApi.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' }),
        ],
      ),
      graph('API latency (ms)', [
        restApi.metricLatency({ period: FIVE_MINUTES, statistic: 'p50' }),
        restApi.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' }),
      ]),
    );
    dashboard.addWidgets(
      graph(
        'Deliveries',
        [per5('DeliveriesDelivered'), per5('DeliveriesRetried'), per5('DeliveriesFailed')],
        [per5('DeliveryAttempts')],
      ),
      graph('Delivery latency (ms): event to receipt, and one attempt', [
        per5('DeliveryLatency', 'p50'),
        per5('DeliveryLatency', 'p99'),
        per5('AttemptLatency', 'p99'),
      ]),
    );
    dashboard.addWidgets(
      graph(
        'Queues: messages visible (left) and in dead-letter queues (right)',
        queues.map(([, q]) => q.queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES })),
        queues.map(([, q]) =>
          q.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES }),
        ),
      ),
      graph(
        'Queues: age of the oldest message (s)',
        queues.map(([, q]) => q.queue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES })),
      ),
    );
    dashboard.addWidgets(
      graph(
        'Connections: token refreshes',
        [per5('TokenRefreshes'), per5('TokenRefreshFailures')],
        [per5('ConnectionsReauthRequired'), per5('ConnectionThrottles')],
      ),
      graph(
        'Workers: errors and throttles (left), concurrency (right)',
        workers.flatMap((f) => [
          f.fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum', label: `${f.node.id} errors` }),
          f.fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum', label: `${f.node.id} throttles` }),
        ]),
        workers.map(
          (f) =>
            new Metric({
              namespace: 'AWS/Lambda',
              metricName: 'ConcurrentExecutions',
              dimensionsMap: { FunctionName: f.fn.functionName },
              statistic: 'Maximum',
              period: FIVE_MINUTES,
              label: `${f.node.id} concurrency`,
            }),
        ),
      ),
    );
    const lower = [
      graph(
        'Imports, exports and purges: jobs and failures (left), documents imported and files refused (right)',
        [
          per5('SyncRuns'),
          per5('SyncRunsFailed'),
          per5('ExportJobs'),
          per5('ExportJobsFailed'),
          per5('PurgeJobs'),
          per5('PurgeJobsFailed'),
        ],
        [per5('ImportedDocuments'), per5('SyncItemFailures')],
      ),
      graph(
        'Workflows: executions',
        stateMachines.flatMap((m) => [
          m.metricStarted({ period: FIVE_MINUTES, statistic: 'Sum' }),
          m.metricSucceeded({ period: FIVE_MINUTES, statistic: 'Sum' }),
          m.metricFailed({ period: FIVE_MINUTES, statistic: 'Sum' }),
        ]),
      ),
    ];
    if (webAcl) {
      const waf = (metricName: string) =>
        new Metric({
          namespace: 'AWS/WAFV2',
          metricName,
          dimensionsMap: { WebACL: webAcl.name!, Region: stack.region, Rule: 'ALL' },
          statistic: 'Sum',
          period: FIVE_MINUTES,
        });
      lower.push(
        graph('Web ACL: allowed and blocked requests', [waf('AllowedRequests')], [waf('BlockedRequests')]),
      );
    }
    dashboard.addWidgets(...lower);
    return dashboard;
  }
}
