import { AggregationTemporality, MetricReader } from '@opentelemetry/sdk-metrics';

/**
 * A metric reader the test collects from when it wants (`await reader.collect()`),
 * with cumulative sums: the exact values recorded so far, no export interval.
 * @example
 * ```ts
 * const reader = new CollectingReader();
 * const provider = new MeterProvider({ readers: [reader] });
 * ```
 */
export class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }

  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }

  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}
