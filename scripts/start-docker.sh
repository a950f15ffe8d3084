#!/usr/bin/env bash
# Install (if needed) and start a Docker engine usable on this kind of machine:
# no registry, no bridge, no iptables. Idempotent: returns at once when the socket answers.
set -euo pipefail
log=${TANDEM_DOCKERD_LOG:-/tmp/tandem-dockerd.log}
if docker info >/dev/null 2>&1; then exit 0; fi
if ! command -v dockerd >/dev/null 2>&1; then
  echo "installing docker.io and busybox-static from Debian" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq docker.io busybox-static >/dev/null
fi
if ! command -v busybox >/dev/null 2>&1; then
  apt-get install -y -qq busybox-static >/dev/null
fi
# A daemon killed without cleanup (machine handed over, SIGKILL) leaves pid files that make the
# next dockerd refuse to start; remove them when their process is gone.
for pidfile in /var/run/docker.pid /var/run/docker/containerd/containerd.pid; do
  if [ -f "$pidfile" ] && ! kill -0 "$(cat "$pidfile" 2>/dev/null)" 2>/dev/null; then
    rm -f "$pidfile"
  fi
done
if pgrep -x dockerd >/dev/null 2>&1; then
  echo "dockerd is running but not answering yet; waiting" >&2
else
  echo "starting dockerd (log: $log)" >&2
  nohup dockerd --iptables=false --ip6tables=false --bridge=none >"$log" 2>&1 &
fi
for _ in $(seq 1 120); do
  if docker info >/dev/null 2>&1; then echo "docker engine ready" >&2; exit 0; fi
  sleep 0.5
done
echo "docker engine did not start; see $log" >&2
tail -20 "$log" >&2
exit 1
