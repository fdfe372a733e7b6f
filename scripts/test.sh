#!/usr/bin/env bash
# `npm test`: the static checks (scripts/checks.sh) side by side with jest's full run (the integration, workflows and
# tooling files in their batches, TEST_BATCHES=1), so the checks (ESLint, Prettier, tsc: single-threaded, about 2
# CPU-minutes) take the cycles jest leaves while its files wait instead of a minute of their own before it; on the
# 2-core machine the gain was within run-to-run noise (docs/CONTRIBUTING-SPINE.md). Each check's output is printed
# whole when it ends; the script fails if the checks or jest failed.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/checks.sh &
checks=$!
TEST_BATCHES=1 node_modules/.bin/jest "$@"
tests=$?
wait "$checks"
checked=$?
[ "$checked" -eq 0 ] || echo "test: the static checks failed (scripts/checks.sh)"
exit $((tests || checked))
