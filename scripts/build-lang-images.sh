#!/usr/bin/env bash
# Build the offline language sandbox images on top of `tandem/sandbox:node20` (so a Node
# consumer and a Python or Go producer run in one container) from the host's own toolchains,
# as build-sandbox-image.sh does for Node: no registry is reachable.
#   tandem/sandbox:python3  Debian's python3 + pytest (apt: python3-pytest)
#   tandem/sandbox:go       Debian's Go toolchain (apt: golang-go), CGO off
# Skips an image that exists (or whose toolchain the host lacks); --force rebuilds.
# TANDEM_LANG_IMAGES (python3, go, or both space-separated; default both) picks which to build.
set -euo pipefail
base=${TANDEM_SANDBOX_IMAGE:-tandem/sandbox:node20}
force=${1:-}
docker image inspect "$base" >/dev/null 2>&1 || bash "$(dirname "$0")/build-sandbox-image.sh"

# shellcheck source=lib/copy-with-libs.sh
source "$(dirname "$0")/lib/copy-with-libs.sh"

# Builds image $1 from $base plus the rootfs folder $2, with extra Dockerfile lines $3.
import_layer() {
  local image=$1 root=$2 extra=$3 ctx
  ctx=$(mktemp -d /tmp/tandem-lang-ctx.XXXXXX)
  tar -C "$root" -cf "$ctx/layer.tar" .
  printf 'FROM %s\nADD layer.tar /\n%s\n' "$base" "$extra" > "$ctx/Dockerfile"
  DOCKER_BUILDKIT=0 docker build -q -t "$image" "$ctx" >/dev/null
  rm -rf "$ctx"
  echo "built $image" >&2
}

root=''
trap '[ -z "$root" ] || rm -rf "$root"' EXIT
only=" ${TANDEM_LANG_IMAGES:-python3 go} "
wanted() {
  [[ "$only" == *" ${1#tandem/sandbox:} "* ]] || return 1
  [ "$force" = --force ] || ! docker image inspect "$1" >/dev/null 2>&1
}

py=/usr/bin/python3
if wanted tandem/sandbox:python3 && [ -x "$py" ] && "$py" -c 'import pytest' 2>/dev/null; then
  root=$(mktemp -d /tmp/tandem-rootfs-py.XXXXXX)
  real=$(readlink -f "$py")
  ver=$("$py" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
  copy_with_libs "$root" "$real"
  ln -sf "$(basename "$real")" "$root/usr/bin/python3"
  ln -sf python3 "$root/usr/bin/python"
  mkdir -p "$root/usr/lib/python3/dist-packages"
  # The standard library without its own test suite; extension modules with their libraries.
  tar -C / --exclude="usr/lib/python$ver/test" --exclude='__pycache__' -cf - "usr/lib/python$ver" | tar -C "$root" -xf -
  for so in "/usr/lib/python$ver/lib-dynload/"*.so; do copy_with_libs "$root" "$so"; done
  # pytest and what it imports, from Debian's python3-pytest.
  for pkg in pytest _pytest py.py pluggy iniconfig packaging attr attrs exceptiongroup tomli; do
    src=/usr/lib/python3/dist-packages/$pkg
    [ -e "$src" ] && cp -a "$src" "$root/usr/lib/python3/dist-packages/"
  done
  printf '#!/bin/sh\nexec python3 -m pytest "$@"\n' > "$root/usr/bin/pytest"
  chmod +x "$root/usr/bin/pytest"
  import_layer tandem/sandbox:python3 "$root" 'ENV PYTHONDONTWRITEBYTECODE=1'
  rm -rf "$root"
fi

if wanted tandem/sandbox:go && command -v go >/dev/null; then
  root=$(mktemp -d /tmp/tandem-rootfs-go.XXXXXX)
  goroot=$(go env GOROOT)
  mkdir -p "$root$goroot" "$root/usr/bin"
  # The toolchain (Debian links parts of GOROOT into /usr/share) without its tests and docs.
  dirs=("${goroot#/}")
  for l in "$goroot"/*; do [ -L "$l" ] && dirs+=("$(readlink -f "$l" | sed 's|^/||')"); done
  tar -C / --exclude='*/test' --exclude='*/doc' --exclude='*/testdata' -cf - "${dirs[@]}" | tar -C "$root" -xf -
  ln -sf "$goroot/bin/go" "$root/usr/bin/go"
  ln -sf "$goroot/bin/gofmt" "$root/usr/bin/gofmt"
  import_layer tandem/sandbox:go "$root" "$(printf 'ENV CGO_ENABLED=0 GOFLAGS=-buildvcs=false GOPROXY=off GOROOT=%s' "$goroot")"
  rm -rf "$root"
fi
