/**
 * Where language tools keep their caches in a sandbox whose root file system is read-only: under
 * the step's HOME (a tmpfs), so a suite need not name them. Go's build cache (`GOCACHE`; `GOPATH`
 * already defaults to `$HOME/go`, and an image's own GOPATH is left alone, since it may hold the
 * modules an offline build needs), the XDG cache other tools follow, and pytest's cache folder:
 * pytest puts it under `TOX_ENV_DIR` when that is set (its only environment hook for it; an
 * option would break suites that disable the cache plugin), else in the rootdir, which may be
 * the read-only hidden folder or a checkout whose `git status` the suite checks.
 */
export function toolCacheEnv(home: string): string[] {
  return [
    `GOCACHE=${home}/.cache/go-build`,
    `XDG_CACHE_HOME=${home}/.cache`,
    `TOX_ENV_DIR=${home}/.cache/pytest`,
  ];
}
