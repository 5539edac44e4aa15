# fifo-vs-socket: producer/consumer through pipe, FIFO and Unix stream
# socket (experiment fifo-vs-socket) beside FreeBSD's 2009 pipe-based and
# socket-based FIFOs (seed 002).
# (a) elapsed time for 10000 messages against message size;
# (b) elapsed time for 4 KiB messages against the number of messages.
# Ours: median with its 95% confidence interval; published: means.

if (!exists("plotdir")) plotdir = "plots"
fig_w = 6.0; fig_h = 2.5
load plotdir."/common.gp"

count_a = 10000
size_b = 4096
pub = pubfile("002")
@require_pub
base = "pattern=oneway"
ours = keys(summary, base, "transport")
pubimpl = "pipe socket"
pubtitle(i) = i == 1 ? "FreeBSD 2009, pipe-based FIFO" : "FreeBSD 2009, socket-based FIFO"

set multiplot layout 1, 2 margins 0.08, 0.98, 0.17, 0.91 spacing 0.09, 0

# (a)
where_a = sprintf("%s,count=%d", base, count_a)
set title sprintf("(a) %d messages", count_a) offset 0, -0.6
@set_size_axis
eval padsize(64, 4096)
set xlabel "message size" offset 0, 0.4
@set_time_axis
set ylabel "elapsed time" offset 1, 0
if (nrows(summary, where_a.",elapsed_ns!=-") + nrows(pub, sprintf("count=%d", count_a)) == 0) {
        @no_data
} else {
        plot for [t in ours] sel(summary, where_a.",transport=".t, "size_B,elapsed_ns,elapsed_ns_lo,elapsed_ns_hi") \
                using 1:($2 / 1e9):($3 / 1e9):($4 / 1e9) with yerrorlines \
                linecolor rgb tcolor(t) pointtype tpoint(t) dashtype 1 title t, \
             for [i = 1:2] sel(pub, sprintf("implementation=%s,count=%d", word(pubimpl, i), count_a), "size_B,elapsed_us") \
                using 1:($2 / 1e6) with linespoints linecolor rgb pubcolor pointtype pubpoint(i) dashtype pubdash title pubtitle(i)
}

# (b)
where_b = sprintf("%s,size_B=%d", base, size_b)
set title sprintf("(b) %s messages", sizetext(size_b)) offset 0, -0.6
@set_count_axis
eval sprintf("set xrange [%g:%g]", 100 / 1.5, 100000 * 1.5)
set xlabel "messages" offset 0, 0.4
@set_time_axis
set ylabel ""
unset key
if (nrows(summary, where_b.",elapsed_ns!=-") + nrows(pub, sprintf("size_B=%d", size_b)) == 0) {
        @no_data
} else {
        plot for [t in ours] sel(summary, where_b.",transport=".t, "count,elapsed_ns,elapsed_ns_lo,elapsed_ns_hi") \
                using 1:($2 / 1e9):($3 / 1e9):($4 / 1e9) with yerrorlines \
                linecolor rgb tcolor(t) pointtype tpoint(t) dashtype 1 title t, \
             for [i = 1:2] sel(pub, sprintf("implementation=%s,size_B=%d", word(pubimpl, i), size_b), "count,elapsed_us") \
                using 1:($2 / 1e6) with linespoints linecolor rgb pubcolor pointtype pubpoint(i) dashtype pubdash title pubtitle(i)
}

unset multiplot
