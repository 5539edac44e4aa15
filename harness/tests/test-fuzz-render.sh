#!/bin/bash
# test-fuzz-render.sh: `make fuzz-render-check` (mk/fuzz.mk): the renderer
# fuzzed for FUZZ_RENDER_RUNS inputs (a count, not a time), seeded with
# harness/tests/corpus-render/: no value written into a generated gnuplot
# script changes its code outside string literals and comments, the
# gnuplot literal of any value stays one literal, and no name or input
# `ipclab check --list-outputs` prints for make holds more than letters,
# digits, '.', '_' and '-' (harness/tests/fuzz-render.c).  One TAP line.
set -u
cd "$(dirname "$0")/../.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT

if ! command -v "${FUZZ_CC:-clang}" >/dev/null; then
        echo "ok 1 - fuzz-render # SKIP ${FUZZ_CC:-clang} is not installed (apt-get install clang libclang-rt-14-dev)"
        echo "1..1"
        exit 0
fi
if ! make --no-print-directory -s fuzz-render-build >"$log" 2>&1; then
        echo "not ok 1 - fuzz-render: the fuzzer does not build (clang, libclang-rt-14-dev)"
        tail -20 "$log" | sed 's/^/# /'
        echo "1..1"
        exit 1
fi
make --no-print-directory -s fuzz-render-check 2>&1 | grep -v '^make'
rc=${PIPESTATUS[0]}
echo "1..1"
exit "$rc"
