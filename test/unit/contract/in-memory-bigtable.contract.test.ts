import { uniqueTableId } from '../../../src/testing/unique-table-id.js';
import { InMemoryBigtable } from '../../../src/testing/in-memory-driver.js';
import { describeDriverContract } from '../../contract/driver-contract.js';

describeDriverContract('InMemoryBigtable', {
  open: () => new InMemoryBigtable(),
  tableId: uniqueTableId,
});
