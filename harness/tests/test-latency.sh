#!/bin/bash
# test-latency.sh: every message's latency kept, from `ipclab run` to
# `ipclab latency`, on real runs.
#
#   - a pipe run (round trip and one-way, 2000 messages, 3 repetitions,
#     store_latencies=raw): latencies.tsv.gz holds each repetition's
#     values (as many as samples.tsv's lat_n), one-way rows get lat_*
#     percentiles, the pooled median of `ipclab latency` lies within the
#     repetitions' medians, and every pooled percentile is within 1 % of
#     the exact one of the raw values (the worst is printed);
#   - --cell selects, --spectrum ends at 100 after the last percentile the
#     values can show;
#   - env=host;nspawn: the merged file holds both environments' latencies
#     (skipped where nspawn cannot run);
#   - every transport that does one-way, D-Bus included, with verify=true:
#     each stamped message's transit is recorded, within the window;
#   - a truncated or corrupt file, and a repetition samples.tsv does not
#     hold: exit 2 and a message naming the file;
#   - interrupted (SIGINT) and resumed, a run keeps the histograms of the
#     repetitions finished before byte for byte, measures the others anew,
#     and a repetition whose latencies were lost is measured again.
set -u
cd "$(dirname "$0")/../.."
. harness/tests/tap.sh
tap_tmp --runtime

cat > "$tmp/lat.ini" <<'INI'
[experiment]
title=latencies kept
transport=pipe
size=64
pattern=roundtrip;oneway
count=2000
repeat=3
warmup=100
store_latencies=raw
INI
$ipclab run --out "$tmp/out" "$tmp/lat.ini" 2>"$tmp/run.log"
check "the raw run succeeds" '[ $? -eq 0 ] && [ -s "$tmp/out/lat/latencies.tsv.gz" ]' || cat "$tmp/run.log"
d=$tmp/out/lat
zcat "$d/latencies.tsv.gz" > "$tmp/lat.tsv"
check "the header is the contract's" \
        '[ "$(head -1 "$tmp/lat.tsv")" = "$(printf "env\tmachine\tcell\trep\tkind\tlower_ns\tupper_ns\tcount")" ]'
check "raw rows are exact values" '[ "$(awk -F"\t" "NR > 1 && \$6 != \$7" "$tmp/lat.tsv" | wc -l)" -eq 0 ]'
# "cell rep kind values" per repetition, and the same from samples.tsv.
awk -F'\t' 'NR > 1 { n[$3 " " $4 " " $5] += $8 } END { for (k in n) print k, n[k] }' "$tmp/lat.tsv" | sort > "$tmp/counts"
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            { print $c["cell"], $c["rep"], ($c["pattern"] == "oneway" ? "oneway" : "roundtrip"), $c["lat_n"] }' \
        "$d/samples.tsv" | sort > "$tmp/want"
check "every repetition's values are there, as many as lat_n" 'cmp -s "$tmp/counts" "$tmp/want" && [ "$(wc -l < "$tmp/want")" -eq 6 ]' ||
        diff "$tmp/counts" "$tmp/want" | head
check "one-way rows have lat_* percentiles" \
        '[ "$(tsv_cols "$d/samples.tsv" pattern lat_n lat_p50_ns | awk -F"\t" "\$1 == \"oneway\" && \$2 == 2000 && \$3 != \"-\"" | wc -l)" -eq 3 ]'

$ipclab latency "$d" > "$tmp/pooled.tsv" 2>"$tmp/err"
check "ipclab latency succeeds" '[ $? -eq 0 ]' || cat "$tmp/err"
check "its header" '[ "$(head -1 "$tmp/pooled.tsv")" = "$(printf "env\tmachine\ttransport\tbus\tpayload\tsize_B\tpattern\treply\tmarshal\tcpus\troles\tcount\tduration_ns\tkind\tpercentile\tlatency_ns")" ]'
# kind, percentile and latency_ns of every row, by name.
tsv_cols "$tmp/pooled.tsv" kind percentile latency_ns > "$tmp/kpl"
# 6000 values a cell: every percentile with at least 10 of them beyond
# it, so not 99.9, 99.99 or 99.999 (which would be the 6th, 1st or no
# largest value).
check "9 percentiles for each of the two cells: only those 6000 values support" \
        '[ "$(tail -n +2 "$tmp/pooled.tsv" | wc -l)" -eq 18 ] &&
         [ "$(cut -f2 "$tmp/kpl" | sort -un | tr "\n" " ")" = "0 10 20 30 40 50 90 99 100 " ]'
for kind in roundtrip oneway; do
        med=$(awk -F'\t' -v k=$kind '$1 == k && $2 == 50 { print $3 }' "$tmp/kpl")
        range=$(awk -F'\t' -v k=$kind 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                $c["pattern"] == k { v = $c["lat_p50_ns"]; if (lo == "" || v < lo) lo = v; if (v > hi) hi = v }
                END { print lo, hi }' "$d/samples.tsv")
        check "$kind: the pooled median $med ns lies within the repetitions' medians ($range)" \
                '[ -n "$med" ] && awk -v m="$med" -v r="$range" "BEGIN { split(r, a, \" \"); exit !(m >= a[1] * 0.99 && m <= a[2] * 1.01) }"'
done
# The summary's pooled percentiles are `ipclab latency`'s, beside the
# medians of the repetitions' own.
$ipclab summarize "$d" > "$tmp/summary.tsv" 2>"$tmp/err"
check "summarize succeeds" '[ $? -eq 0 ]' || cat "$tmp/err"
for kind in roundtrip oneway; do
        for pq in 50:pooled_p50_ns 99:pooled_p99_ns 100:pooled_max_ns; do
                want=$(awk -F'\t' -v k=$kind -v p=${pq%%:*} '$1 == k && $2 == p { print $3 }' "$tmp/kpl")
                got=$(awk -F'\t' -v k=$kind -v c=${pq#*:} 'NR == 1 { for (i = 1; i <= NF; i++) f[$i] = i; next }
                        $f["pattern"] == k { print $f[c] }' "$tmp/summary.tsv")
                check "$kind: the summary's ${pq#*:} ($got) is ipclab latency's ($want)" '[ -n "$want" ] && [ "$got" = "$want" ]'
        done
done
# The exact nearest-rank percentiles of the raw values, pooled, against
# ipclab latency's (from the histogram of the same values): rank
# ceil(p / 100 * n), as hist_quantile() computes it.
awk -F'\t' 'NR > 1 { for (i = 0; i < $8; i++) print $5, $6 }' "$tmp/lat.tsv" | sort -k1,1 -k2,2n > "$tmp/raw"
worst=$(awk -F'\t' '{ print $1, $2, $3 }' "$tmp/kpl" | awk '
        NR == FNR { v[$1, ++n[$1]] = $2; next }
        { k = $1; p = $2; x = p / 100 * n[k]; r = x == int(x) ? x : int(x) + 1; if (r < 1) r = 1; if (r > n[k]) r = n[k]
          e = ($3 - v[k, r]) / v[k, r]; if (e < 0) e = -e; if (e > w) { w = e; at = k " p" p ": " $3 " vs " v[k, r] } }
        END { printf "%.4f%% (%s)\n", 100 * w, at }' "$tmp/raw" -)
echo "# worst relative error of a pooled percentile against the raw values: $worst"
check "every pooled percentile is within 1% of the raw values' ($worst)" \
        'awk -v w="${worst%%%*}" "BEGIN { exit !(w < 1) }"'

$ipclab latency --cell pattern=oneway "$d" > "$tmp/sel.tsv"
check "--cell pattern=oneway selects the one-way cell" \
        '[ "$(tsv_cols "$tmp/sel.tsv" pattern kind | sort -u)" = "$(printf "oneway\toneway")" ]'
$ipclab latency --cell transport=pipe --spectrum "$d" > "$tmp/spec.tsv"
tsv_cols "$tmp/spec.tsv" kind percentile > "$tmp/spec.kp"
check "--spectrum: from 0, ending in 100, the last but one with 10 of the 6000 values beyond it" '
        [ "$(awk -F"\t" "\$1 == \"roundtrip\"" "$tmp/spec.kp" | head -1 | cut -f2)" = 0 ] &&
        [ "$(awk -F"\t" "\$1 == \"roundtrip\"" "$tmp/spec.kp" | tail -1 | cut -f2)" = 100 ] &&
        awk -F"\t" "\$1 == \"roundtrip\" { p[++n] = \$2 } END { exit !(n > 20 && 1 / (1 - p[n - 1] / 100) <= 600 && 1 / (1 - p[n - 1] / 100) > 600 / 1.3) }" "$tmp/spec.kp"'
out=$($ipclab latency --cell colour=red "$d" 2>&1 >/dev/null); rc=$?
check "a bad selector: exit 2 with a message" '[ $rc -eq 2 ] && [[ $out == *colour=red* ]]'

# One-way transit through every transport that does one-way, D-Bus
# included, with verify=true (the checksum skips the stamp): each
# message's latency is there, and below the repetition's window.
transports=$($ipclab list | awk '$3 == "ok" && $2 != "command" && $1 != "" { printf "%s%s", n++ ? ";" : "", $1 }')
cat > "$tmp/every.ini" <<INI
[experiment]
title=one-way transit everywhere
transport=$transports
bus=dbus-daemon;p2p
payload=bytes;string
size=8;16;4KiB
pattern=oneway
count=300
repeat=1
warmup=10
verify=true
INI
$ipclab run --out "$tmp/out" "$tmp/every.ini" 2>"$tmp/every.log"
check "one-way through every transport ($transports) succeeds" '[ $? -eq 0 ]' || grep failed "$tmp/every.log" | head
bad=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { stamped = $c["payload"] == "bytes" || $c["size_B"] >= 16
          ok = stamped ? $c["lat_n"] == 300 && $c["lat_min_ns"] > 0 && $c["lat_max_ns"] <= $c["elapsed_ns"] : $c["lat_n"] == "-"
          if (!ok) print $c["transport"], $c["bus"], $c["payload"], $c["size_B"], $c["lat_n"], $c["lat_min_ns"], $c["lat_max_ns"] }' \
        "$tmp/out/every/samples.tsv")
check "each stamped message's transit is there, within the window; a 8-byte string has none" '[ -z "$bad" ] &&
        [ "$(tail -n +2 "$tmp/out/every/samples.tsv" | wc -l)" -gt 40 ]' || echo "# $bad"

# Environments merged: each one's latencies, told apart by env.
if $ipclab list | awk '$1 == "nspawn" && $2 == "ok" { found = 1 } END { exit !found }'; then
        sed -e 's/^title=.*/title=two places/' -e 's/^count=2000/count=200/' -e 's/^repeat=3/repeat=2/' \
                -e '/^store_latencies/d' "$tmp/lat.ini" > "$tmp/envs.ini"
        echo "env=host;nspawn" >> "$tmp/envs.ini"
        $ipclab run --out "$tmp/out" "$tmp/envs.ini" 2>"$tmp/envs.log"
        check "env=host;nspawn: both environments' latencies in the merged file" '[ $? -eq 0 ] &&
                [ "$(zcat "$tmp/out/envs/latencies.tsv.gz" | tail -n +2 | cut -f1-4 | sort -u | wc -l)" -eq 8 ] &&
                $ipclab latency "$tmp/out/envs" > "$tmp/envs.tsv" &&
                [ "$(tsv_cols "$tmp/envs.tsv" env percentile | awk -F"\t" "\$2 == 50" | cut -f1 | sort | uniq -c | tr -s " ")" = "$(printf " 2 host\n 2 nspawn")" ]' ||
                tail -5 "$tmp/envs.log"
else
        skip "env=host;nspawn: latencies merged" "systemd-nspawn cannot run here ($($ipclab list | awk '$1 == "nspawn" { $1 = $2 = ""; print }'))"
fi

# Damage, each named.
cp -r "$d" "$tmp/cut"
head -c 200 "$d/latencies.tsv.gz" > "$tmp/cut/latencies.tsv.gz"
out=$($ipclab latency "$tmp/cut" 2>&1 >/dev/null); rc=$?
check "a truncated file: exit 2 naming it" '[ $rc -eq 2 ] && [[ $out == *"$tmp/cut/latencies.tsv.gz"*truncated* ]]' || echo "# $out"
cp "$d/latencies.tsv.gz" "$tmp/cut/"
printf '\xff\xff\xff\xff\xff\xff\xff\xff' | dd of="$tmp/cut/latencies.tsv.gz" bs=1 seek=300 conv=notrunc 2>/dev/null
out=$($ipclab latency "$tmp/cut" 2>&1 >/dev/null); rc=$?
check "a corrupt file: exit 2 naming it" '[ $rc -eq 2 ] && [[ $out == *"$tmp/cut/latencies.tsv.gz"* ]]' || echo "# $out"
out=$($ipclab summarize "$tmp/cut" 2>&1 >/dev/null); rc=$?
check "summarize of a corrupt file: exit 2 naming it" '[ $rc -eq 2 ] && [[ $out == *"$tmp/cut/latencies.tsv.gz"* ]]' || echo "# $out"
cp "$d/latencies.tsv.gz" "$tmp/cut/"
awk -F'\t' -v c="$(tsv_index cell "$d/samples.tsv")" -v r="$(tsv_index rep "$d/samples.tsv")" \
        'NR == 1 || !($c == 1 && $r == 2)' "$d/samples.tsv" > "$tmp/cut/samples.tsv"
out=$($ipclab latency "$tmp/cut" 2>&1 >/dev/null); rc=$?
check "a repetition samples.tsv lacks: exit 2 naming file and line" \
        '[ $rc -eq 2 ] && [[ $out == *"$tmp/cut/latencies.tsv.gz:"[0-9]*"cell 1 repetition 2"* ]]' || echo "# $out"
rm "$tmp/cut/latencies.tsv.gz"
out=$($ipclab latency "$tmp/cut" 2>&1 >/dev/null); rc=$?
check "no latencies.tsv.gz: exit 2 saying so" '[ $rc -eq 2 ] && [[ $out == *"latencies.tsv.gz: no such file"* ]]'

# Interrupted and resumed: histograms (the default).
cat > "$tmp/intr.ini" <<'INI'
[experiment]
title=interrupt me
transport=pipe
size=64;128;256
pattern=roundtrip;oneway
count=20000
repeat=3
warmup=10
INI
partial=$tmp/res/.intr.partial.tsv
lpartial=$tmp/res/.intr.partial-latencies.tsv
# The run stops itself after 3 rows (the stop shim), and is interrupted there.
shim=$(stop_shim "$tmp")
LD_PRELOAD=$shim IPCLAB_TEST_STOP_ROWS=3 $ipclab run --out "$tmp/res" "$tmp/intr.ini" 2>"$tmp/intr.log" &
pid=$!
wait_until "stopped $pid || ! kill -0 $pid 2>/dev/null"
kill -INT $pid
kill -CONT $pid
wait $pid
rc=$?
check "SIGINT after 3 rows: exit 130" '[ $rc -eq 130 ] && [ "$(grep -c "	ok	" "$partial")" -eq 3 ]'
# The finished repetitions' rows of latencies, "cell rep" each.
tail -n +3 "$partial" | cut -f1,2 | sort > "$tmp/finished"
kept() { awk -F'\t' 'NR == FNR { k[$1 "\t" $2] = 1; next } FNR > 1 && (($3 "\t" $4) in k)' "$tmp/finished" "$1" | sort; }
kept "$lpartial" > "$tmp/before"
check "the partial latencies hold the finished repetitions'" '[ -s "$tmp/before" ] &&
        [ "$(cut -f3,4 "$tmp/before" | sort -u)" = "$(cat "$tmp/finished")" ]'
$ipclab run --resume --out "$tmp/res" "$tmp/intr.ini" 2>"$tmp/resume.log"
check "--resume finishes" '[ $? -eq 0 ] && [ ! -e "$partial" ] && [ ! -e "$lpartial" ]' || cat "$tmp/resume.log"
zcat "$tmp/res/intr/latencies.tsv.gz" > "$tmp/after.tsv"
kept "$tmp/after.tsv" > "$tmp/after"
check "the finished repetitions' histograms are kept byte for byte" 'cmp -s "$tmp/before" "$tmp/after"'
counts() {
        awk -F'\t' 'NR > 1 { n[$3 " " $4] += $8 } END { for (k in n) print k, n[k] }' "$1" | sort > "$tmp/c1"
        awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["cell"], $c["rep"], $c["lat_n"] }' \
                "$2" | sort > "$tmp/c2"
        cmp -s "$tmp/c1" "$tmp/c2" && [ "$(wc -l < "$tmp/c2")" -eq 18 ]
}
check "every repetition has its histogram, once, as many values as lat_n" 'counts "$tmp/after.tsv" "$tmp/res/intr/samples.tsv"'
check "histogram rows are hist.h buckets (lower < upper above 255 ns)" \
        '[ "$(awk -F"\t" "NR > 1 && \$6 >= 256 && \$6 == \$7" "$tmp/after.tsv" | wc -l)" -eq 0 ]'

# Lost latencies: the repetition is measured again.
rm -rf "$tmp/res"
LD_PRELOAD=$shim IPCLAB_TEST_STOP_ROWS=2 $ipclab run --out "$tmp/res" "$tmp/intr.ini" 2>"$tmp/intr.log" &
pid=$!
wait_until "stopped $pid || ! kill -0 $pid 2>/dev/null"
kill -INT $pid
kill -CONT $pid
wait $pid
check "SIGINT after 2 rows: exit 130" '[ $? -eq 130 ] && [ "$(grep -c "	ok	" "$partial")" -eq 2 ]'
head -1 "$lpartial" > "$tmp/h" && cp "$tmp/h" "$lpartial"
$ipclab run --resume --out "$tmp/res" "$tmp/intr.ini" 2>"$tmp/resume.log"
rc=$?
check "latencies lost: the rows are dropped with a warning and measured again" \
        '[ $rc -eq 0 ] && grep -q "dropped: none of its 20000 latencies are in" "$tmp/resume.log"' || cat "$tmp/resume.log"
zcat "$tmp/res/intr/latencies.tsv.gz" > "$tmp/after.tsv"
check "... and every repetition has its histogram" 'counts "$tmp/after.tsv" "$tmp/res/intr/samples.tsv"'

done_testing
