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
        local rc=$? what=$1 cond=$2
        shift 2
        tap_status "$rc"
        if eval "$cond"; then ok "$what"; else not_ok "$what" "$@"; return 1; fi
}
tap_status() { return "$1"; }
# check_run WHAT COMMAND...: the same, from COMMAND's exit status (no eval:
# the arguments reach COMMAND as given).
check_run() {
        local what=$1
        shift
        if "$@"; then ok "$what"; else not_ok "$what"; return 1; fi
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
# pids_with_env NAME=VALUE: the processes (not this shell) whose environment
# holds exactly NAME=VALUE.  A test names its own processes this way (a
# value only it uses, such as its temporary directory), never by a pattern
# another run could match.
pids_with_env() {
        local p
        for p in /proc/[0-9]*; do
                [ "${p#/proc/}" = "$$" ] && continue
                tr '\0' '\n' < "$p/environ" 2>/dev/null | grep -qxF -- "$1" && echo "${p#/proc/}"
        done
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
