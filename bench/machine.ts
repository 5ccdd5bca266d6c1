import { readFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { findEmulatorBinary } from '../src/testing/index.js';

/** The machine a run came from: no host names, no paths. @example `{ cpuModel: 'AMD EPYC', cores: 2, totalMemoryGiB: 23.4, node: 'v20.20.2', ... }` */
export interface MachineInfo {
  readonly cpuModel: string;
  readonly cores: number;
  readonly totalMemoryGiB: number;
  readonly node: string;
  readonly platform: string;
  readonly arch: string;
  readonly emulator: string;
  readonly gcExposed: boolean;
  /** 1-minute load average when the run started and ended: above the core count, other work competed for the CPU. */
  readonly loadAverage: { readonly start: number; readonly end: number };
}

/** The 1-minute load average. @example `loadAverage1m() // 0.42` */
export function loadAverage1m(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}

/** Describes this machine and the emulator. @example `machineInfo('cbtemulator (Cloud SDK 528.0.0)', true, 0.1)` */
export function machineInfo(emulator: string, gcExposed: boolean, loadAtStart: number): MachineInfo {
  const list = cpus();
  return {
    cpuModel: (list[0]?.model ?? 'unknown').trim(),
    cores: list.length,
    totalMemoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    emulator,
    gcExposed,
    loadAverage: { start: loadAtStart, end: loadAverage1m() },
  };
}

/**
 * Names the emulator by its Cloud SDK release (read next to the binary, never
 * reporting where it is): `cbtemulator (Cloud SDK 528.0.0)`, or just
 * `cbtemulator` when the release is unknown.
 * @example `await describeEmulator('started by the bench')`
 */
export async function describeEmulator(origin: string): Promise<string> {
  let release: string | undefined;
  try {
    const binary = await findEmulatorBinary();
    const text = await readFile(join(dirname(binary), '..', '..', 'VERSION'), 'utf8');
    release = /^\d+\.\d+\.\d+$/.test(text.trim()) ? text.trim() : undefined;
  } catch {
    release = undefined;
  }
  return `cbtemulator${release === undefined ? '' : ` (Cloud SDK ${release})`}, ${origin}`;
}
