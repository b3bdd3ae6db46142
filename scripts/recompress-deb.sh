#!/bin/sh
# Recompresses the .deb that Tauri bundled: its files go in as data.tar.gz (gzip), which
# `make package` swaps for data.tar.xz (xz -9), the same tar, about a third smaller. dpkg and apt
# read xz in every release that can run the app. A .deb that holds data.tar.xz already (a second
# run on the same bundle) is left as it is.
set -eu
for deb in "$@"; do
    if ar t "$deb" | grep -qx 'data.tar.xz'; then
        echo "recompress-deb: $deb is xz already"
        continue
    fi
    path="$(realpath "$deb")"
    work="$(mktemp -d)"
    (
        cd "$work"
        ar x "$path"
        [ -f debian-binary ] && [ -f data.tar.gz ] || { echo "recompress-deb: unexpected members in $deb" >&2; exit 1; }
        control="$(ls control.tar.*)"
        gzip -dc data.tar.gz | xz -9 -c > data.tar.xz
        # The member order dpkg requires: debian-binary, control, data.
        ar rc new.deb debian-binary "$control" data.tar.xz
    )
    before="$(wc -c < "$deb")"
    mv "$work/new.deb" "$deb"
    rm -rf "$work"
    echo "recompress-deb: $deb $before -> $(wc -c < "$deb") bytes"
done
