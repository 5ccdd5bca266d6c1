import { describe, expect, it } from 'vitest';
import type { BigtableDriver, CallOptions, MutateRowsRequest, ReadRowsRequest } from '../../../src/model/driver.js';
import { ForwardingDriver, type DriverCall, type DriverRequests } from '../../../src/model/forwarding-driver.js';
import type { CompiledMutation, PreparedMutation } from '../../../src/model/mutation.js';
import { batchOf } from '../../../src/stream/batch-stream.js';

const call: CallOptions = { attemptTimeoutMs: 1_234 };
const mutation = (table: string, key: string): CompiledMutation => ({
  table,
  rowKey: Buffer.from(key),
  rowKeyText: key,
  mutations: [],
  idempotent: true,
});
const read: ReadRowsRequest = { table: 't', keys: [Buffer.from('k')] };

/** One request per method, each naming table `t`. */
const requests: { readonly [M in keyof DriverRequests]: DriverRequests[M] } = {
  listTables: {},
  getFamilies: { table: 't' },
  createTable: { table: 't', families: [{ name: 'f', gc: undefined }] },
  createFamily: { table: 't', family: { name: 'f', gc: undefined } },
  setFamilyGc: { table: 't', family: 'f', gc: { kind: 'maxVersions', count: 1 } },
  deleteFamily: { table: 't', family: 'f' },
  deleteTable: { table: 't' },
  mutateRow: mutation('t', 'a'),
  mutateRows: { table: 't', mutations: [mutation('t', 'a'), mutation('t', 'b')] },
  readRows: read,
  checkAndMutate: { table: 't', rowKey: Buffer.from('a'), predicate: undefined, onMatch: [], onNoMatch: [] },
  increment: { table: 't', rowKey: Buffer.from('a'), rules: [] },
  sampleRowKeys: { table: 't' },
};
const methods = Object.keys(requests) as (keyof DriverRequests)[];

/** A driver that records each call's method, request and options, and answers each with its own result. */
function stubDriver() {
  const calls: { method: string; request: unknown; options: unknown }[] = [];
  const results = new Map<string, unknown>();
  const answer =
    (method: string) =>
    (request?: unknown, options?: unknown): never => {
      calls.push({ method, request, options });
      const result = method === 'readRows' ? batchOf([]) : Promise.resolve(Symbol(method));
      results.set(method, result);
      return result as never;
    };
  const driver = Object.fromEntries([...methods, 'close'].map((m) => [m, answer(m)])) as unknown as BigtableDriver;
  return { driver, calls, results };
}

/** Calls `method` of `driver` with its request from {@link requests}. */
function invoke(driver: BigtableDriver, method: keyof DriverRequests): unknown {
  return (driver[method] as (request: unknown, options: CallOptions) => unknown).call(driver, requests[method], call);
}

class PlainDriver extends ForwardingDriver {}

class RenamingDriver extends ForwardingDriver {
  readonly seen: DriverCall[] = [];
  protected override table(table: string): string {
    return `x_${table}`;
  }
  protected override beforeCall(call: DriverCall): void {
    this.seen.push(call);
  }
}

describe('ForwardingDriver', () => {
  it('passes every call on with the same request and options, and returns what the inner driver returns', async () => {
    const { driver, calls, results } = stubDriver();
    const forwarding = new PlainDriver(driver);
    for (const method of methods) {
      const result = invoke(forwarding, method);
      expect(result, method).toBe(results.get(method));
      expect(calls.at(-1), method).toEqual({ method, request: requests[method], options: call });
      expect(calls.at(-1)?.request, method).toBe(requests[method]);
    }
    await forwarding.close();
    expect(calls.at(-1)?.method).toBe('close');
    expect(calls).toHaveLength(methods.length + 1);
  });

  it("maps the table of every request and of every mutation through table(), leaving the caller's requests as they were", () => {
    const { driver, calls } = stubDriver();
    const renaming = new RenamingDriver(driver);
    for (const method of methods) invoke(renaming, method);
    const passed = Object.fromEntries(calls.map((c) => [c.method, c.request as { table?: string }]));
    for (const method of methods.filter((m) => m !== 'listTables'))
      expect(passed[method], method).toEqual({ ...requests[method], ...tableOf(method) });
    expect(passed['listTables']).toBe(requests.listTables);
    expect(requests.mutateRows.mutations.map((m) => m.table)).toEqual(['t', 't']);
    expect(requests.getFamilies).toEqual({ table: 't' });
  });

  it('calls beforeCall once per call, before the inner driver, with the request the inner driver gets', async () => {
    const { driver, calls } = stubDriver();
    const renaming = new RenamingDriver(driver);
    for (const method of methods) {
      invoke(renaming, method);
      expect(renaming.seen.at(-1)?.method).toBe(method);
      expect(renaming.seen.at(-1)?.request).toBe(calls.at(-1)?.request);
      expect(renaming.seen).toHaveLength(calls.length);
    }
    await renaming.close();
    expect(renaming.seen).toHaveLength(methods.length);
  });

  describe('prepareMutation', () => {
    /** An inner driver that prepares: its prepared form keeps the mutation it got. */
    function preparingDriver() {
      const stub = stubDriver();
      const prepared: CompiledMutation[] = [];
      const driver: BigtableDriver = {
        ...stub.driver,
        prepareMutation: (m: CompiledMutation): PreparedMutation & { readonly of: CompiledMutation } => {
          prepared.push(m);
          return {
            kind: 'prepared',
            table: m.table,
            rowKey: m.rowKey,
            rowKeyText: m.rowKeyText,
            idempotent: m.idempotent,
            cellCount: 0,
            of: m,
          };
        },
      };
      return { ...stub, driver, prepared };
    }

    it('has none when the inner driver has none', () => {
      const { driver } = stubDriver();
      expect(new RenamingDriver(driver).prepareMutation).toBeUndefined();
      expect(new RenamingDriver(preparingDriver().driver).prepareMutation).toBeTypeOf('function');
    });

    it("prepares with the table mapped, hands it back under the caller's table, and sends the inner driver its own form", () => {
      const { driver, calls, prepared } = preparingDriver();
      const renaming = new RenamingDriver(driver);
      const compiled = mutation('t', 'a');
      const own = renaming.prepareMutation?.(compiled) as PreparedMutation;
      expect(prepared).toEqual([{ ...compiled, table: 'x_t' }]);
      expect(own).toMatchObject({ kind: 'prepared', table: 't', rowKeyText: 'a', idempotent: true, cellCount: 0 });
      void renaming.mutateRows({ table: 't', mutations: [own, mutation('t', 'b')] });
      const sent = calls.at(-1)?.request as MutateRowsRequest;
      expect(sent.table).toBe('x_t');
      expect((sent.mutations[0] as { of?: CompiledMutation }).of).toBe(prepared[0]);
      expect(sent.mutations[1]).toEqual({ ...mutation('t', 'b'), table: 'x_t' });
      // Without a table to map, the inner driver's own form is handed back as it is.
      const plain = new PlainDriver(driver).prepareMutation?.(compiled);
      expect((plain as { of?: CompiledMutation }).of).toBe(compiled);
    });
  });

  it("an error thrown by beforeCall is the call's, and the inner driver is not called", () => {
    const { driver, calls } = stubDriver();
    class Refusing extends ForwardingDriver {
      protected override beforeCall(): void {
        throw new Error('refused');
      }
    }
    expect(() => new Refusing(driver).readRows(read)).toThrow('refused');
    expect(calls).toEqual([]);
  });
});

/** What the renaming driver changes in `method`'s request. */
function tableOf(method: keyof DriverRequests): object {
  if (method === 'mutateRows')
    return { table: 'x_t', mutations: requests.mutateRows.mutations.map((m) => ({ ...m, table: 'x_t' })) };
  return { table: 'x_t' };
}
