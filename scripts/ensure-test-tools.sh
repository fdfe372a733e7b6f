#!/usr/bin/env bash
# Installs the Debian packages the tests drive when they are missing: chromium's headless shell (the browser tests,
# test/e2e/web-ui*: the headless engine Playwright itself drives by default, a third less CPU than the full browser),
# skopeo (the registry's OCI client tests), faketime (a process with a skewed clock, the start-up self-checks), prometheus
# (a real PromQL server for rollout verification) and docker-registry (a real OCI registry for image watch). Idempotent and quiet. The jest global setup runs it once per run,
# before any test worker starts, so parallel workers never race apt; nothing downloads a browser build of its own.
set -euo pipefail
browser="${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}"
missing=()
# The Debian package the path names (CHROMIUM_PATH=/usr/bin/chromium: the full browser), else the headless shell.
case "$(basename "$browser")" in
chromium) package=chromium ;;
*) package=chromium-headless-shell ;;
esac
[ -x "$browser" ] || missing+=("$package" fonts-liberation)
command -v skopeo >/dev/null 2>&1 || missing+=(skopeo)
command -v faketime >/dev/null 2>&1 || missing+=(faketime)
command -v prometheus >/dev/null 2>&1 || missing+=(prometheus)
command -v docker-registry >/dev/null 2>&1 || missing+=(docker-registry)
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
