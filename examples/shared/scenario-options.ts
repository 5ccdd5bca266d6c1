/**
 * Where a scenario runs: a loopback emulator, or a real Bigtable instance
 * when the user asks for one. Tables get unique names unless given.
 */
import { BigtableMapper, type Constructor } from '../../src/index.js';

/**
 * A loopback emulator (`127.0.0.1:PORT`), or a real instance of a project
 * (credentials from the environment, as the Google Cloud client finds them).
 *
 * @example
 * ```ts
 * const connection: ScenarioConnection = { emulatorHost: '127.0.0.1:8086', instance: 'examples' };
 * ```
 */
export type ScenarioConnection =
  | { readonly emulatorHost: string; readonly instance: string }
  | { readonly projectId: string; readonly instance: string };

/**
 * Options every scenario's `run()` accepts.
 *
 * @example
 * ```ts
 * await run({ emulatorHost: emulator.host, instance: 'examples', table: 'latest-events' });
 * ```
 */
export type ScenarioOptions = ScenarioConnection & {
  /** Main table id. Default: a fresh unique id. */
  readonly table?: string;
  /** Keep the tables after the run. Default: delete them. */
  readonly keep?: boolean;
};

/** A mapper for the connection, managing `entities`. @example `const mapper = openMapper(options, [Reading]);` */
export function openMapper(connection: ScenarioConnection, entities: Constructor[]): BigtableMapper {
  if ('emulatorHost' in connection) {
    return new BigtableMapper({ emulatorHost: connection.emulatorHost, instance: connection.instance, entities });
  }
  return new BigtableMapper({
    clientOptions: { projectId: connection.projectId },
    instance: connection.instance,
    entities,
  });
}

/** Where the connection points, for printing. @example `describeConnection(options) // 'emulator 127.0.0.1:8086'` */
export function describeConnection(connection: ScenarioConnection): string {
  return 'emulatorHost' in connection
    ? `emulator ${connection.emulatorHost}, instance "${connection.instance}"`
    : `project "${connection.projectId}", instance "${connection.instance}"`;
}
