// `bigtable-mapper/testing` alone: the in-memory Bigtable as a driver, with neither the Google client nor gRPC loaded.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InMemoryBigtable } from 'bigtable-mapper/testing';

test('the in-memory Bigtable loads neither @google-cloud/bigtable nor gRPC', async () => {
  const bigtable = new InMemoryBigtable();
  await bigtable.createTable({ table: 't', families: [{ name: 'f', gc: undefined }] });
  const rowKey = Buffer.from('k');
  await bigtable.mutateRow({
    table: 't',
    rowKey,
    rowKeyText: 'k',
    idempotent: true,
    mutations: [{ kind: 'setCell', family: 'f', qualifier: 'q', timestampMicros: 1_000, value: Buffer.from('v') }],
  });
  const keys: string[] = [];
  for await (const rows of bigtable.readRows({ table: 't' })) for (const row of rows) keys.push(row.key.toString());
  assert.deepEqual(keys, ['k']);
  const loaded = Object.keys(require.cache).filter((path) => /[\\/](@google-cloud|@grpc|google-gax)[\\/]/.test(path));
  assert.deepEqual(loaded, []);
});
