#!/bin/bash
# test-window.sh: what lies inside the timed window (see harness/measure/runner.c).
#   1. one-way elapsed ends where the server received the last message: the
#      end of the stream and the ack lie outside, shown by making the ack's
#      parsing a second slow (an LD_PRELOAD shim around sscanf): a window
#      that held it would last at least that second;
#   2. no side of a single-threaded transport reports more CPU than the
#      window, and an in-process transport reports no server CPU;
#   3. time-boxed windows hold: one-way within the duration, round trips
#      (and in-process one-way) past it by at most one message, and every
#      latency they keep is a message's;
#   4. under hyperfine the warm-up runs are a separate invocation, so the
#      server's and bus's CPU clocks are read around the timed runs only.
set -u
cd "$(dirname "$0")/../.."
ipclab=$PWD/harness/ipclab
tmp=$(mktemp -d)
trap "rm -rf \"\$tmp\"" EXIT
. harness/tests/tap.sh

# ---- 1. The ack is outside the one-way window ------------------------------
${CC:-cc} -shared -fPIC -O2 -o "$tmp/slow-scanf.so" harness/tests/shim/slow-scanf.c
cat > "$tmp/ack.ini" <<'INI'
[experiment]
title=one-way window
transport=pipe;unix-stream
size=64
pattern=oneway
count=10
repeat=2
warmup=2
INI
LD_PRELOAD=$tmp/slow-scanf.so $ipclab run --out "$tmp/out" "$tmp/ack.ini" 2>"$tmp/ack.err"; rc=$?
check "one-way run with a 1 s ack parser exits 0" '[ $rc -eq 0 ]'
f=$tmp/out/ack/samples.tsv
e=$(tsv_index elapsed_ns "$f")
check "4 rows measured" '[ "$(tsv_cols "$f" status | grep -cx ok)" -eq 4 ]'
slow=$(awk -F'\t' -v e="$e" 'NR > 1 && $e >= 1000000000' "$f" | wc -l)
check "no one-way window holds the ack (every elapsed shorter than the second its parsing takes)" '[ "$slow" -eq 0 ]' \
        "$(tsv_cols "$f" transport elapsed_ns | tr '\n' ' ')"

# ---- 2. CPU within the window ------------------------------------------
# Both sides pinned to one CPU: together they cannot have used more CPU
# than the window lasted.  (Pinned, no clock of another CPU is involved.)
cat > "$tmp/cpu.ini" <<'INI'
[experiment]
title=cpu within the window
transport=direct;pipe;unix-stream;socketpair;libdbus
bus=p2p
size=64;4KiB
pattern=oneway;roundtrip
count=1;100;1000
cpus=same
repeat=2
warmup=10
INI
$ipclab run --out "$tmp/out" "$tmp/cpu.ini" 2>/dev/null; rc=$?
f=$tmp/out/cpu/samples.tsv
check "CPU run exits 0" '[ $rc -eq 0 ]'
e=$(tsv_index elapsed_ns "$f") cc=$(tsv_index client_cpu_ns "$f") sc=$(tsv_index server_cpu_ns "$f")
over=$(awk -F'\t' -v e="$e" -v c="$cc" -v s="$sc" 'NR > 1 && $c + ($s == "-" ? 0 : $s) > $e' "$f")
rows=$(($(wc -l < "$f") - 1))
if [ -z "$over" ]; then ok "client + server CPU within the window on one CPU ($rows rows)"
else not_ok "client + server CPU within the window on one CPU ($rows rows)" "$over"; fi
check "every row has a client CPU time" \
        '[ -z "$(awk -F"\t" -v c="$cc" "NR > 1 && (\$c == \"-\" || \$c == 0)" "$f")" ]'
check "direct (in process) has no server CPU of its own" \
        '[ "$(awk -F"\t" -v s="$sc" "NR > 1 && \$5 == \"direct\" { print \$s }" "$f" | sort -u)" = "-" ]'
check "the other transports have one" \
        '[ -z "$(awk -F"\t" -v s="$sc" "NR > 1 && \$5 != \"direct\" && \$s == \"-\"" "$f")" ]'

# ---- 3. Time boxes hold ---------------------------------------------------
# One-way: the window ends at the last receipt by the duration, however much
# the client's library queued (GDBus hands messages to a worker thread and
# flushes every 4 MiB: before, its windows ran to 2.8 times the box);
# one message at least.  Round trips: at the first reply at or past it.
if command -v dbus-daemon > /dev/null; then
        boxed="libdbus;gdbus;sd-bus;pipe;direct"
        bus="bus=dbus-daemon;p2p"
else
        boxed="pipe;unix-stream;direct"
        bus=""
fi
cat > "$tmp/box.ini" <<INI
[experiment]
title=time boxes
transport=$boxed
$bus
payload=bytes
size=1024
pattern=oneway;roundtrip
duration=100ms
repeat=2
warmup=10
INI
$ipclab run --out "$tmp/out" "$tmp/box.ini" 2> "$tmp/box.err"; rc=$?
f=$tmp/out/box/samples.tsv
check "time-boxed run exits 0" '[ $rc -eq 0 ]' || sed 's/^/# /' "$tmp/box.err"
e=$(tsv_index elapsed_ns "$f") m=$(tsv_index messages "$f") p=$(tsv_index pattern "$f") t=$(tsv_index transport "$f") mx=$(tsv_index lat_max_ns "$f")
over=$(awk -F'\t' -v e="$e" -v m="$m" -v p="$p" -v t="$t" \
        'NR > 1 && $p == "oneway" && $t != "direct" && $e > 100000000 && $m > 1 { print $t, $e, $m }' "$f")
check "every one-way window within its 100 ms box" '[ -s "$f" ] && [ -z "$over" ]' "$over"
# In process (direct) a one-way message is handled before its send returns:
# the client's clock ends the window, as for round trips.
over=$(awk -F'\t' -v e="$e" -v p="$p" -v t="$t" -v mx="$mx" \
        'NR > 1 && ($p == "roundtrip" || $t == "direct") && ($e < 100000000 || $e > 100000000 + $mx + 1000000) { print $t, $p, $e, $mx }' "$f")
check "every round-trip (and in-process) window past it by at most its longest message (and 1 ms)" '[ -s "$f" ] && [ -z "$over" ]' "$over"
lm=$(tsv_index lat_min_ns "$f")
zero=$(awk -F'\t' -v lm="$lm" -v t="$t" -v p="$p" 'NR > 1 && $lm != "-" && $lm <= 0 { print $t, $p }' "$f")
check "every latency a box kept is a message's (none left 0: lat_min_ns > 0)" '[ -z "$zero" ]' "$zero"

# ---- 4. hyperfine: warm-up apart from the timed runs -----------------------
if command -v hyperfine >/dev/null && command -v dbus-send >/dev/null && command -v dbus-daemon >/dev/null; then
        mkdir -p "$tmp/bin"
        real=$(command -v hyperfine)
        printf '#!/bin/sh\necho "$*" >> %s/hyperfine.args\nexec %s "$@"\n' "$tmp" "$real" > "$tmp/bin/hyperfine"
        chmod +x "$tmp/bin/hyperfine"
        cat > "$tmp/hf.ini" <<'INI'
[experiment]
title=hyperfine warm-up
transport=dbus-send
runner=hyperfine
bus=dbus-daemon
payload=string
size=16
pattern=roundtrip
count=3
repeat=1
warmup=2
INI
        PATH=$tmp/bin:$PATH $ipclab run --out "$tmp/out" "$tmp/hf.ini" 2>/dev/null; rc=$?
        check "hyperfine run exits 0" '[ $rc -eq 0 ]'
        check "two hyperfine invocations: the warm-up, then the timed runs" \
                '[ "$(wc -l < "$tmp/hyperfine.args")" -eq 2 ]'
        check "the warm-up: 2 runs, no export" \
                'head -1 "$tmp/hyperfine.args" | grep -q -- "--runs 2 --warmup 0" && ! head -1 "$tmp/hyperfine.args" | grep -q export-json'
        check "the timed runs: 3 runs with no warm-up of their own" \
                'tail -1 "$tmp/hyperfine.args" | grep -q -- "--runs 3 --warmup 0 .*--export-json"'
else
        skip "hyperfine warm-up" "hyperfine, dbus-send or dbus-daemon is not installed"
fi
done_testing
