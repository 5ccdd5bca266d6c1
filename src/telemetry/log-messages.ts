import { BigtableMapperError } from '../errors/bigtable-mapper-error.js';
import { PartialWriteError } from '../errors/operation-errors.js';
import type { LintFinding } from '../lint/lint-finding.js';
import type { MapperLogger, OperationTelemetry } from '../model/telemetry.js';
import { statusName } from './names.js';

/**
 * Calls `level` of `logger` with one message, when it has that method; a
 * logger that throws is ignored (its failure is its own: the call goes on).
 * @internal
 */
export function writeLog(logger: MapperLogger, level: 'debug' | 'warn', message: string): void {
  try {
    const write = logger[level];
    if (typeof write === 'function') write.call(logger, message);
  } catch {
    // The call that logged goes on.
  }
}

/**
 * Wraps a mapper's {@link OperationTelemetry} so that a repository call that
 * ends with a `PartialWriteError` (`saveMany`, `deleteMany`, a propagation)
 * is logged once with `warn`: the entity, its table (`tableOf`, the real id),
 * the call, and the counts. Never a row key or value.
 * @internal
 */
export function logPartialWrites(
  inner: OperationTelemetry,
  logger: MapperLogger,
  tableOf: (entity: string) => string | undefined,
): OperationTelemetry {
  // A propagation's error ends its inner call and the outer one: one message.
  const logged = new WeakSet<object>();
  return {
    start(name, appProfileId) {
      const started = inner.start(name, appProfileId);
      return {
        call: started.call,
        ...(started.within === undefined ? {} : { within: started.within }),
        end: (error?: unknown) => {
          started.end(error);
          if (!(error instanceof PartialWriteError) || logged.has(error)) return;
          logged.add(error);
          const entity = String(error.details['entity']);
          writeLog(logger, 'warn', partialWriteMessage(name, entity, tableOf(entity), error));
        },
      };
    },
  };
}

/**
 * The `warn` of a partial write: `bigtable-mapper: partial write of Reading to
 * "readings" in Reading.saveMany: 2 of 10 writes failed (1 PERMISSION_DENIED,
 * 1 invalid input), 8 persisted`, then how it stopped when it did.
 */
function partialWriteMessage(
  operation: string,
  entity: string,
  table: string | undefined,
  error: PartialWriteError,
): string {
  const failed = error.failures.length;
  const total = failed + error.succeeded + error.notAttempted.length;
  const byCode = new Map<string, number>();
  for (const failure of error.failures) {
    const reason = failure.grpcCode === undefined ? 'invalid input' : statusName(failure.grpcCode);
    byCode.set(reason, (byCode.get(reason) ?? 0) + 1);
  }
  const reasons = [...byCode].map(([reason, count]) => `${count} ${reason}`).join(', ');
  const to = table === undefined ? '' : ` to ${JSON.stringify(table)}`;
  let message = `bigtable-mapper: partial write of ${entity}${to} in ${operation}: ${failed} of ${total} writes failed${reasons === '' ? '' : ` (${reasons})`}, ${error.succeeded} persisted`;
  if (error.notAttempted.length > 0 || error.unreadFrom !== undefined || error.cause !== undefined) {
    message += `; stopped${error.cause === undefined ? '' : ` by ${codeOf(error.cause)}`}: ${error.notAttempted.length} not attempted`;
    if (error.unreadFrom !== undefined) message += `, input unread from #${error.unreadFrom}`;
  }
  return message;
}

/**
 * The one `warn` of an entity's lint findings at registration:
 * `bigtable-mapper: lint: Reading (table "readings") has 1 error and 1
 * warning: [error leading-timestamp] … Fix: …`. Findings describe the
 * schema only: no key or value is in them.
 * @internal
 */
export function lintMessage(entity: string, table: string, findings: readonly LintFinding[]): string {
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.length - errors;
  const counts = [plural(errors, 'error'), plural(warnings, 'warning')].filter((c) => c !== '').join(' and ');
  const items = findings.map((f) => `[${f.severity} ${f.code}] ${f.message}. Fix: ${f.fix}`).join(' ');
  return `bigtable-mapper: lint: ${entity} (table ${JSON.stringify(table)}) has ${counts}: ${items}`;
}

function plural(count: number, noun: string): string {
  if (count === 0) return '';
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** What stopped a bulk write, by its code or class name, never its message (which may name a key). */
function codeOf(cause: unknown): string {
  if (cause instanceof BigtableMapperError) return cause.code;
  if (cause instanceof Error) return cause.name;
  return typeof cause;
}
