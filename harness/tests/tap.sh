# tap.sh: what every shell test sources after `cd` to the top of the tree.
# Prints TAP lines, "ok N - what" or "not ok N - what" (followed by "# ..."
# lines for any further arguments), or "ok N - what # SKIP why" for a test
# that could not run here, which harness/tests/run-tests counts apart; the
# test ends with `done_testing`, which prints the plan "1..N" and exits
# non-zero when a check failed.  A test that stops before it (set -e, a
# crash, a kill) prints no plan, and run-tests counts that as a failure.
#
# Tests wait for events, never for durations: wait_until polls a condition
# (a file, a socket, a line in a log, a process state) with no time limit
# of its own; run-tests ends a test that hangs (IPCLAB_TEST_TIME_LIMIT) and
# names it.  Conditions should also end when what they wait for can no
# longer happen (`... || ! kill -0 $pid`), so that a failure is reported at
# once, by the check that follows, rather than as a hang.
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
        n=$((n + 1))
        failed=$((failed + 1))
        echo "not ok $n - $1"
        shift
        for l in "$@"; do echo "# $l"; done
}
# skip WHAT WHY: WHAT did not run here, because WHY (never empty).
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP ${2:?skip needs a reason}"; }
# check WHAT 'SHELL CONDITION' [NOTE...]: ok when the condition, evaluated,
# holds; otherwise not ok followed by the NOTE lines, and status 1, so that
# `check ... || show-why` works.  The condition sees the caller's $?.
check() {
        local _tap_rc=$? _tap_what=$1 _tap_cond=$2
        shift 2
        tap_status "$_tap_rc"
        if eval "$_tap_cond"; then ok "$_tap_what"; else not_ok "$_tap_what" "$@"; return 1; fi
}
tap_status() { return "$1"; }

# tap_tmp [--runtime]: $ipclab, the harness this tree built, and $tmp, a
# directory of the test's own that goes when the test exits; with
# --runtime, also the runtime and temporary directory ($tmp/run) of
# everything the test starts, so that no bus socket or private directory
# lands in a place other tests share.
tap_tmp() {
        ipclab=$PWD/harness/ipclab
        tmp=$(mktemp -d)
        trap 'rm -rf "$tmp"' EXIT
        if [ "${1:-}" = --runtime ]; then
                export XDG_RUNTIME_DIR=$tmp/run TMPDIR=$tmp/run
                mkdir -p "$tmp/run"
        fi
}
# check_run WHAT COMMAND...: the same, from COMMAND's exit status (no eval:
# the arguments reach COMMAND as given).
check_run() {
        local _tap_what=$1
        shift
        if "$@"; then ok "$_tap_what"; else not_ok "$_tap_what"; return 1; fi
}
# done_testing: the plan, then exit 0 when every check passed, else 1.
done_testing() {
        echo "1..$n"
        exit $((failed > 0))
}
# wait_until 'SHELL CONDITION': polls the condition every 20 ms until it
# holds.  No time limit: see above.
wait_until() {
        until eval "$1"; do
                sleep 0.02
        done
}
# wait_for SECONDS 'SHELL CONDITION': the older form; SECONDS is ignored
# (a test waits for the event, however long it takes).  Use wait_until.
wait_for() { wait_until "$2"; }
# stopped PID: PID exists and is stopped (state T, as SIGSTOP leaves it).
stopped() { [ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)" = T ]; }
# gone PID: PID has ended (it is not there, or a zombie that no one has
# reaped yet: an orphan's new parent may take its time).
gone() {
        local st
        st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
        [ -z "$st" ] || [ "$st" = Z ] || [ "$st" = X ]
}
# pids_with_env NAME=VALUE: the processes (not this shell) whose environment
# holds exactly NAME=VALUE.  A test names its own processes this way (a
# value only it uses, such as its temporary directory), never by a pattern
# another run could match.
pids_with_env() {
        local p
        for p in $(grep -lzxF -- "$1" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3); do
                [ "$p" != "$$" ] && ! gone "$p" && echo "$p"
        done
}
# owned DIR PROGRAM: makes DIR/owned/NAME, a wrapper that runs PROGRAM with
# IPCLAB_TEST_OWNER=DIR in its environment, and prints its path.  What
# PROGRAM starts inherits the variable (ipclab passes IPCLAB_* on to the
# runs inside its containers too), so `owned_pids DIR` finds them all, and
# nothing of another test or of the test's own shell.
owned() {
        mkdir -p "$1/owned"
        printf '#!/bin/sh\nIPCLAB_TEST_OWNER=%s exec %s "$@"\n' "$1" "$2" > "$1/owned/${2##*/}" &&
                chmod +x "$1/owned/${2##*/}" && echo "$1/owned/${2##*/}"
}
owned_pids() { pids_with_env "IPCLAB_TEST_OWNER=$1"; }
# for_others DIR BIN: a copy of BIN (the ipclab binary), with the harness/place/env/
# it reads beside it, in DIR/harness/, for a run as another user, who may
# not reach the tree (a clone in /root); prints the copy's path.  DIR and
# its parents must let that user through.
for_others() {
        mkdir -p "$1/harness" && install -m 0755 "$2" "$1/harness/ipclab" &&
                cp -r harness/place/env "$1/harness/" && chmod -R a+rX "$1/harness" && echo "$1/harness/ipclab"
}
# stop_shim DIR: builds harness/tests/shim/stop-after-rows.c into
# DIR/stop-after-rows.so and prints its path.  With it in LD_PRELOAD and
# IPCLAB_TEST_STOP_ROWS=K, `ipclab run` stops itself (SIGSTOP) right after
# the K-th row of its resume file is on disk: the test sees that state
# (`wait_until "stopped $pid"`), acts, and continues it with SIGCONT.
stop_shim() {
        ${CC:-cc} -shared -fPIC -O2 -Wall -Werror -o "$1/stop-after-rows.so" harness/tests/shim/stop-after-rows.c -ldl &&
                echo "$1/stop-after-rows.so"
}
# tsv_index NAME FILE: the field number of column NAME in TSV FILE's
# header (nothing when it has none).
tsv_index() { head -1 "$2" 2>/dev/null | tr '\t' '\n' | grep -nx "$1" | cut -d: -f1; }
# tsv_cols FILE NAME...: the named columns of every row of TSV FILE, tab-
# separated, one line per row.
tsv_cols() {
        local f=$1
        shift
        awk -F'\t' -v want="$*" 'NR == 1 { n = split(want, w, " "); for (i = 1; i <= NF; i++) c[$i] = i; next }
                { s = ""; for (k = 1; k <= n; k++) s = s (k > 1 ? "\t" : "") $(c[w[k]]); print s }' "$f"
}
# duration_secs TEXT: a duration as ipclab prints it (run_format_duration:
# "350 ms", "12.5 s", "3 min 20 s", "1.5 h") in whole seconds, rounded.
duration_secs() {
        awk '{ for (i = 1; i < NF; i++) { u = $(i + 1); v = $i + 0
                if (u == "h") s += v * 3600; else if (u == "min") s += v * 60
                else if (u == "s") s += v; else if (u == "ms") s += v / 1000 } }
             END { printf "%d\n", s + 0.5 }' <<<"$1"
}
