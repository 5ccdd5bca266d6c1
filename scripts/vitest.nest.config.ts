import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../vitest.config.js';

const nestModules = process.env['NEST_NODE_MODULES'];
if (nestModules === undefined || nestModules === '') {
  throw new Error('Set NEST_NODE_MODULES to a node_modules folder holding another NestJS major (see .ci/run).');
}

/**
 * The repository's vitest configuration with every `@nestjs/*` import (from
 * tests, examples and `src/nest`) taken from `NEST_NODE_MODULES` instead of
 * the dev dependency, so the Nest integration tests run against another Nest
 * major. Nest's own imports then resolve beside it, one copy throughout.
 *
 * @example
 * ```ts
 * // NEST_NODE_MODULES=/path/to/nest-12/node_modules \
 * //   npx vitest run --config scripts/vitest.nest.config.ts --project integration test/integration/nest
 * ```
 */
export default mergeConfig(
  base,
  defineConfig({
    resolve: {
      alias: [{ find: /^@nestjs\/([^/]+)(.*)$/, replacement: `${nestModules}/@nestjs/$1$2` }],
    },
  }),
);
