#!/bin/bash
# test-sanitize.sh: the fast test programs (test-experiment, test-stats,
# test-transports, test-faults) built with AddressSanitizer and
# UndefinedBehaviorSanitizer (build/asan/, see mk/fuzz.mk) and run: their
# own TAP lines, renumbered and marked "asan", plus one line per program
# saying that no sanitizer (ASan, LSan, UBSan) reported anything, in the
# parent or in any of the server and client processes it forked.
set -u
cd "$(dirname "$0")/../.."
tests=(test-experiment test-stats test-transports test-faults)
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
. harness/tests/tap.sh

cc=${FUZZ_CC:-clang}
if ! command -v "$cc" >/dev/null; then
        skip "asan: the sanitized test programs" "$cc is not installed (apt-get install clang libclang-rt-14-dev)"
        done_testing
fi
if [ ! -f "$("$cc" -print-file-name=libclang_rt.asan-x86_64.a)" ]; then
        skip "asan: the sanitized test programs" "$cc has no sanitizer runtime (apt-get install libclang-rt-14-dev)"
        done_testing
fi
if ! make --no-print-directory -s sanitize-build >"$log/build" 2>&1; then
        not_ok "asan: the sanitized test programs build (clang, libclang-rt-14-dev)"
        tail -20 "$log/build" | sed 's/^/# /'
        done_testing
fi
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$PWD/build/fuzz/lsan.supp:print_suppressions=0
export G_SLICE=always-malloc G_DEBUG=gc-friendly
for t in "${tests[@]}"; do
        start=$(date +%s)
        "build/asan/$t" --tap >"$log/$t" 2>&1
        rc=$?
        while IFS= read -r line; do
                case $line in
                "ok "*) ok "asan $t: ${line#ok * }" ;;
                "not ok "*) not_ok "asan $t: ${line#not ok * }" ;;
                esac
        done < <(grep -E '^(not )?ok ' "$log/$t")
        reports=$(grep -E 'ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY: (Address|UndefinedBehavior)Sanitizer' "$log/$t")
        if [ -z "$reports" ] && [ "$rc" -eq 0 ]; then
                ok "asan $t: no sanitizer report ($(( $(date +%s) - start )) s)"
        else
                not_ok "asan $t: exit status $rc, sanitizer reports: $(grep -c . <<<"$reports")"
                grep -E -A12 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log/$t" | head -40 | sed 's/^/# /'
                grep -E '^Bail out|^# .*(ERROR|error)' "$log/$t" | head -5 | sed 's/^/# /'
        fi
done
done_testing
