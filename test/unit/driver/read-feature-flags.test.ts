import { describe, expect, it } from 'vitest';
import type { Bigtable } from '@google-cloud/bigtable';
import { encodeFeatureFlags, READ_FEATURE_FLAGS } from '../../../src/driver/feature-flags.js';
import { requestReadRows, toReadRowsMessage } from '../../../src/driver/read-rows-rpc.js';
import { planRead, type ReadPlan } from '../../../src/driver/read-plan.js';

describe('the bigtable-features header', () => {
  it('encodes google.bigtable.v2.FeatureFlags as padded base64url, fields in number order', () => {
    expect(encodeFeatureFlags({ reverseScans: true, lastScannedRowResponses: true })).toBe('CAEgAQ==');
    expect(encodeFeatureFlags({ reverseScans: true })).toBe('CAE=');
    expect(encodeFeatureFlags({})).toBe('');
    expect(encodeFeatureFlags({ reverseScans: false, lastScannedRowResponses: true })).toBe('IAE=');
  });

  it('reads ask only for last_scanned_row_responses (field 4 = true: bytes 0x20 0x01)', () => {
    expect(READ_FEATURE_FLAGS).toBe('IAE=');
    expect([...Buffer.from(READ_FEATURE_FLAGS, 'base64url')]).toEqual([0x20, 0x01]);
  });

  it('goes out with every ReadRows attempt, next to bigtable-attempt', () => {
    const configs: { gaxOpts?: { otherArgs?: { headers?: Record<string, unknown> } } }[] = [];
    const bigtable = { request: (config: (typeof configs)[number]) => configs.push(config) } as unknown as Bigtable;
    requestReadRows(
      bigtable,
      toReadRowsMessage(planRead({ table: 't' }) as ReadPlan, 'projects/p/instances/i/tables/t', undefined),
      3,
    );
    expect(configs[0]?.gaxOpts?.otherArgs?.headers).toEqual({ 'bigtable-attempt': 3, 'bigtable-features': 'IAE=' });
  });
});
