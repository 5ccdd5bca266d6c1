/**
 * `npm run example:hot-users`: seed 003's partial-key salting with a
 * forward-only cutoff on an auto-started emulator; prints stored keys of both
 * layouts, the bucket of each user-site and what each scan reads.
 */
import { runExample } from '../shared/run-example.js';
import { run } from './run.js';

await runExample(run);
