export { ErrorCode, type ErrorCodeValue } from './error-codes.js';
export { BigtableMapperError } from './bigtable-mapper-error.js';
export { MetadataError } from './metadata-error.js';
export { KeyEncodingError } from './key-encoding-error.js';
export { ValueEncodingError } from './value-encoding-error.js';
export { ValidationError } from './validation-error.js';
export { EntityNotFoundError } from './not-found-error.js';
export { DriverError } from './driver-error.js';
export { SchemaSyncError } from './schema-sync-error.js';
export { EmulatorError } from './emulator-error.js';
export { PartialWriteError, type WriteFailure, type WriteStop } from './partial-write-error.js';
export {
  DeadlineExceededError,
  OperationAbortedError,
  UnreachableError,
  type DeadlineKind,
} from './operation-errors.js';
