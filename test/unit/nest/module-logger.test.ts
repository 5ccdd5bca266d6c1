import type { LoggerService } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../../src/errors/index.js';
import { BigtableModule, getMapperToken } from '../../../src/nest/index.js';
import type { BigtableMapper } from '../../../src/repository/mapper.js';
import { InMemoryBigtable } from '../../../src/testing/index.js';
import { TimeFirstReading } from '../lint/seed-001-entities.js';

afterEach(() => vi.restoreAllMocks());

/** An application logger (what `app.useLogger()` takes) that keeps every line with its level and context. */
class RecordingLogger implements LoggerService {
  readonly lines: { level: string; message: string; context: unknown }[] = [];
  log(message: string, context?: unknown): void {
    this.lines.push({ level: 'log', message, context });
  }
  warn(message: string, context?: unknown): void {
    this.lines.push({ level: 'warn', message, context });
  }
  error(message: string, context?: unknown): void {
    this.lines.push({ level: 'error', message, context });
  }
  debug(message: string, context?: unknown): void {
    this.lines.push({ level: 'debug', message, context });
  }
  ofMapper(): { level: string; message: string }[] {
    return this.lines.filter((l) => l.context === 'BigtableMapper').map(({ level, message }) => ({ level, message }));
  }
}

async function compile(options: Parameters<typeof BigtableModule.forRoot>[0], appLogger: RecordingLogger) {
  return Test.createTestingModule({ imports: [BigtableModule.forRoot(options)] })
    .setLogger(appLogger)
    .compile();
}

describe("BigtableModule and Nest's logger", () => {
  it("without a logger option, the mapper logs through a Nest Logger of context 'BigtableMapper'", async () => {
    const processWarning = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const appLogger = new RecordingLogger();
    const app = await compile(
      { driver: new InMemoryBigtable(), entities: [TimeFirstReading], lint: 'warn', slowOperationMs: 1 },
      appLogger,
    );
    expect(processWarning).not.toHaveBeenCalled();
    expect(appLogger.ofMapper()).toEqual([
      {
        level: 'warn',
        message: expect.stringMatching(
          /^bigtable-mapper: lint: TimeFirstReading \(table "readings-by-time"\) has 1 error: \[error leading-timestamp\]/,
        ) as unknown,
      },
    ]);
    await app.close();
  });

  it('the same logger carries slow calls, through forRootAsync too', async () => {
    const appLogger = new RecordingLogger();
    const app = await Test.createTestingModule({
      imports: [
        BigtableModule.forRootAsync({
          useFactory: () => ({ driver: new InMemoryBigtable(), entities: [TimeFirstReading], slowOperationMs: 1 }),
        }),
      ],
    })
      .setLogger(appLogger)
      .compile();
    const mapper = app.get<BigtableMapper>(getMapperToken());
    await mapper.sync();
    const readings = mapper.getRepository(TimeFirstReading);
    // A scan runs until its last row was taken: one held open past 1 ms is a slow call.
    const iterator = readings.iterate({})[Symbol.asyncIterator]();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await iterator.return?.();
    expect(appLogger.ofMapper()).toContainEqual({
      level: 'warn',
      message: expect.stringMatching(
        /^bigtable-mapper: TimeFirstReading\.scan took \d+ ms \(slowOperationMs 1\)/,
      ) as unknown,
    });
    await app.close();
  });

  it('logger: false turns it off (lint findings go back to process warnings); a logger given replaces it', async () => {
    const processWarning = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const appLogger = new RecordingLogger();
    const quiet = await compile(
      { driver: new InMemoryBigtable(), entities: [TimeFirstReading], lint: 'warn', logger: false },
      appLogger,
    );
    expect(appLogger.ofMapper()).toEqual([]);
    expect(processWarning).toHaveBeenCalledWith(expect.stringContaining('the row key starts with a timestamp'), {
      type: 'BigtableMapperLint',
      code: 'leading-timestamp',
    });
    await quiet.close();

    processWarning.mockClear();
    const own: string[] = [];
    const replaced = await compile(
      {
        driver: new InMemoryBigtable(),
        entities: [TimeFirstReading],
        lint: 'warn',
        logger: { warn: (m) => own.push(m) },
      },
      appLogger,
    );
    expect(own).toEqual([expect.stringContaining('bigtable-mapper: lint: TimeFirstReading')]);
    expect(appLogger.ofMapper()).toEqual([]);
    expect(processWarning).not.toHaveBeenCalled();
    await replaced.close();
  });

  it("logger: false with slowOperationMs is the mapper's ValidationError: a threshold needs a logger", async () => {
    await expect(
      compile({ driver: new InMemoryBigtable(), logger: false, slowOperationMs: 100 }, new RecordingLogger()),
    ).rejects.toThrow(ValidationError);
  });
});
