#!/usr/bin/env bash
# CPU a reader query on port 8123 costs `caplab up --no-demo`: the process's /proc ticks for N repeats of a
# dashboard-like GROUP BY, and its idle ticks right after (subtract idle rate × the repeats' seconds).
# usage: bench/scripts/reader-cost.sh app/target/caplab-exec.jar [repeats]   (CAPLAB_CHDB_LIB and a JDK 25 on PATH)
set -euo pipefail
jar=$1
repeats=${2:-300}
data=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$data"' EXIT
java @"$(dirname "$0")/../../app/src/main/jvm/caplab.jvmopts" -jar "$jar" up --no-demo \
    --data-dir="$data" --http-port=18080 --kafka-port=19092 --clickhouse-port=18123 > "$data/log" 2>&1 &
pid=$!
for _ in $(seq 120); do curl -sf -o /dev/null http://127.0.0.1:18123/ping && break; sleep 1; done
sleep 60 # start-up work (migrations, JIT) settles
query="SELECT run_id, step_index, count() FROM step_aggregates WHERE startsWith(run_id, 'bench-') GROUP BY run_id, step_index"
ask() { curl -sf -o /dev/null --data-binary "$query" 'http://127.0.0.1:18123/?database=caplab'; }
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
for _ in $(seq 20); do ask; done
t0=$(ticks); s0=$(date +%s.%N)
for _ in $(seq "$repeats"); do ask; done
t1=$(ticks); s1=$(date +%s.%N)
sleep 10
t2=$(ticks)
hz=$(getconf CLK_TCK)
awk -v q="$((t1 - t0))" -v idle="$((t2 - t1))" -v s="$(echo "$s1 - $s0" | bc)" -v n="$repeats" -v hz="$hz" 'BEGIN {
    printf "%d queries in %.1f s: %d ticks, idle %.1f ticks/s -> %.1f ms CPU per query\n", n, s, q, idle / 10,
        (q - idle / 10 * s) / n * 1000 / hz }'
