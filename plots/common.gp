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
# The same colours and points as the figures `ipclab plot` draws
# (harness/report/style.c's table of transports; test-render.sh checks that the
# two agree), so that a transport looks alike in every figure, hand-drawn
# or not.  Transports that appear together have distinct colours; a
# command (dbus-send ...) has its library's colour and another point.
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
        t eq "libdbus"        ? "#44AA99" : \
        t eq "gdbus"          ? "#AA4499" : \
        t eq "sd-bus"         ? "#117733" : \
        t eq "qtdbus"         ? "#B8860B" : \
        t eq "sdbus-c++"      ? "#661100" : \
        t eq "fdpass"         ? "#6699CC" : \
        t eq "dbus-send"      ? "#44AA99" : \
        t eq "gdbus-call"     ? "#AA4499" : \
        t eq "busctl-call"    ? "#117733" : \
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
        t eq "qtdbus"         ? 13 : \
        t eq "sdbus-c++"      ? 11 : \
        t eq "fdpass"         ? 15 : \
        t eq "dbus-send"      ? 5 : \
        t eq "gdbus-call"     ? 7 : \
        t eq "busctl-call"    ? 13 : \
        1
# Buses: dash type and, for D-Bus figures where colour is the library,
# the point shape; as `ipclab plot` gives them (a bus's rank in
# style.c's lists: no bus 0, dbus-daemon 1, dbus-broker 2, p2p 3).
nobus(b) = (b eq "" || b eq "-" || b eq "none")
bdash(b) = nobus(b) ? 1 : b eq "dbus-daemon" ? 2 : b eq "dbus-broker" ? 3 : b eq "p2p" ? 4 : 1
bpoint(b) = nobus(b) ? 7 : b eq "dbus-daemon" ? 5 : b eq "dbus-broker" ? 9 : b eq "p2p" ? 11 : 1
# Published numbers: grey, dash-dot, open points.
pubcolor = "#777777"
pubdash = 4

# ---- reference bounds (Hoefler & Belli, rule 11) ----------------------------
# Two bounds measured in the same run as the data: the harness's own floor,
# the `direct` transport (a function call in one process: black,
# dash-dot-dot),
# and memcpy bandwidth at each message size (meta.ini [bounds], the
# summary's memcpy_MiBps: grey, dashed, no points).  A figure draws them
# where its experiment has them; data measured before the harness recorded
# memcpy has none, and the legend then leaves the entry out.  (The
# figures of `ipclab plot` carry these styles themselves, from
# harness/report/style.h; these are for hand-written scripts.)
floordash = 5
memcolor = "#8c8c8c"
memdash = 2
memwidth = 1.6
# Is there a memcpy bound in summary F among the rows matching WHERE?
havemem(f, where) = nrows(f, (where eq "" ? "" : where.",")."memcpy_MiBps!=-") > 0
# Bytes at memcpy speed: seconds to copy B bytes at M MiB/s.
memsec(b, m) = b / (m * 1048576.0)

# Small horizontal offsets so that the error bars of several lines at the
# same x do not hide each other: the I-th of N lines on a log x axis.
dodgew = 0.035
dodge(x, i, n) = x * 2**(dodgew * (i - (n + 1) / 2.0))

# ---- axes -------------------------------------------------------------------
# (`ipclab plot` writes every tic of its figures itself: harness/report/style.c.)
# Times in seconds, labelled with SI prefixes (100 µs, 1 ms, 10 s).
set_time_axis = 'set logscale y 10; set autoscale y; set ytics autofreq; set mytics default; set format y "%.0s %cs"'
# A panel with nothing to plot still draws its frame and says so.  It
# leaves the axes without tics: a figure sets its axes anew for every panel.
no_data = 'set label 99 "no data" at graph 0.5, 0.5 center textcolor rgb "#aa0000"; unset xtics; unset ytics; plot [1:2] [1:2] NaN notitle; unset label 99; set xtics nomirror out scale 0.6; set ytics nomirror out scale 0.6'
