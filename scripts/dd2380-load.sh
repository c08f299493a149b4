#!/usr/bin/env bash
# Load benchmark for the DD2380 server: starts `checkers server` on a free loopback port under
# /usr/bin/time, runs CLIENTS clients at once playing GAMES standalone games in all against the
# built-in player, then stops the server with Ctrl-C (SIGINT) and prints games per second, the
# move reply latencies (p50/p99/max, measured by the clients) and the server's peak memory.
#
#   scripts/dd2380-load.sh                         # 200 clients, 400 games, random movers
#   scripts/dd2380-load.sh 2 20 engine:time=0.1    # our engine against the built-in player
#
# Loopback only; the run ends by itself (every game has a 10 s move clock).
set -euo pipefail
clients=${1:-200}
games=${2:-400}
player=${3:-random}
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin checkers --example dd2380_load
bin=target/release/checkers
load=target/release/examples/dd2380_load
log=$(mktemp)
trap 'rm -f "$log"' EXIT
/usr/bin/time -f "server peak memory: %M KiB" "$bin" server --port 0 --quiet 2>"$log" &
timer=$!
port=""
for _ in $(seq 100); do
  port=$(sed -n 's/^server: listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$log")
  [ -n "$port" ] && break
  sleep 0.05
done
if [ -z "$port" ]; then
  echo "the server did not start:" >&2
  cat "$log" >&2
  kill "$timer" 2>/dev/null || true
  exit 1
fi
status=0
"$load" 127.0.0.1 "$port" --clients "$clients" --games "$games" --player "$player" || status=$?
# Ctrl-C for the server itself (time passes SIGINT over, but signal the server directly).
server=$(pgrep -P "$timer" || true)
kill -INT "${server:-$timer}"
wait "$timer" || true
grep -v '^server: listening' "$log" || true
exit "$status"
