#!/bin/bash
# test-corpus.sh: every malformed experiment file in harness/tests/corpus/
# is refused the same way by `ipclab check` and `ipclab run`: exit status 2,
# one message line per mistake, each naming the file (and the line, when
# the mistake is on one: FILE:LINE: [group] key: what) and saying what is
# wrong (the file's first line, `# expect: TEXT`, gives TEXT; an optional
# `# profile: NAME` line passes --profile NAME; each `# also: TEXT` line is
# one more mistake of the same file, reported in the same pass, in line
# order), and
# nothing written anywhere:
# not in --out, not in the working directory, not in $XDG_RUNTIME_DIR or
# $TMPDIR (where the runner and the buses make their private directories).
# The same corpus seeds the fuzzer (mk/fuzz.mk).
set -u
cd "$(dirname "$0")/../.."
. harness/tests/tap.sh
tap_tmp --runtime
corpus=harness/tests/corpus
mkdir -p "$tmp/out" "$tmp/cwd"
tried=0

written() {
        find "$tmp/out" "$tmp/cwd" "$tmp/run" -mindepth 1 2>/dev/null | head -5
}

files=("$corpus"/*.ini)
if [ "${#files[@]}" -lt 40 ]; then
        not_ok "the corpus holds at least 40 files (it holds ${#files[@]})"
fi
for f in "${files[@]}"; do
        name=$(basename "$f")
        path=$PWD/$f
        expect=$(sed -n '1s/^# expect: //p' "$f")
        profile=$(sed -n 's/^# profile: //p' "$f")
        mapfile -t also < <(sed -n 's/^# also: //p' "$f")
        if [ -z "$expect" ]; then
                not_ok "$name: the first line is '# expect: TEXT'"
                continue
        fi
        args=()
        [ -n "$profile" ] && args=(--profile "$profile")
        for cmd in check run; do
                tried=$((tried + 1))
                if [ "$cmd" = run ]; then
                        out=$(cd "$tmp/cwd" && "$ipclab" run "${args[@]}" --out "$tmp/out" "$path" 2>&1 >/dev/null)
                else
                        out=$(cd "$tmp/cwd" && "$ipclab" check "${args[@]}" "$path" 2>&1 >/dev/null)
                fi
                rc=$?
                left=$(written)
                problems=()
                [ "$rc" -eq 2 ] || problems+=("exit status $rc, not 2")
                for want in "$expect" "${also[@]}"; do
                        grep -E -- "^ipclab: $path(:[0-9]+)?: " <<<"$out" | grep -qF -- "$want" ||
                                problems+=("no line names the file and says '$want'")
                done
                [ "$(grep -c . <<<"$out")" -eq $((1 + ${#also[@]})) ] ||
                        problems+=("not exactly $((1 + ${#also[@]})) line(s) of message")
                lines=$(grep -oE -- "^ipclab: $path(:[0-9]+)?: " <<<"$out" | sed -E 's/.*\.ini:?([0-9]*): $/\1/;s/^$/0/')
                [ "$lines" = "$(sort -n <<<"$lines")" ] || problems+=("mistakes not in line order: $(echo $lines)")
                [ -z "$left" ] || problems+=("wrote: $left")
                if [ "${#problems[@]}" -eq 0 ]; then
                        ok "$cmd $name: refused: $expect"
                else
                        not_ok "$cmd $name" "${problems[@]}" "output: $out"
                        rm -rf "${tmp:?}/out/"* "${tmp:?}/out/".[!.]* "${tmp:?}/cwd/"* "${tmp:?}/run/"* 2>/dev/null
                fi
        done
done

# Every file at once: the first bad one stops `run` before anything runs.
out=$(cd "$tmp/cwd" && "$ipclab" run --out "$tmp/out" "${files[@]/#/$PWD/}" 2>&1); rc=$?
tried=$((tried + 1))
if [ "$rc" -eq 2 ] && [ -z "$(written)" ]; then
        ok "run with all ${#files[@]} files: exit 2, nothing written"
else
        not_ok "run with all ${#files[@]} files: exit 2, nothing written" "status $rc" "$(written)"
fi
# A good file after a bad one is not run either.
printf '[experiment]\ntitle=good\ntransport=pipe\ncount=10\nrepeat=1\n' > "$tmp/good.ini"
out=$(cd "$tmp/cwd" && "$ipclab" run --out "$tmp/out" "$tmp/good.ini" "$PWD/${files[0]}" 2>&1); rc=$?
tried=$((tried + 1))
rm -f "$tmp/good.ini"
if [ "$rc" -eq 2 ] && [ -z "$(written)" ]; then
        ok "a good file beside a bad one: nothing runs, nothing written"
else
        not_ok "a good file beside a bad one: nothing runs, nothing written" "status $rc" "$(written)"
fi

echo "# bad inputs tried: $tried (${#files[@]} files)"
echo "1..$n"
[ "$failed" -eq 0 ]
