#!/bin/bash
# test-run.sh: how `ipclab run` schedules repetitions: interleaved rounds in
# a seeded order, repeat=auto stopping when the CI is narrow enough or at
# its cap (and saying which in meta.ini), and runner=hyperfine turning
# whole commands into rows of samples.tsv.
set -u
cd "$(dirname "$0")/../.."
. harness/tests/tap.sh
tap_tmp --runtime
rows() { awk -F'\t' -v c="$2" 'NR > 1 && $1 == c' "$1" | wc -l; }

# repeat=auto with a target 6 repetitions can reach: the 95% CI of a
# median needs 6 values, so no cell's interval narrows before 6; then a
# fixed confirmation batch of repeat_min (3) more keeps the interval's
# coverage (stopping at the first narrow interval lowers it): at N + 3,
# "confirmed", where N >= 6 is where it first narrowed (meta.ini says
# "narrow at N").  On a quiet machine N is 6; a busy one can preempt a
# repetition and spread the first six wider than their median, so the
# checks hold the rule (N + 3, N >= 6), never N = 6 itself.
# In-process round trips (direct), so that no wake-up of a sleeping
# process is timed: two processes' round trips on this kind of virtual
# machine are bimodal from one repetition to the next (4 and 40 us, see
# data/machines).  And long repetitions (half a million round trips,
# about 0.1 s), which span many time slices.
cat > "$tmp/easy.ini" <<'INI'
[experiment]
title=auto, easy target
transport=direct
size=64;128
pattern=roundtrip
count=500000
repeat=auto
repeat_min=3
repeat_max=20
ci_target=100%
INI
$ipclab run --out "$tmp/out" "$tmp/easy.ini" 2>/dev/null; rc=$?
check "repeat=auto run exits 0" '[ $rc -eq 0 ]'
# where cell C first narrowed, from meta.ini ("narrow at N"), or 0
narrow() { sed -n "s/^cell_$1=.* narrow at \([0-9]*\), .*/\1/p" "$tmp/out/easy/meta.ini"; }
for c in 0 1; do
        at=$(narrow $c)
        check "cell $c stopped 3 repetitions after its interval first narrowed, at 6 or later (${at:-never})" \
                '[ -n "$at" ] && [ "$at" -ge 6 ] && [ "$(rows "$tmp/out/easy/samples.tsv" $c)" -eq $((at + 3)) ]'
done
check "meta.ini says confirmed after it converged" '[ "$(grep -c "^cell_[01]=[0-9]* repetitions.*narrow at [0-9]*, confirmed after it converged$" "$tmp/out/easy/meta.ini")" -eq 2 ]'
check "meta.ini records mode and target" 'grep -qx "mode=auto" "$tmp/out/easy/meta.ini" && grep -qx "ci_target=100%" "$tmp/out/easy/meta.ini"'

# An unreachable target stops at repeat_max and says so.
sed -e 's/ci_target=100%/ci_target=1%/' -e 's/repeat_max=20/repeat_max=4/' -e 's/count=500000/count=20/' \
        -e 's/transport=direct/transport=pipe;socketpair/' -e 's/size=64;128/size=64/' \
        -e 's/easy target/hard target/' "$tmp/easy.ini" > "$tmp/hard.ini"
sed -i 's/size=64/size=64;65536/' "$tmp/hard.ini"
$ipclab run --out "$tmp/out" "$tmp/hard.ini" 2>/dev/null
check "an unreachable target stops at repeat_max" '[ "$(rows "$tmp/out/hard/samples.tsv" 0)" -eq 4 ]'
check "meta.ini says repeat_max reached" 'grep -q "^cell_0=4 repetitions.*repeat_max reached$" "$tmp/out/hard/meta.ini"'

# Fixed repeat with a seed: rounds interleave the cells.  The partial file
# lists rows in the order they ran: every cell's rep 0 comes before any
# cell's rep 1, and the order of cells differs from round to round.
cat > "$tmp/order.ini" <<'INI'
[experiment]
title=order
transport=pipe
size=1;2;3;4;5;6;7;8
pattern=roundtrip
count=20000
repeat=3
seed=99
INI
# Interrupted once it is into its second round (it stops itself after 14
# rows: the stop shim), so the partial file stays, in the order the
# repetitions ran.
shim=$(stop_shim "$tmp")
partial="$tmp/out/.order.partial.tsv"
LD_PRELOAD=$shim IPCLAB_TEST_STOP_ROWS=14 $ipclab run --out "$tmp/out" "$tmp/order.ini" 2>/dev/null &
pid=$!
wait_until "stopped $pid || ! kill -0 $pid 2>/dev/null"
check "the run stopped after 14 rows, in its second round" 'stopped $pid && [ "$(grep -c "^[0-9]" "$partial")" -eq 14 ]'
kill -INT $pid
kill -CONT $pid
wait $pid
order=$(grep '^[0-9]' "$partial" | cut -f1,2)
reps=$(cut -f2 <<<"$order" | tr '\n' ' ')
check "the partial file was seen with two rounds in it" '[ "$(cut -f2 <<<"$order" | sort -u | wc -l)" -ge 2 ]'
check "rounds run in order (all rep 0, then rep 1, then rep 2)" '[ "$(cut -f2 <<<"$order" | sort -n | tr "\n" " ")" = "$reps" ]'
r0=$(awk -F'\t' '$2 == 0 { printf "%s ", $1 }' <<<"$order")
r1=$(awk -F'\t' '$2 == 1 { printf "%s ", $1 }' <<<"$order")
k=$(wc -w <<<"$r1")
check "the order of cells changes between rounds" '[ "$k" -ge 3 ] && [ "$(cut -d" " -f1-$k <<<"$r0")" != "$(cut -d" " -f1-$k <<<"$r1")" ]'
$ipclab run --resume --out "$tmp/out" "$tmp/order.ini" 2>/dev/null
check "samples.tsv is sorted by cell and repetition" '[ "$(tsv_cols "$tmp/out/order/samples.tsv" cell rep | sort -k1,1n -k2,2n)" = "$(tsv_cols "$tmp/out/order/samples.tsv" cell rep)" ]'

# roles=: client and server as two processes or as two threads of one;
# the column in samples.tsv and the summary, the roles run in meta.ini.
# gdbus cannot run as threads: its cells are left out, saying why.
cat > "$tmp/roles.ini" <<'INI'
[experiment]
title=roles
transport=pipe;libdbus;gdbus
bus=p2p
size=64
pattern=roundtrip
roles=processes;threads
count=50
repeat=1
warmup=2
verify=true
INI
$ipclab run --out "$tmp/out" "$tmp/roles.ini" 2>"$tmp/roles.err"; rc=$?
check "roles run exits 0" '[ $rc -eq 0 ]' "$(cat "$tmp/roles.err")"
check "roles: pipe and libdbus as processes and as threads, gdbus as processes, all ok" \
        '[ "$(tsv_cols "$tmp/out/roles/samples.tsv" transport roles status | sort | tr "\t\n" ": ")" = "gdbus:processes:ok libdbus:processes:ok libdbus:threads:ok pipe:processes:ok pipe:threads:ok " ]'
$ipclab summarize "$tmp/out/roles" > "$tmp/roles-summary.tsv"
check "roles: the summary keeps them apart" \
        '[ "$(tsv_cols "$tmp/roles-summary.tsv" transport roles | sort | tr "\t\n" ": ")" = "gdbus:processes libdbus:processes libdbus:threads pipe:processes pipe:threads " ]'
check "roles: meta.ini says which ran, and why gdbus did not as threads" \
        'grep -qx "roles=processes;threads" "$tmp/out/roles/meta.ini" &&
         grep -q "^skipped_1=gdbus bus=p2p roundtrip .* roles=threads .*one worker thread per process" "$tmp/out/roles/meta.ini"'
printf '[experiment]\ntitle=t\ntransport=direct\nroles=threads\ncount=5\n' > "$tmp/nothreads.ini"
out=$($ipclab run --out "$tmp/out" "$tmp/nothreads.ini" 2>&1); rc=$?
check "roles=threads that no transport listed can run: exit 2, naming the file, group, key and why" \
        '[ $rc -eq 2 ] && [[ $out == *"nothreads.ini:4: [experiment] roles: threads: no transport listed can run"*"direct (it runs both roles in one thread already)"* ]]' "$out"
check "roles: a file without the key runs as processes and says so" 'grep -qx "roles=processes" "$tmp/out/easy/meta.ini"'

# runner=hyperfine: whole commands against ipclab's server.
cat > "$tmp/shell.ini" <<'INI'
[experiment]
title=shell
transport=dbus-send;gdbus-call;busctl-call
runner=hyperfine
bus=dbus-daemon;dbus-broker
payload=string
size=16
pattern=roundtrip
count=3
repeat=1
warmup=1
INI
if command -v hyperfine >/dev/null; then
        $ipclab run --out "$tmp/out" "$tmp/shell.ini" 2>"$tmp/shell.err"; rc=$?
        check "hyperfine run exits 0" '[ $rc -eq 0 ]'
        check "one ok row per command and bus" '[ "$(tsv_cols "$tmp/out/shell/samples.tsv" status | grep -cx ok)" -eq 6 ]'
        check "3 calls per row, latencies from hyperfine" '[ "$(tsv_cols "$tmp/out/shell/samples.tsv" messages lat_n | sort -u)" = "$(printf "3\t3")" ]'
        check "no bus left behind (nor any private directory)" '[ -z "$(ls -A "$tmp/run")" ]'
else
        skip "hyperfine run" "hyperfine is not installed (apt-get install hyperfine)"
fi

done_testing
