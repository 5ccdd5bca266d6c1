import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packLibrary } from '../../scripts/pack.js';

/**
 * Global setup of the `package` project (`npm run test:package`): builds and
 * packs the library once per run, into a private temporary folder, and hands
 * the tarball to every test through `BIGTABLE_MAPPER_TARBALL`, so the tests
 * that need it (the packed-package consumers, the decorator modes) never
 * build it themselves, twice or into a shared `dist/`. A tarball already named
 * by `BIGTABLE_MAPPER_TARBALL` (scripts/test-package.sh packs once for the
 * whole tier) is used as is.
 *
 * @example
 * ```ts
 * projects: [{ test: { name: 'package', globalSetup: ['test/setup/packed-library.global.ts'] } }]
 * ```
 */
export default function setup(): () => void {
  if ((process.env['BIGTABLE_MAPPER_TARBALL'] ?? '') !== '') return () => undefined;
  const work = mkdtempSync(join(tmpdir(), 'bigtable-mapper-packed-'));
  const { tarball } = packLibrary(work);
  process.env['BIGTABLE_MAPPER_TARBALL'] = tarball;
  console.log(`packed-library: ${tarball}`);
  return () => {
    delete process.env['BIGTABLE_MAPPER_TARBALL'];
    rmSync(work, { recursive: true, force: true });
  };
}
