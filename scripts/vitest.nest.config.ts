import { defineConfig } from 'vitest/config';
import { emulatorSetup, tierConfig } from '../vitest.config.js';

const nestModules = process.env['NEST_NODE_MODULES'];
if (nestModules === undefined || nestModules === '') {
  throw new Error(
    'Set NEST_NODE_MODULES to a node_modules folder holding another NestJS major (see scripts/test-nest.sh).',
  );
}

/**
 * The NestJS tests of `npm test` (`test/integration/nest`) and the packed
 * package's consumers (`test/package/packed-package.test.ts`, with the
 * tarball in `BIGTABLE_MAPPER_TARBALL` or packed once by the global setup),
 * with every `@nestjs/*` import (from tests, examples and `src/nest`) taken
 * from `NEST_NODE_MODULES` instead of the dev dependency, so they run against
 * another Nest major. Nest's own imports then resolve beside it, one copy
 * throughout. Run by scripts/test-nest.sh.
 *
 * @example
 * ```ts
 * // NEST_NODE_MODULES=/path/to/nest-12/node_modules npx vitest run --config scripts/vitest.nest.config.ts
 * ```
 */
export default defineConfig(
  tierConfig(
    [
      {
        name: 'integration',
        include: ['test/integration/nest/**/*.test.ts'],
        globalSetup: [emulatorSetup],
      },
      {
        name: 'package',
        include: ['test/package/packed-package.test.ts'],
        globalSetup: [emulatorSetup, 'test/setup/packed-library.global.ts'],
      },
    ],
    { resolve: { alias: [{ find: /^@nestjs\/([^/]+)(.*)$/, replacement: `${nestModules}/@nestjs/$1$2` }] } },
  ),
);
