/**
 * `npm run example:latest-events`: seed 004's reverse-timestamp keys on an
 * auto-started emulator; prints the keys and the latest events of a customer.
 */
import { runExample } from '../shared/run-example.js';
import { run } from './run.js';

await runExample(run);
