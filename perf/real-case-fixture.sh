#!/usr/bin/env bash
# Builds perf/fixtures/real-case/ from mirrors of the three public repositories (a maintenance
# step, not run by the bench: the bench uses the committed bundles). Per repository, one bundle of
# two commits on `main`: the PR's base tree (a root commit, the original author, date and message)
# and on top of it the PR's merged tree with every file under tests/ taken back to base — the
# "PR head" without the tests. The tests the PR touched are copied to hidden/<repo>/ for the suite.
# Usage: perf/real-case-fixture.sh MIRRORS_DIR   (MIRRORS_DIR/eslint+<name>/repo are bare mirrors)
set -euo pipefail
mirrors=$1
out=$(cd "$(dirname "$0")" && pwd)/fixtures/real-case
rm -rf "$out/bundles" "$out/hidden"
mkdir -p "$out/bundles" "$out/hidden"

# name  base  merged-PR-commit
cases=(
  "eslint-visitor-keys d15b95435c7732b8ade7b607d3bb3242f95a8c4f c92dd7ff96f0044dba12d681406a025b92b4c437"
  "espree 0cc78007c933564f32fd849bd8022992845c3ac1 872645cea0bee08960b93c097f84153d44b44d7f"
  "eslint 540b1af77278ae649b621aa8d4bf8d6de03c3155 6ea3178776eae0e40c3f5498893e8aab0e23686b"
)

for c in "${cases[@]}"; do
  read -r name base pr <<<"$c"
  src="$mirrors/eslint+$name/repo"
  work=$(mktemp -d)
  git init -q -b main "$work/r"
  echo "$(cd "$src" && pwd)/objects" >"$work/r/.git/objects/info/alternates"
  g() { git -C "$work/r" "$@"; }
  commit() { # commit-tree with the original commit's author, committer and message
    local orig=$1 tree=$2; shift 2
    GIT_AUTHOR_NAME=$(g log -1 --format=%an "$orig") GIT_AUTHOR_EMAIL=$(g log -1 --format=%ae "$orig") \
    GIT_AUTHOR_DATE=$(g log -1 --format=%aD "$orig") GIT_COMMITTER_NAME=$(g log -1 --format=%cn "$orig") \
    GIT_COMMITTER_EMAIL=$(g log -1 --format=%ce "$orig") GIT_COMMITTER_DATE=$(g log -1 --format=%cD "$orig") \
      g commit-tree "$tree" "$@" -m "$(g log -1 --format=%B "$orig")"
  }
  # Blobs the mirror lacks (espree's multi-megabyte tests/fixtures/libraries/*.result.json, which
  # the suite does not use) are left out of both trees; the bench README lists them.
  drop_missing() {
    g ls-files -s | while read -r _ o _ p; do g cat-file -e "$o" 2>/dev/null || echo "$p"; done |
      while read -r p; do echo "  left out (not in the mirror): $p" >&2; g rm -q --cached -- "$p"; done
  }
  g read-tree "$base"
  drop_missing
  b=$(commit "$base" "$(g write-tree)")
  # The PR's tree with tests/ as in base: the hidden tests stay with the evaluator.
  g read-tree "$pr"
  g rm -r -q --cached --ignore-unmatch -- tests
  g read-tree --prefix=tests/ "$b:tests" 2>/dev/null || true
  drop_missing
  h=$(commit "$pr" "$(g write-tree)" -p "$b")
  g update-ref refs/heads/main "$b"
  g update-ref refs/heads/pr "$h"
  g bundle create -q "$out/bundles/$name.bundle" main pr
  # The PR's test changes: added or modified files under tests/, as the PR has them.
  g diff --name-only --diff-filter=AM "$base" "$pr" -- tests | while read -r f; do
    mkdir -p "$out/hidden/$name/$(dirname "$f")"
    g show "$pr:$f" >"$out/hidden/$name/$f"
  done
  echo "$name base $base -> $b, PR $pr -> head $h"
  rm -rf "$work"
done
du -sh "$out/bundles" "$out/hidden"
