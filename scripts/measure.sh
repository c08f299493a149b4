#!/usr/bin/env bash
# Prints the quick figures of docs/performance.md ("Solving the shipped puzzles"), each after the
# command that produces it, below the date, commit, machine and load they were measured on.
# Run from the repository root on an idle machine: bash scripts/measure.sh
set -euo pipefail
cargo build --release -q
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(free -g | awk '/^Mem:/ {print $2}') GiB"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
bin=./target/release/checkers
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() { echo "\$ $*"; "$@"; }

echo "== process start to output written, mean of 50 runs per official puzzle"
for p in puzzles/p0[1-8].txt; do
    start=$(date +%s%N)
    for _ in $(seq 50); do $bin -q --inputfile "$p" --outputfile "$out/s.txt"; done
    end=$(date +%s%N)
    echo "$(basename "$p" .txt): $(( (end - start) / 50000 )) us"
done

echo "== every shipped puzzle, solving time in the process"
run $bin bench --jobs 1 puzzles

echo "== perft 12 from the start position"
run $bin perft 12 --threads 1 >/dev/null
run $bin perft 12 --threads 2 >/dev/null
run $bin perft 12 --threads 1 --hash-mb 0 >/dev/null
run $bin perft 12 --threads 2 --hash-mb 0 >/dev/null

echo "== king endgame: 3 kings against 2, win in 51 plies"
run env RAYON_NUM_THREADS=1 $bin --inputfile puzzles/kings-3v2-double-corner.txt --outputfile "$out/s.txt"
run env RAYON_NUM_THREADS=2 $bin --inputfile puzzles/kings-3v2-double-corner.txt --outputfile "$out/s.txt"
run $bin --no-endgame-db --inputfile puzzles/kings-3v2-double-corner.txt --outputfile "$out/s.txt"

echo "== king endgame: 4 kings against 2 (database of 43M slots, built after the search fails)"
printf '.R.R.R.R\n........\n........\n........\n........\n........\n.B......\nB.......\n' >"$out/k42.txt"
run /usr/bin/time -f "%e s, peak %M KiB" env RAYON_NUM_THREADS=1 $bin --inputfile "$out/k42.txt" --outputfile "$out/s.txt"
run /usr/bin/time -f "%e s, peak %M KiB" env RAYON_NUM_THREADS=2 $bin --inputfile "$out/k42.txt" --outputfile "$out/s.txt"

echo "== 2 kings and a man against 2 kings (databases with men, 24M slots)"
printf '.R.R....\n........\n........\n........\n........\n........\n.B...r..\nB.......\n' >"$out/k21v2.txt"
run /usr/bin/time -f "%e s, peak %M KiB" env RAYON_NUM_THREADS=1 $bin --inputfile "$out/k21v2.txt" --outputfile "$out/s.txt"
run /usr/bin/time -f "%e s, peak %M KiB" env RAYON_NUM_THREADS=2 $bin --inputfile "$out/k21v2.txt" --outputfile "$out/s.txt"

echo "== peak memory (max resident set, KiB)"
for p in puzzles/p06.txt puzzles/kings-3v2-double-corner.txt puzzles/men-2-vs-king.txt; do
    /usr/bin/time -f "$(basename "$p" .txt): %M KiB" $bin -q --inputfile "$p" --outputfile "$out/s.txt"
done
/usr/bin/time -f "perft 12: %M KiB" $bin perft 12 >/dev/null 2>"$out/err" || true
tail -1 "$out/err"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
