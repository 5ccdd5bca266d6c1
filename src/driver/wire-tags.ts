/*
 * Field tags, `(field << 3) | wire type`, as constants the encoders and decoders compare and write in
 * their hot loops: `VARn` is field n varint, `F64_n` field n fixed64, `LENn` field n length-delimited.
 */

/** Field 1, varint. @internal */
export const VAR1 = 0x08;
/** Field 2, varint. @internal */
export const VAR2 = 0x10;
/** Field 3, varint. @internal */
export const VAR3 = 0x18;
/** Field 4, varint. @internal */
export const VAR4 = 0x20;
/** Field 6, varint. @internal */
export const VAR6 = 0x30;
/** Field 7, varint. @internal */
export const VAR7 = 0x38;
/** Field 8, varint. @internal */
export const VAR8 = 0x40;
/** Field 9, varint. @internal */
export const VAR9 = 0x48;
/** Field 13, varint. @internal */
export const VAR13 = 0x68;
/** Field 2, fixed64. @internal */
export const F64_2 = 0x11;
/** Field 14, fixed64. @internal */
export const F64_14 = 0x71;
/** Field 1, length-delimited. @internal */
export const LEN1 = 0x0a;
/** Field 2, length-delimited. @internal */
export const LEN2 = 0x12;
/** Field 3, length-delimited. @internal */
export const LEN3 = 0x1a;
/** Field 4, length-delimited. @internal */
export const LEN4 = 0x22;
/** Field 5, length-delimited. @internal */
export const LEN5 = 0x2a;
/** Field 6, length-delimited. @internal */
export const LEN6 = 0x32;
/** Field 7, length-delimited. @internal */
export const LEN7 = 0x3a;
/** Field 8, length-delimited. @internal */
export const LEN8 = 0x42;
/** Field 9, length-delimited. @internal */
export const LEN9 = 0x4a;
/** Field 15, length-delimited. @internal */
export const LEN15 = 0x7a;
