#!/bin/bash
# test-fuzz.sh: a bounded fuzzing run of the experiment-file parser, as
# `make fuzz-check` does it (mk/fuzz.mk): libFuzzer with ASan and UBSan,
# about a minute (FUZZ_CHECK_TIME seconds), seeded with the malformed corpus
# in harness/tests/corpus/ and the shipped experiments/.  One TAP line: ok
# when no crash, leak, timeout or sanitizer report; else the report and the
# command that reproduces it.
set -u
cd "$(dirname "$0")/../.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT

if ! command -v "${FUZZ_CC:-clang}" >/dev/null; then
        echo "not ok 1 - fuzz-experiment: ${FUZZ_CC:-clang} is not installed (apt-get install clang libclang-rt-14-dev)"
        exit 1
fi
if ! make --no-print-directory -s fuzz-build >"$log" 2>&1; then
        echo "not ok 1 - fuzz-experiment: the fuzzer does not build (clang, libclang-rt-14-dev)"
        tail -20 "$log" | sed 's/^/# /'
        exit 1
fi
make --no-print-directory -s fuzz-check 2>&1 | grep -v '^make'
rc=${PIPESTATUS[0]}
echo "1..1"
exit "$rc"
