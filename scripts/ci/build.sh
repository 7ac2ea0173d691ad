#!/usr/bin/env bash
# Builds the CLI (dist/cli.js) in the appset-tools checkout the CI job uses, once.
set -euo pipefail
cd "${APPSET_TOOLS_DIR:?APPSET_TOOLS_DIR is the appset-tools checkout}"
if [ ! -f dist/cli.js ]; then
  npm ci --no-audit --no-fund --ignore-scripts >/dev/null
  node esbuild.js
fi
node dist/cli.js --version
