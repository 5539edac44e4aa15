#!/bin/bash
# test-untrusted-remote.sh: an SSH target's results are untrusted input,
# and a Slurm job script holds no line of a value's making.
#
# A fake target: an `ssh` first in PATH that runs the command it is given
# here, as sshd would on a target, and whose run step then turns hostile
# (FAKE_MODE): it sends the real results tar stream with something added or
# changed (a symbolic link, a hard link, a FIFO, a device, a name with ../
# or an absolute one, a file over the size limit, a malformed or foreign
# row, a machine label with ../ or a newline), or writes terminal escape
# sequences and hostile resume rows on stderr.  Every stream must be
# refused naming the entry, nothing written outside the results, data/ as
# it was, no hang; rows that --resume would drop are never merged, kept or
# carried back to the target; nothing printed holds an escape sequence.
# A fake sbatch checks the job script for a --job-dir holding a newline.
# Hangs are caught by a guard (timeout 300) that only turns a hang into a
# failure: every check waits for the command's exit.
set -u
cd "$(dirname "$0")/../.."
root=$PWD
ipclab=$root/harness/ipclab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. harness/tests/tap.sh
guard() { out=$(timeout 300 "$@" 2>&1 </dev/null); rc=$?; }

mkdir -p "$tmp/bin" "$tmp/fake" "$tmp/elsewhere" "$tmp/exp"
secret=$tmp/secret.txt
echo "SECRET-$$-not-for-the-target" > "$secret"
export FAKE_DIR=$tmp/fake FAKE_SECRET=$secret FAKE_ELSEWHERE=$tmp/elsewhere
FAKE_SHIM=$(stop_shim "$tmp") || { echo "Bail out! cannot build the stop shim"; exit 1; }
export FAKE_SHIM

# ssh HOST... COMMAND: the command run here by sh, as a target's sshd runs
# it; the run step (the script that streams ipclab-partial lines) turned
# hostile by FAKE_MODE; the upload's stream kept in $FAKE_DIR/upload.tar.
cat > "$tmp/bin/ssh" <<'SH'
#!/bin/bash
while [ $# -gt 1 ]; do
        case $1 in
        -o|-p|-l|-i|-F) shift 2 ;;
        -*) shift ;;
        *) break ;;
        esac
done
shift   # the host
cmd="$*"
case $cmd in
*"mktemp -d"*)
        tee "$FAKE_DIR/upload.tar" | sh -c "$cmd" ;;
*ipclab-partial*)
        case ${FAKE_MODE:-} in
        "") exec sh -c "$cmd" ;;
        escapes)
                printf 'before \033]0;retitled\007\033[2J\033[31mred\033[0m after\n' >&2
                exec sh -c "$cmd" ;;
        stream)
                # The real run, cut once its first repetition has been
                # streamed (it stops itself there: FAKE_SHIM; waiting for
                # the line, not for a while, since a run that ends first
                # removes its resume file before tail has read it), its
                # stderr replayed with hostile resume rows after it, then
                # a lost connection (255).
                LD_PRELOAD=$FAKE_SHIM IPCLAB_TEST_STOP_ROWS=1 setsid sh -c "$cmd" <&0 > /dev/null 2> "$FAKE_DIR/err" &
                run=$!
                until grep -q '^ipclab-partial: [0-9]' "$FAKE_DIR/err" || ! kill -0 "$run" 2>/dev/null; do
                        sleep 0.05
                done
                kill -KILL -- -"$run" 2>/dev/null
                wait "$run" 2>/dev/null
                grep -v '^ipclab-partial' "$FAKE_DIR/err" >&2
                grep '^ipclab-partial: ' "$FAKE_DIR/err" | head -4 >&2
                grep '^ipclab-partial-latencies: ' "$FAKE_DIR/err" >&2
                printf 'ipclab-partial: 0\t1\thost\tfakehost\tSECRET-row\n' >&2
                printf 'ipclab-partial: 9\t9\thost\t../etc\tpipe\n' >&2
                printf 'ipclab-partial-latencies: %s\n' "$(cat "$FAKE_SECRET")" >&2
                exit 255 ;;
        *)
                sh -c "$cmd" > "$FAKE_DIR/real.tar" 2>"$FAKE_DIR/err"
                exec "$FAKE_DIR/../craft" "$FAKE_MODE" "$FAKE_DIR/real.tar" ;;
        esac ;;
*) exec sh -c "$cmd" ;;
esac
SH
# craft MODE REAL.TAR: REAL.TAR made hostile, on stdout.
cat > "$tmp/craft" <<'SH'
#!/bin/bash
set -e
mode=$1 d=$FAKE_DIR/tree
rm -rf "$d" && mkdir -p "$d" && tar -xf "$2" -C "$d"
e=$(cd "$d" && ls -d */ | head -1) && e=${e%/}
extra=()
case $mode in
symlink)  ln -s "$FAKE_SECRET" "$d/$e/console-x.log" ;;
symlink-dir)
          rm -rf "$FAKE_DIR/elsewhere" && mv "$d/$e" "$FAKE_DIR/elsewhere" && ln -s "$FAKE_DIR/elsewhere" "$d/$e" ;;
hardlink) ln "$d/$e/samples.tsv" "$d/$e/console-h.log" ;;
fifo)     mkfifo "$d/$e/console-f.log" ;;
device)   mknod "$d/$e/console-d.log" c 1 5 ;;
dotdot)   cp "$d/$e/meta.ini" "$d/$e/up.ini"; extra=(--transform "s,^\./$e/up\.ini\$,../../escape.ini,") ;;
absolute) cp "$d/$e/meta.ini" "$d/$e/abs.ini"; extra=(-P --transform "s,^\./$e/abs\.ini\$,$FAKE_ELSEWHERE/abs.ini,") ;;
big)      head -c $((65 << 20)) /dev/zero > "$d/$e/console-big.log" ;;
bad-row)  sed -i '2s/\tok\t[0-9]*\t/\tok\tBANANA\t/' "$d/$e/samples.tsv" ;;
foreign-row) sed -n 2p "$d/$e/samples.tsv" | sed 's/^0\t0\t/0\t77\t/' >> "$d/$e/samples.tsv" ;;
machine-dotdot) sed -i 's/^machine=.*/machine=..\/..\/x/' "$d/$e/meta.ini" ;;
machine-newline) sed -i 's/^machine=\(.*\)/machine=\1\\nrm -rf x/' "$d/$e/meta.ini" ;;
value-newline) sed -i 's/^kernel=\(.*\)/kernel=\1\\n[run]/' "$d/$e/meta.ini" ;;
esac
tar -cf - -C "$d" "${extra[@]}" .
SH
chmod +x "$tmp/bin/ssh" "$tmp/craft"
export PATH=$tmp/bin:$PATH

cat > "$tmp/exp/tiny.ini" <<'INI'
[experiment]
title=tiny, for a hostile target
transport=pipe
size=64
pattern=roundtrip
count=50
repeat=2
INI
data=$tmp/data
# before: data/tiny as it was before each run, whatever the target sends.
mkdir -p "$data/tiny" && echo "the data from before" > "$data/tiny/samples.tsv"
as_before() { [ "$(cat "$data/tiny/samples.tsv")" = "the data from before" ]; }
# Nothing outside: not in elsewhere/ (where absolute names point), not
# ../../escape.ini from the results, not console.log into the directory a
# link in the stream points to.
nothing_outside() { [ -z "$(ls -A "$tmp/elsewhere")" ] && [ ! -e "$tmp/escape.ini" ] && [ ! -e "$data/escape.ini" ] &&
                    [ ! -e "$root/escape.ini" ] && [ ! -e x ] && ! ls "$FAKE_DIR/elsewhere" 2>/dev/null | grep -q console; }
clean_stage() { rm -rf "$data/.tiny.machines" "$tmp/elsewhere"/* "$tmp/elsewhere"/.[!.]* 2>/dev/null; true; }

# ---- 0. The fake target, tame: a run comes back whole ---------------------
guard "$ipclab" run --host ssh://fake --out "$tmp/tame" "$tmp/exp/tiny.ini"
check "the fake target, tame: exit 0, 2 rows from this machine" \
        '[ $rc -eq 0 ] && [ "$(tail -n +2 "$tmp/tame/tiny/samples.tsv" | wc -l)" -eq 2 ]' || echo "# $out" | tail -5

# ---- 1. Hostile streams: refused whole, the entry named ---------------------
hostile() {   # hostile MODE WHAT PATTERN
        clean_stage
        want=$3
        FAKE_MODE=$1 guard "$ipclab" run --host ssh://fake --out "$data" "$tmp/exp/tiny.ini"
        check "$2: refused (exit 2), naming it; data/ as it was, nothing outside" \
                '[ $rc -eq 2 ] && grep -q -- "$want" <<<"$out" && as_before && nothing_outside' ||
                { echo "# exit $rc"; tail -3 <<<"$out" | sed 's/^/# /'; }
}
hostile symlink "a symbolic link to a local file" "entry '\./tiny/console-x.log' is a symbolic link"
hostile symlink-dir "the results directory a symbolic link elsewhere" "entry '\./tiny' is a symbolic link"
hostile hardlink "a hard link" "entry '\./tiny/console-h.log' is a hard link"
hostile fifo "a FIFO" "entry '\./tiny/console-f.log' is a FIFO"
if [ "$(id -u)" -eq 0 ]; then
        hostile device "a device node" "entry '\./tiny/console-d.log' is a character device"
else
        skip "a device node in the stream" "making one needs root"
fi
hostile dotdot "a name with ../" "entry '../../escape.ini': not a name"
hostile absolute "an absolute name" "entry '$tmp/elsewhere/abs.ini': not a name"
hostile big "a file over the size limit" "entry '\./tiny/console-big.log': [0-9]* bytes, more than [0-9]* a file may have"
hostile bad-row "a row --resume would drop (BANANA)" "samples.tsv:2: elapsed_ns is 'BANANA', not a whole number: refused"
hostile foreign-row "a repetition the experiment does not have" "samples.tsv:4: repetition '77' is not one of 0 to 1: refused"
hostile machine-dotdot "a machine label with ../" "\[run\] machine is not one, not a machine name"
hostile machine-newline "a machine label with a newline" "\[run\] machine: not one line of printable text"
hostile value-newline "a meta.ini value with a newline" "\[machine\] kernel: not one line of printable text"
check "no FIFO was waited on, no device read: every run above ended" 'true'

# ---- 2. What reaches the terminal ------------------------------------------
clean_stage
rm -rf "$tmp/esc"
FAKE_MODE=escapes guard "$ipclab" run --host ssh://fake --out "$tmp/esc" "$tmp/exp/tiny.ini"
check "escape sequences from the target: the run works, its text shown without them" \
        '[ $rc -eq 0 ] && grep -q "before ?\]0;retitled??\[2J?\[31mred?\[0m after" <<<"$out" && ! grep -q $'"'"'\033'"'"' <<<"$out"' ||
        echo "# $(tr '\033' '~' <<<"$out" | grep before)"
check "... nor in the console log kept with the data" \
        '[ -n "$(ls "$tmp/esc/tiny"/console*.log)" ] && ! grep -q $'"'"'\033'"'"' "$tmp/esc/tiny"/console*.log'

# ---- 3. Resume rows from the stream, and what goes back to the target -------
rm -rf "$tmp/res"
FAKE_MODE=stream guard "$ipclab" run --host ssh://fake --out "$tmp/res" "$tmp/exp/tiny.ini"
kept=$tmp/res/.tiny.machines/fake/.tiny.partial.tsv
keptl=$tmp/res/.tiny.machines/fake/.tiny.partial-latencies.tsv
check "a lost connection keeps the streamed rows that check, not the hostile ones" \
        '[ $rc -ne 0 ] && [ "$(grep -c "^[0-9]" "$kept")" -ge 1 ] && ! grep -q "SECRET-row\|\.\./etc" "$kept" &&
         ! grep -qs SECRET "$keptl"' || { echo "# exit $rc: $(tail -2 <<<"$out")"; cat "$kept" 2>&1 | sed 's/^/# /'; }
# A resume file planted as a link to a local secret is not carried there.
rm -f "$keptl" && ln -s "$secret" "$keptl"
rm -f "$FAKE_DIR/upload.tar"
guard "$ipclab" run --resume --host ssh://fake --out "$tmp/res" "$tmp/exp/tiny.ini"
check "--resume after it: exit 0, 2 rows" \
        '[ $rc -eq 0 ] && [ "$(tail -n +2 "$tmp/res/tiny/samples.tsv" | wc -l)" -eq 2 ]' || echo "# $(tail -3 <<<"$out")"
check "... the link to a local secret refused, and nothing of the secret uploaded" \
        'grep -q "partial-latencies.tsv: a symbolic link to .*secret.txt, outside" <<<"$out" && [ -s "$FAKE_DIR/upload.tar" ] &&
         ! grep -qF "$(cat "$secret")" "$FAKE_DIR/upload.tar"' || echo "# $(grep -cF "$(cat "$secret")" "$FAKE_DIR/upload.tar" 2>&1)"

# ---- 4. Slurm: a newline in --job-dir --------------------------------------
cat > "$tmp/bin/sbatch" <<'SH'
#!/bin/sh
touch "$FAKE_DIR/sbatch-ran"
echo 4242
SH
printf '#!/bin/sh\nexit 0\n' > "$tmp/bin/squeue"
chmod +x "$tmp/bin/sbatch" "$tmp/bin/squeue"
jd="$tmp/jobs
touch $tmp/canary-slurm
#"
guard "$ipclab" run --slurm part --job-dir "$jd" --out "$tmp/slurm" "$tmp/exp/tiny.ini"
check "--job-dir with a newline: refused (exit 2), no job script, nothing submitted" \
        '[ $rc -eq 2 ] && grep -q "job-dir .*jobs\\\\ntouch .*: a control character" <<<"$out" && [ ! -e "$FAKE_DIR/sbatch-ran" ] &&
         [ ! -e "$tmp/jobs" ] && ! ls "$tmp" | grep -q "^jobs"' || echo "# $out"
check "... and the canary the newline would have created is absent" '[ ! -e "$tmp/canary-slurm" ]'
guard "$ipclab" run --slurm part --job-dir "$tmp/jobs-ok" --out "$tmp/slurm" "$tmp/exp/tiny.ini"
check "a plain --job-dir: the job script written and submitted" \
        '[ -e "$FAKE_DIR/sbatch-ran" ] && [ -s "$tmp/jobs-ok/job.sh" ] && sh -n "$tmp/jobs-ok/job.sh"' || echo "# $out"

echo "1..$n"
[ "$failed" -eq 0 ]
