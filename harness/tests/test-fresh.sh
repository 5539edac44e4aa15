#!/bin/bash
# test-fresh.sh (make check-fresh): the README's first command on a fresh
# Debian 12 machine.
#
# The machine is a minimal bookworm root with only git and make added
# (harness/place/env/fresh.recipe), built once by debootstrap and cached by its
# recipe hash like the environments' images (harness/place/env/build-image.sh).
# Each run works on a copy of it, in systemd-nspawn with the host's network
# (apt needs Debian's mirror):
#   1. as a non-root user, in a fresh clone of this repository's HEAD:
#      `make all` must fail, print the exact `apt-get install` line, and
#      leave the clone as it was (not even ignored files);
#   2. as root, in another fresh clone: `make all` must install what it
#      needs and produce paper/paper.pdf in one run, warning of nothing
#      (the finished paper is read back with pdftotext) and changing no
#      tracked file;
#   3. the line printed in 1 must then run as printed, and the user's
#      `make deps-check` pass: it named the packages `make all` needs;
#   4. with IPCLAB_FRESH_SUITE=1 (make check-fresh-full), the README's
#      second command there too: `make check` as root in the clone where
#      `make all` ran, which must end with 0 failed (its skips are listed,
#      each with its reason), then IPCLAB_FRESH_BUSY=N times `make
#      check-busy`.  Inside, test-fresh.sh itself is skipped (no fresh
#      machine inside the fresh machine).
# Downloaded packages are kept in the cache (apt-archives/, bound into the
# container), so they are fetched once.
#
# Skipped, with the reason, without root, debootstrap or systemd-nspawn, and
# inside the fresh machine of make check-fresh-full (IPCLAB_IN_FRESH).
# Prints TAP lines.  Tests the committed HEAD, not the work tree.
# IPCLAB_FRESH_KEEP=1 keeps the copy (its path is printed).
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here/../.."
. harness/tests/tap.sh
cache=${IPCLAB_CACHE:-$HOME/.cache/ipclab}

finish() { done_testing; }

why=
if [ -n "${IPCLAB_IN_FRESH-}" ]; then
        why="this is the fresh machine of make check-fresh-full: no fresh machine inside it"
elif [ "$(id -u)" -ne 0 ]; then
        why="needs root (debootstrap, systemd-nspawn)"
elif ! command -v debootstrap > /dev/null; then
        why="debootstrap not installed (apt-get install debootstrap)"
elif ! command -v systemd-nspawn > /dev/null; then
        why="systemd-nspawn not installed (apt-get install systemd-container)"
fi
if [ -n "$why" ]; then
        for t in "fresh root" "non-root make all" "root make all"; do
                skip "$t" "$why"
        done
        finish
fi

start=$SECONDS
log_dir=${IPCLAB_TEST_LOGS:-build/test-logs}/fresh
mkdir -p "$log_dir"
# 1: the fresh machine (cached)
if ! image=$(IPCLAB_IMAGE_RECIPE=$PWD/harness/place/env/fresh.recipe \
        harness/place/env/build-image.sh build nspawn 2> "$log_dir/debootstrap.log"); then
        not_ok "fresh root: debootstrap bookworm with git and make" "see $log_dir/debootstrap.log"
        finish
fi
ok "fresh root: $image ($((SECONDS - start)) s)"

mkdir -p "$cache/fresh/apt-archives/partial"
work=$(mktemp -d "$cache/fresh/run.XXXXXX")
machine=$work/root
cleanup() {
        if [ -n "${IPCLAB_FRESH_KEEP-}" ]; then
                echo "# kept $work"
        else
                rm -rf --one-file-system "$work"
        fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cp -a --reflink=auto "$image/rootfs" "$machine"

# in_machine USER DIR COMMAND: COMMAND run by bash as USER in DIR.
# $in_machine_env: more --setenv=NAME=VALUE options.
in_machine_env=()
in_machine() {
        local user=$1 dir=$2
        shift 2
        systemd-nspawn --quiet --register=no --keep-unit --as-pid2 --console=pipe \
                --link-journal=no --resolv-conf=copy-host --timezone=off \
                --directory="$machine" --user="$user" --chdir="$dir" \
                --bind="$cache/fresh/apt-archives:/var/cache/apt/archives" \
                --setenv=LANG=C.UTF-8 --setenv=HOME="$([ "$user" = root ] && echo /root || echo "/home/$user")" \
                "${in_machine_env[@]}" -- /bin/bash -c "$*"
}
# clone_into DIR OWNER: a fresh clone of HEAD at DIR inside the machine.
clone_into() {
        git -c advice.detachedHead=false clone -q --no-local "$PWD" "$machine$1" && chown -R "$2" "$machine$1"
}

# 2: a newcomer without root
in_machine root / "useradd -m newcomer" > "$log_dir/useradd.log" 2>&1
uid=$(stat -c %u "$machine/home/newcomer")
clone_into /home/newcomer/ipclab "$uid:$uid"
t0=$SECONDS
in_machine newcomer /home/newcomer/ipclab "make all" > "$log_dir/user.log" 2>&1
rc=$?
check "non-root make all fails (status $rc, $((SECONDS - t0)) s)" '[ "$rc" -ne 0 ]'
line=$(sed -n 's/^ *\(apt-get update && apt-get install -y --no-install-recommends [a-z0-9. +-]*\)$/\1/p' "$log_dir/user.log")
if [ "$(printf '%s\n' "$line" | grep -c .)" -eq 1 ]; then
        ok "non-root make all prints the apt-get install line"
else
        not_ok "non-root make all prints the apt-get install line (once)"
        sed 's/^/# /' "$log_dir/user.log"
fi
# (the clone is the newcomer's: git on the host must be told it is safe)
git_in() { git -c safe.directory='*' -C "$machine$1" status --porcelain "${@:2}"; }
left=$(git_in /home/newcomer/ipclab --ignored 2>&1)
if [ $? -eq 0 ] && [ -z "$left" ]; then ok "non-root make all leaves the clone as it was"; else
        not_ok "non-root make all leaves the clone as it was" "left: $left"
fi

# 3: the same newcomer as root
clone_into /root/ipclab 0:0
t0=$SECONDS
in_machine root /root/ipclab "make all" > "$log_dir/root.log" 2>&1
rc=$?
secs=$((SECONDS - t0))
if [ "$rc" -eq 0 ]; then ok "root make all in one run ($secs s)"; else
        not_ok "root make all in one run (status $rc, $secs s)" "see $log_dir/root.log"
        tail -n 15 "$log_dir/root.log" | sed 's/^/# /'
fi
check "root make all made paper/paper.pdf" '[ -s "$machine/root/ipclab/paper/paper.pdf" ]'
changed=$(git_in /root/ipclab 2>&1)
if [ $? -eq 0 ] && [ -z "$changed" ]; then ok "root make all changes no tracked file, leaves nothing untracked"; else
        not_ok "root make all changes no tracked file, leaves nothing untracked" "changed: $changed"
fi
problems=$(grep -E 'WARNING' "$log_dir/root.log")
if [ -z "$problems" ]; then ok "root make all warns of nothing (the paper read back)"; else
        not_ok "root make all warns of nothing (the paper read back)" "$(printf '%s' "$problems" | head -n 3)"
fi
grep -E 'cannot run here' "$log_dir/root.log" | sed 's/^/# reported: /'

# 4: the printed line, as printed, names what make all needs
if [ -n "$line" ]; then
        in_machine root / "$line" > "$log_dir/printed.log" 2>&1
        rc=$?
        check "the printed line runs as root" '[ "$rc" -eq 0 ]'
        in_machine newcomer /home/newcomer/ipclab "make deps-check" > "$log_dir/user-after.log" 2>&1
        rc=$?
        check "after it, the non-root deps-check passes" '[ "$rc" -eq 0 ]'
else
        skip "the printed line runs as root" "no line was printed"
fi

# 5: the whole suite there (make check-fresh-full)
if [ -n "${IPCLAB_FRESH_SUITE-}" ]; then
        in_machine_env=(--setenv=IPCLAB_IN_FRESH=1)
        # suite LOG TARGET: make TARGET as root in the clone; its last line
        suite() {
                local t0=$SECONDS
                in_machine root /root/ipclab "make $2" > "$log_dir/$1.log" 2>&1
                local rc=$? last
                last=$(tail -n 1 "$log_dir/$1.log")
                check "make $2 on the fresh machine: $last ($((SECONDS - t0)) s)" \
                        '[ $rc -eq 0 ] && [[ $last =~ ^[0-9]+\ passed,\ 0\ failed,\ [0-9]+\ skipped$ ]]' \
                        "see $log_dir/$1.log" "$(grep -E '^ +not ok|^[a-z].* [1-9][0-9]* failed' "$log_dir/$1.log" | head -20)"
                sed -n '/^skipped, by reason:$/,$p' "$log_dir/$1.log" | sed '$d' | sed 's/^/# /'
        }
        suite check check
        for i in $(seq "${IPCLAB_FRESH_BUSY:-0}"); do
                suite "check-busy-$i" check-busy
        done
fi
echo "# fresh machine: $((SECONDS - start)) s in all; logs in $log_dir"
finish
