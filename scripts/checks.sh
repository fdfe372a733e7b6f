#!/usr/bin/env bash
# The static checks of `npm test` (lint, format, types), run side by side: each is one single-threaded process, so on
# a 2-core machine running them together takes about the time of the longest (eslint) instead of their sum. Each
# check's output is printed whole after it ends; the script fails if any check failed.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
names=(eslint prettier typecheck typecheck-web)
commands=(
  "eslint ."
  "prettier --check \"**/*.{ts,tsx,json,md}\" --log-level warn"
  "tsc -p tsconfig.json --noEmit"
  "tsc -p web/tsconfig.json"
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
