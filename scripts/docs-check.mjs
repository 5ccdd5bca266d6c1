/**
 * The documentation build as `npm test` runs it: the real typedoc build
 * (HTML included, so code highlighting, heading anchors and the links between
 * guides are checked, which `typedoc --emit none` skips), written to a
 * temporary folder that is removed afterwards. Any warning fails it
 * (`treatWarningsAsErrors`). `npm run docs` writes the same site to docs/api.
 *
 * @example
 * ```ts
 * // npm run docs:check
 * ```
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const typedoc = join(root, 'node_modules', 'typedoc', 'bin', 'typedoc');
const out = mkdtempSync(join(tmpdir(), 'bigtable-mapper-docs-'));
try {
  const result = spawnSync(process.execPath, [typedoc, '--out', out, '--treatWarningsAsErrors'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) console.error('docs-check: typedoc reported a problem (see above)');
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
