#!/usr/bin/env bash
# The static checks of `npm test`, side by side: ESLint and both TypeScript projects' type checks in one process
# (scripts/static-checks.ts: each program built once serves tsc's errors and ESLint's typed rules), and Prettier. On a
# 2-core machine the two together take about the time of the longer. Each check's output is printed whole after it
# ends; the script fails if any check failed. `npm run lint` and `npm run typecheck` run the same checks one by one.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
names=(eslint-and-types prettier)
commands=(
  "node --import tsx scripts/static-checks.ts"
  "prettier --check \"**/*.{ts,tsx,json,md}\" --log-level warn"
)
pids=()
for i in "${!names[@]}"; do
  bash -c "${commands[$i]}" >"$out/${names[$i]}" 2>&1 &
  pids+=($!)
done
failed=0
for i in "${!names[@]}"; do
  if wait "${pids[$i]}"; then
    echo "checks: ${names[$i]} ok"
  else
    failed=1
    echo "checks: ${names[$i]} FAILED (${commands[$i]})"
  fi
  cat "$out/${names[$i]}"
done
exit $failed
