#!/bin/bash
# test-install.sh: the installed copy can do what the repository can.
# `make -j2 install PREFIX=...` into a temporary prefix (in parallel, as
# the README says to run it) installs the image recipe and its scripts
# (so that `ipclab run --env nspawn|vm` and a study's `make env` find
# them) and the harness's sources (what an SSH or Slurm target that cannot
# run the binary builds from); `ipclab init` makes a git repository with a
# first commit, a .gitignore and a .gitattributes; in that study,
# `ipclab list` shows nspawn and vm without "cannot find the image recipe",
# `ipclab check` accepts an experiment of each, and, where the nspawn
# image is cached and we are root, one small cell runs in the container
# from the installed copy alone.
set -u
cd "$(dirname "$0")/../.."
. harness/tests/tap.sh
tmp=$(mktemp -d)
trap '[ -n "${KEEP-}" ] || rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
share=$prefix/share/ipclab

make --no-print-directory -j2 install PREFIX="$prefix" > "$tmp/install.log" 2>&1; rc=$?
check "make -j2 install PREFIX=... succeeds" '[ $rc -eq 0 ]' || tail -20 "$tmp/install.log" | sed 's/^/# /'
check "it installs the image recipe and its scripts in share/ipclab/env/, executable" \
        '[ -f "$share/env/image.recipe" ] && [ -x "$share/env/build-image.sh" ] &&
         [ -x "$share/env/guest-init.sh" ] && [ -x "$share/env/ssh-container.sh" ] && [ -f "$share/mk/env.mk" ]'
check "... the same recipe as here: the same hash, so the same cached images" \
        '[ "$("$share/env/build-image.sh" hash)" = "$(harness/place/env/build-image.sh hash)" ]'
check "it installs the harness's sources in share/ipclab/src/, for targets that build there" \
        '[ -f "$share/src/Makefile" ] && [ -f "$share/src/harness/cli/main.c" ] && [ -f "$share/src/mk/harness.mk" ] &&
         [ -f "$share/src/include/ipclab/transport.h" ] && [ -f "$share/src/harness/place/env/vm.c" ] &&
         [ -x "$share/src/mk/config.sh" ] && [ ! -e "$share/src/harness/ipclab" ]'
# What a target runs there (harness/place/remote.c), read but not built.
make -C "$share/src" -n DEPS_MODE=check DEPS_FOR=harness harness > "$tmp/src.log" 2>&1; rc=$?
check "make -n harness in the installed sources plans the harness" \
        '[ $rc -eq 0 ] && grep -q "harness/cli/main.c" "$tmp/src.log"' || tail -5 "$tmp/src.log" | sed 's/^/# /'

study=$tmp/study
"$prefix/bin/ipclab" init "$study" > "$tmp/init.log" 2>&1; rc=$?
check "ipclab init from the installed copy succeeds and says it made a git repository" \
        '[ $rc -eq 0 ] && grep -q "a git repository with a first commit" "$tmp/init.log"' || sed 's/^/# /' "$tmp/init.log"
if command -v git > /dev/null; then
        check "the study is a git repository with one commit holding every file, nothing left over" \
                '[ "$(git -C "$study" rev-list --count HEAD)" = 1 ] && [ -z "$(git -C "$study" status --porcelain)" ] &&
                 git -C "$study" ls-files | grep -qx experiments/example.ini &&
                 git -C "$study" ls-files | grep -qx .gitattributes'
        mkdir -p "$study/data/x" "$study/build" "$study/paper/generated"
        touch "$study/data/x/samples.tsv" "$study/data/x/meta.ini" "$study/build/f" "$study/paper/paper.pdf" \
                "$study/paper/generated/g.tex" "$study/transports/pipe-packet.so"
        check ".gitignore keeps what make builds out, data/ in" \
                '[ "$(git -C "$study" status --porcelain --untracked-files=all)" = "?? data/x/meta.ini
?? data/x/samples.tsv" ]' "$(git -C "$study" status --porcelain --untracked-files=all)"
        check ".gitattributes: data/ as text with LF, latencies binary" \
                'git -C "$study" check-attr eol -- data/x/samples.tsv | grep -q "eol: lf" &&
                 git -C "$study" check-attr eol -- data/x/meta.ini | grep -q "eol: lf" &&
                 git -C "$study" check-attr diff -- data/x/latencies.tsv.gz | grep -q "diff: unset"'
        rm -rf "$study/data" "$study/build" "$study/paper/paper.pdf" "$study/paper/generated" \
                "$study/transports/pipe-packet.so"
        mkdir "$tmp/nogit"
        PATH=/nonexistent "$prefix/bin/ipclab" init "$tmp/nogit/s" > "$tmp/nogit.log" 2>&1; rc=$?
        check "without git, init makes the study and says it is no git repository" \
                '[ $rc -eq 0 ] && [ -f "$tmp/nogit/s/Makefile" ] && [ ! -e "$tmp/nogit/s/.git" ] &&
                 grep -q "git is not installed" "$tmp/nogit.log"' || sed 's/^/# /' "$tmp/nogit.log"
else
        skip "the study is a git repository" "git is not installed"
fi

cat > "$study/experiments/in-nspawn.ini" <<'INI'
[experiment]
title=A pipe in a container, from the installed copy
transport=pipe
size=64
pattern=roundtrip
count=100
repeat=1
warmup=5
env=nspawn
INI
sed -e 's/^env=nspawn/env=vm/' -e 's/a container/a VM/' "$study/experiments/in-nspawn.ini" > "$study/experiments/in-vm.ini"

# Only what is installed: no IPCLAB_ENV_DIR, and ipclab run from elsewhere.
unset IPCLAB_ENV_DIR
(cd "$study" && "$prefix/bin/ipclab" list) > "$tmp/list.log" 2>&1
check "ipclab list from the installed copy finds the image recipe (nspawn, vm)" \
        'grep -qE "^nspawn " "$tmp/list.log" && grep -qE "^vm " "$tmp/list.log" &&
         ! grep -q "cannot find the image recipe" "$tmp/list.log"' || grep -E "^(nspawn|vm) " "$tmp/list.log" | sed 's/^/# /'
for kind in nspawn vm; do
        if [ -f "$("$share/env/build-image.sh" dir $kind)/complete" ] && [ "$(id -u)" = 0 ]; then
                check "$kind is available from the installed copy (its image is cached)" \
                        'grep -qE "^$kind +ok" "$tmp/list.log"' || grep -E "^$kind " "$tmp/list.log" | sed 's/^/# /'
        else
                skip "$kind is available from the installed copy" "no cached $kind image (make env-$kind) or not root"
        fi
        (cd "$study" && "$prefix/bin/ipclab" check "experiments/in-$kind.ini") > "$tmp/check-$kind.log" 2>&1; rc=$?
        check "ipclab check accepts an experiment with env=$kind in the study" \
                '[ $rc -eq 0 ] && grep -q "runs in: $kind" "$tmp/check-$kind.log"' || sed 's/^/# /' "$tmp/check-$kind.log"
done
(cd "$study" && make --no-print-directory env-hash) > "$tmp/hash.log" 2>&1; rc=$?
check "the study's make env-hash uses the installed recipe" \
        '[ $rc -eq 0 ] && [ "$(cat "$tmp/hash.log")" = "$(harness/place/env/build-image.sh hash)" ]' || sed 's/^/# /' "$tmp/hash.log"

if [ -f "$("$share/env/build-image.sh" dir nspawn)/complete" ] && [ "$(id -u)" = 0 ]; then
        (cd "$study" && "$prefix/bin/ipclab" run --out data experiments/in-nspawn.ini) > "$tmp/run.log" 2>&1; rc=$?
        check "one cell runs in the container from the installed copy" \
                '[ $rc -eq 0 ] && tsv_cols "$study/data/in-nspawn/samples.tsv" env status | grep -qx "nspawn	ok"' || tail -5 "$tmp/run.log" | sed 's/^/# /'
else
        skip "one cell runs in the container from the installed copy" "no cached nspawn image or not root"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
