// A CommonJS app (`module: node16` in a package without `"type": "module"`): every entry point through `require`.
import { BigtableMapper, Column, Entity, Family, KeyPart, KeyParts } from 'bigtable-mapper';
import { createGoogleCloudDriver } from 'bigtable-mapper/driver';
import { toHttpError } from 'bigtable-mapper/express';
import { fromJson, toJson, toJsonSchema } from 'bigtable-mapper/json';
import { BigtableModule } from 'bigtable-mapper/nest';
import { uniqueTableId } from 'bigtable-mapper/testing';
import { lintEntity } from 'bigtable-mapper/tools';

@Entity({ table: uniqueTableId('consumer-cjs') })
@Family('d')
class Note {
  declare [KeyParts]?: 'id';
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'd', type: 'string' }) text?: string;
}

async function main(): Promise<void> {
  const driver = createGoogleCloudDriver({
    emulatorHost: process.env['BIGTABLE_EMULATOR_HOST'] ?? '',
    instance: 'consumers',
  });
  const mapper = new BigtableMapper({ driver, entities: [Note] });
  try {
    await mapper.sync();
    const notes = mapper.getRepository(Note);
    await notes.save(notes.create(fromJson(Note, { id: 'n1', text: 'saved from CommonJS' }, { for: 'create' })));
    const found = await notes.findOne({ id: 'n1' });
    const missing = await notes.findOneOrFail({ id: 'none' }).catch((err: unknown) => toHttpError(err).status);
    console.log(
      JSON.stringify({
        text: found?.text,
        nestModule: typeof BigtableModule.forRoot,
        lintRules: lintEntity(Note).map((f) => f.code),
        missing,
        createRequired: toJsonSchema(Note, { for: 'create' })['required'],
        read: found === undefined ? undefined : toJson(Note, found),
      }),
    );
  } finally {
    await mapper.close();
    await driver.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
