#!/usr/bin/env bash
# Bundles the Action (src/action/index.ts, which runs src/action/main.ts) into one ESM file for `runs.using: node24`, with the
# report templates copied next to it (src/report/templates.ts looks in `<bundle dir>/templates`).
#   bash scripts/build-action.sh [out-dir]     (default: dist)
# Deterministic: the same sources and node_modules give the same bytes, so CI can rebuild into a
# temporary folder and compare with the committed dist/ (test/unit/action-dist-up-to-date.test.ts).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/dist}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cd "$root"
version="$(node -p 'require("./package.json").version')"
# CommonJS dependencies use require(), __dirname and __filename, which an ESM module lacks.
banner="import { createRequire as __tandemCreateRequire } from 'node:module'; \
import { fileURLToPath as __tandemFileURLToPath } from 'node:url'; \
import { dirname as __tandemDirname } from 'node:path'; \
const require = __tandemCreateRequire(import.meta.url); \
const __filename = __tandemFileURLToPath(import.meta.url); \
const __dirname = __tandemDirname(__filename);"
"$root/node_modules/.bin/esbuild" src/action/index.ts \
  --bundle --platform=node --target=node20 --format=esm \
  --outfile="$out/index.js" \
  --banner:js="$banner" \
  --define:__TANDEM_VERSION__="\"$version\"" \
  --external:cpu-features --external:'*.node' \
  --legal-comments=eof --charset=utf8 --log-level=error
rm -rf "$out/templates"
cp -R templates "$out/templates"
