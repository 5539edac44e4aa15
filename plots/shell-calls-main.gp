# shell-calls: one D-Bus call made by a command started afresh for it
# (dbus-send, gdbus call, busctl call), through dbus-daemon and
# dbus-broker, timed by hyperfine (experiment shell-calls).  A point is the
# median over the repetitions of each repetition's median run (lat_p50_ns),
# with the confidence interval of that median (95%, or the range of too
# few repetitions); the number beside it is that median.  Colour: the command (the library it is built on: libdbus,
# GDBus, sd-bus); point: the bus.
# Bound: the dashed lines are one libdbus round trip inside a running
# process through each bus (dbus-pingpong's median round trip, when that
# experiment has data: `also`), the part of a command's cost that is the
# call itself.

if (!exists("plotdir")) plotdir = "plots"
fig_w = 6.0; fig_h = 2.4
load plotdir."/common.gp"
if (!exists("also")) also = ""

where = "pattern=roundtrip"
cmds = "dbus-send gdbus-call busctl-call"
buses = "dbus-daemon dbus-broker"
nc = words(cmds)
nb = words(buses)
cmdtext(c) = c eq "dbus-send" ? "dbus-send" : c eq "gdbus-call" ? "gdbus call" : c eq "busctl-call" ? "busctl call" : c
cmdcolor(c) = c eq "dbus-send" ? tcolor("libdbus") : c eq "gdbus-call" ? tcolor("gdbus") : \
        c eq "busctl-call" ? tcolor("sd-bus") : "#444444"
xpos(i, j) = i - 1 + (j - (nb + 1) / 2.0) * 0.3
mstext(ns) = ns >= 1e7 ? sprintf("%.0f ms", ns / 1e6) : ns >= 1e6 ? sprintf("%.1f ms", ns / 1e6) : \
        sprintf("%.0f µs", ns / 1e3)

# The in-process reference: dbus-pingpong's libdbus round trips, the
# largest count, per bus; pinned as the commands are (cpus=split) where
# the reference has that placement (data from before the cpus axis: one).
ref = word(also, 1)
refsel = "transport=libdbus,pattern=roundtrip,lat_p50_ns!=-"
haveref = ref ne "" && nrows(ref, refsel) > 0
if (haveref && nrows(ref, refsel.",cpus=split") > 0) {
        refsel = refsel.",cpus=split"
}
if (haveref) {
        stats sel(ref, refsel, "count") using 1 nooutput
        refcount = int(STATS_max)
}
refwhere(b) = sprintf("%s,count=%d,bus=%s", refsel, refcount, b)

set lmargin at screen 0.09
set rmargin at screen 0.98
set bmargin at screen 0.13
set tmargin at screen 0.96
set xrange [-0.6 : nc - 0.4]
set xtics () scale 0 nomirror
do for [i = 1:nc] { set xtics add (cmdtext(word(cmds, i)) i - 1) }
unset mxtics
set grid noxtics ytics
@set_time_axis
set ylabel "time per call" offset 1, 0
# The key sits in the gap between the commands and the in-process line.
set key at graph 0.5, graph 0.37 center center horizontal maxrows 2 Left reverse width 1 samplen 3 font ",8" box linecolor rgb "#cccccc" opaque

if (nrows(summary, where.",lat_p50_ns!=-") == 0) {
        @no_data
} else {
        plot for [i = 1:nc] for [j = 1:nb] sel(summary, where.",transport=".word(cmds, i).",bus=".word(buses, j), \
                        "lat_p50_ns,lat_p50_ns_lo,lat_p50_ns_hi") \
                using (xpos(i, j)):($1 / 1e9):($2 / 1e9):($3 / 1e9) with yerrorbars \
                linecolor rgb cmdcolor(word(cmds, i)) pointtype bpoint(word(buses, j)) pointsize 0.8 notitle, \
             for [i = 1:nc] for [j = 1:nb] sel(summary, where.",transport=".word(cmds, i).",bus=".word(buses, j), \
                        "lat_p50_ns") \
                using (xpos(i, j)):($1 / 1e9):(mstext($1)) with labels left offset 1.1, 0 font ",7" notitle, \
             for [j = 1:nb] NaN with points linecolor rgb "#333333" pointtype bpoint(word(buses, j)) \
                pointsize 0.8 title word(buses, j), \
             for [j = 1:nb] (haveref ? sel(ref, refwhere(word(buses, j)), "count,lat_p50_ns") : "< true") \
                using (-0.6):($2 / 1e9):(nc + 0.2):(0) with vectors nohead linecolor rgb "#000000" \
                dashtype bdash(word(buses, j)) + 1 \
                title (haveref ? "one libdbus round trip in a running process, ".word(buses, j) : "")
}
