#!/usr/bin/env bash
# The random-board benchmark (docs/bench-random.md): solves seeded random boards, checks every
# line with `checkers verify` (the independent analyser, a verdict per move), and prints the share
# the solver proved, the lines verify refuted, decided and left undecided, and the time used.
#
# Usage (from the repository root): bash scripts/bench-random.sh [COUNT] [SEED] [TIME_LIMIT]
#   COUNT boards (default 100) of seed SEED (default 1), each solved with --time-limit TIME_LIMIT
#   (default 50, the solver's default).
# Environment:
#   DIR=PATH        where boards, lines, verdicts and results go (default:
#                   $TMPDIR/checkers-bench-random-SEED-LIMIT, with -egdb when EGDB is set). The
#                   run is resumable: a board with a result (NAME.result) is neither solved nor
#                   verified again; a board whose line was written (NAME.solved) is only verified
#                   again, so an interrupted verification is redone (a verification killed, its
#                   exit code 128 or more, leaves no result). Delete DIR to start afresh.
#   VERIFY_SECONDS  verify's --max-seconds (default 300; verify turns it into a node budget at a
#                   fixed rate, so verdicts do not depend on the load; the clock is a safety net).
#   VERIFY_MB       verify's --max-mb (default 10000): each job's analysis stays within it.
#   JOBS            boards solved and verified at once (default 1). Each verification may take
#                   VERIFY_MB of memory: JOBS=2 needs twice that.
#   EGDB=DIR        solve with the endgame databases of DIR (checkers egdb build --pieces 6),
#                   and verify with them too (verify --egdb) unless VERIFY_EGDB=0. Without it
#                   neither reads a database directory (not even $CHECKERS_EGDB or the default
#                   one): the figures of a machine without them.
#   BIN=PATH        use that binary instead of building one.
#   SOLVE_ONLY=1    solve the boards (writing NAME.solved) and stop before verifying: the solving,
#                   whose line can depend on the load, then runs with JOBS=1 on an idle machine,
#                   and the same command without SOLVE_ONLY verifies (node-budgeted) with more jobs.
#   VERIFY_ONLY=1   verify only the boards already solved (beside a SOLVE_ONLY run, on the core
#                   it leaves idle); boards without a line are passed over.
#   SOLVE_ARGS      more options of the solver, e.g. "--eval puzzle" (the A/B baseline of the
#                   evaluation that chooses unproven moves); give each setting its own DIR.
#   ONLY=NAME       solve and verify only the board NAME (e.g. random-1-007), as one job of the
#                   workflow (workflow/Snakefile: a solve job with SOLVE_ONLY=1, then a verify
#                   job with VERIFY_ONLY=1; the summary is this script again without ONLY).
#   SAME_AS=DIR     a line byte for byte the same as DIR's line of that board, which DIR has
#                   verified (NAME.verdict.txt), takes that verdict without verifying again
#                   (`verify` is deterministic for the same line and limits; its time then counts
#                   0): an A/B run against a verified benchmark verifies only the lines that
#                   differ. Use it only with the same VERIFY_SECONDS, VERIFY_MB and EGDB.
set -euo pipefail
count=${1:-100}
seed=${2:-1}
limit=${3:-50}
export verify_seconds=${VERIFY_SECONDS:-300}
export verify_mb=${VERIFY_MB:-10000}
jobs=${JOBS:-1}
if [ -z "${BIN:-}" ]; then
    cargo build --release -q
fi
export bin=${BIN:-$PWD/target/release/checkers}
export limit
export solve_args=${SOLVE_ARGS:-}
export solve_only=${SOLVE_ONLY:-0}
export verify_only=${VERIFY_ONLY:-0}
export same_as=${SAME_AS:-}
export dir=${DIR:-${KEEP:-${TMPDIR:-/tmp}/checkers-bench-random-$seed-$limit${EGDB:+-egdb}}}
mkdir -p "$dir"
if [ -n "${EGDB:-}" ]; then
    [ -d "$EGDB" ] || { echo "EGDB=$EGDB is not a directory" >&2; exit 2; }
    export egdb_args="--egdb $EGDB"
    if [ "${VERIFY_EGDB:-1}" = 0 ]; then
        export verify_egdb_args=""
    else
        export verify_egdb_args="--egdb $EGDB"
    fi
else
    # A directory that does not exist: the solver then builds its small databases on the spot.
    export CHECKERS_EGDB=$dir/no-egdb
    export egdb_args=""
    export verify_egdb_args=""
fi

# Solves (unless done) and verifies one board; NAME.result is written last, by a rename:
# name, solve ms, verify ms, verdict, moves decided, moves, verify's exit code, solver summary.
solve_one() {
    local board=$1 name start ms vms rc v decided moves summary
    name=$(basename "$board" .txt)
    [ -e "$dir/$name.result" ] && return 0
    if [ ! -e "$dir/$name.solved" ]; then
        [ "$verify_only" = 1 ] && return 0
        start=$(date +%s%N)
        # shellcheck disable=SC2086
        "$bin" --inputfile "$board" --outputfile "$dir/$name.solution.txt" \
            --time-limit "$limit" $egdb_args $solve_args >"$dir/$name.solve.log" 2>&1 || true
        ms=$((($(date +%s%N) - start) / 1000000))
        [ -s "$dir/$name.solution.txt" ] || { echo "$name: no line written" >&2; return 0; }
        printf '%s\n%s\n' "$ms" "$(tail -1 "$dir/$name.solve.log")" >"$dir/$name.solved.tmp"
        mv "$dir/$name.solved.tmp" "$dir/$name.solved"
    fi
    [ "$solve_only" = 1 ] && return 0
    ms=$(head -1 "$dir/$name.solved")
    summary=$(tail -1 "$dir/$name.solved")
    start=$(date +%s%N)
    rc=0
    if [ -n "$same_as" ] && [ -e "$same_as/$name.verdict.txt" ] &&
        cmp -s "$same_as/$name.solution.txt" "$dir/$name.solution.txt"; then
        cp "$same_as/$name.verdict.txt" "$dir/$name.verdict.tmp"
        grep -q '^verdict:  PASS' "$dir/$name.verdict.tmp" || rc=1
        start=$(date +%s%N)
    else
        # shellcheck disable=SC2086
        "$bin" verify --inputfile "$board" --solution "$dir/$name.solution.txt" \
            --max-seconds "$verify_seconds" --max-mb "$verify_mb" $verify_egdb_args \
            >"$dir/$name.verdict.tmp" 2>&1 || rc=$?
    fi
    # Killed (a stopped session): no result, so that the next run verifies the board again.
    if [ "$rc" -ge 128 ]; then
        rm -f "$dir/$name.verdict.tmp"
        return 0
    fi
    vms=$((($(date +%s%N) - start) / 1000000))
    case $(grep '^optimal:' "$dir/$name.verdict.tmp" || true) in
        "optimal:  yes"*) v=optimal ;;
        "optimal:  no:"*) v=REFUTED ;;
        "optimal:  not proven"*) v=undecided ;;
        *) v=error ;;
    esac
    moves=$(grep -c '^ply [0-9]*:' "$dir/$name.verdict.tmp" || true)
    decided=$(grep -cE '^ply [0-9]+: +[a-z]+ [^ ]+: (proven optimal|refuted),' "$dir/$name.verdict.tmp" || true)
    mv "$dir/$name.verdict.tmp" "$dir/$name.verdict.txt"
    printf '%s %d %d %s %d %d %d %s\n' "$name" "$ms" "$vms" "$v" "$decided" "$moves" "$rc" \
        "$summary" >"$dir/$name.result.tmp"
    mv "$dir/$name.result.tmp" "$dir/$name.result"
}
export -f solve_one

wall_start=$(date +%s)
names=()
width=${#count}
[ "$width" -ge 3 ] || width=3
for i in $(seq 1 "$count"); do
    names+=("$(printf "random-%s-%0${width}d" "$seed" "$i")")
done
# The boards are written once (rewriting them would make a workflow engine see them as new).
for name in "${names[@]}"; do
    if [ ! -e "$dir/$name.txt" ]; then
        "$bin" bench --random "$count" --seed "$seed" --boards-dir "$dir" --boards-only >/dev/null
        break
    fi
done
if [ -n "${ONLY:-}" ]; then
    [ -e "$dir/$ONLY.txt" ] || { echo "ONLY=$ONLY: no such board of seed $seed" >&2; exit 2; }
    names=("$ONLY")
    count=1
fi
for name in "${names[@]}"; do
    printf '%s\0' "$dir/$name.txt"
done | xargs -0 -P "$jobs" -I{} bash -c 'solve_one "$1"' _ {}
wall=$(($(date +%s) - wall_start))
if [ "$solve_only" = 1 ]; then
    solved=$(find "$dir" -maxdepth 1 -name '*.solved' | wc -l)
    echo "solved: $solved boards with a line in $dir ($wall s of wall time); run again without SOLVE_ONLY to verify them"
    exit 0
fi

proven=0 optimal=0 refuted=0 undecided=0 errors=0 missing=0 solve_ms=0 verify_ms=0
moves_all=0 moves_decided=0 unproven=0 unproven_decided=0
refuted_names=()
for name in "${names[@]}"; do
    result=$dir/$name.result
    if [ ! -e "$result" ]; then
        missing=$((missing + 1))
        continue
    fi
    read -r _ ms vms v decided moves rc summary <"$result"
    solve_ms=$((solve_ms + ms))
    verify_ms=$((verify_ms + vms))
    moves_all=$((moves_all + moves))
    moves_decided=$((moves_decided + decided))
    case $summary in
        *"(proven optimal)"*) proven=$((proven + 1)) ;;
        *) unproven=$((unproven + 1)) ;;
    esac
    case $v in
        optimal) optimal=$((optimal + 1)) ;;
        REFUTED)
            refuted=$((refuted + 1))
            refuted_names+=("$name ($(sed -n 's/^optimal:  no: the move from state \([0-9]*\) .*/ply \1/p' "$dir/$name.verdict.txt"))")
            ;;
        undecided) undecided=$((undecided + 1)) ;;
        *) errors=$((errors + 1)) ;;
    esac
    case $summary in
        *"(proven optimal)"*) ;;
        *) [ "$v" = optimal ] || [ "$v" = REFUTED ] && unproven_decided=$((unproven_decided + 1)) ;;
    esac
    printf '%s %7d ms solve %7d ms verify  %-9s %3d/%-3d moves decided  %s\n' \
        "$name" "$ms" "$vms" "$v" "$decided" "$moves" "$summary"
done
done_count=$((count - missing))
[ "$done_count" -gt 0 ] || { echo "no board finished" >&2; exit 1; }
databases="no database directory"
[ -z "${EGDB:-}" ] || databases="databases $EGDB"
echo "boards: $done_count of $count (seed $seed, --time-limit $limit${solve_args:+ $solve_args}, $databases, $jobs at once; results in $dir)"
echo "solver: $proven proven optimal ($((100 * proven / done_count))%), $unproven not proven"
echo "verify (--max-seconds $verify_seconds --max-mb $verify_mb${verify_egdb_args:+ $verify_egdb_args}): $refuted lines refuted${refuted_names[*]:+: ${refuted_names[*]}}"
echo "verify: $((optimal + refuted)) lines decided ($optimal proven optimal, $refuted refuted), $undecided undecided, $errors errors"
echo "verify: of the $unproven lines the solver did not prove, $unproven_decided decided; moves decided: $moves_decided of $moves_all"
echo "time: solving $((solve_ms / 1000)) s ($((solve_ms / done_count)) ms a board), verifying $((verify_ms / 1000)) s ($((verify_ms / done_count)) ms a board); this run $wall s of wall time"
