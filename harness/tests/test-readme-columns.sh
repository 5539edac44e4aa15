#!/bin/bash
# test-readme-columns.sh: the README's column list is the column schema.
#   1. the table between README.md's "columns" markers is exactly what
#      `ipclab columns` says, written as below (so a column added,
#      renamed or relabelled in harness/define/columns.c fails here until the
#      README says so too); run with --print for the block to paste;
#   2. every column name the "Data" section's prose quotes (`..._ns`,
#      `..._B`, ...) is a column of the schema or one of its _lo/_hi, or
#      of latencies.tsv.gz (LATENCY_HEADER in harness/store/latency.h) or of
#      `ipclab latency`'s output (its header line in harness/cli/cmd-latency.c).
set -u
cd "$(dirname "$0")/../.."
ipclab=$PWD/harness/ipclab
. harness/tests/tap.sh

# The README block for the TSV of `ipclab columns` on stdin.
table() {
        echo '| column | kind | in | unit | label | selector key | better | claim metric |'
        echo '|---|---|---|---|---|---|---|---|'
        awk -F'\t' 'NR > 1 {
                name = "`" $1 "`"
                if ($7 != "-")
                        name = name " (and `" $1 "_lo`, `" $1 "_hi`)"
                files = $6
                sub(",", ", ", files)
                printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", name, $2, files,
                       $3 == "-" ? "" : $3, $4, $5 == "-" ? "" : "`" $5 "`",
                       $8 == "-" ? "" : $8, $9 == "-" ? "" : "`" $9 "`"
        }'
}

want=$("$ipclab" columns | table)
if [ "${1:-}" = --print ]; then
        printf '%s\n' "$want"
        exit 0
fi
got=$(sed -n '/^<!-- columns: begin/,/^<!-- columns: end/p' README.md | sed '1d;$d')
check "ipclab columns lists columns" '[ "$("$ipclab" columns | wc -l)" -gt 30 ]'
if [ "$got" = "$want" ]; then
        ok "README's column table is ipclab columns"
else
        not_ok "README's column table is ipclab columns (bash $0 --print gives it)" \
                "$(diff <(printf '%s\n' "$got") <(printf '%s\n' "$want") | head -20)"
fi

names=$("$ipclab" columns | awk -F'\t' 'NR > 1 { print $1; if ($7 != "-") { print $1 "_lo"; print $1 "_hi" } }')
# latencies.tsv.gz's columns and those `ipclab latency` adds to the axes
names="$names
$(sed -n 's/^#define LATENCY_HEADER "\(.*\)\\n"$/\1/p' harness/store/latency.h | sed 's/\\t/\n/g')
$(sed -n 's/.*printf("\\tkind\\tpercentile\\t\([a-z_]*\)\\n");.*/\1/p' harness/cli/cmd-latency.c)"
data=$(sed -n '/^## Data/,/^## /p' README.md | sed '/^<!-- columns: begin/,/^<!-- columns: end/d')
unknown=""
for w in $(grep -oE '`[a-z0-9_]+_(ns|B|MiBps|per_s|hmean|lo|hi|n)`' <<<"$data" | tr -d '`' | sort -u); do
        grep -qx "$w" <<<"$names" || unknown="$unknown $w"
done
check "the Data section quotes only columns of the schema${unknown:+ (not:$unknown)}" '[ -z "$unknown" ]'
echo "1..$n"
[ "$failed" -eq 0 ]
