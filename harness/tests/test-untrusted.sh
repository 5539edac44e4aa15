#!/bin/bash
# test-untrusted.sh: a stranger's study is safe to build (README, "Building
# a stranger's study").  Everything here is hostile input ipclab must
# refuse or carry as text, never run and never read past:
#
#   - data readers (summarize, latency, check, plot): a FIFO, a device, a
#     symbolic link out of the study, a file over its size limit, a gzip
#     bomb, as samples.tsv, meta.ini, latencies.tsv.gz or a published file;
#   - numbers: BANANA, an empty field, 0x10, -5, inf, 1e308 where
#     samples.tsv holds a number, a tab in a meta.ini value: an error naming
#     the file, the line and the column, never a 0;
#   - names make reads (experiment, figure, table and published file names)
#     and what `ipclab check` must refuse because the build cannot make it;
#   - gnuplot: values that would run a command in a double-quoted string
#     (backquotes), close a string, or end a line, in a study built with
#     `ipclab init` and `make all`, and a canary file no command may create.
#
# Hangs are caught by a guard (timeout 120) that only turns a hang into a
# failure: every check waits for the command's exit, not for a time.
set -u
cd "$(dirname "$0")/../.."
root=$PWD
ipclab=$root/harness/ipclab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. harness/tests/tap.sh
canary=$tmp/canary
# guard CMD...: CMD with its output in $out and status in $rc; a hang
# (exit 124 of the guard) is a failure of its own.
guard() { out=$(timeout 120 "$@" 2>&1 </dev/null); rc=$?; }
no_hang() { [ "$rc" -ne 124 ]; }

# ---- 1. data readers: what is not a regular file of sane size ---------------
src=data/kernel-latency
fresh() {   # fresh NAME: a copy of $src's data in $tmp/NAME
        rm -rf "$tmp/$1"
        mkdir -p "$tmp/$1"
        cp "$src"/samples.tsv "$src"/meta.ini "$src"/latencies.tsv.gz "$tmp/$1/"
}
fresh ok
guard "$ipclab" summarize "$tmp/ok"
check "the copy of $src summarizes (exit 0)" '[ $rc -eq 0 ]' || echo "# $out"

for kind in samples.tsv meta.ini latencies.tsv.gz; do
        fresh fifo
        rm "$tmp/fifo/$kind" && mkfifo "$tmp/fifo/$kind"
        guard "$ipclab" summarize "$tmp/fifo"
        check "$kind a FIFO: summarize exits 2 at once, naming it" \
                'no_hang && [ $rc -eq 2 ] && grep -q "fifo/$kind: not a regular file: it is a FIFO" <<<"$out"' || echo "# $rc $out"
        fresh dev
        rm "$tmp/dev/$kind" && ln -s /dev/zero "$tmp/dev/$kind"
        guard "$ipclab" summarize "$tmp/dev"
        check "$kind a link to /dev/zero: refused as a character device, nothing read" \
                'no_hang && [ $rc -eq 2 ] && grep -q "dev/$kind: not a regular file: it is a character device" <<<"$out"' || echo "# $rc $out"
done
fresh fifo
rm "$tmp/fifo/latencies.tsv.gz" && mkfifo "$tmp/fifo/latencies.tsv.gz"
guard "$ipclab" latency "$tmp/fifo"
check "latencies.tsv.gz a FIFO: ipclab latency exits 2, naming it" \
        'no_hang && [ $rc -eq 2 ] && grep -q "latencies.tsv.gz: not a regular file: it is a FIFO" <<<"$out"'

# A link out of the tree: never followed, never quoted.
fresh link
rm "$tmp/link/samples.tsv" && ln -s /etc/passwd "$tmp/link/samples.tsv"
guard "$ipclab" summarize "$tmp/link"
check "samples.tsv a link to /etc/passwd: refused, naming the link, quoting nothing of it" \
        '[ $rc -eq 2 ] && grep -q "link/samples.tsv: a symbolic link to /etc/passwd, outside" <<<"$out" && ! grep -q "root:" <<<"$out"' ||
        echo "# $out"
# ... and a link inside it is as good as the file.
fresh inlink
mv "$tmp/inlink/meta.ini" "$tmp/inlink/meta-real.ini" && ln -s meta-real.ini "$tmp/inlink/meta.ini"
guard "$ipclab" summarize "$tmp/inlink"
check "meta.ini a link to a file beside it: read (exit 0)" '[ $rc -eq 0 ]' || echo "# $out"

# Sizes: stated limits, named.
fresh big
{ cat "$src/samples.tsv"; head -c $((65 << 20)) /dev/zero | tr '\0' '#'; } > "$tmp/big/samples.tsv"
guard "$ipclab" summarize "$tmp/big"
check "a 65 MiB samples.tsv: too large for a table (at most 64 MiB), named" \
        '[ $rc -eq 2 ] && grep -q "big/samples.tsv: [0-9]* bytes is too large for a table (at most 64.0 MiB)" <<<"$out"' || echo "# $out"
fresh bomb
{ printf 'env\tmachine\tcell\trep\tkind\tlower_ns\tupper_ns\tcount\n'; head -c $((300 << 20)) /dev/zero; } | gzip -1 > "$tmp/bomb/latencies.tsv.gz"
guard "$ipclab" latency "$tmp/bomb"
check "a gzip bomb as latencies.tsv.gz: refused, named (a line past 1 MiB)" \
        '[ $rc -eq 2 ] && grep -q "bomb/latencies.tsv.gz:2: a line longer than 1048576 bytes" <<<"$out"' || echo "# $out"
fresh bomb2
{ printf 'env\tmachine\tcell\trep\tkind\tlower_ns\tupper_ns\tcount\n'; yes "$(printf 'host\tvm\t0\t0\troundtrip\t5\t5\t1')" | head -c $((600 << 20)); } |
        gzip -1 > "$tmp/bomb2/latencies.tsv.gz"
guard "$ipclab" summarize "$tmp/bomb2"
check "600 MiB of latency rows in a small latencies.tsv.gz: refused past 512 MiB, named" \
        '[ $rc -eq 2 ] && grep -q "bomb2/latencies.tsv.gz: inflates to more than 512 MiB" <<<"$out"' || echo "# $out"

# ---- 2. numbers: an error naming file, line and column, never a 0 -------------
col_of() { head -1 "$1" | tr '\t' '\n' | grep -nx "$2" | cut -d: -f1; }
# bad_field COLUMN VALUE: line 2's COLUMN set to VALUE; summarize must say where.
bad_field() {
        fresh num
        where="num/samples.tsv:2: column $(col_of "$tmp/num/samples.tsv" "$1") ($1) is '$2'"
        awk -F'\t' -v OFS='\t' -v c="$(col_of "$tmp/num/samples.tsv" "$1")" -v v="$2" 'NR == 2 { $c = v } { print }' \
                "$src/samples.tsv" > "$tmp/num/samples.tsv"
        guard "$ipclab" summarize "$tmp/num"
        check "$1='$2': summarize exits 2 naming samples.tsv:2 and the column" \
                '[ $rc -eq 2 ] && grep -qF "$where" <<<"$out"' || echo "# $out"
        guard "$ipclab" latency "$tmp/num"
        check "$1='$2': ipclab latency refuses it too" '[ $rc -eq 2 ] && grep -qF "$where" <<<"$out"'
}
for v in BANANA '' 0x10 -5 inf 1e308 ' 7' 18446744073709551616; do
        bad_field elapsed_ns "$v"
done
bad_field client_cpu_ns 1.5
bad_field status okay
bad_field cell -1
bad_field machine '../x'
bad_field transport 'pipe`touch canary`'
check "no number was taken for 0: nothing in the summaries" '[ ! -e "$canary" ]'
# A repetition twice.
fresh dup
sed -n 2p "$src/samples.tsv" >> "$tmp/dup/samples.tsv"
guard "$ipclab" summarize "$tmp/dup"
check "a repetition given twice: exit 2, both lines named" \
        '[ $rc -eq 2 ] && grep -q "dup/samples.tsv:[0-9]*: repetition 0 of cell 0 (env host, machine vm) is there twice, first at line 2" <<<"$out"' ||
        echo "# $out"
# meta.ini: a tab in a value would shift every summary row by a field.
fresh tab
sed -i "s/^memcpy_MiBps_64=.*/memcpy_MiBps_64=17096.5$(printf '\t')BANANA/" "$tmp/tab/meta.ini"
guard "$ipclab" summarize "$tmp/tab"
where="tab/meta.ini: [bounds] memcpy_MiBps_64: '17096.5\tBANANA' is not a positive number"
check "a tab in meta.ini's memcpy bound: exit 2, naming meta.ini, [bounds] and the key" \
        '[ $rc -eq 2 ] && grep -qF "$where" <<<"$out"' || echo "# $out"
# The summary of good data has exactly its header's fields on every row.
guard "$ipclab" summarize "$tmp/ok"
check "every summary row has the header's number of fields" \
        '[ "$(awk -F"\t" "{ print NF }" <<<"$out" | sort -u | wc -l)" -eq 1 ]'

# ---- 3. check refuses what the build cannot make, at its line -----------------
ck=$tmp/ck
mkdir -p "$ck/experiments" "$ck/data/published"
base='[experiment]
title=t
transport=pipe;fifo
size=64;4096
count=10
'
# refuses WHAT GROUPS WANT: base + GROUPS as experiments/x.ini; check exits 2
# with a line matching WANT (FILE:LINE: [group] key: message).
refuses() {
        want=$3
        printf '%s\n%s\n' "$base" "$2" > "$ck/experiments/x.ini"
        guard "$ipclab" check "$ck/experiments/x.ini"
        check "check refuses $1" '[ $rc -eq 2 ] && grep -q -- "$want" <<<"$out"' || echo "# $out"
}
refuses "a y column listed twice" $'[figure a]\ny=elapsed_ns;elapsed_ns' "x.ini:[0-9]*: \[figure a\] y: 'elapsed_ns' is listed twice"
refuses "a series axis listed twice (size and size_B)" $'[figure a]\nx=transport\nseries=size;size_B' "\[figure a\] series: 'size_B' is listed twice"
refuses "a row axis listed twice" $'[table b]\nrows=transport;transport' "\[table b\] rows: 'transport' is listed twice"
refuses "a value column listed twice" $'[table b]\ncolumns=elapsed_ns;lat_p50_ns;elapsed_ns' "\[table b\] columns: 'elapsed_ns' is listed twice"
refuses "value= listed twice" $'[table b]\ncolumns=size\nvalue=lat_p50_ns;lat_p50_ns' "\[table b\] value: 'lat_p50_ns' is listed twice"
refuses "a bound listed twice" $'[figure a]\nx=size\nbounds=memcpy;memcpy' "\[figure a\] bounds: 'memcpy' is listed twice"
refuses "a ratio listed twice" $'[table b]\ncolumns=transport\nratio=pipe/fifo;pipe/fifo' "\[table b\] ratio: 'pipe/fifo' is listed twice"
refuses "claim text beginning with [" $'[claim c]\ntext=[faster than\nfaster=transport=pipe\nslower=transport=fifo\nmetric=elapsed' \
        "\[claim c\] text: begins with '\[', which LaTeX reads"
refuses "a control character in a figure title" "$(printf '[figure a]\ntitle=a\033[2Jb')" "\[figure a\] title: a control character"
refuses "a 300,000-character title" "[figure a]
title=$(head -c 300000 /dev/zero | tr '\0' t)" "\[figure a\] title: 300000 bytes, more than the 500 it may have"
refuses "also= naming a missing experiment" $'[figure a]\nalso=missing' "\[figure a\] also: no experiment 'missing' (no file .*experiments/missing.ini)"
printf 'n\tsize_B\telapsed_ns\na\t64\t1\n' > "$ck/data/published/with space.tsv"
refuses "a published file name with a space" $'[figure a]\npublished=with space.tsv\npublished_x=size_B\npublished_y=elapsed_ns' \
        "\[figure a\] published: 'with space.tsv': a published file's name is letters"
printf 'n\tsize_B\telapsed_ns\na\t64\t1\n' > "$ck/data/published/\$(shell touch canary).tsv"
refuses "a published file name holding \$(shell ...)" \
        $'[figure a]\npublished=$(shell touch canary).tsv\npublished_x=size_B\npublished_y=elapsed_ns' \
        "a published file's name is letters"
printf 'n\tsize_B\telapsed_ns\n\xff\xfe\t64\t1\n' > "$ck/data/published/latin.tsv"
refuses "a published file that is not UTF-8" $'[figure a]\npublished=latin.tsv\npublished_x=size_B\npublished_y=elapsed_ns' \
        "published: .*latin.tsv:2: column 1 (n) is .*: not UTF-8"
printf 'n\tsize_B\telapsed_ns\na\t64\t1e60\n' > "$ck/data/published/huge.tsv"
refuses "a published number digits= would cut at 64 bytes" \
        $'[table b]\ndigits=2\npublished=huge.tsv\npublished_rows=size=size_B\npublished_value=elapsed_ns' \
        "huge.tsv:2: column 3 (elapsed_ns) is '1e60': a number beyond what a table prints"
ln -s /etc/passwd "$ck/data/published/passwd.tsv"
refuses "a published file that is a link to /etc/passwd, quoting nothing of it" \
        $'[figure a]\npublished=passwd.tsv\npublished_x=size_B\npublished_y=elapsed_ns' \
        "published: .*passwd.tsv: a symbolic link to /etc/passwd, outside"
check "... no line of /etc/passwd in the message" '! grep -q "root:" <<<"$out"'
head -c $((65 << 20)) /dev/zero | tr '\0' '#' > "$ck/data/published/big.tsv"
refuses "a 65 MiB published file, not read" $'[figure a]\npublished=big.tsv\npublished_x=size_B\npublished_y=elapsed_ns' \
        "big.tsv: [0-9]* bytes is too large for a table"
rm -f "$ck/data/published/big.tsv"
refuses "repeat= beyond 10000" 'repeat=10001' "\[experiment\] repeat: 10001 is out of range"
printf '%s\nrepeat=9000\n' "$base" | sed 's/^size=.*/size=64;128;256/' > "$ck/experiments/x.ini"
guard "$ipclab" check "$ck/experiments/x.ini"
check "check refuses more repetitions than one run may keep (3 x 9000)" \
        '[ $rc -eq 2 ] && grep -q "repeat: 6 cells x 9000 repetitions x 1 environments = 54000 repetitions, more than the 10000" <<<"$out"' || echo "# $out"
# Two experiments, one output name: x.ini's [figure y-main] and x-y.ini's default figure main.
printf '%s\n[figure y-main]\ny=elapsed_ns\n' "$base" > "$ck/experiments/x.ini"
printf '%s' "$base" > "$ck/experiments/x-y.ini"
guard "$ipclab" check "$ck/experiments/x.ini" "$ck/experiments/x-y.ini"
check "check refuses two experiments making one output (x.ini [figure y-main], x-y.ini main)" \
        '[ $rc -eq 2 ] && grep -q "x-y.ini: \[figure main\]: its output is x-y-main, as .*x.ini.s \[figure y-main\]" <<<"$out"' || echo "# $out"
guard "$ipclab" check "$ck/experiments/x-y.ini"
check "... each alone is fine" '[ $rc -eq 0 ]'
printf '%s' "$base" > "$ck/experiments/a b.ini"
guard "$ipclab" check "$ck/experiments/a b.ini"
check "check refuses an experiment name with a space" '[ $rc -eq 2 ] && grep -q "name .a b. must be letters" <<<"$out"'
# A message quoting a file's bytes carries no terminal control.
printf '%s\nverify=\033]0;retitled\007\n' "$base" > "$ck/experiments/x.ini"
guard "$ipclab" check "$ck/experiments/x.ini"
check "an escape sequence in a value: the error quotes it without the escape" \
        '[ $rc -eq 2 ] && grep -qF "'"'"'?]0;retitled?'"'"' is not true or false" <<<"$out" && ! grep -q $'"'"'\033'"'"' <<<"$out"' || echo "# $out"
check "no command ran from any of these files" '[ ! -e "$tmp/canary" ] && [ ! -e canary ] && [ ! -e "$ck/canary" ]'

# ---- 4. a stranger's study: ipclab init, hostile text and data, make all ------
study_ok=
for tool in gnuplot latexmk pdftotext; do
        command -v $tool >/dev/null || study_ok="$tool is not installed"
done
if [ -n "$study_ok" ]; then
        skip "a hostile study built with make all" "$study_ok"
        echo "1..$n"
        [ "$failed" -eq 0 ]
        exit
fi
prefix=$tmp/prefix study=$tmp/study
make --no-print-directory install PREFIX="$prefix" > "$tmp/install.log" 2>&1 &&
        "$prefix/bin/ipclab" init "$study" > "$tmp/init.log" 2>&1
check "install and ipclab init: a study" '[ $? -eq 0 ] && [ -f "$study/Makefile" ]' || tail -3 "$tmp/install.log"
# Its first make all measures the example (a few seconds): data of its own.
(cd "$study" && make all) > "$tmp/make0.log" 2>&1
check "the study's own make all builds its paper" '[ $? -eq 0 ] && [ -s "$study/paper/paper.pdf" ]' ||
        tail -5 "$tmp/make0.log" | sed 's/^/# /'

# Every text of an experiment (titles, caption, a published series and
# title, a claim) holds what would run a command in gnuplot (a backquote in
# a double-quoted string; a closing quote and system()), in make
# ($(shell ...)) or in LaTeX (\write18); its data is the example's (the
# same cells: current, nothing is measured).
pay="\`touch $canary\` x'; system('touch $canary'); 'y\"; system(\"touch $canary\"); \"z \$(shell touch $canary) \\write18{touch $canary} @set_size_axis"
short="\`touch $canary\` x'; system('touch $canary'); 'y"   # short enough for any title
sed -n '/^\[experiment\]/,/^\[profile/p' "$study/experiments/example.ini" | sed '$d' |
        sed "s|^title=.*|title=hostile $short|" > "$study/experiments/hostile.ini"
cat >> "$study/experiments/hostile.ini" <<INI

[figure f]
title=F $short
caption=C $pay
x=size
series=transport
published=hostile.tsv
published_x=size_B
published_y=elapsed_ns
published_series=impl
published_title=P $short

[table t]
title=T $short

[claim c]
text=Claim $pay
faster=transport=pipe
slower=transport=unix-stream
metric=roundtrip_latency
by=1
INI
mkdir -p "$study/data/published"
printf 'impl\tsize_B\telapsed_ns\nI %s\t64\t5000\nI %s\t4096\t9000\n' "$pay" "$pay" > "$study/data/published/hostile.tsv"
cp -r "$study/data/example" "$study/data/hostile"
(cd "$study" && "$prefix/bin/ipclab" check experiments/hostile.ini) > "$tmp/hcheck.log" 2>&1
check "the hostile experiment is valid (its text is only text)" '[ $? -eq 0 ]' || sed 's/^/# /' "$tmp/hcheck.log"
(cd "$study" && make all) > "$tmp/make1.log" 2>&1; rc=$?
check "make all builds the paper with it (exit 0), measuring nothing" \
        '[ $rc -eq 0 ] && ! grep -q "measuring" "$tmp/make1.log"' || tail -8 "$tmp/make1.log" | sed 's/^/# /'
check "... and no payload ran: no canary (gnuplot, make, LaTeX, the shell)" '[ ! -e "$canary" ]'
gp=$study/build/figures/hostile-f.gp
check "... the payloads are in gnuplot string literals, single-quoted" \
        'grep -qF "title '"'"'published (P \`touch" "$gp" && [ -z "$(grep -v "^#" "$gp" | grep touch | grep -v " title '"'"'")" ]' ||
        grep -n touch "$gp" | head -3 | sed 's/^/# /'
text=$(pdftotext "$study/paper/paper.pdf" - 2>/dev/null)
check "... the paper prints them as text (\\write18 and \$(shell ...) literally)" \
        'grep -qF "write18{touch" <<<"$text" && grep -qF "(shell touch" <<<"$text"'

# A samples.tsv whose transport closes a string and calls system(): refused
# by summarize, the build stops, nothing runs.  The copy keeps every file's
# time (cp -a): with cp -r each file has the time it was copied at, and
# when transports/pipe-packet.c lands a clock tick after its .so (a busy
# machine, a directory listing the .so first), make rebuilds the plugin,
# whose new SHA-256 makes the data stale, and make all measures the
# example again instead of summarizing the edited file.
cp -a "$study" "$tmp/study2"
rm -rf "$tmp/study2/experiments/hostile.ini" "$tmp/study2/data/hostile"
awk -F'\t' -v OFS='\t' -v c="$(col_of "$tmp/study2/data/example/samples.tsv" transport)" \
        -v v="pipe')+system('touch $canary')+('" 'NR == 2 { $c = v } { print }' "$study/data/example/samples.tsv" \
        > "$tmp/study2/data/example/samples.tsv"
rm -rf "$tmp/study2/build"
(cd "$tmp/study2" && make all) > "$tmp/make2.log" 2>&1; rc=$?
check "a transport closing a quote with system(): make all fails at summarize, naming line and column" \
        '[ $rc -ne 0 ] && ! grep -q "^measuring" "$tmp/make2.log" &&
         grep -q "samples.tsv:2: column [0-9]* (transport) is" "$tmp/make2.log" && [ ! -e "$canary" ]' ||
        sed 's/^/# /' "$tmp/make2.log"
# An experiment file whose name holds $(shell ...) or ';': make stops as it
# reads its makefiles, make -n clean too, and nothing runs.
cp "$study/experiments/example.ini" "$tmp/study2/experiments/x;touch\${IFS}$(basename "$canary");.ini"
cp "$study/experiments/example.ini" "$tmp/study2/experiments/\$(shell touch $(basename "$canary")).ini"
(cd "$tmp/study2" && make -n clean) > "$tmp/make3.log" 2>&1; rc=$?
check "experiment file names with ';' and \$(shell ...): make -n clean stops, naming them" \
        '[ $rc -ne 0 ] && grep -q "files whose names make cannot read" "$tmp/make3.log"' || tail -3 "$tmp/make3.log" | sed 's/^/# /'
(cd "$tmp/study2" && make all) > "$tmp/make4.log" 2>&1; rc=$?
check "... make all too, and no canary anywhere" \
        '[ $rc -ne 0 ] && [ ! -e "$canary" ] && [ ! -e "$tmp/study2/$(basename "$canary")" ]'

echo "1..$n"
[ "$failed" -eq 0 ]
