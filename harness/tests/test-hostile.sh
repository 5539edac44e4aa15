#!/bin/bash
# test-hostile.sh: careless and hostile use, exercised for real (issue 12).
#   - special files as experiment files (a FIFO, /dev/zero through a
#     symlink, a directory, a 2 MiB file): exit 2, named, without opening
#     the FIFO (were it opened, ipclab would wait for a writer: the test
#     sees it waiting there, gives it an empty one, and the check fails);
#   - two runs into one --out: the second refuses (exit 2) naming the
#     first, whose partial file it leaves alone;
#   - --resume with no partial file, an empty one, one cut short in its
#     header, and one with hand-corrupted, repeated, foreign and torn rows;
#   - an --out that is a file or cannot be written: exit 2;
#   - 106-character TMPDIR and XDG_RUNTIME_DIR: every socket transport runs;
#   - a helper command (systemd-detect-virt) stopped with SIGSTOP: its time
#     limit ends it, and SIGINT or SIGTERM end ipclab at once (before that
#     limit: its warning is not printed), killing it and what it started;
#   - private directories left by a killed run are removed by the next;
#   - the progress line on an 80-column terminal never wraps;
#   - meta.ini names the hypervisor and the container apart.
# After every fault: no private directory, lock file or process left.
# Runs that must be caught in the middle stop themselves at an exact row
# (the stop shim) or hold a cell that does not end by itself (50 minutes
# long) until the test ends it.
set -u
cd "$(dirname "$0")/../.."
root=$PWD
ipclab=$root/harness/ipclab
. harness/tests/tap.sh
tmp=$(mktemp -d)
bg=
cleanup() {
        [ -n "$bg" ] && kill -KILL "$bg" 2>/dev/null && kill -CONT "$bg" 2>/dev/null
        rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/run" "$tmp/bin"
export XDG_RUNTIME_DIR=$tmp/run TMPDIR=$tmp/run
unset COLUMNS

# Every ipclab this test starts, and what that starts, carries
# IPCLAB_TEST_OWNER=$tmp (tap.sh's owned): how the test finds its own
# processes and no one else's.
ipclab=$(owned "$tmp" "$ipclab")
ours() { owned_pids "$tmp"; }
# What a fault may not leave: a private directory, a lock file, a process.
leftovers() {
        find "$tmp/run" -mindepth 1 -maxdepth 1 -name 'ipclab-*' 2>/dev/null | head -3
        find "$tmp" -name .ipclab.lock 2>/dev/null | head -3
        ours | head -3
}
clean() { check "$1: nothing left behind" '[ -z "$(leftovers)" ]'; }

cat > "$tmp/small.ini" <<'INI'
[experiment]
title=small
transport=pipe;socketpair
size=64
count=200
repeat=3
INI
cat > "$tmp/slow.ini" <<'INI'
[experiment]
title=slow
transport=pipe
size=64
count=2000
repeat=8
INI
cat > "$tmp/endless.ini" <<'INI'
[experiment]
title=endless
transport=pipe
size=64
duration=3000s
repeat=1
timeout=3600s
INI
shim=$(stop_shim "$tmp")

# ---- special files ----
mkfifo "$tmp/fifo.ini"
ln -s /dev/zero "$tmp/zero.ini"
mkdir "$tmp/dir.ini"
head -c $((2 << 20)) /dev/zero | tr '\0' '#' > "$tmp/big.ini"
for f in fifo:FIFO zero:"character device" dir:directory big:"too large"; do
        name=${f%%:*} what=${f#*:}
        for cmd in check run; do
                args=()
                [ $cmd = run ] && args=(--out "$tmp/out-special")
                "$ipclab" $cmd "${args[@]}" "$tmp/$name.ini" >"$tmp/special.out" 2>&1 &
                pid=$!
                # It ends, or it waits in the kernel for a FIFO's writer.
                wait_until '! kill -0 $pid 2>/dev/null || grep -qE "fifo_open|wait_for_partner" /proc/$pid/wchan 2>/dev/null'
                opened=
                if kill -0 $pid 2>/dev/null; then
                        opened=" (it opened the FIFO and waited for a writer)"
                        : >"$tmp/$name.ini"
                fi
                wait $pid; rc=$?
                out=$(cat "$tmp/special.out")
                check "$cmd $name.ini: exit 2, named: $what$opened" \
                        '[ $rc -eq 2 ] && [ -z "$opened" ] && grep -q "^ipclab: $tmp/$name.ini: .*$what" <<<"$out"' "$out"
        done
done
check "special files: nothing written" '[ ! -e "$tmp/out-special" ]'
clean "special files"

# ---- two runs into one --out ----
# The first stops itself after its first row, holding the directory.
LD_PRELOAD=$shim IPCLAB_TEST_STOP_ROWS=1 "$ipclab" run --out "$tmp/out" "$tmp/slow.ini" 2>"$tmp/first.err" &
bg=$!
wait_until "stopped $bg || ! kill -0 $bg 2>/dev/null"
check "the first run stopped after its first row" 'stopped $bg && [ "$(grep -c "^[0-9]" "$tmp/out/.slow.partial.tsv")" -eq 1 ]'
before=$(stat -c %i "$tmp/out/.slow.partial.tsv" 2>/dev/null)
out=$("$ipclab" run --out "$tmp/out" "$tmp/slow.ini" 2>&1); rc=$?
check "a second run into the same --out: exit 2" '[ $rc -eq 2 ]' "$out"
check "it names the first (pid $bg, its command)" 'grep -q "another ipclab run is writing there (pid $bg: .*ipclab run --out $tmp/out" <<<"$out"'
out=$("$ipclab" run --resume --out "$tmp/out" "$tmp/slow.ini" 2>&1); rc=$?
check "a second run with --resume: exit 2 too" '[ $rc -eq 2 ]' "$out"
check "the first's partial file is the same file, as it left it" \
        '[ "$(stat -c %i "$tmp/out/.slow.partial.tsv" 2>/dev/null)" = "$before" ] && [ "$(grep -c "^[0-9]" "$tmp/out/.slow.partial.tsv")" -eq 1 ]'
# Another --out meanwhile: the lock is per output directory.
"$ipclab" run --out "$tmp/out2" "$tmp/small.ini" 2>/dev/null; rc=$?
check "a run into another --out meanwhile: exit 0" '[ $rc -eq 0 ] && stopped $bg'
kill -CONT "$bg"
wait "$bg"; rc=$?
bg=
check "the first run goes on and ends normally (exit 0)" '[ $rc -eq 0 ] && [ "$(wc -l < "$tmp/out/slow/samples.tsv")" -eq 9 ]' \
        "$(tail -3 "$tmp/first.err")"
clean "concurrent runs"

# ---- --resume trusts nothing ----
rm -rf "$tmp/out"
out=$("$ipclab" run --resume --out "$tmp/out" "$tmp/small.ini" 2>&1); rc=$?
check "--resume without a partial file: says it starts afresh, exit 0" \
        '[ $rc -eq 0 ] && grep -q "no interrupted run to continue.*starting afresh" <<<"$out"'
good=$tmp/out/small/samples.tsv
sha=$(sha256sum "$tmp/small.ini" | cut -d" " -f1)
partial=$tmp/out/.small.partial.tsv
{
        echo "# ipclab partial sha256=$sha profile=default"
        head -1 "$good"
} > "$tmp/header"
: > "$partial"
out=$("$ipclab" run --resume --out "$tmp/out" "$tmp/small.ini" 2>&1); rc=$?
check "an empty partial file: says so, starts afresh" '[ $rc -eq 0 ] && grep -q "is empty, so it holds no finished repetition" <<<"$out"'
head -c 60 "$tmp/header" > "$partial"
out=$("$ipclab" run --resume --out "$tmp/out" "$tmp/small.ini" 2>&1); rc=$?
check "a header cut short: says so, starts afresh" '[ $rc -eq 0 ] && grep -q "cut short within its header" <<<"$out"'
# Rows 1-3 as written; row 4 with BANANA for elapsed_ns; row 1 again; a
# row of a cell this matrix does not have; a row whose transport is not
# its cell's; a row with an ok status and no numbers; a torn last line.
rows=$(tail -n +2 "$good")
r1=$(sed -n 1p <<<"$rows") r4=$(sed -n 4p <<<"$rows")
# elapsed_ns and lat_max_ns, the first and the last number of an ok row's
# window, by name.
el=$(tsv_index elapsed_ns "$good") lmax=$(tsv_index lat_max_ns "$good")
{
        cat "$tmp/header"
        sed -n 1,3p <<<"$rows"
        awk -F'\t' -v OFS='\t' -v el="$el" '{ $el = "BANANA"; print }' <<<"$r4"
        echo "$r1"
        awk -F'\t' -v OFS='\t' '{ $1 = 7; print }' <<<"$r1"
        awk -F'\t' -v OFS='\t' '{ $5 = "fifo"; $2 = 2; print }' <<<"$r1"
        awk -F'\t' -v OFS='\t' -v el="$el" -v lmax="$lmax" '{ for (i = el; i <= lmax; i++) $i = "-"; $2 = 1; print }' <<<"$r1"
        printf '%s' "$(sed -n 5p <<<"$rows" | cut -c1-20)"
} > "$partial"
# The good rows' latencies, as the interrupted run would have left them
# (a row is kept only with all of its latencies there).
zcat "$tmp/out/small/latencies.tsv.gz" > "$tmp/out/.small.partial-latencies.tsv"
out=$("$ipclab" run --resume --out "$tmp/out" "$tmp/small.ini" 2>&1); rc=$?
check "resume over corrupted rows: exit 0" '[ $rc -eq 0 ]'
check "BANANA dropped, its line named" 'grep -q "partial.tsv:6: dropped: elapsed_ns is .BANANA." <<<"$out"'
check "the repeated row dropped, named" 'grep -q "partial.tsv:7: dropped: repetition 0 of cell 0 is already there" <<<"$out"'
check "the foreign cell dropped, named" 'grep -q "partial.tsv:8: dropped: cell .7. is not a cell of this experiment" <<<"$out"'
check "the wrong axis dropped, named" 'grep -q "partial.tsv:9: dropped: transport is .fifo." <<<"$out"'
check "the ok row without numbers dropped, named" 'grep -q "partial.tsv:10: dropped" <<<"$out"'
check "the torn line dropped, named" 'grep -q "partial.tsv:11: dropped a torn last line" <<<"$out"'
check "samples.tsv: 6 rows, each repetition once, every number a number" \
        '[ "$(tsv_cols "$good" cell rep | sort -u | wc -l)" -eq 6 ] && [ "$(wc -l < "$good")" -eq 7 ] &&
         ! grep -q BANANA "$good" && [ -z "$(tsv_cols "$good" elapsed_ns | grep -vx "[0-9][0-9]*")" ]'
check "the three good rows were kept, not measured again" \
        '[ "$(grep -cxF -f <(sed -n 1,3p <<<"$rows") "$good")" -eq 3 ]'
check "no partial file left" '[ ! -e "$partial" ]'
clean "corrupted resume"

# ---- an unusable --out ----
touch "$tmp/afile"
out=$("$ipclab" run --out "$tmp/afile" "$tmp/small.ini" 2>&1); rc=$?
check "--out a file: exit 2, named" '[ $rc -eq 2 ] && grep -q "^ipclab: --out $tmp/afile" <<<"$out"'
out=$("$ipclab" run --out "$tmp/afile/sub" "$tmp/small.ini" 2>&1); rc=$?
check "--out below a file: exit 2, named" '[ $rc -eq 2 ] && grep -q "^ipclab: --out $tmp/afile/sub: cannot create" <<<"$out"'
mkdir "$tmp/ro"
if [ "$(id -u)" -ne 0 ]; then
        chmod 0555 "$tmp/ro"
        out=$("$ipclab" run --out "$tmp/ro" "$tmp/small.ini" 2>&1); rc=$?
        check "--out read-only: exit 2, named" '[ $rc -eq 2 ] && grep -q "^ipclab: --out $tmp/ro: cannot write there" <<<"$out"'
elif mount -t tmpfs -o ro,size=1m none "$tmp/ro" 2>/dev/null; then
        out=$("$ipclab" run --out "$tmp/ro" "$tmp/small.ini" 2>&1); rc=$?
        check "--out read-only: exit 2, named" '[ $rc -eq 2 ] && grep -q "^ipclab: --out $tmp/ro: cannot write there (Read-only file system" <<<"$out"'
        umount "$tmp/ro"
else
        skip "read-only --out" "root, and no tmpfs mount here"
fi
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
        mkdir -p "$tmp/theirs"
        chmod 0755 "$tmp/theirs" "$tmp"
        # (a copy nobody can reach: the tree may be in /root)
        out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups env XDG_RUNTIME_DIR=/tmp TMPDIR=/tmp \
                "$(for_others "$tmp/nobody" "$root/harness/ipclab")" run --out "$tmp/theirs" "$tmp/small.ini" 2>&1); rc=$?
        check "--out not ours (as nobody): exit 2, named" '[ $rc -eq 2 ] && grep -q "^ipclab: --out $tmp/theirs: cannot write there" <<<"$out"'
fi

# ---- long temporary paths ----
long=$tmp/run/$(printf 'x%.0s' $(seq $((106 - ${#tmp} - 5))))
mkdir -p "$long"
cat > "$tmp/sockets.ini" <<'INI'
[experiment]
title=sockets
transport=unix-stream;unix-dgram;unix-seqpacket;libdbus
bus=p2p
count=100
repeat=1
INI
out=$(TMPDIR=$long XDG_RUNTIME_DIR=$long "$ipclab" run --out "$tmp/out" "$tmp/sockets.ini" 2>&1); rc=$?
check "106-character TMPDIR and XDG_RUNTIME_DIR (${#long}): exit 0" '[ $rc -eq 0 ] && [ ${#long} -eq 106 ]'
check "unix-stream, unix-dgram, unix-seqpacket, libdbus p2p: all ok" \
        '[ "$(tsv_cols "$tmp/out/sockets/samples.tsv" status | grep -cx ok)" -eq 4 ]'
check "long paths: nothing left in them" '[ -z "$(find "$long" -mindepth 1)" ]'
# Neither fits a socket path, so the sockets went to /tmp: the same run in
# a mount namespace whose /tmp is a directory of ours, which must be left
# empty.  (Without one, /tmp is everyone's: no way to tell ours apart.)
shm=$(mktemp -d -p /dev/shm 2>/dev/null)
if [ -n "$shm" ] && command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
        cp "$tmp/sockets.ini" "$shm/"
        mkdir "$shm/tmp"
        # (the binary itself: the wrapper is under the /tmp it hides)
        out=$(TMPDIR=$long XDG_RUNTIME_DIR=$long unshare -m sh -c \
                'mount --bind "$3" /tmp && exec "$0" run --out "$1" "$2"' \
                "$root/harness/ipclab" "$shm/out" "$shm/sockets.ini" "$shm/tmp" 2>&1); rc=$?
        check "long paths, /tmp a directory of ours: the sockets went there, and nothing is left in it" \
                '[ $rc -eq 0 ] && [ "$(tsv_cols "$shm/out/sockets/samples.tsv" status | grep -cx ok)" -eq 4 ] &&
                 [ -z "$(ls -A "$shm/tmp")" ]' "$out" "$(ls -A "$shm/tmp")"
        rm -rf "$shm"
else
        [ -n "$shm" ] && rm -rf "$shm"
        skip "long paths: nothing left in /tmp" "no /dev/shm or no mount namespace here"
fi
shm=$(mktemp -d -p /dev/shm 2>/dev/null)
if [ -n "$shm" ] && command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
        # /tmp read-only (and with it the long directories under it); the
        # results go to /dev/shm.
        cp "$tmp/sockets.ini" "$shm/"
        out=$(TMPDIR=$long XDG_RUNTIME_DIR=$long unshare -m sh -c \
                'mount --bind /tmp /tmp && mount -o remount,bind,ro /tmp && exec "$0" run --out "$1" "$2"' \
                "$ipclab" "$shm/out" "$shm/sockets.ini" 2>&1); rc=$?
        check "nothing fits (long paths, /tmp read-only): the failure says exactly that" \
                'grep -q "failed: no directory where a socket path fits in sun_path (108 bytes): " <<<"$out" &&
                 grep -q "XDG_RUNTIME_DIR (${#long} bytes), \$TMPDIR (${#long} bytes), /tmp: Read-only file system" <<<"$out"'
        rm -rf "$shm"
else
        [ -n "$shm" ] && rm -rf "$shm"
        skip "nothing fits" "no /dev/shm or no mount namespace here"
fi
clean "long paths"

# ---- a stopped helper command ----
# A systemd-detect-virt that answers by mode and says where it runs; when
# told to pause it first starts a child that waits forever and waits for
# it, and the test stops it with SIGSTOP while ipclab waits for it.
cat > "$tmp/bin/systemd-detect-virt" <<SH
#!/bin/sh
echo \$\$ > "$tmp/helper.pid"
if [ -e "$tmp/helper.pause" ]; then
        sleep infinity &
        echo \$! > "$tmp/helper.child"
        wait
fi
case "\$1" in --vm) echo kvm ;; --container) echo docker ;; *) echo docker ;; esac
SH
chmod +x "$tmp/bin/systemd-detect-virt"
# Starts `ipclab run` into $1 with the helper paused and stops the helper
# once its child runs: $bg the run, $helper and $child.
start_stopped_helper() {
        rm -f "$tmp/helper.pid" "$tmp/helper.child"
        touch "$tmp/helper.pause"
        PATH=$tmp/bin:$PATH "$ipclab" run --out "$1" "$tmp/small.ini" 2>"$tmp/helper.err" &
        bg=$!
        wait_until '[ -s "$tmp/helper.child" ] || ! kill -0 $bg 2>/dev/null'
        helper=$(cat "$tmp/helper.pid" 2>/dev/null) child=$(cat "$tmp/helper.child" 2>/dev/null)
        [ -n "$helper" ] && kill -STOP "$helper"
}
for sig in INT TERM; do
        # ipclab gives a helper 5 s; the signal must come before that for
        # this to test anything: when the limit came first (its warning is
        # printed), the attempt is made again.
        attempts=0
        while :; do
                attempts=$((attempts + 1))
                start_stopped_helper "$tmp/out-$sig"
                kill -"$sig" "$bg"
                wait "$bg"; rc=$?
                bg=
                grep -q "did not answer within" "$tmp/helper.err" || break
                rm -rf "$tmp/out-$sig"
        done
        check "SIG$sig while a helper is stopped: exit 130 at once, before its time limit (attempt $attempts)" \
                '[ $rc -eq 130 ] && [ -n "$helper" ]' "$(tail -3 "$tmp/helper.err")"
        check "SIG$sig: the stopped helper was killed and reaped, and what it started" \
                '[ -n "$child" ] && gone "$helper" && gone "$child"'
        check "SIG$sig: no results written" '[ ! -e "$tmp/out-$sig/small" ]'
        clean "SIG$sig with a stopped helper"
done
start_stopped_helper "$tmp/out-stop"
wait "$bg"; rc=$?
bg=
check "a stopped helper is killed at its time limit; the run goes on (exit $rc)" '[ $rc -eq 0 ]' "$(tail -3 "$tmp/helper.err")"
check "meta.ini says the helper timed out" 'grep -q "systemd-detect-virt timed out" "$tmp/out-stop/small/meta.ini"'
check "a warning says so" 'grep -q "did not answer within 5 s; killed" "$tmp/helper.err"'
check "the stopped helper is gone, and what it started" 'gone "$helper" && gone "$child"'
clean "stopped helper"
rm -f "$tmp/helper.pause"

# ---- provenance: the hypervisor and the container apart ----
PATH=$tmp/bin:$PATH "$ipclab" run --out "$tmp/out-virt" "$tmp/small.ini" 2>/dev/null
m=$tmp/out-virt/small/meta.ini
check "meta.ini [machine]: hypervisor=kvm, container=docker, virtualisation=docker in kvm" \
        'grep -qx "hypervisor=kvm" "$m" && grep -qx "container=docker" "$m" && grep -qx "virtualisation=docker in kvm" "$m"'
# ... and what sits on every system call and switch: page-table isolation
# (x86's cpuinfo flag) and the mitigations the kernel reports.
if [ "$(uname -m)" = x86_64 ]; then
        pti=off; grep -qw pti /proc/cpuinfo && pti=on
        check "meta.ini [machine]: page_table_isolation=$pti, as /proc/cpuinfo's flags say" \
                'grep -qx "page_table_isolation=$pti" "$m"' "$(grep page_table "$m")"
fi
if [ -d /sys/devices/system/cpu/vulnerabilities ]; then
        want=$(cd /sys/devices/system/cpu/vulnerabilities && for f in $(ls | LC_ALL=C sort); do
                s=$(cat "$f"); [ "$s" = "Not affected" ] || printf '%s: %s; ' "$f" "$s"; done)
        want=${want%; }
        check "meta.ini [machine]: cpu_mitigations lists every mitigation but \"Not affected\" (${want:-none})" \
                'grep -qxF "cpu_mitigations=${want:-none}" "$m"' "$(grep cpu_mitigations "$m")"
fi

# ---- leftovers of killed runs ----
mkdir -m 0700 "$tmp/run/ipclab-STALE1" "$tmp/run/ipclab-LIVE01" "$tmp/run/ipclab-OLD000" "$tmp/run/ipclab-NEW000"
echo "999999999 12345" > "$tmp/run/ipclab-STALE1/owner"
sleep infinity & live=$!   # a process that lives until the test ends it
echo "$live $(sed 's/.*) //' /proc/$live/stat | cut -d" " -f20)" > "$tmp/run/ipclab-LIVE01/owner"
touch -d '2 minutes ago' "$tmp/run/ipclab-OLD000"
"$ipclab" run --out "$tmp/out" "$tmp/small.ini" 2>/dev/null
check "a directory whose owner is gone: removed" '[ ! -e "$tmp/run/ipclab-STALE1" ]'
check "an old directory without an owner file: removed" '[ ! -e "$tmp/run/ipclab-OLD000" ]'
check "a directory whose owner lives: kept" '[ -e "$tmp/run/ipclab-LIVE01" ]'
check "a fresh one without an owner file (being made): kept" '[ -e "$tmp/run/ipclab-NEW000" ]'
kill "$live"
wait "$live" 2>/dev/null
rm -rf "$tmp/run/ipclab-LIVE01" "$tmp/run/ipclab-NEW000"
# For real: kill -9 during a cell (one that never ends by itself), then
# run again.
"$ipclab" run --out "$tmp/out" "$tmp/endless.ini" 2>/dev/null &
bg=$!
wait_until '[ -n "$(find "$tmp/run" -maxdepth 1 -name "ipclab-*")" ] || ! kill -0 $bg 2>/dev/null'
kill -KILL "$bg"
{ wait "$bg"; } 2>/dev/null
bg=
# Its server and client die with it (a parent-death signal): wait for that.
wait_until '[ -z "$(ours)" ]'
left=$(find "$tmp/run" -maxdepth 1 -name 'ipclab-*')
check "kill -9 leaves its private directory ($left)" '[ -n "$left" ]'
"$ipclab" run --out "$tmp/out" "$tmp/small.ini" 2>/dev/null; rc=$?
check "the next run removes it" '[ $rc -eq 0 ] && [ -z "$(find "$tmp/run" -maxdepth 1 -name "ipclab-*")" ]'
clean "kill -9"

# ---- the progress line on an 80-column terminal ----
if command -v script >/dev/null; then
        script -qec "stty cols 80; \"$ipclab\" run --out \"$tmp/out\" \"$tmp/small.ini\"" /dev/null > "$tmp/tty.out" 2>&1
        updates=$(tr '\r' '\n' < "$tmp/tty.out" | grep -c '^.\[Kcell ')
        longest=$(tr '\r' '\n' < "$tmp/tty.out" | grep '^.\[Kcell ' | sed 's/^.\[K//' | awk '{ print length }' | sort -n | tail -1)
        check "80 columns: $updates progress updates, none wider than 79 ($longest)" \
                '[ "$updates" -ge 6 ] && [ "$longest" -le 79 ]'
        script -qec "stty cols 200; \"$ipclab\" run --out \"$tmp/out\" \"$tmp/small.ini\"" /dev/null > "$tmp/tty.out" 2>&1
        longest=$(tr '\r' '\n' < "$tmp/tty.out" | grep '^.\[Kcell ' | sed 's/^.\[K//' | awk '{ print length }' | sort -n | tail -1)
        check "200 columns: the whole line ($longest)" '[ "$longest" -gt 80 ]'
else
        skip "the progress line on a terminal" "no script(1) for a terminal"
fi
clean "terminal"

done_testing
