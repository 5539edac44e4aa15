#!/bin/bash
# test-ssh.sh: the machine axis, and `ipclab run --host ssh://...` through a
# real OpenSSH server.
#
# First, without ssh: a run here writes the machine column (this host's
# short name) and [machine NAME] in meta.ini; a samples.tsv written before
# the column still summarizes and verifies, as one machine.
#
# Then an sshd of our own on a loopback port, with throw-away host and user
# keys in a temp dir (-f its own sshd_config, -D -e, StrictModes no), in a
# UTS namespace of its own whose host name is ipclab-target: the target
# names itself apart from this host, so that the merge of two machine names
# is exercised (it is the same hardware: a test of the mechanics, not a
# second machine to measure).  Through it: a run whose samples come back
# with the target's name, the remote directory removed afterwards, a
# hostile experiment path that reaches no shell, and a run of `--host
# local --host ssh://...` whose connection is cut mid-run (the sshd
# session process killed): the data here stays as it was, the target
# cleans up after itself, and --resume keeps the machine already measured
# and finishes the other.  The cut comes at an exact point: the target's
# run stops itself after its third row (the stop shim, preloaded into the
# sessions of our sshd) and the test cuts once the rows and their
# latencies have passed the ssh client here (a tee on its stderr), so they
# reach ipclab however late it reads them.  The target's directories are
# in the test's own directory (sshd's SetEnv TMPDIR), its processes found
# by that variable: nothing machine-wide.  Last, the same through a systemd-nspawn
# container of the cached image reached over SSH (harness/place/env/
# ssh-container.sh), when there is one.  Skips with the reason where sshd,
# ssh, unshare or the image is missing or cannot run.
set -u
cd "$(dirname "$0")/../.."
ipclab=$PWD/harness/ipclab
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ipclab-test-ssh.XXXXXX")
sshd_pid=
cleanup() {
        [ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null && wait "$sshd_pid" 2>/dev/null
        rm -rf "$tmp"
}
trap cleanup EXIT
. harness/tests/tap.sh
col() { head -1 "$2" | tr '\t' '\n' | grep -nx "$1" | cut -d: -f1; }
me=$(hostname); me=${me%%.*}

cat > "$tmp/tiny.ini" <<'INI'
[experiment]
title=tiny, for the machine axis
transport=pipe;unix-stream
size=64
pattern=roundtrip
count=200
repeat=2
INI

# ---- 1. The machine axis, here -----------------------------------------
"$ipclab" run --out "$tmp/here" "$tmp/tiny.ini" 2>"$tmp/here.err"; rc=$?
s=$tmp/here/tiny/samples.tsv
check "a run here exits 0" '[ $rc -eq 0 ]' || sed 's/^/# /' "$tmp/here.err"
check "samples.tsv has a machine column, after env" '[ "$(head -1 "$s" | cut -f3,4)" = "env	machine" ]'
check "every row names this host ($me)" '[ "$(tsv_cols "$s" machine | sort -u)" = "$me" ]'
check "meta.ini: [machine $me] with CPU, kernel, libraries and load" \
        'awk -v g="[machine $me]" "\$0 == g { in_g = 1; next } /^\[/ { in_g = 0 } in_g" "$tmp/here/tiny/meta.ini" |
         grep -q "^cpu_model=" && grep -q "^kernel=" <(sed -n "/^\[machine $me\]/,/^\[/p" "$tmp/here/tiny/meta.ini") &&
         sed -n "/^\[machine $me\]/,/^\[/p" "$tmp/here/tiny/meta.ini" | grep -q "^glib=" &&
         sed -n "/^\[machine $me\]/,/^\[/p" "$tmp/here/tiny/meta.ini" | grep -q "^load_start="'
check "meta.ini: [run] machine=$me" 'grep -qx "machine=$me" "$tmp/here/tiny/meta.ini"'
sum=$("$ipclab" summarize "$tmp/here/tiny" 2>&1)
check "summarize has the machine column" '[ "$(head -1 <<<"$sum" | cut -f3)" = machine ] && [ "$(tsv_cols <(printf "%s\n" "$sum") machine | sort -u)" = "$me" ]'
# Old data: the same file without the column reads as one machine, the
# host its meta.ini names.
mkdir -p "$tmp/old/tiny"
cut --complement -f4 "$s" > "$tmp/old/tiny/samples.tsv"
sed 's/^hostname=.*/hostname=oldbox.example.org/' "$tmp/here/tiny/meta.ini" > "$tmp/old/tiny/meta.ini"
osum=$("$ipclab" summarize "$tmp/old/tiny" 2>&1); rc=$?
check "a samples.tsv without machine still summarizes" '[ $rc -eq 0 ]' "$osum"
# The columns after the machine, less the pooled latencies: old data has
# no latencies.tsv.gz, so those are "-" there.
after_machine() { awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) keep[i] = $i !~ /^pooled_/ }
        { o = ""; for (i = 4; i <= NF; i++) if (keep[i]) o = o (o == "" ? "" : "\t") $i; print o }'; }
check "... as one machine, named by its meta.ini (oldbox)" \
        '[ "$(tsv_cols <(printf "%s\n" "$osum") machine | sort -u)" = oldbox ] && [ "$(after_machine <<<"$osum")" = "$(after_machine <<<"$sum")" ]'

# ---- 2. An sshd of our own ------------------------------------------------
sshd_bin=$(command -v sshd || echo /usr/sbin/sshd)
why=
[ -x "$sshd_bin" ] || why="no sshd (apt-get install -y openssh-server)"
[ -z "$why" ] && ! command -v ssh >/dev/null && why="no ssh client (apt-get install -y openssh-client)"
[ -z "$why" ] && ! command -v unshare >/dev/null && why="no unshare (apt-get install -y util-linux)"
[ -z "$why" ] && [ "$(id -u)" -ne 0 ] && why="needs root for a UTS namespace with the target's own host name"
if [ -z "$why" ]; then
        ssh-keygen -q -t ed25519 -N '' -f "$tmp/host_key" -C host && ssh-keygen -q -t ed25519 -N '' -f "$tmp/user_key" -C user ||
                why="ssh-keygen failed"
        cp "$tmp/user_key.pub" "$tmp/authorized_keys"
        mkdir -p /run/sshd   # its privilege-separation directory
        shim=$(stop_shim "$tmp") || why="the stop shim does not build"
        mkdir -p "$tmp/target"
fi
port=
for try in 1 2 3 4 5; do
        [ -n "$why" ] && break
        p=$((20000 + RANDOM % 40000))
        { harness/place/env/ssh-container.sh config "$p" "$tmp"
          # the sessions' temporary directories are ours; a run there stops
          # itself where IPCLAB_TEST_STOP_ROWS (sent by the client) says
          echo "SetEnv TMPDIR=$tmp/target LD_PRELOAD=$shim"
          echo "AcceptEnv IPCLAB_TEST_STOP_ROWS"; } > "$tmp/sshd_config"
        unshare --uts sh -c 'hostname ipclab-target && exec "$0" -D -e -f "$1"' "$sshd_bin" "$tmp/sshd_config" \
                2>"$tmp/sshd.log" &
        sshd_pid=$!
        echo "[127.0.0.1]:$p $(cut -d' ' -f1,2 "$tmp/host_key.pub")" > "$tmp/known_hosts"
        export IPCLAB_SSH_OPTS="-F /dev/null -i '$tmp/user_key' -o IdentitiesOnly=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile='$tmp/known_hosts' -o ConnectTimeout=5 -o SendEnv=IPCLAB_TEST_STOP_ROWS"
        if wait_until 'grep -q "Server listening" "$tmp/sshd.log" || ! kill -0 $sshd_pid 2>/dev/null' &&
           kill -0 $sshd_pid 2>/dev/null; then
                port=$p
                break
        fi
        wait "$sshd_pid" 2>/dev/null
        sshd_pid=
done
[ -z "$why" ] && [ -z "$port" ] && why="sshd did not start: $(tail -1 "$tmp/sshd.log")"
if [ -n "$why" ]; then
        skip "ipclab run --host ssh://" "$why"
        done_testing
fi
target=ssh://root@127.0.0.1:$port
# shellcheck disable=SC2086
eval "ssh_opts=($IPCLAB_SSH_OPTS)"
check "the target answers, as ipclab-target" \
        '[ "$(ssh "${ssh_opts[@]}" -p $port root@127.0.0.1 hostname 2>&1)" = ipclab-target ]'
# The target's private directories, and its processes: ours alone.
remote_dirs() { ls -d "$tmp"/target/ipclab.* 2>/dev/null | wc -l; }
before=$(remote_dirs)
target_procs() { pids_with_env "TMPDIR=$tmp/target"; }
# The target's `ipclab run` that stopped itself (the stop shim), if any.
remote_stopped_run() {
        local p
        for p in $(target_procs); do
                [ "$(cat /proc/$p/comm 2>/dev/null)" = ipclab ] && stopped "$p" && echo "$p"
        done
}
# Lines of the target's resume files ($1: partial, partial-latencies).
remote_lines() { cat "$tmp"/target/ipclab.*/out/.cut."$1".tsv 2>/dev/null | wc -l; }
# ... and those that passed the ssh client here, marked by the run script.
passed_lines() { grep -c "^ipclab-$1: " "$tmp/ssh-stderr.log" 2>/dev/null; }

# ---- 3. A run through it ---------------------------------------------------
"$ipclab" run --host "$target" --out "$tmp/out" "$tmp/tiny.ini" 2>"$tmp/ssh.err"; rc=$?
s=$tmp/out/tiny/samples.tsv
check "ipclab run --host $target exits 0" '[ $rc -eq 0 ]' || sed 's/^/# /' "$tmp/ssh.err"
check "it says how it decided to send the binary" 'grep -q "sending the binary ($(uname -m), glibc" "$tmp/ssh.err"' "$(grep "$target" "$tmp/ssh.err")"
check "4 rows came back, all ok" '[ "$(tsv_cols "$s" status | grep -c "^ok$")" -eq 4 ]'
check "every row names the target's machine" '[ "$(tsv_cols "$s" machine | sort -u)" = ipclab-target ]'
check "meta.ini has [machine ipclab-target] and [run] machines=ipclab-target" \
        'grep -qx "\[machine ipclab-target\]" "$tmp/out/tiny/meta.ini" && grep -qx "machines=ipclab-target" "$tmp/out/tiny/meta.ini"'
check "the target's output is kept as console-ipclab-target.log" '[ -s "$tmp/out/tiny/console-ipclab-target.log" ]'
check "nothing is left on the target" 'wait_until "[ \$(remote_dirs) -eq $before ]"'
check "no staging directory is left here" '[ -z "$(ls -A "$tmp/out" | grep -v "^tiny$\|^\.ipclab.lock$")" ]' "$(ls -A "$tmp/out")"

# Built there from the sources sent (as for a target whose libraries
# differ): IPCLAB_REMOTE_BUILD=1 takes that path here.
IPCLAB_REMOTE_BUILD=1 "$ipclab" run --host "$target" --out "$tmp/built" "$tmp/tiny.ini" 2>"$tmp/built.err"; rc=$?
check "built on the target from the sources: exits 0" '[ $rc -eq 0 ]' "$(tail -5 "$tmp/built.err")"
check "... it says so" 'grep -q "building there from the sources (IPCLAB_REMOTE_BUILD=1)" "$tmp/built.err"'
check "... and its rows came back" '[ "$(tsv_cols "$tmp/built/tiny/samples.tsv" status | grep -c "^ok$")" -eq 4 ]'
check "... the built binary recorded the build's provenance" 'grep -q "^ipclab_commit=" "$tmp/built/tiny/meta.ini"'
check "... and nothing is left on the target" 'wait_until "[ \$(remote_dirs) -eq $before ]"'

# A hostile path: quotes, spaces and a command substitution in the
# directory of the experiment file reach no shell, here or there.
hostile="$tmp/it's \$(touch $tmp/pwned) \`touch $tmp/pwned2\`; dir"
mkdir -p "$hostile"
cp "$tmp/tiny.ini" "$hostile/tiny.ini"
"$ipclab" run --host "$target" --out "$tmp/hostile-out" "$hostile/tiny.ini" 2>"$tmp/hostile.err"; rc=$?
check "a hostile experiment path runs" '[ $rc -eq 0 ]' || sed 's/^/# /' "$tmp/hostile.err"
check "... and no shell ran what it holds" '[ ! -e "$tmp/pwned" ] && [ ! -e "$tmp/pwned2" ] && [ ! -e "$hostile/../pwned" ]'
# A hostile target is refused before any ssh.
"$ipclab" run --host "ssh://root@127.0.0.1:$port;touch $tmp/pwned3" --out "$tmp/x" "$tmp/tiny.ini" 2>"$tmp/bad.err"; rc=$?
check "a target that is not user@host:port is refused (exit 2)" '[ $rc -eq 2 ] && [ ! -e "$tmp/pwned3" ]' "$(cat "$tmp/bad.err")"
"$ipclab" run --host "ssh://-oProxyCommand=touch%20$tmp/pwned4@x" --out "$tmp/x" "$tmp/tiny.ini" 2>/dev/null; rc=$?
check "a host or user that would be an ssh option is refused" '[ $rc -eq 2 ] && [ ! -e "$tmp/pwned4" ]'

# ---- 4. The connection cut mid-run ------------------------------------------
cat > "$tmp/cut.ini" <<'INI'
[experiment]
title=long enough to be cut
transport=pipe;unix-stream
size=64;4096
pattern=roundtrip
count=20000
repeat=3
INI
mkdir -p "$tmp/cutout/cut"
echo "the data from before" > "$tmp/cutout/cut/samples.tsv"
# An ssh that copies its stderr (the target's streamed rows, in order)
# to a log, after ipclab's pipe has them.
mkdir -p "$tmp/sshwrap"
printf '#!/bin/bash\nexec %q "$@" 2> >(tee -a %q >&2)\n' "$(command -v ssh)" "$tmp/ssh-stderr.log" > "$tmp/sshwrap/ssh"
chmod +x "$tmp/sshwrap/ssh"
PATH=$tmp/sshwrap:$PATH IPCLAB_TEST_STOP_ROWS=3 "$ipclab" run --host local --host "$target" --out "$tmp/cutout" "$tmp/cut.ini" \
        2>"$tmp/cut.err" &
pid=$!
# The target's run stopped after its third row; then every line of its
# resume files has passed the ssh client.
wait_until '[ -n "$(remote_stopped_run)" ] || ! kill -0 $pid 2>/dev/null'
remote=$(remote_stopped_run)
wait_until '[ -z "$remote" ] || ! kill -0 $pid 2>/dev/null ||
            { [ "$(passed_lines partial)" -eq "$(remote_lines partial)" ] &&
              [ "$(passed_lines partial-latencies)" -eq "$(remote_lines partial-latencies)" ]; }'
if check "the target's run stopped after 3 rows, which came back with their latencies" \
        '[ -n "$remote" ] && [ "$(grep -c "^ipclab-partial: [0-9]" "$tmp/ssh-stderr.log")" -eq 3 ]' "$(tail -5 "$tmp/cut.err")"; then
        pkill -KILL -P "$sshd_pid"
        kill -CONT "$remote"
        wait "$pid"; rc=$?
        check "a cut connection fails the run (exit 1)" '[ $rc -eq 1 ]' "$(tail -3 "$tmp/cut.err")"
        check "... saying the connection was lost, and how many repetitions it keeps for --resume" \
                'grep -q "connection was lost.*the 3 repetitions it had finished are kept in .*--resume. continues from them" "$tmp/cut.err"' \
                "$(grep "connection" "$tmp/cut.err")"
        grep "connection was lost" "$tmp/cut.err" | sed 's/^/# what it said: /'
        grep -h "^[0-9]" "$tmp/cutout/.cut.machines/root@127.0.0.1_$port/.cut.partial.tsv" > "$tmp/cut-kept" 2>/dev/null
        check "... the 3 rows streamed before the cut are kept here" '[ "$(wc -l < "$tmp/cut-kept")" -eq 3 ]'
        check "... the data here is as it was" '[ "$(cat "$tmp/cutout/cut/samples.tsv")" = "the data from before" ]'
        check "... the machine measured first is kept for --resume" '[ -s "$tmp/cutout/.cut.machines/local/cut/samples.tsv" ]'
        check "... the target stops its run and removes its directory" \
                'wait_until "[ -z \"\$(target_procs)\" ]" && [ "$(remote_dirs)" -eq "$before" ]'
        "$ipclab" run --resume --host local --host "$target" --out "$tmp/cutout" "$tmp/cut.ini" 2>"$tmp/resume.err"; rc=$?
        s=$tmp/cutout/cut/samples.tsv
        check "--resume finishes (exit 0)" '[ $rc -eq 0 ]' "$(tail -3 "$tmp/resume.err")"
        check "... keeping the machine already measured" 'grep -q "local already measured, kept" "$tmp/resume.err"'
        check "... and the cut machine's repetitions from before the cut, byte for byte" \
                '[ -z "$(grep -vxF -f "$s" "$tmp/cut-kept")" ]' "$(grep -vxF -f "$s" "$tmp/cut-kept")"
        check "... and merges two machines, 12 rows each" \
                '[ "$(tsv_cols "$s" machine | sort | uniq -c | awk "{ print \$2 \"=\" \$1 }" | tr "\n" " ")" = "ipclab-target=12 $me=12 " ] ||
                 [ "$(tsv_cols "$s" machine | sort | uniq -c | awk "{ print \$2 \"=\" \$1 }" | tr "\n" " ")" = "$me=12 ipclab-target=12 " ]' \
                "$(tsv_cols "$s" machine | sort | uniq -c)"
        check "... meta.ini: one group per machine, [run] machines in order" \
                'grep -qx "\[machine $me\]" "$tmp/cutout/cut/meta.ini" && grep -qx "\[machine ipclab-target\]" "$tmp/cutout/cut/meta.ini" &&
                 grep -qx "machines=$me;ipclab-target" "$tmp/cutout/cut/meta.ini"'
        sum=$("$ipclab" summarize "$tmp/cutout/cut")
        check "summarize gives each cell once per machine" '[ "$(tail -n +2 <<<"$sum" | wc -l)" -eq 8 ]'
        # A claim across machines: selector key machine (in a file that
        # asks for 5 repetitions, which a claim over 2 pairs needs; the
        # data has 3: inconclusive, its pairs printed all the same).
        sed 's/^repeat=3$/repeat=5/' "$tmp/cut.ini" > "$tmp/claim.ini"
        printf '\n[claim same]\ntext=t\nfaster=machine=%s,transport=pipe\nslower=machine=ipclab-target,transport=pipe\nmetric=roundtrip_latency\nby=1000\n' "$me" >> "$tmp/claim.ini"
        mkdir -p "$tmp/cl" && cp -r "$tmp/cutout/cut" "$tmp/cl/claim"
        v=$("$ipclab" verify --pairs --data "$tmp/cl" "$tmp/claim.ini" 2>&1)
        check "a claim can compare machines (machine= in selectors and pairs)" \
                'grep -q "machine=$me (n=3) vs .* machine=ipclab-target (n=3)" <<<"$v"' "$v"
else
        [ -n "$remote" ] && kill -CONT "$remote"
        kill "$pid" 2>/dev/null; wait "$pid"
fi

# ---- 4b. An interrupt (Ctrl-C) stops the target's run and keeps its rows --
# The target's run stops itself after 2 rows; SIGINT here closes its stdin,
# its watcher sends it SIGTERM, and once that is pending it goes on.
IPCLAB_TEST_STOP_ROWS=2 "$ipclab" run --host "$target" --out "$tmp/intout" "$tmp/cut.ini" 2>"$tmp/int.err" &
pid=$!
wait_until '[ -n "$(remote_stopped_run)" ] || ! kill -0 $pid 2>/dev/null'
remote=$(remote_stopped_run)
# SIGTERM (15) among the signals pending for the process.
term_pending() { [ $(( 0x$(awk '/^ShdPnd:/ { print $2 }' /proc/$1/status 2>/dev/null || echo 0) & (1 << 14) )) -ne 0 ]; }
if check "the target's run stopped after 2 rows (for SIGINT)" '[ -n "$remote" ]' "$(tail -5 "$tmp/int.err")"; then
        kill -INT "$pid"
        wait_until 'term_pending $remote || gone $remote'
        kill -CONT "$remote"
        wait "$pid"; rc=$?
        kept=$tmp/intout/.cut.machines/root@127.0.0.1_$port/.cut.partial.tsv
        check "SIGINT: exit 130" '[ $rc -eq 130 ]' "$(tail -3 "$tmp/int.err")"
        check "... the target's 2 finished repetitions came back for --resume" \
                '[ "$(grep -c "^[0-9]" "$kept" 2>/dev/null)" -eq 2 ]' "$(ls -A "$tmp/intout" "$tmp/intout"/.cut.machines/* 2>&1)"
        check "... and nothing is left on the target" 'wait_until "[ -z \"\$(target_procs)\" ]" && [ "$(remote_dirs)" -eq "$before" ]'
        grep "^[0-9]" "$kept" > "$tmp/kept-rows"
        "$ipclab" run --resume --host "$target" --out "$tmp/intout" "$tmp/cut.ini" 2>"$tmp/int2.err"; rc=$?
        check "--resume continues on the target: 12 rows" \
                '[ $rc -eq 0 ] && [ "$(tail -n +2 "$tmp/intout/cut/samples.tsv" | wc -l)" -eq 12 ]' "$(tail -3 "$tmp/int2.err")"
        check "... keeping the repetitions measured before, byte for byte" \
                '[ -s "$tmp/kept-rows" ] && [ -z "$(grep -vxF -f "$tmp/intout/cut/samples.tsv" "$tmp/kept-rows")" ]'
else
        kill "$pid" 2>/dev/null; wait "$pid"
fi

# ---- 5. A container reached over SSH (harness/place/env/ssh-container.sh) ------
# Another userland with its own name: what experiments/machines.ini's
# data compares with this host.
image=$(harness/place/env/build-image.sh dir nspawn 2>/dev/null)
if ! command -v systemd-nspawn >/dev/null; then
        skip "a container reached over SSH" "no systemd-nspawn (apt-get install -y systemd-container)"
elif [ ! -f "$image/complete" ]; then
        skip "a container reached over SSH" "no nspawn image (make env-nspawn)"
elif ! out=$(harness/place/env/ssh-container.sh start "$tmp/ct" $((port + 1)) ipclab-ct 2>&1); then
        skip "a container reached over SSH" "it did not start: $(tail -1 <<<"$out")"
else
        eval "$(grep '^IPCLAB_SSH_OPTS=' <<<"$out")"
        ct=$(sed -n 's/^target=//p' <<<"$out")
        IPCLAB_SSH_OPTS=$IPCLAB_SSH_OPTS "$ipclab" run --host local --host "$ct" --out "$tmp/ctout" "$tmp/tiny.ini" \
                2>"$tmp/ct.err"; rc=$?
        # The image has no compiler: building there must name what to
        # install, and install nothing.
        IPCLAB_REMOTE_BUILD=1 IPCLAB_SSH_OPTS=$IPCLAB_SSH_OPTS "$ipclab" run --host "$ct" --out "$tmp/ctbuild" \
                "$tmp/tiny.ini" 2>"$tmp/ctbuild.err"; brc=$?
        harness/place/env/ssh-container.sh stop "$tmp/ct"
        check "a target without a compiler: exit 2, naming the apt-get line for it" \
                '[ $brc -eq 2 ] && grep -q "ssh://root@127.0.0.1:$((port + 1)) cannot build the harness; as root there: apt-get update && apt-get install -y --no-install-recommends build-essential pkg-config" "$tmp/ctbuild.err"' \
                "$(tail -3 "$tmp/ctbuild.err")"
        s=$tmp/ctout/tiny/samples.tsv
        check "this host and a container over SSH: exit 0" '[ $rc -eq 0 ]' || sed 's/^/# /' "$tmp/ct.err"
        check "... two machines, 4 rows each" \
                '[ "$(tsv_cols "$s" machine | sort | uniq -c | awk "{ print \$1 }" | tr "\n" " ")" = "4 4 " ]'
        check "... [machine ipclab-ct] records the container" \
                'sed -n "/^\[machine ipclab-ct\]/,/^\[/p" "$tmp/ctout/tiny/meta.ini" | grep -qx "container=systemd-nspawn"'
fi

done_testing
