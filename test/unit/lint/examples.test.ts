import { describe, expect, it } from 'vitest';
import { lintEntities } from '../../../src/tools.js';
import type { Constructor } from '../../../src/model/declarations.js';
import { Reading as ExpressReading } from '../../../examples/express/reading.entity.js';
import { activityEntity } from '../../../examples/hot-users/activity.entity.js';
import { customerEventEntity } from '../../../examples/latest-events/customer-event.entity.js';
import { PageView } from '../../../examples/nestjs/page-view.entity.js';
import { eventEntity } from '../../../examples/salted-events/event.entity.js';
import { sensorEntities } from '../../../examples/sensor-readings/sensor.entities.js';

/** Every entity the examples declare (the factories with their default arguments). */
function exampleEntities(): Constructor[] {
  const { Sensor, Reading } = sensorEntities('readings', 'sensors');
  return [
    ExpressReading,
    activityEntity('activity'),
    customerEventEntity('customer-events'),
    PageView,
    eventEntity('events'),
    Sensor,
    Reading,
  ];
}

describe('the examples follow the key-design rules', () => {
  it('every example entity passes the linter, or suppresses a finding with a reason', () => {
    expect(lintEntities(exampleEntities())).toEqual([]);
  });

  it("the one suppression is seed 003's Java salt, and it carries its reason", () => {
    const suppressed = lintEntities(exampleEntities(), { includeSuppressed: true });
    expect(suppressed.map((f) => [f.entity, f.code, f.severity])).toEqual([
      ['Activity', 'java-hashcode-power-of-two', 'info'],
    ]);
    expect(suppressed[0]?.suppressed).toContain("seed 003's Java writers");
  });
});
