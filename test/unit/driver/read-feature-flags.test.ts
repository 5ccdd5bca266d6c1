import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Bigtable } from '@google-cloud/bigtable';
import {
  encodeFeatureFlags,
  READ_FEATURE_FLAGS,
  REVERSED_READ_FEATURE_FLAGS,
} from '../../../src/driver/feature-flags.js';
import { toReadRowsMessage } from '../../../src/driver/read-rows-message.js';
import { DataClient, type GeneratedDataClient } from '../../../src/driver/data-client.js';
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
    const options: { otherArgs?: { headers?: Record<string, unknown> } }[] = [];
    const generated = {
      readRows: (_message: unknown, sent: (typeof options)[number]) => {
        options.push(sent);
        return new PassThrough({ objectMode: true });
      },
    };
    const data = new DataClient(
      new Bigtable({ projectId: 'p', apiEndpoint: '127.0.0.1:1', metricsEnabled: false }),
      () => generated as unknown as GeneratedDataClient,
    );
    data.readRows(
      toReadRowsMessage(planRead({ table: 't' }) as ReadPlan, 'projects/p/instances/i/tables/t', undefined),
      3,
    );
    expect(options[0]?.otherArgs?.headers).toEqual({ 'bigtable-attempt': 3, 'bigtable-features': 'IAE=' });
  });

  it('a reversed read also announces reverse_scans (field 1), which the server requires for reversed: true', () => {
    expect(REVERSED_READ_FEATURE_FLAGS).toBe('CAEgAQ==');
    const options: { otherArgs?: { headers?: Record<string, unknown> } }[] = [];
    const generated = {
      readRows: (_message: unknown, sent: (typeof options)[number]) => {
        options.push(sent);
        return new PassThrough({ objectMode: true });
      },
    };
    const data = new DataClient(
      new Bigtable({ projectId: 'p', apiEndpoint: '127.0.0.1:1', metricsEnabled: false }),
      () => generated as unknown as GeneratedDataClient,
    );
    const plan = planRead({ table: 't', reversed: true }) as ReadPlan;
    data.readRows(toReadRowsMessage(plan, 'projects/p/instances/i/tables/t', undefined), 0);
    expect(options[0]?.otherArgs?.headers).toEqual({ 'bigtable-attempt': 0, 'bigtable-features': 'CAEgAQ==' });
  });
});
