// An ES module app (`module: nodenext`): every entry point through `import`.
import { BigtableMapper, Column, Entity, Family, KeyPart, KeyParts } from 'bigtable-mapper';
import { BigtableModule } from 'bigtable-mapper/nest';
import { uniqueTableId } from 'bigtable-mapper/testing';

@Entity({ table: uniqueTableId('consumer-esm') })
@Family('d')
class Note {
  declare [KeyParts]?: 'id';
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'd', type: 'string' }) text?: string;
}

const mapper = new BigtableMapper({
  emulatorHost: process.env['BIGTABLE_EMULATOR_HOST'] ?? '',
  instance: 'consumers',
  entities: [Note],
});
try {
  await mapper.sync();
  const notes = mapper.getRepository(Note);
  await notes.save(Object.assign(new Note(), { id: 'n1', text: 'saved from ESM' }));
  const found = await notes.findOne({ id: 'n1' });
  console.log(JSON.stringify({ text: found?.text, nestModule: typeof BigtableModule.forRoot }));
} finally {
  await mapper.close();
}
