# Sourced by the image builders: copy_with_libs ROOT FILE copies FILE (links followed) and every
# shared library `ldd` names for it into the folder ROOT at the same paths, so a host binary runs
# in an image built without a registry.
copy_with_libs() {
  local root=$1 bin=$2
  mkdir -p "$root$(dirname "$bin")"
  cp -L "$bin" "$root$bin"
  # An extension module may need nothing beyond libc: grep then finds nothing, which is fine.
  { ldd "$bin" 2>/dev/null | grep -o '/[^ ]*' || true; } | while read -r lib; do
    [ -e "$lib" ] || continue
    mkdir -p "$root$(dirname "$lib")"
    cp -Ln "$lib" "$root$lib"
  done
}
