import { describe, expect, it } from 'vitest';
import { checkEmulatorHost } from '../../../src/driver/emulator-host.js';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import { ValidationError } from '../../../src/errors/index.js';

describe('checkEmulatorHost', () => {
  it.each(['127.0.0.1:8086', 'localhost:1', 'LOCALHOST:65535', '127.1.2.3:9000'])('accepts %s', (host) => {
    expect(checkEmulatorHost(host)).toBe(host.toLowerCase());
  });

  it.each([
    '10.0.0.5:8086',
    'example.com:443',
    '127.0.0.1',
    '127.0.0.1:0',
    '127.0.0.1:70000',
    '[::1]:8086',
    '128.0.0.1:1',
    '127.0.0.256:1',
    '',
  ])('rejects %s', (host) => {
    expect(() => checkEmulatorHost(host)).toThrow(ValidationError);
  });
});

describe('createGoogleCloudDriver', () => {
  it('rejects a non-loopback emulator host and a missing instance', () => {
    expect(() => createGoogleCloudDriver({ emulatorHost: '192.168.1.10:8086', instance: 'i' })).toThrow(
      /not a loopback address/,
    );
    expect(() => createGoogleCloudDriver({ emulatorHost: '127.0.0.1:8086', instance: '' })).toThrow(ValidationError);
    expect(() => createGoogleCloudDriver({} as never)).toThrow(ValidationError);
  });

  it('exposes the client and instance id', async () => {
    const driver = createGoogleCloudDriver({ emulatorHost: '127.0.0.1:8086', instance: 'inst' });
    expect(driver.instanceId).toBe('inst');
    expect(driver.table('t').id).toBe('t');
    await driver.close();
  });
});
