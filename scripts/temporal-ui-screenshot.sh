#!/usr/bin/env bash
# Screenshot of the Temporal UI's workflow list, filtered by organization and project slug, with Debian chromium.
# Usage: start the platform (`npm start`: the embedded dev server serves its UI on TEMPORAL_UI_PORT, 8233), create a
# release, then:  scripts/temporal-ui-screenshot.sh <org-slug> <project-slug> [out.png]
set -euo pipefail
org="${1:?organization slug}"
project="${2:?project slug}"
out="${3:-docs/temporal-ui-workflows.png}"
ui="${TEMPORAL_UI_URL:-http://127.0.0.1:${TEMPORAL_UI_PORT:-8233}}"
query=$(node -e 'process.stdout.write(encodeURIComponent(process.argv[1]))' "OrganizationSlug=\"$org\" AND ProjectSlug=\"$project\"")
# The UI is a single-page app: give it virtual time to fetch and render the list before the shot.
"${CHROMIUM:-/usr/bin/chromium}" --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
  --window-size=1600,900 --virtual-time-budget=15000 --screenshot="$out" \
  "$ui/namespaces/${TEMPORAL_NAMESPACE:-default}/workflows?query=$query"
echo "wrote $out"
