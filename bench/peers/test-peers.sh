#!/bin/bash
# test-peers.sh: the seed-workload peer programs and bench/peers.sh, with
# tiny counts on private buses (timings are never judged, only that each
# program does the traffic it claims and reports every field):
#   1. sdbus-array in both shapes, with and without --read: the counts it
#      prints, and, under dbus-monitor, exactly COUNT calls and COUNT
#      replies on the bus and no credential look-up (GetConnectionUnixUser);
#   2. gdbus-strings: one line per size, the per-call sum within the loop's
#      wall time, and the string's length on the wire;
#   3. bad arguments exit 2;
#   4. bench/peers.sh prints a ratio line per (variant, marshal) and per
#      size, and the bus CPU lines; a marshal value ipclab refuses stops it
#      with ipclab's reason; --gdbus-set reaches the cells' file.
# Prints TAP (harness/tests/tap.sh).  Build first: make peers harness.
set -u
cd "$(dirname "$0")/../.."
. harness/tests/tap.sh
ipclab=$PWD/harness/ipclab
sdbus=$PWD/build/peers/sdbus-array
gdbus=$PWD/build/peers/gdbus-strings
tmp=$(mktemp -d)
. bench/peers/lib.sh
mon_pid=
cleanup() {
        [ -n "$mon_pid" ] && kill "$mon_pid" 2>/dev/null
        cleanup_peers
        rm -rf "$tmp"
}
trap cleanup EXIT
for p in "$ipclab" "$sdbus" "$gdbus"; do
        if [ ! -x "$p" ]; then
                not_ok "$p is built (make peers harness)"
                echo "1..$n"
                exit 1
        fi
done
command -v dbus-monitor >/dev/null || { echo "1..0 # skip dbus-monitor is missing"; exit 0; }

bus_up
daemon=$daemon_pid
# monitor_up / monitor_down: dbus-monitor on the bus into $tmp/mon.  Up
# once it has its name; down once it has written a last signal, sent after
# everything it must have seen (so routed after it), rather than after a
# guessed while.
monitor_up() {
        dbus-monitor --address "$addr" > "$tmp/mon" 2>&1 &
        mon_pid=$!
        wait_until 'grep -q NameAcquired "$tmp/mon" 2>/dev/null || ! kill -0 $mon_pid 2>/dev/null'
}
monitor_down() {
        dbus-send --address="$addr" --type=signal /ipclab/test org.ipclab.Test.IpclabTestEnd
        wait_until 'grep -q "member=IpclabTestEnd$" "$tmp/mon" || ! kill -0 $mon_pid 2>/dev/null'
        kill "$mon_pid"; wait "$mon_pid" 2>/dev/null; mon_pid=
}
# count_member [IFACE.]MEMBER: how many messages the monitor saw for it.
count_member() {
        local iface=${1%.*} member=${1##*.}
        [ "$iface" = "$1" ] && iface='[^;]*'
        grep -cE "interface=$iface; member=$member\$" "$tmp/mon"
}

# ---- 1. sdbus-array -------------------------------------------------------
for mode in threads procs; do
        for read in "" --read; do
                what="sdbus-array $mode ${read:-ignore}"
                monitor_up
                if [ $mode = threads ]; then
                        line=$("$sdbus" --address="$addr" --mode=threads $read --count=7 --warmup=2 \
                                --bus-pid="$daemon" 2>&1)
                else
                        server_up "$sdbus" --address="$addr" --mode=server $read || not_ok "$what: server ready"
                        line=$("$sdbus" --address="$addr" --mode=client --count=7 --warmup=2 \
                                --bus-pid="$daemon" 2>&1)
                        server_down
                fi
                monitor_down
                check "$what: 7 timed calls of 20480 B reported" \
                        '[ "$(field calls "$line")" = 7 ] && [ "$(field size_B "$line")" = 20480 ]'
                check "$what: wall, CPU and bus CPU are positive" \
                        '[ "$(field wall_ns "$line")" -gt 0 ] && [ "$(field cpu_ns "$line")" -gt 0 ] &&
                         [ "$(field bus_cpu_ns "$line")" -gt 0 ] && [ "$(field bus_schedstat_ns "$line")" -gt 0 ]'
                # threads mode makes one more (untimed) call: it waits for the loop.
                calls=$(count_member Bytes)
                want=9; [ $mode = threads ] && want=10
                check "$what: $want calls of Bytes on the bus (got $calls)" '[ "$calls" = $want ]'
                check "$what: no GetConnectionUnixUser look-up" '[ "$(count_member GetConnectionUnixUser)" = 0 ]'
        done
done

# ---- 2. gdbus-strings -----------------------------------------------------
server_up "$gdbus" --address="$addr" --server || not_ok "gdbus-strings server ready"
monitor_up
out=$("$gdbus" --address="$addr" --client --size=4096 --size=65536 --count=5 --warmup=1 --bus-pid="$daemon" 2>&1)
monitor_down
check "gdbus-strings: one line per size" '[ "$(grep -c "^size_B=" <<< "$out")" = 2 ]'
l1=$(sed -n 1p <<< "$out")
check "gdbus-strings: 5 calls, the per-call sum within the loop's wall time" \
        '[ "$(field calls "$l1")" = 5 ] && [ "$(field sum_ns "$l1")" -gt 0 ] &&
         [ "$(field sum_ns "$l1")" -le "$(field wall_ns "$l1")" ] && [ "$(field bus_cpu_ns "$l1")" -gt 0 ]'
check "gdbus-strings: 12 calls of Hello on the bus" '[ "$(count_member org.ipclab.PeerStrings.Hello)" = 12 ]'
# dbus-monitor prints a string argument on one line: string "aaa...".
long=$(grep -oE 'string "a+"' "$tmp/mon" | awk '{ print length($0) - 9 }' | sort -n | uniq | tr '\n' ' ')
check "gdbus-strings: the strings are 4096 and 65536 'a's (got $long)" '[ "$long" = "4096 65536 " ]'
check "gdbus-strings: the reply is \"OK\"" 'grep -q "string \"OK\"" "$tmp/mon"'
server_down

# ---- 3. bad arguments -----------------------------------------------------
"$sdbus" --mode=threads > /dev/null 2>&1
check "sdbus-array without --address exits 2" '[ $? = 2 ]'
"$sdbus" --address="$addr" --mode=threads --count=x > /dev/null 2>&1
check "sdbus-array --count=x exits 2" '[ $? = 2 ]'
"$gdbus" --address="$addr" --client > /dev/null 2>&1
check "gdbus-strings --client without a size exits 2" '[ $? = 2 ]'

bus_down

# ---- 4. bench/peers.sh ----------------------------------------------------
report=$(bench/peers.sh --pairs=1 --count=5 --gdbus-count=3 --sizes=4KiB --kernel-count=200 2>&1)
ratios=$(grep -cE '^  (threads|procs):(ignore|read)/ipclab-(per-element|array) +median +[0-9.]+ ' <<< "$report")
check "bench/peers.sh: 8 ratio lines for seed 004 (got $ratios)" '[ "$ratios" = 8 ]' 
check "bench/peers.sh: bus CPU for the 4 peer variants and 2 cells" \
        '[ "$(grep -cE "^  (peer-(threads|procs):(ignore|read)|ipclab-(per-element|array)) +median" <<< "$report")" = 6 ]'
check "bench/peers.sh: a ratio and bus CPU lines for 4 KiB strings" \
        '[ "$(grep -cE "^  (peer-|ipclab-)?4096B +median +[0-9.]+ " <<< "$report")" = 3 ]'
check "bench/peers.sh: udp, tcp and mq ratios beside sockperf and pmqtest" \
        '[ "$(grep -cE "^  (udp|tcp|mq) +median +[0-9.]+ " <<< "$report")" = 3 ]'
check "bench/peers.sh: prints its commands (seed 004, seed 001, kernel paths)" \
        '[ "$(grep -c "command: bench/peers.sh" <<< "$report")" = 3 ]'
bench/peers.sh --bogus > /dev/null 2>&1
check "bench/peers.sh: an unknown argument exits 2" '[ $? = 2 ]'
err=$(bench/peers.sh --only=004 --pairs=1 --count=2 --marshal=bogus 2>&1)
check "bench/peers.sh: a marshal value ipclab refuses fails, with ipclab's reason" \
        '[ $? = 1 ] && grep -q "marshal: unknown value .bogus." <<< "$err"'
err=$(bench/peers.sh --only=001 --pairs=1 --gdbus-count=2 --sizes=4KiB --gdbus-set=reply=bogus 2>&1)
check "bench/peers.sh: --gdbus-set replaces the cells' reply (ipclab refuses reply=bogus)" \
        '[ $? = 1 ] && grep -q "reply: unknown value .bogus." <<< "$err"'
out=$(bench/peers.sh --only=001 --pairs=1 --gdbus-count=2 --sizes=4KiB --gdbus-set=reply=echo 2>&1)
check "bench/peers.sh: --gdbus-set=reply=echo runs, and says so" \
        '[ $? = 0 ] && grep -q "ipclab gdbus string (reply=echo)" <<< "$out" &&
         grep -q -- "--gdbus-set=reply=echo" <<< "$out"'

echo "1..$n"
[ "$failed" = 0 ]
