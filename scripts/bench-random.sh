#!/usr/bin/env bash
# The random-board benchmark: solves seeded random boards, then checks every line with
# `checkers verify` (the independent analyser), and prints the share proven, the lines found
# suboptimal, the lines the analyser could not decide, and the time spent.
#
# Usage (from the repository root): bash scripts/bench-random.sh [COUNT] [SEED] [TIME_LIMIT]
#   COUNT boards (default 300) of seed SEED (default 1), each solved with --time-limit TIME_LIMIT
#   (default 50, the solver's default). VERIFY_SECONDS (default 60) and VERIFY_KIB (default
#   4000000) bound each verification; a verification stopped by them counts as undecided.
#   JOBS (default 1) boards are solved and verified at once: the solver and the analyser use more
#   than one thread at times, so more jobs than cores slows each board and can make the deadline
#   cut lines that a quiet machine proves. KEEP=DIR keeps the boards, solutions and verdicts in
#   DIR; BIN=PATH uses that binary instead of building one.
#
# An unproven board whose proofs reached "no end within 25 plies" or more from the puzzle's
# position has no win or loss of at most 25 plies; the others are listed, since a short game end
# may exist there.
set -euo pipefail
count=${1:-300}
seed=${2:-1}
limit=${3:-50}
export verify_seconds=${VERIFY_SECONDS:-60}
export verify_kib=${VERIFY_KIB:-4000000}
jobs=${JOBS:-1}
if [ -z "${BIN:-}" ]; then
    cargo build --release -q
fi
export bin=${BIN:-$PWD/target/release/checkers}
export limit
export dir=${KEEP:-$(mktemp -d)}
mkdir -p "$dir"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$dir"' EXIT
"$bin" bench --random "$count" --seed "$seed" --boards-dir "$dir" --boards-only

# Solves and verifies one board; writes DIR/NAME.result: name, milliseconds, verdict, summary.
solve_one() {
    local board=$1 name solution start end ms summary verdict v
    name=$(basename "$board" .txt)
    solution=$dir/$name.solution.txt
    start=$(date +%s%N)
    summary=$("$bin" --inputfile "$board" --outputfile "$solution" --time-limit "$limit" 2>&1 | tail -1)
    end=$(date +%s%N)
    ms=$(((end - start) / 1000000))
    verdict=$( (ulimit -v "$verify_kib"; timeout "$verify_seconds" "$bin" verify --inputfile "$board" \
        --solution "$solution") 2>&1 || true)
    echo "$verdict" >"$dir/$name.verdict.txt"
    case $verdict in
        *"optimal:  yes"*) v=optimal ;;
        *"optimal:  no:"*) v=SUBOPTIMAL ;;
        *) v=undecided ;;
    esac
    printf '%s %d %s %s\n' "$name" "$ms" "$v" "$summary" >"$dir/$name.result"
}
export -f solve_one

wall_start=$(date +%s)
for board in "$dir"/random-"$seed"-*.txt; do
    case $board in *.solution.txt | *.verdict.txt) continue ;; esac
    printf '%s\0' "$board"
done | xargs -0 -P "$jobs" -I{} bash -c 'solve_one "$1"' _ {}
wall=$(($(date +%s) - wall_start))

proven=0 optimal=0 suboptimal=0 undecided=0 solve_total=0 beyond25=0
short=()
for result in "$dir"/random-"$seed"-*.result; do
    read -r name ms v summary <"$result"
    solve_total=$((solve_total + ms))
    case $v in
        optimal) optimal=$((optimal + 1)) ;;
        SUBOPTIMAL) suboptimal=$((suboptimal + 1)) ;;
        *) undecided=$((undecided + 1)) ;;
    esac
    case $summary in
        *"(proven optimal)"*) proven=$((proven + 1)) ;;
        *)
            # The first unproven move listed, K, follows K - 1 forced moves (a searched move
            # before it would have been proven, and the whole line with it): the puzzle has no
            # game end within its bound plus K - 1 plies.
            bound=$(sed -n 's/.*(not proven[^:]*: move \([0-9]*\): no end within \([0-9]*\) plies.*/\1 \2/p' <<<"$summary")
            [ -z "$bound" ] || bound=$(awk '{print $1 - 1 + $2}' <<<"$bound")
            if [ -n "$bound" ] && [ "$bound" -ge 25 ]; then
                beyond25=$((beyond25 + 1))
            else
                short+=("$name${bound:+ (no end within $bound)}")
            fi
            ;;
    esac
    printf '%s %6d ms  %-10s %s\n' "$name" "$ms" "$v" "$summary"
done
echo "boards: $count (seed $seed, --time-limit $limit, $jobs at once)"
echo "proven optimal by the solver: $proven ($((100 * proven / count))%)"
echo "unproven, proven to have no game end within 25 plies: $beyond25"
echo "unproven, a game end within 25 plies not ruled out: ${#short[@]}${short[*]:+: ${short[*]}}"
echo "verify: $optimal optimal, $suboptimal suboptimal, $undecided undecided (too large or over ${verify_seconds} s / ${verify_kib} KiB)"
echo "solving time: $((solve_total / 1000)) s in all, $((solve_total / count)) ms a board; $wall s of wall time"
