# tap.sh: what every shell test sources after `cd` to the top of the tree.
# Prints TAP lines, "ok N - what" or "not ok N - what" (followed by "# ..."
# lines for any further arguments), which harness/tests/run-tests counts;
# the test ends with `echo "1..$n"` and exits non-zero when $failed > 0.
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
# check WHAT 'SHELL CONDITION': ok when the condition, evaluated, holds.
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }
