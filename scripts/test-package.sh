#!/usr/bin/env bash
# npm run test:package: the library as apps install it, on whichever Node is
# first on PATH. Builds and packs the library once (scripts/pack.ts, in a
# private temporary folder: the repository's dist/ is not touched), then,
# all with that one tarball:
#
# - check:package: Are the Types Wrong? and publint;
# - the package tier (scripts/vitest.package.config.ts, test/package): ESM,
#   CommonJS, NestJS-starter and command-line consumers compiled against it
#   and run on the emulator, and one app compiled in each decorator mode
#   (TypeScript 5.9, and TypeScript 7 installed from npm into a cached folder);
# - scripts/test-nest.sh for each NestJS major in NEST_MAJORS (default
#   "10 12"; 11, the dev dependency, is what the two steps above use).
#
# Usage: npm run test:package
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

step() {
  local name="$1" started="$SECONDS"
  shift
  echo "test-package: ${name}" >&2
  "$@"
  echo "test-package: ${name}: passed in $((SECONDS - started)) s" >&2
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

started="$SECONDS"
tarball="$(node_modules/.bin/tsx scripts/pack.ts "$work")"
echo "test-package: built and packed $tarball in $((SECONDS - started)) s" >&2
export BIGTABLE_MAPPER_TARBALL="$tarball"

step "check:package" node_modules/.bin/tsx scripts/check-package.ts "$tarball"
step "package tier on Node $(node --version)" node_modules/.bin/vitest run --config scripts/vitest.package.config.ts
for major in ${NEST_MAJORS:-10 12}; do
  step "NestJS $major on Node $(node --version)" scripts/test-nest.sh "$major" "$tarball"
done
