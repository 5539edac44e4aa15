#!/bin/bash
# test-verify.sh: `ipclab verify`, `make reproduce`, `make verify` and the
# paper's claims table, as a reviewer meets them.
#   1. a real small experiment (pipe, 64 B vs 64 KiB) run with ipclab and
#      verified; its ratio is recomputed here with awk, independently;
#   2. hand-written samples.tsv files with known ratios (200 / 100 = 2
#      exactly, interval [2, 2]): verdicts, exit codes, --repro, --tsv,
#      bad input (exit 2, nothing written);
#   3. the Make targets in a temporary copy of the tree: `make reproduce
#      FIG=kernel-latency PROFILE=quick`, `make verify`, claims.tex.
set -u
cd "$(dirname "$0")/../.."
src=$PWD
ipclab=$PWD/harness/ipclab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. harness/tests/tap.sh
# The line of claim $1 in the table $2.
line() { grep -E "^[^ ]+ +$1 " <<<"$2"; }
# Field $2 of the TSV row of claim $1 in file $3.
tsv() { awk -F'\t' -v c="$1" -v f="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $2 == c { print $col[f] }' "$3"; }

# ---- 1. A real experiment -------------------------------------------------
mkdir -p "$tmp/exp"
cat > "$tmp/exp/real.ini" <<'INI'
[experiment]
title=verify test: pipe round trips, 64 B vs 64 KiB
transport=pipe
size=64;64KiB
pattern=roundtrip
count=200
repeat=5
warmup=5

[claim large-moves-more]
text=64 KiB messages move more bytes per second than 64 B ones
faster=size=64KiB
slower=size=64
metric=throughput
by=4

[claim small-is-quicker]
text=a 64 B round trip takes less time than a 64 KiB one
faster=size=64
slower=size=64KiB
metric=roundtrip_latency

[claim small-moves-more]
text=wrong on purpose: 64 B messages move more bytes per second
faster=size=64
slower=size=64KiB
metric=throughput
INI
out=$($ipclab run --out "$tmp/data" "$tmp/exp/real.ini" 2>&1); rc=$?
check "a small real experiment runs" '[ $rc -eq 0 ] && [ -s "$tmp/data/real/samples.tsv" ]'
[ $rc -eq 0 ] || sed 's/^/# /' <<<"$out"
out=$($ipclab verify --data "$tmp/data" --tsv "$tmp/real.tsv" "$tmp/exp/real.ini" 2>&1); rc=$?
check "real: exit 1, since one claim fails" '[ $rc -eq 1 ]'
check "real: throughput of 64 KiB beats 64 B by 4 or more: holds" 'line large-moves-more "$out" | grep -q " holds "'
check "real: 64 B latency beats 64 KiB: holds" 'line small-is-quicker "$out" | grep -q " holds "'
check "real: the claim turned round fails" 'line small-moves-more "$out" | grep -q " fails "'
[ $rc -eq 1 ] || sed 's/^/# /' <<<"$out"
# The ratio of medians, recomputed with awk from the raw rows (one pair).
expect=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["status"] == "ok" { v[$col["size_B"], ++k[$col["size_B"]]] = $col["bytes_B"] / $col["elapsed_ns"] }
        function median(s,   i, j, t, a, m) {
                m = k[s]; for (i = 1; i <= m; i++) a[i] = v[s, i]
                for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
                return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
        }
        END { printf "%.6g\n", median(65536) / median(64) }' "$tmp/data/real/samples.tsv")
got=$(tsv large-moves-more published_ratio "$tmp/real.tsv")
check "real: the ratio is the ratio of the medians ($got = $expect)" \
        'awk -v a="$got" -v b="$expect" "BEGIN { exit !(a > 0 && (a - b) / b < 1e-5 && (b - a) / b < 1e-5) }"'
lo=$(tsv large-moves-more published_lo "$tmp/real.tsv"); hi=$(tsv large-moves-more published_hi "$tmp/real.tsv")
check "real: the interval contains the estimate ($lo <= $got <= $hi)" \
        'awk -v l="$lo" -v r="$got" -v h="$hi" "BEGIN { exit !(l <= r && r <= h && l < h) }"'

# The same data under another file with only the claims that hold: exit 0,
# and a note that the data came from another version of the file.
sed '/^\[claim small-moves-more\]/,$d' "$tmp/exp/real.ini" > "$tmp/exp/real-ok.ini"
cp -r "$tmp/data/real" "$tmp/data/real-ok"
out=$($ipclab verify --data "$tmp/data" "$tmp/exp/real-ok.ini" 2>&1); rc=$?
check "real: no failing claim: exit 0" '[ $rc -eq 0 ]'
check "real: data from another version of the file is noted" 'grep -q "measured from another version of" <<<"$out"'

# ---- 2. Fixtures with known ratios ----------------------------------------
header=$(head -n1 "$tmp/data/real/samples.tsv")
# row KEY=VALUE...: a samples.tsv row; columns not given are "-".
row() {
        awk -v hdr="$header" -v kv="$*" 'BEGIN {
                n = split(hdr, h, "\t"); m = split(kv, a, " ")
                for (i = 1; i <= m; i++) { split(a[i], p, "="); v[p[1]] = p[2] }
                for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? "\t" : ""), ((h[i] in v) ? v[h[i]] : "-")
                print ""
        }'
}
# cell TRANSPORT SIZE ELAPSED LAT...: one ok row per latency value.
cell() {
        local t=$1 size=$2 el=$3 rep=0; shift 3
        for lat in "$@"; do
                row cell=0 rep=$rep env=host transport=$t payload=bytes size_B=$size pattern=roundtrip \
                    reply=echo marshal=array cpus=none count=100 status=ok elapsed_ns=$el \
                    client_cpu_ns=20 server_cpu_ns=20 \
                    messages=100 bytes_B=$((100 * size)) lat_n=100 lat_p50_ns=$lat why=-
                rep=$((rep + 1))
        done
}
fixture() {   # fixture DIR PIPE64 FIFO64 PIPE4K FIFO4K: elapsed times
        mkdir -p "$1"
        { echo "$header"
          cell pipe 64 "$2" 100 130 90 120 110
          cell fifo 64 "$3" 105 125 95 140 100
          cell pipe 4096 "$4" 1000 1000 1000
          cell fifo 4096 "$5" 1000 1000 1000
          # A failed repetition, whose numbers must not count.
          row cell=0 rep=9 env=host transport=fifo payload=bytes size_B=64 pattern=roundtrip reply=echo \
              marshal=array cpus=none count=100 status=failed why=timeout
        } > "$1/samples.tsv"
}
fixture "$tmp/fx-data/fx" 100000 200000 100000 800000
fixture "$tmp/fx-repro/fx" 100000 100000 100000 800000
cat > "$tmp/exp/fx.ini" <<'INI'
[experiment]
title=verify fixture
transport=pipe;fifo
size=64;4KiB
pattern=roundtrip
count=100

[claim double]
text=pipe is twice as fast as fifo at 64 B
faster=transport=pipe
slower=transport=fifo
metric=elapsed
where=size=64
by=1.5

[claim triple]
text=pipe is three times as fast at 64 B
faster=transport=pipe
slower=transport=fifo
metric=elapsed
where=size<4KiB
by=3

[claim geomean]
text=over both sizes, 2 and 8 make 4
faster=transport=pipe
slower=transport=fifo
metric=elapsed
by=4

[claim noisy]
text=latencies that overlap
faster=transport=pipe
slower=transport=fifo
metric=roundtrip_latency
where=size=64

[claim nothing]
text=no such sizes
faster=transport=pipe
slower=transport=fifo
metric=elapsed
where=size>=1MiB
INI
out=$($ipclab verify --data "$tmp/fx-data" --tsv "$tmp/fx.tsv" "$tmp/exp/fx.ini" 2>&1); rc=$?
check "fixture: exit 1 (a claim fails)" '[ $rc -eq 1 ]'
check "fixture: 200 vs 100 with by=1.5 holds, ratio 2 [2, 2]" 'line double "$out" | grep -qE " holds +2.00 \[2.00, 2.00\] "'
check "fixture: the same with by=3 fails" 'line triple "$out" | grep -qE " fails +2.00 \[2.00, 2.00\] "'
check "fixture: pairs 2 and 8 combine to 4 (geometric mean), holds at by=4" 'line geomean "$out" | grep -qE " holds +4.00 \[4.00, 4.00\] "'
check "fixture: overlapping latencies are inconclusive" 'line noisy "$out" | grep -q " inconclusive "'
check "fixture: a filter that keeps nothing gives no data" 'line nothing "$out" | grep -q " no data "'
check "fixture: the tally" 'grep -q "^published: 2 hold, 1 inconclusive, 1 fail, 1 no data" <<<"$out"'
check "fixture: the failed repetition is left out and said so" 'grep -q "1 failed repetitions left out" <<<"$out"'
check "fixture: without --repro the reproduced column is empty" 'line double "$out" | grep -qE " - +-$"'
check "--tsv: a header and one row per claim" '[ "$(wc -l < "$tmp/fx.tsv")" -eq 6 ] && head -n1 "$tmp/fx.tsv" | grep -q "^experiment	claim	text	metric	by"'
check "--tsv: verdicts and ratios" '[ "$(tsv double published "$tmp/fx.tsv")" = holds ] && [ "$(tsv double published_ratio "$tmp/fx.tsv")" = 2 ] && [ "$(tsv geomean published_lo "$tmp/fx.tsv")" = 4 ] && [ "$(tsv triple published "$tmp/fx.tsv")" = fails ]'
check "--tsv: no temporary file left" '[ -z "$(ls "$tmp" | grep "fx.tsv.tmp")" ]'
out2=$($ipclab verify --data "$tmp/fx-data" "$tmp/exp/fx.ini" 2>&1)
out3=$($ipclab verify --data "$tmp/fx-data" "$tmp/exp/fx.ini" 2>&1)
check "the same samples give the same table" '[ "$out2" = "$out3" ] && [ -n "$out2" ]'

out=$($ipclab verify --data "$tmp/fx-data" --repro "$tmp/fx-repro" --tsv "$tmp/fx2.tsv" "$tmp/exp/fx.ini" 2>&1); rc=$?
check "--repro: the reproduced verdict is its own (double fails there)" 'line double "$out" | grep -qE " holds +2.00 \[2.00, 2.00\] +fails +1.00 \[1.00, 1.00\]$"'
check "--repro: in the TSV too" '[ "$(tsv double reproduced "$tmp/fx2.tsv")" = fails ] && [ "$(tsv double reproduced_ratio "$tmp/fx2.tsv")" = 1 ]'
check "--repro: a tally for the reproduction" 'grep -q "^reproduced: " <<<"$out"'

# Only claims that hold, are inconclusive or lack data: exit 0 on the
# data; a claim failing only on the reproduction: exit 1.
sed '/^\[claim triple\]/,/^$/d' "$tmp/exp/fx.ini" > "$tmp/exp/fx-ok.ini"
cp -r "$tmp/fx-data/fx" "$tmp/fx-data/fx-ok"; cp -r "$tmp/fx-repro/fx" "$tmp/fx-repro/fx-ok"
out=$($ipclab verify --data "$tmp/fx-data" "$tmp/exp/fx-ok.ini" 2>&1); rc=$?
check "holds, inconclusive and no data only: exit 0" '[ $rc -eq 0 ] && grep -q "^published: 2 hold, 1 inconclusive, 0 fail, 1 no data" <<<"$out"'
out=$($ipclab verify --data "$tmp/fx-data" --repro "$tmp/fx-repro" "$tmp/exp/fx-ok.ini" 2>&1); rc=$?
check "a claim failing only on the reproduction: exit 1" '[ $rc -eq 1 ]'
mkdir -p "$tmp/empty-repro"
out=$($ipclab verify --data "$tmp/fx-data" --repro "$tmp/empty-repro" "$tmp/exp/fx-ok.ini" 2>&1); rc=$?
check "an experiment not reproduced: no data there, exit 0" '[ $rc -eq 0 ] && grep -q "fx-ok, reproduced: not reproduced" <<<"$out"'

# Bad input: exit 2 and nothing written.
bad() {
        local name=$1 expect=$2; shift 2
        rm -f "$tmp/bad.tsv"
        out=$($ipclab verify --tsv "$tmp/bad.tsv" "$@" 2>&1); rc=$?
        check "bad $name: exit 2" '[ $rc -eq 2 ]'
        check "bad $name: says $expect" 'grep -qF -- "$expect" <<<"$out"'
        check "bad $name: no TSV written" '[ ! -e "$tmp/bad.tsv" ]'
}
sed 's/^where=size=64$/where=size>>64/' "$tmp/exp/fx.ini" > "$tmp/exp/fx-bad.ini"
cp -r "$tmp/fx-data/fx" "$tmp/fx-data/fx-bad"
bad where "size>>64" --data "$tmp/fx-data" "$tmp/exp/fx-bad.ini"
check "bad where: the message names the file" 'grep -qF "$tmp/exp/fx-bad.ini" <<<"$out"'
mkdir -p "$tmp/broken/fx"
{ echo "$header"; printf 'only\tthree\tfields\n'; } > "$tmp/broken/fx/samples.tsv"
bad samples "line 2 has 3 fields" --data "$tmp/broken" "$tmp/exp/fx.ini"
printf 'transport\tstatus\npipe\tok\n' > "$tmp/broken/fx/samples.tsv"
bad column "no column" --data "$tmp/broken" "$tmp/exp/fx.ini"
bad repro-dir "is not a directory" --data "$tmp/fx-data" --repro "$tmp/nowhere" "$tmp/exp/fx.ini"
bad experiment "cannot read" --data "$tmp/fx-data" "$tmp/exp/missing.ini"
out=$($ipclab verify --frobnicate 2>&1); rc=$?
check "unknown option: exit 2" '[ $rc -eq 2 ]'

# ---- 3. Make: reproduce, verify, the paper's table -------------------------
# A copy of the tree as a clone has it, with the harness already built here.
copy=$tmp/tree
mkdir -p "$copy"
git ls-files -co --exclude-standard -z | xargs -0 cp -a --parents -t "$copy" 2>/dev/null
mkdir -p "$copy/build" && cp -a build/obj build/gen "$copy/build/" && cp -a harness/ipclab "$copy/harness/"
cd "$copy"
find . -path ./build -prune -o -type f -exec touch -d '2020-01-01 00:00' {} +
# The top Makefile may or may not include mk/verify.mk yet; it is guarded.
mk() { make --no-print-directory -f Makefile -f mk/verify.mk "$@"; }

kl_before=$(sha256sum < data/kernel-latency/samples.tsv)
mk reproduce FIG=kernel-latency PROFILE=quick > reproduce.log 2>&1; rc=$?
check "make reproduce FIG=kernel-latency PROFILE=quick succeeds" '[ $rc -eq 0 ]'
[ $rc -eq 0 ] || tail -20 reproduce.log | sed 's/^/# /'
est_at=$(grep -n "kernel-latency .* as recorded in data/kernel-latency/meta.ini" reproduce.log | cut -d: -f1 | head -n1)
run_at=$(grep -n "^reproducing kernel-latency" reproduce.log | cut -d: -f1 | head -n1)
check "it first estimates the time from the recorded run" \
        '[ -n "$est_at" ] && [ -n "$run_at" ] && [ "$est_at" -lt "$run_at" ] && grep -q "estimated total" reproduce.log'
check "it says the estimate is not for the quick profile" 'grep -q "PROFILE=quick may take less" reproduce.log'
check "the reproduction is in build/repro" '[ -s build/repro/kernel-latency/samples.tsv ] && grep -qx "profile=quick" build/repro/kernel-latency/meta.ini'
check "only the figure's experiment was rerun" '[ "$(ls build/repro)" = kernel-latency ]'
check "data/ is untouched" '[ "$(sha256sum < data/kernel-latency/samples.tsv)" = "$kl_before" ]'
mk reproduce FIG=nosuch > nosuch.log 2>&1; rc=$?
check "make reproduce FIG=nosuch fails and lists the figures" '[ $rc -ne 0 ] && grep -q "no figure .nosuch." nosuch.log && grep -q "kernel-latency" nosuch.log'
mk reproduce-estimate FIG=kernel-latency > est.log 2>&1
check "make reproduce-estimate measures nothing" '! grep -q "^reproducing" est.log && grep -q "estimated total" est.log'

mk verify > verify.log 2>&1; rc=$?
harness/ipclab verify --repro build/repro > direct.log 2>&1; want=$?
check "make verify checks build/repro too, with ipclab's status ($rc = $want)" '[ $rc -eq $want ] && grep -q "^harness/ipclab verify --repro build/repro" verify.log && grep -q "^reproduced: " verify.log'
check "make verify prints the table" 'grep -q "^EXPERIMENT  *CLAIM  *METRIC" verify.log'

# Only experiments whose data is current, so that nothing is measured here.
with_data=$(for f in experiments/*.ini; do e=$(basename "$f" .ini); \
        mk/data-current.sh "$f" "data/$e/meta.ini" && echo "$e"; done | tr '\n' ' ')
mk paper/generated/claims.tex EXPERIMENTS="$with_data" > claims.log 2>&1; rc=$?
check "paper/generated/claims.tex is made" '[ $rc -eq 0 ] && [ -s paper/generated/claims.tex ]'
[ $rc -eq 0 ] || tail -20 claims.log | sed 's/^/# /'
nclaims=$(grep -c '^\[claim ' experiments/*.ini | awk -F: '{ s += $2 } END { print s }')
check "claims.tex has a row per claim ($nclaims)" '[ "$(grep -c "newline{.footnotesize" paper/generated/claims.tex)" -eq "$nclaims" ]'
check "claims.tex has the reproduction column" 'grep -q "Reproduction" paper/generated/claims.tex'
mkdir -p latex && cat > latex/t.tex <<'TEX'
\documentclass{article}
\usepackage{booktabs}
\usepackage{array}
\begin{document}
\input{../paper/generated/claims.tex}
\end{document}
TEX
(cd latex && pdflatex -interaction=nonstopmode -halt-on-error t.tex > /dev/null 2>&1); rc=$?
check "claims.tex is valid LaTeX" '[ $rc -eq 0 ] && [ -s latex/t.pdf ]'
cd "$src"

echo "1..$n"
[ "$failed" -eq 0 ]
