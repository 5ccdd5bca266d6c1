import { Inject, Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import { BigtableMapper, Column, Entity, Family, KeyPart } from '../../../src/index.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import type { Constructor, Repository } from '../../../src/index.js';
import {
  BigtableModule,
  InjectMapper,
  InjectRepository,
  getMapperToken,
  getRepositoryToken,
} from '../../../src/nest/index.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';

const tables: string[] = [];

function noteEntity(prefix: string): Constructor<{ id: string; text?: string }> {
  const table = uniqueTableId(prefix);
  tables.push(table);
  @Entity({ table })
  @Family('d')
  class Note {
    @KeyPart(0, { type: 'string' }) id!: string;
    @Column({ family: 'd', type: 'string' }) text?: string;
  }
  return Note;
}

function tableOf(entity: Constructor): string {
  return compileEntity(entity).table;
}

const options = () => ({ emulatorHost: emulatorHost(), instance: testInstanceId });

afterAll(async () => {
  const driver = createGoogleCloudDriver(options());
  for (const table of tables) await driver.deleteTable({ table }).catch(() => undefined);
  await driver.close();
});

describe('BigtableModule', () => {
  it('syncs forRoot entities and forFeature entities, and injects repositories and the mapper', async () => {
    const Root = noteEntity('nest-root');
    const Feature = noteEntity('nest-feature');

    @Injectable()
    class NotesService {
      constructor(
        @InjectRepository(Feature) readonly notes: Repository<{ id: string; text?: string }>,
        @InjectMapper() readonly mapper: BigtableMapper,
      ) {}
    }

    @Module({ imports: [BigtableModule.forFeature([Feature])], providers: [NotesService], exports: [NotesService] })
    class NotesModule {}

    const moduleRef = await Test.createTestingModule({
      imports: [BigtableModule.forRoot({ ...options(), entities: [Root], sync: true }), NotesModule],
    }).compile();
    const app = await moduleRef.init();
    try {
      const mapper = app.get<BigtableMapper>(getMapperToken());
      const service = app.get(NotesService);
      expect(service.mapper).toBe(mapper);
      expect(service.notes).toBe(mapper.getRepository(Feature));
      expect(app.get(getRepositoryToken(Feature))).toBe(service.notes);
      expect(await mapper.driver.getFamilies({ table: tableOf(Root) })).toEqual([{ name: 'd', gc: undefined }]);
      expect(await mapper.driver.getFamilies({ table: tableOf(Feature) })).toEqual([{ name: 'd', gc: undefined }]);
      await service.notes.save(Object.assign(new Feature(), { id: 'n1', text: 'hello' }));
      expect(await service.notes.findOne({ id: 'n1' })).toMatchObject({ id: 'n1', text: 'hello' });
    } finally {
      await app.close();
    }
  });

  it('builds options with forRootAsync (imports + inject), leaves tables alone without sync, closes the mapper on close', async () => {
    const Lazy = noteEntity('nest-nosync');
    const HOST = Symbol('HOST');

    @Module({ providers: [{ provide: HOST, useValue: emulatorHost() }], exports: [HOST] })
    class HostModule {}

    @Injectable()
    class Probe {
      constructor(@Inject(getRepositoryToken(Lazy)) readonly repo: Repository<object>) {}
    }

    const moduleRef = await Test.createTestingModule({
      imports: [
        BigtableModule.forRootAsync({
          imports: [HostModule],
          inject: [HOST],
          useFactory: async (host: string) => ({ emulatorHost: host, instance: testInstanceId, entities: [Lazy] }),
        }),
        BigtableModule.forFeature([Lazy]),
      ],
      providers: [Probe],
    }).compile();
    const app = await moduleRef.init();
    const mapper = app.get<BigtableMapper>(BigtableMapper);
    expect(app.get(Probe).repo.schema.table).toBe(tableOf(Lazy));
    expect(await mapper.driver.getFamilies({ table: tableOf(Lazy) })).toBeUndefined();
    const close = vi.spyOn(mapper, 'close');
    await app.close();
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('passes tablePrefix to the mapper: sync creates the prefixed table and repositories use it', async () => {
    const Note = noteEntity('nest-prefix');
    const prefixed = `nestpfx_${tableOf(Note)}`;
    const moduleRef = await Test.createTestingModule({
      imports: [BigtableModule.forRoot({ ...options(), entities: [Note], sync: true, tablePrefix: 'nestpfx_' })],
    }).compile();
    const app = await moduleRef.init();
    const raw = createGoogleCloudDriver(options());
    try {
      expect(app.get<BigtableMapper>(getMapperToken()).tablePrefix).toBe('nestpfx_');
      const notes = app.get<BigtableMapper>(getMapperToken()).getRepository(Note);
      await notes.save(Object.assign(new Note(), { id: 'n1', text: 'hi' }));
      expect((await notes.findOne({ id: 'n1' }))?.text).toBe('hi');
      expect(await raw.getFamilies({ table: tableOf(Note) })).toBeUndefined();
      expect(await raw.getFamilies({ table: prefixed })).toEqual([{ name: 'd', gc: undefined }]);
    } finally {
      await app.close();
      await raw.deleteTable({ table: prefixed }).catch(() => undefined);
      await raw.close();
    }
  });

  it('gives same-named entity classes distinct repository tokens, named after the entity and its table, whatever the order they are asked for', () => {
    const a = noteEntity('nest-token');
    const b = noteEntity('nest-token');
    expect(a.name).toBe(b.name);
    expect(String(getRepositoryToken(b))).toBe(`Symbol(NoteRepository(${tableOf(b)}))`);
    expect(getRepositoryToken(a)).not.toBe(getRepositoryToken(b));
    expect(getRepositoryToken(a)).toBe(getRepositoryToken(a));
    expect(String(getRepositoryToken(a))).toBe(`Symbol(NoteRepository(${tableOf(a)}))`);
    expect(getMapperToken()).toBe(BigtableMapper);
  });

  it('closes the mapper and fails start-up when sync fails', async () => {
    const Broken = noteEntity('nest-broken');
    const close = vi.spyOn(BigtableMapper.prototype, 'close');
    const sync = vi.spyOn(BigtableMapper.prototype, 'sync').mockRejectedValueOnce(new Error('sync failed'));
    try {
      const moduleRef = await Test.createTestingModule({
        imports: [BigtableModule.forRoot({ ...options(), entities: [Broken], sync: true })],
      }).compile();
      await expect(moduleRef.init()).rejects.toThrow('sync failed');
      expect(close).toHaveBeenCalledTimes(1);
    } finally {
      close.mockRestore();
      sync.mockRestore();
    }
  });
});
