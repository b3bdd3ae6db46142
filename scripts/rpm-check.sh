#!/usr/bin/env bash
# The .rpm's check, run by the install test. This Debian machine cannot install an .rpm the way
# Fedora does (dnf resolves the dependencies from Fedora's repositories), so the check reads the
# package with rpm's own tools instead: its metadata, the Fedora names of the libraries it
# requires, the files it installs, and the desktop entry and binary unpacked from it, which must
# answer `--version`.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)"
rpm_file="$(ls "$root"/target/release/bundle/rpm/Foreman-"$version"-*.x86_64.rpm 2>/dev/null | head -n1 || true)"
[ -n "$rpm_file" ] || { echo "rpm-check: no Foreman-$version rpm in target/release/bundle/rpm: run 'make package' first" >&2; exit 1; }
fail() { echo "rpm-check: $*" >&2; exit 1; }
echo "rpm-check: $(du -h "$rpm_file" | cut -f1) $rpm_file"

query() { rpm -qp --nosignature "$@" "$rpm_file" 2>/dev/null; }
[ "$(query --qf '%{VERSION}')" = "$version" ] || fail "version is '$(query --qf '%{VERSION}')', not $version"
[ "$(query --qf '%{LICENSE}')" = "MIT" ] || fail "licence is '$(query --qf '%{LICENSE}')'"
[ -n "$(query --qf '%{URL}')" ] || fail "no homepage"
[ -n "$(query --qf '%{SUMMARY}')" ] || fail "no summary"

# dnf pulls these on Fedora: the webview and GTK by their libraries' sonames, the Secret
# Service client by its package name.
requires="$(query -R)"
for dep in 'libwebkit2gtk-4.1.so.0()(64bit)' 'libgtk-3.so.0()(64bit)' libsecret; do
  grep -qx "$dep" <<<"$requires" || fail "does not require $dep (requires: $(tr '\n' ' ' <<<"$requires"))"
done

files="$(query -l)"
for path in /usr/bin/foreman /usr/share/applications/Foreman.desktop \
  /usr/share/icons/hicolor/32x32/apps/foreman.png /usr/share/icons/hicolor/512x512/apps/foreman.png; do
  grep -qx "$path" <<<"$files" || fail "does not install $path"
done

unpacked="$(mktemp -d)"
trap 'rm -rf "$unpacked"' EXIT
# Debian's rpm2cpio writes the whole archive but exits 1 for the bundler's unsigned package:
# what was unpacked is checked below instead.
(cd "$unpacked" && { rpm2cpio "$rpm_file" || true; } | cpio -idm --quiet)
entry="$unpacked/usr/share/applications/Foreman.desktop"
grep -qx "Exec=foreman %f" "$entry" || fail "its desktop entry has no 'Exec=foreman %f'"
grep -qx "MimeType=inode/directory;" "$entry" || fail "its desktop entry has no 'MimeType=inode/directory;'"
said="$(env -u DISPLAY -u WAYLAND_DISPLAY "$unpacked/usr/bin/foreman" --version)"
[ "$said" = "foreman $version" ] || fail "its foreman --version said '$said'"
echo "rpm-check: passed"
