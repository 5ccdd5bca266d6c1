#!/usr/bin/env bash
# Runs the NestJS integration tests and the packed-package consumers against
# NestJS MAJOR instead of the dev dependency (scripts/vitest.nest.config.ts),
# on whichever Node is first on PATH; npm run test:package runs it for each
# supported major other than the dev dependency's. NestJS MAJOR is installed
# from the npm registry together with the packed library TARBALL into
# ${XDG_CACHE_HOME:-$HOME/.cache}/bigtable-mapper-ci/nestjs-MAJOR, the way an
# app installs it (no --legacy-peer-deps), so npm itself checks the library's
# peer ranges against that major.
#
# Usage: scripts/test-nest.sh MAJOR TARBALL
set -euo pipefail

major="${1:?usage: scripts/test-nest.sh MAJOR TARBALL}"
tarball="${2:?usage: scripts/test-nest.sh MAJOR TARBALL}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
app="${XDG_CACHE_HOME:-$HOME/.cache}/bigtable-mapper-ci/nestjs-$major"
# The Terminus major that supports NestJS MAJOR: 11 (built on HealthIndicatorService) covers Nest 10 and 11.
terminus=$((major < 11 ? 11 : major))

mkdir -p "$app"
[[ -f "$app/package.json" ]] || echo '{ "name": "nestjs-app", "private": true }' >"$app/package.json"
(
  cd "$app"
  npm install --no-audit --no-fund --loglevel=error \
    "@nestjs/common@^$major" "@nestjs/core@^$major" "@nestjs/platform-express@^$major" "@nestjs/testing@^$major" \
    "@nestjs/terminus@^$terminus" "$tarball"
)
echo "test-nest: NestJS $(node -p "require('$app/node_modules/@nestjs/core/package.json').version") on Node $(node --version)"

cd "$root"
NEST_NODE_MODULES="$app/node_modules" BIGTABLE_MAPPER_NEST_MODULES="$app/node_modules" BIGTABLE_MAPPER_TARBALL="$tarball" \
  node_modules/.bin/vitest run --config scripts/vitest.nest.config.ts
