import { DriverError, ValidationError } from '../errors/errors.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { previousLayout } from '../key/previous-layout.js';
import type { BigtableDriver, RowMutationFailure } from '../model/driver.js';
import type { CompiledMutation, PreparedMutation } from '../model/mutation.js';

/** A row as the writer sends it: compiled, or prepared by the driver. */
type RowWrite = CompiledMutation | PreparedMutation;
import { compileSave } from '../mutation/compile-save.js';
import { compileAggregateAdd } from './add.js';
import {
  checkOperationOptions,
  OPERATION_OPTION_NAMES,
  runOperation,
  splitOperationOptions,
  type OperationContext,
  type OperationOptions,
} from '../operation/operation.js';
import { checkOptionNames } from '../util/option-names.js';
import {
  BULK_WRITE_OPTION_NAMES,
  BulkWriter,
  checkBulkWriteOptions,
  WRITER_CONCURRENCY,
  type BulkWriteOptions,
} from '../write/bulk-writer.js';

const NAME = 'BigtableMapper.bulkWriter';

/**
 * The writer behind `mapper.bulkWriter()`: one `BulkWriter` for entities of
 * every registered class (`schemaOf` finds an entity's schema by its class).
 * A batch holds rows of any tables; it is sent as one MutateRows call per
 * table, all under the batch's deadline. A table whose call fails as a whole
 * fails only its rows (with that error as `cause`); when every table's call
 * fails, the batch fails as a whole (so a dead backend stops the writer).
 * @internal
 */
export function openMapperWriter(
  driver: BigtableDriver,
  context: OperationContext,
  schemaOf: (entity: object) => EntitySchema | undefined,
  options: (BulkWriteOptions & OperationOptions) | undefined,
): BulkWriter<object> {
  checkOptionNames(NAME, options, [...BULK_WRITE_OPTION_NAMES, ...OPERATION_OPTION_NAMES]);
  const [timing, bulk] = splitOperationOptions(options);
  const checkedTiming = checkOperationOptions(NAME, timing);
  const checked = checkBulkWriteOptions('BigtableMapper', bulk, { concurrency: WRITER_CONCURRENCY });
  /** The schema of an entity (or, for `addTo`, a key) given as an instance of a registered class the writer can write. */
  const writableSchema = (entity: object): EntitySchema<object> => {
    const schema = entity === null || typeof entity !== 'object' ? undefined : schemaOf(entity);
    if (schema === undefined)
      throw new ValidationError(
        `${NAME}: ${describe(entity)} is not an instance of a registered entity class. Fix: pass an instance (repo.create() or new Entity()), and register its class (the entities option or mapper.register())`,
        { option: 'entity' },
      );
    if (schema.denormalized.length > 0 || previousLayout(schema) !== undefined)
      throw new ValidationError(
        `${NAME}: ${schema.name} ${schema.denormalized.length > 0 ? 'has @Denormalized copies' : 'is being re-salted'}, which a writer cannot fill or move. Fix: write it with saveMany()`,
        { entity: schema.name },
      );
    return schema as EntitySchema<object>;
  };
  const textValues = driver.prepareMutation !== undefined;
  const compile = (entity: object): CompiledMutation =>
    compileSave(writableSchema(entity), entity, { now: context.clock(), frozen: false, textValues });
  const compileAdd = (key: object, inputs: Readonly<Record<string, unknown>>, changes: object | undefined) =>
    compileAggregateAdd(writableSchema(key), key, inputs, changes, context.clock());
  const callOne = (table: string, mutations: RowWrite[]): Promise<RowMutationFailure[]> =>
    runOperation(
      context,
      'bulkWrite',
      `${NAME} batch`,
      checkedTiming,
      (call) => driver.mutateRows({ table, mutations }, call),
      { settleFirst: true },
    );
  const send = async (mutations: RowWrite[]): Promise<RowMutationFailure[]> => {
    const groups = new Map<string, { positions: number[]; mutations: RowWrite[] }>();
    for (const [position, mutation] of mutations.entries()) {
      let group = groups.get(mutation.table);
      if (group === undefined) groups.set(mutation.table, (group = { positions: [], mutations: [] }));
      group.positions.push(position);
      group.mutations.push(mutation);
    }
    if (groups.size === 1) return callOne(mutations[0]?.table ?? '', mutations);
    const entries = [...groups.entries()];
    const settled = await Promise.allSettled(entries.map(([table, group]) => callOne(table, group.mutations)));
    const rejected = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (rejected.length === settled.length) throw rejected[0]?.reason;
    const failures: RowMutationFailure[] = [];
    for (const [i, outcome] of settled.entries()) {
      const { positions } = (entries[i] as [string, { positions: number[] }])[1];
      if (outcome.status === 'fulfilled') {
        for (const f of outcome.value) failures.push({ ...f, index: positions[f.index] as number });
        continue;
      }
      const error: unknown = outcome.reason;
      const grpcCode = error instanceof DriverError ? error.grpcCode : undefined;
      const message = error instanceof Error ? error.message : String(error);
      for (const index of positions) failures.push({ index, grpcCode, message, cause: error });
    }
    return failures.sort((a, b) => a.index - b.index);
  };
  return new BulkWriter<object>({
    entityName: 'BigtableMapper',
    table: 'several tables',
    compile,
    compileAdd,
    options: checked,
    signals: [checkedTiming.signal, context.closing],
    prepare: driver.prepareMutation?.bind(driver),
    send,
  });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  const ctor = (value as { constructor?: { name?: unknown } }).constructor;
  const name = ctor === Object ? undefined : ctor?.name;
  return typeof name === 'string' && name !== '' ? `an instance of ${name}` : 'a plain object';
}
