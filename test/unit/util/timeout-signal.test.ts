import { describe, expect, it } from 'vitest';
import { BigtableMapper, Column, DeadlineExceededError, Entity, Family, KeyPart } from '../../../src/index.js';
import { FakeDriver } from '../../support/fake-driver.js';

@Entity({ table: 'timeout-signal' })
@Family('m')
class Message {
  @KeyPart(0, { type: 'string' }) id!: string;
  @Column({ family: 'm', type: 'string' }) text?: string;
}

describe('a signal made by AbortSignal.timeout()', () => {
  it('rejects with DeadlineExceededError of kind "signal" that states how long the call ran, not 0 ms', async () => {
    const driver = new FakeDriver();
    const repo = new BigtableMapper({ driver, entities: [Message] }).getRepository(Message);
    await repo.saveMany(Array.from({ length: 50 }, (_, i) => ({ id: `m${i}`, text: 'x' })));
    const startedAt = Date.now();
    const signal = AbortSignal.timeout(30);
    const error = await (async () => {
      for await (const _ of repo.iterate({ signal })) await new Promise((resolve) => setTimeout(resolve, 10));
    })().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(DeadlineExceededError);
    const deadline = error as DeadlineExceededError;
    expect(deadline.kind).toBe('signal');
    // How long the call itself ran: under load the signal may have counted down before the call started.
    expect(deadline.timeoutMs).toBeGreaterThan(0);
    expect(deadline.timeoutMs).toBeLessThanOrEqual(Date.now() - startedAt);
    expect(deadline.message).toMatch(
      /Message\.scan ran past the deadline of its signal \(AbortSignal\.timeout\) after \d+ ms/,
    );
    expect(deadline.message).not.toMatch(/ 0 ms/);
  });

  it('that has already fired says so', async () => {
    const signal = AbortSignal.timeout(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const repo = new BigtableMapper({ driver: new FakeDriver(), entities: [Message] }).getRepository(Message);
    await expect(repo.findOne({ id: 'a' }, { signal })).rejects.toThrow(
      /the deadline of its signal \(AbortSignal\.timeout\), which had already fired/,
    );
  });
});
