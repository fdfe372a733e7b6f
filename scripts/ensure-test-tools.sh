#!/usr/bin/env bash
# Installs the Debian packages the tests drive when they are missing: chromium (the browser tests, test/e2e/web-ui*),
# skopeo (the registry's OCI client tests) and faketime (a process with a skewed clock, the start-up self-checks). Idempotent and quiet. The jest global setup runs it once per run,
# before any test worker starts, so parallel workers never race apt; nothing downloads a browser build of its own.
set -euo pipefail
browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
missing=()
[ -x "$browser" ] || missing+=(chromium fonts-liberation)
command -v skopeo >/dev/null 2>&1 || missing+=(skopeo)
command -v faketime >/dev/null 2>&1 || missing+=(faketime)
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
