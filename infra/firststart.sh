#!/bin/sh
# Times a first start of `firmo serve` on an empty data dir: wall and process CPU
# seconds (utime+stime of /proc/PID/stat) until GET /readyz answers 200, and until the
# first verification pass of the stored contacts' addresses has ended (its log line);
# then prints the start's own log lines and the load average. The CPU seconds are the
# figure to compare between runs on a shared machine. Figures:
# shared/app/allapp/BENCHMARKS.md. Usage: infra/firststart.sh [BINARY] [PORT]
# (default ./bin/firmo, port 18930; `make build` first). Needs curl and bc.
set -eu
BIN=${1:-./bin/firmo}
PORT=${2:-18930}
DATA=$(mktemp -d)
LOG=$DATA.log
TCK=$(getconf CLK_TCK)
cpu() { awk -v t="$TCK" '{printf "%.1f", ($14+$15)/t}' "/proc/$PID/stat"; }
now() { date +%s.%N; }
echo "load before: $(uptime)"
T0=$(now)
FIRMO_DATA_DIR=$DATA FIRMO_ADDR=127.0.0.1:$PORT FIRMO_LOG_LEVEL=info "$BIN" serve >/dev/null 2>"$LOG" &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$DATA" "$LOG"' EXIT
until curl -fs -o /dev/null "http://127.0.0.1:$PORT/readyz"; do sleep 0.2; done
echo "ready: $(echo "$(now) - $T0" | bc) s wall, $(cpu) s CPU"
until grep -q "email verification of contacts" "$LOG"; do sleep 0.5; done
echo "verification pass ended: $(echo "$(now) - $T0" | bc) s wall, $(cpu) s CPU"
grep -E "Seeded|Ready:|graph built|company reprocessing|email verification" "$LOG" | cut -c1-300
echo "load after: $(uptime)"
