// A NestJS app in the starter's CommonJS layout (`module: commonjs`, `moduleResolution: node10`,
// `emitDecoratorMetadata`): the module, repository injection and the testing helpers.
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Column, Entity, Family, KeyPart, KeyParts, type Repository } from 'bigtable-mapper';
import { BigtableModule, InjectRepository } from 'bigtable-mapper/nest';
import { uniqueTableId } from 'bigtable-mapper/testing';

@Entity({ table: uniqueTableId('consumer-nest') })
@Family('d')
class Note {
  declare [KeyParts]?: 'id';
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'd', type: 'string' }) text?: string;
}

@Injectable()
class NotesService {
  constructor(@InjectRepository(Note) private readonly notes: Repository<Note>) {}

  async roundTrip(text: string): Promise<string | undefined> {
    await this.notes.save(Object.assign(new Note(), { id: 'n1', text }));
    return (await this.notes.findOne({ id: 'n1' }))?.text;
  }
}

@Module({
  imports: [
    BigtableModule.forRoot({
      emulatorHost: process.env['BIGTABLE_EMULATOR_HOST'] ?? '',
      instance: 'consumers',
      sync: true,
    }),
    BigtableModule.forFeature([Note]),
  ],
  providers: [NotesService],
})
class AppModule {}

async function main(): Promise<void> {
  const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
  try {
    const text = await app.get(NotesService).roundTrip('saved from NestJS');
    console.log(JSON.stringify({ text, nestModule: typeof BigtableModule.forRoot }));
  } finally {
    await app.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
