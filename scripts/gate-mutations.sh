#!/bin/bash
# The fast tiers catch the four gates (issue 45 item 4): each gate is mutated in a scratch worktree of HEAD, then the
# unit and workflow tiers run; every mutation must fail at least one test. Prints one line per mutation; exits 1 when
# a mutation survives. Usage: bash scripts/gate-mutations.sh [audit governance approval signature]
set -u
root=$(git rev-parse --show-toplevel)
scratch=$(mktemp -d)
trap 'cd "$root" && git worktree remove --force "$scratch/tree" >/dev/null 2>&1; rm -rf "$scratch"' EXIT
git -C "$root" worktree add -q "$scratch/tree" HEAD
ln -s "$root/node_modules" "$scratch/tree/node_modules"
cd "$scratch/tree"

# file | the text as it is | the text mutated (still compiling: the tests, not the compiler, must catch it)
mutations() {
  case $1 in
    audit) echo "src/releases/creation-records.ts|const records: CreationRecord[] = [{ action: 'release.create', event: DOMAIN_EVENT.releaseCreated, extra: {} }];|const records: CreationRecord[] = [];" ;;
    governance) echo "src/governance/governance-verdict.ts|blocked: freezes.length > 0 && breakGlass === null|blocked: false && freezes.length > 0 && breakGlass === null" ;;
    approval) echo "src/approval-policies/approval-decision.ts|met: perPolicy.every((p) => p.met),|met: true || perPolicy.every((p) => p.met)," ;;
    signature) echo "src/webhooks/signature.ts|if (expected.length === mac.length && timingSafeEqual(expected, mac)) ok = true;|if (expected.length === mac.length || timingSafeEqual(expected, mac) || true) ok = true;" ;;
  esac
}

survived=0
for name in ${@:-audit governance approval signature}; do
  git checkout -q -- src
  IFS='|' read -r file from to <<<"$(mutations "$name")"
  node -e '
    const fs = require("fs");
    const [file, from, to] = process.argv.slice(1);
    const text = fs.readFileSync(file, "utf8");
    if (!text.includes(from)) { console.error(`${file}: the line to mutate is gone: ${from}`); process.exit(2); }
    fs.writeFileSync(file, text.replace(from, to));
  ' "$file" "$from" "$to" || exit 2
  # (Not the test that checks this script's targets: a mutated target is missing by design.)
  TEST_BATCHES=1 npx jest --selectProjects unit workflows --testPathIgnorePatterns gate-mutations >"$scratch/$name.log" 2>&1
  caught=$(grep -E '^\s+● ' "$scratch/$name.log" | sed -E 's/^\s+● //' | sort -u)
  if [ -n "$caught" ]; then
    echo "$name: caught by $(echo "$caught" | wc -l) test(s): $(echo "$caught" | head -2 | paste -sd ';')"
  else
    echo "$name: SURVIVED (no fast test failed)"
    survived=1
  fi
done
exit $survived
