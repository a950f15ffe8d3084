#!/usr/bin/env bash
# The newcomer's first run: sets up what it needs (dependencies, Docker engine, sandbox image),
# generates the embedded example organization and evaluates its linked change.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules/.bin ] || npm ci
bash scripts/start-docker.sh
bash scripts/build-sandbox-image.sh
out=$(mktemp -d /tmp/tandem-demo.XXXXXX)
case_file=$(node_modules/.bin/tsx examples/checkout/generate.ts "$out")
echo "example organization: $out (case: $case_file)" >&2
status=0
node bin/tandem.js eval "$case_file" --matrix full --cache-dir "$out/cache" \
  --json "$out/report.json" --markdown "$out/report.md" || status=$?
echo >&2
echo "reports: $out/report.json and $out/report.md (exit code $status)" >&2
exit "$status"
