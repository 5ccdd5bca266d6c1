import { describe, expect, it } from 'vitest';
import {
  RetryingCall,
  callWithRetries,
  type AttemptEnd,
  type AttemptEvents,
  type AttemptListener,
  type CallOutcome,
  type GaxCallOptions,
  type NextStep,
  type ResumptionRule,
} from '../../../src/driver/retry-engine.js';
import type { CallOptions } from '../../../src/model/driver.js';
import { DeadlineExceededError, OperationAbortedError } from '../../../src/errors/operation-errors.js';
import { deadlineSignal } from '../../../src/util/operation-signal.js';

type Script = 'ok' | 'unavailable' | 'hang' | 'silent-then-ok';

/** A rule whose attempts follow `script` (the last entry repeats), retrying what `retryable` allows. */
function scripted(script: readonly Script[], retryable = (end: AttemptEnd): boolean => end.kind !== 'ended') {
  const opened: GaxCallOptions[] = [];
  const cancelled: number[] = [];
  const retired: number[] = [];
  let outcome: CallOutcome | undefined;
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const rule: ResumptionRule = {
    method: 'Test',
    operation: 'test "t"',
    table: 't',
    retry: { maxRetries: 3, delayMs: () => 1 },
    sendsDeadline: true,
    open(attempt: number, gax: GaxCallOptions, events: AttemptEvents) {
      opened.push(gax);
      const step = script[Math.min(attempt, script.length - 1)];
      const timer =
        step === 'ok'
          ? setTimeout(() => {
              events.response();
              events.ended();
            }, 2)
          : step === 'unavailable'
            ? setTimeout(() => events.failed(Object.assign(new Error('14 UNAVAILABLE'), { code: 14 })), 2)
            : step === 'silent-then-ok'
              ? setTimeout(() => {
                  events.response();
                  events.ended();
                }, 200)
              : undefined;
      return {
        cancel: () => {
          clearTimeout(timer);
          cancelled.push(attempt);
        },
        retire: () => retired.push(attempt),
      };
    },
    next(end: AttemptEnd): NextStep {
      if (end.kind === 'ended') return { kind: 'done' };
      return retryable(end) ? { kind: 'retry' } : { kind: 'fail', error: end.error };
    },
    finish(result: CallOutcome) {
      outcome = result;
      settle();
    },
  };
  const events: string[] = [];
  const listener: AttemptListener = {
    attemptStarted: (e) => events.push(`start ${e.attempt}`),
    firstResponse: (e) => events.push(`first ${e.attempt}`),
    attemptEnded: (e) => events.push(`end ${e.attempt} ${e.status}`),
    retryScheduled: (e) => events.push(`retry after ${e.attempt}`),
    operationEnded: (e) => events.push(`done ${e.outcome} ${e.attempts}`),
  };
  const run = (call: CallOptions = {}): RetryingCall => {
    const engine = new RetryingCall(rule, call, listener);
    engine.start();
    return engine;
  };
  return { run, settled, opened, cancelled, retired, events, outcome: () => outcome };
}

describe('the retry engine', () => {
  it('retries a failed attempt and tells the listener where every attempt starts and ends', async () => {
    const s = scripted(['unavailable', 'unavailable', 'ok']);
    s.run();
    await s.settled;
    expect(s.outcome()).toEqual({ kind: 'done' });
    expect(s.events).toEqual([
      'start 0',
      'end 0 14',
      'retry after 0',
      'start 1',
      'end 1 14',
      'retry after 1',
      'start 2',
      'first 2',
      'end 2 0',
      'done done 3',
    ]);
  });

  it('stops after maxRetries consecutive failures with the last error', async () => {
    const s = scripted(['unavailable']);
    s.run();
    await s.settled;
    const outcome = s.outcome();
    expect(outcome?.kind).toBe('exhausted');
    expect((outcome as { error: { code: number } }).error.code).toBe(14);
    expect(s.opened).toHaveLength(4);
  });

  it('cuts an attempt past its attempt timeout: retired, cancelled, retried, with kind "attempt"', async () => {
    const s = scripted(['hang', 'ok']);
    s.run({ attemptTimeoutMs: 30 });
    await s.settled;
    expect(s.outcome()).toEqual({ kind: 'done' });
    expect(s.retired).toEqual([0]);
    expect(s.cancelled).toContain(0);
    expect(s.opened[0]?.timeout).toBe(30);
    expect(s.events.slice(0, 2)).toEqual(['start 0', 'end 0 4']);
  });

  it('cuts a silent attempt at its idle timeout, but not while the call is paused', async () => {
    const s = scripted(['silent-then-ok'], (end) => end.kind === 'cut');
    const engine = s.run({ idleTimeoutMs: 40 });
    engine.pause();
    await s.settled;
    expect(s.outcome()).toEqual({ kind: 'done' });
    expect(s.retired).toEqual([]);

    const idle = scripted(['hang', 'ok'], (end) => end.kind === 'cut');
    idle.run({ idleTimeoutMs: 20 });
    await idle.settled;
    expect(idle.outcome()).toEqual({ kind: 'done' });
    expect(idle.retired).toEqual([0]);
  });

  it("ends at the signal's deadline with the signal's own error, decided once", async () => {
    const signal = deadlineSignal(40, { operation: 'Item.save' });
    const s = scripted(['hang']);
    s.run({ signal });
    await s.settled;
    const outcome = s.outcome() as Extract<CallOutcome, { kind: 'stopped' }>;
    expect(outcome.kind).toBe('stopped');
    expect(outcome.error).toBe(signal.reason);
    expect(outcome.error).toBeInstanceOf(DeadlineExceededError);
    expect((outcome.error as DeadlineExceededError).operation).toBe('Item.save');
    expect(s.opened[0]?.timeout).toBeLessThanOrEqual(40);
    expect(s.cancelled).toEqual([0]);
    expect(s.events.at(-1)).toBe('done stopped 1');
  });

  it('starts no retry whose wait would end past the deadline: the deadline error carries the last failure', async () => {
    const s = scripted(['unavailable']);
    const rule = s;
    const signal = deadlineSignal(5_000, { operation: 'Item.find' });
    const engine = new RetryingCall(
      {
        method: 'Test',
        operation: 'test',
        table: undefined,
        retry: { maxRetries: 5, delayMs: () => 60_000 },
        sendsDeadline: false,
        open: (_attempt, _gax, events) => {
          setTimeout(() => events.failed(Object.assign(new Error('14 UNAVAILABLE'), { code: 14 })), 1);
          return { cancel: () => undefined };
        },
        next: () => ({ kind: 'retry' }),
        finish: (outcome) => {
          expect(outcome.kind).toBe('exhausted');
          const { deadline, error } = outcome as Extract<CallOutcome, { kind: 'exhausted' }>;
          expect(deadline).toBeInstanceOf(DeadlineExceededError);
          expect(deadline?.operation).toBe('Item.find');
          expect(deadline?.cause).toBe(error);
          rule.events.push('checked');
        },
      },
      { signal },
    );
    engine.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(rule.events).toEqual(['checked']);
  });

  it('an aborted signal starts nothing; an abort during an attempt cancels it with the typed abort error', async () => {
    const before = new AbortController();
    before.abort(new Error('no'));
    const early = scripted(['ok']);
    early.run({ signal: before.signal });
    await early.settled;
    expect(early.opened).toHaveLength(0);
    expect((early.outcome() as { error: unknown }).error).toBeInstanceOf(OperationAbortedError);

    const controller = new AbortController();
    const late = scripted(['hang']);
    late.run({ signal: controller.signal });
    controller.abort(new Error('stop'));
    await late.settled;
    expect(late.cancelled).toEqual([0]);
    expect(late.events.slice(-2)).toEqual(['end 0 1', 'done stopped 1']);
  });

  it('a listener that throws does not disturb the call', async () => {
    const calls: string[] = [];
    const answer = await callWithRetries('increment "t"', { attemptTimeoutMs: 1_000 }, () => Promise.resolve(7), {
      method: 'ReadModifyWriteRow',
      retryAttemptTimeouts: false,
      listener: {
        attemptStarted: () => {
          calls.push('start');
          throw new Error('listener bug');
        },
        operationEnded: (e) => calls.push(e.outcome),
      },
    });
    expect(answer).toBe(7);
    expect(calls).toEqual(['start', 'done']);
  });

  it('a unary call that times out is retried only when idempotent', async () => {
    let sent = 0;
    const hangOnce = (gax: GaxCallOptions): Promise<string> => {
      sent += 1;
      return sent === 1
        ? new Promise<string>((_, reject) => gax.signal.addEventListener('abort', () => reject(new Error('cancelled'))))
        : Promise.resolve('families');
    };
    await expect(
      callWithRetries('getFamilies "t"', { attemptTimeoutMs: 20 }, hangOnce, {
        method: 'GetTable',
        retryAttemptTimeouts: true,
      }),
    ).resolves.toBe('families');
    sent = 0;
    const error = await callWithRetries('checkAndMutate "t"', { attemptTimeoutMs: 20 }, hangOnce, {
      method: 'CheckAndMutateRow',
      retryAttemptTimeouts: false,
    }).catch((e: unknown) => e);
    expect((error as DeadlineExceededError).kind).toBe('attempt');
    expect(sent).toBe(1);
  });

  it('a call cancelled by its consumer is heard as cancelled: its running attempt ends with status 1', async () => {
    const { run, events, cancelled } = scripted(['hang']);
    const engine = run();
    await new Promise((resolve) => setTimeout(resolve, 5));
    engine.cancel();
    engine.cancel();
    expect(cancelled).toEqual([0]);
    expect(events).toEqual(['start 0', 'end 0 1', 'done cancelled 1']);
  });

  it("every event of a call names the same call, its table and the call options' telemetry", async () => {
    const seen: { call: object; table: string | undefined; entity: string | undefined; answered?: boolean }[] = [];
    const telemetry = { entity: 'Item', operation: 'scan' };
    const listener: AttemptListener = {
      attemptStarted: (e) => seen.push({ call: e.call, table: e.table, entity: e.telemetry?.entity }),
      attemptEnded: (e) =>
        seen.push({ call: e.call, table: e.table, entity: e.telemetry?.entity, answered: e.answered }),
    };
    const calls = new Set<object>();
    await new Promise<void>((resolve) => {
      const base: ResumptionRule = {
        method: 'Test',
        operation: 'test "the table"',
        table: 'the table',
        retry: { maxRetries: 3, delayMs: () => 1 },
        sendsDeadline: false,
        open(attempt, _gax, events) {
          setTimeout(() => {
            if (attempt === 0) events.failed(Object.assign(new Error('14 UNAVAILABLE'), { code: 14 }));
            else {
              events.response();
              events.ended();
            }
          }, 1);
          return { cancel: () => undefined };
        },
        next: (end) => (end.kind === 'ended' ? { kind: 'done' } : { kind: 'retry' }),
        finish: () => resolve(),
      };
      new RetryingCall(base, { telemetry }, listener).start();
    });
    for (const event of seen) calls.add(event.call);
    expect(calls.size).toBe(1);
    expect(seen.map((e) => [e.table, e.entity, e.answered])).toEqual([
      ['the table', 'Item', undefined],
      ['the table', 'Item', false],
      ['the table', 'Item', undefined],
      ['the table', 'Item', true],
    ]);
  });
});
