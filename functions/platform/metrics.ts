// Business metrics as CloudWatch Embedded Metric Format: one JSON line on stdout per outcome, which
// CloudWatch Logs turns into metrics (no SDK call). Serialised here, as Powertools Metrics would
// (same record), without its ~11 KB in every bundle that emits metrics (the bundle budget). The names and dimensions are shared with the CDK alarms and dashboard
// (lib/observability.ts), so both sides speak of the same metric.
import { systemClock } from './clock';
import { getOptionalStringFromEnv, stage as configuredStage } from './config';
import { SERVICE_NAME, redact } from './logger';

export const METRICS_NAMESPACE = 'ConnectorEventService';

/** Every metric the code emits, with its unit. */
export const METRICS = {
  /** One signed attempt made (inline retries included). */
  DeliveryAttempts: 'Count',
  /** A delivery that ended delivered (2xx). */
  DeliveriesDelivered: 'Count',
  /** An attempt that failed with a retriable outcome; the delivery is retried. */
  DeliveriesRetried: 'Count',
  /** A delivery that ended failed: rejected by the receiver, or its schedule exhausted. */
  DeliveriesFailed: 'Count',
  /** Time of one attempt's request, until the response (or the timeout). */
  AttemptLatency: 'Milliseconds',
  /** From the event's occurred_at to the delivered attempt: what a receiver experiences. */
  DeliveryLatency: 'Milliseconds',
  /** Provider tokens refreshed and stored. */
  TokenRefreshes: 'Count',
  /** A refresh that failed (transient or fatal); the connection keeps its status. */
  TokenRefreshFailures: 'Count',
  /** A connection whose grant lapsed: now reauth_required. */
  ConnectionsReauthRequired: 'Count',
  /** A connection throttled (or its throttle extended) by the provider's rate limit. */
  ConnectionThrottles: 'Count',
  /** An import run or an export finished (its status is a property: succeeded or failed). */
  SyncRuns: 'Count',
  ExportJobs: 'Count',
  /**
   * An import run, an export or a purge that ended failed (0 when it succeeded). Metrics of their own,
   * not a status dimension on the ones above: an alarm reads a metric by name and dimensions, and the
   * status is a property of the record, which no alarm can filter on.
   */
  SyncRunsFailed: 'Count',
  ExportJobsFailed: 'Count',
  PurgeJobsFailed: 'Count',
  /** A purge job that reached its outcome (succeeded or failed). */
  PurgeJobs: 'Count',
  /** Vault documents an import wrote (new and updated). */
  ImportedDocuments: 'Count',
  /** Files an import or export could not take (too large, gone at the provider, missing in the vault). */
  SyncItemFailures: 'Count',
} as const;

export type MetricName = keyof typeof METRICS;

/**
 * Every metric is published per service and stage (Powertools always adds `service`); cardinality
 * stays one per stage. The alarms name both.
 */
export const metricDimensions = (stage: string) => ({ service: SERVICE_NAME, Stage: stage });

type Write = (line: string) => void;
let write: Write = (line) => process.stdout.write(line + '\n');

/** Tests capture the lines; returns a function restoring the previous writer. */
export function captureMetrics(writer: Write): () => void {
  const previous = write;
  write = writer;
  switchedOn = undefined;
  return () => {
    write = previous;
    switchedOn = undefined;
  };
}

/** Keys the record's own parts use; a property of the same name would be a second key of the line. */
const DIMENSIONS_AND_AWS = new Set(['_aws', 'service', 'Stage']);

/** The `Metrics` part of the record for a set of names, as JSON, made once per set. */
const definitionsBySet = new Map<string, string>();
function definitions(names: MetricName[]): string {
  const set = names.join();
  let json = definitionsBySet.get(set);
  if (json === undefined) {
    json = JSON.stringify(names.map((name) => ({ Name: name, Unit: METRICS[name] })));
    definitionsBySet.set(set, json);
  }
  return json;
}

/**
 * In Lambda (or when METRICS_EMF=1); the local runtime and tests stay quiet otherwise. Read on the first
 * record and kept: the runtime's switches do not change while it runs, and reading process.env twice per
 * attempt was a sixth of a raw signed POST. `captureMetrics` (tests, benches) reads them again.
 */
let switchedOn: boolean | undefined;
const enabled = () =>
  (switchedOn ??=
    Boolean(getOptionalStringFromEnv('AWS_LAMBDA_FUNCTION_NAME')) ||
    getOptionalStringFromEnv('METRICS_EMF') === '1');

/**
 * Emits `values` as one EMF record. `properties` (eventId, deliveryId, connectionId, ...) are
 * metadata, not dimensions: they stay searchable in Logs Insights next to the numbers, at no metric
 * cost. Each call builds and writes its own record, so concurrent records of a batch never mix.
 */
export function emitMetrics(
  values: Partial<Record<MetricName, number>>,
  properties: Record<string, unknown> = {},
): void {
  if (!enabled()) return;
  const names = (Object.keys(values) as MetricName[]).filter((n) => Number.isFinite(values[n]));
  if (!names.length) return;
  try {
    // The line is written as text around JSON.stringify of each value, with the record's key order
    // (properties, _aws, dimensions, values) and the definitions of each set of names made once: an
    // object per call stringified whole cost a third of a raw signed POST per attempt.
    const redacted = redact(properties) as Record<string, unknown>;
    let line = '{';
    for (const key in redacted) {
      const value = redacted[key];
      if (value === undefined || DIMENSIONS_AND_AWS.has(key) || names.includes(key as MetricName)) continue;
      line += `${JSON.stringify(key)}:${JSON.stringify(typeof value === 'string' ? value : JSON.stringify(value))},`;
    }
    // CloudWatch files the record at this time and checks it against its own clock: the wall clock,
    // never a development clock moved ahead.
    line += `"_aws":{"Timestamp":${systemClock.now()},"CloudWatchMetrics":[{"Namespace":"${METRICS_NAMESPACE}","Dimensions":[["service","Stage"]],"Metrics":${definitions(names)}}]}`;
    line += `,"service":"${SERVICE_NAME}","Stage":${JSON.stringify(configuredStage())}`;
    for (const name of names) line += `,"${name}":${values[name]}`;
    write(line + '}');
  } catch {
    // A metric must never fail the work it measures.
  }
}
