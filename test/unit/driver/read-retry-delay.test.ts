import { describe, expect, it } from 'vitest';
import { serverRetryDelayMs } from '../../../src/driver/retry-rules.js';
import { clientReadRetryPolicy } from '../../../src/driver/read-retry.js';

/**
 * `grpc-status-details-bin` values (serialized `google.rpc.Status`) encoded
 * with protobufjs from google-gax's own `status.json`: the bytes a server
 * sends, independent of the decoder under test.
 */
const STATUS_BIN = {
  /** code 14, details: [RetryInfo { retry_delay: 1.5 s }] */
  retryAfter1500ms:
    '080e1209747279206c617465721a360a28747970652e676f6f676c65617069732e636f6d2f676f6f676c652e7270632e5265747279496e666f120a0a0808011080cab5ee01',
  /** code 8, details: [ErrorInfo { reason: RATE_LIMITED }, RetryInfo { retry_delay: 0.25 s }] */
  errorInfoThenRetryAfter250ms:
    '0808120571756f74611a530a28747970652e676f6f676c65617069732e636f6d2f676f6f676c652e7270632e4572726f72496e666f12270a0c524154455f4c494d4954454412176269677461626c652e676f6f676c65617069732e636f6d1a330a28747970652e676f6f676c65617069732e636f6d2f676f6f676c652e7270632e5265747279496e666f12070a051080e59a77',
  /** code 14, details: [ErrorInfo { reason: X }] only */
  noRetryInfo:
    '080e12026e6f1a2f0a28747970652e676f6f676c65617069732e636f6d2f676f6f676c652e7270632e4572726f72496e666f12030a0158',
};

/** A gRPC error as grpc-js reports it: `metadata.get(key)` returns the values of a header. */
function grpcError(code: number, statusBin?: string): Error {
  const values = statusBin === undefined ? [] : [Buffer.from(statusBin, 'hex')];
  return Object.assign(new Error('injected'), {
    code,
    metadata: { get: (key: string) => (key === 'grpc-status-details-bin' ? values : []) },
  });
}

describe('serverRetryDelayMs', () => {
  it('reads RetryInfo from the grpc-status-details-bin trailer', () => {
    expect(serverRetryDelayMs(grpcError(14, STATUS_BIN.retryAfter1500ms))).toBe(1_500);
    expect(serverRetryDelayMs(grpcError(8, STATUS_BIN.errorInfoThenRetryAfter250ms))).toBe(250);
  });

  it('reads RetryInfo from statusDetails as google-gax decodes it (seconds as a Long)', () => {
    const long = { low: 2, high: 0, unsigned: false, toNumber: () => 2 };
    const error = Object.assign(new Error('x'), {
      code: 14,
      statusDetails: [{ reason: 'R' }, { retryDelay: { seconds: long, nanos: 100_000_000 } }],
    });
    expect(serverRetryDelayMs(error)).toBe(2_100);
    expect(
      serverRetryDelayMs(
        Object.assign(new Error('x'), { statusDetails: [{ retryDelay: { seconds: '3', nanos: 0 } }] }),
      ),
    ).toBe(3_000);
    expect(
      serverRetryDelayMs(Object.assign(new Error('x'), { statusDetails: [{ retryDelay: { nanos: 5_000_000 } }] })),
    ).toBe(5);
  });

  it('is undefined without RetryInfo, and for garbage instead of a status', () => {
    expect(serverRetryDelayMs(grpcError(14, STATUS_BIN.noRetryInfo))).toBeUndefined();
    expect(serverRetryDelayMs(grpcError(14))).toBeUndefined();
    expect(serverRetryDelayMs(grpcError(14, 'ffffffffffffffffffff'))).toBeUndefined();
    expect(serverRetryDelayMs(grpcError(14, '1a05'))).toBeUndefined();
    expect(
      serverRetryDelayMs(Object.assign(new Error('x'), { statusDetails: [{ retryDelay: { seconds: -1, nanos: 0 } }] })),
    ).toBeUndefined();
    expect(serverRetryDelayMs(new Error('plain'))).toBeUndefined();
    expect(serverRetryDelayMs(undefined)).toBeUndefined();
  });
});

describe('the read retry policy and RetryInfo', () => {
  it("waits the server's RetryInfo delay instead of its own backoff", () => {
    const policy = clientReadRetryPolicy(undefined);
    expect(policy.delayMs(1, grpcError(14, STATUS_BIN.retryAfter1500ms))).toBe(1_500);
    expect(policy.delayMs(1, grpcError(14))).toBeLessThan(120);
  });
});
