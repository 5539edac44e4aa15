#!/bin/bash
# test-history.sh: what the end of `ipclab run` says, the runs a rerun
# keeps, and `ipclab compare` of a run against the one before it.
#
# Real runs of pipe and socketpair round trips (tiny counts).  Whatever
# depends on timing is not asserted: a regression is made from real data
# by a deterministic transformation (every elapsed_ns times 10), and "no
# regression" is asserted on a run against an exact copy of itself.  (3x
# was not enough at load average 15: a cell's repetitions then spread over
# more than 2.7x, and its interval at 1 - 0.05/K reached below 1.1.)
set -u
cd "$(dirname "$0")/../.."
. harness/tests/tap.sh
tap_tmp --runtime
out=$tmp/out
hist=$out/.history/p

cat > "$tmp/p.ini" <<'INI'
[experiment]
title=pipe and socketpair round trips
transport=pipe;socketpair
size=64;4096
pattern=roundtrip
cpus=same
count=2000
repeat=8

[claim pipe-vs-socketpair]
text=pipe round trips beat socketpair ones
faster=transport=pipe
slower=transport=socketpair
metric=roundtrip_latency
by=1
INI

# 1. The first run, and what its end says.
$ipclab run --out "$out" "$tmp/p.ini" > "$tmp/run1.out" 2> "$tmp/run1.err"; rc=$?
check "a first run exits 0" '[ $rc -eq 0 ]' "$(tail -3 "$tmp/run1.err")"
check "its end names the experiment and where its data is" 'grep -q "^p ($out/p): what this run found$" "$tmp/run1.out"' \
        "$(cat "$tmp/run1.out")"
check "... the claim with its verdict and interval" \
        'grep -Eq "^  claim pipe-vs-socketpair +(holds|fails|inconclusive|no data) +[0-9.e+-]+ \[[0-9.e+-]+, [0-9.e+-]+\]" "$tmp/run1.out"' \
        "$(cat "$tmp/run1.out")"
check "... the figure's series at its first x, hyperfine style" \
        'grep -Eq "^  figure main +at 64 B +(pipe|socketpair) ran [0-9.e+-]+ \[[0-9.e+-]+, [0-9.e+-]+\] times faster than (pipe|socketpair)" "$tmp/run1.out"' \
        "$(cat "$tmp/run1.out")"
check "... and at its last x" 'grep -Eq "^  figure main +at 4 KiB +.* times faster than " "$tmp/run1.out"'
# Every warning meta.ini records is among the suspicions.
warn_ok=yes
while IFS= read -r w; do
        grep -qF "meta.ini  $w" "$tmp/run1.out" || warn_ok="missing: $w"
done < <(sed -n '/^\[warnings\]/,/^\[/s/^warning_[0-9]*=//p' "$out/p/meta.ini")
check "... every warning of meta.ini" '[ "$warn_ok" = yes ]' "$warn_ok"
check "no colour when standard output is no terminal" '! grep -q $'"'"'\033'"'"' "$tmp/run1.out"'
cp "$out/p/samples.tsv" "$tmp/run1.tsv"
cp "$out/p/meta.ini" "$tmp/run1.ini"
check "a first run keeps no history" '[ ! -e "$hist" ]'

# A cell past its time limit fails its repetition: named among the suspicions.
cat > "$tmp/limit.ini" <<'INI'
[experiment]
title=time limit
transport=pipe
size=64KiB
pattern=oneway
count=100;1000000000
repeat=1
warmup=1
timeout=1s
INI
$ipclab run --out "$tmp/limit" "$tmp/limit.ini" > "$tmp/limit.out" 2>/dev/null; rc=$?
check "a failed repetition: exit 1, and the end names its cell" \
        '[ $rc -eq 1 ] && grep -Eq "^  suspect +failed +.*count=1000000000: 1 of 1 repetitions failed$" "$tmp/limit.out"' \
        "$(cat "$tmp/limit.out")"

# 2. A rerun (--quiet: nothing on standard output) keeps the first run whole.
$ipclab run --quiet --out "$out" "$tmp/p.ini" > "$tmp/run2.out" 2> "$tmp/run2.err"; rc=$?
check "a rerun with --quiet exits 0 and prints nothing on standard output" '[ $rc -eq 0 ] && [ ! -s "$tmp/run2.out" ]' \
        "$(cat "$tmp/run2.out")"
kept=$(ls "$hist" 2>/dev/null)
check "the rerun kept one earlier run" '[ "$(echo "$kept" | wc -w)" -eq 1 ]' "kept: $kept"
check "... the first one, whole: samples.tsv, meta.ini and latencies" \
        'cmp -s "$tmp/run1.tsv" "$hist/$kept/samples.tsv" && cmp -s "$tmp/run1.ini" "$hist/$kept/meta.ini" &&
         [ -f "$hist/$kept/latencies.tsv.gz" ]'
check "... named by when it started" \
        '[ "$kept" = "$(sed -n "s/^started=\([0-9]*\)-\([0-9]*\)-\([0-9]*\)T\([0-9]*\):\([0-9]*\):\([0-9]*\).*/\1\2\3T\4\5\6Z/p" "$tmp/run1.ini" | head -n1)" ]'
check "data stays the current run" '! cmp -s "$tmp/run1.tsv" "$out/p/samples.tsv"'
check "ipclab compare --list lists it" '[ "$($ipclab compare --list "$out/p")" = "$kept" ]'

# 3. compare against the previous run: one row per cell, both sides.
$ipclab compare "$out/p" > "$tmp/cmp.tsv" 2> "$tmp/cmp.err"; rc=$?
check "compare DIR/EXP against the previous run exits 0" '[ $rc -eq 0 ]' "$(cat "$tmp/cmp.err")"
check "... one row per cell, 8 repetitions a side" \
        '[ "$(awk -F"\t" "NR > 1 && \$0 ~ /\t8\t8\t/" "$tmp/cmp.tsv" | wc -l)" -eq 4 ]' "$(cat "$tmp/cmp.tsv")"

# The same data as a kept run: nothing slower beyond 10 %, exit 0.
cp -a "$out/p" "$hist/20000101T000000Z"
$ipclab compare --against 20000101T000000Z --fail-above 10% "$out/p" > /dev/null 2> "$tmp/same.err"; rc=$?
check "the same data: --fail-above 10% exits 0" '[ $rc -eq 0 ] && grep -q "4 cells: 0 slower" "$tmp/same.err"' \
        "$(cat "$tmp/same.err")"
rm -rf "$hist/20000101T000000Z"

# 4. A regression made on purpose: this run's data with every elapsed_ns
# times 10, as the current run of another directory whose history holds
# the run as measured.
reg=$tmp/reg
mkdir -p "$reg/.history/p"
cp -a "$out/p" "$reg/.history/p/20000101T000000Z"
cp -a "$out/p" "$reg/p"
awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "elapsed_ns") c = i; print; next }
        { if ($c != "-") $c = sprintf("%.0f", $c * 10); print }' "$out/p/samples.tsv" > "$reg/p/samples.tsv"
$ipclab compare --fail-above 10% "$reg/p" > "$tmp/reg.tsv" 2> "$tmp/reg.err"; rc=$?
check "10x slower data: --fail-above 10% exits 1" '[ $rc -eq 1 ]' "$(cat "$tmp/reg.err")"
# Each cell's interval is as wide as its repetitions spread: on a loaded
# machine one may reach below 1.1 and tell nothing ("-"), but none can
# say faster or within.
named=$(grep -c "^ipclab: regression beyond 10%: p: " "$tmp/reg.err")
check "... naming the cells slower beyond 10% (the change column's)" \
        '[ "$named" -ge 1 ] && [ "$(awk -F"\t" "NR > 1 && \$NF == \"slower\"" "$tmp/reg.tsv" | wc -l)" -eq "$named" ]' \
        "$(cat "$tmp/reg.err")"
check "... and no cell faster or within" '! awk -F"\t" "NR > 1 { print \$NF }" "$tmp/reg.tsv" | grep -qE "faster|within"'
$ipclab compare "$reg/p" > /dev/null 2>&1; rc=$?
check "without --fail-above the same comparison exits 0" '[ $rc -eq 0 ]'
$ipclab compare --fail-above 10% "$out" "$reg" > /dev/null 2> "$tmp/dirs.err"; rc=$?
check "compare DATA REPRO --fail-above 10% exits 1 on it too" '[ $rc -eq 1 ]' "$(cat "$tmp/dirs.err")"
$ipclab compare --fail-above 10% "$reg" "$out" > /dev/null 2>&1; rc=$?
check "... and 0 the other way round (10x faster)" '[ $rc -eq 0 ]'
$ipclab compare --fail-above ten "$reg/p" > /dev/null 2>&1; rc=$?
check "--fail-above ten is bad usage (exit 2)" '[ $rc -eq 2 ]'
$ipclab compare --against 19990101T000000Z "$reg/p" > /dev/null 2> "$tmp/none.err"; rc=$?
check "--against a run not kept: exit 2, saying so" '[ $rc -eq 2 ] && grep -q "not kept" "$tmp/none.err"'

# make compare EXP=p: FAIL_ABOVE=10% by default; 0 on the same data.
same=$tmp/same
mkdir -p "$same/.history/p"
cp -a "$out/p" "$same/p"
cp -a "$out/p" "$same/.history/p/20000101T000000Z"
make --no-print-directory compare EXP=p EXPDIR="$tmp" DATADIR="$reg" > /dev/null 2> "$tmp/make-reg.err"; rc=$?
check "make compare EXP=p on the 10x slower data fails" '[ $rc -ne 0 ] && grep -q "regression beyond 10%" "$tmp/make-reg.err"' \
        "$(tail -3 "$tmp/make-reg.err")"
make --no-print-directory compare EXP=p EXPDIR="$tmp" DATADIR="$same" > /dev/null 2> "$tmp/make-same.err"; rc=$?
check "... and passes on the same data" '[ $rc -eq 0 ]' "$(tail -3 "$tmp/make-same.err")"

# 5. cpus=same changed to split: each cell beside its counterpart.
mkdir -p "$tmp/split"
sed 's/^cpus=same$/cpus=split/' "$tmp/p.ini" > "$tmp/split/p.ini"
$ipclab run --quiet --out "$out" "$tmp/split/p.ini" > /dev/null 2>&1; rc=$?
check "a rerun with cpus=split exits 0" '[ $rc -eq 0 ]'
$ipclab compare "$out/p" > "$tmp/split.tsv" 2>&1
check "compare sets each cell beside its cpus=same counterpart" \
        '[ "$(awk -F"\t" "NR > 1 && /same\/split/ && \$0 ~ /\t8\t8\t/" "$tmp/split.tsv" | wc -l)" -eq 4 ]' "$(cat "$tmp/split.tsv")"

# 6. The limit: --keep 2 keeps the two runs before the current one.
for i in 3 4 5; do
        cp "$out/p/meta.ini" "$tmp/before$i.ini"
        $ipclab run --quiet --keep 2 --out "$out" "$tmp/p.ini" > /dev/null 2>&1
done
kept=$(ls "$hist")
check "--keep 2: two runs kept" '[ "$(echo "$kept" | wc -w)" -eq 2 ]' "kept: $kept"
check "... the two newest" 'cmp -s "$tmp/before4.ini" "$hist/$(echo "$kept" | head -n1)/meta.ini" &&
        cmp -s "$tmp/before5.ini" "$hist/$(echo "$kept" | tail -n1)/meta.ini"'
$ipclab run --quiet --keep 0 --out "$out" "$tmp/p.ini" > /dev/null 2>&1
check "--keep 0 keeps none" '[ -z "$(ls "$hist")" ]'

# 7. Colour on a terminal (script(1) gives the run one), none with NO_COLOR.
if command -v script > /dev/null; then
        script -qec "$ipclab run --quiet --out '$tmp/tty' '$tmp/p.ini'" /dev/null > "$tmp/tty0.out" 2>&1
        script -qec "$ipclab run --out '$tmp/tty' '$tmp/p.ini' 2>/dev/null" /dev/null > "$tmp/tty.out" 2>&1
        check "on a terminal the verdict is coloured" 'grep -q $'"'"'\033\[32mholds\|\033\[1;31mfails\|\033\[33m'"'"' "$tmp/tty.out"' \
                "$(cat -v "$tmp/tty.out")"
        check "... and --quiet prints nothing there either" '! grep -q "what this run found" "$tmp/tty0.out"'
        NO_COLOR=1 script -qec "$ipclab run --out '$tmp/tty' '$tmp/p.ini' 2>/dev/null" /dev/null > "$tmp/nc.out" 2>&1
        check "NO_COLOR=1: no colour on a terminal" 'grep -q "what this run found" "$tmp/nc.out" && ! grep -q $'"'"'\033'"'"' "$tmp/nc.out"' \
                "$(cat -v "$tmp/nc.out")"
else
        skip "colour on a terminal" "no script(1) here to give the run one"
fi

# 8. A run swapped in whose predecessor was not yet moved (a crash
# between the two renames) leaves it in the staging directory: the next
# run keeps it instead of removing it.
cp -a "$out/p" "$out/.p.new"
sed -i 's/^started=.*/started=2001-02-03T04:05:06.000000Z/' "$out/.p.new/meta.ini"
$ipclab run --quiet --out "$out" "$tmp/p.ini" > /dev/null 2>&1
check "a whole run left in the staging directory is kept in history" '[ -f "$hist/20010203T040506Z/samples.tsv" ]' \
        "$(ls -a "$hist" "$out")"

# 9. History that cannot be written (.history a file here) loses nothing,
# also where the results come from a target (--host local: they arrive in
# a directory of their own, which goes): the run replaced waits in the
# staging directory, and the next run with a history puts it there.
mkdir -p "$tmp/park"
(cd "$tmp/park" && touch .history &&
        $ipclab run --quiet --host local --out . "$tmp/p.ini" > /dev/null 2>&1 &&
        $ipclab run --quiet --host local --out . "$tmp/p.ini" > /dev/null 2>&1)
first=$(sed -n 's/^started=//p' "$tmp/park/.p.new/meta.ini" 2>/dev/null)
check "a target's run replaced while history cannot be written waits in the staging directory" \
        '[ -n "$first" ] && [ -f "$tmp/park/p/samples.tsv" ]' "$(ls -a "$tmp/park")"
rm -f "$tmp/park/.history"
$ipclab run --quiet --host local --out "$tmp/park" "$tmp/p.ini" > /dev/null 2>&1
check "... and the next run keeps it in history" \
        '[ -n "$first" ] && grep -qx "started=$first" "$tmp/park/.history/p"/*/meta.ini && [ ! -e "$tmp/park/.p.new" ]'


# 10. --keep-size: at most that much of the runs kept (the sizes of their
# files), the oldest removed first; the current run is never touched.
# Two runs are kept first; a limit of one and a half of the larger keeps
# the newer only.
ks=$tmp/ks
for i in 1 2 3; do
        $ipclab run --quiet --out "$ks" "$tmp/p.ini" > /dev/null 2>&1
done
run_bytes() { find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }
kept=$(ls "$ks/.history/p" 2>/dev/null)
big=0
for k in $kept; do b=$(run_bytes "$ks/.history/p/$k"); [ "$b" -gt "$big" ] && big=$b; done
newest=$(echo "$kept" | tail -n1)
cp "$ks/p/meta.ini" "$tmp/ks-before.ini"
$ipclab run --quiet --keep-size $((big * 3 / 2)) --out "$ks" "$tmp/p.ini" > /dev/null 2>&1; rc=$?
kept2=$(ls "$ks/.history/p")
check "--keep-size 1.5 runs: of three runs kept, the newest only" \
        '[ $rc -eq 0 ] && [ "$(echo "$kept" | wc -w)" -eq 2 ] && [ "$(echo "$kept2" | wc -w)" -eq 1 ] &&
         cmp -s "$tmp/ks-before.ini" "$ks/.history/p/$kept2/meta.ini"' "before: $kept (largest $big B); after: $kept2"
$ipclab run --quiet --keep-size 1 --out "$ks" "$tmp/p.ini" > /dev/null 2>&1
check "--keep-size 1 (byte) keeps none, and the current run stays" \
        '[ -z "$(ls "$ks/.history/p")" ] && [ -f "$ks/p/samples.tsv" ] && [ -f "$ks/p/meta.ini" ]'
$ipclab run --quiet --keep-size 200MB --out "$ks" "$tmp/p.ini" > /dev/null 2> "$tmp/ks.err"; rc=$?
check "--keep-size 200MB is bad usage (exit 2), naming the option" \
        '[ $rc -eq 2 ] && grep -q -- "--keep-size .200MB." "$tmp/ks.err"' "$(cat "$tmp/ks.err")"

# 11. --history git: earlier runs as commits in the study's repository,
# on refs of their own, the user's branch, index and working tree as
# they were.
q=$tmp/q.ini
cat > "$q" <<'INI'
[experiment]
title=pipe round trips
transport=pipe
size=64
pattern=roundtrip
cpus=same
count=200
repeat=3
INI
$ipclab run --quiet --history git --out "$tmp/nogit/data" "$q" > /dev/null 2> "$tmp/nogit.err"; rc=$?
check "--history git outside a git repository: exit 2 before measuring, naming the choice" \
        '[ $rc -eq 2 ] && grep -q "history git: .*not in a git repository" "$tmp/nogit.err" && [ ! -e "$tmp/nogit" ]' \
        "$(cat "$tmp/nogit.err")"
$ipclab run --quiet --history svn --out "$tmp/svn" "$q" > /dev/null 2>&1; rc=$?
check "--history svn is bad usage (exit 2)" '[ $rc -eq 2 ] && [ ! -e "$tmp/svn" ]'
st=$tmp/study
$ipclab init "$st" > /dev/null 2>&1
if git -C "$st" rev-parse --verify -q HEAD > /dev/null; then
        cp "$q" "$st/experiments/q.ini"
        echo staged > "$st/staged.txt"
        echo untracked > "$st/untracked.txt"
        git -C "$st" add staged.txt
        # What the user has: branch, commit, index, working tree.
        user_state() {
                git -C "$st" symbolic-ref HEAD; git -C "$st" rev-parse HEAD; git -C "$st" ls-files -s
                git -C "$st" status --porcelain --untracked-files=all; git -C "$st" for-each-ref refs/heads refs/tags
        }
        $ipclab run --quiet --history git --out "$st/data" "$st/experiments/q.ini" > /dev/null 2>&1
        cp "$st/data/q/meta.ini" "$tmp/q1.ini"
        cp "$st/data/q/samples.tsv" "$tmp/q1.tsv"
        user_state > "$tmp/user1"
        $ipclab run --quiet --history git --out "$st/data" "$st/experiments/q.ini" > /dev/null 2> "$tmp/git2.err"; rc=$?
        user_state > "$tmp/user2"
        refs=$(git -C "$st" for-each-ref --format='%(refname)' refs/ipclab/history/q/)
        id=$(sed -n "s/^started=\([0-9]*\)-\([0-9]*\)-\([0-9]*\)T\([0-9]*\):\([0-9]*\):\([0-9]*\).*/\1\2\3T\4\5\6Z/p" \
                "$tmp/q1.ini" | head -n1)
        check "a rerun with --history git keeps the run replaced on refs/ipclab/history/q/<started>" \
                '[ $rc -eq 0 ] && [ "$refs" = "refs/ipclab/history/q/$id" ]' "refs: $refs; $(cat "$tmp/git2.err")"
        check "... a commit of data/q/'s files only, byte for byte" \
                '[ "$(git -C "$st" ls-tree -r --name-only --full-tree "$refs" | tr "\n" " ")" = \
                   "data/q/latencies.tsv.gz data/q/meta.ini data/q/samples.tsv " ] &&
                 git -C "$st" cat-file blob "$refs:data/q/meta.ini" | cmp -s - "$tmp/q1.ini" &&
                 git -C "$st" cat-file blob "$refs:data/q/samples.tsv" | cmp -s - "$tmp/q1.tsv"' \
                "$(git -C "$st" ls-tree -r --full-tree "$refs" 2>&1)"
        check "... the user's branch, commit, index and working tree untouched" 'cmp -s "$tmp/user1" "$tmp/user2"' \
                "$(diff "$tmp/user1" "$tmp/user2")"
        check "... no history directory, no temporary index left" \
                '[ ! -e "$st/data/.history" ] && [ ! -e "$st/data/.q.new" ] && ! ls "$tmp/run" | grep -q ipclab-history'
        check "ipclab compare --list finds it" '[ "$($ipclab compare --list "$st/data/q")" = "$id" ]'
        $ipclab compare --against "$id" "$st/data/q" > "$tmp/gcmp.tsv" 2> "$tmp/gcmp.err"; rc=$?
        check "ipclab compare --against it: the current run beside it, 3 repetitions a side" \
                '[ $rc -eq 0 ] && [ "$(awk -F"\t" "NR > 1 && \$0 ~ /\t3\t3\t/" "$tmp/gcmp.tsv" | wc -l)" -eq 1 ] &&
                 ! ls "$tmp/run" | grep -q ipclab-history' "$(cat "$tmp/gcmp.tsv" "$tmp/gcmp.err")"
        for i in 3 4; do
                cp "$st/data/q/meta.ini" "$tmp/qb$i.ini"
                $ipclab run --quiet --history git --keep 1 --out "$st/data" "$st/experiments/q.ini" > /dev/null 2>&1
        done
        refs=$(git -C "$st" for-each-ref --format='%(refname)' refs/ipclab/history/q/)
        check "--history git --keep 1: the newest run kept, alone" \
                '[ "$(echo "$refs" | wc -w)" -eq 1 ] && git -C "$st" cat-file blob "$refs:data/q/meta.ini" | cmp -s - "$tmp/qb4.ini"' \
                "refs: $refs"
        $ipclab run --quiet --history none --keep-size 200M --out "$st/data" "$st/experiments/q.ini" > /dev/null 2>&1; rc=$?
        check "--history none (--keep-size 200M) keeps nothing more (and leaves what is kept)" \
                '[ $rc -eq 0 ] && [ "$(git -C "$st" for-each-ref --format="%(refname)" refs/ipclab/history/q/)" = "$refs" ] &&
                 [ ! -e "$st/data/.history" ]'
        $ipclab run --quiet --history git --keep-size 1 --out "$st/data" "$st/experiments/q.ini" > /dev/null 2>&1
        check "--history git --keep-size 1 keeps none, and the current run stays" \
                '[ -z "$(git -C "$st" for-each-ref refs/ipclab/history/q/)" ] && [ -f "$st/data/q/samples.tsv" ]'
        user_state > "$tmp/user3"
        check "... the user's branch, index and working tree still untouched" 'cmp -s "$tmp/user1" "$tmp/user3"' \
                "$(diff "$tmp/user1" "$tmp/user3")"
else
        skip "--history git in a study" "ipclab init made no git repository here (is git installed, with an identity?)"
fi

# 12. make run passes HISTORY and KEEP_SIZE on (make -n: nothing runs).
make --no-print-directory -n run EXP=p EXPDIR="$tmp" DATADIR="$tmp/mk" HISTORY=git KEEP_SIZE=200M Q= \
        2> /dev/null | grep "ipclab run" > "$tmp/mk.out"
check "make run HISTORY=git KEEP_SIZE=200M: ipclab run --history git --keep-size 200M" \
        'grep -q -- "--keep-size .200M. --history .git." "$tmp/mk.out"' "$(cat "$tmp/mk.out")"

# 13. Runs started in one second are kept under ID, ID-2, ID-3, ... in
# the order they were replaced, and a suffix freed by pruning is never
# used again: with ID-2 kept and ID gone, the next run of that second is
# ID-3, which sorts after ID-2, so that pruning (which keeps the last)
# keeps the newest.  Deterministic: the kept ID-2 is made by hand.
id=$(sed -n '/^\[run\]/,/^\[/s/^started=\([0-9]*\)-\([0-9]*\)-\([0-9]*\)T\([0-9]*\):\([0-9]*\):\([0-9]*\).*/\1\2\3T\4\5\6Z/p' \
        "$out/p/meta.ini" | head -n1)
mkdir -p "$hist/$id-2"
rm -rf "${hist:?}/$id"
$ipclab run --quiet --keep 50 --out "$out" "$tmp/p.ini" > /dev/null 2> "$tmp/same-second.err"; rc=$?
check "a run replaced in a second whose ID-2 is kept is kept as ID-3, after it ($id)" \
        '[ $rc -eq 0 ] && [ -n "$id" ] && [ -d "$hist/$id-3" ] && [ ! -e "$hist/$id" ]' \
        "$(ls "$hist")" "$(tail -3 "$tmp/same-second.err")"

done_testing
