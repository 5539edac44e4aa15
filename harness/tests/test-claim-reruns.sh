#!/bin/bash
# test-claim-reruns.sh: `make claim-reruns` (mk/claim-reruns.sh), the
# measured agreement of reruns with the committed data's verdicts.  A real
# small experiment (pipe round trips, two claims) is measured once as the
# "data", then rerun three times.  Real verdicts vary from run to run, so
# nothing here depends on one: the table has every claim of the file,
# three verdicts each, the data's verdict as `ipclab verify` gives it, and
# an agreement count that this test recounts from the verdicts; bad
# arguments are refused before anything runs.  2000 round trips a
# repetition keep a repetition's fixed part far below 10 % of its window
# beside two CPU hogs (with 50, a loaded rerun's cell was set aside and
# its verdict was "no data").
set -u
cd "$(dirname "$0")/../.."
src=$PWD
. harness/tests/tap.sh
tap_tmp
ipclab=$src/harness/ipclab

mkdir -p "$tmp/exp"
cat > "$tmp/exp/tiny.ini" <<'INI'
[experiment]
title=claim-reruns test: pipe round trips, 64 B vs 16 KiB
transport=pipe
size=64;16KiB
pattern=roundtrip
cpus=same
count=2000
repeat=4
warmup=5

[claim small-is-faster]
text=64 B round trips are faster than 16 KiB ones
faster=size=64
slower=size=16KiB
metric=roundtrip_latency

[claim small-is-much-faster]
text=64 B round trips are at least 1000 times faster than 16 KiB ones
faster=size=64
slower=size=16KiB
metric=roundtrip_latency
by=1000
INI

"$ipclab" run -q --out "$tmp/data" "$tmp/exp/tiny.ini" >"$tmp/run.log" 2>&1
check "the data is measured" '[ $? -eq 0 ]' || cat "$tmp/run.log"

out=$tmp/reruns
mk/claim-reruns.sh "$ipclab" "$tmp/exp" "$tmp/data" "$out" tiny 3 >"$tmp/reruns.log" 2>&1
check "three reruns run and are compared" '[ $? -eq 0 ]' || cat "$tmp/reruns.log"
for i in 1 2 3; do
	[ -s "$out/$i/tiny/samples.tsv" ]
	check "rerun $i has its own samples" '[ $? -eq 0 ]'
done
grep -c '^rerun [0-9] of 3: tiny (load average [0-9.]* [0-9.]* [0-9.]*)$' "$tmp/reruns.log" | grep -qx 3
check "each rerun is announced with the load average" '[ $? -eq 0 ]'
# Whether the harness measured a commit: the table's note says what the
# reruns' meta.ini say (a clean clone, as CI builds, has no note).
ndirty=$(grep -lx 'ipclab_tree=dirty' "$out"/[123]/tiny/meta.ini | wc -l)
check "a note under the table exactly when reruns' meta.ini say ipclab_tree=dirty ($ndirty)" \
        'if [ "$ndirty" -gt 0 ]; then grep -q "^note: $ndirty of the 3 reruns were measured by a harness built from a tree with uncommitted changes" "$tmp/reruns.log"; else ! grep -q "^note: " "$tmp/reruns.log"; fi'

table=$out/agreement.tsv
[ "$(head -n 1 "$table")" = "$(printf 'claim\tdata\treruns\tsame\tverdicts')" ]
check "the table's header names its columns" '[ $? -eq 0 ]'
[ "$(tail -n +2 "$table" | cut -f1 | sort | tr '\n' ' ')" = "small-is-faster small-is-much-faster " ]
check "the table has every claim of the file, once" '[ $? -eq 0 ]'

# The data's verdicts, as ipclab verify gives them.
"$ipclab" verify --data "$tmp/data" --tsv "$tmp/data.tsv" "$tmp/exp/tiny.ini" >/dev/null 2>&1
want() { awk -F'\t' -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
         $col["claim"] == c { print $col["published"] }' "$tmp/data.tsv"; }
while IFS=$'\t' read -r claim data reruns same verdicts; do
	[ "$claim" = claim ] && continue
	[ -n "$data" ] && [ "$data" = "$(want "$claim")" ]
	check "$claim: the data's verdict is verify's ($data)" '[ $? -eq 0 ]'
	[ "$reruns" = 3 ] && [ "$(tr ',' '\n' <<<"$verdicts" | grep -cE '^(holds|fails|inconclusive)$')" = 3 ]
	check "$claim: three verdicts ($verdicts)" '[ $? -eq 0 ]' || {
		cat "$tmp/reruns.log"; for i in 1 2 3; do cat "$out/$i.tsv"; done; }
	[ "$same" = "$(tr ',' '\n' <<<"$verdicts" | grep -cx "$data")" ]
	check "$claim: the agreement count ($same) is the number of verdicts equal to the data's" '[ $? -eq 0 ]'
done < "$table"

mk/claim-reruns.sh "$ipclab" "$tmp/exp" "$tmp/data" "$tmp/bad" tiny 0 >"$tmp/bad.log" 2>&1
[ $? -eq 2 ] && grep -q 'at least 1' "$tmp/bad.log" && [ ! -e "$tmp/bad/1" ]
check "RERUNS=0 is refused before anything runs" '[ $? -eq 0 ]'
mk/claim-reruns.sh "$ipclab" "$tmp/exp" "$tmp/nodata" "$tmp/bad" tiny 1 >"$tmp/bad.log" 2>&1
[ $? -eq 2 ] && grep -q 'no data in' "$tmp/bad.log" && [ ! -e "$tmp/bad/1" ]
check "no data to compare with is refused before anything runs" '[ $? -eq 0 ]'
mk/claim-reruns.sh "$ipclab" "$tmp/exp" "$tmp/data" "$tmp/bad" missing 1 >"$tmp/bad.log" 2>&1
[ $? -eq 2 ] && grep -q 'no experiment file' "$tmp/bad.log"
check "an unknown experiment is refused" '[ $? -eq 0 ]'
make --no-print-directory claim-reruns EXP=no-such-experiment >"$tmp/bad.log" 2>&1
[ $? -ne 0 ] && grep -q 'EXP= names no file' "$tmp/bad.log"
check "make claim-reruns names its experiments when EXP= is wrong" '[ $? -eq 0 ]'

done_testing
