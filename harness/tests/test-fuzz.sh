#!/bin/bash
# test-fuzz.sh: a bounded fuzzing run of the experiment-file parser, as
# `make fuzz-check` does it (mk/fuzz.mk): libFuzzer with ASan and UBSan,
# about a minute (FUZZ_CHECK_TIME seconds: a fuzzing budget, not a time
# limit on anything), seeded with the malformed corpus in
# harness/tests/corpus/ and the shipped experiments/.  One TAP line: ok
# when no crash, leak, timeout or sanitizer report; else the report and the
# command that reproduces it.  Skipped, with the reason, where clang or its
# fuzzer runtime is not installed.
set -u
cd "$(dirname "$0")/../.."
. harness/tests/tap.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT

cc=${FUZZ_CC:-clang}
if ! command -v "$cc" >/dev/null; then
        skip "fuzz-experiment" "$cc is not installed (apt-get install clang libclang-rt-14-dev)"
        done_testing
fi
if [ ! -f "$("$cc" -print-file-name=libclang_rt.fuzzer-x86_64.a)" ]; then
        skip "fuzz-experiment" "$cc has no libFuzzer runtime (apt-get install libclang-rt-14-dev)"
        done_testing
fi
if ! make --no-print-directory -s fuzz-build >"$log" 2>&1; then
        not_ok "fuzz-experiment: the fuzzer builds (make fuzz-build)" "$(tail -20 "$log")"
        done_testing
fi
# fuzz-check prints the one TAP line (numbered 1) itself.
make --no-print-directory -s fuzz-check 2>&1 | grep -v '^make'
rc=${PIPESTATUS[0]}
echo "1..1"
exit "$rc"
