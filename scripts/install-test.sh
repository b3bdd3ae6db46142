#!/usr/bin/env bash
# The install test: installs the .deb that `make package` built with apt-get (which pulls its
# dependencies), checks `foreman --version` without a display, the desktop entry and the icons,
# opens the INSTALLED app under Xvfb through the e2e harness with a workspace argument, reads the
# .rpm (scripts/rpm-check.sh), and removes the package again, also when a step fails. Needs root
# (CI runs as root on a throwaway machine) and refuses to run where a `foreman` package is
# already installed, so it never removes someone's own installation.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)"
deb="$root/target/release/bundle/deb/Foreman_${version}_amd64.deb"
[ -f "$deb" ] || { echo "install-test: missing $deb: run 'make package' first" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "install-test: needs root (apt-get install)" >&2; exit 1; }
if dpkg-query -W -f='${Status}' foreman 2>/dev/null | grep -q "install ok installed"; then
  echo "install-test: a foreman package is already installed; remove it first (apt-get remove foreman)" >&2
  exit 1
fi

remove() {
  echo "install-test: removing the package"
  DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq foreman >/dev/null || true
}
trap remove EXIT

echo "install-test: $(du -h "$deb" | cut -f1) $deb"
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >/dev/null

fail() { echo "install-test: $*" >&2; exit 1; }

# --version answers without a display: it must not start GTK.
said="$(env -u DISPLAY -u WAYLAND_DISPLAY foreman --version)"
[ "$said" = "foreman $version" ] || fail "foreman --version said '$said', not 'foreman $version'"
env -u DISPLAY -u WAYLAND_DISPLAY foreman --help | grep -q "Usage: foreman \[DIR\]" \
  || fail "foreman --help has no usage line"

# The desktop entry opens a folder with Foreman ("Open with Foreman" in a file manager).
entry=/usr/share/applications/Foreman.desktop
[ -f "$entry" ] || fail "no desktop entry at $entry"
grep -qx "Exec=foreman %f" "$entry" || fail "$entry: no 'Exec=foreman %f'"
grep -qx "MimeType=inode/directory;" "$entry" || fail "$entry: no 'MimeType=inode/directory;'"
for size in 16x16 24x24 32x32 48x48 64x64 128x128 256x256 512x512; do
  [ -f "/usr/share/icons/hicolor/$size/apps/foreman.png" ] || fail "no $size icon"
done
# The runtime libraries came with the package's dependencies.
for lib in libwebkit2gtk-4.1-0 libsecret-1-0; do
  dpkg-query -W -f='${Status}' "$lib" | grep -q "install ok installed" || fail "$lib is not installed"
done

# The installed app in a real window, through the same harness as the e2e specs.
FOREMAN_APP=/usr/bin/foreman tests/e2e/run.sh install/

# The .rpm, read with rpm's own tools (installed here: only this test needs them).
for tool in rpm rpm2cpio cpio; do
  command -v "$tool" >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq rpm rpm2cpio cpio >/dev/null
done
scripts/rpm-check.sh
echo "install-test: passed"
