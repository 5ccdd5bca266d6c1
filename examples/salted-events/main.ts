/**
 * `npm run example:salted-events`: seed 002's salted event keys on an
 * auto-started emulator; prints keys, bucket counts, evenness and scan order.
 */
import { runExample } from '../shared/run-example.js';
import { run } from './run.js';

await runExample(run);
