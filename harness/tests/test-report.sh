#!/bin/bash
# test-report.sh: the reviewer's report.  In a temporary copy of the tree,
# `make reproduce FIG=kernel-latency PROFILE=quick` reruns one cheap
# experiment into build/repro/ and ends with build/repro/report.pdf, whose
# text must hold the two machines side by side, the claims with a
# reproduction column, the per-cell ratio plot and the figure drawn with
# the committed data and the reproduction together.  `ipclab compare` is
# checked on its own: data against itself is 1 in every cell, a changed
# machine is set in bold.  With hyperfine, FIG=shell-calls adds a figure
# drawn by a hand script, shown twice, side by side.
set -u
cd "$(dirname "$0")/../.."
src=$PWD
. harness/tests/tap.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for tool in gnuplot latexmk pdftotext; do
        command -v $tool > /dev/null || { skip "the reviewer's report" "$tool is not installed"; echo "1..$n"; exit 0; }
done

# ipclab compare on its own.
harness/ipclab compare -e kernel-latency data data > "$tmp/self.tsv" 2> "$tmp/self.err"; rc=$?
cells=$(awk -F'\t' 'NR > 1 { c[$1 FS $3] = 1 } END { print length(c) }' data/kernel-latency/samples.tsv)
check "ipclab compare data data: one row per cell of kernel-latency ($cells)" \
        '[ $rc -eq 0 ] && [ "$(($(wc -l < "$tmp/self.tsv") - 1))" -eq "$cells" ]' || sed 's/^/# /' "$tmp/self.err"
check "... each the ratio 1 with an interval around it" \
        'awk -F"\t" "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
                { if (\$c[\"ratio\"] != 1 || \$c[\"ratio_lo\"] > 1 || \$c[\"ratio_hi\"] < 1) bad++ }
                END { exit bad > 0 }" "$tmp/self.tsv"'
mkdir -p "$tmp/other/kernel-latency"
# A reproduction twice as slow, run with another count: ratio 2 in every cell.
awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
        { if ($c["status"] == "ok") $c["elapsed_ns"] *= 2; if ($c["count"] != "-") $c["count"] = 7; print }' \
        data/kernel-latency/samples.tsv > "$tmp/other/kernel-latency/samples.tsv"
harness/ipclab compare -e kernel-latency data "$tmp/other" > "$tmp/twice.tsv"; rc=$?
check "ipclab compare: a reproduction twice as slow, with another count, is 2 in every cell" \
        '[ $rc -eq 0 ] && [ "$(($(wc -l < "$tmp/twice.tsv") - 1))" -eq "$cells" ] &&
         awk -F"\t" "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
                { if (\$c[\"ratio\"] != 2) bad++ } END { exit bad > 0 }" "$tmp/twice.tsv"'
sed 's/^kernel=.*/kernel=9.9.9-elsewhere/' data/kernel-latency/meta.ini > "$tmp/other/kernel-latency/meta.ini"
harness/ipclab compare --machines data "$tmp/other" > "$tmp/machines.tex"; rc=$?
check "ipclab compare --machines: the two kernels side by side, the differing one in bold" \
        '[ $rc -eq 0 ] && grep -q "^kernel & \\\\textbf{.*} & \\\\textbf{9.9.9-elsewhere} " "$tmp/machines.tex" &&
         grep -q "^CPU & [^\\]" "$tmp/machines.tex"'
# Page-table isolation: recorded by this harness (page_table_isolation=),
# or, in data written before it was, what the kernel command line forced
# (the last pti= word before "--" wins, as in the kernel).
mkdir -p "$tmp/pti/a/e" "$tmp/pti/b/e"
cp data/kernel-latency/samples.tsv "$tmp/pti/a/e/" && cp data/kernel-latency/samples.tsv "$tmp/pti/b/e/"
grep -v -e '^kernel_cmdline=' -e '^page_table_isolation=' data/kernel-latency/meta.ini |
        sed 's/^\[machine\]$/&\nkernel_cmdline=quiet pti=off pti=on -- pti=off/' > "$tmp/pti/a/e/meta.ini"
grep -v -e '^kernel_cmdline=' -e '^page_table_isolation=' data/kernel-latency/meta.ini |
        sed 's/^\[machine\]$/&\nkernel_cmdline=quiet pti=on\npage_table_isolation=off/' > "$tmp/pti/b/e/meta.ini"
harness/ipclab compare --machines "$tmp/pti/a" "$tmp/pti/b" > "$tmp/pti.tex"; rc=$?
check "ipclab compare --machines: page-table isolation forced on the old kernel command line, recorded off in the new" \
        '[ $rc -eq 0 ] && grep -qF "page-table isolation & \textbf{on (pti=on on the kernel command line; not recorded)} & \textbf{off} \\\\" "$tmp/pti.tex"' \
        "$(grep isolation "$tmp/pti.tex")"
harness/ipclab compare --machines "$tmp/pti/b" "$tmp/pti/b" > "$tmp/pti.tex"
check "and the recorded value wins over the command line (off, not bold)" \
        'grep -qxF "page-table isolation & off & off \\\\" "$tmp/pti.tex"' "$(grep isolation "$tmp/pti.tex")"
sed -i -e 's/^kernel_cmdline=.*/kernel_cmdline=quiet -- pti=on/' -e '/^page_table_isolation=/d' "$tmp/pti/b/e/meta.ini"
harness/ipclab compare --machines "$tmp/pti/a" "$tmp/pti/b" > "$tmp/pti.tex"
check "neither recorded nor forced before \"--\": said so" \
        'grep -qF "& \textbf{not recorded (no pti= on the kernel command line)} \\\\" "$tmp/pti.tex"' "$(grep isolation "$tmp/pti.tex")"
harness/ipclab compare data "$tmp/nowhere" > /dev/null 2>&1; rc=$?
check "ipclab compare with a missing directory fails (status $rc)" '[ $rc -ne 0 ]'

# The tree as a clone has it, with the harness built here.
git ls-files -co --exclude-standard -z | xargs -0 cp -a --parents -t "$tmp/tree" 2>/dev/null ||
        { mkdir -p "$tmp/tree" && git ls-files -co --exclude-standard -z | xargs -0 cp -a --parents -t "$tmp/tree"; }
mkdir -p "$tmp/tree/build" && cp -a build/obj build/gen build/config.mk "$tmp/tree/build/" && cp -a harness/ipclab "$tmp/tree/harness/"
cd "$tmp/tree"

nice make --no-print-directory reproduce FIG=kernel-latency PROFILE=quick > repro.log 2>&1; rc=$?
check "make reproduce FIG=kernel-latency PROFILE=quick succeeds" '[ $rc -eq 0 ]' || tail -30 repro.log | sed 's/^/# /'
check "it ends by naming the report" 'tail -n1 repro.log | grep -q "report: build/repro/report.pdf"' ||
        tail -5 repro.log | sed 's/^/# /'
check "it reproduced only kernel-latency" '[ -s build/repro/kernel-latency/samples.tsv ] && [ "$(ls build/repro/*/samples.tsv | wc -l)" -eq 1 ]'
text=$(pdftotext build/repro/report.pdf - 2>/dev/null | tr -s ' \n' '  ')
cpu=$(sed -n 's/^cpu_model=//p' data/kernel-latency/meta.ini | head -n1)
kernel=$(sed -n 's/^kernel=//p' build/repro/kernel-latency/meta.ini | head -n1)
check "the report has the two machines side by side (CPU $cpu, kernel $kernel, both columns)" \
        'grep -qF "The two machines" <<<"$text" && grep -qF "committed data" <<<"$text" &&
         grep -qF "reproduction" <<<"$text" && grep -qF "$cpu" <<<"$text" && grep -qF "$kernel" <<<"$text" &&
         grep -qF "load average at start" <<<"$text"'
check "the report has the claims on both (a Reproduction column)" \
        'grep -qF "Claims" <<<"$text" && grep -qF "This data Reproduction" <<<"$text"'
check "the report has reproduced/committed per cell (the ratio plot, from compare.tsv)" \
        '[ -s build/repro/report/figures/ratio.pdf ] && grep -qF "reproduced / committed" <<<"$text" &&
         [ "$(($(wc -l < build/repro/report/compare.tsv) - 1))" -eq "$cells" ]'
check "the report has figure kernel-latency-main, committed in grey and reproduced in colour" \
        'grep -qF "kernel-latency-main: committed data in grey, the reproduction in colour" <<<"$text" &&
         grep -q "^# committed data (grey)" build/repro/report/figures/kernel-latency-main.gp &&
         harness/ipclab plot experiments/kernel-latency.ini main --summary build/summary/kernel-latency.tsv --out plain.gp &&
         [ "$(grep -c "" build/repro/report/figures/kernel-latency-main.gp)" -gt "$(grep -c "" plain.gp)" ]'
make report FIG=kernel-latency PROFILE=quick > report2.log 2>&1
check "a second make report rebuilds nothing" '! grep -qE "LATEX|PLOT|COMPARE|SUMMARY" report2.log' || sed 's/^/# /' report2.log

if command -v hyperfine > /dev/null; then
        nice make reproduce FIG=shell-calls PROFILE=quick > repro2.log 2>&1; rc=$?
        text=$(pdftotext build/repro/report.pdf - 2>/dev/null | tr -s ' \n' '  ')
        check "a figure drawn by a hand script is shown side by side (shell-calls-main)" \
                '[ $rc -eq 0 ] && grep -qF "shell-calls-main: committed data (left), the reproduction (right)" <<<"$text"' ||
                tail -20 repro2.log | sed 's/^/# /'
else
        skip "a figure drawn by a hand script is shown side by side" "hyperfine is not installed"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
