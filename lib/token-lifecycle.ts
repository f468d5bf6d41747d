// Token lifecycle: the scheduled refresh sweep. An EventBridge rule runs one Lambda every 5 minutes;
// it refreshes the provider access tokens that are due and ends the throttles whose window passed.
import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import type { RouteDefinition } from '../functions/platform/route-types';
import type { DataStores } from './data';
import type { Messaging } from './messaging';
import { ServiceFunction } from './service-function';
import type { StageConfig } from './stage-config';

export interface TokenLifecycleProps {
  stage: StageConfig;
  data: DataStores;
  messaging: Messaging;
  /** The connector settings' environment (provider token endpoints, client ids and secrets). */
  connectors: { environmentFor(worker: Pick<RouteDefinition, 'id'>): Record<string, string> };
}

/** Tokens come due 10 minutes before expiry, so a 5-minute sweep refreshes each at least once in time. */
export const SWEEP_INTERVAL = Duration.minutes(5);
/** Shorter than the interval: runs never overlap (and reserved concurrency 1 makes sure of it). */
export const SWEEP_TIMEOUT = Duration.minutes(4);

export class TokenLifecycle extends Construct {
  readonly sweep: ServiceFunction;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: TokenLifecycleProps) {
    super(scope, id);
    const { stage, data, messaging } = props;
    this.sweep = new ServiceFunction(this, 'RefreshSweep', {
      handler: 'connectors/api/handlers/refresh-sweep',
      stage,
      description: 'Refreshes provider access tokens before expiry and ends provider throttles',
      timeout: SWEEP_TIMEOUT,
      reservedConcurrency: 1,
      environment: props.connectors.environmentFor({ id: 'refreshSweep' }),
    })
      .bindTable('connectors', data.tables.connectors, 'write')
      .bindKey(data.key, 'both') // opens the stored tokens, seals the refreshed ones
      .bindQueue('events', messaging.queues.events.queue); // connection.reauth_required
    this.schedule = new Rule(this, 'Schedule', {
      description: 'Token refresh sweep',
      schedule: Schedule.rate(SWEEP_INTERVAL),
      // A missed run is not retried: the next one, 5 minutes later, finds everything still due.
      targets: [new LambdaFunction(this.sweep.fn, { retryAttempts: 0, maxEventAge: Duration.minutes(5) })],
    });
  }
}
