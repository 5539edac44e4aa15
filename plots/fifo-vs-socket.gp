# fifo-vs-socket: producer/consumer through pipe, FIFO and Unix stream
# socket (experiment fifo-vs-socket) beside FreeBSD's 2009 pipe-based and
# socket-based FIFOs (seed 002).
# (a) elapsed time for 10000 messages against message size;
# (b) elapsed time for 4 KiB messages against the number of messages.
# Ours: median with its confidence interval (95%, or the range of too
# few repetitions); published: means (grey).
# Bound: where the run measured memcpy bandwidth, the grey dashed line is
# the time memcpy takes to copy the same bytes once (count x size), a
# floor no transport that copies the data can beat.  The legend sits below
# both panels.

if (!exists("plotdir")) plotdir = "plots"
fig_w = 6.0; fig_h = 2.9
load plotdir."/common.gp"

count_a = 10000
size_b = 4096
pub = pubfile("002")
@require_pub
base = "pattern=oneway"
ours = keys(summary, base, "transport")
nt = words(ours)
mem = havemem(summary, base)
pubimpl = "pipe socket"
pubtitle(i) = i == 1 ? "FreeBSD 2009, pipe-based FIFO" : "FreeBSD 2009, socket-based FIFO"

set multiplot
unset key
set tmargin at screen 0.92
set bmargin at screen 0.30

# (a)
set lmargin at screen 0.085
set rmargin at screen 0.485
where_a = sprintf("%s,count=%d", base, count_a)
set title sprintf("(a) %s messages", count_a >= 10000 ? sprintf("%d %03d", count_a / 1000, count_a % 1000) : sprintf("%d", count_a)) offset 0, -0.6
@set_size_axis
eval padsize(64, 4096)
set xlabel "message size" offset 0, 0.4
@set_time_axis
set ylabel "elapsed time" offset 1, 0
if (nrows(summary, where_a.",elapsed_ns!=-") + nrows(pub, sprintf("count=%d", count_a)) == 0) {
        @no_data
} else {
        plot for [i = 1:nt] sel(summary, where_a.",transport=".word(ours, i), "size_B,elapsed_ns,elapsed_ns_lo,elapsed_ns_hi") \
                using (dodge($1, i, nt)):($2 / 1e9):($3 / 1e9):($4 / 1e9) with yerrorlines \
                linecolor rgb tcolor(word(ours, i)) pointtype tpoint(word(ours, i)) dashtype 1 notitle, \
             for [i = 1:2] sel(pub, sprintf("implementation=%s,count=%d", word(pubimpl, i), count_a), "size_B,elapsed_us") \
                using 1:($2 / 1e6) with linespoints linecolor rgb pubcolor pointtype pubpoint(i) dashtype pubdash notitle, \
             self(summary, where_a.",memcpy_MiBps!=-", "size_B,memcpy_MiBps") \
                using 1:(memsec($1 * count_a, $2)) with lines linecolor rgb memcolor linewidth memwidth \
                dashtype memdash notitle
}

# (b)
set lmargin at screen 0.575
set rmargin at screen 0.975
where_b = sprintf("%s,size_B=%d", base, size_b)
set title sprintf("(b) %s messages", sizetext(size_b)) offset 0, -0.6
@set_count_axis
eval sprintf("set xrange [%g:%g]", 100 / 1.5, 100000 * 1.5)
set xlabel "messages" offset 0, 0.4
@set_time_axis
set ylabel ""
if (nrows(summary, where_b.",elapsed_ns!=-") + nrows(pub, sprintf("size_B=%d", size_b)) == 0) {
        @no_data
} else {
        plot for [i = 1:nt] sel(summary, where_b.",transport=".word(ours, i), "count,elapsed_ns,elapsed_ns_lo,elapsed_ns_hi") \
                using (dodge($1, i, nt)):($2 / 1e9):($3 / 1e9):($4 / 1e9) with yerrorlines \
                linecolor rgb tcolor(word(ours, i)) pointtype tpoint(word(ours, i)) dashtype 1 notitle, \
             for [i = 1:2] sel(pub, sprintf("implementation=%s,size_B=%d", word(pubimpl, i), size_b), "count,elapsed_us") \
                using 1:($2 / 1e6) with linespoints linecolor rgb pubcolor pointtype pubpoint(i) dashtype pubdash notitle, \
             self(summary, where_b.",memcpy_MiBps!=-", "count,memcpy_MiBps") \
                using 1:(memsec($1 * size_b, $2)) with lines linecolor rgb memcolor linewidth memwidth \
                dashtype memdash notitle
}

# The legend: ours, the published FIFOs, the memcpy bound if measured.
unset title
unset xlabel
unset ylabel
unset border
unset tics
unset grid
unset logscale
set xrange [0:1]
set yrange [0:1]
set tmargin at screen 0.15
set bmargin at screen 0.0
set lmargin at screen 0.03
set rmargin at screen 0.99
set key center top horizontal maxrows 2 width 1 samplen 2.5 font ",8"
plot for [t in ours] NaN with linespoints linecolor rgb tcolor(t) pointtype tpoint(t) dashtype 1 title t, \
     for [i = 1:2] NaN with linespoints linecolor rgb pubcolor pointtype pubpoint(i) dashtype pubdash title pubtitle(i), \
     NaN with lines linecolor rgb memcolor linewidth memwidth dashtype memdash \
        title (mem ? "memcpy of the same bytes" : "")
unset multiplot
