#!/bin/bash
# test-placement.sh: where a repetition ran is recorded, and what is
# recorded is what was forced (harness/measure/placement.h, harness/measure/runner.c):
#   1. cpus=same: every repetition "same", client, server and bus daemon
#      on one CPU; cpus=split: "split", client apart, the bus daemon with
#      the server; for a kernel transport, libdbus through dbus-daemon and
#      GDBus (threads of its own), round trip and one-way;
#   2. cpus=none under `taskset -c 1` of the whole ipclab: "same", on
#      CPU 1 (the scheduler has no choice; nothing is left to luck);
#   3. a fixed window (fixed_ns) in every measured row, and none for a
#      hyperfine command;
#   4. a cell whose repetitions ran in two placements is named by
#      `ipclab check` (its data) and shown apart by
#      `ipclab summarize --by-placement`.
# Needs two CPUs for 1 (skipped with one).
set -u
cd "$(dirname "$0")/../.."
. harness/tests/tap.sh
tap_tmp

have_dbus=no
command -v dbus-daemon > /dev/null && have_dbus=yes

# ---- 1. cpus=same and cpus=split are recorded as such ----------------------
if [ "$(nproc)" -lt 2 ]; then
        skip "cpus=same and cpus=split recorded" "one CPU here"
else
        transports="pipe;unix-stream"
        [ "$have_dbus" = yes ] && transports="$transports;libdbus;gdbus"
        cat > "$tmp/pin.ini" <<INI
[experiment]
title=placement forced
transport=$transports
bus=dbus-daemon
payload=bytes
size=64
pattern=roundtrip;oneway
cpus=same;split
count=50
repeat=2
warmup=5
seed=3
INI
        $ipclab run --out "$tmp/out" "$tmp/pin.ini" 2> "$tmp/pin.err"; rc=$?
        f=$tmp/out/pin/samples.tsv
        check "the pinned cells run (exit 0)" '[ $rc -eq 0 ]' || sed 's/^/# /' "$tmp/pin.err"
        rows=$(tsv_cols "$f" status | grep -c '^ok$')
        check "every repetition measured ($rows)" '[ "$rows" -gt 0 ] && [ "$(tsv_cols "$f" status | grep -vc "^ok$")" -eq 0 ]'
        # Every check below reads these columns: none may pass on rows it
        # could not read.
        seen=$(tsv_cols "$f" placement client_on_cpu server_on_cpu migrations | grep -c .)
        bad=$(tsv_cols "$f" transport pattern cpus placement | awk -F'\t' '$3 != $4')
        check "each repetition's placement is its cpus= (same, split)" '[ "$rows" -gt 0 ] && [ "$seen" -eq "$rows" ] && [ -z "$bad" ]' "$bad"
        bad=$(tsv_cols "$f" transport pattern cpus client_on_cpu server_on_cpu bus_on_cpu |
                awk -F'\t' '($3 == "same" && ($4 != $5 || ($6 != "-" && $6 != $4))) ||
                            ($3 == "split" && ($4 == $5 || ($6 != "-" && $6 != $5)))')
        check "same: one CPU for all; split: client apart, the bus daemon with the server" '[ -z "$bad" ]' "$bad"
        bad=$(tsv_cols "$f" transport pattern migrations | awk -F'\t' '$3 != "0"')
        check "no migration of a pinned repetition" '[ -z "$bad" ]' "$bad"
        [ "$have_dbus" = yes ] &&
                check "the bus daemon's CPU is recorded for the bus cells" \
                        '[ -z "$(tsv_cols "$f" transport bus_on_cpu | awk -F"\t" "(\$1 ~ /dbus/) == (\$2 == \"-\")")" ]'
fi

# ---- 2. Unpinned, but ipclab confined to one CPU: same --------------------
cat > "$tmp/one.ini" <<'INI'
[experiment]
title=one CPU by taskset
transport=pipe;socketpair
payload=bytes
size=64
pattern=roundtrip;oneway
cpus=none
count=50
repeat=3
warmup=5
seed=4
INI
if ! command -v taskset > /dev/null; then
        skip "cpus=none under taskset -c 1 is same" "taskset is not installed"
else
        cpu=$(( $(nproc) > 1 ? 1 : 0 ))
        taskset -c $cpu $ipclab run --out "$tmp/out" "$tmp/one.ini" 2> "$tmp/one.err"; rc=$?
        f=$tmp/out/one/samples.tsv
        check "the run under taskset -c $cpu exits 0" '[ $rc -eq 0 ]' || sed 's/^/# /' "$tmp/one.err"
        bad=$(tsv_cols "$f" transport pattern placement client_on_cpu server_on_cpu |
                awk -F'\t' -v cpu=$cpu 'NF != 5 || $3 != "same" || $4 != cpu || $5 != cpu')
        check "unpinned under taskset -c $cpu: every repetition same, on CPU $cpu" \
                '[ -z "$bad" ] && [ "$(tsv_cols "$f" placement | wc -l)" -eq 12 ]' "$bad"
        h=$($ipclab summarize "$tmp/out/one")
        check "the summary says same, with its count" \
                '[ "$(awk -F"\t" "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
                        { print \$c[\"placement\"], \$c[\"placement_modes\"] }" <<<"$h" | sort -u)" = "same same:3" ]'
fi

# ---- 3. The fixed window --------------------------------------------------
f=$tmp/out/one/samples.tsv
bad=$(tsv_cols "$f" transport pattern elapsed_ns fixed_ns | awk -F'\t' '$4 == "-" || $4 <= 0')
check "every measured row has a fixed window (fixed_ns > 0)" '[ -s "$f" ] && [ -z "$bad" ]' "$bad"
if command -v hyperfine > /dev/null && command -v dbus-send > /dev/null && [ "$have_dbus" = yes ]; then
        cat > "$tmp/hf.ini" <<'INI'
[experiment]
title=commands
transport=dbus-send
runner=hyperfine
bus=dbus-daemon
payload=string
size=16
pattern=roundtrip
count=2
repeat=1
warmup=2
INI
        $ipclab run --out "$tmp/out" "$tmp/hf.ini" 2> /dev/null
        check "a hyperfine command has no fixed window and no placement" \
                '[ "$(tsv_cols "$tmp/out/hf/samples.tsv" status fixed_ns placement)" = "$(printf "ok\t-\t-")" ]'
else
        skip "a hyperfine command has no fixed window and no placement" "hyperfine, dbus-send or dbus-daemon missing"
fi

# ---- 4. A cell of two placements is named ---------------------------------
# The one-CPU data, one repetition relabelled split (as if the scheduler
# had moved it): check names the cell, summarize shows it apart.
mkdir -p "$tmp/data/one"
cp "$tmp/out/one/meta.ini" "$tmp/data/one/" 2> /dev/null
awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
        { if ($c["transport"] == "pipe" && $c["pattern"] == "oneway" && $c["rep"] == 1) $c["placement"] = "split"; print }' \
        "$tmp/out/one/samples.tsv" > "$tmp/data/one/samples.tsv"
$ipclab check --data "$tmp/data" "$tmp/one.ini" > /dev/null 2> "$tmp/check.err"; rc=$?
check "ipclab check exits 0 and names the mixed cell, with its modes" \
        '[ $rc -eq 0 ] && [ "$(grep -c "ran in more than one CPU placement" "$tmp/check.err")" -eq 1 ] &&
         grep -q "transport=pipe,.*pattern=oneway,.*: same:2,split:1" "$tmp/check.err"' "$(cat "$tmp/check.err")"
$ipclab check --data "$tmp/out" "$tmp/one.ini" > /dev/null 2> "$tmp/check2.err"
check "... and nothing of the unmixed data" '! grep -q "CPU placement" "$tmp/check2.err"'
s=$($ipclab summarize --by-placement "$tmp/data/one")
check "summarize --by-placement: that cell as two rows, same (2) and split (1)" \
        '[ "$(awk -F"\t" "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
                \$c[\"transport\"] == \"pipe\" && \$c[\"pattern\"] == \"oneway\" { print \$c[\"placement\"], \$c[\"n\"] }" <<<"$s")" = "$(printf "same 2\nsplit 1")" ]' "$s"
s=$($ipclab summarize "$tmp/data/one")
check "summarize: that cell mixed, same:2,split:1" \
        'awk -F"\t" "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
                \$c[\"transport\"] == \"pipe\" && \$c[\"pattern\"] == \"oneway\" { print \$c[\"placement\"], \$c[\"placement_modes\"] }" <<<"$s" |
         grep -qx "mixed same:2,split:1"'
echo "1..$n"
[ "$failed" -eq 0 ]
