#!/usr/bin/env bash
# Measures vow-migrate's parse + rewrite throughput on a generated tree (500,000 lines by
# default), single-threaded and on all cores, with peak memory. The tree goes to a temporary
# directory and is deleted afterwards; nothing is written into the repository.
#
#   Migration/Scripts/measure-throughput.sh [lines]
set -euo pipefail
lines="${1:-500000}"
package="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$package/.build-release"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

swift build -c release --package-path "$package" --scratch-path "$scratch" --product vow-migrate >&2
swift build -c release --package-path "$package" --scratch-path "$scratch" --product generate-callback-tree >&2
tool="$scratch/release/vow-migrate"
"$scratch/release/generate-callback-tree" "$work/tree" --lines "$lines" >&2

measure() {
    local label="$1"; shift
    # --check reads, parses, rewrites and re-parses every file but writes nothing.
    /usr/bin/time -f "$label: peak memory %M KiB, wall %e s, user %U s, system %S s" \
        "$tool" "$work/tree" --to promise --check "$@" > /dev/null 2> "$work/err" || true
    grep -E "vow-migrate: |peak memory" "$work/err"
    # Lines per CPU-second is the per-core figure, whatever else the machine is doing.
    awk -v lines="$lines" '/peak memory/ { for (i = 1; i <= NF; i++) { if ($i == "user") u = $(i + 1); if ($i == "system") s = $(i + 1) } }
        END { if (u + s > 0) printf "%s: %d lines per CPU-second\n", label, lines / (u + s) }' label="$label" "$work/err"
}
measure "1 core" --jobs 1
measure "all cores ($(nproc))"
