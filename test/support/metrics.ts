// The embedded metric records the code writes, parsed, while a test runs (they are off outside Lambda).
import { captureMetrics } from '../../functions/platform/metrics';

export function recordMetrics(): { records: Record<string, unknown>[]; stop: () => void } {
  const records: Record<string, unknown>[] = [];
  const previous = process.env.METRICS_EMF;
  process.env.METRICS_EMF = '1';
  const restore = captureMetrics((line) => records.push(JSON.parse(line) as Record<string, unknown>));
  return {
    records,
    stop: () => {
      restore();
      if (previous === undefined) delete process.env.METRICS_EMF;
      else process.env.METRICS_EMF = previous;
    },
  };
}
