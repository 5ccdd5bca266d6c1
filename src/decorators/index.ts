export { Entity } from './entity.decorator.js';
export { KeyPart } from './key-part.decorator.js';
export { Salt } from './salt.decorator.js';
export { Family } from './family.decorator.js';
export { Column } from './column.decorator.js';
export { CellTimestamp } from './cell-timestamp.decorator.js';
export { Denormalized } from './denormalized.decorator.js';
export type { MapperClassDecorator, MapperPropertyDecorator } from './decorator-types.js';
