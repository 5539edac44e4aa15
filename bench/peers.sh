#!/bin/bash
# bench/peers.sh [--pairs=N] [--count=N] [--marshal=LIST] [--sizes=LIST]
#                [--gdbus-count=N] [--gdbus-set=KEY=VALUE]...
#                [--only=004|001|kernel] [--kernel-count=N] [--ipclab=PATH]
# Do ipclab's D-Bus cells agree with the seeds' own kind of program?  Runs,
# interleaved (peer, ipclab, peer, ipclab, ...), PAIRS times:
#
#   004  build/peers/sdbus-array (sdbus-c++, which appends a vector element
#        by element), COUNT calls of a 20 KiB `ay` with an empty reply, in
#        four variants: one process with one connection (the seed's shape)
#        or two processes, its server ignoring the argument (the seed's) or
#        reading it into a std::vector; beside ipclab's sd-bus cells of the
#        same traffic, one per value of MARSHAL (default
#        "per-element;array"; add append-per-element once ipclab has it).
#   001  build/peers/gdbus-strings (GDBus, strings of 'a' passed as
#        g_variant_new("(s)"), reply "OK", the per-call times summed),
#        GDBUS_COUNT calls per size; beside ipclab's gdbus string cells
#        (reply=empty by default; --gdbus-set=reply=... replaces that key,
#        or adds any other, in the cells' experiment file, for a reply
#        closer to the seed's "OK" once ipclab has one).
#   kernel  UDP and TCP over loopback against sockperf's ping-pong mode
#        (sockperf 3.7: `sockperf server` and `sockperf ping-pong`, 64-byte
#        messages, --full-rtt, for KERNEL_COUNT/10000 s or 1 s at least),
#        beside ipclab's udp and tcp round trips of 64 bytes (reply=echo,
#        KERNEL_COUNT round trips, as processes); and POSIX message queues
#        against rt-tests' pmqtest (KERNEL_COUNT messages, -i 100 -d 0,
#        threads, no real-time priority) beside ipclab's mq round trips of
#        64 bytes as two threads (roles=threads).  What each window holds,
#        and so why a ratio need not be 1:
#          sockperf: the median of the round trips it sampled (it keeps a
#          time stamp for a sample of its messages, not every one), each
#          from its send to the echo's receipt, rdtsc-timed, both sides in
#          sockperf's own blocking recvfrom() loop; ipclab: the median of
#          every round trip's latency (send to receipt of the echo, the
#          runner's clock).  Both are processes on loopback.
#          pmqtest: the mean of one message's one-way latency (the sender's
#          clock_gettime to the receiver's, whole microseconds), with an
#          interval of 100 us between messages in which both threads sleep
#          (caches and CPU idle states cool down, wake-ups are paid); ipclab:
#          half the mean round trip (elapsed / messages / 2), back to back,
#          with the runner's clock read around every message.  The sleeps
#          slow pmqtest, the one-way timing and the lighter loop speed it
#          up: the mq ratio may go either way, and says how far the two
#          definitions of "one message" lie apart on this machine.
#
# Each pair is A (the peer tool) then B (ipclab), in that order every
# time; each ratio is A / B; the median over the pairs is printed with
# every pair's ratio.
#
# Each peer run gets a private dbus-daemon from `ipclab bus dbus-daemon`;
# ipclab starts its own per cell.  It prints, per pair, the peer's time per
# call over ipclab's, the median of those ratios, and the bus daemon's CPU
# per call on both sides (the peer programs read the daemon's process CPU
# clock around their timed loop only; ipclab reports its bus_cpu_ns).
# --ipclab runs another build of ipclab for the B side (e.g. one with a
# fix under test); the private buses still come from harness/ipclab.
#
# Bus CPU: ipclab's sd-bus server registers its methods without
# SD_BUS_VTABLE_UNPRIVILEGED on a connection it does not mark trusted, so
# sd-bus asks dbus-daemon for the caller's uid (GetConnectionUnixUser)
# before dispatching every call: one extra round trip to the daemon per
# call, which sdbus-c++ (trusted connections) never makes.
# A benchmark, not a test: it prints numbers and never fails on them.
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=5
count=1000
marshal="per-element;array"
sizes="4KiB;8KiB;16KiB;32KiB;64KiB;128KiB;256KiB;512KiB;1MiB"
gcount=1000
kcount=10000
only=
run_ipclab=
gset=()
for a in "$@"; do
        case $a in
        --pairs=*) pairs=${a#*=} ;;
        --count=*) count=${a#*=} ;;
        --marshal=*) marshal=${a#*=} ;;
        --sizes=*) sizes=${a#*=} ;;
        --gdbus-count=*) gcount=${a#*=} ;;
        --gdbus-set=*=*) gset+=("${a#--gdbus-set=}") ;;
        --only=004|--only=001|--only=kernel) only=${a#*=} ;;
        --kernel-count=*) kcount=${a#*=} ;;
        --ipclab=*) run_ipclab=$(realpath "${a#*=}") ;;
        *) echo "bench-peers: unknown argument $a (see the comment at the top of $0)" >&2; exit 2 ;;
        esac
done
ipclab=$PWD/harness/ipclab
run_ipclab=${run_ipclab:-$ipclab}
ipclab_arg=
[ "$run_ipclab" = "$ipclab" ] || ipclab_arg=" --ipclab=$run_ipclab"
sdbus=$PWD/build/peers/sdbus-array
gdbus=$PWD/build/peers/gdbus-strings
needs=("$ipclab" "$run_ipclab")
case $only in
004) needs+=("$sdbus") ;;
001) needs+=("$gdbus") ;;
kernel) ;;
*) needs+=("$sdbus" "$gdbus") ;;
esac
for p in "${needs[@]}"; do
        [ -x "$p" ] || { echo "bench-peers: $p is missing (make bench-peers builds it)" >&2; exit 2; }
done
tmp=$(mktemp -d)
. bench/peers/lib.sh
trap 'cleanup_peers; rm -rf "$tmp"' EXIT

# Bytes from ipclab's size notation (4KiB, 1MiB, 64).
bytes() {
        case $1 in
        *MiB) echo $(( ${1%MiB} << 20 )) ;;
        *KiB) echo $(( ${1%KiB} << 10 )) ;;
        *) echo "$1" ;;
        esac
}

# cells_ini FILE KEY=VALUE...: an experiment file of round trips through
# dbus-daemon with an empty reply, one repetition, 20 warm-up calls; the
# first value given for a key wins.
cells_ini() {
        local out=$1 kv
        local -A seen=()
        shift
        { echo "[experiment]"
          for kv in "$@" bus=dbus-daemon pattern=roundtrip reply=empty repeat=1 warmup=20; do
                [ -n "${seen[${kv%%=*}]:-}" ] && continue
                seen[${kv%%=*}]=1
                echo "$kv"
          done; } > "$out"
}

# ipclab_cells INI OUT COLUMN: runs the experiment, prints "KEY
# per_call_ns bus_ns_per_call" per row, KEY being the row's COLUMN.
ipclab_cells() {
        "$run_ipclab" run --out "$2" "$1" > /dev/null 2> "$2.err" || {
                echo "bench-peers: $run_ipclab run failed:" >&2
                cat "$2.err" >&2
                exit 1
        }
        awk -F'\t' -v key="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                $c["status"] == "ok" { print $c[key], $c["elapsed_ns"] / $c["messages"], $c["bus_cpu_ns"] / $c["messages"] }' \
                "$2"/*/samples.tsv
}

fail_start() { echo "bench-peers: $1 did not start:" >&2; cat "$tmp/server.out" >&2 2>/dev/null; exit 1; }

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# report FILE: FILE holds "name value" lines; prints each name's values
# in order and their median.
report() {
        local names
        names=$(awk '{ print $1 }' "$1" | awk '!seen[$0]++')
        for n in $names; do
                local vals med
                vals=$(awk -v n="$n" '$1 == n { printf "%s%.3f", (k++ ? " " : ""), $2 }' "$1")
                med=$(awk -v n="$n" '$1 == n { print $2 }' "$1" | median)
                printf '  %-40s median %8.3f   pairs: %s\n' "$n" "$med" "$vals"
        done
}

run_004() {
        local variants="threads:ignore threads:read procs:ignore procs:read"
        cells_ini "$tmp/sdbus.ini" "title=bench-peers: sd-bus, 20 KiB ay, empty reply, as seed 004" \
                transport=sd-bus payload=bytes size=20KiB "marshal=${marshal//,/;}" count="$count"
        : > "$tmp/r004"; : > "$tmp/b004"
        for i in $(seq "$pairs"); do
                # A: the peer program, every variant, each on a fresh bus.
                declare -A peer=()
                for v in $variants; do
                        local mode=${v%:*} read=
                        [ "${v#*:}" = read ] && read=--read
                        bus_up
                        if [ "$mode" = threads ]; then
                                line=$("$sdbus" --address="$addr" --mode=threads $read --count="$count" \
                                        --bus-pid="$daemon_pid")
                        else
                                server_up "$sdbus" --address="$addr" --mode=server $read || fail_start "$sdbus"
                                line=$("$sdbus" --address="$addr" --mode=client --count="$count" \
                                        --bus-pid="$daemon_pid")
                                server_down
                        fi
                        bus_down
                        peer[$v]=$(awk -v w="$(field wall_ns "$line")" -v n="$count" 'BEGIN { print w / n }')
                        awk -v v="$v" -v b="$(field bus_cpu_ns "$line")" -v n="$count" \
                                'BEGIN { printf "peer-%s %.1f\n", v, b / n / 1000 }' >> "$tmp/b004"
                done
                # B: ipclab's cells.
                ipclab_cells "$tmp/sdbus.ini" "$tmp/ipc004-$i" marshal > "$tmp/cells"
                while read -r m per bus; do
                        echo "ipclab-$m $(awk -v b="$bus" 'BEGIN { printf "%.1f", b / 1000 }')" >> "$tmp/b004"
                        for v in $variants; do
                                awk -v a="${peer[$v]}" -v b="$per" -v k="$v/ipclab-$m" \
                                        'BEGIN { printf "%s %.6f\n", k, a / b }' >> "$tmp/r004"
                        done
                done < "$tmp/cells"
                unset peer
        done
        echo "seed 004: $pairs pairs, $count calls of a 20 KiB ay, empty reply, private dbus-daemon"
        echo "  command: bench/peers.sh --only=004 --pairs=$pairs --count=$count --marshal='$marshal'${ipclab_arg:-}"
        echo " peer time per call / ipclab time per call (peer variant: one process or two, server ignores or reads):"
        echo "  (like for like: *:read with per-element, both sides per element; *:ignore with"
        echo "   append-per-element, whose server takes the array whole where the seed's ignored it;"
        echo "   sdbus-c++ 1.2.0 appends a std::vector per element, so ipclab-array has no peer)"
        report "$tmp/r004"
        echo " bus daemon CPU per call, µs:"
        report "$tmp/b004"
}

run_001() {
        local size_args=() s
        IFS=';' read -r -a size_list <<< "${sizes//,/;}"
        for s in "${size_list[@]}"; do size_args+=(--size="$(bytes "$s")"); done
        cells_ini "$tmp/gdbus.ini" "title=bench-peers: GDBus strings of 4 KiB .. 1 MiB, as seed 001" \
                ${gset[@]+"${gset[@]}"} transport=gdbus payload=string "size=${sizes//,/;}" count="$gcount"
        : > "$tmp/r001"; : > "$tmp/b001"
        for i in $(seq "$pairs"); do
                bus_up
                server_up "$gdbus" --address="$addr" --server || fail_start "$gdbus"
                "$gdbus" --address="$addr" --client --count="$gcount" --bus-pid="$daemon_pid" \
                        "${size_args[@]}" > "$tmp/peer001"
                server_down
                bus_down
                ipclab_cells "$tmp/gdbus.ini" "$tmp/ipc001-$i" size_B > "$tmp/cells"
                while read -r line; do
                        local sz sum bus per ibus
                        sz=$(field size_B "$line"); sum=$(field sum_ns "$line"); bus=$(field bus_cpu_ns "$line")
                        read -r per ibus < <(awk -v s="$sz" '$1 == s { print $2, $3 }' "$tmp/cells")
                        [ -n "$per" ] || continue
                        awk -v s="$sz" -v a="$sum" -v n="$gcount" -v b="$per" \
                                'BEGIN { printf "%dB %.6f\n", s, a / n / b }' >> "$tmp/r001"
                        awk -v s="$sz" -v b="$bus" -v n="$gcount" -v ib="$ibus" \
                                'BEGIN { printf "peer-%dB %.1f\nipclab-%dB %.1f\n", s, b / n / 1000, s, ib / 1000 }' >> "$tmp/b001"
                done < "$tmp/peer001"
        done
        echo "seed 001: $pairs pairs, $gcount calls per size, strings of 'a', private dbus-daemon"
        echo "  command: bench/peers.sh --only=001 --pairs=$pairs --gdbus-count=$gcount --sizes='$sizes'${gset[@]+$(printf " --gdbus-set=%s" "${gset[@]}")}${ipclab_arg:-}"
        echo " peer (g_variant_new(\"(s)\"), reply \"OK\", summed per call) / ipclab gdbus string ($(grep '^reply=' "$tmp/gdbus.ini")), per call:"
        report "$tmp/r001"
        echo " bus daemon CPU per call, µs:"
        report "$tmp/b001"
}

# kernel_ini FILE TRANSPORT ROLES: KCOUNT round trips of 64 bytes, echoed.
kernel_ini() {
        printf '[experiment]\ntitle=bench-peers: %s beside its peer tool\ntransport=%s\nroles=%s\npayload=bytes\nsize=64\npattern=roundtrip\nreply=echo\ncount=%s\nrepeat=1\nwarmup=20\n' \
                "$2" "$2" "$3" "$kcount" > "$1"
}

# ipclab_kernel INI OUT: "p50_ns mean_ns" of the one row.
ipclab_kernel() {
        "$run_ipclab" run --out "$2" "$1" > /dev/null 2> "$2.err" || {
                echo "bench-peers: $run_ipclab run failed:" >&2
                cat "$2.err" >&2
                exit 1
        }
        awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                $c["status"] == "ok" { print $c["lat_p50_ns"], $c["elapsed_ns"] / $c["messages"] }' "$2"/*/samples.tsv
}

# sockperf_p50 PROTO: the median round trip in ns of one sockperf
# ping-pong run (PROTO udp or tcp) against a sockperf server of its own.
sockperf_p50() {
        local port=$((20000 + RANDOM % 20000)) flag= secs
        [ "$1" = tcp ] && flag=--tcp
        secs=$(( kcount / 10000 )); [ "$secs" -ge 1 ] || secs=1
        server_up_until 'block on socket' sockperf server -i 127.0.0.1 -p "$port" $flag ||
                fail_start "sockperf server (port $port)"
        sockperf ping-pong -i 127.0.0.1 -p "$port" $flag -m 64 -t "$secs" --full-rtt > "$tmp/sockperf.out" 2>&1 || true
        server_down
        sed 's/\x1b\[[0-9;]*m//g' "$tmp/sockperf.out" |
                awk '/percentile 50.000 =/ { v = $NF * 1000 } END { if (v == "") exit 1; print v }' || {
                echo "bench-peers: sockperf ping-pong gave no median:" >&2
                cat "$tmp/sockperf.out" >&2
                exit 1
        }
}

run_kernel() {
        for p in sockperf pmqtest; do
                command -v "$p" > /dev/null || { echo "bench-peers: $p is missing (apt-get install sockperf rt-tests)" >&2; exit 2; }
        done
        kernel_ini "$tmp/udp.ini" udp processes
        kernel_ini "$tmp/tcp.ini" tcp processes
        kernel_ini "$tmp/mq.ini" mq threads
        : > "$tmp/rk"; : > "$tmp/vk"
        for i in $(seq "$pairs"); do
                for proto in udp tcp; do
                        a=$(sockperf_p50 "$proto") || exit 1
                        read -r b _ < <(ipclab_kernel "$tmp/$proto.ini" "$tmp/ipc-$proto-$i")
                        echo "$proto $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.6f", a / b }')" >> "$tmp/rk"
                        printf 'sockperf-%s-p50-us %.3f\nipclab-%s-p50-us %.3f\n' "$proto" "$(awk -v a="$a" 'BEGIN { print a / 1000 }')" \
                                "$proto" "$(awk -v b="$b" 'BEGIN { print b / 1000 }')" >> "$tmp/vk"
                done
                pmqtest -l "$kcount" -i 100 -d 0 -q --json "$tmp/pmq.json" > "$tmp/pmq.out" 2>&1 ||
                        { echo "bench-peers: pmqtest failed:" >&2; cat "$tmp/pmq.out" >&2; exit 1; }
                a=$(awk -F'[:,]' '/"avg"/ { gsub(/ /, "", $2); print $2 * 1000; exit }' "$tmp/pmq.json")
                [ -n "$a" ] || { echo "bench-peers: no average in pmqtest's JSON" >&2; exit 1; }
                read -r _ mean < <(ipclab_kernel "$tmp/mq.ini" "$tmp/ipc-mq-$i")
                b=$(awk -v m="$mean" 'BEGIN { print m / 2 }')
                echo "mq $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.6f", a / b }')" >> "$tmp/rk"
                printf 'pmqtest-avg-oneway-us %.3f\nipclab-mq-halfrtt-us %.3f\n' "$(awk -v a="$a" 'BEGIN { print a / 1000 }')" \
                        "$(awk -v b="$b" 'BEGIN { print b / 1000 }')" >> "$tmp/vk"
        done
        echo "kernel paths: $pairs pairs (A = peer tool, B = ipclab), $kcount messages of 64 bytes each side; load: $(cut -d' ' -f1-3 /proc/loadavg)"
        echo "  command: bench/peers.sh --only=kernel --pairs=$pairs --kernel-count=$kcount${ipclab_arg:-}"
        echo " udp, tcp: sockperf ping-pong's median round trip / ipclab's median round trip (processes, loopback);"
        echo " mq: pmqtest's mean one-way latency (threads, 100 us apart) / half ipclab's mean round trip (threads):"
        report "$tmp/rk"
        echo " the values, µs (see the top of bench/peers.sh for what each window holds):"
        report "$tmp/vk"
}

case $only in
004) run_004 ;;
001) run_001 ;;
kernel) run_kernel ;;
*) run_004; run_001; run_kernel ;;
esac
