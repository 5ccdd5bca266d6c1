import { uniqueTableId } from '../../../src/testing/unique-table-id.js';
import { describeDriverContract } from '../../contract/driver-contract.js';
import { FakeDriver } from '../../support/fake-driver.js';

describeDriverContract('FakeDriver', {
  open: () => new FakeDriver({ implicitTables: false }),
  tableId: uniqueTableId,
});
