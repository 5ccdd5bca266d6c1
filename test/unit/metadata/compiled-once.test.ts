import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Column, Denormalized, Entity, Family, KeyPart } from '../../../src/decorators/index.js';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import protobuf from 'protobufjs';
import { toRawMutation } from '../../../src/driver/client-mutation.js';
import type { CellMutation } from '../../../src/model/mutation.js';
import { decodeRowKey } from '../../../src/key/physical-key.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { COMPILED } from '../../../src/metadata/entity-schema.js';
import { compileSave } from '../../../src/mutation/compile-save.js';
import { compileUpdate } from '../../../src/mutation/compile-update.js';
import { resolveRead } from '../../../src/read/read-options.js';
import { Address } from './embedded-entities.js';

@Entity({ table: 'devices' })
@Family('info', { gc: { maxVersions: 2 } })
class Device {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'info', type: 'string', qualifier: 'loc' }) location?: string | null;
}

@Entity({ table: 'events' })
@Family('e', { gc: { maxAge: '1d' } })
@Family('copy')
@KeyPart(0, { literal: 'row' })
class Event {
  @KeyPart(1, { type: 'uint', width: 6 }) seq!: number;
  @KeyPart(2, { type: 'timestamp', format: 'epoch-ms', descending: true }) at!: Date;
  @Column({ family: 'e', type: 'string' }) note?: string | null;
  @Column({ family: 'e', type: Address, layout: 'flatten', fields: ['street', 'city'] }) place?: Address | null;
  @Denormalized({ from: () => Device, key: { id: 'note' }, field: 'location' })
  @Column({ family: 'copy', type: 'string' })
  location?: string;
}

describe('what compileEntity derives once', () => {
  it('keeps it in a frozen, non-enumerable part of the schema, the key plan and each column', () => {
    const schema = compileEntity(Event);
    for (const owner of [schema, schema.key, ...schema.columns]) {
      const descriptor = Object.getOwnPropertyDescriptor(owner, COMPILED);
      expect(descriptor?.enumerable).toBe(false);
      expect(Object.isFrozen(descriptor?.value)).toBe(true);
      expect(Object.keys(owner)).not.toContain(String(COMPILED));
    }
    expect(inspect(schema, { depth: 0 })).not.toContain('compiled');
    expect(JSON.stringify(schema.columns[0])).not.toContain('qualifierBytes');
  });

  it('lays out a key of literals and digit components for decoding from bytes, and no other key', () => {
    const layout = compileEntity(Event).key[COMPILED]?.byteLayout;
    expect(layout?.separator).toBe('#'.charCodeAt(0));
    expect(layout?.steps.map((s) => s.literal?.toString() ?? s.property)).toEqual(['row', 'seq', 'at']);
    expect(compileEntity(Device).key[COMPILED]?.byteLayout).toBeUndefined();
    const at = new Date(1_700_000_000_000);
    const key = compileSave(compileEntity(Event), Object.assign(new Event(), { seq: 7, at, note: 'n' }), { now: 0 });
    expect(decodeRowKey(compileEntity(Event), key.rowKey)).toEqual({ seq: 7, at });
  });

  it('encodes every qualifier a column writes to bytes', () => {
    const schema = compileEntity(Event);
    const place = schema.columnsByProperty.place;
    expect(place?.[COMPILED].qualifiers).toEqual(['place.street', 'place.city']);
    expect(place?.[COMPILED].qualifierBytes).toEqual([Buffer.from('place.street'), Buffer.from('place.city')]);
    expect(compileEntity(Device).columns[0]?.[COMPILED].qualifierBytes).toEqual([Buffer.from('loc')]);
  });

  it('plans every column for hydrate with its family GC rule and whether it holds a copy', () => {
    const schema = compileEntity(Event);
    const plans = schema[COMPILED].columns;
    expect(plans.map((p) => p.column)).toEqual(schema.columns);
    expect(plans.map((p) => [p.column.property, p.gc, p.copy, p.inherited])).toEqual([
      ['note', { kind: 'maxAge', seconds: 86_400 }, false, false],
      ['place', { kind: 'maxAge', seconds: 86_400 }, false, false],
      ['location', undefined, true, false],
    ]);
  });

  it('hands the compiled plans to reads, a read of every column the very list', () => {
    const schema = compileEntity(Event);
    expect(resolveRead(schema).plan.columns).toBe(schema[COMPILED].columns);
    const selected = resolveRead(schema, { select: ['location', 'note'] }).plan.columns;
    expect(selected).toEqual([schema[COMPILED].columns[2], schema[COMPILED].columns[0]]);
    expect(selected[0]).toBe(schema[COMPILED].columns[2]);
  });

  it('stores the schema on the class: the same object every time, a subclass its own', () => {
    class Tablet extends Device {}
    Entity({ table: 'tablets' })(Tablet);
    const device = compileEntity(Device);
    const tablet = compileEntity(Tablet);
    expect(compileEntity(Device)).toBe(device);
    expect(compileEntity(Tablet)).toBe(tablet);
    expect(tablet).not.toBe(device);
    expect(tablet.table).toBe('tablets');
  });
});

/** `google.bigtable.v2.Mutation` loaded by protobufjs from the client's own .proto files, as the client's serializer does. */
function wireMutationType(): protobuf.Type {
  const require = createRequire(import.meta.url);
  const bigtable = dirname(require.resolve('@google-cloud/bigtable/package.json'));
  const gaxEntry = require.resolve('google-gax', { paths: [bigtable] });
  const gax = gaxEntry.slice(0, gaxEntry.lastIndexOf('google-gax') + 'google-gax'.length);
  const dirs = [join(bigtable, 'build/protos'), join(gax, 'build/protos')];
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) =>
    dirs.map((dir) => join(dir, target)).find((path) => existsSync(path)) ?? target;
  root.loadSync('google/bigtable/v2/data.proto');
  return root.lookupType('google.bigtable.v2.Mutation');
}

describe('cell mutations from a compiled schema', () => {
  it('carry the qualifier bytes of their column, which the raw mutation sends as they are', () => {
    const schema = compileEntity(Event);
    const m = compileSave(schema, Object.assign(new Event(), { seq: 1, at: new Date(0), note: 'n', location: null }), {
      now: 0,
    });
    const [note, ...deletes] = m.mutations;
    const noteBytes = schema.columnsByProperty.note?.[COMPILED].qualifierBytes[0];
    expect(note?.kind === 'setCell' ? note.qualifierBytes : undefined).toBe(noteBytes);
    expect(deletes.map((d) => (d.kind === 'deleteFromColumn' ? d.qualifierBytes : undefined))).toEqual([
      Buffer.from('location'),
    ]);
    const raw = toRawMutation(m.mutations[0] as CellMutation);
    expect(raw !== undefined && 'setCell' in raw ? raw.setCell.columnQualifier : undefined).toBe(noteBytes);
  });

  it('are sent as their own wire mutation: the same proto bytes as a copied one, and plain data to look at', () => {
    const schema = compileEntity(Event);
    const m = compileSave(schema, Object.assign(new Event(), { seq: 1, at: new Date(0), note: 'n' }), { now: 7 });
    const cell = m.mutations[0] as CellMutation;
    const sent = toRawMutation(cell);
    expect(sent).toBe(cell);
    const copied = toRawMutation({ ...cell } as CellMutation);
    expect(copied).not.toBe(cell);
    const Mutation = wireMutationType();
    const bytes = (raw: object) => Buffer.from(Mutation.encode(Mutation.fromObject(raw)).finish());
    expect(bytes(sent).equals(bytes(copied))).toBe(true);
    expect(bytes(sent).length).toBeGreaterThan(0);
    expect(Object.keys(cell)).toEqual(['kind', 'family', 'qualifier', 'timestampMicros', 'value']);
    expect(JSON.parse(JSON.stringify(cell))).not.toHaveProperty('setCell');
  });

  it('carry them for flattened fields too, and for updates', () => {
    const schema = compileEntity(Event);
    const place = Object.assign(new Address(), { street: 'Main 1', city: 'Oslo' });
    const m = compileUpdate(schema, { seq: 1, at: new Date(0) }, { place }, { now: 0 });
    const bytes = schema.columnsByProperty.place?.[COMPILED].qualifierBytes;
    expect(m.mutations.map((c) => (c.kind === 'setCell' ? c.qualifierBytes : undefined))).toEqual(bytes);
    expect((m.mutations[1] as { qualifierBytes?: Buffer }).qualifierBytes).toBe(bytes?.[1]);
  });

  it('print, compare and serialize as plain cell mutations', () => {
    const m = compileSave(compileEntity(Device), Object.assign(new Device(), { id: 'd', location: 'lab' }), { now: 1 });
    const cell = m.mutations[0];
    expect(Object.keys(cell ?? {})).toEqual(['kind', 'family', 'qualifier', 'timestampMicros', 'value']);
    expect(JSON.parse(JSON.stringify(cell))).toEqual({
      kind: 'setCell',
      family: 'info',
      qualifier: 'loc',
      timestampMicros: 1000,
      value: { type: 'Buffer', data: [...Buffer.from('lab')] },
    });
    expect(inspect(cell)).not.toContain('qualifierBytes');
    expect(Object.isFrozen(cell)).toBe(true);
  });
});
