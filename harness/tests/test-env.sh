#!/bin/bash
# test-env.sh: `ipclab run --env nspawn|vm` end to end, with the real images.
#
# Builds the images, or reuses them from the cache (harness/place/env/
# build-image.sh), runs a small experiment on the host, in a systemd-nspawn
# container and in a QEMU VM, and checks that the samples came back intact
# and that meta.ini names the environment.  Then the failures: no image, no
# root, a hung container or guest, an interrupted image build; each must
# say what is wrong and leave the results directory as it was.  Every wait
# is for an event (a row in a resume file, a process stopped, a directory
# made), and the processes checked are the test's own (IPCLAB_TEST_OWNER,
# which the inner runs inherit), never a pattern over the machine.
#
# Needs root (debootstrap, systemd-nspawn); without root every test is
# skipped.  Prints TAP lines.  IPCLAB_BIN: the binary to test (default
# harness/ipclab).  Takes about 2 minutes with the images cached (the VM
# boots under TCG where there is no hardware KVM), plus 3-4 minutes to build
# both images when the cache is cold.
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
ipclab=${IPCLAB_BIN:-$repo/harness/ipclab}
build=$repo/harness/place/env/build-image.sh
# a binary outside the tree does not find the recipe beside itself
[ "$ipclab" -ef "$repo/harness/ipclab" ] || export IPCLAB_ENV_DIR=$repo/harness/place/env
unset IPCLAB_ENV_TIMEOUT IPCLAB_VM_ACCEL

source "$here/tap.sh"
finish() { done_testing; }

tmp=$(mktemp -d /tmp/ipclab-test-env.XXXXXX)
cleanup() {
        # the logs env.c kept in the cache for the runs failed on purpose
        grep -ho "log: [^ ]*\.log" "$tmp"/*.log 2> /dev/null | cut -c6- | xargs -r rm -f
        # an interrupted image build may have left mounts below $tmp
        awk -v d="$tmp/" 'index($2, d) == 1 { print $2 }' /proc/self/mounts | sort -r |
                while read -r m; do umount -l "$m"; done
        rm -rf --one-file-system "$tmp"
}
trap cleanup EXIT
chmod 0755 "$tmp"
# Every ipclab this test starts, what it starts and the runs inside its
# containers (ipclab passes IPCLAB_* variables on) carry IPCLAB_TEST_OWNER
# (tap.sh's owned): how the test finds its own processes.
ipclab_bin=$ipclab
ipclab=$(owned "$tmp" "$ipclab")
ours() { owned_pids "$tmp"; }

if [ "$(id -u)" != 0 ]; then
        skip "env tests" "they need root (debootstrap, systemd-nspawn)"
        finish
fi
if [ ! -x "$ipclab_bin" ]; then
        not_ok "no ipclab binary at $ipclab_bin (make harness/ipclab)"
        finish
fi

# (an hour's limit per repetition: however slow an emulated guest on a busy
# machine is, these 100 round trips are not failed for it)
cat > "$tmp/env-smoke.ini" << 'EOF'
[experiment]
title=ipclab env smoke test
transport=unix-stream;tcp;libdbus
bus=dbus-daemon;dbus-broker
size=64
pattern=roundtrip
count=100
repeat=2
warmup=10
timeout=3600s
EOF
cat > "$tmp/env-slow.ini" << 'EOF'
[experiment]
title=ipclab env slow test (killed by the time limit)
transport=unix-stream
size=64
pattern=roundtrip
duration=20s
repeat=1
EOF
cat > "$tmp/env-resume.ini" << 'EOF'
[experiment]
title=ipclab env resume test (cell 0 quick, cell 1 stopped and killed, then resumed)
transport=unix-stream
size=64
pattern=roundtrip
duration=200ms;20s
repeat=1
seed=0
EOF
chmod 0644 "$tmp"/*.ini
rows_expected=8 # 4 cells (unix-stream, tcp, libdbus x 2 buses) x 2 repetitions
hash=$("$build" hash)

# tree_sum DIR: a checksum of every file below DIR, names and contents
tree_sum() {
        (cd "$1" && find . -type f -print0 | sort -z | xargs -0 -r sha256sum) | sha256sum
}
# leftovers DIR: is a staging directory of env.c or of the inner run left?
leftovers() {
        compgen -G "$1/.ipclab-env-*" > /dev/null || compgen -G "$1/.env-smoke.new" > /dev/null
}

# The host run: what the environments' samples must look like.
"$ipclab" run --out "$tmp/host" "$tmp/env-smoke.ini" > "$tmp/host.log" 2>&1
check_run "host run of the smoke experiment" test -f "$tmp/host/env-smoke/samples.tsv"

for kind in nspawn vm; do
        start=$(date +%s)
        img=$("$build" build "$kind" 2> "$tmp/build-$kind.log")
        check_run "$kind image built or reused ($(($(date +%s) - start)) s)" \
                test -n "$img" -a -f "$img/complete" -a -f "$img/manifest.txt"
        for pkg in dbus dbus-broker libglib2.0-0 libsystemd0 libdbus-1-3; do
                grep -q "^$pkg	" "$img/manifest.txt" || not_ok "$kind image lacks $pkg"
        done

        out=$tmp/out-$kind
        start=$(date +%s)
        "$ipclab" run --env "$kind" --out "$out" "$tmp/env-smoke.ini" > "$tmp/run-$kind.log" 2>&1
        rc=$?
        res=$out/env-smoke
        check_run "$kind run exits 0 ($(($(date +%s) - start)) s)" test "$rc" = 0
        if [ ! -f "$res/samples.tsv" ]; then
                not_ok "$kind run left no samples.tsv"
                sed 's/^/# /' "$tmp/run-$kind.log" | tail -20
                continue
        fi
        check_run "$kind samples have the host's columns" \
                test "$(head -n 1 "$res/samples.tsv")" = "$(head -n 1 "$tmp/host/env-smoke/samples.tsv")"
        check_run "$kind samples: $rows_expected rows" \
                test "$(tsv_cols "$res/samples.tsv" env | wc -l)" = "$rows_expected"
        check_run "$kind samples: env column says $kind" \
                test "$(tsv_cols "$res/samples.tsv" env | sort -u)" = "$kind"
        check_run "$kind samples: every repetition measured" \
                test "$(tsv_cols "$res/samples.tsv" status | sort -u)" = "ok"
        check_run "$kind meta.ini names the environment" grep -qx "env=$kind" "$res/meta.ini"
        check_run "$kind meta.ini names the image recipe" grep -qx "env_image=$hash" "$res/meta.ini"
        if [ "$kind" = vm ]; then
                check_run "vm meta.ini names the accelerator" grep -qxE 'env_accel=(kvm|tcg)' "$res/meta.ini"
                check_run "vm guest kernel is the image's" \
                        grep -q "ipclab-guest: .* mounted; kernel $(cat "$img/kernel-version")" \
                        "$res/console.log"
        fi
        check_run "$kind console.log kept beside the results" test -s "$res/console.log"
        check_run "$kind leaves no staging directory" eval '! leftovers "$out"'
done

# Failures.  Each must leave existing results exactly as they were.
out=$tmp/out-nspawn
before=$(tree_sum "$out/env-smoke")

IPCLAB_CACHE=$tmp/empty-cache "$ipclab" run --env nspawn --out "$out" "$tmp/env-smoke.ini" \
        > "$tmp/noimage.log" 2>&1
rc=$?
check_run "no nspawn image: exit 2, says \`make env-nspawn\`" \
        eval 'test $rc = 2 && grep -q "make env-nspawn" "$tmp/noimage.log"'
IPCLAB_CACHE=$tmp/empty-cache "$ipclab" run --env vm --out "$out" "$tmp/env-smoke.ini" \
        > "$tmp/noimage-vm.log" 2>&1
rc=$?
check_run "no vm image: exit 2, says \`make env-vm\`" \
        eval 'test $rc = 2 && grep -q "make env-vm" "$tmp/noimage-vm.log"'

if command -v setpriv > /dev/null; then
        # The file readable and the directory writable by uid 65534, so
        # that the only thing it lacks is root.
        chmod 0711 "$tmp"
        mkdir -m 0777 "$tmp/noroot"
        install -m 0644 "$tmp/env-smoke.ini" "$tmp/noroot/env-smoke.ini"
        # (a copy 65534 can reach: the tree may be in /root)
        setpriv --reuid=65534 --regid=65534 --clear-groups \
                "$(for_others "$tmp/noroot" "$ipclab_bin")" run --env nspawn --out "$tmp/noroot/out" \
                "$tmp/noroot/env-smoke.ini" > "$tmp/noroot.log" 2>&1
        rc=$?
        check_run "nspawn without root: exit 2, says it needs root" \
                eval 'test $rc = 2 && grep -q "needs root" "$tmp/noroot.log"'
else
        skip "nspawn without root" "setpriv (util-linux) not found"
fi

# A container or guest that outlives the time limit: a 20 s cell under a
# limit of 2 (3) s, started or not by then, is killed at it.
IPCLAB_ENV_TIMEOUT=2 "$ipclab" run --env nspawn --out "$out" "$tmp/env-slow.ini" \
        > "$tmp/hang.log" 2>&1
rc=$?
check_run "hung container killed at the time limit: exit 1" \
        eval 'test $rc = 1 && grep -q "did not finish within 2 s" "$tmp/hang.log"'
check "no process of the killed container is left" '[ -z "$(ours)" ]' "left: $(ours | tr '\n' ' ')"

IPCLAB_ENV_TIMEOUT=3 "$ipclab" run --env vm --out "$out" "$tmp/env-slow.ini" \
        > "$tmp/hang-vm.log" 2>&1
rc=$?
check_run "hung guest killed at the time limit: exit 1" \
        eval 'test $rc = 1 && grep -q "did not finish within 3 s" "$tmp/hang-vm.log"'
check_run "the failed run's log is kept and named" \
        eval 'f=$(grep -o "log: [^ ]*\.log" "$tmp/hang-vm.log" | cut -c6-); test -f "$f" && rm -f "$f"'
check "no process of the killed guest is left" '[ -z "$(ours)" ]' "left: $(ours | tr '\n' ' ')"

check_run "results unchanged by the failures" test "$(tree_sum "$out/env-smoke")" = "$before"
check_run "failures leave no staging directory" eval '! leftovers "$out"'

# --resume through nspawn: a killed run leaves the cells it finished in
# its resume file; the resumed run keeps them and measures the rest.  The
# first run: once cell 0 (200 ms) has its row, the inner ipclab is stopped
# (SIGSTOP, from here: it is one of ours) while cell 1 (20 s) runs, so no
# second row can come; then the run is killed (SIGTERM).
out=$tmp/out-resume
"$ipclab" run --env nspawn --out "$out" "$tmp/env-resume.ini" > "$tmp/resume1.log" 2>&1 &
pid=$!
inner_partial() { cat "$out"/.ipclab-env-env-resume-*/out/.env-resume.partial.tsv 2>/dev/null; }
# the inner run: a process of ours whose command line is ipclab run --env host
inner_run() {
        local p
        for p in $(ours); do
                [ "$(tr '\0' ' ' < /proc/$p/cmdline 2>/dev/null | cut -d' ' -f2-4)" = "run --env host" ] && echo "$p"
        done
}
wait_until '[ -n "$(inner_partial | grep -P "^0\t")" ] || ! kill -0 $pid 2>/dev/null'
inner=$(inner_run | head -1)
[ -n "$inner" ] && kill -STOP "$inner"
check "killed run: stopped in cell 1, after cell 0's row" \
        '[ -n "$inner" ] && [ "$(inner_partial | grep -c "^[0-9]")" -eq 1 ]' "$(tail -5 "$tmp/resume1.log")"
kill -TERM "$pid"
wait "$pid"; rc=$?
done_row=$(grep -m 1 -P '^0\t' "$out/.env-resume.partial.tsv" 2> /dev/null)
check "killed run: exit 130, the finished cell's row in the resume file, kept beside the results" \
        '[ $rc -eq 130 ] && [ -n "$done_row" ] && [ "$(grep -c "^[0-9]" "$out/.env-resume.partial.tsv")" -eq 1 ]' \
        "exit $rc" "$(tail -3 "$tmp/resume1.log")"
check "killed run: nothing of it left running" '[ -z "$(ours)" ]' "left: $(ours | tr '\n' ' ')"
"$ipclab" run --env nspawn --resume --out "$out" "$tmp/env-resume.ini" > "$tmp/resume2.log" 2>&1
rc=$?
check_run "resumed run exits 0 and keeps the finished cell's row" \
        eval 'test $rc = 0 && grep -qxF "$done_row" "$out/env-resume/samples.tsv"'
check_run "resumed run: 2 rows, resume file gone" \
        eval 'test "$(tsv_cols "$out/env-resume/samples.tsv" env | wc -l)" = 2 &&
              test ! -e "$out/.env-resume.partial.tsv"'

# One file, several environments: env=host;nspawn runs every cell in each
# and merges them into one samples.tsv (the env column tells them apart)
# and one meta.ini ("[machine nspawn]" beside "[machine]").
sed -e 's/^repeat=.*/repeat=1/' -e '/^\[experiment\]/a env=host;nspawn' "$tmp/env-smoke.ini" > "$tmp/env-both.ini"
chmod 0644 "$tmp/env-both.ini"
out=$tmp/out-both
"$ipclab" run --out "$out" "$tmp/env-both.ini" > "$tmp/both.log" 2>&1
rc=$?
check_run "env=host;nspawn runs and exits 0" test "$rc" = 0
check_run "merged samples: both environments, 4 cells each" \
        eval 'test "$(tsv_cols "$out/env-both/samples.tsv" env | sort | uniq -c | awk "{print \$1, \$2}" | tr "\n" " ")" = "4 host 4 nspawn "'
check_run "merged meta.ini: the host's groups and the container's" \
        eval 'grep -qx "\[machine\]" "$out/env-both/meta.ini" && grep -qx "\[machine nspawn\]" "$out/env-both/meta.ini" && grep -qx "envs=host;nspawn" "$out/env-both/meta.ini"'
check_run "the container's console log is kept" test -s "$out/env-both/console-nspawn.log"
check_run "no staging left after the merge" eval 'test -z "$(ls -A "$out" | grep -v "^env-both$")"'
"$ipclab" summarize "$out/env-both" > "$tmp/both.tsv"
check_run "summarize keeps host and nspawn cells apart" test "$(tail -n +2 "$tmp/both.tsv" | wc -l)" = 8
size=$(tsv_cols "$tmp/both.tsv" size_B | head -1)
want=$(awk -F= -v k="memcpy_MiBps_$size" '/^\[/ { g = $0 } g == "[bounds nspawn]" && $1 == k { print $2 }' "$out/env-both/meta.ini")
got=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["env"] == "nspawn" { print $c["memcpy_MiBps"]; exit }' "$tmp/both.tsv")
check_run "summarize takes the container's own memcpy bound" eval 'test -n "$want" && test "$got" = "$want"'

# An interrupted image build must never be taken for an image: killed
# once debootstrap has begun to fill the build's temporary directory.
export IPCLAB_CACHE=$tmp/cache
setsid "$build" build nspawn > "$tmp/interrupted.log" 2>&1 &
pid=$!
wait_until 'compgen -G "$tmp/cache/images/*/.nspawn.*/rootfs/debootstrap" > /dev/null || ! kill -0 $pid 2>/dev/null'
check "the build was under way (debootstrap writing into its temporary directory)" \
        'kill -0 $pid 2>/dev/null && compgen -G "$tmp/cache/images/*/.nspawn.*/rootfs/debootstrap" > /dev/null' \
        "$(tail -3 "$tmp/interrupted.log")"
kill -TERM -- -"$pid" 2> /dev/null
wait "$pid"
check "the interrupted build removed its temporary directory" '! compgen -G "$tmp/cache/images/*/.nspawn.*" > /dev/null'
check_run "interrupted build leaves no complete image" \
        eval 'test ! -e "$("$build" dir nspawn)/complete"'
"$ipclab" run --env nspawn --out "$out" "$tmp/env-smoke.ini" > "$tmp/interrupted-run.log" 2>&1
rc=$?
check_run "after an interrupted build, a run says the image is missing" \
        eval 'test $rc = 2 && grep -q "no nspawn image" "$tmp/interrupted-run.log"'
unset IPCLAB_CACHE

finish
