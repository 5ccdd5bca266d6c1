import { describe, expect, it } from 'vitest';
import { EmulatorError, emulatorClientOptions } from '../../../src/testing/index.js';

describe('emulatorClientOptions', () => {
  it('builds emulator options without metrics or the metadata probe', () => {
    expect(emulatorClientOptions('127.0.0.1:8086')).toEqual({
      projectId: 'test-project',
      apiEndpoint: '127.0.0.1:8086',
      metricsEnabled: false,
      universeDomain: 'googleapis.com',
    });
    expect(emulatorClientOptions('localhost:9000', 'p1')).toMatchObject({
      projectId: 'p1',
      apiEndpoint: 'localhost:9000',
    });
    expect(emulatorClientOptions('127.10.20.30:1').apiEndpoint).toBe('127.10.20.30:1');
  });

  it.each([
    '10.0.0.5:8086',
    'bigtable.googleapis.com:443',
    '0.0.0.0:8086',
    '127.0.0.1.example.com:8086',
    '128.0.0.1:8086',
    '127.0.0.256:8086',
    '[::2]:8086',
    'localhost.example.com:8086',
    '127.0.0.1',
    '127.0.0.1:0',
    '127.0.0.1:70000',
    '',
  ])('refuses the non-loopback or malformed host %j', (host) => {
    expect(() => emulatorClientOptions(host)).toThrowError(EmulatorError);
    expect(() => emulatorClientOptions(host)).toThrowError(/refusing non-loopback emulator host/);
  });

  it('accepts [::1] as loopback but explains that the client cannot parse IPv6 literals', () => {
    expect(() => emulatorClientOptions('[::1]:8086')).toThrowError(/IPv6 literal/);
  });
});
