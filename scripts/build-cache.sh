#!/usr/bin/env bash
# A cache of the third-party crates Cargo compiled, so that `make test` in a clean clone compiles
# only Foreman's own crates (CI runs in a fresh clone every time).
#
#   scripts/build-cache.sh restore   if target/ holds no compiled crates yet (a fresh clone) and
#                                    the cache has an entry for this Cargo.lock and toolchain,
#                                    copies that entry's crates into target/ and fuzz/target/.
#                                    A target/ that has been built in is never touched.
#   scripts/build-cache.sh save      if the cache has no entry for them yet, copies the
#                                    third-party crates of target/ and fuzz/target/ into a new
#                                    one and removes older entries. `make test` saves only under
#                                    CI=true (or FOREMAN_BUILD_CACHE=1), so a developer's own
#                                    runs do not fill their disk.
#   scripts/build-cache.sh key       prints the entry's key.
#
# The cache lives in ${FOREMAN_TEST_CACHE:-~/.cache/foreman-tests}/cargo-deps-<key>/ (beside the
# local model); FOREMAN_BUILD_CACHE=0 turns it off. The key is a hash of Cargo.lock and
# fuzz/Cargo.lock, `rustc -vV` and `cargo -V`, .cargo/config.toml, the profiles in Cargo.toml and
# the versions of the system's -dev packages (what the -sys crates build against).
#
# Why a stale entry cannot make a test pass: only crates from the registry are cached, each
# immutable for its version and checksum in Cargo.lock. Foreman's own crates (every package whose
# name begins with `foreman`) and everything built from this clone's sources are left out, so they
# are always compiled from the clone. And Cargo uses a cached crate only when its own fingerprint
# matches (package version, features, profile, flags, compiler, the build script's inputs);
# anything else is rebuilt, as in an empty target/. At worst an entry saves nothing.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
cache="${FOREMAN_TEST_CACHE:-$HOME/.cache/foreman-tests}"
FORMAT=1 # bump when what is cached changes

key() {
  {
    echo "format $FORMAT $(uname -m)"
    cat Cargo.lock fuzz/Cargo.lock
    rustc -vV
    cargo -V
    cat .cargo/config.toml 2>/dev/null || true
    awk '/^\[/ { keep = ($0 ~ /^\[profile/) } keep' Cargo.toml
    dpkg-query -W -f='${Package} ${Version}\n' 'lib*-dev' 2>/dev/null | sort || true
  } | sha256sum | cut -c1-20
}

# The build folders of one profile: target/debug, target/release, and cargo-fuzz's.
profile_dirs() {
  local base
  for base in target fuzz/target; do
    [ -d "$base" ] || continue
    find "$base" -mindepth 1 -maxdepth 3 -type d -name .fingerprint -printf '%h\n'
  done
}

# The third-party entries of one profile folder, relative to it (without the temporary files
# of a compilation under way).
third_party() {
  (cd "$1" && find .fingerprint build deps -mindepth 1 -maxdepth 1 2>/dev/null) |
    grep -Ev '^(\.fingerprint|build|deps)/(lib)?foreman|\.rcgu\.o$|^deps/rmeta[[:alnum:]]{6}$' || true
}

compiled_crates_in() { [ -n "$(profile_dirs)" ]; }

[ "${FOREMAN_BUILD_CACHE:-1}" = 0 ] && { echo "build cache: off (FOREMAN_BUILD_CACHE=0)"; exit 0; }
entry="$cache/cargo-deps-$(key)"

case "${1:-}" in
key)
  basename "$entry"
  ;;
restore)
  if compiled_crates_in; then
    echo "build cache: target/ already holds compiled crates; not restoring"
  elif [ -f "$entry/.complete" ]; then
    echo "build cache: restoring third-party crates from $entry"
    (cd "$entry" && find . -mindepth 1 -maxdepth 1 ! -name .complete -printf '%P\n') |
      while read -r top; do
        mkdir -p "$top"
        cp -a "$entry/$top/." "$top/"
      done
    du -sh target fuzz/target 2>/dev/null || true
  else
    echo "build cache: no entry $(basename "$entry") yet; compiling everything"
  fi
  ;;
save)
  if [ -f "$entry/.complete" ]; then
    echo "build cache: $(basename "$entry") exists already"
    exit 0
  fi
  mkdir -p "$cache"
  # Never fill the disk for a cache: leave at least 4 GiB free beside the entry.
  need_kib="$(profile_dirs | while read -r dir; do third_party "$dir" | sed "s|^|$dir/|"; done |
    xargs -r du -sck | tail -n1 | cut -f1)"
  free_kib="$(df --output=avail -k "$cache" | tail -n1)"
  if [ "$((free_kib - ${need_kib:-0}))" -lt $((4 << 20)) ]; then
    echo "build cache: not saving $((${need_kib:-0} >> 20)) GiB with $((free_kib >> 20)) GiB free"
    exit 0
  fi
  work="$(mktemp -d "$cache/.cargo-deps-new.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  profile_dirs | while read -r dir; do
    mkdir -p "$work/$dir"
    third_party "$dir" | tar -C "$dir" --ignore-failed-read -cf - --files-from=- 2>/dev/null |
      tar -C "$work/$dir" -xf -
  done
  touch "$work/.complete"
  # Another run may have saved the same entry meanwhile: then keep that one.
  if mv -T "$work" "$entry" 2>/dev/null; then
    trap - EXIT
    echo "build cache: saved $(du -sh "$entry" | cut -f1) as $entry"
    find "$cache" -mindepth 1 -maxdepth 1 -name 'cargo-deps-*' ! -path "$entry" -exec rm -rf {} +
    find "$cache" -mindepth 1 -maxdepth 1 -name '.cargo-deps-new.*' -mmin +720 -exec rm -rf {} +
  fi
  ;;
*)
  echo "usage: scripts/build-cache.sh restore|save|key" >&2
  exit 2
  ;;
esac
