import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper, type Repository } from '../../../src/index.js';
import { httpStatusOf } from '../../../src/express.js';
import { fromJson, toJson, toJsonSchema } from '../../../src/json.js';
import { InMemoryBigtable } from '../../../src/testing/index.js';
import { compileStrict } from '../../support/ajv.js';
import { propertyRuns } from '../../support/property-runs.js';
import { Sensor } from './entities.js';

/*
 * The create and update schemas against the mapper, on bodies near the edge of validity: everything Ajv
 * accepts, fromJson reads and the mapper writes (in the in-memory Bigtable); everything Ajv refuses, the
 * mapper refuses too, with an error answered 400. The only exceptions are the documented ones no JSON
 * Schema can state (docs/validation-and-schemas.md), which `gap` recognises: there the mapper must
 * refuse, with a 400 as well.
 */

const bigtable = new InMemoryBigtable();
const mapper = new BigtableMapper({ driver: bigtable, entities: [Sensor] });
const sensors: Repository<Sensor> = mapper.getRepository(Sensor);
const validCreate = compileStrict(toJsonSchema(Sensor, { for: 'create' }));
const validUpdate = compileStrict(toJsonSchema(Sensor, { for: 'update' }));
const validRead = compileStrict(toJsonSchema(Sensor, { for: 'read' }));

beforeAll(async () => {
  await mapper.sync();
});

afterAll(async () => {
  await mapper.close();
});

const ASTRAL = '😀';
const LONE = '\ud800';
const MAX_CELL_MS = Math.floor(Number.MAX_SAFE_INTEGER / 1000);

const text = (chars: string[], maxLength: number) =>
  fc.array(fc.constantFrom(...chars), { maxLength }).map((parts) => parts.join(''));
const base64 = (maxBytes: number) =>
  fc.uint8Array({ maxLength: maxBytes }).map((b) => Buffer.from(b).toString('base64'));
const notBase64 = fc.constantFrom('AQ', 'AQ=', 'A===', '-_8=', 'AQID\n', ' AQID', 'AQI=AQI=');
const withOffset = (offsets: string[]) =>
  fc
    .tuple(
      fc.date({ min: new Date('0001-01-02T00:00:00Z'), max: new Date('9998-12-30T00:00:00Z'), noInvalidDate: true }),
      fc.constantFrom(...offsets),
    )
    .map(([date, zone]) => date.toISOString().replace('Z', zone));
const dateTime = withOffset(['Z', 'z', '+00:00', '-05:30', '+14:00']);
/** Text at the edge of date-time: a real leap second (valid), and text that is not one. */
const edgeDateTime = fc.oneof(
  withOffset(['+0100', '', '+24:00']),
  fc.constantFrom(
    '2016-12-31T23:59:60Z',
    '2024-05-01T23:59:60Z',
    '2024-02-30T00:00:00Z',
    '2024-05-01 12:00:00Z',
    '2024-05-01T12:00:00',
    'yesterday',
  ),
);
const cellTime = fc.oneof(
  fc.date({ min: new Date(0), max: new Date(MAX_CELL_MS), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom(
    '1969-12-31T23:59:59.999Z',
    '2255-06-05T23:47:34.740Z',
    '2255-06-05T23:47:34.741Z',
    '1970-01-01T00:30:00+01:00',
  ),
  edgeDateTime,
);
const decimal = fc.oneof(
  fc.bigInt({ min: -(2n ** 63n) - 3n, max: 2n ** 63n + 2n }).map(String),
  fc.constantFrom('-0', '007', '1e3', '', ' 1', '9223372036854775807', '-9223372036854775808', '9223372036854775808'),
);
/** JSON values, some with __proto__ keys, as JSON.parse makes them. */
const anyJson = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('{"__proto__": 1}', '{"a": {"__proto__": {"b": 2}}}', '[{"__proto__": null}]')
      .map((t) => JSON.parse(t) as unknown),
  },
);
const junk = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.string({ maxLength: 3 }),
  fc.constant([]),
  fc.constant({}),
);

const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
const nonFinite = fc.constantFrom('NaN', 'Infinity', '-Infinity');
const validVersion = fc.record(
  { value: fc.oneof(finite, nonFinite), timestamp: cellTime },
  { requiredKeys: ['value'] },
);
const edgeVersion = fc.oneof(
  fc.record({ value: fc.oneof(fc.double(), fc.constantFrom('nan', null)), timestamp: cellTime }, { requiredKeys: [] }),
  fc.record({ value: finite, at: cellTime }),
  junk,
);
const plainJson = fc.jsonValue({ maxDepth: 3 });
const place = fc.record({ street: plainJson, city: plainJson, zip: plainJson }, { requiredKeys: [] });

/**
 * Each property: values that are valid (as far as the property alone goes), and values at or past the
 * edge of validity, valid or not.
 */
const properties: Record<string, { valid: fc.Arbitrary<unknown>; edge: fc.Arbitrary<unknown> }> = {
  site: {
    valid: text(['a', 'Z', '#', '%', ' ', 'é'], 12).filter((t) => t !== ''),
    edge: fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom(
          '',
          'a'.repeat(12),
          'a'.repeat(13),
          ASTRAL.repeat(6),
          ASTRAL.repeat(7),
          `${'a'.repeat(11)}${ASTRAL}`,
          `a${LONE}`,
        ),
      },
      text(['a', '#', ASTRAL, LONE], 14),
      junk,
    ),
  },
  chip: {
    valid: base64(4).filter((t) => t !== ''),
    edge: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('', 'AAAAAA==', 'AAAAAAA=', 'AAAA', 'AAAAAA==') },
      base64(6),
      notBase64,
      junk,
    ),
  },
  slot: {
    valid: fc.integer({ min: 0, max: 9_999 }),
    edge: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(-1, 0, 9_999, 10_000, 1.5, -0, 1e300, '3') }, junk),
  },
  label: {
    valid: text(['a', 'z', ' '], 20),
    edge: fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom('', 'a'.repeat(20), 'a'.repeat(21), 'Aa', 'a1', `a${ASTRAL}`, `a${LONE}`),
      },
      text(['a', ' ', 'Q', '1', ASTRAL, LONE], 22),
      junk,
    ),
  },
  count: {
    valid: fc.integer({ min: 0, max: 1_000 }),
    edge: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(-1, 0, 1_000, 1_001, 0.5, 2 ** 53, -0, '7') }, junk),
  },
  gain: {
    valid: fc.oneof(finite, nonFinite),
    edge: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('inf', 'nan', '1', 1e308) }, junk),
  },
  active: { valid: fc.boolean(), edge: junk },
  installed: { valid: dateTime, edge: fc.oneof(edgeDateTime, junk) },
  serial: {
    valid: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String),
    edge: fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom(
          '9223372036854775807',
          '9223372036854775808',
          '-9223372036854775808',
          '-9223372036854775809',
          '-0',
          '01',
        ),
      },
      decimal,
      junk,
    ),
  },
  firmware: { valid: base64(20), edge: fc.oneof(notBase64, junk) },
  settings: { valid: plainJson.filter((v) => v !== null), edge: fc.oneof(fc.constant(null), anyJson) },
  place: {
    valid: place,
    edge: fc.oneof(
      fc.constant({}),
      place.map((p) => ({ ...p, country: 'NO' })),
      fc
        .constantFrom('{"__proto__": {"street": "x"}}', '{"street": {"__proto__": 1}}', '{"city": [{"__proto__": 2}]}')
        .map((t) => JSON.parse(t) as unknown),
      junk,
    ),
  },
  shipping: {
    valid: fc.oneof(
      fc.dictionary(fc.string({ maxLength: 3 }), plainJson, { maxKeys: 3 }),
      fc.array(plainJson, { maxLength: 3 }),
    ),
    edge: fc.oneof(anyJson, fc.constant(JSON.parse('{"__proto__": {}}') as unknown), junk),
  },
  temperature: {
    valid: fc.array(validVersion, { maxLength: 3 }),
    edge: fc.oneof(
      fc.constant([]),
      fc.array(fc.oneof(validVersion, edgeVersion), { minLength: 1, maxLength: 3 }),
      junk,
    ),
  },
};
const KEYS = ['site', 'chip', 'slot'];

/** A body valid property by property, its columns each present or not, then 0 to 2 changes at or past an edge. */
const body = fc
  .tuple(
    fc.record(
      Object.fromEntries(
        Object.entries(properties).map(([name, p]) => [
          name,
          KEYS.includes(name) ? p.valid : fc.option(p.valid, { freq: 2, nil: undefined }),
        ]),
      ),
    ),
    fc.array(
      fc.oneof(
        ...Object.entries(properties).map(([name, p]) =>
          p.edge.map((value) => ({ name, value }) as { name: string; value: unknown }),
        ),
        fc
          .constantFrom(...KEYS, 'extra', '__proto__')
          .map((name) => ({ name, value: name === 'extra' || name === '__proto__' ? 1 : undefined })),
      ),
      { maxLength: 2 },
    ),
  )
  .map(([record, changes]) => {
    const json: Record<string, unknown> = { ...record };
    for (const { name, value } of changes)
      Object.defineProperty(json, name, { value, enumerable: true, writable: true, configurable: true });
    // The body as a client sends it: JSON text, parsed (undefined properties gone, an own __proto__ kept).
    return JSON.parse(JSON.stringify(json)) as Record<string, unknown>;
  });

const COLUMNS = Object.keys(properties).filter((name) => !KEYS.includes(name));

/** An update body: columns valid one by one, some null (a delete), then 0 to 2 changes, a key part among them. */
const updateBody = fc
  .tuple(
    fc.record(
      Object.fromEntries(
        COLUMNS.map((name) => [
          name,
          fc.option(
            fc.oneof(
              { weight: 4, arbitrary: (properties[name] as (typeof properties)[string]).valid },
              { weight: 1, arbitrary: fc.constant(null) },
            ),
            { freq: 2, nil: undefined },
          ),
        ]),
      ),
    ),
    fc.array(
      fc.oneof(
        ...COLUMNS.map((name) =>
          (properties[name] as (typeof properties)[string]).edge.map(
            (value) => ({ name, value }) as { name: string; value: unknown },
          ),
        ),
        fc.constantFrom('site', 'extra', '__proto__').map((name) => ({ name, value: name === 'site' ? 'oslo' : 1 })),
      ),
      { maxLength: 2 },
    ),
  )
  .map(([record, changes]) => {
    const json: Record<string, unknown> = { ...record };
    for (const { name, value } of changes)
      Object.defineProperty(json, name, { value, enumerable: true, writable: true, configurable: true });
    return JSON.parse(JSON.stringify(json)) as Record<string, unknown>;
  });

/** Whether an own `__proto__` key sits anywhere in `value` below its top level. */
function nestedProto(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (depth > 0 && Object.hasOwn(value, '__proto__')) return true;
  return Object.values(value).some((child) => nestedProto(child, depth + 1));
}

/**
 * The documented limits of the schema that this entity can meet: a key part's length counted in UTF-16
 * units (characters outside the BMP count twice), unpaired surrogates in key text, cell timestamps before
 * 1970 or after 2255, and `__proto__` keys inside an embedded object.
 */
function gap(json: Record<string, unknown>): string | undefined {
  const site = json['site'];
  // JSON Schema counts code points, the mapper UTF-16 units: only characters outside the BMP tell them apart.
  if (typeof site === 'string' && site.length > 12 && [...site].length <= 12) return 'site: UTF-16 length';
  if (typeof site === 'string' && /\p{Surrogate}/u.test(site)) return 'site: unpaired surrogate';
  const versions = json['temperature'];
  if (Array.isArray(versions))
    for (const v of versions as unknown[]) {
      const at = (v as { timestamp?: unknown } | null)?.timestamp;
      const ms = typeof at === 'string' ? Date.parse(at) : Number.NaN;
      if (!Number.isNaN(ms) && (ms < 0 || ms > MAX_CELL_MS)) return 'temperature: cell time range';
    }
  if (nestedProto(json['place']) || nestedProto(json['shipping'], 1)) return 'embedded object: __proto__ key';
  return undefined;
}

async function saveThroughJson(json: Record<string, unknown>): Promise<unknown> {
  try {
    await sensors.save(sensors.create(fromJson(Sensor, json, { for: 'create' })));
    return 'saved';
  } catch (err) {
    return err;
  }
}

describe('the create and update schemas and the mapper', () => {
  it(
    'agree: what Ajv accepts is saved, what it refuses is refused with a 400, but for the documented gaps',
    { timeout: 300_000 },
    async () => {
      const seen = { accepted: 0, refused: 0, gaps: 0 };
      await fc.assert(
        fc.asyncProperty(body, async (json) => {
          const accepted = validCreate(json);
          const outcome = await saveThroughJson(json);
          const why = accepted ? gap(json) : undefined;
          if (accepted && why === undefined) {
            seen.accepted += 1;
            expect(outcome, JSON.stringify(json)).toBe('saved');
            const read = await sensors.findOne(sensors.create(fromJson(Sensor, json, { for: 'create' })));
            expect(validRead(toJson(Sensor, read as Sensor)), JSON.stringify(validRead.errors)).toBe(true);
          } else {
            if (accepted) seen.gaps += 1;
            else seen.refused += 1;
            expect(outcome, `${why ?? 'refused by the schema'}: ${JSON.stringify(json)}`).toBeInstanceOf(Error);
            expect(httpStatusOf(outcome), String(outcome)).toBe(400);
          }
        }),
        { numRuns: propertyRuns(10_000) },
      );
      // The bodies reach both sides of the line, and the documented gaps.
      expect(seen.accepted).toBeGreaterThan(seen.refused / 4);
      expect(seen.refused).toBeGreaterThan(seen.accepted / 4);
      expect(seen.gaps).toBeGreaterThan(0);
    },
  );

  it(
    'agree on updates: what Ajv accepts is written, what it refuses is refused with a 400, but for the documented gaps',
    { timeout: 300_000 },
    async () => {
      const key = { site: 'updated', chip: Buffer.from([9]), slot: 1 };
      const seen = { accepted: 0, refused: 0 };
      await fc.assert(
        fc.asyncProperty(updateBody, async (json) => {
          const accepted = validUpdate(json);
          const outcome = await (async () => sensors.update(key, fromJson(Sensor, json, { for: 'update' })))().then(
            () => 'written',
            (err: unknown) => err,
          );
          if (accepted && gap(json) === undefined) {
            seen.accepted += 1;
            expect(outcome, JSON.stringify(json)).toBe('written');
          } else {
            if (!accepted) seen.refused += 1;
            expect(outcome, `${gap(json) ?? 'refused by the schema'}: ${JSON.stringify(json)}`).toBeInstanceOf(Error);
            expect(httpStatusOf(outcome), String(outcome)).toBe(400);
          }
        }),
        { numRuns: propertyRuns(5_000) },
      );
      expect(seen.accepted).toBeGreaterThan(seen.refused / 4);
      expect(seen.refused).toBeGreaterThan(seen.accepted / 4);
    },
  );
});
