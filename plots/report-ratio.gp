# report-ratio.gp: the reviewer's report (mk/verify.mk): for every cell of
# every reproduced experiment, the reproduction's time per message over the
# committed data's, with its 95 % interval (`ipclab compare`; an interval
# that misses 1 is a cell that did not reproduce).  x: the cells in the
# order of the committed samples.tsv, one colour per experiment.
# Make passes summary (the TSV of ipclab compare), out and plotdir.

if (!exists("plotdir")) plotdir = "plots"
fig_w = 6.0; fig_h = 3.0
load plotdir."/common.gp"

set datafile missing "-"
set datafile columnheaders
exps = system(sprintf("awk -F'\t' 'NR > 1 && !seen[$1]++ { printf \"%%s \", $1 }' '%s'", summary))
set logscale y 2
set format y "%g"
set xrange [0:*]
set xtics autofreq
unset mxtics
set xlabel "cell (committed order)"
set ylabel "reproduced / committed, per message" offset 1, 0
set key outside right top vertical font ",7"
if (words(exps) == 0) {
        @no_data
} else {
        plot 1 with lines linecolor rgb "#000000" dashtype 2 title "same", \
             for [i = 1:words(exps)] summary \
                using ($0 + 1):(strcol("experiment") eq word(exps, i) ? column("ratio") : NaN):(column("ratio_lo")):(column("ratio_hi")) \
                with yerrorbars pointtype 7 linecolor i title word(exps, i)
}
