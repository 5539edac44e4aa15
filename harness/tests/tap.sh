# tap.sh: what every shell test sources after `cd` to the top of the tree.
# Prints TAP lines, "ok N - what" or "not ok N - what" (followed by "# ..."
# lines for any further arguments), or "ok N - what # SKIP why" for a test
# that could not run here, which harness/tests/run-tests counts apart; the
# test ends with `echo "1..$n"` and exits non-zero when $failed > 0.
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
# check WHAT 'SHELL CONDITION': ok when the condition, evaluated, holds;
# status 1 when it does not, so that `check ... || show-why` works.
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; return 1; fi; }
# check_run WHAT COMMAND...: the same, from COMMAND's exit status (no eval:
# the arguments reach COMMAND as given).
check_run() {
        local what=$1
        shift
        if "$@"; then ok "$what"; else not_ok "$what"; return 1; fi
}
# wait_for SECONDS 'SHELL CONDITION': polls the condition every 50 ms until
# it holds (status 0) or SECONDS have passed (status 1).  For a state a
# process reaches sooner or later: a generous bound, no guessed sleep.
wait_for() {
        local end=$((SECONDS + $1))
        until eval "$2"; do
                [ "$SECONDS" -lt "$end" ] || return 1
                sleep 0.05
        done
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
