import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Column, Entity, Family, KeyPart, Salt } from '../../../src/decorators/index.js';
import { encodeRowKey } from '../../../src/key/physical-key.js';
import { censusOf, mergeCensuses } from '../../../src/lint/census.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { propertyRuns } from '../../support/property-runs.js';

@Entity({ table: 'census_merge' })
@Salt({ buckets: 4 })
@Family('f')
class Visit {
  @KeyPart(0, { type: 'string' }) site!: string;
  @KeyPart(1, { type: 'uint', width: 6 }) seq!: number;
  @Column({ family: 'f', type: 'string' }) page?: string;
}
const schema = compileEntity(Visit);

const rows = fc.array(
  fc.record({ site: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), seq: fc.nat(999_999), bytes: fc.nat(500) }),
  { maxLength: 200 },
);

describe('mergeCensuses', () => {
  it('equals the census of one pass when every part is exact, however the rows are split', () => {
    fc.assert(
      fc.property(rows, fc.array(fc.nat(3), { maxLength: 200 }), (visits, parts) => {
        const keyed = visits.map((v, i) => ({
          key: encodeRowKey(schema, { site: v.site, seq: v.seq }).key,
          bytes: v.bytes,
          part: parts[i] ?? 0,
        }));
        const whole = censusOf(schema, keyed);
        const split = [0, 1, 2, 3].map((p) =>
          censusOf(
            schema,
            keyed.filter((r) => r.part === p),
          ),
        );
        expect(mergeCensuses(split, 1000)).toEqual(whole);
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it('keeps every count an upper bound, and count minus error a lower bound, when parts overflow their prefixes', () => {
    fc.assert(
      fc.property(rows, fc.array(fc.nat(2), { maxLength: 200 }), (visits, parts) => {
        const keyed = visits.map((v, i) => ({
          key: encodeRowKey(schema, { site: v.site, seq: v.seq }).key,
          bytes: v.bytes,
          site: v.site,
          part: parts[i] ?? 0,
        }));
        const split = [0, 1, 2].map((p) =>
          censusOf(
            schema,
            keyed.filter((r) => r.part === p),
            { maxPrefixes: 1 },
          ),
        );
        const merged = mergeCensuses(split, 2);
        expect(merged.rows).toBe(keyed.length);
        for (const p of merged.prefixes) {
          const actual = keyed.filter((r) => r.site === p.prefix).length;
          expect(p.rows).toBeGreaterThanOrEqual(actual);
          expect(p.rows - p.rowsError).toBeLessThanOrEqual(actual);
        }
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});
