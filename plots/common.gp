# common.gp: what every figure shares: output, fonts, styles, data access.
#
# A figure script sets fig_w and fig_h (inches) and loads this file:
#
#     if (!exists("plotdir")) plotdir = "plots"
#     fig_w = 6.0; fig_h = 2.4
#     load plotdir."/common.gp"
#
# Make passes, with -e before the script:
#     summary    the summary TSV the figure reads (build/summary/<exp>.tsv)
#     out        the PDF to write (Make gives a temporary name and renames it)
#     published  the directory of transcribed published numbers
#     plotdir    this directory
# A missing summary is an error (exit status 1), never an empty figure.
# Within a figure, rows that are missing (a transport not available on a
# machine, a failed cell) just leave out a line; a panel with no rows at
# all says "no data".
#
# Output is vector PDF (pdfcairo) at the size the paper prints it, so
# fonts in figures match the 9 pt captions.  Set preview=1 to get PNG.

if (!exists("published")) published = "data/published"
# A script from `ipclab plot` carries its data inline (inline_data = 1)
# and reads no summary.
if (!exists("inline_data") && !exists("summary")) {
        print "common.gp: ERROR: no summary given (gnuplot -e \"summary='build/summary/EXP.tsv'\")"
        exit status 2
}
if (!exists("out")) {
        print "common.gp: ERROR: no output given (gnuplot -e \"out='FIGURE.pdf'\")"
        exit status 2
}
if (!exists("inline_data") && system(sprintf("test -r '%s' && echo yes", summary)) ne "yes") {
        print sprintf("common.gp: ERROR: summary %s is missing or unreadable", summary)
        exit status 1
}
if (!exists("fig_w")) fig_w = 6.0
if (!exists("fig_h")) fig_h = 2.5

set encoding utf8
set micro
if (exists("preview")) {
        set terminal pngcairo enhanced color font "Latin Modern Roman,9" \
                size fig_w * 150, fig_h * 150 linewidth 1 rounded dashlength 1.5
} else {
        set terminal pdfcairo enhanced color font "Latin Modern Roman,9" \
                size fig_w, fig_h linewidth 1 rounded dashlength 1.5
}
set output out

set border 3 linewidth 0.8
set tics nomirror out scale 0.6
set mxtics default
set grid xtics ytics linecolor rgb "#dddddd" linewidth 0.5 dashtype 1
set key top left Left reverse samplen 2.5 spacing 1.05 font ",8" noopaque
set pointsize 0.55
set bars 0.6
set datafile missing "NaN"
set datafile separator "\t"

# ---- data access -----------------------------------------------------------
# A hand-written figure reads its rows through `ipclab select` (Make passes
# the binary as the variable ipclab), by column name and selector, the
# claims' syntax on any column (transport=pipe|fifo,size>=4KiB,
# lat_p50_ns!=-); ipclab checks both and fails with a message naming the
# file, which fails the Make rule.  Text comes quoted, "-" as NaN.
if (!exists("ipclab")) ipclab = "ipclab"
# sel(FILE, WHERE, COLS): a gnuplot data source with the columns COLS
# ("elapsed_ns,transport") of the rows of FILE that WHERE selects, in the
# file's order.
sel(f, where, cols) = sprintf("< '%s' select '%s' --where '%s' --columns '%s'", ipclab, f, where, cols)
# The number of rows WHERE selects.
nrows(f, where) = int(system(sprintf("'%s' select '%s' --where '%s' --count", ipclab, f, where)))
# Parts of a key "transport:bus[:...]".
kt(k) = strstrt(k, ":") ? k[1:strstrt(k, ":") - 1] : k
krest(k) = strstrt(k, ":") ? k[strstrt(k, ":") + 1:] : ""
kb(k) = strstrt(krest(k), ":") ? krest(k)[1:strstrt(krest(k), ":") - 1] : krest(k)

# A published data file by its number ("002" -> data/published/002-....tsv),
# or "" when there is none; `pub = pubfile("002"); @require_pub` stops then.
pubfile(n) = system(sprintf("ls '%s'/%s-*.tsv 2>/dev/null | head -n 1", published, n))
require_pub = 'if (pub eq "") { print sprintf("common.gp: ERROR: no published numbers in %s", published); exit status 1 }'

# ---- styles: one colour and point per transport, one dash per bus ----------
# Kernel transports and the harness baseline.
tcolor(t) = \
        t eq "direct"         ? "#000000" : \
        t eq "pipe"           ? "#0072B2" : \
        t eq "fifo"           ? "#56B4E9" : \
        t eq "unix-stream"    ? "#D55E00" : \
        t eq "unix-dgram"     ? "#E69F00" : \
        t eq "unix-seqpacket" ? "#CC79A7" : \
        t eq "socketpair"     ? "#882255" : \
        t eq "tcp"            ? "#009E73" : \
        t eq "mq"             ? "#999933" : \
        t eq "shm"            ? "#332288" : \
        t eq "libdbus"        ? "#0072B2" : \
        t eq "gdbus"          ? "#009E73" : \
        t eq "sd-bus"         ? "#D55E00" : \
        t eq "fdpass"         ? "#CC79A7" : \
        "#444444"
tpoint(t) = \
        t eq "direct"         ? 3 : \
        t eq "pipe"           ? 7 : \
        t eq "fifo"           ? 6 : \
        t eq "unix-stream"    ? 5 : \
        t eq "unix-dgram"     ? 4 : \
        t eq "unix-seqpacket" ? 9 : \
        t eq "socketpair"     ? 8 : \
        t eq "tcp"            ? 13 : \
        t eq "mq"             ? 12 : \
        t eq "shm"            ? 11 : \
        t eq "libdbus"        ? 7 : \
        t eq "gdbus"          ? 5 : \
        t eq "sd-bus"         ? 9 : \
        t eq "fdpass"         ? 13 : \
        1
# Buses: dash type and, for D-Bus figures where colour is the library,
# the point shape.
nobus(b) = (b eq "" || b eq "-" || b eq "none")
bdash(b) = nobus(b) ? 1 : b eq "dbus-daemon" ? 1 : b eq "dbus-broker" ? 2 : b eq "p2p" ? 3 : 4
bpoint(b) = nobus(b) ? 3 : b eq "dbus-daemon" ? 7 : b eq "dbus-broker" ? 5 : b eq "p2p" ? 9 : 1
# Published numbers: grey, dashed, open points.
pubcolor = "#777777"
pubdash = 4
pubpoint(i) = i == 1 ? 6 : i == 2 ? 4 : i == 3 ? 8 : 10

# Style of a key "transport:bus": colour from the transport; on a bus, the
# dash and point from the bus, otherwise the transport's own point.
kcolor(k) = tcolor(kt(k))
kpoint(k) = nobus(kb(k)) ? tpoint(kt(k)) : bpoint(kb(k))
kdash(k) = kt(k) eq "direct" ? floordash : bdash(kb(k))

# Legend text for a key "transport:bus[:...]".
ktitle(k) = kt(k) eq "direct" ? floortitle : nobus(kb(k)) ? kt(k) : kt(k).", ".kb(k)

# ---- reference bounds (Hoefler & Belli, rule 11) ----------------------------
# Two bounds measured in the same run as the data: the harness's own floor,
# the `direct` transport (a function call in one process: black,
# dash-dot-dot),
# and memcpy bandwidth at each message size (meta.ini [bounds], the
# summary's memcpy_MiBps: grey, dashed, no points).  A figure draws them
# where its experiment has them; data measured before the harness recorded
# memcpy has none, and the legend then leaves the entry out.
floortitle = "harness floor (direct)"
floordash = 5
memcolor = "#8c8c8c"
memdash = 2
memwidth = 1.6
# Is there a memcpy bound in summary F among the rows matching WHERE?
havemem(f, where) = nrows(f, (where eq "" ? "" : where.",")."memcpy_MiBps!=-") > 0
# Bytes at memcpy speed: seconds to copy B bytes at M MiB/s.
memsec(b, m) = b / (m * 1048576.0)
# Style of a transport line: the direct transport is the dashed floor.
tdash(t) = t eq "direct" ? floordash : 1

# Lines of `ipclab plot` whose series has no transport: the I-th colour
# and point of a palette that colour-blind readers can tell apart.
scolor(i) = word("#0072B2 #D55E00 #009E73 #CC79A7 #E69F00 #56B4E9 #882255 #999933 #332288 #444444", (i - 1) % 10 + 1)
spoint(i) = word("7 5 9 13 11 4 6 8 10 12", (i - 1) % 10 + 1) + 0
# --compare: the committed data in grey beneath the reproduction in colour.
comparecolor = "#b8b8b8"
# also=: another experiment's cells as a reference line.
alsocolor = "#555555"
alsopoint = 2
alsodash = 3

# Small horizontal offsets so that the error bars of several lines at the
# same x do not hide each other: the I-th of N lines on a log x axis.
dodgew = 0.035
dodge(x, i, n) = x * 2**(dodgew * (i - (n + 1) / 2.0))

# A size for titles: 64 B, 4 KiB, 1 MiB.
sizetext(s) = s >= 1048576 && s % 1048576 == 0 ? sprintf("%d MiB", s / 1048576) : \
        s >= 1024 && s % 1024 == 0 ? sprintf("%d KiB", s / 1024) : sprintf("%d B", s)

# ---- axes -------------------------------------------------------------------
# Message sizes double: log2 axis labelled 64 B, 4 KiB, 1 MiB, one tic
# every sizestep powers of two; padsize() leaves a margin at either end.
sizestep = 1
padsize(lo, hi) = sprintf("set xrange [%g:%g]", lo / 1.3, hi * 1.3)
set_size_axis = 'unset logscale x; set logscale x 2; set xtics (); do for [i = 0:40:sizestep] { set xtics add (sizetext(2**i) 2**i) }; set mxtics default'
# Times in seconds, labelled with SI prefixes (100 µs, 1 ms, 10 s).
set_time_axis = 'set logscale y 10; set autoscale y; set ytics autofreq; set mytics default; set format y "%.0s %cs"'
# The same with the range fixed to whole decades around [LO:HI] seconds
# and one tic per decade labelled in plain units (1000 s, never "1 ks"):
# `eval set_time_range(lo, hi)` after @set_time_axis.
timetext(v) = v < 0.99e-6 ? sprintf("%.0f ns", v * 1e9) : v < 0.99e-3 ? sprintf("%.0f µs", v * 1e6) : \
        v < 0.99 ? sprintf("%.0f ms", v * 1e3) : sprintf("%.0f s", v)
set_time_range(lo, hi) = sprintf("set yrange [%g:%g]; set ytics (); do for [e = %d:%d] { set ytics add (timetext(10.0**e) 10.0**e) }", \
        10.0**floor(log10(lo) + 1e-9), 10.0**ceil(log10(hi) - 1e-9), floor(log10(lo) + 1e-9), ceil(log10(hi) - 1e-9))
# Powers of ten as plain numbers on a log axis (100, 1000, 10^4 ...).
set_count_axis = 'unset logscale x; set logscale x 10; set xtics autofreq; set mxtics default; set format x "10^{%T}"'
# A panel with nothing to plot still draws its frame and says so.  It
# leaves the axes without tics: a figure sets its axes anew for every panel.
no_data = 'set label 99 "no data" at graph 0.5, 0.5 center textcolor rgb "#aa0000"; unset xtics; unset ytics; plot [1:2] [1:2] NaN notitle; unset label 99; set xtics nomirror out scale 0.6; set ytics nomirror out scale 0.6'
