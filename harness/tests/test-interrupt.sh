#!/bin/bash
# test-interrupt.sh: `ipclab run` interrupted, killed, starved of disk and
# hit by faults from outside, seen from the command line.
#
#   - SIGINT, SIGTERM and SIGKILL at random points (after K rows, K drawn
#     at random; the run stops itself there, the stop shim, so the signal
#     always finds it running) of a small multi-cell experiment (kernel transports and libdbus through a private
#     dbus-daemon): the results directory holds exactly the files of the
#     previous complete run (same checksums) or a complete new set, never a
#     mixture; SIGINT/SIGTERM exit 130 and leave no staging or temp file;
#     no process of ours outlives ipclab; then `ipclab run --resume`
#     finishes with the same header and the same set of (cell, rep) rows as
#     a clean run, all ok, keeping the rows measured before the interrupt
#     byte for byte;
#   - --resume refuses a partial file of another version of the experiment;
#   - `make run ... RESUME=1` passes --resume (make -n);
#   - a full disk (a small tmpfs mounted here) and a read-only one as --out:
#     exit 1, a message naming the directory and the errno, the previous
#     data intact, no temp files (skipped when mount is not permitted);
#   - faults from outside: a cell past its time limit, a server or client
#     process SIGKILLed, the bus daemon SIGKILLed (in a cell that does not
#     end by itself), also in each messaging library's transport: the
#     cell is a failed row with its reason, the next cell is measured, the
#     exit status is 1.
# Waits are for events (rows in the partial file, a process stopped or
# gone), never for a duration.
set -u
cd "$(dirname "$0")/../.."
root=$PWD
ipclab=$root/harness/ipclab
tmp=$(mktemp -d)
mnt=
cleanup() {
        [ -n "$mnt" ] && umount "$mnt" 2>/dev/null
        rm -rf "$tmp"
}
trap cleanup EXIT
export XDG_RUNTIME_DIR=$tmp/run TMPDIR=$tmp/run
mkdir -p "$tmp/run" "$tmp/out"
. harness/tests/tap.sh
faults=0
note() { echo "# $*"; }
shim=$(stop_shim "$tmp")

exp=$tmp/intr.ini
out=$tmp/out
cat > "$exp" <<'INI'
[experiment]
title=interrupt me
transport=pipe;unix-stream;libdbus
bus=dbus-daemon
size=64;4KiB
pattern=oneway;roundtrip
count=2000
repeat=2
warmup=10
INI

# "SUM-of-samples SUM-of-meta" of DIR, "missing" for an absent file.
sums() {
        local f s=
        for f in samples.tsv meta.ini; do
                if [ -f "$1/$f" ]; then s+="$(sha256sum < "$1/$f" | cut -c1-16) "; else s+="missing "; fi
        done
        echo "$s"
}
# The cell, rep and axis columns of every row, sorted: what a run must produce.
shape() {
        tsv_cols "$1/samples.tsv" cell rep env machine transport bus payload size_B pattern reply marshal cpus \
                roles count | sort
}

# DIR holds a complete result: only samples.tsv, latencies.tsv.gz and meta.ini, the clean
# run's header and rows, every row ok, meta.ini agreeing on the count.
complete() {
        local d=$1
        [ "$(ls -A "$d" 2>/dev/null | sort | tr '\n' ' ')" = "latencies.tsv.gz meta.ini samples.tsv " ] || return 1
        [ "$(head -1 "$d/samples.tsv")" = "$header" ] || return 1
        [ "$(shape "$d")" = "$clean_shape" ] || return 1
        [ "$(tsv_cols "$d/samples.tsv" status | sort -u)" = ok ] || return 1
        grep -qx "rows=$(( $(wc -l < "$d/samples.tsv") - 1 ))" "$d/meta.ini"
}

# Processes of ours: anything whose command line names our directory (the
# runner's children carry ipclab's, the daemons their configuration's).
ours() {
        local p
        for p in /proc/[0-9]*; do
                [ "${p#/proc/}" = "$$" ] && continue
                tr '\0' ' ' 2>/dev/null < "$p/cmdline" | grep -qF -- "$tmp/" &&
                        echo "${p#/proc/} $(tr '\0' ' ' 2>/dev/null < "$p/cmdline" | cut -c1-80)"
        done
}
# (what a run started goes when it does: waits for that, however long)
nothing_running() { wait_until '[ -z "$(ours)" ]'; }
# Stray files in the output directory: staging directories, temp files.
strays() { find "$1" -maxdepth 2 \( -name '*.new' -o -name '*.tmp*' -o -name '*.old' \) | head -5; }

# ---- a clean run: the reference ----
"$ipclab" run --out "$out" "$exp" 2>"$tmp/err"; rc=$?
header=$(head -1 "$out/intr/samples.tsv")
clean_shape=$(shape "$out/intr")
check_run "clean run exits 0" [ "$rc" -eq 0 ]
check_run "clean run: 24 rows, all ok" [ "$(tsv_cols "$out/intr/samples.tsv" status | grep -c '^ok$')" -eq 24 ]
prev=$(sums "$out/intr")

# The rows of the partial file of a run in progress (0 before it exists).
partial_rows() { grep -v '^#' "$out/.intr.partial.tsv" 2>/dev/null | grep -vc '^cell	'; }
# stopped_after PID K: waits until the run PID (started with the stop
# shim) has stopped itself after its K-th row, or ended; fails when it
# ended, or stopped elsewhere.
stopped_after() {
        wait_until "stopped $1 || ! kill -0 $1 2>/dev/null"
        stopped "$1" && [ "$(partial_rows)" -eq "$2" ]
}

# ---- interrupted at random points, then resumed ----
# A random point: after K of the 24 rows (K <= 12, so that half the run
# is left to interrupt), where the run stops itself (the stop shim).
RANDOM=$(( $(date +%s) % 32768 ))
interrupts=0 finished_first=0 signals=0
for sig in INT TERM KILL INT TERM KILL; do
        k=$(( 1 + RANDOM % 12 ))
        LD_PRELOAD=$shim IPCLAB_TEST_STOP_ROWS=$k "$ipclab" run --out "$out" "$exp" 2>"$tmp/err" &
        pid=$!
        if stopped_after "$pid" "$k"; then
                kill -"$sig" "$pid" && signals=$((signals + 1))
                kill -CONT "$pid" 2>/dev/null
        fi
        { wait "$pid"; } 2>/dev/null; rc=$?
        now=$(sums "$out/intr")
        what="SIG$sig after $k rows"
        if [ "$rc" -eq 0 ]; then
                finished_first=$((finished_first + 1))
                check_run "$what: finished first; a complete new set" eval 'complete "$out/intr" && [ "$now" != "$prev" ]'
                prev=$now
                continue
        fi
        interrupts=$((interrupts + 1))
        if [ "$sig" = KILL ]; then want=137; else want=130; fi
        check_run "$what: exit status $want" [ "$rc" -eq "$want" ]
        # Both files the previous ones, or both new and complete.
        if [ "$now" = "$prev" ]; then
                ok "$what: $out/intr holds the previous files (checksums)"
        elif complete "$out/intr" && [ "${now% * }" != "${prev% * }" ] && [ "${now#* }" != "${prev#* }" ]; then
                ok "$what: $out/intr holds a complete new set"
                prev=$now
        else
                not_ok "$what: $out/intr holds the previous files or a complete new set" "previous: $prev" "now: $now"
        fi
        check_run "$what: no process of ours left" nothing_running
        if [ "$sig" != KILL ]; then
                check_run "$what: says it was interrupted" grep -q "interrupted" "$tmp/err"
                check_run "$what: no staging or temp file" [ -z "$(strays "$out")" ]
                check_run "$what: private directories removed" [ -z "$(ls -A "$tmp/run")" ]
        else
                check_run "$what: the bus directory removed by its guardian" [ -z "$(ls -d "$tmp/run"/ipclab-bus-* 2>/dev/null)" ]
                left=$(ls -A "$tmp/run")
                [ -n "$left" ] && note "SIGKILL left in \$XDG_RUNTIME_DIR: $left"
                rm -rf "${tmp:?}/run/"*
        fi
        # The rows measured before the interrupt, complete lines only.
        partial=$out/.intr.partial.tsv
        kept=$tmp/kept
        : > "$kept"
        if [ -f "$partial" ]; then
                grep -v '^#' "$partial" | grep -v '^cell	' | awk -F'\t' -v nf="$(awk -F'\t' '{print NF; exit}' <<<"$header")" 'NF == nf' > "$kept"
                # a torn last line (SIGKILL mid-write) has no newline: drop it
                [ -n "$(tail -c1 "$partial")" ] && sed -i '$d' "$kept"
        fi
        "$ipclab" run --resume --out "$out" "$exp" 2>"$tmp/err"; rc=$?
        check_run "$what: --resume exits 0" [ "$rc" -eq 0 ]
        check_run "$what: --resume gives the clean run's header and rows, all ok" complete "$out/intr"
        missing=$(grep -vxFf "$out/intr/samples.tsv" "$kept" | head -3)
        check "$what: the $k rows measured before are kept as they were" \
                '[ -z "$missing" ] && [ "$(wc -l < "$kept")" -eq "$k" ]' "kept: $(wc -l < "$kept"), missing: $missing"
        check_run "$what: --resume leaves no partial, staging or temp file" \
                eval '[ -z "$(strays "$out")" ] && [ ! -e "$partial" ]'
        prev=$(sums "$out/intr")
done
note "interrupts: $interrupts (runs that finished before the signal: $finished_first)"
check "every run was interrupted: $signals signals sent, $interrupts runs interrupted" \
        '[ "$signals" -eq 6 ] && [ "$interrupts" -eq 6 ]'

# ---- --resume of another version of the experiment ----
LD_PRELOAD=$shim IPCLAB_TEST_STOP_ROWS=1 "$ipclab" run --out "$out" "$exp" 2>/dev/null &
pid=$!
stopped_after "$pid" 1 && kill -INT "$pid"
kill -CONT "$pid"
wait "$pid"; rc=$?
check_run "--resume of a changed experiment: its first run interrupted (exit $rc)" [ "$rc" -eq 130 ]
prev=$(sums "$out/intr")
sed -i 's/^count=2000$/count=2001/' "$exp"
"$ipclab" run --resume --out "$out" "$exp" 2>"$tmp/err"; rc=$?
check_run "--resume of a changed experiment: refused (exit $rc), told to start again" \
        eval '[ $rc -eq 1 -o $rc -eq 2 ] && grep -q "without --resume" "$tmp/err"'
check_run "--resume of a changed experiment: data unchanged" [ "$(sums "$out/intr")" = "$prev" ]
sed -i 's/^count=2001$/count=2000/' "$exp"
rm -f "$out/.intr.partial.tsv"

# ---- make run RESUME=1 ----
e=$(basename "$(ls experiments/*.ini | head -1)" .ini)
with=$(make -n --no-print-directory run EXP="$e" RESUME=1 2>&1)
without=$(make -n --no-print-directory run EXP="$e" 2>&1)
check_run "make -n run EXP=$e RESUME=1 passes --resume" grep -q -- "ipclab run .*--resume.*experiments/$e.ini" <<<"$with"
check_run "make -n run EXP=$e does not" eval '! grep -q -- "--resume" <<<"$without" && grep -q "ipclab run" <<<"$without"'

# ---- a full disk and a read-only one ----
small=$tmp/small.ini
printf '[experiment]\ntitle=small\ntransport=pipe;unix-stream\nsize=64\ncount=100\nrepeat=2\nwarmup=2\n' > "$small"
mkdir -p "$tmp/full"
if mount -t tmpfs -o size=256k,mode=0755 ipclab-test "$tmp/full" 2>/dev/null; then
        mnt=$tmp/full
        "$ipclab" run --out "$mnt" "$small" 2>/dev/null
        prev=$(sums "$mnt/small")
        check_run "full disk: a previous run" [ -f "$mnt/small/samples.tsv" ]
        # Fill the disk, then free K pages: at some K the partial file fits
        # but samples.tsv and meta.ini do not, at a larger one all fits.
        refused=0
        for k in 0 1 2 3 4 5 6 8 10 12 16; do
                dd if=/dev/zero of="$mnt/filler" bs=4096 oflag=append conv=notrunc 2>/dev/null
                size=$(stat -c %s "$mnt/filler")
                truncate -s $((size - k * 4096 > 0 ? size - k * 4096 : 0)) "$mnt/filler"
                "$ipclab" run --out "$mnt" "$small" 2>"$tmp/err"; rc=$?
                if [ "$rc" -eq 0 ]; then
                        check_run "full disk: with $k pages free the run fits, complete" \
                                eval '[ "$(tail -n +2 "$mnt/small/samples.tsv" | wc -l)" -eq 4 ]'
                        break
                fi
                refused=$((refused + 1))
                faults=$((faults + 1))
                msg=$(grep -F "$mnt" "$tmp/err" | head -1)
                check_run "full disk, $k pages free: exit 1" [ "$rc" -eq 1 ]
                check_run "full disk, $k pages free: the message names the directory and the errno" \
                        eval '[ -n "$msg" ] && grep -q "No space left on device" <<<"$msg"'
                check_run "full disk, $k pages free: previous data intact" [ "$(sums "$mnt/small")" = "$prev" ]
                check_run "full disk, $k pages free: no staging or temp file" [ -z "$(strays "$mnt")" ]
                [ -z "$msg" ] && note "stderr: $(head -3 "$tmp/err")"
        done
        check_run "full disk: at least one run was refused" [ "$refused" -gt 0 ]
        rm -f "$mnt/filler"
        "$ipclab" run --out "$mnt" "$small" 2>/dev/null
        prev=$(sums "$mnt/small")
        if mount -o remount,ro "$mnt" 2>/dev/null; then
                "$ipclab" run --out "$mnt" "$small" 2>"$tmp/err"; rc=$?
                faults=$((faults + 1))
                check_run "read-only --out: exit 2 (bad usage), names the directory and the errno" \
                        eval '[ $rc -eq 2 ] && grep -F "$mnt" "$tmp/err" | grep -q "Read-only file system"'
                check_run "read-only --out: previous data intact" [ "$(sums "$mnt/small")" = "$prev" ]
        fi
        umount "$mnt" && mnt=
else
        skip "full disk" "cannot mount a tmpfs here (not root?)"
fi

# ---- faults from outside ----
# A cell past its time limit, between two healthy ones.
cat > "$tmp/limit.ini" <<'INI'
[experiment]
title=time limit
transport=pipe
size=64KiB
pattern=oneway
count=100;1000000000
repeat=1
warmup=1
timeout=3s
INI
"$ipclab" run --out "$out" "$tmp/limit.ini" 2>"$tmp/err"; rc=$?
faults=$((faults + 1))
check_run "time limit: exit 1" [ "$rc" -eq 1 ]
check_run "time limit: the failed row says so, the healthy one is ok" \
        eval '[ "$(tsv_cols "$out/limit/samples.tsv" status why | sort | tr "\t\n" "| ")" = "failed|exceeded the time limit of 3 s ok|- " ]'
check_run "time limit: nothing left running" nothing_running

# ran PID...: every PID has used CPU time (utime + stime, in ticks).
ran() {
        local p
        for p in "$@"; do
                [ "$(awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || echo 0)" -gt 0 ] || return 1
        done
}
# The forks of ipclab under PID that kept its name (unlike the bus guardian
# "ipclab-bus" and the commands meta capture runs), in the order they were
# forked.
forks() {
        local c
        for c in $(pgrep -P "$1"); do
                [ "$(cat /proc/$c/comm 2>/dev/null)" = ipclab ] &&
                        [ "$(readlink /proc/$c/exe 2>/dev/null)" = "$ipclab" ] && echo "$c"
        done
}
# The runner's server and client under ipclab PID: the two forks of the
# repetition's supervisor (its one fork), in the order they were forked,
# once both have run (used CPU time).
workers() {
        local run=$1 w s
        wait_until 'w=$(for s in $(forks "$run"); do forks "$s"; done | xargs)
                [ "$(wc -w <<<"$w")" -eq 2 ] || ! kill -0 "$run" 2>/dev/null'
        [ "$(wc -w <<<"$w")" -eq 2 ] || return 1
        wait_until 'ran $w || ! kill -0 "$run" 2>/dev/null'
        echo "$w"
}
# Runs EXP in the background, SIGKILLs what $1 names (server, client, bus)
# in its first cell, which does not end by itself (50 minutes), and checks
# that this cell failed with a reason matching $2 and the next one, short,
# was measured.
kill_during() {
        local who=$1 reason=$2 name=$3 victim=
        "$ipclab" run --out "$out" "$tmp/$name.ini" 2>"$tmp/err" &
        local pid=$!
        local w
        w=$(workers "$pid")
        case $who in
        server) victim=${w%% *} ;;
        client) victim=$(echo $w | cut -s -d" " -f2) ;;
        bus)    [ -n "$w" ] &&
                victim=$(for p in $(pgrep -x dbus-daemon); do
                        tr '\0' ' ' 2>/dev/null < /proc/$p/cmdline | grep -qF "$tmp/run" && echo "$p"; done | head -1) ;;
        esac
        [ -n "$victim" ] && kill -KILL "$victim"
        [ -z "$victim" ] && kill "$pid"
        wait "$pid"; rc=$?
        faults=$((faults + 1))
        check_run "$who SIGKILLed: found and killed" [ -n "$victim" ]
        check_run "$who SIGKILLed: exit 1" [ "$rc" -eq 1 ]
        local rows
        rows=$(tsv_cols "$out/$name/samples.tsv" cell status why 2>/dev/null)
        check_run "$who SIGKILLed: the cell failed, saying '$reason'" grep -qE "^0	failed	.*$reason" <<<"$rows"
        check_run "$who SIGKILLed: the next cell measured" grep -q "^1	ok	" <<<"$rows"
        check_run "$who SIGKILLed: nothing left running" nothing_running
        note "rows (cell, status, why): $(tr '\t\n' ' ;' <<<"$rows")"
}
# Cell 0 runs for 50 minutes unless killed; cell 1 a moment (seed=0: in
# this order).
endless='duration=3000s;200ms\ntimeout=3600s\nseed=0\nrepeat=1\nwarmup=2\n'
printf "[experiment]\ntitle=kill\ntransport=pipe\npattern=roundtrip\n$endless" > "$tmp/kill.ini"
kill_during server "the server killed by signal 9" kill
kill_during client "the client killed by signal 9" kill
printf "[experiment]\ntitle=bus\ntransport=libdbus\nbus=dbus-daemon\npattern=roundtrip\n$endless" > "$tmp/bus.ini"
kill_during bus "dbus-daemon" bus
# The messaging libraries' transports (threads of their own in both
# sides, sockets in the private directory), where built: the same.
for lib in zeromq nng grpc; do
        if ! "$ipclab" list | grep -q "^$lib  *library  *ok "; then
                note "$lib: not built here, not killed"
                continue
        fi
        printf "[experiment]\ntitle=kill $lib\ntransport=$lib\npattern=roundtrip\n$endless" > "$tmp/$lib.ini"
        note "$lib:"
        kill_during server "the server killed by signal 9" "$lib"
        kill_during client "the client killed by signal 9" "$lib"
done
check_run "no private directory left" [ -z "$(ls -A "$tmp/run")" ]

note "faults injected from outside: $faults; interrupts: $interrupts"
done_testing
