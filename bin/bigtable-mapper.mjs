#!/usr/bin/env node
// The published package runs the built CLI; a clone without a build runs the sources through tsx.
import { existsSync } from 'node:fs';
import { URL } from 'node:url';

const built = new URL('../dist/esm/cli/main.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { tsImport } = await import('tsx/esm/api');
  await tsImport('../src/cli/main.ts', import.meta.url);
}
