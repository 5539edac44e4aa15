#!/bin/bash
# bench/overhead.sh [ROUNDS] [LOOPS] [BASE]
# What does the harness itself add?  Runs, alternately in one go, ipclab's
# pipe round trip with 4-byte messages and `perf bench sched pipe` (which
# ping-pongs 4-byte ints over two pipes between two processes), ROUNDS
# times each, and prints both medians per round trip and their ratio.  Also
# reports the `direct` transport's cost per round trip: the harness's floor.
# With BASE (another ipclab binary, e.g. /work/main/harness/ipclab), each
# round also runs BASE beside this tree's ipclab (A B, then B A, ...), and
# every round's ratios this/BASE are printed, for direct and for pipe.
# A benchmark, not a test: it prints numbers, it never fails on them.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-7}
loops=${2:-100000}
ipclab=harness/ipclab
base=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v perf >/dev/null || { echo "bench-overhead: perf is missing (apt-get install linux-perf)" >&2; exit 2; }

cat > "$tmp/overhead.ini" <<INI
[experiment]
title=harness overhead: 4-byte pipe round trips, and the direct floor
transport=pipe;direct
size=4
pattern=roundtrip
count=$loops
repeat=1
warmup=1000
INI

: > "$tmp/perf.txt"
: > "$tmp/ipclab.txt"
: > "$tmp/direct.txt"
: > "$tmp/base-ipclab.txt"
: > "$tmp/base-direct.txt"
# measure BINARY OUT PREFIX: one run; its per-round-trip costs appended to
# PREFIXipclab.txt (pipe) and PREFIXdirect.txt.
measure() {
        "$1" run --out "$2" "$tmp/overhead.ini" 2>/dev/null
        "$1" summarize "$2/overhead" | awk -F'\t' -v p="$3ipclab.txt" -v d="$3direct.txt" '
                NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
                { per = $col["elapsed_ns"] / $col["messages"]
                  print per >> ($col["transport"] == "pipe" ? p : d) }'
}
for i in $(seq "$rounds"); do
        perf bench sched pipe -l "$loops" 2>/dev/null | awk '/usecs\/op/ { print $1 * 1000 }' >> "$tmp/perf.txt"
        # With BASE, which runs first alternates (A B, B A, ...), so that
        # neither always follows perf.
        if [ -n "$base" ] && [ $((i % 2)) -eq 0 ]; then
                measure "$base" "$tmp/b$i" "$tmp/base-"
                measure "$ipclab" "$tmp/r$i" "$tmp/"
        else
                measure "$ipclab" "$tmp/r$i" "$tmp/"
                [ -z "$base" ] || measure "$base" "$tmp/b$i" "$tmp/base-"
        fi
done

median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
perf_ns=$(median "$tmp/perf.txt")
ipc_ns=$(median "$tmp/ipclab.txt")
direct_ns=$(median "$tmp/direct.txt")
echo "rounds: $rounds alternating runs of $loops round trips each"
printf 'perf bench sched pipe   %10.1f ns per round trip (median)\n' "$perf_ns"
printf 'ipclab pipe, 4 B        %10.1f ns per round trip (median)\n' "$ipc_ns"
awk -v a="$ipc_ns" -v b="$perf_ns" 'BEGIN { printf "ratio ipclab/perf       %10.3f   (target: within 10%%, 0.90 to 1.10)\n", a / b }'
printf 'ipclab direct, 4 B      %10.1f ns per round trip (median; target: under 50 ns)\n' "$direct_ns"
if [ -n "$base" ]; then
        echo
        echo "A B A B against $base (A: this tree, B: base), per round:"
        printf '%5s %12s %12s %8s %12s %12s %8s %12s %12s\n' round direct_A direct_B A/B pipe_A pipe_B A/B pipeA/perf pipeB/perf
        paste "$tmp/direct.txt" "$tmp/base-direct.txt" "$tmp/ipclab.txt" "$tmp/base-ipclab.txt" "$tmp/perf.txt" |
                awk '{ printf "%5d %12.1f %12.1f %8.3f %12.1f %12.1f %8.3f %12.3f %12.3f\n", NR, $1, $2, $1 / $2, $3, $4, $3 / $4, $3 / $5, $4 / $5 }' |
                tee "$tmp/pairs"
        for c in 4 7 8 9; do awk -v c=$c '{ print $c }' "$tmp/pairs" > "$tmp/col$c"; done
        printf '%5s %12s %12s %8.3f %12s %12s %8.3f %12.3f %12.3f\n' med "" "" "$(median "$tmp/col4")" "" "" \
                "$(median "$tmp/col7")" "$(median "$tmp/col8")" "$(median "$tmp/col9")"
        printf 'base direct, 4 B        %10.1f ns per round trip (median)\n' "$(median "$tmp/base-direct.txt")"
        printf 'base pipe, 4 B          %10.1f ns per round trip (median)\n' "$(median "$tmp/base-ipclab.txt")"
fi
