#!/usr/bin/env bash
# CPU an idle `caplab up --no-demo` uses: the process's /proc ticks over MEASURE seconds once SETTLE seconds have
# passed after its ClickHouse port answers, in total, without the JIT compiler threads (which keep compiling the idle
# loops for minutes), and by thread group (Linux's per-thread accounting, digits stripped from the names).
# usage: bench/scripts/idle-cost.sh app/target/caplab-exec.jar [settle=240] [measure=120]
#        (CAPLAB_CHDB_LIB and a JDK 25 on PATH; run two jars side by side to compare them under the same load)
set -euo pipefail
jar=$1
settle=${2:-240}
span=${3:-120}
data=$(mktemp -d)
base=$((20000 + RANDOM % 20000))
java @"$(dirname "$0")/../../app/src/main/jvm/caplab.jvmopts" -jar "$jar" up --no-demo --data-dir="$data" \
    --http-port=$base --kafka-port=$((base + 1)) --clickhouse-port=$((base + 2)) > "$data/log" 2>&1 </dev/null &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 180); do curl -sf -o /dev/null "http://127.0.0.1:$((base + 2))/ping" && break; sleep 1; done
sleep "$settle"
threads() { for t in /proc/$pid/task/*; do echo "$(basename "$t") $(tr ' ' '_' < "$t/comm") $(awk '{print $14 + $15}' "$t/stat")"; done; }
threads > "$data/t0"; a=$(awk '{print $14 + $15}' "/proc/$pid/stat"); s0=$(date +%s.%N)
sleep "$span"
threads > "$data/t1"; b=$(awk '{print $14 + $15}' "/proc/$pid/stat"); s1=$(date +%s.%N)
hz=$(getconf CLK_TCK)
s=$(echo "$s1 - $s0" | bc)
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v t=$((b - a)) -v s="$s" -v hz="$hz" 'BEGIN { printf "process: %d ticks in %.1f s = %.2f %% of a core\n", t, s, t / hz / s * 100 }'
join <(sort "$data/t0") <(sort "$data/t1") | awk -v hz="$hz" -v s="$s" '$2 !~ /Compiler/ { o += $5 - $3 }
    END { printf "without the JIT compiler threads: %.2f %% of a core\n", o / hz / s * 100 }'
join <(sort "$data/t0") <(sort "$data/t1") | awk -v hz="$hz" -v s="$s" '{ d = $5 - $3; if (d > 0) { gsub(/[0-9]+/, "N", $2); g[$2] += d } }
    END { for (k in g) printf "%6.2f %% %s\n", g[k] / hz / s * 100, k }' | sort -rn | head -20
