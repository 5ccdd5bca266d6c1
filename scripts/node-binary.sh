#!/usr/bin/env bash
# Prints the bin folder of the newest Node MAJOR, taken from the npm package
# node-<platform>-<arch>@MAJOR (it ships the Node binary itself, no install
# script) and cached outside the repository under
# ${XDG_CACHE_HOME:-$HOME/.cache}/bigtable-mapper-ci/. Each version is
# downloaded once; without the registry, the newest cached one is used.
#
# Usage: PATH="$(scripts/node-binary.sh 22):$PATH" node --version
set -euo pipefail

major="${1:?usage: scripts/node-binary.sh MAJOR}"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/bigtable-mapper-ci"
package="node-$(node -p 'process.platform + "-" + process.arch')"
mkdir -p "$cache"

newest_published() {
  npm view "$package@$major" version --json 2>/dev/null |
    node -e '
      const out = JSON.parse(require("fs").readFileSync(0, "utf8"));
      const versions = [].concat(out).map((v) => v.split(".").map(Number));
      versions.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
      if (versions.length > 0) console.log(versions.at(-1).join("."));'
}

newest_cached() {
  find "$cache" -maxdepth 1 -type d -name "$package-$major.*" -printf '%f\n' |
    sed "s/^$package-//" | sort -t. -k1,1n -k2,2n -k3,3n | tail -n 1
}

version="$(newest_published || true)"
if [[ -z "$version" ]]; then
  version="$(newest_cached)"
  [[ -n "$version" ]] || { echo "node-binary: cannot resolve $package@$major (no registry, nothing cached)" >&2; exit 1; }
  echo "node-binary: registry unavailable, using cached $package@$version" >&2
fi

target="$cache/$package-$version"
if [[ ! -x "$target/bin/node" ]]; then
  echo "node-binary: downloading $package@$version into $cache" >&2
  work="$(mktemp -d "$cache/.download-XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "$package@$version" >/dev/null)
  mkdir -p "$work/unpacked"
  tar -xzf "$work"/*.tgz -C "$work/unpacked" --strip-components=1
  "$work/unpacked/bin/node" --version >/dev/null
  rm -rf "$target"
  mv "$work/unpacked" "$target"
fi
echo "$target/bin"
