import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import { describeDriverContract } from '../../contract/driver-contract.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';

describeDriverContract('GoogleCloudDriver on the emulator', {
  open: () => createGoogleCloudDriver({ emulatorHost: emulatorHost(), instance: testInstanceId }),
  tableId: uniqueTableId,
});
