#!/usr/bin/env bash
# `npm test`: the static checks (scripts/checks.sh) side by side with jest's full run (the integration, workflows and
# tooling files in their batches, TEST_BATCHES=1), so the checks (ESLint, Prettier, tsc: single-threaded, about 2
# CPU-minutes) take the cycles jest leaves while its files wait instead of a minute of their own before it; on the
# 2-core machine the gain was within run-to-run noise (docs/CONTRIBUTING-SPINE.md). Each check's output is printed
# whole when it ends; the script fails if the checks or jest failed.
set -uo pipefail
cd "$(dirname "$0")/.."
# The worker count (jest.config.js): 2 a core while the machine has room, 1.5 a core while something else keeps it
# busy. Judged here by the idle share of the CPU over half a second, before the checks start: the load average still
# holds the npm ci that ran just before.
if [ -z "${TEST_WORKERS:-}" ] && [ -r /proc/stat ]; then
  read -r _ u n s i w q sq st _ </proc/stat
  sleep 0.5
  read -r _ u2 n2 s2 i2 w2 q2 sq2 st2 _ </proc/stat
  idle=$(((i2 + w2) - (i + w)))
  busy=$(((u2 + n2 + s2 + q2 + sq2 + st2) - (u + n + s + q + sq + st)))
  cores=$(nproc)
  if [ $((idle * 2)) -gt $((idle + busy)) ]; then TEST_WORKERS=$((cores * 2)); else TEST_WORKERS=$(((cores * 3 + 1) / 2)); fi
  export TEST_WORKERS
  echo "test: $TEST_WORKERS workers (CPU idle $((100 * idle / (idle + busy + 1))) % before the run)"
fi
bash scripts/checks.sh &
checks=$!
TEST_BATCHES=1 node_modules/.bin/jest "$@"
tests=$?
wait "$checks"
checked=$?
[ "$checked" -eq 0 ] || echo "test: the static checks failed (scripts/checks.sh)"
exit $((tests || checked))
