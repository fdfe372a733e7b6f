#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests (test/e2e/web-ui*.test.ts) when it is missing: idempotent and
# quiet. The jest global setup runs it, so `npm test` on a fresh machine (CI included) gets the browser by apt-get;
# nothing downloads a browser build of its own.
set -euo pipefail
browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$browser" ] && exit 0
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null
