#!/bin/bash
# test-render.sh: `ipclab plot`, `ipclab table`, `ipclab section` and
# `ipclab check --list-outputs` on a small real experiment (direct, pipe
# and unix-stream round trips, 64 B to 64 KiB, count 200, 5 repetitions:
# its claim over 3 sizes needs 5 to be decided) and a one-way one beside
# published numbers.  Nothing depends on how fast this machine is: the
# data blocks of the scripts are compared with the summary's own numbers,
# the PDFs gnuplot makes are checked with pdfinfo, and gnuplot must print
# nothing (no warning) for any of them.
set -u
cd "$(dirname "$0")/../.."
src=$PWD
ipclab=$PWD/harness/ipclab
tmp=$(mktemp -d)
trap '[ -n "${KEEP-}" ] && echo "# kept $tmp" || rm -rf "$tmp"' EXIT
. harness/tests/tap.sh
mkdir -p "$tmp/experiments" "$tmp/data/published"

if ! command -v gnuplot >/dev/null || ! command -v pdfinfo >/dev/null; then
        skip "render tests" "gnuplot or pdfinfo (poppler-utils) is not installed"
        echo "1..$n"
        exit 0
fi

cat > "$tmp/experiments/rt.ini" <<'EOF'
[experiment]
title=Round trips & 50% of_them
source=002_987a43d70dd26995.txt
transport=direct;pipe;unix-stream
size=64;4KiB;64KiB
pattern=roundtrip
count=200
repeat=5
warmup=10

[claim pipe_vs_unix]
text=Pipes beat Unix streams & co
faster=transport=pipe
slower=transport=unix-stream
metric=roundtrip_latency
EOF
# The same cells with figures and tables declared.
{ sed -n '1,/^$/p' "$tmp/experiments/rt.ini"; cat <<'EOF'
[figure tails]
y=lat_p50_ns;lat_p99_ns
x=size
series=transport
bounds=memcpy;direct
also=rt
also_where=transport=pipe
also_title=pipes before
caption=Median and tail_1
title=Tails & floors

[figure pick]
where=transport=pipe|unix-stream,size<=4KiB
errorbars=false
logy=false

[figure cat]
x=transport
where=size=64
also=other
also_where=bus=p2p
also_title=libdbus p2p

[figure cat2]
x=transport
where=size=64
also=other

[figure spec]
type=spectrum
where=transport!=direct

[figure dist]
type=cdf
series=transport

[table wide]
rows=transport
columns=size
value=lat_p50_ns
unit=us
digits=1

[table cols]
rows=transport;size
columns=lat_p50_ns;lat_p99_ns
where=size=64
EOF
} > "$tmp/experiments/decl.ini"
# also=other needs an experiment file of that name beside it (ipclab check).
printf '[experiment]\ntitle=other\ntransport=libdbus\nbus=p2p;dbus-daemon\ncount=10\n' > "$tmp/experiments/other.ini"

out=$("$ipclab" run --out "$tmp/data" "$tmp/experiments/rt.ini" 2>&1) ||
        not_ok "the experiment runs" "$out"
"$ipclab" summarize "$tmp/data/rt" > "$tmp/rt.tsv" || not_ok "summarize"
col() { awk -F'\t' -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { print $k }' "$2"; }
# Field $3 of the summary row of transport $1 and size $2.
field() { awk -F'\t' -v t="$1" -v s="$2" -v f="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["transport"] == t && $c["size_B"] == s { print $c[f] }' "$tmp/rt.tsv"; }
# The rows of data block $2 (its comment line is the line's title $3) in script $1.
block() { awk -v b="$2" '$0 ~ "^\\" b " << EOD" { on = 1; next } /^EOD/ { on = 0 } on' "$1"; }
# gnuplot on script $1 into $2; ok when it exits 0, prints nothing, and
# the PDF has one page.
draw() {
        local err pdf=$tmp/$2
        err=$(cd "$tmp" && gnuplot -e "plotdir='$src/plots'; out='$2'" "$1" 2>&1)
        check "$3: gnuplot draws it without a word" '[ $? -eq 0 ] && [ -z "$err" ]' || echo "# $err"
        check "$3: a one-page PDF" 'pdfinfo "$pdf" 2>/dev/null | grep -q "^Pages: *1$"'
}

# figure OUT WHAT FILE NAME ARGS...: `ipclab plot FILE NAME ARGS` into
# $tmp/OUT.gp, drawn into $tmp/OUT.pdf (see draw).
figure() {
        local out=$1 what=$2 file=$3 name=$4
        shift 4
        "$ipclab" plot "$tmp/experiments/$file.ini" "$name" "$@" --facts "$tmp/$out.facts.tex" --out "$tmp/$out.gp" ||
                not_ok "$what: ipclab plot"
        draw "$out.gp" "$out.pdf" "$what"
}
# The data rows of the line titled $2 in script $1.
titled() { block "$1" "$(awk -v t="# $2" '$0 == t { getline; print $1; exit }' "$1")"; }

# ---- list-outputs -----------------------------------------------------------
lo=$("$ipclab" check --list-outputs "$tmp/experiments/rt.ini" "$tmp/experiments/decl.ini")
check "list-outputs: the defaults, named main" \
        'grep -qx "$(printf "figure\trt\tmain\t-")" <<<"$lo" && grep -qx "$(printf "table\trt\tmain\t-")" <<<"$lo"'
check "list-outputs: declared ones, with what they read" \
        'grep -qx "$(printf "figure\tdecl\ttails\texp:rt")" <<<"$lo" &&
         grep -qx "$(printf "figure\tdecl\tspec\tlatency:decl")" <<<"$lo" &&
         grep -qx "$(printf "table\tdecl\tcols\t-")" <<<"$lo" && ! grep -q "decl	main" <<<"$lo"'
check "list-outputs: one line per output" '[ "$(wc -l <<<"$lo")" -eq 10 ]'

# A file whose cells need a tool missing here (hyperfine: PATH without
# it) still lists and draws its outputs from data measured elsewhere.
printf '[experiment]\ntitle=t\ntransport=dbus-send;gdbus-call\nrunner=hyperfine\nbus=dbus-daemon\npayload=string\nsize=16\ncount=10\n[table t]\nrows=transport\ncolumns=lat_p50_ns\n' \
        > "$tmp/experiments/hf.ini"
printf 'transport\tbus\tpattern\tsize_B\tlat_p50_ns\ndbus-send\tdbus-daemon\troundtrip\t16\t1390000\ngdbus-call\tdbus-daemon\troundtrip\t16\t2790000\n' \
        > "$tmp/hf.tsv"
lo=$(PATH=/nonexistent "$ipclab" check --list-outputs "$tmp/experiments/hf.ini" 2>&1)
check "list-outputs: without hyperfine, a hyperfine experiment's outputs are still listed" \
        '[ $? -eq 0 ] && grep -qx "$(printf "table\thf\tt\t-")" <<<"$lo"' ||
        echo "# $lo"
PATH=/nonexistent "$ipclab" table "$tmp/experiments/hf.ini" t --summary "$tmp/hf.tsv" --out "$tmp/hf.tex" 2>&1 | sed 's/^/# /'
check "table: without hyperfine, drawn from the summary" \
        'grep -q "^gdbus-call & 2" "$tmp/hf.tex"'
err=$(PATH=/nonexistent "$ipclab" check "$tmp/experiments/hf.ini" 2>&1 >/dev/null)
check "check (to run it): without hyperfine, still no cell can run here, and only that" \
        '[ $? -eq 2 ] && grep -q "no cell can run here" <<<"$err" && [ "$(wc -l <<<"$err")" -eq 1 ]' || echo "# $err"

printf '[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[figure none]\nwhere=size=1MiB\nseries=transport\n' > "$tmp/experiments/w.ini"
err=$("$ipclab" check "$tmp/experiments/w.ini" 2>&1 >/dev/null)
check "check: a figure that selects no cell is a warning, not a failure" \
        '[ $? -eq 0 ] && grep -qF "warning: $tmp/experiments/w.ini: [figure none] where: '"'"'size=1MiB'"'"' selects no cell of w" <<<"$err"'

out=$("$ipclab" check "$tmp/experiments/rt.ini" "$tmp/experiments/decl.ini")
check "check: says what each figure and table draws, defaults named so" \
        'grep -qx "  figure main (default): lat_p50_ns against size_B, lines by transport" <<<"$out" &&
         grep -qx "  table main (default): rows transport, columns by size_B, lat_p50_ns" <<<"$out" &&
         grep -qx "  figure tails: lat_p50_ns | lat_p99_ns against size_B, lines by transport" <<<"$out" &&
         grep -qx "  figure pick: lat_p50_ns against size_B, lines by transport, where transport=pipe|unix-stream,size<=4KiB" <<<"$out"'

# ---- the default figure -------------------------------------------------------
figure main "default figure" rt main --summary "$tmp/rt.tsv"
rows=$(titled "$tmp/main.gp" pipe)
check "default figure: the pipe line holds the three sizes, in order" \
        '[ "$(cut -f1 <<<"$rows" | tr "\n" " ")" = "64 4096 65536 " ]'
want=$(awk -v v="$(field pipe 4096 lat_p50_ns)" 'BEGIN { printf "%.9g", v / 1e9 }')
check "default figure: its median at 4 KiB is the summary's, in seconds" \
        '[ "$(awk -F"\t" "\$1 == 4096 { print \$2 }" <<<"$rows")" = "$want" ]'
check "default figure: error bars from lat_p50_ns_lo/_hi" \
        '[ "$(awk -F"\t" "\$1 == 4096 { print \$3 }" <<<"$rows")" = "$(awk -v v="$(field pipe 4096 lat_p50_ns_lo)" "BEGIN { printf \"%.9g\", v / 1e9 }")" ]'
check "default figure: house style from common.gp, unix-stream in its colour, sizes on a log2 axis" \
        'grep -q "load plotdir.\"/common.gp\"" "$tmp/main.gp" && grep -q "linecolor rgb .#D55E00." "$tmp/main.gp" &&
         grep -qx "set logscale x 2" "$tmp/main.gp" && grep -q ".4 KiB. 4096" "$tmp/main.gp"'
check "default figure: a log time axis labelled with its units, one formatter" \
        'grep -qx "set logscale y 10" "$tmp/main.gp" && grep "^set ytics (" "$tmp/main.gp" | grep -q " µs. " &&
         ! grep "^set ytics (" "$tmp/main.gp" | grep -q "x10\|e+0\|.0 s."'
check "default figure: its facts, the range of 5 repetitions a 93.7 % interval" \
        'grep -qF "\ipclabSetFact{rt-main}{intervals}{Error bars: the range of the 5 repetitions, a 93.7\% interval of the median.}" "$tmp/main.facts.tex" &&
         grep -qF "\ipclabSetFact{rt-main}{encoding}{Colour and point: transport.}" "$tmp/main.facts.tex" &&
         grep -qF "\ipclabSetFact{rt-main}{filter}{every cell}" "$tmp/main.facts.tex"'
check "default figure: the script reads no file (data inlined)" \
        '! grep -Eq "(< *awk|\.tsv)" <(grep -v "^#" "$tmp/main.gp")'

# ---- declared figures -----------------------------------------------------------
figure tails "two panels, bounds, also" decl tails --summary "$tmp/rt.tsv" --also rt="$tmp/rt.tsv"
check "two panels: (a) and (b), one y range" \
        '[ "$(grep -c "^# panel" "$tmp/tails.gp")" -eq 2 ] && [ "$(grep "^set yrange" "$tmp/tails.gp" | grep -vF "[0:1]" | sort -u | wc -l)" -eq 1 ]'
check "two panels: the y label they share, each panel's own as its title" \
        'grep -qx "set ylabel .round-trip latency. noenhanced offset 1, 0" "$tmp/tails.gp" &&
         grep -q "^set title .(b) round-trip latency, 99th percentile." "$tmp/tails.gp"'
check "bounds: the direct floor and memcpy" \
        'grep -q "harness floor (direct)" "$tmp/tails.gp" && grep -q "memcpy of request + reply" "$tmp/tails.gp"'
check "also: the reference line from the other summary, named with its series" 'grep -q "^# pipes before, pipe$" "$tmp/tails.gp"'
figure pick "where, no error bars, linear y" decl pick --summary "$tmp/rt.tsv"
check "where: only pipe and unix-stream at 64 B and 4 KiB" \
        '[ "$(grep -c " << EOD" "$tmp/pick.gp")" -eq 2 ] && ! grep -q "65536" "$tmp/pick.gp" && ! grep -q yerrorlines "$tmp/pick.gp"'
check "logy=false: a linear y axis from 0" 'grep -q "^set yrange \[0:" "$tmp/pick.gp"'
check "logy=false: the unit in the label, plain numbers as tics, no 0 s" \
        'grep -qx "set ylabel .round-trip latency, median (µs). noenhanced offset 1, 0" "$tmp/pick.gp" &&
         grep -q "^set ytics (.0. 0, .[0-9.]*. " "$tmp/pick.gp" && ! grep "^set ytics" "$tmp/pick.gp" | grep -q ".0 s."'
check "facts: the cells a figure draws (its where=)" \
        'grep -qF "\ipclabSetFact{decl-pick}{filter}{cells where transport=pipe|unix-stream,size\textless{}=4KiB}" "$tmp/pick.facts.tex"'
figure cmp "--compare" decl pick --summary "$tmp/rt.tsv" --compare "$tmp/rt.tsv"
check "--compare: the committed lines grey, the reproduced ones in colour" \
        '[ "$(grep -c "#b8b8b8" "$tmp/cmp.gp")" -ge 3 ] && grep -q "committed data (grey)" "$tmp/cmp.gp" &&
         grep -q "linecolor rgb .#0072B2." "$tmp/cmp.gp"'

# also= with a text x whose values the other experiment does not share: a
# horizontal line across the panel per reference cell.
printf 'transport\tbus\tsize_B\tlat_p50_ns\nlibdbus\tp2p\t64\t50000\nlibdbus\tdbus-daemon\t64\t90000\n' > "$tmp/other.tsv"
figure cat "text x, reference across" decl cat --summary "$tmp/rt.tsv" --also other="$tmp/other.tsv"
check "text x: the transports as tics, in the file's order" \
        'grep -q "set xtics (.direct. 1, .pipe. 2, .unix-stream. 3)" "$tmp/cat.gp" && grep -qx "set xtics noenhanced" "$tmp/cat.gp"'
check "text x: categories as points (with their error bars), never joined by lines" \
        'grep -q "^plot \$p1s1 using 1:2:3:4 with yerrorbars" "$tmp/cat.gp" &&
         [ "$(grep -c "^\(plot\|    \) \$p1s[0-9]* using 1:2 with lines" "$tmp/cat.gp")" -eq 1 ] &&
         grep -q "^     \$p1s2 using 1:2 with lines linecolor rgb .#555555." "$tmp/cat.gp"'
check "also across a text x: one horizontal line from edge to edge" \
        '[ "$(titled "$tmp/cat.gp" "libdbus p2p" | tr "\t\n" ",,")" = "0.5,5e-05,3.5,5e-05," ]'
err=$("$ipclab" plot "$tmp/experiments/decl.ini" cat2 --summary "$tmp/rt.tsv" --also other="$tmp/other.tsv" \
        --out "$tmp/cat2.gp" 2>&1)
check "also: two reference cells for one line are refused" \
        '[ $? -eq 2 ] && grep -q "decl.ini:[0-9]*: \[figure cat2\] also_where: .. keeps several cells of .*other.tsv for one reference line" <<<"$err" && [ ! -e "$tmp/cat2.gp" ]'

# Latencies as `ipclab latency` prints them (the format of contracts.md).
lat=$tmp/lat.tsv
{
        printf 'env\ttransport\tbus\tpayload\tsize_B\tpattern\treply\tmarshal\tcpus\tcount\tduration_ns\tkind\tpercentile\tlatency_ns\n'
        for t in pipe unix-stream direct; do for s in 64 4096 65536; do
                i=0
                for p in 0 90 99 99.9 100; do
                        i=$((i + 1))
                        printf 'host\t%s\t-\tbytes\t%s\troundtrip\techo\tarray\tnone\t200\t-\troundtrip\t%s\t%s\n' \
                                "$t" "$s" "$p" "$((i * 1000 + s / 16))"
                done
        done; done
} > "$lat"
figure spec "spectrum" decl spec --summary "$tmp/rt.tsv" --latency decl="$lat"
check "spectrum: percentiles on the 1/(1-p) scale, the maximum a decade on" \
        '[ "$(block "$tmp/spec.gp" "\$p1s1" | cut -f1 | tr "\n" " ")" = "1 10 100 1000 10000 " ]'
figure nolat "spectrum without latencies (no --latency)" decl spec --summary "$tmp/rt.tsv"
check "spectrum without latencies: a frame saying no data" \
        'grep -qx "@no_data" "$tmp/nolat.gp" && ! grep -q " << EOD" "$tmp/nolat.gp"'
check "spectrum: one line per transport and size, no direct" \
        '[ "$(grep -c " << EOD" "$tmp/spec.gp")" -eq 6 ] && ! grep -q "^# harness floor" "$tmp/spec.gp"'
{ sed -n '1,/^$/p' "$tmp/experiments/rt.ini"; printf '[figure sf]\ntype=spectrum\nwhere=size=64\nseries=transport\nbounds=direct\n'; } \
        > "$tmp/experiments/specf.ini"
figure specf "spectrum with the floor" specf sf --summary "$tmp/rt.tsv" --latency specf="$lat"
check "spectrum: bounds=direct draws direct as the harness floor, first" \
        '[ "$(grep -c " << EOD" "$tmp/specf.gp")" -eq 3 ] && grep -A1 "^# harness floor (direct)$" "$tmp/specf.gp" | grep -q "^\$p1s1 << EOD" &&
         grep -q "with linespoints linecolor rgb .#000000. pointtype 3 dashtype 5" "$tmp/specf.gp" &&
         ! grep -q "^# direct$" "$tmp/specf.gp"'
"$ipclab" plot "$tmp/experiments/decl.ini" dist --summary "$tmp/rt.tsv" --latency decl="$lat" \
        --out "$tmp/dist.gp" 2>"$tmp/err"
check "cdf: a series that leaves an axis out (size) is refused, exit 2" \
        '[ $? -eq 2 ] && grep -q "decl.ini:[0-9]*: \[figure dist\] series: .*lat.tsv has two rows of the line .pipe. at percentile 0: add the axis" "$tmp/err" && [ ! -e "$tmp/dist.gp" ]'
sed -i '/^\[figure dist\]/,/^\[table/ s/^series=transport$/series=transport;size/' "$tmp/experiments/decl.ini"
figure dist "cdf" decl dist --summary "$tmp/rt.tsv" --latency decl="$lat"
check "cdf: x the latency in seconds, y the fraction" \
        '[ "$(block "$tmp/dist.gp" "\$p1s1" | tr "\t\n" ",,")" = "1.004e-06,0,2.004e-06,0.9,3.004e-06,0.99,4.004e-06,0.999,5.004e-06,1," ]'

# The direct floor with series beyond transport and bus (payload): a
# floor per payload, not lines of their own.
printf '[experiment]\ntitle=t\ntransport=direct;libdbus\nbus=p2p\npayload=bytes;string\nsize=64;4KiB\npattern=oneway\ncount=10\n[figure f]\ny=throughput_MiBps\nx=size\nseries=transport;bus;payload\nbounds=direct\n' \
        > "$tmp/experiments/fl.ini"
{
        printf 'transport\tbus\tpayload\tsize_B\tpattern\tthroughput_MiBps\n'
        for p in bytes string; do for s in 64 4096; do
                printf 'direct\t-\t%s\t%s\toneway\t%s\n' $p $s $((s * 10))
                printf 'libdbus\tp2p\t%s\t%s\toneway\t%s\n' $p $s $((s / 8))
        done; done
} > "$tmp/fl.tsv"
figure fl "floor per payload" fl f --summary "$tmp/fl.tsv"
check "bounds=direct: one floor per payload, titled so, at the direct rows' values" \
        'titled "$tmp/fl.gp" "harness floor (direct), bytes" | grep -qx "$(printf "4096\t40960")" &&
         titled "$tmp/fl.gp" "harness floor (direct), string" | grep -qx "$(printf "64\t640")" &&
         ! grep -q "^# direct" "$tmp/fl.gp" && [ "$(grep -c "^# style.1.harness floor (direct), .*.#000000.[0-9]*.5$" "$tmp/fl.gp")" -eq 2 ]'

# Many series: 4 libraries x 3 buses x 2 payloads.  Each channel keys one
# axis (colour the transport, point the bus, dash the payload), no two
# lines alike, and the key lists each channel's values under its axis
# instead of 24 lines.  A transport keeps its colour from figure to
# figure (libdbus here and in the floor figure above).
printf '[experiment]\ntitle=t\ntransport=libdbus;gdbus;sd-bus;qtdbus\nbus=dbus-daemon;dbus-broker;p2p\npayload=bytes;string\nsize=64;4KiB\npattern=oneway\ncount=10\n[figure f]\ny=throughput_MiBps\nx=size\nseries=transport;bus;payload\n' \
        > "$tmp/experiments/many.ini"
{
        printf 'transport\tbus\tpayload\tsize_B\tpattern\tn\tthroughput_MiBps\n'
        i=0
        for t in libdbus gdbus sd-bus qtdbus; do for b in dbus-daemon dbus-broker p2p; do for p in bytes string; do
                i=$((i + 1))
                printf '%s\t%s\t%s\t64\toneway\t3\t%s\n%s\t%s\t%s\t4096\toneway\t3\t%s\n' $t $b $p $i $t $b $p $((i * 50))
        done; done; done
} > "$tmp/many.tsv"
figure many "many series" many f --summary "$tmp/many.tsv"
check "many series: 24 lines, no two drawn alike" \
        '[ "$(grep -c "^# style" "$tmp/many.gp")" -eq 24 ] &&
         [ "$(grep "^# style" "$tmp/many.gp" | cut -f2,4- | sort -u | wc -l)" -eq 24 ]'
check "many series: the caption's facts say what colour, point and dash are" \
        'grep -qF "\ipclabSetFact{many-f}{encoding}{Colour: transport; point: bus; dash: payload type.}" "$tmp/many.facts.tex"'
check "many series: the key lists each channel's values under its axis, not every line" \
        'grep -q "title .transport:." "$tmp/many.gp" && grep -q "title .bus:." "$tmp/many.gp" &&
         grep -q "title .payload type:." "$tmp/many.gp" &&
         [ "$(sed -n "/^# the key/,\$p" "$tmp/many.gp" | grep -c " title .[^ ]")" -le 13 ]'
check "a transport keeps its colour in every figure (libdbus)" \
        '[ "$(grep "^# style.1.libdbus, " "$tmp/many.gp" | cut -f4 | sort -u)" = "#44AA99" ] &&
         grep -q "^# style.1.libdbus, bytes.#44AA99" "$tmp/fl.gp"'
# A machine whose name is a word an environment also is (vm): named so.
awk -F'\t' -v OFS='\t' 'NR == 1 { print; next } { $3 = "vm"; print; $3 = "board"; print }' "$tmp/rt.tsv" > "$tmp/mach.tsv"
{ sed -n '1,/^$/p' "$tmp/experiments/rt.ini"; printf '[figure m]\nseries=machine;transport\nwhere=transport!=direct\n'; } \
        > "$tmp/experiments/mach.ini"
figure mach "two machines" mach m --summary "$tmp/mach.tsv"
check "machines: a line is titled machine NAME, never the bare name (vm)" \
        'grep -q "^# style.1.pipe, machine vm.#0072B2" "$tmp/mach.gp" && grep -q "^# style.1.pipe, machine board.#0072B2" "$tmp/mach.gp" &&
         ! grep -q "^# style.1.vm" "$tmp/mach.gp"'

# ---- published numbers -------------------------------------------------------------
printf '# numbers as published\nimplementation\tsize_B\tcount\telapsed_us\nsocket\t64\t100\t90\nsocket\t4096\t100\t200\npipe\t64\t100\t50\npipe\t4096\t100\t120\npipe\t4096\t1000\t999\n' \
        > "$tmp/data/published/000-test.tsv"
cat > "$tmp/experiments/ow.ini" <<'EOF'
[experiment]
title=One way
transport=pipe;unix-stream
size=64;4KiB
pattern=oneway
count=100
repeat=2

[figure pub]
y=elapsed_ns
bounds=memcpy
published=000-test.tsv
published_x=size_B
published_y=elapsed_us
published_series=implementation
published_where=count=100
published_scale=1000
published_title=FreeBSD 2009

[table pub]
rows=transport;size
columns=elapsed_ns
unit=us
published=000-test.tsv
published_rows=transport=implementation;size=size_B
published_where=count=100
published_value=elapsed_us
published_title=FreeBSD 2009
EOF
out=$("$ipclab" run --out "$tmp/data" "$tmp/experiments/ow.ini" 2>&1) || not_ok "the one-way experiment runs" "$out"
"$ipclab" summarize "$tmp/data/ow" > "$tmp/ow.tsv"
sed 's/^published_where=count=100$/published_where=count=7/' "$tmp/experiments/ow.ini" > "$tmp/experiments/ow7.ini"
err=$("$ipclab" check "$tmp/experiments/ow7.ini" 2>&1 >/dev/null)
check "check: a published_where that keeps no published row is a warning" \
        '[ $? -eq 0 ] && grep -qF "warning: $tmp/experiments/ow7.ini: [figure pub] published_where: '"'"'count=7'"'"' keeps no row of 000-test.tsv" <<<"$err"'
check "check: the experiment as it is warns of nothing" '[ -z "$("$ipclab" check "$tmp/experiments/ow.ini" 2>&1 >/dev/null)" ]'
check "list-outputs: the published file it reads" \
        '"$ipclab" check --list-outputs "$tmp/experiments/ow.ini" | grep -qx "$(printf "figure\tow\tpub\tpublished:data/published/000-test.tsv")"'
figure pub "published overlay" ow pub --summary "$tmp/ow.tsv" --published "$tmp/data/published"
check "memcpy: for elapsed_ns, the time to copy all of a repetition's messages" \
        'grep -q "^# memcpy of the messages$" "$tmp/pub.gp"'
want=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["size_B"] == 4096 && $c["memcpy_MiBps"] != "-" { printf "%.9g\n", $c["messages"] * 1 * 4096 / ($c["memcpy_MiBps"] * 1048576.0) * 1e9 * 1e-9; exit }' "$tmp/ow.tsv")
if [ -n "$want" ]; then
        check "memcpy: 100 messages of 4 KiB at the summary's memcpy_MiBps" \
                'titled "$tmp/pub.gp" "memcpy of the messages" | grep -qx "$(printf "4096\t%s" "$want")"'
else
        skip "memcpy: the bound's value" "this run recorded no memcpy bound in meta.ini"
fi
check "published: its own lines, open points, in our unit (s)" \
        'grep -q "^# published (FreeBSD 2009): pipe$" "$tmp/pub.gp" && grep -q "linecolor rgb .#777777. pointtype [0-9]* dashtype 4" "$tmp/pub.gp" &&
         titled "$tmp/pub.gp" "published (FreeBSD 2009): pipe" |
         grep -qx "$(printf "4096\t0.00012")"'
"$ipclab" table "$tmp/experiments/ow.ini" pub --summary "$tmp/ow.tsv" --published "$tmp/data/published" \
        --out "$tmp/pub.tex" || not_ok "table published"
check "table: the published column's unit from its name (elapsed_us), shown in us, -- where it has none" \
        'grep -q "(FreeBSD 2009)" "$tmp/pub.tex" && grep -q "^pipe & 4~KiB & .* & 120 \\\\\\\\$" "$tmp/pub.tex" &&
         grep -q "^unix-stream & 64~B & .* & -- \\\\\\\\$" "$tmp/pub.tex"'
ours=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["transport"] == "pipe" && $c["size_B"] == 64 { print $c["elapsed_ns"] / 1000 }' "$tmp/ow.tsv")
sed -e 's/^published_rows=transport=implementation;size=size_B$/published_rows=size=size_B\npublished_series=implementation/' \
        "$tmp/experiments/ow.ini" > "$tmp/experiments/ows.ini"
"$ipclab" table "$tmp/experiments/ows.ini" pub --summary "$tmp/ow.tsv" --published "$tmp/data/published" \
        --out "$tmp/pubs.tex" || not_ok "table published_series"
check "table: published_series= makes one published column per value, in the file's order" \
        'grep -qF "\multicolumn{2}{c}{published (FreeBSD 2009)}" "$tmp/pubs.tex" && grep -qF "socket & pipe \\\\" "$tmp/pubs.tex" &&
         grep "^unix-stream & 4~KiB & " "$tmp/pubs.tex" | grep -qF " & 200 & 120 "'
check "table: our value converted to us" \
        'grep "^pipe & 64~B" "$tmp/pub.tex" | grep -qF " & $(printf "%.3g" "$ours" | sed "s/^\([0-9]\{1,2\}\)$/\1.0/") & " || grep "^pipe & 64~B" "$tmp/pub.tex" | grep -q " & [0-9]"'

# Several published columns, each with its head; one whose name says no
# unit (gain_pct) as published; a published label; a published ratio.
printf 'test\tsize_B\tfast_us\tslow_us\tgain_pct\nsmall\t64\t50\t90\t44.44\nlarge\t4096\t120\t200\t40.0\n' \
        > "$tmp/data/published/001-test.tsv"
{ sed -n '1,/^$/p' "$tmp/experiments/ow.ini"; cat <<'EOF'
[figure two]
y=elapsed_ns
series=transport
published=001-test.tsv
published_x=size_B
published_y=fast_us;slow_us
published_heads=fast;slow
published_title=T

[table two]
rows=size
columns=transport
value=elapsed_ns
unit=us
published=001-test.tsv
published_rows=size=size_B
published_value=fast_us;slow_us;gain_pct
published_heads=fast;slow;gain (%)
published_label=test
published_title=T

[table ratio]
rows=size
columns=transport
value=elapsed_ns
unit=us
published=000-test.tsv
published_rows=size=size_B
published_where=count=100
published_series=implementation
published_value=elapsed_us
published_ratio=socket/pipe
EOF
} > "$tmp/experiments/owp.ini"
"$ipclab" table "$tmp/experiments/owp.ini" two --summary "$tmp/ow.tsv" --published "$tmp/data/published" \
        --out "$tmp/two.tex" || not_ok "table two"
check "published_value: several columns under published (TITLE), each headed by its HEAD" \
        'grep -qF "\multicolumn{3}{c}{published (T)}" "$tmp/two.tex" &&
         grep -qF "size & test & pipe & unix-stream & fast & slow & gain (\%) \\\\" "$tmp/two.tex"'
check "published_label: the matched row's test first; a unitless column as published (40.0)" \
        'grep -q "^64~B & small & .* & 50.0 & 90.0 & 44.44 \\\\\\\\$" "$tmp/two.tex" &&
         grep -q "^4~KiB & large & .* & 120 & 200 & 40.0 \\\\\\\\$" "$tmp/two.tex"'
"$ipclab" table "$tmp/experiments/owp.ini" ratio --summary "$tmp/ow.tsv" --published "$tmp/data/published" \
        --out "$tmp/pratio.tex" || not_ok "table published ratio"
check "published_ratio: socket over pipe after the socket column (the file's order)" \
        'grep -qF "\multicolumn{3}{c}{published (000-test.tsv)}" "$tmp/pratio.tex" &&
         grep -qF "socket & \ensuremath{\times}pipe & pipe \\\\" "$tmp/pratio.tex" &&
         grep -q "^4~KiB & .* & 200 & 1.67 & 120 \\\\\\\\$" "$tmp/pratio.tex"'
figure two "published_y: two columns" owp two --summary "$tmp/ow.tsv" --published "$tmp/data/published"
check "published_y: a line per column, titled by its head, in our unit" \
        'titled "$tmp/two.gp" "published (T): fast" | grep -qx "$(printf "4096\t0.00012")" &&
         titled "$tmp/two.gp" "published (T): slow" | grep -qx "$(printf "4096\t0.0002")"'

# Published rows as rows of the table (published_columns=), qualified by
# their bounds (published_bounds=).
printf 'variant\twall_bound\twall_s\tcpu_s\nslow\t>\t15\t-\nfast\t<\t0.003\t0.001\n' > "$tmp/data/published/002-rows.tsv"
{ sed -n '1,/^$/p' "$tmp/experiments/ow.ini"; printf '[table rows]\nrows=transport;size\ncolumns=elapsed_ns;client_cpu_ns\nunit=ms\npublished=002-rows.tsv\npublished_columns=elapsed_ns=wall_s;client_cpu_ns=cpu_s\npublished_bounds=wall_s=wall_bound\npublished_label=variant\npublished_title=P\n'; } \
        > "$tmp/experiments/owr.ini"
"$ipclab" table "$tmp/experiments/owr.ini" rows --summary "$tmp/ow.tsv" --published "$tmp/data/published" \
        --out "$tmp/rows.tex" || not_ok "table rows"
check "published_columns: the published rows below ours, in our unit, with their bounds" \
        'grep -qxF "\multicolumn{2}{@{}l}{published (P): slow} & \$>\$\,15\,000 & -- \\\\" "$tmp/rows.tex" &&
         grep -qxF "\multicolumn{2}{@{}l}{published (P): fast} & \$<\$\,3.00 & 1.00 \\\\" "$tmp/rows.tex" &&
         [ "$(grep -c "^\(pipe\|unix-stream\) & " "$tmp/rows.tex")" -eq 4 ]'

# ---- tables -----------------------------------------------------------------------
"$ipclab" table "$tmp/experiments/rt.ini" main --summary "$tmp/rt.tsv" --out "$tmp/main.tex" || not_ok "table main"
check "default table: transports down, sizes across, booktabs" \
        'grep -q "^transport & 64~B & 4~KiB & 64~KiB" "$tmp/main.tex" && grep -q "^\\\\toprule" "$tmp/main.tex" &&
         grep -q "^\\\\bottomrule" "$tmp/main.tex" && [ "$(grep -c "^\(direct\|pipe\|unix-stream\) & " "$tmp/main.tex")" -eq 3 ]'
"$ipclab" table "$tmp/experiments/decl.ini" wide --summary "$tmp/rt.tsv" --out "$tmp/wide.tex" || not_ok "table wide"
us=$(awk -v v="$(field pipe 65536 lat_p50_ns)" 'BEGIN { printf "%.1f", v / 1000 }')
check "unit=us digits=1: the pipe's median at 64 KiB in microseconds" \
        'grep "^pipe & " "$tmp/wide.tex" | grep -qF " & $us \\\\"'
"$ipclab" table "$tmp/experiments/decl.ini" cols --summary "$tmp/rt.tsv" --out "$tmp/cols.tex" || not_ok "table cols"
# The unit of a time column is that of the median of its values in the
# table (the upper middle one): computed here from the rows, since a loaded
# machine can push a 99th percentile past a millisecond.
head_unit() { awk -F'\t' -v f="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["size_B"] == 64 && $c[f] > 0 { print $c[f] }' "$tmp/rt.tsv" | sort -g |
        awk '{ v[NR] = $1 } END { m = v[int(NR / 2) + 1]
                print (m >= 1e9 ? "s" : m >= 1e6 ? "ms" : m >= 1e3 ? "\\ensuremath{\\mu}s" : "ns") }'; }
u50=$(head_unit lat_p50_ns) u99=$(head_unit lat_p99_ns)
check "columns= value columns: one head each, with the unit (times in the unit of their median: $u50, $u99), in lines" \
        'grep -qF "\ipclabHead{round-trip\\\\latency, median\\\\($u50)} & \ipclabHead{round-trip\\\\latency, 99th\\\\percentile ($u99)}" "$tmp/cols.tex"'
check "a percentile of too few values: in parentheses, and said so below" \
        'grep -q "^pipe & 64~B & [0-9\\,.]* & ([0-9\\,.]*) \\\\\\\\$" "$tmp/cols.tex" &&
         grep -qF "In parentheses: a percentile with fewer than 10 values" "$tmp/cols.tex"'

# Ratio columns, several values across, per message, intervals, a
# reference row (also=).
{ sed -n '1,/^$/p' "$tmp/experiments/rt.ini"; cat <<'EOF'
[table ratio]
rows=size
columns=transport
value=lat_p50_ns
ratio=unix-stream/pipe;pipe/unix-stream

[table multi]
rows=size
columns=transport
where=transport=pipe|unix-stream
value=lat_p50_ns;client_cpu_ns
per_message=client_cpu_ns
unit=us;ms
intervals=true
also=rt
also_where=size=64
also_title=pipes at 64 B
EOF
} > "$tmp/experiments/tab.ini"
"$ipclab" table "$tmp/experiments/tab.ini" ratio --summary "$tmp/rt.tsv" --out "$tmp/ratio.tex" || not_ok "table ratio"
# Field $2 (from 1) of the row of $3 in table $1, "&"-separated.
cellof() { awk -F' & ' -v r="$3" -v f="$2" 'index($0, r " & ") == 1 { v = $f; sub(/ *\\\\$/, "", v); print v; exit }' "$1"; }
# Are numbers $1 and $2 within 1 % of each other (both positive)?
near() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > 0 && b > 0 && a / b > 0.99 && a / b < 1.01) }'; }
check "ratio: a column after its numerator's, headed by the denominator" \
        'grep -qF "message size & direct & pipe & \ensuremath{\times}unix-stream & unix-stream & \ensuremath{\times}pipe \\\\" "$tmp/ratio.tex"'
r=$(awk -v u="$(field unix-stream 4096 lat_p50_ns)" -v p="$(field pipe 4096 lat_p50_ns)" 'BEGIN { print u / p }')
check "ratio: unix-stream over pipe at 4 KiB, in the same row, and its inverse" \
        'near "$(cellof "$tmp/ratio.tex" 6 "4~KiB")" "$r" &&
         near "$(cellof "$tmp/ratio.tex" 4 "4~KiB")" "$(awk -v r="$r" "BEGIN { print 1 / r }")"'
"$ipclab" table "$tmp/experiments/tab.ini" multi --summary "$tmp/rt.tsv" --also rt="$tmp/rt.tsv" --out "$tmp/multi.tex" ||
        not_ok "table multi"
lo=$(awk -v v="$(field pipe 4096 lat_p50_ns_lo)" 'BEGIN { print v / 1000 }')
cpu=$(awk -v v="$(field pipe 4096 client_cpu_ns)" -v m="$(field pipe 4096 messages)" 'BEGIN { print v / m / 1e6 }')
check "several values: a group per transport, each value headed with its unit, per message" \
        'grep -qF "& \multicolumn{2}{c}{pipe} & \multicolumn{2}{c}{unix-stream} \\\\" "$tmp/multi.tex" &&
         grep -qF "\ipclabHead{round-trip\\\\latency, median\\\\(\ensuremath{\mu}s)} & \ipclabHead{client CPU time\\\\per message (ms)}" "$tmp/multi.tex"'
check "intervals: the median with [lo, hi] from the summary" \
        'cellof "$tmp/multi.tex" 2 "4~KiB" | grep -q "^\\\\ipclabInterval{[0-9.]*}{\[[0-9.]*, [0-9.]*\]}$" &&
         near "$(cellof "$tmp/multi.tex" 2 "4~KiB" | sed "s/.*\[\([^,]*\),.*/\1/")" "$lo"'
check "per_message: client CPU time over the messages, in ms" 'near "$(cellof "$tmp/multi.tex" 3 "4~KiB")" "$cpu"'
want=$(awk -v v="$(field pipe 64 lat_p50_ns)" 'BEGIN { print v / 1000 }')
check "also: a last row, the other experiment's value in each transport's column" \
        'grep -q "^\\\\multicolumn{1}{@{}l}{pipes at 64 B} & [0-9]" "$tmp/multi.tex" &&
         near "$(grep "pipes at 64 B" "$tmp/multi.tex" | awk -F" & " "{ print \$2 }")" "$want"'
sed 's|^ratio=.*|ratio=tcp/pipe|' "$tmp/experiments/tab.ini" > "$tmp/experiments/tab2.ini"
err=$("$ipclab" table "$tmp/experiments/tab2.ini" ratio --summary "$tmp/rt.tsv" --out "$tmp/bad.tex" 2>&1)
check "ratio: a value the axis has not is refused, exit 2" \
        '[ $? -eq 2 ] && grep -qF "[table ratio] ratio: '"'"'tcp/pipe'"'"' is not NUM/DEN" <<<"$err"' || echo "# $err"

# ---- section ------------------------------------------------------------------------
"$ipclab" section "$tmp/experiments/rt.ini" --summary "$tmp/rt.tsv" --meta "$tmp/data/rt/meta.ini" --out "$tmp/sec.tex" ||
        not_ok "section"
check "section: title escaped, source, what varied" \
        'grep -qF "\section{Round trips \& 50\% of\_them}" "$tmp/sec.tex" && grep -qF "\texttt{002\_987a43d70dd26995.txt}" "$tmp/sec.tex" &&
         grep -qF "\item message size: 64~B, 4~KiB, 64~KiB" "$tmp/sec.tex" && grep -qF "200 messages" "$tmp/sec.tex"'
check "section: what the data hold, and what their intervals cover" \
        'grep -qF "A repetition exchanged 200 messages after 10 warm-up messages; the data hold 5 repetitions of each of 9 cells." "$tmp/sec.tex" &&
         grep -qF "a 93.7\% interval of the median" "$tmp/sec.tex" && ! grep -q "profile" "$tmp/sec.tex"'
check "section: an axis with one value is no variation (bus only none)" \
        '! grep -q "^\\\\item bus" "$tmp/sec.tex" && grep -qF "Every cell had (where it applies): " "$tmp/sec.tex"'
# The data of a quick run: the section says so, and what they hold, not
# the file's defaults.
mkdir -p "$tmp/quick"
sed -e 's/^profile=.*/profile=quick/' -e 's/^warmup=.*/warmup=3/' "$tmp/data/rt/meta.ini" > "$tmp/quick/meta.ini"
awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next } { $c["count"] = 50; print }' \
        "$tmp/rt.tsv" > "$tmp/quick/s.tsv"
"$ipclab" section "$tmp/experiments/rt.ini" --summary "$tmp/quick/s.tsv" --meta "$tmp/quick/meta.ini" --out "$tmp/secq.tex" ||
        not_ok "section quick"
check "section: a quick run's data are described as they are (profile, counts, warm-up)" \
        'grep -qF "These data were measured with the file'"'"'s profile \texttt{quick}, not its default." "$tmp/secq.tex" &&
         grep -qF "A repetition exchanged 50 messages after 3 warm-up messages" "$tmp/secq.tex" &&
         ! grep -q "200 messages" "$tmp/secq.tex"'
check "section: a generated caption says which cells, with the unit of the table" \
        'grep -qF "\caption{Round-trip latency, median (\ensuremath{\mu}s): a row per transport, a column per message size; every cell of experiment \texttt{rt}: medians over the repetitions.}" "$tmp/sec.tex"'
# Every character LaTeX treats specially, escaped by the one escaper
# (render_latex_escape), which the declared numbers' text goes through too.
hostile='a\b{c}$d&e#f%g_h^i~j<k>l'
# (ipclab takes the title as written: one backslash)
{ echo '[experiment]'; echo "title=$hostile"; grep -v '^\[experiment\]$\|^title=' "$tmp/experiments/rt.ini"; } \
        > "$tmp/experiments/esc.ini"
"$ipclab" section "$tmp/experiments/esc.ini" --summary "$tmp/rt.tsv" --out "$tmp/esc.tex" 2>/dev/null
c_says=$(sed -n 's/^\\section{\(.*\)}$/\1/p' "$tmp/esc.tex")
escaped='a\textbackslash{}b\{c\}\$d\&e\#f\%g\_h\textasciicircum{}i\textasciitilde{}j\textless{}k\textgreater{}l'
check "render_latex_escape escapes every special character ($c_says)" '[ "$c_says" = "$escaped" ]'
check "section: the figure and the table" \
        'grep -qF "\ipclabFigure{rt-main}" "$tmp/sec.tex" && grep -qF "\label{fig:rt-main}" "$tmp/sec.tex" &&
         grep -qF "\ipclabTable{rt-main}" "$tmp/sec.tex"'
check "section: the claim with its verdict macro, its text escaped" \
        'grep -qF "\item Pipes beat Unix streams \& co \ipclabClaim{PipeVsUnix}{pipe\_vs\_unix}." "$tmp/sec.tex"'
"$ipclab" section "$tmp/experiments/decl.ini" --summary "$tmp/rt.tsv" --out "$tmp/sec2.tex"
check "section: a declared title and caption, escaped, then what the figure's facts say" \
        'grep -qF "\caption{\textbf{Tails \& floors.} Median and tail\_1 \ipclabFact{decl-tails}{encoding} \ipclabFact{decl-tails}{intervals}" "$tmp/sec2.tex"'

# The section, its figure and table in a document with the paper's own
# macros (paper/ipclab.sty): LaTeX takes what the escaper made of the
# title, the claim and the file name, and finds the figure and the table.
if command -v pdflatex >/dev/null; then
        mkdir -p "$tmp/tex/generated" "$tmp/tex/figures"
        cp "$tmp/main.tex" "$tmp/tex/generated/table-rt-main.tex"
        cp "$tmp/main.pdf" "$tmp/tex/figures/rt-main.pdf"
        cp "$tmp/main.facts.tex" "$tmp/tex/generated/facts.tex"
        {
                printf '\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[text={16cm,24.5cm}]{geometry}\n'
                printf '\\usepackage{ipclab}\n\\renewcommand{\\ipclabFigDir}{figures/}\n'
                printf '\\begin{document}\n\\input{sec.tex}\n\\end{document}\n'
        } > "$tmp/tex/doc.tex"
        cp "$tmp/sec.tex" "$tmp/tex/sec.tex"
        (cd "$tmp/tex" && TEXINPUTS=.:$src/paper: pdflatex -interaction=nonstopmode -halt-on-error doc.tex > log.txt 2>&1)
        check "section: LaTeX builds it with the paper's macros" '[ $? -eq 0 ] && [ -s "$tmp/tex/doc.pdf" ]' ||
                tail -20 "$tmp/tex/log.txt" | sed 's/^/# /'
        text=$(pdftotext "$tmp/tex/doc.pdf" - 2>/dev/null | tr '\n' ' ')
        check "section: its title, the claim, the table and the figure in the PDF" \
                'grep -qF "Round trips & 50% of_them" <<<"$text" && grep -qF "claim pipe_vs_unix: not checked in this build" <<<"$text" &&
                 grep -qF "unix-stream" <<<"$text" && ! grep -q "not built\|not generated" <<<"$text" &&
                 grep -qF "Error bars: the range of the 5 repetitions, a 93.7% interval of the median." <<<"$text"' ||
                echo "# ${text:0:800}"
else
        skip "section: LaTeX builds it" "pdflatex is not installed"
fi

# ---- refusals ------------------------------------------------------------------------
bad() {
        local what=$1 want=$2
        shift 2
        rm -f "$tmp/bad.out"
        err=$("$ipclab" "$@" --out "$tmp/bad.out" 2>&1)
        check "refused: $what (exit 2, says so, writes nothing)" \
                '[ $? -eq 2 ] && grep -qF -- "$want" <<<"$err" && [ ! -e "$tmp/bad.out" ]' || echo "# $err"
}
bad "no such figure" "no [figure nope] (it has: main)" plot "$tmp/experiments/rt.ini" nope --summary "$tmp/rt.tsv"
bad "no such table" "no [table tails]" table "$tmp/experiments/decl.ini" tails --summary "$tmp/rt.tsv"
bad "also= without --also" "needs --also rt=FILE" plot "$tmp/experiments/decl.ini" tails --summary "$tmp/rt.tsv"
bad "a missing summary" "nope.tsv" plot "$tmp/experiments/rt.ini" main --summary "$tmp/nope.tsv"
printf '[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[figure f]\ny=speed\n' > "$tmp/experiments/b.ini"
bad "a bad declaration, as FILE:LINE: [group] key" "b.ini:6: [figure f] y: unknown column 'speed'" \
        plot "$tmp/experiments/b.ini" f --summary "$tmp/rt.tsv"
sed -e 's/^columns=elapsed_ns$/columns=throughput_MiBps/' -e 's/^unit=us$/unit=MiB\/s/' "$tmp/experiments/ow.ini" > "$tmp/experiments/owt.ini"
bad "a published column whose name says another unit" \
        "[table pub] published_value: elapsed_us is not in the unit of throughput_MiBps (MiB/s): give published_scale=" \
        table "$tmp/experiments/owt.ini" pub --summary "$tmp/ow.tsv" --published "$tmp/data/published"
echo "1..$n"
[ "$failed" -eq 0 ]
