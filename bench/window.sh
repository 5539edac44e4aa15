#!/bin/bash
# bench/window.sh [PAIRS] [BASE]
# What lies in a one-way repetition's window that is not the messages?
# The fixed cost per repetition, derived: the median elapsed of a
# 1-message cell minus one message's share, (elapsed(1000) -
# elapsed(100)) / 900, beside the 100-message cell it would bias; and, from
# this tree's runner, the fixed window it measures in every repetition
# (fixed_ns: a one-message window timed like the main one, just before
# it), whose median over the 100-message cell's repetitions should lie at
# or above the derived fixed cost.  Runs this tree's ipclab and the one
# built from commit BASE (default: the last before the window was fixed),
# alternately A B A B, PAIRS pairs, on 64 B one-way streams over a pipe, a
# FIFO and a Unix stream socket, pinned to one CPU and to two
# (cpus=same;split), and prints per-pair fixed costs, their medians and the
# per-pair ratio.  Also half a 1-message round trip: one message's latency,
# the part of the fixed cost that is the transport's own (the consumer
# waking up); residue = fixed - half round trip bounds what is left for
# the harness.
#
# The machine's load decides whether these numbers mean anything: the
# load average and the CPUs are printed first and last, and on a machine
# whose 1-minute load average is above half its CPUs the benchmark
# refuses to run (exit 3) unless WINDOW_LOADED=1, which runs it and marks
# every line of the result LOADED.  A benchmark: otherwise it prints, it
# never fails.
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-5}
base=${2:-ef7008c}
new=$PWD/harness/ipclab
cpus=$(nproc)
load() { cut -d' ' -f1-3 /proc/loadavg; }
load1=$(cut -d' ' -f1 /proc/loadavg)
loaded=$(awk -v l="$load1" -v c="$cpus" 'BEGIN { print (l > c / 2) ? 1 : 0 }')
echo "machine: $cpus CPUs, load average $(load) at the start"
if [ "$loaded" = 1 ]; then
        if [ "${WINDOW_LOADED:-0}" != 1 ]; then
                echo "bench-window: the machine is loaded (1-minute load average $load1 on $cpus CPUs, above $cpus/2):" >&2
                echo "bench-window: other work would be measured too; not run (WINDOW_LOADED=1 runs it, marked LOADED)" >&2
                exit 3
        fi
        mark=" LOADED"
else
        mark=""
fi
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/base" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git worktree add -q --detach "$tmp/base" "$base"
make -C "$tmp/base" -s harness >/dev/null
old=$tmp/base/harness/ipclab

cat > "$tmp/window.ini" <<'INI'
[experiment]
title=fixed cost of a one-way repetition
transport=pipe;fifo;unix-stream
size=64
pattern=oneway;roundtrip
cpus=same;split
count=1;100;1000
repeat=10
warmup=10
seed=9
INI

# fixed BINARY RESULTS-DIR: one line per transport and placement: fixed
# cost, 100-message cell, half a 1-message round trip, the median fixed_ns
# of the 100-message cell or "-" (ns, medians over the repetitions).
fixed() {
        "$1" summarize "$2/window" | awk -F'\t' '
                NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
                { k = $col["transport"] "/" $col["cpus"]
                  e[k, $col["pattern"], $col["count"]] = $col["elapsed_ns"]; t[k] = 1
                  if ($col["pattern"] == "oneway" && $col["count"] == 100)
                          f[k] = "fixed_ns" in col ? $col["fixed_ns"] : "-" }
                END { for (x in t) {
                        share = (e[x, "oneway", 1000] - e[x, "oneway", 100]) / 900
                        printf "%s %.0f %.0f %.0f %s\n", x, e[x, "oneway", 1] - share, e[x, "oneway", 100], e[x, "roundtrip", 1] / 2, f[x] } }'
}
for i in $(seq "$pairs"); do
        "$old" run --out "$tmp/old$i" "$tmp/window.ini" 2>/dev/null
        fixed "$old" "$tmp/old$i" | sed "s/^/old $i /" >> "$tmp/all"
        "$new" run --out "$tmp/new$i" "$tmp/window.ini" 2>/dev/null
        fixed "$new" "$tmp/new$i" | sed "s/^/new $i /" >> "$tmp/all"
done
echo "command: bench/window.sh $pairs $base   ($pairs pairs, old = $base, new = $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- harness || echo '+changes'))"
echo "cells: 64 B one-way, 10 repetitions each of 1, 100, 1000 messages; fixed = e(1) - (e(1000) - e(100))/900;"
echo "       new_fixed_ns_us: the median fixed_ns (a one-message window per repetition) of the 100-message cell"
echo
printf '%-18s %4s %12s %12s %9s %12s %12s %10s %10s %15s\n' transport/cpus pair old_fixed_us new_fixed_us new/old \
        new_100msg_us new_%_of_100 half_rtt_us residue_us new_fixed_ns_us
awk -v mark="$mark" '
        { k = $3 SUBSEP $2; f[$1, k] = $4; c[$1, k] = $5; h[$1, k] = $6; w[$1, k] = $7; tr[$3] = 1; p[$2] = 1 }
        END {
                for (x in tr) for (i = 1; i in p; i++) {
                        k = x SUBSEP i
                        printf "%-18s %4d %12.1f %12.1f %9.3f %12.1f %12.1f %10.1f %10.1f %15s%s\n", x, i, f["old", k] / 1000, f["new", k] / 1000,
                               f["new", k] / f["old", k], c["new", k] / 1000, 100 * f["new", k] / c["new", k], h["new", k] / 1000,
                               (f["new", k] - h["new", k]) / 1000, w["new", k] == "-" ? "-" : sprintf("%.1f", w["new", k] / 1000), mark
                }
        }' "$tmp/all" | sort > "$tmp/table"
cat "$tmp/table"
echo
echo "medians over the pairs:"
for x in $(cut -d' ' -f1 "$tmp/table" | sort -u); do
        awk -v x="$x" '$1 == x' "$tmp/table" | awk -v mark="$mark" '
                { for (j = 3; j <= 10; j++) v[j, NR] = $j; n = NR; name = $1 }
                function med(j,   i, k, t, a) { for (i = 1; i <= n; i++) a[i] = v[j, i]
                        for (i = 1; i <= n; i++) for (k = i + 1; k <= n; k++) if (a[k] < a[i]) { t = a[i]; a[i] = a[k]; a[k] = t }
                        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
                END { printf "%-18s %4s %12.1f %12.1f %9.3f %12.1f %12.1f %10.1f %10.1f %15.1f%s\n", name, "med", med(3), med(4), med(5), med(6),
                             med(7), med(8), med(9), med(10), mark }'
done
echo
echo "machine: $cpus CPUs, load average $(load) at the end${mark:+ (LOADED: run with WINDOW_LOADED=1)}"
