#!/bin/bash
# mk/claim-reruns.sh: how often a rerun of one experiment reaches the
# verdicts of the committed data: measured, not estimated.
#
#   mk/claim-reruns.sh IPCLAB EXPDIR DATADIR OUTDIR EXP RERUNS [RUN ARGS...]
#
# Runs EXPDIR/EXP.ini RERUNS times, each into OUTDIR/N/ (whole runs of the
# file, one after another, as a reviewer's `make reproduce` would), checks
# the claims of each rerun against DATADIR (`ipclab verify --repro`), and
# prints, per claim of EXP, the verdict on DATADIR, the verdicts of the
# reruns and how many of them agree; OUTDIR/agreement.tsv holds the same.
# `make claim-stability` estimates the same share by resampling the
# committed repetitions, without measuring; this measures it, with every
# source of spread between runs that a rerun meets (the machine's load and
# frequency, where the scheduler put the bus daemon, the heap's layout).
# The load average before each rerun is printed with it: reruns on a loaded
# machine are reruns too, but the table says under which load.
set -u
[ $# -ge 6 ] || { echo "usage: $0 IPCLAB EXPDIR DATADIR OUTDIR EXP RERUNS [RUN ARGS...]" >&2; exit 2; }
ipclab=$1 expdir=$2 datadir=$3 outdir=$4 exp=$5 reruns=$6
shift 6
file=$expdir/$exp.ini
[ -f "$file" ] || { echo "$0: no experiment file $file" >&2; exit 2; }
case $reruns in '' | *[!0-9]*) echo "$0: RERUNS='$reruns': not a whole number" >&2; exit 2 ;; esac
[ "$reruns" -ge 1 ] || { echo "$0: RERUNS must be at least 1" >&2; exit 2; }
[ -f "$datadir/$exp/samples.tsv" ] || { echo "$0: no data in $datadir/$exp/ to compare with" >&2; exit 2; }

mkdir -p "$outdir" || exit 1
# The column of NAME in the header line HEADER (tab-separated), from 1.
column_of() {
	local i=1 name
	local IFS=$'\t'
	for name in $2; do
		[ "$name" = "$1" ] && { echo "$i"; return 0; }
		i=$((i + 1))
	done
	echo "$0: verify's table has no column $1" >&2
	return 1
}

for n in $(seq 1 "$reruns"); do
	rm -rf "${outdir:?}/$n.new"
	echo "rerun $n of $reruns: $exp (load average $(cut -d' ' -f1-3 /proc/loadavg))"
	"$ipclab" run -q "$@" --history none --out "$outdir/$n.new" "$file" || exit $?
	rm -rf "${outdir:?}/$n" && mv "$outdir/$n.new" "$outdir/$n" || exit 1
	"$ipclab" verify --data "$datadir" --repro "$outdir/$n" --tsv "$outdir/$n.tsv" "$file" >/dev/null
	[ $? -le 1 ] || { echo "$0: verify failed on rerun $n" >&2; exit 1; }
done

header=$(head -n 1 "$outdir/1.tsv")
c_exp=$(column_of experiment "$header") || exit 1
c_claim=$(column_of claim "$header") || exit 1
c_pub=$(column_of published "$header") || exit 1
c_rep=$(column_of reproduced "$header") || exit 1

{
	printf 'claim\tdata\treruns\tsame\tverdicts\n'
	claims=$(tail -n +2 "$outdir/1.tsv" | cut -f "$c_exp,$c_claim" | while IFS=$'\t' read -r e c; do
		[ "$e" = "$exp" ] && echo "$c"; done)
	for claim in $claims; do
		data= same=0 verdicts=
		for n in $(seq 1 "$reruns"); do
			row=$(tail -n +2 "$outdir/$n.tsv" | cut -f "$c_exp,$c_claim,$c_pub,$c_rep" |
			      while IFS=$'\t' read -r e c p r; do
				      [ "$e" = "$exp" ] && [ "$c" = "$claim" ] && printf '%s\t%s\n' "$p" "$r"; done)
			data=${row%%$'\t'*}
			r=${row#*$'\t'}
			verdicts="$verdicts${verdicts:+,}$r"
			[ "$r" = "$data" ] && same=$((same + 1))
		done
		printf '%s\t%s\t%s\t%s\t%s\n' "$claim" "$data" "$reruns" "$same" "$verdicts"
	done
} > "$outdir/agreement.tsv.new" && mv "$outdir/agreement.tsv.new" "$outdir/agreement.tsv" || exit 1
cat "$outdir/agreement.tsv"
echo "(also in $outdir/agreement.tsv; the reruns in $outdir/1 .. $outdir/$reruns)"
# A harness built from a tree with uncommitted changes measures no
# commit: each meta.ini records it (ipclab_tree), and so does this table.
dirty=0
for n in $(seq 1 "$reruns"); do
	grep -qx 'ipclab_tree=dirty' "$outdir/$n/$exp/meta.ini" 2>/dev/null && dirty=$((dirty + 1))
done
[ "$dirty" -eq 0 ] ||
	echo "note: $dirty of the $reruns reruns were measured by a harness built from a tree with uncommitted changes (ipclab_tree=dirty in their meta.ini): they measure no commit"
