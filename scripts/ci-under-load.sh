#!/usr/bin/env bash
# The suite's robustness check (not part of CI): runs `.ci/run` RUNS times in a row (default 3) on a fresh clone of
# this checkout while Debian's stress-ng keeps the cores busy (`stress-ng --cpu CPU_HOGS`, default 4), and prints each
# run's wall time, the load average and its result. The clone sits beside ../shared as CI's does; the hog is bounded
# by a timeout and stopped on exit.
set -euo pipefail
runs="${RUNS:-3}"
hogs="${CPU_HOGS:-4}"
here="$(cd "$(dirname "$0")/.." && pwd)"
command -v stress-ng >/dev/null 2>&1 || {
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq stress-ng >/dev/null
}
clone="$(dirname "$here")/under-load-$$"
git clone -q "$here" "$clone"
stress-ng --cpu "$hogs" --timeout "$((runs * 45))m" --quiet &
hog=$!
trap 'kill "$hog" 2>/dev/null || true; rm -rf "$clone"' EXIT
failed=0
for i in $(seq 1 "$runs"); do
  start=$(date +%s)
  if (cd "$clone" && CI=true bash .ci/run >"$clone.run-$i.log" 2>&1); then result=passed; else result=FAILED; failed=1; fi
  echo "run $i: $result in $(($(date +%s) - start)) s, load $(cut -d' ' -f1-3 /proc/loadavg); $(grep -E '^jest: ' "$clone.run-$i.log" | tail -n 1) (log: $clone.run-$i.log)"
done
exit "$failed"
