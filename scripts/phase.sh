#!/usr/bin/env bash
# Times the steps of `make test`, so the next person can see where a CI run's time goes.
#
#   scripts/phase.sh NAME CMD...      runs CMD. Under `make test` (FOREMAN_PHASES names a file) it
#                                     also adds one line to that file: when CMD started, its wall
#                                     time and its exit status. NAME is `phase/step` (`lint/clippy`)
#                                     or a phase alone. Outside `make test` it only runs CMD.
#   scripts/phase.sh --report CMD...  runs CMD with FOREMAN_PHASES set to a new file, then prints
#                                     each phase's wall time with its steps, in the order they
#                                     started, and the whole run's; also when CMD failed. Exits
#                                     with CMD's status.
set -uo pipefail

now() { date +%s.%N; }

if [ "${1:-}" = --report ]; then
  shift
  log="$(mktemp "${TMPDIR:-/tmp}/foreman-phases.XXXXXX")"
  start="$(now)"
  FOREMAN_PHASES="$log" "$@"
  status=$?
  end="$(now)"
  python3 - "$log" "$start" "$end" "$status" <<'PY'
import sys

log, start, end, status = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
rows = []
for line in open(log, encoding="utf-8"):
    began, seconds, code, name = line.rstrip("\n").split("\t", 3)
    rows.append((float(began), float(seconds), int(code), name))
rows.sort()
# A phase's time is its own line's when it has one (a script that times its steps inside it),
# else the sum of its steps.
phases = {}
for began, seconds, code, name in rows:
    phase, _, step = name.partition("/")
    entry = phases.setdefault(phase, {"began": began, "steps": [], "whole": None, "failed": False})
    entry["began"] = min(entry["began"], began)
    entry["failed"] |= code != 0
    if step:
        entry["steps"].append((step, seconds, code))
    else:
        entry["whole"] = seconds
for entry in phases.values():
    steps = sum(seconds for _, seconds, _ in entry["steps"])
    entry["seconds"] = steps if entry["whole"] is None else entry["whole"]


def clock(seconds):
    minutes, rest = divmod(round(seconds), 60)
    return f"{seconds:8.1f} s  {minutes:3d}:{rest:02d}"


total = end - start
print()
print(f"make test: wall time by phase ({'passed' if status == 0 else f'FAILED, exit {status}'})")
for phase, entry in sorted(phases.items(), key=lambda item: item[1]["began"]):
    mark = "  FAILED" if entry["failed"] else ""
    print(f"  {phase:<34}{clock(entry['seconds'])}{mark}")
    for step, seconds, code in entry["steps"]:
        mark = "  FAILED" if code else ""
        print(f"      {step:<30}{clock(seconds)}{mark}")
counted = sum(entry["seconds"] for entry in phases.values())
print(f"  {'(make, checks of what is there)':<34}{clock(max(total - counted, 0.0))}")
print(f"  {'total':<34}{clock(total)}")
PY
  rm -f "$log"
  exit "$status"
fi

name="${1:?usage: scripts/phase.sh NAME CMD... | --report CMD...}"
shift
if [ -z "${FOREMAN_PHASES:-}" ]; then
  exec "$@"
fi
began="$(now)"
"$@"
status=$?
ended="$(now)"
seconds="$(awk -v a="$began" -v b="$ended" 'BEGIN { printf "%.3f", b - a }')"
printf '%s\t%s\t%s\t%s\n' "$began" "$seconds" "$status" "$name" >>"$FOREMAN_PHASES"
exit "$status"
