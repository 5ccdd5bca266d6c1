/**
 * `bigtable-mapper/nest/terminus`: the `@nestjs/terminus` health indicator of
 * the application's mapper. A separate entry point, so `bigtable-mapper/nest`
 * works without Terminus; this one needs the optional peer
 * `@nestjs/terminus` (11 or later) beside `@nestjs/common` and `@nestjs/core`.
 *
 * @example
 * ```ts
 * import { BigtableHealthIndicator } from 'bigtable-mapper/nest/terminus';
 * ```
 *
 * @module bigtable-mapper/nest/terminus
 */
export {
  BigtableHealthIndicator,
  type BigtableHealthCheckOptions,
  type BigtableHealthDetails,
} from './health-indicator.js';
