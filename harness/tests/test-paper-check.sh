#!/bin/bash
# test-paper-check.sh: `ipclab paper-check`, the built paper read as a
# reader reads it (harness/report/papercheck.h).
#
# 1. A small document built from a real run's generated section, figure
#    and table passes; each thing the check looks for, broken once in it
#    (a float too large, an overfull line, an undefined reference and
#    citation, a figure not built, a table left out, a claim lost, two
#    series drawn alike, a key too long, a caption without its filter or
#    in another unit than its table, a table scaled down), fails it with
#    its own message.
# 2. This repository's paper, built by `make paper` in a temporary copy of
#    the tree from the committed data, passes.
# 3. A study made by `ipclab init` with more series and more claims than
#    the shipped experiments (eight transports, twenty claims) passes
#    `make paper-check` after `make all`.
set -u
cd "$(dirname "$0")/../.."
src=$PWD
ipclab=$PWD/harness/ipclab
tmp=$(mktemp -d)
trap '[ -n "${KEEP-}" ] && echo "# kept $tmp" || rm -rf "$tmp"' EXIT
. harness/tests/tap.sh

for tool in pdflatex latexmk pdftotext gnuplot; do
        if ! command -v $tool > /dev/null; then
                skip "the paper check" "$tool is not installed (poppler-utils gives pdftotext)"
                echo "1..$n"
                exit 0
        fi
done

# ---- 1. each check can fail ---------------------------------------------------------
d=$tmp/doc
mkdir -p "$d/experiments" "$d/generated" "$d/figures" "$d/data"
cat > "$d/experiments/t.ini" <<'EOF'
[experiment]
title=Two transports
transport=pipe;unix-stream
size=64;4KiB
pattern=roundtrip
count=100
repeat=5
warmup=5

[claim fast-pipe]
text=A pipe beats a Unix socket
faster=transport=pipe
slower=transport=unix-stream
metric=roundtrip_latency

[figure f]
where=size<=4KiB
series=transport

[table t]
where=transport=pipe|unix-stream
rows=transport
columns=size
value=lat_p50_ns
unit=us
EOF
# As make runs them, from the study's top directory.
cd "$d"
out=$("$ipclab" run --out data experiments/t.ini 2>&1) || not_ok "the small experiment runs" "$out"
"$ipclab" summarize data/t > s.tsv
"$ipclab" plot experiments/t.ini f --summary s.tsv --facts facts.tex --out figures/t-f.gp &&
        (cd figures && gnuplot -e "plotdir='$src/plots'; out='t-f.pdf'" t-f.gp) &&
        "$ipclab" table experiments/t.ini t --summary s.tsv --out generated/table-t-t.tex &&
        "$ipclab" section experiments/t.ini --summary s.tsv --meta data/t/meta.ini --out generated/section-t.tex &&
        cp facts.tex generated/facts.tex || not_ok "plot, table and section of the small experiment"
cd "$src"
cp -a "$d" "$tmp/pristine"

# build EXTRA: the document with EXTRA before its end, built twice (the
# labels); then the check on it, its output in $tmp/check.out, its status
# in $rc.
build() {
        {
                printf '\\documentclass[10pt,a4paper]{article}\n\\usepackage[T1]{fontenc}\n'
                printf '\\usepackage[text={16cm,24.5cm},centering]{geometry}\n\\usepackage{ipclab}\n'
                printf '\\renewcommand{\\ipclabFigDir}{figures/}\n\\begin{document}\n\\input{generated/section-t}\n'
                printf 'The claims: t/fast-pipe.\n%s\n\\end{document}\n' "$1"
        } > "$d/doc.tex"
        (cd "$d" && for i in 1 2; do TEXINPUTS=.:$src/paper: pdflatex -interaction=nonstopmode doc.tex > /dev/null 2>&1; done)
        "$ipclab" paper-check --log "$d/doc.log" --pdf "$d/doc.pdf" --figures "$d/figures" --sections "$d/generated" \
                "$d/experiments/t.ini" > "$tmp/check.out" 2>&1
        rc=$?
}
# broken WHAT MESSAGE: the check failed (status 1) with MESSAGE.
broken() {
        want=$2
        check "fails on $1: \"$2\"" '[ $rc -eq 1 ] && grep -qF -- "$want" "$tmp/check.out"' || sed 's/^/# /' "$tmp/check.out"
}
restore() { rm -rf "$d" && cp -a "$tmp/pristine" "$d"; }

build ""
check "a sound paper passes: no word, status 0" '[ $rc -eq 0 ] && [ ! -s "$tmp/check.out" ]' || sed 's/^/# /' "$tmp/check.out"
build '\begin{figure}[htbp]\centering\rule{1cm}{40cm}\caption{A tall one.}\end{figure}'
broken "a float too large for its page" "a float does not fit its page"
build '\noindent\rule{19cm}{1pt}\par'
broken "an overfull line" "Overfull \\hbox"
build 'See Section~\ref{sec:nowhere}.'
broken "an undefined reference" "Reference \`sec:nowhere' on page"
build 'After~\cite{nobody}.'
broken "an undefined citation" "Citation \`nobody' on page"
rm "$d/figures/t-f.pdf"
build ""
broken "a figure not built" "figure t-f not built"
broken "a figure not in the paper" "figure t-f is not in the paper"
restore
sed -i 's/\\ipclabTable{t-t}//' "$d/generated/section-t.tex"
build ""
broken "a table left out" "table t-t is not in the paper"
restore
build "" && sed -i 's|^The claims: t/fast-pipe.$|The claims: none.|' "$d/doc.tex"
(cd "$d" && TEXINPUTS=.:$src/paper: pdflatex -interaction=nonstopmode doc.tex > /dev/null 2>&1)
"$ipclab" paper-check --log "$d/doc.log" --pdf "$d/doc.pdf" "$d/experiments/t.ini" > "$tmp/check.out" 2>&1; rc=$?
broken "a claim the PDF lost" "claim t/fast-pipe is not in its text"
# Two series of one look, and a key of 30 entries, in the figure's script.
awk '/^# style/ && !done { print; sub(/\tunix-stream\t[^\t]*\t[0-9]*\t/, "\tpipe-again\t#0072B2\t7\t"); done = 1 } { print }' \
        "$d/figures/t-f.gp" > "$d/x.gp" && mv "$d/x.gp" "$d/figures/t-f.gp"
grep "^# style" "$d/figures/t-f.gp" | head -1 | sed 's/\tpipe\t/\tpipe-again\t/' >> "$d/figures/t-f.gp"
for i in $(seq 30); do printf '     NaN with lines title "entry %s" noenhanced, \\\n' "$i"; done >> "$d/figures/t-f.gp"
build ""
broken "two lines of one panel drawn alike" "are drawn alike (colour #0072B2, point 7, dash 1)"
broken "a key too long to read" "its key has"
restore
sed -i 's/ where \\texttt{size\\textless{}=4KiB}//' "$d/generated/section-t.tex"
build ""
broken "a generated caption without its filter" "does not say which cells it shows (where=size<=4KiB)"
restore
sed -i 's/\\ensuremath{\\mu}s/ns/' "$d/generated/section-t.tex"
build ""
broken "a generated table caption in another unit than unit=" "gives its unit as ns, unit= says us"
restore
sed -i 's/(\\ensuremath{\\mu}s)/(ms)/' "$d/generated/table-t-t.tex"
build ""
broken "a generated table caption in another unit than its table" "gives its unit as \\ensuremath{\\mu}s, the table another"
restore
{ printf '\\begin{tabular}{l}\n'; printf 'a very wide cell %.0s' $(seq 40); printf '\\\\\n\\end{tabular}\n'; } > "$d/generated/table-t-t.tex"
build ""
broken "a table scaled down to fit" "table t-t scaled down"
restore

# ---- 2. this repository's paper ------------------------------------------------------
# The tree as a clone has it, with the harness built here (test-make.sh
# does the same); the paper from the committed data.
repo=$tmp/repo
mkdir -p "$repo"
git ls-files -co --exclude-standard -z | xargs -0 cp -a --parents -t "$repo" 2>/dev/null
mkdir -p "$repo/build" && cp -a build/obj build/gen "$repo/build/" && cp -a harness/ipclab "$repo/harness/"
(cd "$repo" && find . -path ./build -prune -o -type f -exec touch -d '2020-01-01 00:00' {} + &&
        make paper > "$tmp/paper.log" 2>&1); rc=$?
check "this repository's paper builds from the committed data" '[ $rc -eq 0 ]' || tail -20 "$tmp/paper.log" | sed 's/^/# /'
(cd "$repo" && make --no-print-directory paper-check > "$tmp/repo-check.log" 2>&1); rc=$?
check "this repository's paper passes the paper check" '[ $rc -eq 0 ]' || sed 's/^/# /' "$tmp/repo-check.log"

# ---- 3. a study with more series and claims ------------------------------------------
prefix=$tmp/prefix
make --no-print-directory install PREFIX="$prefix" > "$tmp/install.log" 2>&1 ||
        not_ok "make install" "$(tail -5 "$tmp/install.log")"
study=$tmp/study
"$prefix/bin/ipclab" init "$study" > /dev/null 2>&1 || not_ok "ipclab init"
{
        cat <<'EOF'
[experiment]
title=Eight kernel transports, small
transport=pipe;fifo;unix-stream;unix-dgram;unix-seqpacket;socketpair;tcp;shm
size=64;1KiB;16KiB
pattern=roundtrip
count=100
repeat=5
warmup=10

[figure main]
x=size
series=transport

[table main]
rows=transport
columns=size
value=lat_p50_ns
unit=us
EOF
        i=0
        for a in pipe fifo unix-stream unix-dgram unix-seqpacket; do
                for b in socketpair tcp shm tcp; do
                        i=$((i + 1))
                        printf '\n[claim c%02d-%s-beats-%s]\ntext=%s beats %s\nfaster=transport=%s\nslower=transport=%s\nmetric=roundtrip_latency\n' \
                                $i "$a" "$b" "$a" "$b" "$a" "$b"
                done
        done | head -n $((20 * 7))
} > "$study/experiments/many.ini"
(cd "$study" && make all > "$tmp/study.log" 2>&1); rc=$?
check "a study with 8 transports and 20 claims builds its paper" '[ $rc -eq 0 ]' || tail -20 "$tmp/study.log" | sed 's/^/# /'
(cd "$study" && make --no-print-directory paper-check > "$tmp/study-check.log" 2>&1); rc=$?
check "... and passes the paper check" '[ $rc -eq 0 ]' || sed 's/^/# /' "$tmp/study-check.log"
check "... every one of its 20 claims in the PDF" \
        '[ "$(pdftotext "$study/paper/paper.pdf" - | tr -s " \n" "  " | grep -o "many/ *c[0-9][0-9]-" | tr -d " " | sort -u | wc -l)" -eq 20 ]'

echo "1..$n"
[ "$failed" -eq 0 ]
