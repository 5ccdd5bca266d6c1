import { describe, expect, it } from 'vitest';
import { captureWorkload } from '../../../src/heatmap/capture-workload.js';
import type { BigtableDriver, RowKeySchema } from '../../../src/model/driver.js';
import { PrefixedDriver } from '../../../src/repository/table-prefix.js';
import { FakeDriver } from '../../support/fake-driver.js';

const schema: RowKeySchema = { fields: [{ name: 'sensorId', type: 'string' }] };
const families = [{ name: 'd', gc: undefined }];

describe.each<[string, (inner: BigtableDriver) => BigtableDriver, string]>([
  ['PrefixedDriver', (inner) => new PrefixedDriver(inner, 'staging_'), 'staging_readings'],
  ['captureWorkload', (inner) => captureWorkload(inner).driver, 'readings'],
])('%s', (_, wrap, table) => {
  it('passes the row key schema of a new table on to the driver it wraps', async () => {
    const inner = new FakeDriver();
    await wrap(inner).createTable({ table: 'readings', families, rowKeySchema: schema });
    expect(inner.calls).toContainEqual({ method: 'createTable', table, families, rowKeySchema: schema });
  });
});
