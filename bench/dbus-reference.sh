#!/bin/bash
# bench/dbus-reference.sh [ROUNDS] [CALLS]
# Does ipclab understate a D-Bus transport?  Runs, alternately in one go,
# ipclab's libdbus round trips (16-byte string, empty reply) through a
# private dbus-daemon and the reference tool `dbus-test-tool spam` calling
# `dbus-test-tool echo` (package dbus-tests) through a private dbus-daemon
# of the same configuration (`ipclab bus dbus-daemon`), CALLS calls each,
# ROUNDS times, and prints both rates (calls per second, medians) and their
# ratio.  spam waits for each reply here (no --no-reply, whose clock stops
# when the messages are sent, not when they arrive), so both sides measure
# complete round trips.  The reference's time includes connecting to the
# bus (one connection, a few ms): CALLS is large enough to make that small.
# A benchmark, not a test: it prints numbers and never fails on them.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
calls=${2:-20000}
ipclab=$PWD/harness/ipclab
tmp=$(mktemp -d)
bus_pid=
cleanup() {
        [ -n "${echo_pid:-}" ] && kill "$echo_pid" 2>/dev/null
        [ -n "$bus_pid" ] && kill "$bus_pid" 2>/dev/null
        wait 2>/dev/null
        rm -rf "$tmp"
}
trap cleanup EXIT
command -v dbus-test-tool >/dev/null || { echo "bench-dbus: dbus-test-tool is missing (apt-get install dbus-tests)" >&2; exit 2; }

cat > "$tmp/calls.ini" <<INI
[experiment]
title=libdbus round trips, 16-byte string, empty reply, through dbus-daemon
transport=libdbus
bus=dbus-daemon
payload=string
size=16
pattern=roundtrip
reply=empty
count=$calls
repeat=1
warmup=100
INI

: > "$tmp/ipclab.txt"
: > "$tmp/ref.txt"
for i in $(seq "$rounds"); do
        $ipclab run --out "$tmp/r$i" "$tmp/calls.ini" 2>/dev/null
        $ipclab summarize "$tmp/r$i/calls" | awk -F'\t' '
                NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
                { print $col["messages"] / ($col["elapsed_ns"] / 1e9) }' >> "$tmp/ipclab.txt"

        # The reference: a private bus of the same kind, echo and spam.
        coproc BUS { exec "$ipclab" bus dbus-daemon; }
        bus_pid=$BUS_PID
        read -r addr <&"${BUS[0]}"
        read -r _ <&"${BUS[0]}"
        DBUS_SESSION_BUS_ADDRESS=$addr dbus-test-tool echo --name=org.ipclab.Echo &
        echo_pid=$!
        # Wait until the echo service owns its name.
        for _ in $(seq 100); do
                DBUS_SESSION_BUS_ADDRESS=$addr dbus-send --session --print-reply --dest=org.freedesktop.DBus \
                        / org.freedesktop.DBus.NameHasOwner string:org.ipclab.Echo 2>/dev/null | grep -q true && break
                sleep 0.05
        done
        DBUS_SESSION_BUS_ADDRESS=$addr dbus-test-tool spam --dest=org.ipclab.Echo --count=100 \
                --payload=0123456789abcdef --string   # warm-up, as ipclab's
        t0=$(date +%s%N)
        DBUS_SESSION_BUS_ADDRESS=$addr dbus-test-tool spam --dest=org.ipclab.Echo --count="$calls" \
                --payload=0123456789abcdef --string
        t1=$(date +%s%N)
        awk -v n="$calls" -v ns=$((t1 - t0)) 'BEGIN { print n / (ns / 1e9) }' >> "$tmp/ref.txt"
        kill "$echo_pid"; wait "$echo_pid" 2>/dev/null || true; echo_pid=
        eval "exec ${BUS[1]}>&-"
        wait "$bus_pid" 2>/dev/null || true; bus_pid=
done

median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ipc=$(median "$tmp/ipclab.txt")
ref=$(median "$tmp/ref.txt")
echo "rounds: $rounds alternating runs of $calls calls each (16-byte string, empty reply, private dbus-daemon)"
printf 'dbus-test-tool spam/echo   %10.0f calls/s (median of %s)\n' "$ref" "$(sort -g "$tmp/ref.txt" | awk '{printf "%s%.0f", (NR > 1 ? " " : ""), $1}')"
printf 'ipclab libdbus roundtrip   %10.0f calls/s (median of %s)\n' "$ipc" "$(sort -g "$tmp/ipclab.txt" | awk '{printf "%s%.0f", (NR > 1 ? " " : ""), $1}')"
awk -v a="$ipc" -v b="$ref" 'BEGIN { printf "ratio ipclab/reference    %10.3f   (target: at least 1.0)\n", a / b }'
