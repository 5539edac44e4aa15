# kernel-latency: round-trip latency of every kernel transport and of the
# harness itself (direct), 1 B to 64 KiB (experiment kernel-latency).
# (a) median round trip; (b) 99th percentile.  One line per transport
# present in the summary; a transport unavailable on the machine that ran
# the experiment is simply absent.

if (!exists("plotdir")) plotdir = "plots"
fig_w = 6.0; fig_h = 2.9
load plotdir."/common.gp"

base = "pattern=roundtrip"
ours = keys(summary, base, "transport")

# One y range for both panels, so that they compare at a glance.
have = nrows(summary, base.",lat_p50_ns!=-")
if (have > 0) {
        stats selu(summary, base, "lat_p50_ns") using 1 name "p50" nooutput
        stats selu(summary, base, "lat_p99_ns") using 1 name "p99" nooutput
}
axes = 'sizestep = 4; @set_size_axis; eval padsize(1, 65536); @set_time_axis; if (have > 0) { set yrange [p50_min / 1e9 / 1.5 : p99_max / 1e9 * 1.5] }'

set multiplot layout 1, 2 margins 0.08, 0.98, 0.14, 0.92 spacing 0.09, 0
set xlabel "message size" offset 0, 0.4
set key top left Left reverse maxrows 5 width -1 samplen 2 font ",7.5"

@axes
set title "(a) median round trip" offset 0, -0.6
set ylabel "round-trip latency" offset 1, 0
if (have == 0) {
        @no_data
} else {
        plot for [t in ours] sel(summary, base.",transport=".t, "size_B,lat_p50_ns") \
                using 1:($2 / 1e9) with linespoints \
                linecolor rgb tcolor(t) pointtype tpoint(t) title t
}

@axes
set title "(b) 99th percentile" offset 0, -0.6
set ylabel ""
unset key
if (have == 0) {
        @no_data
} else {
        plot for [t in ours] sel(summary, base.",transport=".t, "size_B,lat_p99_ns") \
                using 1:($2 / 1e9) with linespoints \
                linecolor rgb tcolor(t) pointtype tpoint(t) title t
}

unset multiplot
