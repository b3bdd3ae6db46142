#!/usr/bin/env bash
# Runs the end-to-end tests in a real window: a private D-Bus session with a real Secret Service,
# a virtual X display, tauri-driver + WebKitWebDriver, and the debug app build.
set -euo pipefail
cd "$(dirname "$0")"
root="$(cd ../.. && pwd)"
export FOREMAN_APP="${FOREMAN_APP:-$root/target/debug/foreman}"
export FOREMAN_SCREENSHOTS="${FOREMAN_SCREENSHOTS:-$root/target/e2e-screenshots}"
export NO_AT_BRIDGE=1
mkdir -p "$FOREMAN_SCREENSHOTS"
[ -x "$FOREMAN_APP" ] || { echo "missing $FOREMAN_APP: run 'make app' first" >&2; exit 1; }
# with-keyring.sh: a private D-Bus session with an unlocked gnome-keyring (a real Secret Service).
exec "$root/scripts/with-keyring.sh" xvfb-run -a -s "-screen 0 1400x900x24" \
  node --test --test-concurrency=1 --test-reporter=spec "${@:-specs/}"
