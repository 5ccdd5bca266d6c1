import { randomBytes } from 'node:crypto';

const MAX_LENGTH = 50;
let counter = 0;

/**
 * A fresh, valid Bigtable table id (`[_a-zA-Z0-9][-_.a-zA-Z0-9]*`, at most 50
 * characters) starting with the sanitized `prefix`: invalid characters become
 * `_`, and a time, counter and random suffix make every call unique.
 *
 * @example
 * ```ts
 * uniqueTableId('readings'); // 'readings-m3kq1z2a-0-9f3c1e'
 * ```
 */
export function uniqueTableId(prefix: string): string {
  counter = (counter + 1) % 1_296;
  const suffix = `-${Date.now().toString(36)}-${counter.toString(36)}-${randomBytes(3).toString('hex')}`;
  let head = prefix.replace(/[^-_.a-zA-Z0-9]/g, '_').slice(0, MAX_LENGTH - suffix.length);
  if (!/^[_a-zA-Z0-9]/.test(head)) head = `t${head}`.slice(0, MAX_LENGTH - suffix.length);
  return `${head}${suffix}`;
}
