#!/bin/sh
# Ships the release app without its symbol table and keeps the symbols beside the build, in
# target/release/foreman.debug, for crash reports (gdb and addr2line find it through the
# binary's .gnu_debuglink). Tauri runs this before it bundles (`beforeBundleCommand`). A binary
# stripped already (a second bundle of the same build) is left as it is, so its symbols are
# never overwritten with nothing.
set -eu
bin="${CARGO_TARGET_DIR:-target}/release/foreman"
if ! readelf -S "$bin" | grep -q '\.symtab'; then
    echo "split-debug: $bin is stripped already"
    exit 0
fi
objcopy --only-keep-debug "$bin" "$bin.debug"
objcopy --strip-all --add-gnu-debuglink="$bin.debug" "$bin"
ls -l "$bin" "$bin.debug"
