# kernel-latency: round-trip latency of every kernel transport and of the
# harness itself (direct), 1 B to 64 KiB (experiment kernel-latency).
# (a) median round trip; (b) 99th percentile.  Each point is the median
# over the repetitions of that repetition's percentile, with the
# confidence interval of that median (lat_p50_ns_lo/hi, lat_p99_ns_lo/hi).
# One line per transport present in the summary; a transport unavailable
# on the machine that ran the experiment, or a size beyond its limit (mq),
# is simply absent.  Bounds: `direct` (black, dash-dotted) is the harness's
# floor; the grey dashed line, where the run measured it, is the time
# memcpy takes to copy the request and the reply once each.  The legend
# sits below both panels.

if (!exists("plotdir")) plotdir = "plots"
fig_w = 6.0; fig_h = 3.1
load plotdir."/common.gp"

base = "pattern=roundtrip"
ours = keys(summary, base, "transport")
nt = words(ours)
mem = havemem(summary, base)

# One y range for both panels, so that they compare at a glance: from the
# lowest median's lower bound to the highest tail's upper bound.
have = nrows(summary, base.",lat_p50_ns!=-")
if (have > 0) {
        stats selu(summary, base.",lat_p50_ns!=-", "lat_p50_ns_lo") using 1 name "lo" nooutput
        stats selu(summary, base.",lat_p99_ns!=-", "lat_p99_ns_hi") using 1 name "hi" nooutput
}
axes = 'sizestep = 3; @set_size_axis; eval padsize(1, 65536); @set_time_axis; if (have > 0) { set yrange [lo_min / 1e9 / 1.6 : hi_max / 1e9 * 1.6] }'

# Panels in the top 80%, the legend below.
set multiplot
unset key
set xlabel "message size" offset 0, 0.4
set tmargin at screen 0.93
set bmargin at screen 0.26

do for [panel = 1:2] {
        q = panel == 1 ? "lat_p50_ns" : "lat_p99_ns"
        set lmargin at screen (panel == 1 ? 0.085 : 0.575)
        set rmargin at screen (panel == 1 ? 0.485 : 0.975)
        @axes
        set title (panel == 1 ? "(a) median round trip" : "(b) 99th percentile") offset 0, -0.6
        set ylabel (panel == 1 ? "round-trip latency" : "") offset 1, 0
        if (have == 0) {
                @no_data
        } else {
                plot for [i = 1:nt] sel(summary, base.",transport=".word(ours, i), \
                                sprintf("size_B,%s,%s_lo,%s_hi", q, q, q)) \
                        using (dodge($1, i, nt)):($2 / 1e9):($3 / 1e9):($4 / 1e9) with yerrorlines \
                        linecolor rgb tcolor(word(ours, i)) pointtype tpoint(word(ours, i)) \
                        dashtype tdash(word(ours, i)) notitle, \
                     self(summary, base.",memcpy_MiBps!=-", "size_B,memcpy_MiBps") \
                        using 1:(memsec(2 * $1, $2)) with lines linecolor rgb memcolor \
                        linewidth memwidth dashtype memdash notitle
        }
}

# The legend: every transport, then the memcpy bound if there is one.
unset title
unset xlabel
unset ylabel
unset border
unset tics
unset grid
unset logscale
set xrange [0:1]
set yrange [0:1]
set tmargin at screen 0.135
set bmargin at screen 0.0
set lmargin at screen 0.03
set rmargin at screen 0.99
set key center top horizontal maxrows 3 width 0 samplen 2.5 font ",8"
plot for [t in ours] NaN with linespoints linecolor rgb tcolor(t) pointtype tpoint(t) \
        dashtype tdash(t) title (t eq "direct" ? floortitle : t), \
     NaN with lines linecolor rgb memcolor linewidth memwidth dashtype memdash \
        title (mem ? "memcpy of request + reply" : "")
unset multiplot
