#!/bin/bash
# test-init.sh: a study outside this repository, end to end.  `make
# install PREFIX=...` into a temporary prefix (DESTDIR unset); `ipclab
# init DIR` there; one small experiment file dropped into DIR/experiments;
# `make all` in DIR gives its paper with the experiment's figure, table
# and generated section; a second `make all` does nothing; `make
# reproduce` ends with the reviewer's report; `make check` passes, saying
# whether it asks every claim to hold (CHECK=holds) or to be decided.  Also: init refuses a non-empty DIR and a file, writing nothing,
# and a DESTDIR install stages the same tree under DESTDIR.
set -u
cd "$(dirname "$0")/../.."
. harness/tests/tap.sh
tmp=$(mktemp -d)
trap '[ -n "${KEEP-}" ] || rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

for tool in gnuplot latexmk pdftotext; do
        command -v $tool > /dev/null || { skip "a study's make all builds its paper" "$tool is not installed"; echo "1..$n"; exit 0; }
done

make --no-print-directory install PREFIX="$prefix" > "$tmp/install.log" 2>&1; rc=$?
check "make install PREFIX=... succeeds" '[ $rc -eq 0 ]' || sed 's/^/# /' "$tmp/install.log"
check "it installs bin/ipclab, the steps, common.gp, ipclab.sty and the template" \
        '[ -x "$prefix/bin/ipclab" ] && [ -f "$prefix/share/ipclab/mk/study.mk" ] &&
         [ -f "$prefix/share/ipclab/mk/standalone.mk" ] && [ -f "$prefix/share/ipclab/plots/common.gp" ] &&
         [ -f "$prefix/share/ipclab/paper/ipclab.sty" ] && [ -f "$prefix/share/ipclab/template/Makefile" ]'

make --no-print-directory install PREFIX=/opt/ipclab DESTDIR="$tmp/stage" > "$tmp/stage.log" 2>&1; rc=$?
check "make install DESTDIR=... stages the same tree under DESTDIR/PREFIX" \
        '[ $rc -eq 0 ] && [ -x "$tmp/stage/opt/ipclab/bin/ipclab" ] &&
         [ "$(cd "$prefix" && find . | sort)" = "$(cd "$tmp/stage/opt/ipclab" && find . | sort)" ]'

study=$tmp/study
"$prefix/bin/ipclab" init "$study" > "$tmp/init.log" 2>&1; rc=$?
check "ipclab init DIR succeeds" '[ $rc -eq 0 ]' || sed 's/^/# /' "$tmp/init.log"
check "DIR has experiments/ with an example, a Makefile, paper/paper.tex and a README" \
        '[ -f "$study/experiments/example.ini" ] && [ -f "$study/Makefile" ] &&
         [ -f "$study/paper/paper.tex" ] && grep -q "make all" "$study/README.md" && grep -q "make check" "$study/README.md"'
check "its Makefile includes the installed steps and names the installed ipclab" \
        'grep -qx "IPCLAB_SHARE := $(cd "$prefix" && pwd -P)/share/ipclab" "$study/Makefile" &&
         grep -qx "IPCLAB := $(cd "$prefix" && pwd -P)/bin/ipclab" "$study/Makefile"'
check "it has the example plugin transports/pipe-packet.c, which the example experiment names" \
        '[ -f "$study/transports/pipe-packet.c" ] && grep -q "^transport=.*pipe-packet" "$study/experiments/example.ini"'
check "... so the example is invalid until the plugin is built" \
        '! "$prefix/bin/ipclab" check "$study/experiments/example.ini" > /dev/null 2>&1'
(cd "$study" && make transports > "$tmp/transports.log" 2>&1); rc=$?
check "make transports builds it with the installed pkg-config file (status $rc)" \
        '[ $rc -eq 0 ] && [ -f "$study/transports/pipe-packet.so" ]' || sed 's/^/# /' "$tmp/transports.log"
check "the example experiment is then valid" '"$prefix/bin/ipclab" check "$study/experiments/example.ini" > /dev/null'

before=$(cd "$study" && find . | sort)
"$prefix/bin/ipclab" init "$study" > "$tmp/again.log" 2>&1; rc=$?
check "ipclab init refuses a non-empty DIR (status $rc) and says why" \
        '[ $rc -eq 2 ] && grep -q "is not empty" "$tmp/again.log"'
check "... and writes nothing there" '[ "$(cd "$study" && find . | sort)" = "$before" ]'
touch "$tmp/afile"
"$prefix/bin/ipclab" init "$tmp/afile" > "$tmp/file.log" 2>&1; rc=$?
check "ipclab init refuses a file (status $rc)" '[ $rc -eq 2 ] && grep -q "not a directory" "$tmp/file.log"'
mkdir "$tmp/empty"
"$prefix/bin/ipclab" init "$tmp/empty" > /dev/null 2>&1; rc=$?
check "ipclab init accepts an empty DIR" '[ $rc -eq 0 ] && [ -f "$tmp/empty/Makefile" ]'

# The study's one experiment, as someone who read the README writes it.
# The example stays: the paper has both.
cat > "$study/experiments/pipe-rt.ini" <<'INI'
[experiment]
title=Round trips through a pipe in a new study
transport=pipe
size=64;1KiB
pattern=roundtrip
count=200
repeat=2
INI
# A hand-written section for the example, quoting a number its file
# declares, and a hand-drawn figure reading its rows with sel() (`ipclab
# select`): what make install must provide for them is all there is.
cat >> "$study/experiments/example.ini" <<'INI'

[number ExamplePipe]
where=transport=pipe,size=64
value=lat_p50_ns
unit=us
INI
mkdir -p "$study/paper/sections" "$study/plots"
cat > "$study/paper/sections/example.tex" <<'TEX'
\section{The example, by hand}
A round trip of 64~B through a pipe took \ExamplePipe~\us{} here.
TEX
cat > "$study/plots/example-main.gp" <<'GP'
if (!exists("plotdir")) plotdir = "plots"
load plotdir."/common.gp"
set xlabel "message size (B)"
plot sel(summary, "transport=pipe", "size_B,lat_p50_ns") using 1:2 with linespoints title "pipe drawn by hand"
GP
# The study runs with no PATH to this tree: only what is installed.
(cd "$study" && nice make all > "$tmp/all.log" 2>&1); rc=$?
check "make all in the study succeeds" '[ $rc -eq 0 ]' || tail -30 "$tmp/all.log" | sed 's/^/# /'
check "it measured both experiments into the study's data/" \
        '[ -s "$study/data/pipe-rt/samples.tsv" ] && [ -s "$study/data/example/samples.tsv" ]'
check "the paper exists" '[ -s "$study/paper/paper.pdf" ]'
text=$(pdftotext "$study/paper/paper.pdf" - 2>/dev/null | tr -s ' \n' '  ')
check "the paper has the experiment's generated section (its title)" \
        '[ -f "$study/paper/generated/section-pipe-rt.tex" ] && grep -qF "Round trips through a pipe in a new study" <<<"$text"'
fig=$study/build/figures/pipe-rt-main.pdf
# Every word of the figure (its axis labels, legend) is in the paper.
words=$(pdftotext "$fig" - 2>/dev/null | tr -s ' \n' '\n\n' | grep -E '^[A-Za-z][A-Za-z-]{3,}$' | sort -u)
missing=$(for w in $words; do grep -qF -- "$w" <<<"$text" || echo "$w"; done)
check "the paper has the experiment's figure (words: $(echo $words | head -c 80); missing: ${missing:-none})" \
        '[ -s "$fig" ] && [ -n "$words" ] && [ -z "$missing" ] &&
         grep -qF "\ipclabFigure{pipe-rt-main}" "$study/paper/generated/section-pipe-rt.tex" &&
         grep -qE "Figure [0-9]+: .* of experiment pipe-rt" <<<"$text"'
check "the paper has the experiment's table" \
        '[ -s "$study/paper/generated/table-pipe-rt-main.tex" ] &&
         grep -qF "\ipclabTable{pipe-rt-main}" "$study/paper/generated/section-pipe-rt.tex" &&
         grep -qE "Table [0-9]+: .* of experiment pipe-rt" <<<"$text"'
check "the paper describes the machine (methods from meta.ini)" 'grep -qF "The data were measured on" <<<"$text"'
us=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["transport"] == "pipe" && $c["size_B"] == 64 { print $c["lat_p50_ns"] / 1000 }' "$study/build/summary/example.tsv")
check "a hand-written section quotes the number its experiment file declares ($us us)" \
        'grep -qE "The example, by hand .*took [0-9.,]+ .s here" <<<"$text" &&
         grep -qE "^\\\\newcommand\{\\\\ExamplePipe\}\{[0-9.]+\}$" "$study/paper/generated/macros.tex" &&
         awk -v u="$us" "BEGIN { exit !(u > 0) }"' || grep -i "example" "$study/paper/generated/macros.tex" | sed 's/^/# /'
check "a hand-drawn figure reads its rows through ipclab select" \
        'pdftotext "$study/build/figures/example-main.pdf" - 2>/dev/null | grep -qF "pipe drawn by hand"' ||
        tail -5 "$study/build/logs/plot-example-main.log" 2>/dev/null | sed 's/^/# /'

(cd "$study" && make all > "$tmp/all2.log" 2>&1); rc=$?
check "a second make all in the study rebuilds nothing" \
        '[ $rc -eq 0 ] && ! grep -qE "measuring|SUMMARY|PLOT|TABLE|SECTION|LATEX" "$tmp/all2.log"' ||
        sed 's/^/# /' "$tmp/all2.log"
(cd "$study" && nice make reproduce > "$tmp/repro.log" 2>&1); rc=$?
check "make reproduce in the study ends with its report (both experiments' figures)" \
        '[ $rc -eq 0 ] && [ -s "$study/build/repro/report.pdf" ] &&
         pdftotext "$study/build/repro/report.pdf" - | tr -s " \n" "  " | grep -qF "pipe-rt-main: committed data in grey"' ||
        tail -20 "$tmp/repro.log" | sed 's/^/# /'
(cd "$study" && make check > "$tmp/check.log" 2>&1); rc=$?
check "make check in the study passes" '[ $rc -eq 0 ]' || tail -20 "$tmp/check.log" | sed 's/^/# /'
check "... and says what it checks: every claim holds (CHECK=holds, the default)" \
        'grep -qF "every claim holds on data/ (CHECK=holds)" "$tmp/check.log" &&
         grep -qF "every claim holds: met" "$tmp/check.log"'
(cd "$study" && make check CHECK=decided > "$tmp/decided.log" 2>&1); rc=$?
check "make check CHECK=decided asks only that every claim be decided" \
        '[ $rc -eq 0 ] && grep -qF "every claim is decided (holds or fails) on data/ (CHECK=decided)" "$tmp/decided.log"' ||
        tail -5 "$tmp/decided.log" | sed 's/^/# /'
(cd "$study" && make check CHECK=mostly > "$tmp/mostly.log" 2>&1); rc=$?
check "make check CHECK=mostly is refused, naming the two values" \
        '[ $rc -ne 0 ] && grep -qF "CHECK=mostly: holds or decided" "$tmp/mostly.log"'

# A study made by the source tree's binary uses this tree's steps, and
# its paper is its own (LaTeX must not find this tree's paper.tex first).
harness/ipclab init "$tmp/fromtree" > /dev/null 2>&1; rc=$?
(cd "$tmp/fromtree" && nice make all > "$tmp/fromtree.log" 2>&1); rc2=$?
check "ipclab init from the source tree: the study uses this tree and builds its own paper" \
        '[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && grep -qx "IPCLAB_SHARE := $(pwd -P)" "$tmp/fromtree/Makefile" &&
         pdftotext "$tmp/fromtree/paper/paper.pdf" - | head -n 3 | grep -q "A study of inter-process communication"' ||
        tail -10 "$tmp/fromtree.log" | sed 's/^/# /'

echo "1..$n"
[ "$failed" -eq 0 ]
