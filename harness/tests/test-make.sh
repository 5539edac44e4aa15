#!/bin/bash
# test-make.sh: the Make pipeline end to end, in a temporary copy of the
# tree: `make all` reuses committed data and builds the paper; `make run
# EXP=... PROFILE=quick` remeasures one experiment and rebuilds only what
# depends on it; a changed experiment file is measured again; a second
# `make all` does nothing.
set -u
cd "$(dirname "$0")/../.."
src=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. harness/tests/tap.sh

# The tree as a clone has it (tracked and new files, not build products),
# plus the harness already built here, so the test does not compile twice.
git ls-files -co --exclude-standard -z | xargs -0 cp -a --parents -t "$tmp" 2>/dev/null
mkdir -p "$tmp/build" && cp -a build/obj build/gen build/config.mk "$tmp/build/" && cp -a harness/ipclab "$tmp/harness/"
cd "$tmp"
# A clone's files all have the checkout's time: make them equally old.
find . -path ./build -prune -o -type f -exec touch -d '2020-01-01 00:00' {} +

exps=$(ls experiments/*.ini | xargs -n1 basename | sed 's/\.ini$//')
have_data=1
for e in $exps; do [ -f "data/$e/samples.tsv" ] || have_data=0; done
current=1
for e in $exps; do mk/data-current.sh "experiments/$e.ini" "data/$e/meta.ini" || current=0; done
check "every shipped experiment has committed data" '[ $have_data -eq 1 ]'
check "the committed data was measured from the experiment files as they are" '[ $current -eq 1 ]'
if [ $have_data -ne 1 ] || [ $current -ne 1 ]; then
        # Without it `make all` would measure full experiments here: stop.
        done_testing
fi

make all > make1.log 2>&1; rc=$?
check "make all succeeds on committed data" '[ $rc -eq 0 ]'
check "make all measured nothing" '! grep -q "^measuring" make1.log'
check "paper/paper.pdf exists" '[ -s paper/paper.pdf ]'
check "the figures exist, one per [figure] of every experiment file ($(ls build/figures/*.pdf 2>/dev/null | wc -l))" '[ -s build/figures/fifo-vs-socket-size.pdf ] && [ -s build/figures/kernel-latency-main.pdf ] && [ "$(ls build/figures/*.pdf | wc -l)" -eq "$(harness/ipclab check --list-outputs experiments/*.ini | grep -c "^figure")" ]'
[ $rc -eq 0 ] || tail -30 make1.log | sed 's/^/# /'
# What the shipped tables and figures declare, drawn by the common renderer.
g=paper/generated f=build/figures
check "tables: env-cost's and fifo-vs-socket's ratio columns" \
        'grep -q "ensuremath{\\\\times}host" $g/table-env-cost-main.tex && grep -q "ensuremath{\\\\times}fifo" $g/table-fifo-vs-socket-main.tex'
check "dbus-pingpong: the published kdbus column and series, the queries test named" \
        'grep -q "{published (ARM 2010)}" $g/table-dbus-pingpong-main.tex && grep -q " & kdbus & " $g/table-dbus-pingpong-main.tex &&
         grep -q "^60\\\\,000 & split & ipc-performances & " $g/table-dbus-pingpong-main.tex &&
         grep -q "^# published (ARM 2010): kdbus$" $f/dbus-pingpong-main.gp'
check "shell-calls: intervals beneath their values and the in-process row; sdbus-array: the published rows" \
        'grep -q "^dbus-send & \\\\ipclabInterval{[0-9.]*}{\[" $g/table-shell-calls-main.tex &&
         grep -q "{in-process\\\\\\\\libdbus round\\\\\\\\trip}" $g/table-shell-calls-main.tex &&
         grep -q "published (sdbus-c++): per-element}" $g/table-sdbus-array-main.tex'
check "dbus-throughput: the call-rate table and the direct floor; the spectrum figures" \
        '[ -s $g/table-dbus-throughput-callrate.tex ] && grep -q "^# harness floor (direct), bytes$" $f/dbus-throughput-oneway.gp &&
         [ -s $f/kernel-latency-spectrum.pdf ] && [ -s $f/dbus-pingpong-spectrum.pdf ]'

make all > make2.log 2>&1
check "a second make all rebuilds nothing" '! grep -qE "measuring|LATEX|PLOT|SUMMARY" make2.log'

# A commit changes only what embeds it (meta.o, and the binary it is
# linked into): no other object, summary, figure, claim or paper.
rebuilt() { grep -E "^  (CC|SUMMARY|PLOT|TABLE|MACROS|METHODS|VERIFY|CLAIMS|LATEX) " "$1" | sed 's/^  //' | tr -s ' ' | tr '\n' ';'; }
g() { git -c user.name=test -c user.email=test@ipclab.invalid "$@"; }
g init -q && g add -A && g commit -qm "the tree as it is"
make all > make-commit1.log 2>&1; rc=$?
check "after a first commit make all recompiles meta.c alone, no output (rebuilt: $(rebuilt make-commit1.log))" \
        '[ $rc -eq 0 ] && [ "$(rebuilt make-commit1.log)" = "CC harness/measure/meta.c;" ]'
g commit -q --allow-empty -m "an empty commit"
make -n all > make-commit2.n 2>&1
[ -n "${IPCLAB_SHOW_MAKE_N-}" ] && sed 's/^/# make -n: /' make-commit2.n
check "after an empty commit make -n all shows no summary, figure, claim or paper" \
        '! grep -qE "ipclab summarize|gnuplot -e|ipclab verify --tsv|latexmk -g" make-commit2.n' ||
        grep -E "ipclab summarize|gnuplot -e|ipclab verify --tsv|latexmk -g" make-commit2.n | head -5 | sed 's/^/# /'
make all > make-commit2.log 2>&1; rc=$?
check "after an empty commit make all recompiles meta.c alone (rebuilt: $(rebuilt make-commit2.log))" \
        '[ $rc -eq 0 ] && [ "$(rebuilt make-commit2.log)" = "CC harness/measure/meta.c;" ]'
check "the binary knows the new commit" \
        'grep -q "$(git rev-parse HEAD)" build/gen/version.h'

# Without hyperfine (PATH without it) shell-calls cannot run here: the
# claims table leaves its claims out and says so, the paper still builds.
mkdir nohf
for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
        for f in "$d"/*; do
                b=${f##*/}
                [ "$b" = hyperfine ] || [ -e "nohf/$b" ] || ln -s "$f" "nohf/$b"
        done
done
cut -f1,2 build/verify/claims.tsv | grep -v '^shell-calls	' > claims-all
rm -f build/verify/claims.tsv paper/paper.pdf build/outputs.mk build/figures/shell-calls-main.pdf \
        paper/generated/table-shell-calls-main.tex
PATH=$PWD/nohf make all > make-nohf.log 2>&1; rc=$?
check "without hyperfine make all still builds the paper" '[ $rc -eq 0 ] && [ -s paper/paper.pdf ]'
check "without hyperfine make all reports what cannot run here" \
        'grep -q "VERIFY .*shell-calls.*hyperfine.*cannot run here" make-nohf.log'
check "without hyperfine shell-calls' figure and table are still drawn from its committed data" \
        '[ -s build/figures/shell-calls-main.pdf ] && [ -s paper/generated/table-shell-calls-main.tex ]'
check "without hyperfine the claims of shell-calls are left out, every other kept" \
        '[ -s claims-all ] && [ "$(cut -f1,2 build/verify/claims.tsv)" = "$(cat claims-all)" ]'
[ $rc -eq 0 ] || tail -20 make-nohf.log | sed 's/^/# /'

# (times to the nanosecond: no waiting for the clock to tick)
pdf_before=$(stat -c %.9Y paper/paper.pdf)
kl_before=$(sha256sum < data/kernel-latency/samples.tsv)
fv_before=$(sha256sum < data/fifo-vs-socket/samples.tsv)
make run EXP=fifo-vs-socket PROFILE=quick > make3.log 2>&1; rc=$?
check "make run EXP=fifo-vs-socket PROFILE=quick succeeds" '[ $rc -eq 0 ]'
check "its data was replaced" '[ "$(sha256sum < data/fifo-vs-socket/samples.tsv)" != "$fv_before" ]'
check "its meta.ini names the quick profile" 'grep -qx "profile=quick" data/fifo-vs-socket/meta.ini'
check "other experiments untouched" '[ "$(sha256sum < data/kernel-latency/samples.tsv)" = "$kl_before" ]'
check "only its summary and figure were rebuilt" 'grep -q "build/summary/fifo-vs-socket.tsv" make3.log && ! grep -q "build/summary/kernel-latency.tsv" make3.log'
check "the paper was rebuilt" '[ "$(stat -c %.9Y paper/paper.pdf)" != "$pdf_before" ] && grep -q "LATEX" make3.log'
[ $rc -eq 0 ] || tail -30 make3.log | sed 's/^/# /'

# An edit that changes no measurement (a title, a comment, a claim): the
# data is still the file's, and nothing is measured.
sed -i -e 's/^title=.*/&, retitled/' experiments/kernel-latency.ini
printf '\n# a comment\n[claim test-edit]\ntext=t\nfaster=transport=pipe\nslower=transport=fifo\nmetric=roundtrip_latency\n' \
        >> experiments/kernel-latency.ini
touch -d '2020-01-01 00:00' experiments/kernel-latency.ini
check "a retitled experiment with a new claim is still current" \
        'mk/data-current.sh experiments/kernel-latency.ini data/kernel-latency/meta.ini'
make -n all > make-edit.n 2>&1
check "make -n all after it measures nothing" '! grep -q "ipclab run" make-edit.n'

# A changed measurement: its data is stale and make all measures it.
sed -i 's/^count=.*/&0/' experiments/kernel-latency.ini
# As old as its data: only the content can tell that the data is stale.
touch -d '2020-01-01 00:00' experiments/kernel-latency.ini data/kernel-latency/samples.tsv
check "a changed count makes the data stale" \
        '! mk/data-current.sh experiments/kernel-latency.ini data/kernel-latency/meta.ini'
make all PROFILE=quick > make4.log 2>&1; rc=$?
check "make all after an edit succeeds" '[ $rc -eq 0 ]'
check "the edited experiment was measured again" 'grep -q "^measuring kernel-latency" make4.log && ! grep -q "^measuring fifo-vs-socket" make4.log'
check "its meta.ini has the new hash" 'mk/data-current.sh experiments/kernel-latency.ini data/kernel-latency/meta.ini'

# A new experiment file, as the README shows one: one make all measures it
# alone and gives it a figure, a table and a generated section, placed
# after the sections paper/sections.list orders; a hand-written section
# then replaces the generated one.
cat > experiments/zz-new.ini <<'INI'
[experiment]
title=A new experiment in the shipped paper
transport=pipe;fifo
size=64;512
pattern=roundtrip
count=200
repeat=2
INI
make all PROFILE= > make-new.log 2>&1; rc=$?
check "make all with a new experiment file succeeds and measures only it" \
        '[ $rc -eq 0 ] && [ "$(grep "^measuring" make-new.log | cut -d" " -f2 | tr "\n" " ")" = "zz-new " ]' ||
        tail -20 make-new.log | sed 's/^/# /'
text=$(pdftotext paper/paper.pdf - 2>/dev/null | tr -s ' \n' '  ')
check "the new experiment has its figure, table and generated section in the paper" \
        '[ -s build/figures/zz-new-main.pdf ] && [ -s paper/generated/table-zz-new-main.tex ] &&
         grep -qF "A new experiment in the shipped paper" <<<"$text" && grep -qE "Figure [0-9]+: .* of experiment zz-new" <<<"$text"'
check "its section follows the listed ones, the listed ones in their order" \
        '[ "$(grep -o "input{[a-z/-]*}" paper/generated/config.tex | tr "\n" " ")" = "$(sed "s/#.*//" paper/sections.list | grep . | sed "s|.*|input{sections/&}|" | tr "\n" " ")input{generated/section-zz-new} " ]'
printf '\\section{Written by hand}\nThe zz-new section, by hand: \\ipclabFigure{zz-new-main}\n' > paper/sections/zz-new.tex
make all > make-hand.log 2>&1; rc=$?
text=$(pdftotext paper/paper.pdf - 2>/dev/null | tr -s ' \n' '  ')
check "a hand-written paper/sections/zz-new.tex replaces the generated section" \
        '[ $rc -eq 0 ] && grep -qF "The zz-new section, by hand" <<<"$text" && ! grep -qF "A new experiment in the shipped paper" <<<"$text" &&
         grep -q "input{sections/zz-new}" paper/generated/config.tex'
rm -rf experiments/zz-new.ini paper/sections/zz-new.tex data/zz-new

# The reviewer's estimate counts each environment's set-up: env-cost's
# recorded span runs from its first start to its last finish (host,
# container, VM), and the estimate (harness/measure/estimate.h), calibrated from
# the committed data/ (this copy's data/ was measured again above, at
# whatever load the machine had), comes within 25 % of it.
m=data/env-cost/meta.ini
span=$(( $(date -d "$(sed -n 's/^finished=//p' $m | sort | tail -n1)" +%s) - $(date -d "$(sed -n 's/^started=//p' $m | sort | head -n1)" +%s) ))
make reproduce-estimate DATADIR="$src/data" > make-estimate.log 2>&1
line=$(grep '^  env-cost ' make-estimate.log)
got=$(duration_secs "${line#  env-cost }")
check "make reproduce-estimate: env-cost within 25 % of its recorded span, ${span} s, set-up included ($line)" \
        '[ "$span" -gt 0 ] && [ $((got * 100)) -ge $((span * 80)) ] && [ $((got * 100)) -le $((span * 125)) ] &&
         grep -q "calibrated" <<<"$line" && grep -q "estimated from: calibrated from [0-9]* earlier runs" make-estimate.log'
est=$(harness/ipclab check --data "$src/data" experiments/env-cost.ini | sed -n 's/^  estimated duration: //p')
check "ipclab check: env-cost's estimate counts the VM's boot (${est:-none})" \
        '[ -n "$est" ] && [ "$(duration_secs "$est")" -ge 45 ] &&
         harness/ipclab check --data "$src/data" experiments/env-cost.ini | grep -q "estimated from: .*VM boot"'

# Make hygiene: CPPFLAGS and LDFLAGS reach the compiler and the linker,
# V=1 shows every command, and a missing step fails loudly.
make -n -B build/obj/analyse/stats.o CPPFLAGS=-DIPCLAB_MARK_CPP > make-flags.n 2>&1
check "CPPFLAGS reaches the compiler" 'grep -q "cc .*-DIPCLAB_MARK_CPP.* -c harness/analyse/stats.c" make-flags.n'
make -n -W build/obj/analyse/stats.o harness/ipclab LDFLAGS=-Wl,-O1 > make-flags.n 2>&1
check "LDFLAGS reaches the linker" 'grep -q "cc .*-Wl,-O1 .*-o harness/ipclab" make-flags.n'
touch data/kernel-latency/samples.tsv
make V=1 build/summary/kernel-latency.tsv > make-v.log 2>&1
check "V=1 shows the commands" 'grep -q "^harness/ipclab summarize data/kernel-latency" make-v.log'
mv mk/plots.mk mk/plots.mk.away
make -n all > make-missing.log 2>&1; rc=$?
mv mk/plots.mk.away mk/plots.mk
check "a missing step (mk/plots.mk) fails loudly (status $rc)" '[ $rc -ne 0 ] && grep -q "mk/plots.mk" make-missing.log'

# The build follows what is installed: a library gone since the last build
# (pkg-config no longer finds Qt5DBus: a pkg-config in front of the real
# one that says so) is noticed by the next make, which rebuilds without it;
# installed again, the next make builds it in again.
# Both builds recompile every object (its flags name the libraries'
# versions), but only the Qt ones differ: the compiler is cache-cc, which
# compiles each object once (keyed by its preprocessed source) and copies
# it the second time.
if pkg-config --exists Qt5DBus Qt5Core; then
        mkdir -p noqt
        printf '#!/bin/sh\nfor a in "$@"; do case $a in Qt5*) exit 1;; esac; done\nexec %s "$@"\n' \
                "$(command -v pkg-config)" > noqt/pkg-config
        chmod +x noqt/pkg-config
        cached=(CC="$src/harness/tests/cache-cc $PWD/cc-cache ${CC:-cc}" CXX="$src/harness/tests/cache-cc $PWD/cc-cache ${CXX:-g++}")
        PATH=$PWD/noqt:$PATH make harness "${cached[@]}" > make-noqt.log 2>&1; rc=$?
        check "Qt5DBus gone: make says so and rebuilds; ipclab says it was built without QtDBus" \
                '[ $rc -eq 0 ] && grep -qx "  config: VERSION_Qt5DBus now absent" make-noqt.log &&
                 grep -q "^HAVE_QTDBUS := $" build/config.mk &&
                 harness/ipclab list | grep -A1 "^qtdbus " | grep -q "built without QtDBus"' "$(tail -3 make-noqt.log)"
        make harness "${cached[@]}" > make-qt.log 2>&1; rc=$?
        check "Qt5DBus back: the next make builds the qtdbus transport in again" \
                '[ $rc -eq 0 ] && grep -q "^  config: VERSION_Qt5DBus now [0-9]" make-qt.log && grep -q "CXX .*qtdbus.cpp" make-qt.log &&
                 harness/ipclab list | grep -q "^qtdbus  *dbus  *ok"' "$(tail -3 make-qt.log)"
        make --no-print-directory harness "${cached[@]}" > make-same.log 2>&1
        check "nothing changed: the next make rebuilds nothing" '[ ! -s make-same.log ]' "$(head -3 make-same.log)"
else
        skip "the build follows what is installed" "Qt5DBus is not installed (qtbase5-dev), so it cannot be hidden"
fi

make run > make5.log 2>&1; rc=$?
check "make run without EXP explains itself" '[ $rc -ne 0 ] && grep -q "usage: make run EXP=name" make5.log'
make run EXP=nosuch > make6.log 2>&1; rc=$?
check "make run EXP=nosuch names what exists" '[ $rc -ne 0 ] && grep -q "no experiments/nosuch.ini" make6.log'

done_testing
