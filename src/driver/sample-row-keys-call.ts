import type { CallOptions, RowKeySample } from '../model/driver.js';
import { BigtableMapperError } from '../errors/bigtable-mapper-error.js';
import type { DataRpc, DataTable } from './data-client.js';
import type { SampleRowKeysResponse } from './data-messages.js';
import { driverFailure } from './driver-failure.js';
import { isRetryableReadError } from './read-retry.js';
import { backoffWithServerDelay, serverRetryDelayMs } from './retry-rules.js';
import { RetryingCall, type ResumptionRule } from './retry-engine.js';
import { abortRead } from './abort-read.js';

/** Consecutive failed attempts retried; the deadline bounds them too. */
const MAX_RETRIES = 10;

/**
 * SampleRowKeys through the retry engine: the server streams the samples,
 * the call collects them and resolves with all of them. The call is
 * idempotent: an attempt that fails with a transient error (the codes a read
 * retries) or is cut by its attempt or idle timeout is sent again whole, its
 * partial samples dropped. Other failures become `DriverError`
 * (`TableNotFoundError` for a missing table).
 * @internal
 */
export function sampleRowKeysCall(
  rpc: DataRpc,
  table: DataTable,
  call: CallOptions | undefined,
): Promise<RowKeySample[]> {
  const operation = `sampleRowKeys ${JSON.stringify(table.id)}`;
  const message = { tableName: table.name, appProfileId: table.appProfileId };
  return new Promise<RowKeySample[]>((resolve, reject) => {
    let samples: RowKeySample[] = [];
    const rule: ResumptionRule = {
      method: 'SampleRowKeys',
      operation,
      table: table.id,
      retry: { maxRetries: MAX_RETRIES, delayMs: backoffWithServerDelay },
      sendsDeadline: true,
      open: (attempt, _gax, events) => {
        samples = [];
        let current = true;
        const stream = rpc.sampleRowKeys(message, attempt);
        stream.on('data', (response) => {
          if (!current) return;
          events.response();
          samples.push(toSample(response));
        });
        const settle = (done: () => void): void => {
          if (!current) return;
          current = false;
          done();
        };
        stream.on('end', () => settle(() => events.ended()));
        stream.on('error', (error) => settle(() => events.failed(error)));
        stream.on('close', () =>
          settle(() => events.failed(new Error('the SampleRowKeys stream closed before its end'))),
        );
        return {
          cancel: () => {
            current = false;
            abortRead(stream);
          },
          retire: () => rpc.retireChannel?.(stream),
        };
      },
      next: (end) => {
        if (end.kind === 'ended') return { kind: 'done' };
        if (!isRetryableReadError(end.error)) return { kind: 'fail', error: end.error };
        return { kind: 'retry', serverDelayMs: serverRetryDelayMs(end.error) };
      },
      finish: (outcome) => {
        if (outcome.kind === 'done') {
          resolve(samples);
          return;
        }
        const error = outcome.kind === 'exhausted' ? (outcome.deadline ?? outcome.error) : outcome.error;
        reject(error instanceof BigtableMapperError ? error : driverFailure(operation, table.id, error));
      },
    };
    new RetryingCall(rule, call, table.listener).start();
  });
}

function toSample(response: SampleRowKeysResponse): RowKeySample {
  const raw = response.rowKey;
  const key =
    raw === null || raw === undefined
      ? Buffer.alloc(0)
      : typeof raw === 'string'
        ? Buffer.from(raw, 'base64')
        : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const offset = response.offsetBytes;
  const offsetBytes = offset === null || offset === undefined ? 0 : Number(String(offset));
  return { key: Buffer.from(key), offsetBytes: Number.isFinite(offsetBytes) ? offsetBytes : 0 };
}
