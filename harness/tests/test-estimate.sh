#!/bin/bash
# test-estimate.sh: the estimate of a run's duration (harness/measure/estimate.h)
# against what every shipped experiment's committed data/EXP/meta.ini
# recorded (first start to last finish, the full profile, measured on the
# machine that recorded it): `ipclab estimate --recorded` gives the
# model's estimate and the estimate calibrated from every other
# experiment's recorded runs (leave-one-out), and their ratios to the
# recorded span; every calibrated ratio must lie within 0.8 to 1.25.  A
# deterministic comparison with committed numbers, no time limit and no
# measurement.  Also: `ipclab check` says how its estimate was made (from
# how many earlier runs, or the model), and a quick profile is estimated
# as itself.
set -u
cd "$(dirname "$0")/../.."
. harness/tests/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

harness/ipclab estimate --recorded experiments/*.ini > "$tmp/table" 2>&1; rc=$?
sed 's/^/# /' "$tmp/table"
rows=$(grep -cE '^[a-z0-9-]+ +.* [0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2}$' "$tmp/table")
check "ipclab estimate --recorded gives a row for every shipped experiment ($rows of $(ls experiments/*.ini | wc -l))" \
        '[ "$rows" -eq "$(ls experiments/*.ini | wc -l)" ]'
for f in experiments/*.ini; do
        e=$(basename "$f" .ini)
        r=$(awk -v e="$e" '$1 == e { print $NF }' "$tmp/table")
        m=$(awk -v e="$e" '$1 == e { print $(NF - 1) }' "$tmp/table")
        check "$e: calibrated (leave-one-out) over recorded $r, within 0.8 to 1.25 (model alone: $m)" \
                '[ -n "$r" ] && awk -v r="$r" "BEGIN { exit !(r >= 0.8 && r <= 1.25) }"'
done
check "... and so it exits 0" '[ $rc -eq 0 ]'

# Another data directory, where machines' rows (pipe and Unix socket round
# trips, as kernel-latency has) took ten times as long as recorded: the
# estimate of kernel-latency calibrated from it follows them, and the
# check fails (exit 1).
mkdir -p "$tmp/data"
cp -a data/kernel-latency data/machines "$tmp/data/"
awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "elapsed_ns") c = i; print; next }
        { $c = sprintf("%.0f", $c * 10); print }' data/machines/samples.tsv > "$tmp/data/machines/samples.tsv"
harness/ipclab estimate --recorded --data "$tmp/data" experiments/kernel-latency.ini > "$tmp/slow" 2>&1; rc=$?
check "calibrated from runs that took ten times as long, the estimate is off and the check fails (status $rc)" \
        '[ $rc -eq 1 ]' || sed 's/^/# /' "$tmp/slow"

# A machine twice as fast as the recorded runs' (the same runs with every
# elapsed_ns and every run's span halved): a cell of a kind no run
# recorded (UDP) is modelled,
# and the model is scaled by how the recorded cells compare with it, the
# median of recorded over modelled per-message time.  Its estimate must
# follow the machine (at most 0.75 of the estimate beside the runs as
# recorded), and the estimate says by how much it scaled.
mkdir -p "$tmp/asis" "$tmp/fast"
cp -a data/kernel-latency data/machines "$tmp/asis/"
cp -a data/kernel-latency data/machines "$tmp/fast/"
for d in kernel-latency machines; do
        awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "elapsed_ns") c = i; print; next }
                $c != "-" { $c = sprintf("%.0f", $c / 2) } { print }' data/$d/samples.tsv > "$tmp/fast/$d/samples.tsv"
        started=
        while IFS= read -r line; do
                case $line in
                started=*) started=$(date -u -d "${line#started=}" +%s.%N) ;;
                finished=*) f=$(date -u -d "${line#finished=}" +%s.%N)
                        half=$(awk -v s="$started" -v f="$f" 'BEGIN { printf "%.6f", s + (f - s) / 2 }')
                        line=finished=$(date -u -d "@$half" +%Y-%m-%dT%H:%M:%S.%6NZ) ;;
                esac
                printf '%s\n' "$line"
        done < data/$d/meta.ini > "$tmp/fast/$d/meta.ini"
done
cat > "$tmp/udp.ini" <<'INI'
[experiment]
title=UDP round trips, a kind no recorded run has
transport=udp
size=64
pattern=roundtrip
cpus=split
count=20000
repeat=5
INI
asis=$(harness/ipclab estimate --data "$tmp/asis" "$tmp/udp.ini" 2>&1 | awk '$1 == "udp" { $1 = ""; $NF = ""; print }')
fast=$(harness/ipclab estimate --data "$tmp/fast" "$tmp/udp.ini" 2>&1 | awk '$1 == "udp" { $1 = ""; $NF = ""; print }')
check "a modelled cell follows a machine twice as fast ($fast against $asis)" \
        '[ -n "$asis" ] && [ -n "$fast" ] && [ "$(duration_secs "$fast")" -le "$(( $(duration_secs "$asis") * 3 / 4 ))" ]'
out=$(harness/ipclab check --data "$tmp/fast" "$tmp/udp.ini" 2>&1)
check "... and ipclab check says by how much it scaled the model" \
        'grep -qE "modelled at 0\.(4[5-9]|5[0-5]) times the model.s \(the median of recorded over modelled over [0-9]+ recorded cells\)" <<<"$out"' ||
        sed 's/^/# /' <<<"$out"

# A sequential design's repetitions are what its verdicts decided: beside a
# recorded run, the estimate takes each cell's from meta.ini ([repeat]
# cell_N), not the last look's.  The same recorded run with every cell at
# the first look (6), and at the last (24), must give two model estimates,
# the first the smaller; with no cell recorded, the most the design can
# take (the cells of a claim at the last look, the others at the first),
# between the two.
for k in 6 24 none; do
        mkdir -p "$tmp/seq-$k"
        cp -a data/dbus-throughput "$tmp/seq-$k/"
        if [ "$k" = none ]; then sed -i '/^cell_[0-9]*=/d' "$tmp/seq-$k/dbus-throughput/meta.ini"
        else sed -i "s/^\(cell_[0-9]*\)=[0-9]* repetitions/\1=$k repetitions/" "$tmp/seq-$k/dbus-throughput/meta.ini"; fi
        harness/ipclab estimate --recorded --data "$tmp/seq-$k" experiments/dbus-throughput.ini > "$tmp/seq-$k.out" 2>&1
        awk '$1 == "dbus-throughput" { print $(NF - 1) }' "$tmp/seq-$k.out" > "$tmp/seq-$k.ratio"
done
seq6=$(cat "$tmp/seq-6.ratio") seq24=$(cat "$tmp/seq-24.ratio") seqnone=$(cat "$tmp/seq-none.ratio")
check "sequential design: the recorded repetitions decide the estimate (model/recorded: $seq6 at 6 each, $seq24 at 24, $seqnone unrecorded)" \
        '[ -n "$seq6" ] && awk -v a="$seq6" -v b="$seq24" -v c="$seqnone" "BEGIN { exit !(a < c && c < b) }"'

out=$(harness/ipclab check experiments/kernel-latency.ini 2>&1)
check "ipclab check: calibrated from the earlier runs in data/" \
        'grep -qE "^  estimated from: calibrated from [0-9]+ earlier runs on this machine" <<<"$out"'
mkdir -p "$tmp/none"
out=$(harness/ipclab check --data "$tmp/none" experiments/kernel-latency.ini 2>&1)
check "ipclab check without earlier runs: the model, and it says so" \
        'grep -q "^  estimated from: the model (no earlier run on this machine" <<<"$out" &&
         grep -q "per repetition fork, pinning and connection" <<<"$out"'
full=$(harness/ipclab estimate experiments/kernel-latency.ini | awk '$1 == "kernel-latency" { $1 = ""; $NF = ""; print }')
quick=$(harness/ipclab estimate --profile quick experiments/kernel-latency.ini | awk '$1 == "kernel-latency" { $1 = ""; $NF = ""; print }')
check "a quick profile is estimated as itself ($quick), less than the full one ($full)" \
        '[ -n "$quick" ] && [ "$(duration_secs "$quick")" -lt "$(duration_secs "$full")" ]'

# Places add up as their kind says (PlaceOps.cost_s): three SSH targets
# run in turn, three Slurm nodes side by side, and a Slurm job array runs
# its files side by side (the total is the longest, not the sum).
secs_of() { awk -v e="$1" '$1 == e { $1 = ""; $NF = ""; print }' <<<"$2"; }
exps="experiments/kernel-latency.ini experiments/machines.ini"
one=$(harness/ipclab estimate $exps)
ssh3=$(harness/ipclab estimate --places 3 $exps)
slurm3=$(harness/ipclab estimate --place slurm --places 3 $exps)
k1=$(duration_secs "$(secs_of kernel-latency "$one")")
m1=$(duration_secs "$(secs_of machines "$one")")
k3=$(duration_secs "$(secs_of kernel-latency "$ssh3")")
ks=$(duration_secs "$(secs_of kernel-latency "$slurm3")")
ts=$(duration_secs "$(awk '$1 == "estimated" && $2 == "total" { $1 = $2 = ""; print }' <<<"$slurm3")")
check "three SSH targets in turn take three times as long or more ($k3 s, here $k1 s)" \
        '[ "$k3" -ge $((3 * k1)) ]'
check "three Slurm nodes side by side take as long as here ($ks s, here $k1 s)" '[ "$ks" -eq "$k1" ]'
check "a Slurm job array's total is its longest file ($ts s), not the sum ($k1 s + $m1 s)" \
        '[ "$ts" -eq "$((k1 > m1 ? k1 : m1))" ]'
check "at Slurm places each file says what its estimate leaves out (the queue), here nothing" \
        'grep -A1 "^  kernel-latency " <<<"$slurm3" | grep -q "^   *the time Slurm queues the job not counted$" &&
         ! grep -q "Slurm queues" <<<"$one$ssh3"'
out=$(harness/ipclab estimate --place nowhere $exps 2>&1); rc=$?
check "an unknown place kind: exit 2, naming the kinds (status $rc)" \
        '[ $rc -eq 2 ] && grep -q "give one of local, ssh, slurm" <<<"$out"'

echo "1..$n"
[ "$failed" -eq 0 ]
