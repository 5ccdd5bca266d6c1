import type { EntityData } from '../../src/index.js';
import type { Reading } from './reading.entity.js';

/**
 * A request the API rejects with 400.
 *
 * @example
 * ```ts
 * throw new BadRequest('temperature must be a number');
 * ```
 */
export class BadRequest extends Error {
  override readonly name = 'BadRequest';
}

/**
 * A reading as the API returns it, with `href`, the path of `GET /readings/:sensorId/:ts`.
 *
 * @example
 * ```ts
 * const json: ReadingJson = { sensorId: 's1', ts: '2024-05-01T12:00:00.000Z', temperature: 21.5, href: '/readings/s1/1714564800000' };
 * ```
 */
export interface ReadingJson {
  sensorId: string;
  ts: string;
  temperature: number;
  humidity?: number;
  href: string;
}

/**
 * A timestamp from JSON or a URL: epoch milliseconds (number or digits) or ISO text.
 *
 * @example
 * ```ts
 * parseTimestamp('1714564800000').toISOString(); // '2024-05-01T12:00:00.000Z'
 * ```
 */
export function parseTimestamp(value: unknown): Date {
  const ts =
    typeof value === 'string' && /^\d+$/.test(value) ? new Date(Number(value)) : new Date(value as string | number);
  if ((typeof value !== 'string' && typeof value !== 'number') || Number.isNaN(ts.getTime())) {
    throw new BadRequest('ts must be an ISO date or epoch milliseconds');
  }
  return ts;
}

/**
 * Reads a `POST /readings` body: `temperature`, optional `humidity` and `ts`
 * (default now). The key part `sensorId` is taken as given: the library
 * rejects a missing or invalid one, naming `Reading.sensorId`, and the error
 * handler answers 400.
 * `readings.create()` turns the result into a `Reading`.
 *
 * @example
 * ```ts
 * const reading = readings.create(parseReading({ sensorId: 's1', temperature: 21.5 }));
 * ```
 */
export function parseReading(body: unknown): EntityData<Reading> {
  if (body === null || typeof body !== 'object') throw new BadRequest('expected a JSON object');
  const { sensorId, ts, temperature, humidity } = body as Record<string, unknown>;
  if (typeof temperature !== 'number' || !Number.isFinite(temperature))
    throw new BadRequest('temperature must be a number');
  if (humidity !== undefined && (typeof humidity !== 'number' || !Number.isFinite(humidity)))
    throw new BadRequest('humidity must be a number');
  const reading: EntityData<Reading> = {
    sensorId: sensorId as string,
    ts: ts === undefined ? new Date() : parseTimestamp(ts),
    temperature,
  };
  if (humidity !== undefined) reading.humidity = humidity;
  return reading;
}

/**
 * The JSON form of a reading.
 *
 * @example
 * ```ts
 * toReadingJson(reading).href; // '/readings/s1/1714564800000'
 * ```
 */
export function toReadingJson(reading: Reading): ReadingJson {
  const href = `/readings/${encodeURIComponent(reading.sensorId)}/${reading.ts.getTime()}`;
  const json: ReadingJson = {
    sensorId: reading.sensorId,
    ts: reading.ts.toISOString(),
    temperature: reading.temperature,
    href,
  };
  if (reading.humidity !== undefined) json.humidity = reading.humidity;
  return json;
}
