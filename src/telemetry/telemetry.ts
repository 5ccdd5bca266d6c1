import type { Attributes, Counter, Histogram, Meter, MeterProvider, Span, Tracer } from '@opentelemetry/api';
import type { AttemptCallEvent, AttemptListener, CallVolume } from '../driver/retry-engine.js';
import type {
  CallTelemetry,
  MapperLogger,
  OperationTelemetry,
  ScanMeasures,
  StartedOperation,
  TelemetryOptions,
} from '../model/telemetry.js';
import { loadOtelApi, type OtelApiModule } from './otel-api.js';
import { writeLog } from './log-messages.js';
import {
  BATCH_ROWS_BUCKETS,
  BUCKETS_TOUCHED_BUCKETS,
  DB_SYSTEM,
  INSTRUMENTATION_SCOPE,
  LATENCY_BUCKETS_MS,
  READ_AHEAD_BUCKETS,
  printableKeyPrefix,
  splitOperationName,
  statusName,
} from './names.js';

/** The instruments of one MeterProvider. */
interface Instruments {
  readonly provider: MeterProvider;
  readonly operationLatencies: Histogram;
  readonly attemptLatencies: Histogram;
  readonly firstResponseLatencies: Histogram;
  readonly retryCount: Counter;
  readonly connectivityErrors: Counter;
  readonly rowsRead: Counter;
  readonly bytesRead: Counter;
  readonly rowsWritten: Counter;
  readonly bytesWritten: Counter;
  readonly batchRows: Histogram;
  readonly bucketsTouched: Histogram;
  readonly mergeWait: Histogram;
  readonly readAhead: Histogram;
}

/** What one scan reported through its {@link ScanMeasures}, recorded when its operation ends. */
interface ScanTally {
  table: string | undefined;
  ranges: number;
  waitedMs: number;
  peakReadAhead: number;
}

/** What the listener keeps about one RPC call between its events. */
interface CallState {
  attemptSpan: Span | undefined;
  lastStatus: number | undefined;
  firstResponseMs: number | undefined;
}

const OK = 0;
const KEY_PREFIX_ATTRIBUTE = 'bigtable_mapper.row_key_prefix';
/**
 * The statuses of an attempt the network cut before any response: a reset
 * (UNAVAILABLE, or INTERNAL for a stream reset), an attempt or idle timeout
 * (DEADLINE_EXCEEDED). Any other status is the server's answer (NOT_FOUND,
 * PERMISSION_DENIED, ...), not a connectivity error.
 */
const CONNECTIVITY_STATUSES: ReadonlySet<number> = new Set([4, 13, 14]);

function isSpan(value: unknown): value is Span {
  return typeof value === 'object' && value !== null && typeof (value as Span).spanContext === 'function';
}

/**
 * A mapper's telemetry: the {@link AttemptListener} its driver feeds (metrics
 * and attempt spans) and the {@link OperationTelemetry} its repository calls
 * start (operation spans). Both do nothing until `@opentelemetry/api` has
 * loaded (`ready`), and for good when it is not installed. With the API and
 * no registered MeterProvider or TracerProvider the API's no-op
 * implementations record nothing.
 * @internal
 */
export class MapperTelemetry implements OperationTelemetry {
  /** Settles when `@opentelemetry/api` is loaded or known to be missing. */
  readonly ready: Promise<void>;
  readonly listener: AttemptListener;
  readonly #metrics: boolean;
  readonly #traces: boolean;
  readonly #keyPrefixBytes: number;
  readonly #appProfile: () => string | undefined;
  #api: OtelApiModule | undefined;
  #tracer: Tracer | undefined;
  #instruments: Instruments | undefined;
  readonly #calls = new WeakMap<object, CallState>();
  readonly #log: OperationLog | undefined;

  /**
   * `options` undefined: no metrics or traces, and `@opentelemetry/api` is not loaded (a mapper with
   * only a `logger`).
   */
  constructor(
    options: TelemetryOptions | undefined,
    appProfile: () => string | undefined,
    load = loadOtelApi,
    log?: OperationLog,
  ) {
    this.#metrics = options !== undefined && options.metrics !== false;
    this.#traces = options !== undefined && options.traces !== false;
    this.#keyPrefixBytes = options?.rowKeyPrefixBytes ?? 0;
    this.#appProfile = appProfile;
    this.#log = log;
    this.ready = (options === undefined ? Promise.resolve(undefined) : load()).then(
      (api) => {
        this.#api = api;
        if (api !== undefined && this.#traces)
          this.#tracer = api.trace.getTracer(INSTRUMENTATION_SCOPE.name, INSTRUMENTATION_SCOPE.version);
      },
      () => undefined,
    );
    this.listener = {
      attemptStarted: (event) => this.#attemptStarted(event),
      firstResponse: (event) => this.#firstResponse(event),
      attemptEnded: (event) => this.#attemptEnded(event),
      retryScheduled: (event) => this.#retryScheduled(event),
      operationEnded: (event) => this.#operationEnded(event),
    };
  }

  /** Starts the span of repository call `name` (`Reading.save`) as a child of the active span; `appProfileId` is the call's own. */
  start(name: string, appProfileId?: string): StartedOperation {
    const started = this.#withScanMeasures(this.#startSpan(name), appProfileId);
    const log = this.#log;
    if (log?.slowOperationMs === undefined) return started;
    const startedAt = Date.now();
    return {
      call: started.call,
      ...(started.within === undefined ? {} : { within: started.within }),
      end: (error?: unknown) => {
        started.end(error);
        const ms = Date.now() - startedAt;
        if (ms >= (log.slowOperationMs as number))
          writeLog(
            log.logger,
            'warn',
            `bigtable-mapper: ${name} took ${ms} ms (slowOperationMs ${log.slowOperationMs})${error === undefined ? '' : `, failed with ${errorType(error)}`}`,
          );
      },
    };
  }

  /**
   * Gives the call {@link ScanMeasures} when metrics are on: a scan reports
   * its ranges, merge waits and read-ahead there, and they are recorded once,
   * when the call ends.
   */
  #withScanMeasures(started: StartedOperation, appProfileId: string | undefined): StartedOperation {
    if (!this.#metrics || this.#api === undefined) return started;
    const tally: ScanTally = { table: undefined, ranges: 0, waitedMs: 0, peakReadAhead: 0 };
    const scan: ScanMeasures = {
      started: (table, ranges) => {
        tally.table = table;
        tally.ranges += ranges;
      },
      waited: (ms) => (tally.waitedMs += ms),
      readAhead: (rows) => {
        if (rows > tally.peakReadAhead) tally.peakReadAhead = rows;
      },
    };
    return {
      ...started,
      call: { ...started.call, scan },
      end: (error?: unknown) => {
        started.end(error);
        if (tally.ranges > 0) this.#recordScan(started.call, tally, appProfileId);
      },
    };
  }

  #recordScan(call: CallTelemetry, tally: ScanTally, appProfileId: string | undefined): void {
    const instruments = this.#meters();
    if (instruments === undefined) return;
    const attributes: Attributes = {
      table: tally.table ?? '',
      app_profile: appProfileId ?? this.#appProfile() ?? 'default',
      operation: call.operation,
    };
    if (call.entity !== undefined) attributes['entity'] = call.entity;
    instruments.bucketsTouched.record(tally.ranges, attributes);
    // Only an ordered merge of several ranges waits or reads ahead.
    if (tally.ranges > 1) {
      instruments.mergeWait.record(tally.waitedMs, attributes);
      instruments.readAhead.record(tally.peakReadAhead, attributes);
    }
  }

  #startSpan(name: string): StartedOperation {
    const { entity, operation } = splitOperationName(name);
    const tracer = this.#tracer;
    const api = this.#api;
    if (tracer === undefined || api === undefined) return { call: { entity, operation }, end: () => undefined };
    const span = tracer.startSpan(operation, {
      kind: api.SpanKind.CLIENT,
      attributes: {
        'db.system.name': DB_SYSTEM,
        'db.operation.name': operation,
        ...(entity === undefined ? {} : { 'bigtable_mapper.entity': entity }),
      },
    });
    return {
      call: { entity, operation, span },
      within: (fn) => api.context.with(api.trace.setSpan(api.context.active(), span), fn),
      end: (error?: unknown) => {
        if (error !== undefined) {
          span.setAttribute('error.type', errorType(error));
          span.setStatus({ code: api.SpanStatusCode.ERROR });
        }
        span.end();
      },
    };
  }

  #state(event: AttemptCallEvent): CallState {
    let state = this.#calls.get(event.call);
    if (state === undefined) {
      state = { attemptSpan: undefined, lastStatus: undefined, firstResponseMs: undefined };
      this.#calls.set(event.call, state);
    }
    return state;
  }

  /** The instruments of the MeterProvider registered now (one registered later is picked up then). */
  #meters(): Instruments | undefined {
    const api = this.#api;
    if (!this.#metrics || api === undefined) return undefined;
    const provider = api.metrics.getMeterProvider();
    if (this.#instruments?.provider === provider) return this.#instruments;
    const meter: Meter = provider.getMeter(INSTRUMENTATION_SCOPE.name, INSTRUMENTATION_SCOPE.version);
    const latency = (name: string, description: string): Histogram =>
      meter.createHistogram(name, {
        unit: 'ms',
        description,
        advice: { explicitBucketBoundaries: [...LATENCY_BUCKETS_MS] },
      });
    this.#instruments = {
      provider,
      operationLatencies: latency(
        'operation_latencies',
        'Total time of an RPC call, every attempt and backoff included, until its result or error.',
      ),
      attemptLatencies: latency('attempt_latencies', 'Time of one RPC attempt.'),
      firstResponseLatencies: latency(
        'first_response_latencies',
        'Time from the start of an RPC call until its first response arrived.',
      ),
      retryCount: meter.createCounter('retry_count', {
        unit: '1',
        description: 'Attempts sent after the first one of an RPC call.',
      }),
      connectivityErrors: meter.createCounter('connectivity_error_count', {
        unit: '1',
        description: 'Attempts that failed without any response from the server (UNAVAILABLE, a reset, a timeout).',
      }),
      rowsRead: meter.createCounter('bigtable_mapper.rows_read', {
        unit: '{row}',
        description: 'Rows a ReadRows call delivered.',
      }),
      bytesRead: meter.createCounter('bigtable_mapper.bytes_read', {
        unit: 'By',
        description: 'Bytes of the row keys and cell values a ReadRows call delivered.',
      }),
      rowsWritten: meter.createCounter('bigtable_mapper.rows_written', {
        unit: '{row}',
        description: 'Rows a MutateRows call had confirmed written.',
      }),
      bytesWritten: meter.createCounter('bigtable_mapper.bytes_written', {
        unit: 'By',
        description: 'Bytes of the row keys and cell values of the rows a MutateRows call had confirmed written.',
      }),
      batchRows: meter.createHistogram('bigtable_mapper.batch_rows', {
        unit: '{row}',
        description: 'Rows of one RPC call: delivered by a ReadRows call, confirmed written by a MutateRows call.',
        advice: { explicitBucketBoundaries: [...BATCH_ROWS_BUCKETS] },
      }),
      bucketsTouched: meter.createHistogram('bigtable_mapper.buckets_touched', {
        unit: '{range}',
        description: 'Key ranges one scan read: its salt buckets for a salted entity (both layouts while re-salting).',
        advice: { explicitBucketBoundaries: [...BUCKETS_TOUCHED_BUCKETS] },
      }),
      mergeWait: meter.createHistogram('bigtable_mapper.merge_wait', {
        unit: 'ms',
        description: "Time one ordered scan's merge waited for a bucket's next rows, over the whole scan.",
        advice: { explicitBucketBoundaries: [...LATENCY_BUCKETS_MS] },
      }),
      readAhead: meter.createHistogram('bigtable_mapper.read_ahead', {
        unit: '{row}',
        description: 'Most rows one ordered scan held read ahead of its merge, over all buckets.',
        advice: { explicitBucketBoundaries: [...READ_AHEAD_BUCKETS] },
      }),
    };
    return this.#instruments;
  }

  #attributes(event: AttemptCallEvent, status: number | undefined): Attributes {
    const attributes: Attributes = {
      method: event.method,
      status: statusName(status),
      streaming: event.method === 'ReadRows',
      table: event.table ?? '',
      app_profile: event.appProfileId ?? this.#appProfile() ?? 'default',
    };
    const call: CallTelemetry | undefined = event.telemetry;
    if (call !== undefined) {
      attributes['operation'] = call.operation;
      if (call.entity !== undefined) attributes['entity'] = call.entity;
    }
    return attributes;
  }

  #attemptStarted(event: AttemptCallEvent & { readonly attempt: number }): void {
    const tracer = this.#tracer;
    const api = this.#api;
    if (tracer === undefined || api === undefined) return;
    const parent = event.telemetry?.span;
    const keyPrefix =
      this.#keyPrefixBytes > 0 && event.rowKey !== undefined
        ? printableKeyPrefix(event.rowKey, this.#keyPrefixBytes)
        : undefined;
    if (isSpan(parent) && event.table !== undefined && event.attempt === 0) {
      parent.setAttribute('db.collection.name', event.table);
      parent.updateName(`${event.telemetry?.operation ?? event.method} ${event.table}`);
      if (keyPrefix !== undefined) parent.setAttribute(KEY_PREFIX_ATTRIBUTE, keyPrefix);
    }
    const context = isSpan(parent) ? api.trace.setSpan(api.context.active(), parent) : api.context.active();
    this.#state(event).attemptSpan = tracer.startSpan(
      event.method,
      {
        kind: api.SpanKind.CLIENT,
        attributes: {
          'db.system.name': DB_SYSTEM,
          'db.operation.name': event.method,
          ...(event.table === undefined ? {} : { 'db.collection.name': event.table }),
          'bigtable_mapper.attempt': event.attempt,
          ...(keyPrefix === undefined ? {} : { [KEY_PREFIX_ATTRIBUTE]: keyPrefix }),
        },
      },
      context,
    );
  }

  #firstResponse(event: AttemptCallEvent & { readonly ms: number; readonly operationMs?: number }): void {
    const state = this.#state(event);
    state.attemptSpan?.addEvent('first_response', { 'bigtable_mapper.latency_ms': event.ms });
    if (event.operationMs !== undefined) state.firstResponseMs = event.operationMs;
  }

  #attemptEnded(
    event: AttemptCallEvent & { readonly ms: number; readonly status: number; readonly answered: boolean },
  ): void {
    const state = this.#state(event);
    state.lastStatus = event.status;
    const span = state.attemptSpan;
    state.attemptSpan = undefined;
    if (span !== undefined && this.#api !== undefined) {
      span.setAttribute('rpc.grpc.status_code', event.status);
      if (event.status !== OK) {
        span.setAttribute('error.type', statusName(event.status));
        span.setStatus({ code: this.#api.SpanStatusCode.ERROR });
      }
      span.end();
    }
    const instruments = this.#meters();
    if (instruments === undefined) return;
    const attributes = this.#attributes(event, event.status);
    instruments.attemptLatencies.record(event.ms, attributes);
    if (!event.answered && CONNECTIVITY_STATUSES.has(event.status)) instruments.connectivityErrors.add(1, attributes);
  }

  #retryScheduled(event: AttemptCallEvent & { readonly attempt: number; readonly delayMs: number }): void {
    if (this.#log !== undefined) {
      const call = event.telemetry;
      const of = call === undefined ? '' : ` (${call.entity === undefined ? '' : `${call.entity}.`}${call.operation})`;
      writeLog(
        this.#log.logger,
        'debug',
        `bigtable-mapper: ${event.method} ${event.table === undefined ? '' : `${JSON.stringify(event.table)} `}attempt ${event.attempt} ended with ${statusName(this.#state(event).lastStatus)}; retry in ${event.delayMs} ms${of}`,
      );
    }
    const parent = event.telemetry?.span;
    if (!isSpan(parent) || this.#tracer === undefined) return;
    parent.addEvent('retry_scheduled', {
      'bigtable_mapper.method': event.method,
      'bigtable_mapper.attempt': event.attempt,
      'bigtable_mapper.backoff_ms': event.delayMs,
      'bigtable_mapper.status': statusName(this.#state(event).lastStatus),
    });
  }

  #operationEnded(
    event: AttemptCallEvent & {
      readonly attempts: number;
      readonly ms: number;
      readonly outcome: string;
      readonly volume?: CallVolume | undefined;
    },
  ): void {
    const state = this.#calls.get(event.call);
    this.#calls.delete(event.call);
    const instruments = this.#meters();
    if (instruments === undefined) return;
    const status = event.outcome === 'done' ? OK : state?.lastStatus;
    const attributes = this.#attributes(event, status);
    instruments.operationLatencies.record(event.ms, attributes);
    instruments.retryCount.add(Math.max(event.attempts - 1, 0), attributes);
    if (state?.firstResponseMs !== undefined)
      instruments.firstResponseLatencies.record(state.firstResponseMs, attributes);
    const volume = event.volume;
    if (volume === undefined) return;
    const reading = event.method === 'ReadRows';
    (reading ? instruments.rowsRead : instruments.rowsWritten).add(volume.rows, attributes);
    (reading ? instruments.bytesRead : instruments.bytesWritten).add(volume.bytes, attributes);
    instruments.batchRows.record(volume.rows, attributes);
  }
}

/**
 * A mapper's `logger` option with its `slowOperationMs`.
 * @internal
 */
export interface OperationLog {
  readonly logger: MapperLogger;
  readonly slowOperationMs: number | undefined;
}

/** `error.type` of a failed operation: its code or class name, never its message (which may name a key). */
function errorType(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const name = (error as { name?: unknown }).name;
    if (typeof name === 'string') return name;
  }
  return '_OTHER';
}
