#!/usr/bin/env bash
# Smoke-runs the fuzz targets in fuzz/ (the SSE decoder and the partial-JSON parser of
# crates/foreman-stream, the one crate of Foreman's they build) for a bounded time each:
# `scripts/fuzz-smoke.sh [SECONDS]` (default 15). Installs cargo-fuzz if it is missing. Under
# `make test` each step's time is recorded (scripts/phase.sh). Exits non-zero if a target fails
# to build or finds a crash (the crashing input is left in fuzz/artifacts/<target>/).
#
# cargo-fuzz needs nightly compiler flags; RUSTC_BOOTSTRAP=1 lets the stable toolchain accept
# them. AddressSanitizer is used when it builds; otherwise (or with FUZZ_SANITIZER=none) the
# targets run without a sanitizer.
set -euo pipefail

seconds="${1:-15}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
phase="$root/scripts/phase.sh" # times each step under `make test`
export RUSTC_BOOTSTRAP=1

if ! cargo fuzz --version >/dev/null 2>&1; then
    "$phase" "fuzz-smoke/install cargo-fuzz" cargo install cargo-fuzz --locked
fi

cd "$root/fuzz"

# Seed corpora: the recorded provider streams and a few JSON documents (the first byte of a
# partial_json input picks the chunk size).
mkdir -p corpus/sse_decoder corpus/partial_json
for fixture in "$root"/crates/foreman-core/tests/fixtures/*.sse; do
    { printf '\x07'; cat "$fixture"; } >"corpus/sse_decoder/seed-$(basename "$fixture")"
done
printf '\x05{"path": "src/a.rs", "content": "fn main() {\\n\\tprintln!(\\"h\\u00e9 \\ud83d\\ude00\\");\\n}"}' \
    >corpus/partial_json/seed-object
printf '\x02[1, -2.5e3, 0, true, false, null, {"a": [[]], "b": {}}, "x\\\\y\\/z"]' \
    >corpus/partial_json/seed-array

sanitizer="${FUZZ_SANITIZER:-address}"
if [[ "$sanitizer" == address ]] && ! "$phase" "fuzz-smoke/build (ASan)" cargo fuzz build --sanitizer address; then
    echo "fuzz-smoke: AddressSanitizer build failed; running without a sanitizer" >&2
    sanitizer=none
fi

for target in sse_decoder partial_json; do
    echo "fuzz-smoke: $target for ${seconds}s (sanitizer: $sanitizer)"
    "$phase" "fuzz-smoke/run $target" \
        cargo fuzz run --sanitizer "$sanitizer" "$target" -- -max_total_time="$seconds"
done
echo "fuzz-smoke: no crashes"
