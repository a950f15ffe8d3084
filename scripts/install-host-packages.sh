#!/usr/bin/env bash
# Debian packages the test suite needs on the host, installed only when missing (idempotent):
#   patch, docker.io, busybox-static   the engine, the patch fallback chain, the sandbox image
#   golang-go, python3-pytest          toolchains the Go and Python sandbox images are built from
#   chromium, fonts-noto-color-emoji   headless browser for the HTML report and comment screenshots
#   postgresql                         the App store's PostgreSQL backend, tested on a local server
#                                      (scripts/start-postgres.sh)
# Used by `npm test` (pretest) and `.ci/run`, so a fresh machine needs no manual step.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
missing=()
command -v patch >/dev/null || missing+=(patch)
command -v dockerd >/dev/null || missing+=(docker.io)
command -v busybox >/dev/null || missing+=(busybox-static)
command -v go >/dev/null || missing+=(golang-go)
/usr/bin/python3 -c 'import pytest' 2>/dev/null || missing+=(python3-pytest)
command -v chromium >/dev/null || missing+=(chromium)
fc-list 2>/dev/null | grep -qi 'color emoji' || missing+=(fonts-noto-color-emoji)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "tandem: these Debian packages are needed and missing: ${missing[*]} (run as root, or install them)" >&2
  exit 1
fi
echo "installing Debian packages: ${missing[*]}" >&2
apt-get update -qq >/dev/null
apt-get install -y -qq "${missing[@]}" >/dev/null
