#!/usr/bin/env bash
# Measures vow-migrate's throughput and peak memory in a release build, on one core (--jobs 1):
#
#   1. one file of 10,000 lines,
#   2. one file of 500,000 lines (the scale targets: >= 20,000 lines per CPU-second,
#      peak memory <= 20x the file's size),
#   3. a tree of about 2,000 files of about 257 lines (514,000 lines), then the same tree on all cores,
#   4. one file of 10,000 top-level classes (about 16.6 MB: generated code's shape),
#   5. both large files in each mode (`--diff`, `--check`, `--in-place`) and stage
#      (`--stage declarations`, `--stage all`): peak memory at most 20x the file in each.
#
# Inputs come from `generate-callback-tree` into a temporary directory, deleted afterwards;
# nothing is written into the repository. Runs 1 to 4 are `--to promise --check` (each reads,
# parses, rewrites and re-parses every file but writes nothing); run 5 is in both forms (the
# async form's alternatives are longer, its peak higher), and its `--in-place` rewrites a copy.
#
#   Migration/Scripts/measure-throughput.sh             all of the above
#   Migration/Scripts/measure-throughput.sh --smoke     a 2,000-line file and a 20-file tree,
#                                                        in a debug build (checks the script runs)
set -euo pipefail
package="$(cd "$(dirname "$0")/.." && pwd)"
configuration=release
big=500000 small=10000 tree_files=2000 tree_file_lines=250 classes=10000 classes_lines=481000
if [ "${1:-}" = "--smoke" ]; then
    configuration=debug big=2000 small=500 tree_files=20 tree_file_lines=100 classes=40 classes_lines=2000
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# SCRATCH_PATH, if set, is the build directory to use (a release build kept apart from the debug one).
scratch=(${SCRATCH_PATH:+--scratch-path "$SCRATCH_PATH"})
swift build -c "$configuration" --package-path "$package" "${scratch[@]}" --product vow-migrate >&2
swift build -c "$configuration" --package-path "$package" "${scratch[@]}" --product generate-callback-tree >&2
bin="$(swift build -c "$configuration" --package-path "$package" "${scratch[@]}" --show-bin-path)"
generate="$bin/generate-callback-tree"
"$generate" "$work/small" --lines "$small" --lines-per-file "$small" >&2
"$generate" "$work/big" --lines "$big" --lines-per-file "$big" >&2
"$generate" "$work/classes" --lines $((classes_lines - 10)) --lines-per-file "$classes_lines" --top-level-types "$classes" >&2
# A file of --lines-per-file 250 comes out at about 257 lines.
"$generate" "$work/tree" --lines $((tree_files * (tree_file_lines + 7))) --lines-per-file "$tree_file_lines" >&2

printf '%-46s %9s %6s %9s %8s %16s %12s %10s\n' run lines files MB "wall s" "lines/CPU-s" "peak MB" "peak/size"
measure() {
    local label="$1" path="$2"; shift 2
    local lines files bytes
    lines=$(find "$path" -name '*.swift' -exec cat {} + | wc -l)
    files=$(find "$path" -name '*.swift' | wc -l)
    bytes=$(find "$path" -name '*.swift' -exec cat {} + | wc -c)
    local largest
    largest=$(find "$path" -name '*.swift' -printf '%s\n' | sort -n | tail -1)
    # `--check` unless the run names its mode (`--diff`, `--in-place`).
    local mode=--check
    case " $* " in *" --diff "*|*" --check "*|*" --in-place "*) mode= ;; esac
    /usr/bin/time -f "%M %e %U %S" -o "$work/time" \
        "$bin/vow-migrate" "$path" --to "${target:-promise}" $mode "$@" > /dev/null 2> "$work/err" || true
    if ! grep -q "^vow-migrate: .* lines in " "$work/err"; then
        echo "measure-throughput: '$label' did not finish:" >&2
        cat "$work/err" >&2
        exit 1
    fi
    read -r peak wall user system < <(tail -1 "$work/time")
    awk -v label="$label" -v lines="$lines" -v files="$files" -v bytes="$bytes" -v largest="$largest" \
        -v peak="$peak" -v wall="$wall" -v user="$user" -v sys="$system" 'BEGIN {
        cpu = user + sys; if (cpu <= 0) cpu = 0.01
        printf "%-46s %9d %6d %9.1f %8.2f %16d %12.1f %9.1fx\n", label, lines, files, bytes / 1e6, wall,
            lines / cpu, peak / 1024, peak * 1024 / largest
    }'
}
measure "one file, ${small} lines" "$work/small" --jobs 1
measure "one file, ${big} lines" "$work/big" --jobs 1
measure "${tree_files} files, 1 core" "$work/tree" --jobs 1
measure "${tree_files} files, all cores ($(nproc))" "$work/tree"
measure "one file, ${classes} top-level classes" "$work/classes" --jobs 1
for target in promise async; do
    for shape in big classes; do
        for stage in declarations all; do
            for mode in --diff --check --in-place; do
                path="$work/$shape"
                if [ "$mode" = --in-place ]; then
                    rm -rf "$work/copy"
                    cp -r "$work/$shape" "$work/copy"
                    path="$work/copy"
                fi
                measure "$shape, --to $target --stage $stage $mode" "$path" --jobs 1 --stage "$stage" "$mode"
            done
        done
    done
done
echo "(peak/size: peak memory over the largest file's size; lines/CPU-s: lines over user + system time, the per-core rate)"
