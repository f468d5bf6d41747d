import { METRICS, captureMetrics, emitMetrics } from '../../functions/platform/metrics';

describe('embedded metric format', () => {
  const lines: string[] = [];
  let restore: () => void;
  beforeEach(() => {
    lines.length = 0;
    restore = captureMetrics((line) => lines.push(line));
    process.env.METRICS_EMF = '1';
  });
  afterEach(() => {
    restore();
    delete process.env.METRICS_EMF;
  });

  it('writes one EMF record with a timestamp, the values, their units, service and stage dimensions and the correlation ids', () => {
    emitMetrics({ DeliveriesDelivered: 1, DeliveryLatency: 1234 }, { eventId: 'evt_1', deliveryId: 'dlv_1' });
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(record).toMatchObject({
      eventId: 'evt_1',
      deliveryId: 'dlv_1',
      DeliveriesDelivered: 1,
      DeliveryLatency: 1234,
      _aws: {
        Timestamp: expect.any(Number),
        CloudWatchMetrics: [
          {
            Namespace: 'ConnectorEventService',
            Dimensions: [['service', 'Stage']],
            Metrics: [
              { Name: 'DeliveriesDelivered', Unit: METRICS.DeliveriesDelivered },
              { Name: 'DeliveryLatency', Unit: 'Milliseconds' },
            ],
          },
        ],
      },
    });
    expect(record).toMatchObject({ service: 'connector-event-service', Stage: expect.any(String) });
  });

  it('redacts secret-looking properties and skips non-finite values', () => {
    emitMetrics({ TokenRefreshFailures: 1, AttemptLatency: Number.NaN }, { token: 'x' });
    const record = JSON.parse(lines[0]!) as {
      token: string;
      _aws: { CloudWatchMetrics: { Metrics: unknown[] }[] };
    };
    expect(record.token).toBe('[REDACTED]');
    expect(record._aws.CloudWatchMetrics[0]!.Metrics).toEqual([
      { Name: 'TokenRefreshFailures', Unit: 'Count' },
    ]);
  });

  it('starts every record afresh: no value or property of the previous one is carried over', () => {
    emitMetrics({ DeliveriesDelivered: 1 }, { eventId: 'evt_1' });
    emitMetrics({ DeliveriesRetried: 1 }, { deliveryId: 'dlv_2' });
    const second = JSON.parse(lines[1]!) as Record<string, unknown>;
    expect(second).toMatchObject({ DeliveriesRetried: 1, deliveryId: 'dlv_2' });
    expect(second).not.toHaveProperty('DeliveriesDelivered');
    expect(second).not.toHaveProperty('eventId');
  });

  it('writes valid JSON whatever the properties hold, and never a second key of its own parts', () => {
    emitMetrics(
      { DeliveryAttempts: 2 },
      {
        note: 'a "quoted"\nline \\ \u2028',
        nested: { n: 1 },
        service: 'x',
        Stage: 'y',
        _aws: 1,
        DeliveryAttempts: 9,
      },
    );
    const line = lines[0]!;
    const record = JSON.parse(line) as Record<string, unknown>;
    expect(record).toMatchObject({
      note: 'a "quoted"\nline \\ \u2028',
      nested: '{"n":1}',
      service: 'connector-event-service',
      DeliveryAttempts: 2,
    });
    expect(record.Stage).not.toBe('y');
    expect(line.match(/"service":/g)).toHaveLength(1);
    expect(line.match(/"DeliveryAttempts":/g)).toHaveLength(1);
  });

  it('stays quiet outside Lambda unless asked', () => {
    delete process.env.METRICS_EMF;
    emitMetrics({ DeliveryAttempts: 1 });
    expect(lines).toEqual([]);
  });
});
