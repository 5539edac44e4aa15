#!/bin/bash
# test-cli.sh: the ipclab command line as a user meets it: list, check,
# bad input (exit 2, a message naming file, group and key, nothing written),
# run and summarize on a small real experiment, atomic replacement of data.
set -u
cd "$(dirname "$0")/../.."
. harness/tests/tap.sh
tap_tmp

# list names every transport and says why one is unavailable
out=$($ipclab list)
for t in direct pipe fifo unix-stream unix-dgram unix-seqpacket socketpair tcp udp mq sysv-msg shm eventfd-shm libdbus gdbus sd-bus \
         splice process-vm io-uring busy-ring memfd \
         qtdbus sdbus-c++ fdpass; do
        check "list shows $t" 'grep -q "^$t " <<<"$out"'
done
# the messaging libraries' transports: the version of the library each
# uses, or why it is unavailable
for t in zeromq nng grpc; do
        lib=$(grep -A1 "^$t " <<<"$out")
        check "list shows $t with its library's version, or why not" \
                '{ grep -qE "^$t +library +ok " <<<"$lib" && grep -qE "^ +uses: [^ ].* [0-9]+\.[0-9]+" <<<"$lib"; } ||
                 { grep -qE "^$t +library +unavailable " <<<"$lib" && grep -qE "^ +why: built without" <<<"$lib"; }'
done
# a built-in transport on a library: its version in the list and meta.ini
check "list gives io-uring's liburing version" 'grep -A1 "^io-uring " <<<"$out" | grep -q "uses: liburing [0-9]"'
printf '[experiment]\ntitle=uring\ntransport=io-uring\npattern=roundtrip\ncount=5\nrepeat=1\n' > "$tmp/uring.ini"
$ipclab run --out "$tmp/uring-out" "$tmp/uring.ini" 2>/dev/null
check "meta.ini records io-uring's liburing version" 'grep -q "^io_uring=liburing [0-9]" "$tmp/uring-out/uring/meta.ini"'
check "list shows the bus variants" 'grep -q "bus=dbus-broker" <<<"$out" && grep -q "bus=p2p" <<<"$out"'
# sdbus-c++, when built in: which path its std::vector<uint8_t> takes, and
# before 1.4.0 no peer to peer (the bus line says why)
sdcpp=$(grep -A3 '^sdbus-c++ ' <<<"$out")
if grep -q '^sdbus-c++ *dbus *ok' <<<"$sdcpp"; then
        check "list says how sdbus-c++ appends a vector" \
                'grep -qE "appends std::vector<uint8_t> (element by element \(before 1.3.0\)|as one array)" <<<"$sdcpp"'
        check "list says why sdbus-c++ has no p2p, or has it" \
                'grep -qE "ok +bus=p2p$|unavailable +bus=p2p: sdbus-c\+\+ .* has no peer-to-peer" <<<"$sdcpp"'
else
        skip "list: sdbus-c++'s vector path and buses" "sdbus-c++ is not built in"
fi

# check prints the cells and an estimate for every shipped experiment
for f in experiments/*.ini; do
        out=$($ipclab check "$f" 2>&1); rc=$?
        check "check $(basename "$f") exits 0" '[ $rc -eq 0 ]'
        check "check $(basename "$f") prints an estimate" 'grep -q "estimated duration" <<<"$out"'
        out=$($ipclab check --profile quick "$f" 2>&1); rc=$?
        check "check --profile quick $(basename "$f")" '[ $rc -eq 0 ]'
done

# check lists the cells in file order (the axes' expansion: transport
# outermost, count innermost), --run-order as seed= shuffles them; then
# each claim with its pairs, one line each, as many as it says it has
cat > "$tmp/order.ini" <<'INI'
[experiment]
title=order
transport=pipe;unix-stream
size=16;64;256;1024
count=10;20
repeat=6
seed=7

[claim pipe-beats-unix]
text=pipes beat Unix stream sockets
faster=transport=pipe
slower=transport=unix-stream
metric=roundtrip_latency
INI
out=$($ipclab check "$tmp/order.ini"); rc=$?
idx=$(awk '/^ +[0-9]+  [a-z]/ { print $1 }' <<<"$out")
check "check order.ini exits 0" '[ $rc -eq 0 ]'
check "check lists 16 cells in file order, 0 to 15" '[ "$(echo $idx)" = "$(seq -s " " 0 15)" ]' "$idx"
check "the first cells are pipe size=16 count=10 then count=20" \
        'grep -qE "^ +0  pipe .*size=16 .*count=10$" <<<"$out" && grep -qE "^ +1  pipe .*size=16 .*count=20$" <<<"$out"'
out=$($ipclab check --run-order "$tmp/order.ini"); rc=$?
ridx=$(awk '/^ +[0-9]+  [a-z]/ { print $1 }' <<<"$out")
check "--run-order lists the same 16 cells, shuffled by seed=7" \
        '[ $rc -eq 0 ] && [ "$(sort -n <<<"$ridx" | xargs)" = "$(seq -s " " 0 15)" ] && [ "$(echo $ridx)" != "$(echo $idx)" ]' "$ridx"
out=$($ipclab check "$tmp/order.ini")
check "the claim says it has 8 pairs and lists 8, each pipe vs unix-stream" \
        'grep -q "claim pipe-beats-unix: 8 pairs" <<<"$out" &&
         [ "$(grep -cE "^    pair [0-9]+: pipe .*  vs  unix-stream " <<<"$out")" -eq 8 ]' "$out"
check "pair 1 is the first cells of each side in file order" \
        'grep -qE "^    pair 1: pipe .*16 B.*count=10  vs  unix-stream .*16 B.*count=10$" <<<"$out"' "$out"

# ipclab keys lists every key of every group from the parsers' own tables:
# each listed key is accepted in its group (its value may be wrong, its
# name is not), and a key it does not list is refused in every group
keys=$($ipclab keys); rc=$?
check "keys exits 0 and lists the keys of every group" \
        '[ $rc -eq 0 ] && for g in experiment claim figure table number; do grep -qE "^([a-z]+,)*$g[, ]" <<<"$keys" || exit 1; done'
check "check --help points at ipclab keys" '$ipclab check --help | grep -q "ipclab keys"'
{
        for g in experiment "claim c" "figure f" "table t" "number n"; do
                printf '[%s]\n' "$g"
                awk -v g="${g%% *}" 'NR > 1 { n = split($1, gs, ","); for (i = 1; i <= n; i++) if (gs[i] == g) print $2 "=@" }' <<<"$keys"
                echo "nosuchkey=1"
        done
} > "$tmp/keys.ini"
out=$($ipclab check "$tmp/keys.ini" 2>&1)
refused=$(grep -oE "\] [a-z_]+: unknown key" <<<"$out" | awk '{ print $2 }' | sort | uniq -c | awk '{ print $2 ":" $1 }' | xargs)
check "every listed key is accepted; nosuchkey is refused in each of the 5 groups" '[ "$refused" = "nosuchkey::5" ]' "refused: $refused"

# bad input: status 2, file + group + key in the message, nothing written
mkdir -p "$tmp/out"
bad() {
        local name=$1 text=$2 expect=$3
        printf '%b' "$text" > "$tmp/$name.ini"
        out=$($ipclab run --out "$tmp/out" "$tmp/$name.ini" 2>&1); rc=$?
        check "bad $name: exit 2" '[ $rc -eq 2 ]'
        check "bad $name: message names it ($expect)" \
                'grep -F -- "$expect" <<<"$out" | grep -qE -- "^ipclab: $tmp/$name.ini(:[0-9]+)?: "'
        check "bad $name: nothing written" '[ -z "$(ls -A "$tmp/out")" ]'
}
bad unknown-key '[experiment]\ntitle=t\ntransport=pipe\ncount=1\nspeed=11\n' '[experiment] speed: unknown key'
bad bad-size '[experiment]\ntitle=t\ntransport=pipe\ncount=1\nsize=1TB\n' "[experiment] size: '1TB' is not a size"
bad zero-count '[experiment]\ntitle=t\ntransport=pipe\ncount=0\n' "[experiment] count: '0' is out of range"
bad profile '[experiment]\ntitle=t\ntransport=pipe\ncount=1\n[profile quick]\nrepeat=-1\n' "[profile quick] repeat: '-1' is not a whole number"
bad bus '[experiment]\ntitle=t\ntransport=libdbus\nbus=kdbus\ncount=1\n' "[experiment] bus: unknown value 'kdbus'"
out=$($ipclab run --out "$tmp/out" "$tmp/missing.ini" 2>&1); rc=$?
check "missing file: exit 2 and named" '[ $rc -eq 2 ] && grep -qF "$tmp/missing.ini: cannot read" <<<"$out"'
out=$($ipclab frobnicate 2>&1); rc=$?
check "unknown command: exit 2" '[ $rc -eq 2 ] && grep -q "unknown command" <<<"$out"'
out=$($ipclab run --profile nope experiments/kernel-latency.ini --out "$tmp/out" 2>&1); rc=$?
check "unknown profile: exit 2, named" '[ $rc -eq 2 ] && grep -qF "[profile nope]: no such profile" <<<"$out"'
check "nothing written after all bad input" '[ -z "$(ls -A "$tmp/out")" ]'

# a real run: samples.tsv and meta.ini, one row per repetition, summary
cat > "$tmp/small.ini" <<'INI'
[experiment]
title=small
transport=pipe;unix-stream
payload=bytes;string
size=16;4KiB
pattern=oneway;roundtrip
count=200
repeat=3
warmup=5
verify=true
INI
$ipclab run --out "$tmp/out" "$tmp/small.ini" 2>"$tmp/err"; rc=$?
check "run exits 0" '[ $rc -eq 0 ]'
check "samples.tsv has a header and 2x2x2x2x3 rows" '[ "$(wc -l < "$tmp/out/small/samples.tsv")" -eq 49 ]'
check "every row ok" '[ "$(tsv_cols "$tmp/out/small/samples.tsv" status | grep -c "^ok$")" -eq 48 ]'
check "header names units" 'head -1 "$tmp/out/small/samples.tsv" | grep -q "elapsed_ns.*bytes_B.*lat_p99_ns"'
check "meta.ini records the file hash" 'grep -qx "sha256=$(sha256sum < "$tmp/small.ini" | cut -d" " -f1)" "$tmp/out/small/meta.ini"'
check "meta.ini records kernel and cpu" 'grep -q "^kernel=" "$tmp/out/small/meta.ini" && grep -q "^cpu_model=" "$tmp/out/small/meta.ini"'
check "no partial or staging files left" '[ "$(ls -A "$tmp/out")" = small ]'
sum=$($ipclab summarize "$tmp/out/small"); rc=$?
check "summarize exits 0" '[ $rc -eq 0 ]'
check "summarize: one row per cell plus header" '[ "$(wc -l <<<"$sum")" -eq 17 ]'
check "summarize: n=3 everywhere" '[ "$(tsv_cols <(printf "%s\n" "$sum") n | sort -u)" = 3 ]'

# rerun: the directory is replaced whole (new meta.ini), never merged
# (started= is to the microsecond: two runs never share it)
before=$(grep '^started=' "$tmp/out/small/meta.ini")
$ipclab run --out "$tmp/out" "$tmp/small.ini" 2>/dev/null
after=$(grep '^started=' "$tmp/out/small/meta.ini")
check "rerun replaces the data" '[ "$before" != "$after" ] && [ "$(wc -l < "$tmp/out/small/samples.tsv")" -eq 49 ]'

# a write that cannot happen leaves the previous data intact (root writes
# through mode 0555: as root, the run is made as nobody)
chmod 0555 "$tmp/out"
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1 && setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
        chmod 0755 "$tmp"
        chmod 0644 "$tmp/small.ini"
        # (a copy nobody can reach: the tree may be in /root)
        as=(setpriv --reuid=nobody --regid=nogroup --clear-groups env XDG_RUNTIME_DIR=/tmp TMPDIR=/tmp
            "$(for_others "$tmp/nobody" "$ipclab")")
else
        as=("$ipclab")
fi
if [ "$(id -u)" -ne 0 ] || [ ${#as[@]} -gt 1 ]; then
        "${as[@]}" run --out "$tmp/out" "$tmp/small.ini" 2>/dev/null; rc=$?
        check "unwritable output$([ ${#as[@]} -gt 1 ] && echo " (as nobody)"): exit 2, data intact" '[ $rc -eq 2 ] && [ "$(wc -l < "$tmp/out/small/samples.tsv")" -eq 49 ]'
else
        skip "unwritable output: exit 2, data intact" "root writes through mode 0555, and cannot run as nobody here"
fi
chmod 0755 "$tmp/out"

done_testing
