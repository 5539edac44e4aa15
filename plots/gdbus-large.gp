# gdbus-large: GDBus method calls of 4 KiB to 1 MiB (experiment
# gdbus-large), beside GLib over kdbus and over dbus-daemon in 2014 (seed
# 001, grey).  Coloured by bus: seed 001's workload, strings built with
# g_variant_new("(s)") (payload=string, marshal=copy), through
# dbus-daemon, dbus-broker and peer to peer.  Beside them, through
# dbus-daemon only: ipclab's byte arrays (bytes/array) and its borrowed
# strings (string/array, a best case).  The y axis is the time of 1000 calls, as the post measured;
# cells run with another count are scaled to 1000 calls.  Ours: median
# with its confidence interval (95%, or the range of too few
# repetitions).  Bound: where the run measured memcpy bandwidth, the grey
# dashed line is the time memcpy needs to copy every payload once, a
# floor beneath any transport that copies it.

if (!exists("plotdir")) plotdir = "plots"
fig_w = 6.0; fig_h = 2.6
load plotdir."/common.gp"

calls = 1000
pub = pubfile("001")
@require_pub
routes = "kdbus dbus-daemon"
pubtitle(i) = "GLib 2014, ".word(routes, i)
where = "pattern=roundtrip"
seedw = where.",payload=string,marshal=copy"
ours = keys(summary, seedw, "transport,bus")
buscolor(b) = b eq "dbus-daemon" ? "#009E73" : b eq "dbus-broker" ? "#0072B2" : "#D55E00"
extra = "bytes:array string:array"
extratitle(i) = i == 1 ? "ay, dbus-daemon" : "s borrowed, dbus-daemon"
extracolor(i) = i == 1 ? "#CC79A7" : "#E69F00"
mem = havemem(summary, where)

set lmargin at screen 0.09
set rmargin at screen 0.70
set bmargin at screen 0.16
set tmargin at screen 0.96
@set_size_axis
eval padsize(4096, 1048576)
set xlabel "message size" offset 0, 0.4
@set_time_axis
set ylabel sprintf("time for %d calls", calls) offset 1, 0
set key outside right center Left reverse width 1

if (nrows(summary, where.",elapsed_ns!=-") + nrows(pub, "") == 0) {
        @no_data
} else {
        plot for [k in ours] sel(summary, seedw.",transport=".kt(k).",bus=".kb(k), \
                        "size_B,elapsed_ns,elapsed_ns_lo,elapsed_ns_hi,count") \
                using 1:($2 / $5 * calls / 1e9):($3 / $5 * calls / 1e9):($4 / $5 * calls / 1e9) \
                with yerrorlines linecolor rgb buscolor(kb(k)) pointtype kpoint(k) dashtype kdash(k) \
                title "(s) copied, ".kb(k), \
             for [i = 1:2] sel(summary, where.",transport=gdbus,bus=dbus-daemon,payload=".kt(word(extra, i)). \
                        ",marshal=".kb(word(extra, i)), "size_B,elapsed_ns,elapsed_ns_lo,elapsed_ns_hi,count") \
                using 1:($2 / $5 * calls / 1e9):($3 / $5 * calls / 1e9):($4 / $5 * calls / 1e9) \
                with yerrorlines linecolor rgb extracolor(i) pointtype 4 + 2 * i dashtype 1 title extratitle(i), \
             for [i = 1:2] sel(pub, "route=".word(routes, i), "size_B,elapsed_s,calls") \
                using 1:($2 / $3 * calls) with linespoints linecolor rgb pubcolor pointtype pubpoint(i) \
                dashtype pubdash title pubtitle(i), \
             self(summary, where.",memcpy_MiBps!=-", "size_B,memcpy_MiBps") \
                using 1:(memsec($1 * calls, $2)) with lines linecolor rgb memcolor linewidth memwidth \
                dashtype memdash title (mem ? "memcpy of the payloads" : "")
}
