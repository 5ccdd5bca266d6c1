import { runCli } from './cli-program.js';

const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
process.exitCode = await runCli(process.argv.slice(2), undefined, controller.signal);
