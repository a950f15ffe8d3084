#!/usr/bin/env bash
# Build the offline sandbox image `tandem/sandbox:node20` from the host's own binaries
# (no registry is reachable): node, npm, git, busybox-static and the shared libraries
# that ldd names, imported as one layer. About 8 s, about 190 MB.
set -euo pipefail
image=${TANDEM_SANDBOX_IMAGE:-tandem/sandbox:node20}
if [ "${1:-}" != "--force" ] && docker image inspect "$image" >/dev/null 2>&1; then
  echo "$image already present" >&2; exit 0
fi
root=$(mktemp -d /tmp/tandem-rootfs.XXXXXX)
trap 'rm -rf "$root"' EXIT
# shellcheck source=lib/copy-with-libs.sh
source "$(dirname "$0")/lib/copy-with-libs.sh"
node_bin=$(readlink -f "$(command -v node)")
node_prefix=$(dirname "$(dirname "$node_bin")")
copy_with_libs "$root" "$node_bin"
mkdir -p "$root/usr/local/bin" "$root/usr/local/lib"
[ "$node_bin" = /usr/local/bin/node ] || ln -sf "$node_bin" "$root/usr/local/bin/node"
# npm and npx ship as a JS package beside node.
cp -a "$node_prefix/lib/node_modules" "$root/usr/local/lib/" 2>/dev/null || true
if [ -d "$root/usr/local/lib/node_modules/npm" ]; then
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
fi
# git and its helpers (git-core holds the sub-commands, e.g. remote-http).
copy_with_libs "$root" "$(command -v git)"
if [ -d /usr/lib/git-core ]; then
  mkdir -p "$root/usr/lib"
  cp -a /usr/lib/git-core "$root/usr/lib/"
  for b in /usr/lib/git-core/git-remote-http /usr/lib/git-core/git; do [ -e "$b" ] && copy_with_libs "$root" "$b"; done
fi
mkdir -p "$root/usr/share"; cp -a /usr/share/git-core "$root/usr/share/" 2>/dev/null || true
# busybox gives sh, coreutils, timeout, patch and friends.
bb=$(command -v busybox)
mkdir -p "$root/bin" "$root/usr/bin" "$root/tmp" "$root/etc" "$root/root"
cp -L "$bb" "$root/bin/busybox"
for applet in $("$root/bin/busybox" --list); do
  [ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done
ln -sf /bin/busybox "$root/usr/bin/env"
chmod 1777 "$root/tmp"
echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"
echo 'root:x:0:' > "$root/etc/group"
echo 'hosts: files dns' > "$root/etc/nsswitch.conf"
tar -C "$root" -c . | docker import \
  --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
  --change 'ENV HOME=/root' \
  --change 'WORKDIR /' \
  - "$image" >/dev/null
echo "built $image" >&2
