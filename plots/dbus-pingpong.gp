# dbus-pingpong: D-Bus ping-pong, 500, 5000 and 50000 round trips, through
# dbus-daemon and dbus-broker (experiment dbus-pingpong), beside kdbus and
# dbus-daemon on an ARM phone in 2010 (seed 003, grey).
# (a) total time; (b) time per round trip (total over count: a mean, as
# the published times were).  Ours: median over the repetitions with its
# confidence interval.  Bounds: peer to peer (p2p, dotted), where the
# experiment has it, is the same call with no daemon; the harness floor
# and memcpy are not drawn: a 10-byte copy takes nanoseconds, far below
# these axes (the caption says so).

if (!exists("plotdir")) plotdir = "plots"
fig_w = 6.0; fig_h = 2.6
load plotdir."/common.gp"

pub = pubfile("003")
@require_pub
pubcols = "dbus_daemon_s kdbus_s"
pubtitle(i) = i == 1 ? "ARM 2010, dbus-daemon" : "ARM 2010, kdbus"
pubwhere = "test=dbus-ping-pong"
where = "pattern=roundtrip,count=500|5000|50000"
ours = keys(summary, where, "transport,bus")

set multiplot layout 1, 2 margins 0.08, 0.98, 0.16, 0.91 spacing 0.09, 0
axes = 'set logscale x 10; set xtics ("500" 500, "5000" 5000, "50 000" 50000); set mxtics default; set xrange [500 / 1.6 : 50000 * 1.6]; @set_time_axis'
set xlabel "round trips" offset 0, 0.4

# Panel (a) spans many decades: fix them, so that the top tic reads
# "1000 s" rather than "1 ks".
have = nrows(summary, where.",elapsed_ns!=-")
havepub = nrows(pub, pubwhere)
lo = 1e9
hi = 0
if (have > 0) {
        stats selu(summary, where.",elapsed_ns!=-", "elapsed_ns_lo,elapsed_ns_hi") using ($1 / 1e9):($2 / 1e9) name "o" nooutput
        lo = o_min_x
        hi = o_max_y
}
if (havepub > 0) {
        stats selu(pub, pubwhere, "dbus_daemon_s,kdbus_s") using 1:2 name "p" nooutput
        lo = p_min_y < lo ? p_min_y : lo
        lo = p_min_x < lo ? p_min_x : lo
        hi = p_max_x > hi ? p_max_x : hi
        hi = p_max_y > hi ? p_max_y : hi
}

@axes
if (have + havepub > 0) {
        eval set_time_range(lo, hi)
}
set title "(a) total time" offset 0, -0.6
set ylabel "elapsed time" offset 1, 0
set key top left Left reverse
if (nrows(summary, where.",elapsed_ns!=-") + nrows(pub, pubwhere) == 0) {
        @no_data
} else {
        plot for [k in ours] sel(summary, where.",transport=".kt(k).",bus=".kb(k), \
                        "count,elapsed_ns,elapsed_ns_lo,elapsed_ns_hi") \
                using 1:($2 / 1e9):($3 / 1e9):($4 / 1e9) with yerrorlines \
                linecolor rgb kcolor(k) pointtype kpoint(k) dashtype kdash(k) title ktitle(k), \
             for [i = 1:2] sel(pub, pubwhere, "count,".word(pubcols, i)) \
                using 1:2 with linespoints linecolor rgb pubcolor pointtype pubpoint(i) \
                dashtype pubdash title pubtitle(i)
}

@axes
set title "(b) per round trip" offset 0, -0.6
set ylabel ""
unset key
if (nrows(summary, where.",elapsed_ns!=-") + nrows(pub, pubwhere) == 0) {
        @no_data
} else {
        plot for [k in ours] sel(summary, where.",transport=".kt(k).",bus=".kb(k), \
                        "count,elapsed_ns,elapsed_ns_lo,elapsed_ns_hi") \
                using 1:($2 / $1 / 1e9):($3 / $1 / 1e9):($4 / $1 / 1e9) with yerrorlines \
                linecolor rgb kcolor(k) pointtype kpoint(k) dashtype kdash(k) title ktitle(k), \
             for [i = 1:2] sel(pub, pubwhere, "count,".word(pubcols, i)) \
                using 1:($2 / $1) with linespoints linecolor rgb pubcolor pointtype pubpoint(i) \
                dashtype pubdash title pubtitle(i)
}
unset multiplot
