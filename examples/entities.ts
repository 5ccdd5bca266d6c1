/**
 * Every example's entities with fixed table ids, for the `bigtable-mapper`
 * command line: `npx bigtable-mapper -e examples/entities.ts lint`.
 *
 * @example
 * ```sh
 * npx bigtable-mapper -e examples/entities.ts key encode SaltedEvent '{"source":"web","timestamp":"2026-01-01T00:00:00Z"}'
 * ```
 */
import { activityEntity } from './hot-users/activity.entity.js';
import { customerEventEntity } from './latest-events/customer-event.entity.js';
import { eventEntity } from './salted-events/event.entity.js';
import { sensorEntities } from './sensor-readings/sensor.entities.js';

export { Reading as ExpressReading } from './express/reading.entity.js';
export { PageView } from './nestjs/page-view.entity.js';

export const sensorReadings = sensorEntities('sensor-readings', 'sensor-readings-sensors');
export const SaltedEvent = eventEntity('salted-events');
export const Activity = activityEntity('hot-users');
export const CustomerEvent = customerEventEntity('latest-events');
