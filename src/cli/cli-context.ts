import { compileEntity } from '../metadata/compile-entity.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import type { Constructor } from '../model/declarations.js';
import { BigtableMapper, type BigtableMapperOptions } from '../repository/mapper.js';
import { checkTablePrefix } from '../repository/table-prefix.js';
import { CliUsageError } from './cli-errors.js';
import { Reporter, type CliIo } from './cli-output.js';
import { loadEntities, pickEntity } from './load-entities.js';

/** Wraps a command's action: builds its context, maps errors to exit codes, closes connections. */
export type Run = <A extends unknown[]>(
  action: (ctx: CliContext, ...args: A) => Promise<number>,
) => (...args: A) => Promise<void>;

/** The global flags every command accepts. */
export interface GlobalFlags {
  entities?: string[];
  instance?: string;
  project?: string;
  emulatorHost?: string;
  timeoutMs?: number;
  tablePrefix?: string;
  appProfile?: string;
  json?: boolean;
}

/**
 * What a command works with: the output, the entities (loaded once, on first
 * use), a mapper connected as the flags and environment say, and the signal
 * that Ctrl-C aborts.
 */
export class CliContext {
  readonly out: Reporter;
  #entities: Promise<Constructor[]> | undefined;
  readonly #mappers: BigtableMapper[] = [];

  constructor(
    readonly io: CliIo,
    readonly flags: GlobalFlags,
    readonly signal: AbortSignal,
  ) {
    this.out = new Reporter(io, flags.json === true);
  }

  entities(): Promise<Constructor[]> {
    const fromEnv = this.io.env.BIGTABLE_MAPPER_ENTITIES?.split(',').filter((m) => m !== '') ?? [];
    this.#entities ??= loadEntities(this.flags.entities ?? fromEnv, this.io.cwd);
    return this.#entities;
  }

  /** An entity by class name, by its table id, or by the table id with the table prefix (as `sync` prints it). */
  async entity(name: string): Promise<{ entity: Constructor; schema: EntitySchema }> {
    const entity = pickEntity(await this.entities(), name, this.tablePrefix);
    return { entity, schema: compileEntity(entity) };
  }

  /** `--table-prefix`, else `BIGTABLE_TABLE_PREFIX`, checked as the mapper checks it; `''` when there is none. */
  get tablePrefix(): string {
    return checkTablePrefix(this.flags.tablePrefix ?? this.io.env.BIGTABLE_TABLE_PREFIX ?? '');
  }

  /** The id of the table an entity's rows are in: its own table id, with the table prefix. */
  tableOf(schema: Pick<EntitySchema, 'table'>): string {
    return this.tablePrefix + schema.table;
  }

  /** `--app-profile`, else `BIGTABLE_APP_PROFILE`; `undefined` for the instance's default profile. */
  get appProfileId(): string | undefined {
    const id = this.flags.appProfile ?? this.io.env.BIGTABLE_APP_PROFILE;
    return id === '' ? undefined : id;
  }

  /** Per-call options: the abort signal, `--timeout-ms` and `--app-profile`. */
  get call(): { signal: AbortSignal; timeoutMs?: number; appProfileId?: string } {
    const appProfileId = this.appProfileId;
    return {
      signal: this.signal,
      ...(this.flags.timeoutMs === undefined ? {} : { timeoutMs: this.flags.timeoutMs }),
      ...(appProfileId === undefined ? {} : { appProfileId }),
    };
  }

  /** A mapper for `entities`, connected like the application: flags first, then the environment. */
  connect(entities: Constructor[]): BigtableMapper {
    const mapper = new BigtableMapper({ ...this.#connection(), entities });
    this.#mappers.push(mapper);
    return mapper;
  }

  async close(): Promise<void> {
    await Promise.all(this.#mappers.map((m) => m.close()));
  }

  #connection(): BigtableMapperOptions {
    const env = this.io.env;
    const instance = this.flags.instance ?? env.BIGTABLE_INSTANCE;
    if (instance === undefined || instance === '') {
      throw new CliUsageError('no Bigtable instance given', 'pass --instance <id> or set BIGTABLE_INSTANCE');
    }
    const projectId = this.flags.project ?? env.BIGTABLE_PROJECT ?? env.GOOGLE_CLOUD_PROJECT;
    const emulatorHost = this.flags.emulatorHost ?? env.BIGTABLE_EMULATOR_HOST;
    const tablePrefix = this.tablePrefix;
    const appProfileId = this.appProfileId;
    const prefix = {
      ...(tablePrefix === '' ? {} : { tablePrefix }),
      ...(appProfileId === undefined ? {} : { appProfileId }),
    };
    if (emulatorHost !== undefined && emulatorHost !== '') {
      return { emulatorHost, instance, ...(projectId === undefined ? {} : { projectId }), ...prefix };
    }
    return { clientOptions: projectId === undefined ? {} : { projectId }, instance, ...prefix };
  }
}
