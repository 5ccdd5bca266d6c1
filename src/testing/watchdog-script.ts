/**
 * `sh -c` program that runs the emulator (`$1 -host 127.0.0.1 -port $2`) and
 * guards it. It reports the emulator pid on fd 3, then waits for it. A
 * background reader blocks on the watchdog's stdin, a pipe whose only writer
 * is the Node process: when that process dies (even by SIGKILL) the pipe hits
 * EOF and the reader SIGKILLs the emulator. When the emulator exits on its own,
 * the watchdog stops the reader and exits with the emulator's status.
 *
 * @example
 * ```ts
 * spawn('sh', ['-c', WATCHDOG_SCRIPT, WATCHDOG_NAME, binary, String(port)], { stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
 * ```
 * @internal
 */
export const WATCHDOG_SCRIPT = [
  'exec 4<&0',
  '"$1" -host 127.0.0.1 -port "$2" </dev/null 3>&- 4<&- &',
  'emu=$!',
  'echo "$emu" >&3',
  'exec 3>&-',
  '{ read -r line; kill -KILL "$emu" 2>/dev/null; } <&4 >/dev/null 2>&1 &',
  'reader=$!',
  'exec 4<&- 0</dev/null',
  'wait "$emu"',
  'status=$?',
  'kill "$reader" 2>/dev/null',
  'exit "$status"',
].join('\n');

/**
 * `$0` of the watchdog shell, so it is recognisable in `ps` output.
 *
 * @example
 * ```ts
 * spawn('sh', ['-c', WATCHDOG_SCRIPT, WATCHDOG_NAME, binary, '8086']);
 * ```
 * @internal
 */
export const WATCHDOG_NAME = 'bigtable-emulator-watchdog';
