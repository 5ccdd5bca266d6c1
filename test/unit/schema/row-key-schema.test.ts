import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import { MetadataError } from '../../../src/errors/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { desiredTables } from '../../../src/schema/desired-schema.js';
import { syncSchema } from '../../../src/schema/schema-sync.js';
import { createTableRequest } from '../../../src/driver/create-table-request.js';
import { FakeDriver } from '../../support/fake-driver.js';

@Entity({ table: 'readings', keyFormat: 'ordered-code' })
@KeyPart(0, { literal: 'reading' })
@Salt({ buckets: 4 })
@Family('m', { gc: { maxVersions: 2 } })
class Reading {
  @KeyPart(1, { type: 'string' }) sensorId!: string;
  @KeyPart(2, { type: 'timestamp' }) at!: Date;
  @KeyPart(3, { type: 'bigint' }) seq!: bigint;
  @Column({ family: 'm', type: 'float' })
  value!: number;
}

@Entity({ table: 'feed', keyFormat: 'ordered-code' })
class FeedItem {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'timestamp', descending: true }) at!: Date;
}

@Entity({ table: 'feed' })
class TextFeedItem {
  @KeyPart(0, { type: 'string' }) userId!: string;
}

@Entity({ table: 'clash', keyFormat: 'ordered-code' })
@Family('m')
class Clash {
  @KeyPart(0, { type: 'string' }) m!: string;
  @Column({ family: 'm', type: 'string' })
  note!: string;
}

@Entity({ table: 'blobs', keyFormat: 'ordered-code' })
class Blob {
  @KeyPart(0, { type: 'bytes' }) digest!: Buffer;
  @KeyPart(1, { type: 'float' }) score!: number;
  @KeyPart(2, { type: 'boolean' }) active!: boolean;
}

const READING_SCHEMA = {
  fields: [
    { name: 'salt', type: 'int64' },
    { name: 'literal0', type: 'string' },
    { name: 'sensorId', type: 'string' },
    { name: 'at', type: 'timestamp' },
    { name: 'seq', type: 'int64' },
  ],
};

describe("row key schema of keyFormat 'ordered-code' tables", () => {
  it('names the salt, the literals and every key property, in key order', () => {
    const [table] = desiredTables([compileEntity(Reading)]);
    expect(table?.rowKeySchema).toEqual(READING_SCHEMA);
  });

  it('is left out for text keys and for keys with a descending part, which the struct type cannot mark', () => {
    expect(desiredTables([compileEntity(TextFeedItem)])[0]).not.toHaveProperty('rowKeySchema');
    expect(desiredTables([compileEntity(FeedItem)])[0]).not.toHaveProperty('rowKeySchema');
  });

  it('rejects entities of one table whose keys differ, and a field named like a family', () => {
    expect(() => desiredTables([compileEntity(FeedItem), compileEntity(TextFeedItem)])).toThrow(
      /TextFeedItem: shares table "feed" with FeedItem, but their row keys differ/,
    );
    expect(() => desiredTables([compileEntity(Clash)])).toThrow(MetadataError);
  });

  it('is sent with createTable by sync, and named in the change', async () => {
    const driver = new FakeDriver();
    const result = await syncSchema(driver, [compileEntity(Reading)]);
    expect(result.changes[0]?.description).toBe(
      'create table "readings" with families m (gc max 2 versions) and row key schema (salt INT64, literal0 STRING, sensorId STRING, at TIMESTAMP, seq INT64)',
    );
    expect(driver.calls.find((c) => c.method === 'createTable')).toEqual({
      method: 'createTable',
      table: 'readings',
      families: [{ name: 'm', gc: { kind: 'maxVersions', count: 2 } }],
      rowKeySchema: READING_SCHEMA,
    });
  });

  it('becomes a CreateTableRequest whose row key schema survives the client protos', () => {
    const request = createTableRequest(
      'projects/p/instances/i',
      'readings',
      [
        {
          name: 'm',
          gc: {
            kind: 'union',
            rules: [
              { kind: 'maxVersions', count: 2 },
              { kind: 'maxAge', seconds: 1.5 },
            ],
          },
        },
      ],
      {
        fields: READING_SCHEMA.fields.map((f) => ({ name: f.name, type: f.type as 'int64' | 'string' | 'timestamp' })),
      },
    );
    const type = createTableRequestType();
    const wire = type.toObject(type.decode(type.encode(type.fromObject(request)).finish()), { longs: Number });
    expect(wire).toEqual({
      parent: 'projects/p/instances/i',
      tableId: 'readings',
      table: {
        granularity: 0,
        columnFamilies: {
          m: { gcRule: { union: { rules: [{ maxNumVersions: 2 }, { maxAge: { seconds: 1, nanos: 500_000_000 } }] } } },
        },
        rowKeySchema: {
          fields: [
            { fieldName: 'salt', type: { int64Type: { encoding: { orderedCodeBytes: {} } } } },
            { fieldName: 'literal0', type: { stringType: { encoding: { utf8Bytes: {} } } } },
            { fieldName: 'sensorId', type: { stringType: { encoding: { utf8Bytes: {} } } } },
            {
              fieldName: 'at',
              type: { timestampType: { encoding: { unixMicrosInt64: { orderedCodeBytes: {} } } } },
            },
            { fieldName: 'seq', type: { int64Type: { encoding: { orderedCodeBytes: {} } } } },
          ],
          encoding: { orderedCodeBytes: {} },
        },
      },
    });
  });

  it('declares bytes and float parts as BYTES (Raw) and boolean parts as INT64, through the client protos', () => {
    const [table] = desiredTables([compileEntity(Blob)]);
    expect(table?.rowKeySchema).toEqual({
      fields: [
        { name: 'digest', type: 'bytes' },
        { name: 'score', type: 'bytes' },
        { name: 'active', type: 'int64' },
      ],
    });
    const schema = table?.rowKeySchema;
    if (schema === undefined) throw new Error('no row key schema');
    const request = createTableRequest('projects/p/instances/i', 'blobs', [], schema);
    const type = createTableRequestType();
    const wire = type.toObject(type.decode(type.encode(type.fromObject(request)).finish()), { longs: Number }) as {
      table: { rowKeySchema: unknown };
    };
    expect(wire.table.rowKeySchema).toEqual({
      fields: [
        { fieldName: 'digest', type: { bytesType: { encoding: { raw: {} } } } },
        { fieldName: 'score', type: { bytesType: { encoding: { raw: {} } } } },
        { fieldName: 'active', type: { int64Type: { encoding: { orderedCodeBytes: {} } } } },
      ],
      encoding: { orderedCodeBytes: {} },
    });
  });
});

/** `CreateTableRequest` loaded by protobufjs from the client's own .proto files, as the client's serializer does. */
function createTableRequestType(): protobuf.Type {
  const require = createRequire(import.meta.url);
  const bigtable = dirname(require.resolve('@google-cloud/bigtable/package.json'));
  const gaxEntry = require.resolve('google-gax', { paths: [bigtable] });
  const gax = gaxEntry.slice(0, gaxEntry.lastIndexOf('google-gax') + 'google-gax'.length);
  const dirs = [join(bigtable, 'build/protos'), join(gax, 'build/protos')];
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) =>
    dirs.map((dir) => join(dir, target)).find((path) => existsSync(path)) ?? target;
  root.loadSync('google/bigtable/admin/v2/bigtable_table_admin.proto');
  return root.lookupType('google.bigtable.admin.v2.CreateTableRequest');
}
