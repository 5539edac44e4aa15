# dbus-throughput: D-Bus one-way and round-trip throughput of `ay` and `s`
# payloads, 256 B to 8 KiB, through dbus-daemon, dbus-broker and peer to
# peer, with the in-process baseline (experiment dbus-throughput), beside
# QtDBus in 2007 through the bus, its loopback and direct delivery (seed
# 000, grey).  Colour: library; dash and point: bus.  Ours: median with
# its confidence interval (95%, or the range of too few repetitions).
# Bounds: the harness floor (`direct`, black) and memcpy bandwidth at
# each size, measured in the same run (grey, dashed, no points), a
# ceiling no transport that copies the payload can pass.

if (!exists("plotdir")) plotdir = "plots"
fig_w = 6.0; fig_h = 5.0
load plotdir."/common.gp"

pub = pubfile("000")
@require_pub
routes = "bus loopback direct"
pubtitle(i) = "QtDBus 2007, ".word(routes, i)
all = keys(summary, "pattern=oneway|roundtrip", "transport,bus")
mem = havemem(summary, "pattern=oneway|roundtrip")

pats = "oneway roundtrip"
payloads = "bytes string"
pattext(p) = p eq "oneway" ? "one-way" : "round trip"
paytext(p) = p eq "bytes" ? "byte array (ay)" : "string (s)"

# Four panels in the top three quarters, the legend below them.
set multiplot
set lmargin at screen 0.09
set rmargin at screen 0.98
unset key
panel = 0
do for [pi = 1:2] {
        do for [yi = 1:2] {
                p = word(pats, pi)
                y = word(payloads, yi)
                where = sprintf("pattern=%s,payload=%s", p, y)
                ours = keys(summary, where, "transport,bus")
                panel = panel + 1
                set tmargin at screen (pi == 1 ? 0.965 : 0.555)
                set bmargin at screen (pi == 1 ? 0.645 : 0.235)
                set lmargin at screen (yi == 1 ? 0.09 : 0.57)
                set rmargin at screen (yi == 1 ? 0.49 : 0.98)
                @set_size_axis
                eval padsize(256, 8192)
                set logscale y 10
                set autoscale y
                set ytics autofreq
                set format y "10^{%T}"
                set title sprintf("(%s) %s, %s", word("a b c d", panel), pattext(p), paytext(y)) offset 0, -0.6
                set xlabel (pi == 2 ? "message size" : "") offset 0, 0.4
                set ylabel (yi == 1 ? "throughput (MiB/s)" : "") offset 1, 0
                if (nrows(summary, where.",throughput_MiBps!=-") + nrows(pub, where) == 0) {
                        @no_data
                } else {
                        plot for [k in ours] sel(summary, where.",transport=".kt(k).",bus=".kb(k), \
                                        "size_B,throughput_MiBps,throughput_MiBps_lo,throughput_MiBps_hi") \
                                using 1:2:3:4 with yerrorlines linecolor rgb kcolor(k) pointtype kpoint(k) \
                                dashtype kdash(k) notitle, \
                             for [i = 1:3] sel(pub, where.",route=".word(routes, i), "size_B,throughput_MiBps") \
                                using 1:2 with linespoints linecolor rgb pubcolor pointtype pubpoint(i) \
                                dashtype pubdash notitle, \
                             self(summary, where.",memcpy_MiBps!=-", "size_B,memcpy_MiBps") \
                                using 1:2 with lines linecolor rgb memcolor linewidth memwidth \
                                dashtype memdash notitle
                }
        }
}

# The legend: every transport and bus present, then the published routes.
unset title
unset xlabel
unset ylabel
unset border
unset tics
unset grid
unset logscale
set xrange [0:1]
set yrange [0:1]
set tmargin at screen 0.155
set bmargin at screen 0.0
set lmargin at screen 0.05
set rmargin at screen 0.98
set key center top horizontal maxrows 4 width 1 samplen 2.5 font ",8"
plot for [k in all] NaN with linespoints linecolor rgb kcolor(k) pointtype kpoint(k) dashtype kdash(k) title ktitle(k), \
     for [i = 1:3] NaN with linespoints linecolor rgb pubcolor pointtype pubpoint(i) dashtype pubdash title pubtitle(i), \
     NaN with lines linecolor rgb memcolor linewidth memwidth dashtype memdash \
        title (mem ? "memcpy bandwidth" : "")
unset multiplot
