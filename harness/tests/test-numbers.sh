#!/bin/bash
# test-numbers.sh: `ipclab numbers` (every form a [number] group declares,
# and its mistakes), `ipclab select` and `ipclab methods`, on a summary, a
# published file and meta.ini files written here with known values, so that
# every expected macro is known exactly: which interval lies apart, which
# median is the lowest, what a ratio comes to.
set -u
cd "$(dirname "$0")/../.."
ipclab=$PWD/harness/ipclab
tmp=$(mktemp -d)
trap '[ -n "${KEEP-}" ] && echo "# kept $tmp" || rm -rf "$tmp"' EXIT
. harness/tests/tap.sh
mkdir -p "$tmp/experiments" "$tmp/data/published" "$tmp/data/nx"

# ---- fixtures ----------------------------------------------------------------
# Six cells with 95 % intervals (6 repetitions): at 64 B the intervals of
# pipe and unix-stream overlap, at 4 KiB they lie apart.
tab=$'\t'
{
        echo "experiment${tab}env${tab}machine${tab}transport${tab}bus${tab}payload${tab}size_B${tab}pattern${tab}reply${tab}marshal${tab}cpus${tab}count${tab}duration_ns${tab}n${tab}failed${tab}elapsed_ns${tab}elapsed_ns_lo${tab}elapsed_ns_hi${tab}messages${tab}lat_p50_ns${tab}lat_p50_ns_lo${tab}lat_p50_ns_hi${tab}client_cpu_ns${tab}memcpy_MiBps"
        row() { local IFS=$'\t'; echo "nx${tab}host${tab}m1${tab}$*"; }
        row direct - bytes 64 roundtrip echo array none 10000 - 6 0 300000 290000 310000 10000 30 29 31 280000 1024
        row direct - bytes 4096 roundtrip echo array none 10000 - 6 0 400000 390000 410000 10000 40 39 41 380000 -
        row pipe - bytes 64 roundtrip echo array none 10000 - 6 0 123450000 120000000 126000000 10000 12345 12000 12600 100000000 1024
        row pipe - bytes 4096 roundtrip echo array none 10000 - 6 0 200000000 190000000 210000000 10000 20000 19000 21000 150000000 8192
        row unix-stream - bytes 64 roundtrip echo array none 10000 - 6 0 150000000 125000000 160000000 10000 15000 12500 16000 110000000 1024
        row unix-stream - bytes 4096 roundtrip echo array none 10000 - 6 0 300000000 290000000 310000000 10000 30000 29000 31000 200000000 8192
} > "$tmp/nx.tsv"
# Another experiment's summary: 3 repetitions, intervals at 75 %.
{
        head -n 1 "$tmp/nx.tsv"
        row() { local IFS=$'\t'; echo "ot${tab}host${tab}m1${tab}$*"; }
        row pipe - bytes 64 roundtrip echo array none 100 - 3 0 10000 9000 11000 100 100 90 110 1000 1024
        row unix-stream - bytes 64 roundtrip echo array none 100 - 3 0 20000 19000 21000 100 200 190 210 2000 1024
} > "$tmp/ot.tsv"
cat > "$tmp/data/published/000-test.tsv" <<EOF
# source: made up for test-numbers.sh
route${tab}count${tab}size_B${tab}elapsed_s${tab}calls_per_s${tab}label
bus${tab}1000${tab}4096${tab}1.351737${tab}55496${tab}x_y & 5%
direct${tab}1000${tab}4096${tab}0.5${tab}123${tab}plain
EOF
cat > "$tmp/data/nx/meta.ini" <<'EOF'
[run]
started=2026-12-01T13:38:19.653837Z
finished=2026-12-01T13:38:20.209581Z
env_accel=tcg

[machine]
kernel=6.1 & co_x
memory_bytes=2060423168
cpu_model=Weird\\CPU~^ #1

[bounds]
memcpy_MiBps_4096=107531.25

[skipped]
skipped_1=mq roundtrip bytes size=32768 reply=echo count=2000: size 32768 exceeds the transport's limit of 8192 bytes
skipped_2=mq roundtrip bytes size=65536 reply=echo count=2000: size 65536 exceeds the transport's limit of 8192 bytes
skipped_3=tcp roundtrip bytes size=64 reply=echo count=2000: unavailable here: no tcp
EOF

cat > "$tmp/experiments/nx.ini" <<'EOF'
[experiment]
title=Numbers
transport=direct;pipe;unix-stream
size=64;4KiB
pattern=roundtrip
count=10000
repeat=6

[number Reps]
value=n
[number Count]
value=count
[number Cov]
show=coverage
digits=0
[number PipeSmall]
where=transport=pipe,size=64
value=lat_p50_ns
unit=us
[number DirectSmall]
where=transport=direct,size=64
value=lat_p50_ns
[number MinSize]
value=size
reduce=min
[number MaxSize]
value=size_B
reduce=max
[number Transports]
value=transport
reduce=distinct
[number Cells]
reduce=count
[number HaveMemcpy]
value=memcpy_MiBps
reduce=count
[number FastName]
where=size=64,transport!=direct
value=lat_p50_ns
reduce=min
show=transport
[number FastApart]
where=size=64,transport!=direct
value=lat_p50_ns
reduce=min
show=apart
[number SlowApart]
where=size=4KiB,transport!=direct
value=lat_p50_ns
reduce=max
show=apart
[number SlowLabel]
where=size=4KiB,transport!=direct
value=lat_p50_ns
reduce=max
show=transport
labels=unix-stream=Unix stream & socket
[number PerMsg]
where=transport=pipe,size=64
value=client_cpu_ns
per=messages
unit=us
[number Share]
where=transport=pipe,size=64
value=client_cpu_ns
per=messages;lat_p50_ns
unit=%
digits=0
[number MemcpyTime]
where=transport=pipe,size=4KiB
value=size_B
times=messages
per=memcpy_MiBps
unit=ms
[number MiB]
where=transport=pipe,size=4KiB
value=size
times=messages
unit=MiB
[number Ratio]
where=transport=unix-stream,size=4KiB
over=transport=pipe,size=4KiB
value=lat_p50_ns
[number Diff]
where=transport=unix-stream,size=4KiB
over=transport=pipe,size=4KiB
value=lat_p50_ns
compare=difference
unit=us
[number Distance]
where=transport=pipe,size=4KiB
over=transport=unix-stream,size=4KiB
value=lat_p50_ns
compare=distance
per=messages
scale=50
unit=ns
[number Saving]
where=transport=pipe,size=4KiB
over=transport=unix-stream,size=4KiB
value=lat_p50_ns
compare=saving
digits=0
[number Pairs]
where=transport=unix-stream
over=transport=pipe
value=lat_p50_ns
reduce=count
[number Disjoint]
where=transport=unix-stream
over=transport=pipe
value=lat_p50_ns
keep=disjoint
reduce=count
[number Overlap]
where=transport=unix-stream
over=transport=pipe
value=lat_p50_ns
keep=overlap
reduce=count
[number Above]
where=transport=unix-stream
over=transport=pipe
value=lat_p50_ns
keep=above
reduce=count
[number DisjointList]
where=transport=unix-stream
over=transport=pipe
value=lat_p50_ns
keep=disjoint
reduce=list
show=transport;size
[number SizeList]
value=size
reduce=list
[number PairApart]
where=transport=unix-stream,size=4KiB
over=transport=pipe,size=4KiB
value=lat_p50_ns
show=apart
[number PairNotApart]
where=transport=unix-stream,size=64
over=transport=pipe,size=64
value=lat_p50_ns
show=apart
[number NotSplit]
value=cpus
test=split
[number IsNone]
value=cpus
test=none
[number OverTwo]
where=transport=unix-stream,size=4KiB
over=transport=pipe,size=4KiB
value=lat_p50_ns
test=>2
[number Ref]
experiment=ot
where=transport=pipe
value=lat_p50_ns
[number RefCount]
experiment=ot
reduce=count
[number RefCov]
experiment=ot
show=coverage
digits=0
[number RefApart]
experiment=ot
where=transport=unix-stream
over=transport=pipe
value=lat_p50_ns
show=apart
[number RefDisjoint]
experiment=ot
where=transport=unix-stream
over=transport=pipe
value=lat_p50_ns
keep=disjoint
reduce=count
[number RefApartCount]
experiment=ot
where=transport=unix-stream
over=transport=pipe
value=lat_p50_ns
keep=apart
reduce=count
[number PubRate]
published=000-test.tsv
where=route=bus
value=calls_per_s
[number PubTime]
published=000-test.tsv
where=route=bus
value=elapsed_s
[number PubPerCall]
published=000-test.tsv
where=route=bus
value=elapsed_s
per=count
unit=ms
[number PubRatio]
published=000-test.tsv
where=route=bus
over=route=direct
value=elapsed_s
[number PubSaving]
published=000-test.tsv
where=route=direct
over=route=bus
value=elapsed_s
compare=saving
digits=0
[number PubLabel]
published=000-test.tsv
where=route=bus
value=label
[number PubSize]
published=000-test.tsv
value=size_B
reduce=max
[number Kernel]
meta=machine.kernel
[number Cpu]
meta=machine.cpu_model
[number Memory]
meta=machine.memory_bytes
unit=GiB
[number Memcpy]
meta=bounds.memcpy_MiBps_4096
[number RunSeconds]
meta=run.finished;run.started
compare=difference
[number Emulated]
meta=run.env_accel
test=tcg
[number AccelChars]
meta=run.env_accel
chars=2
[number VmKernel]
meta=machine vm.kernel
[number Skips]
meta=skipped
where=transport=mq
reduce=count
[number SkippedSizes]
meta=skipped
where=transport=mq
value=size_B
reduce=list
[number Limit]
meta=skipped
where=transport=mq
value=limit_B
[number NoRow]
where=lat_p50_ns>1000000000
value=lat_p50_ns
[number NoRowApart]
where=lat_p50_ns>1000000000
value=lat_p50_ns
reduce=min
show=apart
[number NoValue]
where=transport=direct,size=4KiB
value=memcpy_MiBps
[number NRatio]
numbers=Ratio;Transports
[number NTest]
numbers=Ratio;Transports
test=>2
EOF

numbers() { "$ipclab" numbers "$tmp/experiments/$1.ini" --summary "$tmp/$1.tsv" --published "$tmp/data/published" "${@:2}"; }
# The body of macro $1 in file $2.
macro() { sed -n "s/^\\\\newcommand{\\\\$1}{\\(.*\\)}\$/\\1/p" "$2"; }
expect() {
        local got want=$2
        got=$(macro "$1" "$4")
        check "\\$1 is $2 ($3)" '[ "$got" = "$want" ]' || echo "# got: $got"
}

check "ipclab check accepts every [number] form" '"$ipclab" check "$tmp/experiments/nx.ini" >/dev/null'
out=$(numbers nx --also ot="$tmp/ot.tsv" --meta "$tmp/data/nx/meta.ini" --out "$tmp/m.tex" 2>&1)
check "ipclab numbers writes every macro" '[ $? -eq 0 ] && [ -s "$tmp/m.tex" ]' || echo "# $out"
check "one macro per group, in the file's order" \
        '[ "$(grep -c "^\\\\newcommand" "$tmp/m.tex")" -eq "$(grep -c "^\[number " "$tmp/experiments/nx.ini")" ] &&
         [ "$(sed -n "2s/^\\\\newcommand{\\\\\\([A-Za-z]*\\)}.*/\\1/p" "$tmp/m.tex")" = Reps ]'
m=$tmp/m.tex
expect Reps 6 "a whole number of the summary as written" "$m"
expect Count '10\,000' "digits grouped from five on" "$m"
expect Cov 95 "6 repetitions reach 95 %" "$m"
expect PipeSmall 12.3 "12345 ns in us, three figures" "$m"
expect DirectSmall 30.0 "the column's own unit" "$m"
expect MinSize '64~B' "a size as tables label it" "$m"
expect MaxSize '4~KiB' "the largest size" "$m"
expect Transports 3 "distinct values" "$m"
expect Cells 6 "rows counted" "$m"
expect HaveMemcpy 5 "rows with a value counted, '-' not" "$m"
expect FastName '\texttt{pipe}' "the lowest median's transport, a name in typewriter type" "$m"
expect FastApart 0 "intervals that overlap set nothing apart" "$m"
expect SlowApart 1 "an interval clear of every other's at 95 %" "$m"
expect SlowLabel '\texttt{Unix stream \& socket}' "labels= text, escaped" "$m"
expect PerMsg 10.0 "per message" "$m"
expect Share 81 "per messages and per latency, in %, 0 digits" "$m"
expect MemcpyTime 4.77 "bytes times messages over a bandwidth, in ms" "$m"
expect MiB 39.1 "bytes moved, in MiB" "$m"
expect Ratio 1.50 "a ratio of two cells" "$m"
expect Diff 10.0 "a difference, in us" "$m"
expect Distance 50.0 "a distance per message, times 50" "$m"
expect Saving 33 "a saving in %" "$m"
expect Pairs 2 "pairs agree on the axes neither selector names" "$m"
expect Disjoint 1 "pairs whose intervals are apart" "$m"
expect Overlap 1 "pairs whose intervals overlap" "$m"
expect Above 2 "pairs above" "$m"
expect DisjointList '\texttt{unix-stream} at 4~KiB' "the pairs apart, listed" "$m"
expect SizeList '64~B and 4~KiB' "a list of sizes" "$m"
expect PairApart 1 "one pair apart" "$m"
expect PairNotApart 0 "one pair overlapping" "$m"
expect NotSplit 0 "a test that fails" "$m"
expect IsNone 1 "a test that holds" "$m"
expect OverTwo 0 "a numeric test (1.5 > 2)" "$m"
expect Ref 100 "another experiment's summary" "$m"
expect RefCount 2 "another experiment's rows" "$m"
expect RefCov 75 "3 repetitions cover 75 %" "$m"
expect RefApart 0 "disjoint intervals at 75 % are not apart" "$m"
expect RefDisjoint 1 "but they are disjoint" "$m"
expect RefApartCount 0 "keep=apart needs 95 %" "$m"
expect PubRate '55\,496' "a published number as written, grouped" "$m"
expect PubTime 1.351737 "a published number as written" "$m"
expect PubPerCall 1.35 "a published time per call, converted" "$m"
expect PubRatio 2.70 "a ratio of published numbers" "$m"
expect PubSaving 63 "a saving of published numbers" "$m"
expect PubLabel 'x\_y \& 5\%' "published text through the LaTeX escaper" "$m"
expect PubSize '4~KiB' "a published size" "$m"
expect Kernel '6.1 \& co\_x' "a meta.ini fact: text, escaped (not read as a number)" "$m"
expect Cpu 'Weird\textbackslash{}CPU\textasciitilde{}\textasciicircum{} \#1' "backslash, tilde, caret, hash escaped" "$m"
expect Memory 1.92 "bytes in GiB" "$m"
expect Memcpy '107\,531' "a bandwidth from its key's name" "$m"
expect RunSeconds 0.556 "seconds between two times" "$m"
expect Emulated 1 "a fact tested" "$m"
expect AccelChars tc "the first characters" "$m"
expect VmKernel -- "a group the run did not write" "$m"
expect Skips 2 "skipped cells of one transport" "$m"
expect SkippedSizes '32~KiB and 64~KiB' "their sizes" "$m"
expect Limit '8~KiB' "the limit that stopped them" "$m"
expect NoRow -- "cells the data does not hold: no data" "$m"
expect NoRowApart 0 "no data for an \\ifnum: 0" "$m"
expect NoValue -- "a cell without the value (failed, not measured): no data" "$m"
expect NRatio 0.500 "two numbers' ratio" "$m"
expect NTest 0 "two numbers' ratio tested" "$m"

# Without the other experiment's data: "--", a count 0.
numbers nx --meta "$tmp/data/nx/meta.ini" --out "$tmp/m2.tex" >/dev/null 2>&1
expect Ref -- "no data from another experiment" "$tmp/m2.tex"
expect RefCount 0 "no rows from another experiment" "$tmp/m2.tex"
numbers nx --also ot="$tmp/ot.tsv" --out "$tmp/m3.tex" >/dev/null 2>&1
expect Kernel -- "no meta.ini given" "$tmp/m3.tex"

# A sequential design's cells have different repetitions: coverage is
# their least or greatest (reduce=min, max), and one coverage for rows
# that differ is a mistake that says which to pick.
awk -F'\t' -v OFS='\t' 'NR == 3 { $14 = 6 } { print }' "$tmp/ot.tsv" > "$tmp/sq.tsv"
cat > "$tmp/experiments/sq.ini" <<'EOF'
[experiment]
title=Sequential
transport=pipe;unix-stream
size=64
pattern=roundtrip
count=100
repeat=auto
repeat_until=decided
looks=3;6

[number CovLeast]
show=coverage
reduce=min
digits=0
[number CovMost]
show=coverage
reduce=max
digits=0
EOF
numbers sq --out "$tmp/sq.tex" >/dev/null 2>&1
expect CovLeast 75 "the least coverage of cells of 3 and 6 repetitions" "$tmp/sq.tex"
expect CovMost 95 "the greatest" "$tmp/sq.tex"
printf '[number CovOne]\nshow=coverage\n' >> "$tmp/experiments/sq.ini"
err=$(numbers sq --out "$tmp/sq2.tex" 2>&1)
check "one coverage of cells of 3 and 6 repetitions: refused, naming reduce=" \
        '[ ! -e "$tmp/sq2.tex" ] && grep -qF "selects rows with different repetitions (3 and 6): their intervals'"'"' coverage differs (reduce=min or max picks one)" <<<"$err"' || echo "# $err"
{ sed -n '1,/^looks/p' "$tmp/experiments/sq.ini"; printf '\n[number CovList]\nshow=coverage\nreduce=list\n'; } > "$tmp/experiments/sqbad.ini"
err=$("$ipclab" check "$tmp/experiments/sqbad.ini" 2>&1)
check "show=coverage with reduce=list: refused at load" \
        'grep -qF "[number CovList] reduce: show=coverage takes one (every row alike), min or max" <<<"$err"' || echo "# $err"

# ---- mistakes found with the data: every one, in one pass, at its line ---
cp "$tmp/nx.tsv" "$tmp/bad.tsv"
{ sed -n '1,/^repeat/p' "$tmp/experiments/nx.ini"; cat <<'EOF'

[number Fine]
value=n
[number NoPair]
where=transport=unix-stream,size=64
over=transport=pipe,size=4KiB
pair=size_B
value=lat_p50_ns
[number Several]
where=transport=pipe
value=lat_p50_ns
[number TwoPairs]
where=transport=unix-stream
over=transport=pipe
value=lat_p50_ns
[number NoKey]
meta=machine.nothing
EOF
} > "$tmp/experiments/bad.ini"
line() { grep -n "^\[number $1\]" "$tmp/experiments/bad.ini" | cut -d: -f1; }
keyline() { awk -v g="[number $1]" -v k="$2" '$0 == g { on = 1; next } /^\[/ { on = 0 } on && index($0, k "=") == 1 { print NR; exit }' "$tmp/experiments/bad.ini"; }
err=$(numbers bad --meta "$tmp/data/nx/meta.ini" --out "$tmp/bad.tex" 2>&1)
rc=$?
check "a bad number: exit 2, nothing written" '[ $rc -eq 2 ] && [ ! -e "$tmp/bad.tex" ]' || echo "# rc $rc"
f=$tmp/experiments/bad.ini
check "rows that make no pair: FILE:LINE: [number NAME] key: says so" \
        'grep -qF "$f:$(keyline NoPair pair): [number NoPair] pair: no row of over='"'"'transport=pipe,size=4KiB'"'"' agrees" <<<"$err"' || echo "# $err"
check "several rows where one is needed: named, with the axes they differ in" \
        'grep -qF "$f:$(keyline Several where): [number Several] where: '"'"'transport=pipe'"'"' selects 2 rows with different values of lat_p50_ns where one is needed (they differ in: size_B)" <<<"$err"'
check "two pairs where one is needed" 'grep -qF "[number TwoPairs] where: '"'"'transport=unix-stream'"'"' and over='"'"'transport=pipe'"'"' make 2 pairs where one is needed" <<<"$err"'
check "a key meta.ini lacks in a group it has" 'grep -qF "$f:$(keyline NoKey meta): [number NoKey] meta: " <<<"$err" && grep -q "has no key nothing" <<<"$err"'
check "every mistake in one pass, one a line, and the good number not among them" \
        '[ "$(grep -c "^ipclab: .*\[number " <<<"$err")" -eq 4 ] && ! grep -q "Fine" <<<"$err"'

# ---- mistakes in the declarations: ipclab check, at load ---------------------
{ sed -n '1,/^repeat/p' "$tmp/experiments/nx.ini"; cat <<'EOF'

[number Typo]
valeu=n
[number BadUnit]
where=transport=pipe,size=64
value=lat_p50_ns
unit=MiB/s
[number NoCi]
value=client_cpu_ns
reduce=min
show=apart
[number Sources]
experiment=ot
published=000-test.tsv
[number Missing]
numbers=Nope;NoCell
[number NoCell]
where=size=128
value=n
[number a-b]
value=n
[number AB]
value=n
[number NeedUnit]
where=transport=pipe,size=64
value=client_cpu_ns
per=lat_p50_ns;lat_p50_ns
EOF
} > "$tmp/experiments/decl.ini"
err=$("$ipclab" check "$tmp/experiments/decl.ini" 2>&1)
rc=$?
f=$tmp/experiments/decl.ini
dl() { awk -v g="[number $1]" -v k="$2" '$0 == g { if (k == "") { print NR; exit } on = 1; next } /^\[/ { on = 0 } on && index($0, k "=") == 1 { print NR; exit }' "$f"; }
check "bad declarations: exit 2" '[ $rc -eq 2 ]' || echo "# $err"
check "an unknown key, at its line" 'grep -qF "$f:$(dl Typo valeu): [number Typo] valeu: unknown key in a number" <<<"$err"'
check "a unit that does not fit" 'grep -qF "$f:$(dl BadUnit unit): [number BadUnit] unit: '"'"'MiB/s'"'"' does not fit" <<<"$err"'
check "apart without an interval" 'grep -qF "$f:$(dl NoCi show): [number NoCi] show: apart needs a value= with an interval" <<<"$err"'
check "two sources" 'grep -qF "[number Sources] published: one source" <<<"$err"'
check "numbers= naming no group" 'grep -qF "[number Missing] numbers: no [number Nope] in this file" <<<"$err"'
check "a selector naming no cell" 'grep -qF "$f:$(dl NoCell where): [number NoCell] where: '"'"'size=128'"'"' names no cell" <<<"$err"'
check "two groups, one macro" 'grep -qF "$f:$(dl AB ""): [number AB]: its macro \\AB is also [number a-b]" <<<"$err"'
check "a computed quantity without unit=" 'grep -qF "[number NeedUnit] unit: missing" <<<"$err"'
check "every declaration mistake in one pass" '[ "$(grep -c "\[number " <<<"$err")" -eq 8 ]' || echo "# $err"

# ---- ipclab check --list-outputs: what the numbers read ---------------------
lo=$("$ipclab" check --list-outputs "$tmp/experiments/nx.ini")
check "list-outputs: one line for the numbers, with their inputs" \
        'grep -qx "numbers${tab}nx${tab}macros${tab}exp:ot published:data/published/000-test.tsv" <<<"$lo"' || echo "# $lo"

# ---- ipclab select ------------------------------------------------------------
sel=$("$ipclab" select "$tmp/nx.tsv" --where 'transport=pipe|direct,size=4KiB' --columns transport,lat_p50_ns,memcpy_MiBps)
check "select: the rows in file order, text quoted, '-' as NaN" \
        '[ "$sel" = "$(printf "\"direct\"\t40\tNaN\n\"pipe\"\t20000\t8192")" ]' || echo "# $sel"
check "select --count" '[ "$("$ipclab" select "$tmp/nx.tsv" --where size=64 --count)" = 3 ]'
printf 'a\tb\n"q"x #1\t1\n' > "$tmp/q.tsv"
check "select: a quote in a text cannot end gnuplot's field" \
        '[ "$("$ipclab" select "$tmp/q.tsv" --columns a,b)" = "$(printf "\"'"'"'q'"'"'x #1\"\t1")" ]'
"$ipclab" select "$tmp/nx.tsv" --columns nothing >/dev/null 2>"$tmp/e"
check "select: an unknown column is exit 2, named" '[ $? -eq 2 ] && grep -q "no column .nothing." "$tmp/e"'

# ---- ipclab methods -------------------------------------------------------------
mkdir -p "$tmp/m/a" "$tmp/m/b"
cat > "$tmp/m/a/meta.ini" <<'EOF'
[run]
started=2026-12-01T13:18:02.5Z
env=host
[machine]
cpu_model=CPU & Co
cpus_online=2
smt=off
governor=none
boost=off
clocksource=tsc
hypervisor=kvm
container=none
kernel=6.1
[software]
glib=2.74
libdbus=1.14
libsystemd=252
dbus_daemon=dbus-daemon 1.14
dbus_broker=dbus-broker 33
compiler=gcc 12
cflags=-O2
ipclab_commit=0123456789abcdef
ipclab_tree=dirty
[experiment]
name=a_x
profile=default
[warnings]
warning_1=the machine was loaded at the start (load average 1.20)
warning_2=swap in use (5 KiB)
EOF
sed -e 's/^cpu_model=.*/cpu_model=Other/' -e 's/1\.20/1.56/' -e 's/^name=a_x/name=b/' \
        -e 's/^ipclab_tree=dirty/ipclab_tree=clean/' -e 's/^profile=default/&\nroles=processes;threads/' \
        "$tmp/m/a/meta.ini" > "$tmp/m/b/meta.ini"
"$ipclab" methods --out "$tmp/methods.tex" --summary "$tmp/m/a.tsv" --summary "$tmp/m/b.tsv" "$tmp/m/a/meta.ini" "$tmp/m/b/meta.ini"
check "methods: a macro per fact, escaped" 'grep -qxF "\\newcommand{\\MethodCpuModel}{CPU \\& Co}" "$tmp/methods.tex"'
check "methods: page-table isolation and PCID, not recorded in older data and not forced" \
        'grep -qxF "\\newcommand{\\MethodPageTableIsolation}{not recorded (no pti= on the kernel command line)}" "$tmp/methods.tex" &&
         grep -qxF "\\newcommand{\\MethodPcid}{not recorded}" "$tmp/methods.tex" &&
         grep -qF "page-table isolation \\MethodPageTableIsolation, PCID \\MethodPcid, " "$tmp/methods.tex"'
mkdir -p "$tmp/m/c"
sed 's/^kernel=6.1$/&\npage_table_isolation=on\npcid=no/' "$tmp/m/a/meta.ini" > "$tmp/m/c/meta.ini"
"$ipclab" methods --out "$tmp/methods-c.tex" --summary "$tmp/m/a.tsv" "$tmp/m/c/meta.ini"
check "methods: and as recorded where meta.ini has them (on, no)" \
        'grep -qxF "\\newcommand{\\MethodPageTableIsolation}{on}" "$tmp/methods-c.tex" &&
         grep -qxF "\\newcommand{\\MethodPcid}{no}" "$tmp/methods-c.tex"'
check "methods: the paragraph quotes the macros" 'grep -qF "measured on \\MethodCpuModel{} (\\MethodCpusOnline{} CPUs online" "$tmp/methods.tex"'
check "methods: an experiment on other hardware is named" 'grep -qxF "Experiment b ran elsewhere: Other under Linux 6.1 (hypervisor: kvm, container: none)." "$tmp/methods.tex"'
check "methods: provenance, escaped, minutes, + for a dirty tree" 'grep -qxF "a\\_x & 2026-12-01 13:18 & default & host & \\texttt{0123456789+} \\\\" "$tmp/methods.tex"'
check "methods: a warning with a number once, with its range" 'grep -qxF "\\item the machine was loaded at the start (load average 1.20 to 1.56)" "$tmp/methods.tex"'
check "methods: client and server as processes, and as threads where a meta.ini says so (a's, older, does not)" \
        'grep -qxF "The client and the server ran as two processes forked by the harness; in experiment b also as two threads of one forked process (\\texttt{roles=threads}), each thread'"'"'s CPU time and placement its own." "$tmp/methods.tex"'
"$ipclab" methods --out "$tmp/methods-a.tex" --summary "$tmp/m/a.tsv" "$tmp/m/a/meta.ini"
check "methods: processes only, said so" \
        'grep -qxF "In every experiment the client and the server ran as two processes forked by the harness." "$tmp/methods-a.tex"'
check "methods: another warning once" '[ "$(grep -c "swap in use" "$tmp/methods.tex")" -eq 1 ]'
check "methods: an experiment without samples.tsv has a row that says so" \
        'grep -qF "a\\_x & & \\multicolumn{5}{l}{no samples.tsv beside its meta.ini}" "$tmp/methods.tex"'
# The fixed part of every experiment, from a real run's samples: its row,
# and the cost of a clock read that the run measured.
printf '%s\n' '[experiment]' 'title=fixed part' 'transport=pipe' 'pattern=oneway' 'size=64' 'count=100' \
        'repeat=3' 'cpus=same' > "$tmp/m/w.ini"
"$ipclab" run --out "$tmp/m/run" "$tmp/m/w.ini" > "$tmp/m/run.log" 2>&1 || cat "$tmp/m/run.log" >&2
"$ipclab" summarize "$tmp/m/run/w" > "$tmp/m/w.tsv"
"$ipclab" methods --out "$tmp/methods-w.tex" --summary "$tmp/m/w.tsv" "$tmp/m/run/w/meta.ini" || true
check "methods: a measured experiment's fixed part: median, largest, shares, cells over 10 %" \
        'grep -qE "^w & 1 & [0-9.]+ & [0-9.]+ & [0-9.]+.,.% & [0-9.]+.,.% & [01] " "$tmp/methods-w.tex"'
check "methods: the run's cost of a clock read is in the caption" \
        'grep -qE "One clock read cost [0-9.]+~ns" "$tmp/methods-w.tex"'
"$ipclab" methods --summary "$tmp/m/w.tsv" "$tmp/m/run/w/meta.ini" "$tmp/m/a/meta.ini" > /dev/null 2> "$tmp/e"
check "methods: a summary missing for a meta.ini is exit 2, said so" \
        '[ $? -eq 2 ] && grep -q "2 meta.ini files but 1 summaries" "$tmp/e"'
check "methods: with no data, a sentence says so" \
        '[ "$("$ipclab" methods)" = "\\paragraph{Machine.} No experiment of this build has data." ]'

echo "1..$n"
[ "$failed" -eq 0 ]
