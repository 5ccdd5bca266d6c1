export { ErrorCode, type ErrorCodeValue } from './bigtable-mapper-error.js';
export { BigtableMapperError } from './bigtable-mapper-error.js';
export { MetadataError } from './errors.js';
export { KeyEncodingError } from './errors.js';
export { ValueEncodingError } from './errors.js';
export { ValidationError, type ValidationIssue } from './errors.js';
export { EntityNotFoundError } from './errors.js';
export { DriverError } from './errors.js';
export { TableNotFoundError } from './errors.js';
export { SchemaSyncError } from './errors.js';
export { PartialWriteError, type WriteFailure, type WriteStop } from './operation-errors.js';
export {
  DeadlineExceededError,
  OperationAbortedError,
  UnreachableError,
  WriteOutcomeUnknownError,
  type DeadlineKind,
} from './operation-errors.js';
