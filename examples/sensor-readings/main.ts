/**
 * `npm run example:sensors`: seed 001's sensor readings on an auto-started
 * emulator; prints keys, the hour scan, versions and the denormalized location.
 */
import { runExample } from '../shared/run-example.js';
import { run } from './run.js';

await runExample(run);
