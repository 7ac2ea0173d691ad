#!/usr/bin/env bash
# Installs the appset-tools npm package (the CLI, one bundle, no dependencies: seconds, no build, no
# dev toolchain) into a folder of its own, outside the repository being checked, and says where
# `appset` is. The package is APPSET_TOOLS_VERSION: a version (default: the version of the
# package.json next to this script, i.e. the action or package this script came with) or any npm
# package spec (a tarball path or URL, a registry alias).
#   APPSET_TOOLS_PREFIX   the folder to install into (required)
#   GITHUB_OUTPUT         when set, `cli=<path of appset>` is written to it
# Prints the path of `appset` on the last line of standard output.
set -euo pipefail
prefix="${APPSET_TOOLS_PREFIX:?APPSET_TOOLS_PREFIX is the folder to install appset-tools into}"
here="$(cd "$(dirname "$0")/../.." && pwd)"
spec="${APPSET_TOOLS_VERSION:-}"
if [ -z "$spec" ]; then spec="$(node -p "require(process.argv[1]).version" "$here/package.json")"; fi
# A bare version (0.1.0, v0.1.0, ^0.1) names the registry package; anything else is a spec as it is.
if [[ "$spec" =~ ^[v^~]?[0-9] ]]; then spec="appset-tools@${spec#v}"; fi
mkdir -p "$prefix"
npm install --prefix "$prefix" --no-audit --no-fund --no-save --loglevel=error "$spec" >&2
cli="$prefix/node_modules/.bin/appset"
"$cli" --version >&2
if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "cli=$cli" >> "$GITHUB_OUTPUT"; fi
echo "$cli"
