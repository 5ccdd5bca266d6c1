import { defineConfig } from 'vitest/config';
import { emulatorSetup, tierConfig } from '../vitest.config.js';

/**
 * The `package` tier (part of `npm run test:package`, run once per CI run):
 * `test/package`, the packed library as an app installs it. The library is
 * built and packed once per run (`test/setup/packed-library.global.ts`, or
 * the tarball in `BIGTABLE_MAPPER_TARBALL`), into a private folder; then ESM,
 * CommonJS, NestJS-starter and command-line consumers compile against it and
 * run on the emulator, and one app is compiled in each decorator mode
 * (TypeScript 7 installed from npm into a cached folder the first time).
 *
 * @example
 * ```ts
 * // npx vitest run --config scripts/vitest.package.config.ts
 * ```
 */
export default defineConfig(
  tierConfig([
    {
      name: 'package',
      // Top level only: test/package/consumers holds the apps' own sources and tests, run inside a consumer.
      include: ['test/package/*.test.ts'],
      globalSetup: [emulatorSetup, 'test/setup/packed-library.global.ts'],
    },
  ]),
);
