import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url).pathname;
const GUIDE_DIR = join(ROOT, 'test/unit/testing/guide');

/** The blocks of docs/testing.md marked ```ts file=NAME, by name. */
function guideBlocks(): Map<string, string> {
  const text = readFileSync(join(ROOT, 'docs/testing.md'), 'utf8');
  const blocks = new Map<string, string>();
  for (const match of text.matchAll(/^```ts file=(\S+)\n([\s\S]*?)^```$/gm))
    blocks.set(match[1] as string, match[2] as string);
  return blocks;
}

/** A guide block with the package's imports pointed at the sources, as the files under guide/ import them. */
function againstSources(code: string): string {
  return code
    .replaceAll("from 'bigtable-mapper/nest'", "from '../../../../src/nest/index.js'")
    .replaceAll("from 'bigtable-mapper/testing'", "from '../../../../src/testing/index.js'")
    .replaceAll("from 'bigtable-mapper'", "from '../../../../src/index.js'");
}

describe('docs/testing.md', () => {
  it('shows exactly the example files under test/unit/testing/guide, which run as unit tests', () => {
    const blocks = guideBlocks();
    expect([...blocks.keys()].sort()).toEqual(readdirSync(GUIDE_DIR).sort());
    for (const [name, code] of blocks) {
      expect(againstSources(code), `docs/testing.md block file=${name}`).toBe(
        readFileSync(join(GUIDE_DIR, name), 'utf8'),
      );
    }
  });

  it('covers a plain unit test and a NestJS testing module, and what the issue lists', () => {
    const all = [...guideBlocks().values()].join('\n');
    for (const part of [
      'new InMemoryBigtable(',
      'Test.createTestingModule(',
      'BigtableModule.forRoot({ driver',
      '@Salt(',
      "order: 'key-desc'",
      '.page(',
      '.saveIf(',
      '.increment(',
      '@Denormalized(',
      '.propagate(',
      'collectGarbage()',
      'failNext(',
    ])
      expect(all).toContain(part);
  });
});
