import { readFileSync } from 'node:fs';
import type { KeyPartType, SaltHashPreset } from '../../../src/model/declarations.js';
import type { KeyComponentSchema } from '../../../src/metadata/entity-schema.js';
import type { KeyComponentCodec } from '../../../src/codec/codec-contracts.js';

/** Hand-built key components for salt tests: `'=event'` is a literal, `'ts:timestamp'` a typed property. */
export function keyComponents(...spec: string[]): KeyComponentSchema[] {
  return spec.map((part, position) => {
    if (part.startsWith('=')) {
      return { kind: 'literal', position, literal: part.slice(1) };
    }
    const [property = part, type = 'string'] = part.split(':');
    return { kind: 'property', position, property, codec: stubCodec(type as KeyPartType) };
  });
}

function stubCodec(type: KeyPartType): KeyComponentCodec {
  return { type, width: undefined, descending: false, format: undefined, encode: (v) => String(v), decode: (t) => t };
}

/** One golden bucket vector. */
export interface BucketVector {
  preset: SaltHashPreset;
  input: string;
  buckets: number;
  bucket: number;
}

/** One salted key as a seed's code writes it. */
export interface SaltedKeyVector {
  recipe: string;
  preset: SaltHashPreset;
  buckets: number;
  width: number;
  separator: string;
  keySeparator: string;
  hashed: 'whole' | 'all-but-last';
  key: string;
  salted: string;
}

/** The golden file produced from the seeds' recipes. */
export interface SaltVectorFile {
  bucketCounts: number[];
  javaHashCodes: { input: string; hashCode: number }[];
  vectors: BucketVector[];
  saltedKeys: SaltedKeyVector[];
}

/** Reads a repository file relative to this test folder. */
export function readRepoFile(relative: string): string {
  return readFileSync(new URL(`../../../${relative}`, import.meta.url), 'utf8');
}

/** The parsed `test/golden/salt-vectors.json`. */
export const saltVectors: SaltVectorFile = JSON.parse(readRepoFile('test/golden/salt-vectors.json')) as SaltVectorFile;
