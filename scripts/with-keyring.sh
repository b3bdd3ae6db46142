#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with a real Secret Service: gnome-keyring, its
# keyrings in a temporary directory, unlocked with a test password. Used by `make test` so the
# keychain tests talk to the same kind of store the app uses on a Linux desktop, without ever
# touching the developer's own keyring.
set -euo pipefail
if [ -z "${FOREMAN_KEYRING_SESSION:-}" ]; then
  export FOREMAN_KEYRING_SESSION=1
  exec dbus-run-session -- "$0" "$@"
fi
keyring_home="$(mktemp -d)"
# The daemon exits with the private bus when dbus-run-session ends.
trap 'rm -rf "$keyring_home"' EXIT
export XDG_DATA_HOME="$keyring_home/data"
mkdir -p "$XDG_DATA_HOME"
eval "$(printf 'foreman-test-password' | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL
export FOREMAN_KEYRING_TESTS=1
"$@"
