#!/usr/bin/env bash
# The random-board benchmark: solves seeded random boards one by one, then checks every line with
# `checkers verify` (the independent analyser), and prints the share proven, the lines found
# suboptimal, the lines the analyser could not decide, and the time spent.
#
# Usage (from the repository root): bash scripts/bench-random.sh [COUNT] [SEED] [TIME_LIMIT]
#   COUNT boards (default 300) of seed SEED (default 1), each solved with --time-limit TIME_LIMIT
#   (default 50, the solver's default). VERIFY_SECONDS (default 60) and VERIFY_KIB (default
#   4000000) bound each verification; a verification stopped by them counts as undecided.
#   KEEP=DIR keeps the boards, solutions and verdicts in DIR; BIN=PATH uses that binary instead
#   of building one.
set -euo pipefail
count=${1:-300}
seed=${2:-1}
limit=${3:-50}
verify_seconds=${VERIFY_SECONDS:-60}
verify_kib=${VERIFY_KIB:-4000000}
if [ -z "${BIN:-}" ]; then
    cargo build --release -q
fi
bin=${BIN:-$PWD/target/release/checkers}
dir=${KEEP:-$(mktemp -d)}
mkdir -p "$dir"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$dir"' EXIT
"$bin" bench --random "$count" --seed "$seed" --boards-dir "$dir" --boards-only

proven=0 optimal=0 suboptimal=0 undecided=0 solve_total=0
for board in "$dir"/random-"$seed"-*.txt; do
    case $board in *.solution.txt) continue ;; esac
    name=$(basename "$board" .txt)
    solution=$dir/$name.solution.txt
    start=$(date +%s%N)
    summary=$("$bin" --inputfile "$board" --outputfile "$solution" --time-limit "$limit" 2>&1 | tail -1)
    end=$(date +%s%N)
    ms=$(((end - start) / 1000000))
    solve_total=$((solve_total + ms))
    case $summary in *"(proven optimal)"*) proven=$((proven + 1)) ;; esac
    verdict=$( (ulimit -v "$verify_kib"; timeout "$verify_seconds" "$bin" verify --inputfile "$board" \
        --solution "$solution") 2>&1 || true)
    echo "$verdict" >"$dir/$name.verdict.txt"
    case $verdict in
        *"optimal:  yes"*) optimal=$((optimal + 1)); v=optimal ;;
        *"optimal:  no:"*) suboptimal=$((suboptimal + 1)); v=SUBOPTIMAL ;;
        *) undecided=$((undecided + 1)); v=undecided ;;
    esac
    printf '%s %6d ms  %-10s %s\n' "$name" "$ms" "$v" "$summary"
done
echo "boards: $count (seed $seed, --time-limit $limit)"
echo "proven optimal by the solver: $proven ($((100 * proven / count))%)"
echo "verify: $optimal optimal, $suboptimal suboptimal, $undecided undecided (too large or over ${verify_seconds} s / ${verify_kib} KiB)"
echo "solving time: $((solve_total / 1000)) s in all, $((solve_total / count)) ms a board"
