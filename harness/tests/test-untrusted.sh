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
{ printf 'env\tmachine\tcell\trep\tkind\tlower_ns\tupper_ns\tcount\n'; yes "$(printf 'host\tvm\t0\t0\troundtrip\t5\t5\t1')" | head -c $((300 << 20)); } |
        gzip -1 > "$tmp/bomb2/latencies.tsv.gz"
guard "$ipclab" summarize "$tmp/bomb2"
check "300 MiB of latency rows in a small latencies.tsv.gz: refused past 256 MiB, named" \
        '[ $rc -eq 2 ] && grep -q "bomb2/latencies.tsv.gz: inflates to more than 256 MiB" <<<"$out"' || echo "# $out"

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

echo "1..$n"
[ "$failed" -eq 0 ]
