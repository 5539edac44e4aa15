# sdbus-array: 10000 sd-bus method calls carrying a 20 KiB byte array,
# appended per element (seed 004's workload: the server takes the array
# whole), per element at both ends, or as one array, and the same data over
# a descriptor passed with D-Bus (experiment sdbus-array), beside the
# sdbus-c++ numbers (seed 004, hatched bars left of the dashed line).  Bars: wall-clock time, CPU time
# of client and server together (the post's test ran both in one process)
# and, for ours, the bus daemon's CPU time.  A published bound ("over",
# "less than", "about") is printed above its bar.  Our wall-clock bars
# are medians with their confidence interval; CPU times are means
# over the repetitions.  Bound: where the run measured memcpy bandwidth,
# a grey dashed segment across each of our groups marks the time memcpy
# needs to copy the same bytes (count x size) once; on this linear axis
# it lies close to zero, and the caption quotes it.

if (!exists("plotdir")) plotdir = "plots"
fig_w = 6.0; fig_h = 2.8
load plotdir."/common.gp"

pub = pubfile("004")
@require_pub
where = "pattern=roundtrip"
npub = nrows(pub, "")
nours = nrows(summary, where)
nvalid = nrows(summary, where.",elapsed_ns!=-")
mem = havemem(summary, where)
variant(v) = v eq "old-ipc" ? "old IPC tool" : v
# Our groups: the transport, then how the array was marshalled (fdpass
# takes no marshal=; every cell goes through one bus, which the caption
# names).
mlabel(m) = m eq "append-per-element" ? "append per elem." : m eq "per-element" ? "both per elem." : \
        m eq "array" ? "whole array" : ""
boundtext(b) = b eq ">" ? "over" : b eq "<" ? "under" : b eq "~" ? "about" : ""

set style data boxes
set boxwidth 0.26
set style fill solid 0.85 border rgb "#333333"
set xrange [-0.6 : npub + nours - 0.4]
set yrange [0:*]
set ylabel "time (s)" offset 1, 0
# Tic labels are values of the data: as written, not gnuplot markup.
set xtics scale 0 font ",7.5" nomirror noenhanced
set grid noxtics ytics
set key top right Right noreverse samplen 1.5
set lmargin at screen 0.08
set rmargin at screen 0.98
set bmargin at screen 0.2
set tmargin at screen 0.95
# The boundary between published and measured groups.
if (npub > 0 && nours > 0) {
        set arrow 1 from npub - 0.5, graph 0 to npub - 0.5, graph 1 nohead dashtype 2 linecolor rgb "#999999"
}
set label 1 "sdbus-c++ (published)" at (npub - 1) / 2.0, graph 0.97 center font ",8"
set label 2 "this work" at npub + (nours - 1) / 2.0, graph 0.97 center font ",8"
wall = "#0072B2"
cpu = "#E69F00"
buscpu = "#999999"

if (npub + nvalid == 0) {
        @no_data
} else {
        plot sel(pub, "", "wall_s,cpu_s,variant,wall_bound,cpu_bound") \
                using ($0 - 0.28):1 fill pattern 4 linecolor rgb wall notitle, \
             "" using ($0):2:xtic(variant(strcol(3))) fill pattern 5 linecolor rgb cpu notitle, \
             "" using ($0 - 0.28):1:(boundtext(strcol(4))) with labels offset 0, 0.5 font ",7" notitle, \
             "" using ($0):2:(boundtext(strcol(5))) with labels offset 0, 0.5 font ",7" notitle, \
             sel(summary, where, "elapsed_ns,client_cpu_ns,server_cpu_ns,bus_cpu_ns,transport,marshal,bus,elapsed_ns_lo,elapsed_ns_hi,memcpy_MiBps,count,size_B") \
                using (npub + $0 - 0.28):($1 / 1e9) linecolor rgb wall title "wall clock (median and CI)", \
             "" using (npub + $0 - 0.28):($1 / 1e9):($8 / 1e9):($9 / 1e9) with yerrorbars \
                linecolor rgb "#000000" pointtype 1 pointsize 0 notitle, \
             "" using (npub + $0):(($2 + $3) / 1e9):xtic(strcol(5) eq "fdpass" ? "fdpass" : strcol(5)."\n".mlabel(strcol(6))) linecolor rgb cpu \
                title "CPU, client and server", \
             "" using (npub + $0 + 0.28):($4 / 1e9) linecolor rgb buscpu title "CPU, bus daemon", \
             "" using (npub + $0 - 0.45):(memsec($11 * $12, $10)):(0.9):(0) with vectors nohead \
                linecolor rgb memcolor linewidth memwidth dashtype memdash \
                title (mem ? "memcpy of the same bytes" : "")
}
