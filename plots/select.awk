# select.awk: pick rows and columns of a TSV file by column name.
#
# The gnuplot scripts read summaries (build/summary/<exp>.tsv) and the
# transcribed published numbers (data/published/*.tsv) through this filter,
# so that they name columns instead of counting them and never depend on
# the order of rows or columns.  POSIX awk only.
#
#   awk -f select.awk -v where=COND -v cols=C1,C2,... FILE     (mode=rows)
#   awk -f select.awk -v mode=keys -v where=COND -v keys=K1,K2 FILE
#   awk -f select.awk -v mode=count -v where=COND FILE
#
# Lines starting with '#' and empty lines are skipped; the first other line
# is the header.  COND is a comma-separated list of conditions, all of which
# must hold: `col=v` (equal), `col=v1|v2` (any of), `col!=v` (none of).
# An empty COND selects every row.
#
# mode=rows (default): prints the columns COLS of every selected row,
#   tab-separated; "-" and empty cells become NaN so that gnuplot skips
#   them.  Rows are sorted numerically on the first column unless sort=0.
#   Two selected rows with the same first column mean the condition is not
#   specific enough (an axis was left out): a warning naming the columns in
#   which they differ goes to stderr, and the Make rule fails on it.
#   With uniq=1 only the first row (in file order) of each value of the
#   first column is kept, for columns that depend on that value alone
#   (memcpy_MiBps depends on size_B only: every cell of that size has it).
# mode=keys: prints, on one line, the distinct values of the KEYS columns
#   joined by ':', in the order of their first appearance, separated by
#   spaces (for gnuplot's `plot for [k in ...]`).
# mode=count: prints the number of selected rows.
#
# Errors (a missing file, an unknown column) go to stderr, prefixed
# "select.awk: ERROR", and the exit status is 2.

function fail(msg)
{
        printf "select.awk: ERROR: %s: %s\n", FILENAME, msg > "/dev/stderr"
        failed = 1
        exit 2
}

function column_index(name)
{
        if (!(name in idx))
                fail("no column '" name "' (have: " header_line ")")
        return idx[name]
}

function parse_where(    n, i, conds, c, p, name)
{
        ncond = 0
        if (where == "")
                return
        n = split(where, conds, ",")
        for (i = 1; i <= n; i++) {
                c = conds[i]
                if (c == "")
                        continue
                ncond++
                if ((p = index(c, "!=")) > 0) {
                        cond_neg[ncond] = 1
                        name = substr(c, 1, p - 1)
                        cond_vals[ncond] = "|" substr(c, p + 2) "|"
                } else if ((p = index(c, "=")) > 0) {
                        cond_neg[ncond] = 0
                        name = substr(c, 1, p - 1)
                        cond_vals[ncond] = "|" substr(c, p + 1) "|"
                } else {
                        fail("bad condition '" c "' in where (want col=v or col!=v)")
                }
                cond_col[ncond] = column_index(name)
        }
}

function selected(    i, hit)
{
        for (i = 1; i <= ncond; i++) {
                hit = index(cond_vals[i], "|" $(cond_col[i]) "|") > 0
                if (hit == cond_neg[i])
                        return 0
        }
        return 1
}

function cell(i,    v)
{
        v = $i
        return (v == "-" || v == "") ? "NaN" : v
}

BEGIN {
        FS = "\t"
        if (mode == "")
                mode = "rows"
        if (sort == "")
                sort = 1
        if (uniq == "")
                uniq = 0
        if (mode != "rows" && mode != "keys" && mode != "count") {
                printf "select.awk: ERROR: unknown mode '%s'\n", mode > "/dev/stderr"
                failed = 1
                exit 2
        }
        have_header = 0
        nrows = 0
        if (ARGC < 2 || ARGV[ARGC - 1] == "") {
                print "select.awk: ERROR: no input file" > "/dev/stderr"
                failed = 1
                exit 2
        }
}

/^#/ || /^[ \t]*$/ {
        next
}

!have_header {
        have_header = 1
        header_line = $0
        gsub(/\t/, " ", header_line)
        for (i = 1; i <= NF; i++)
                idx[$i] = i
        parse_where()
        if (mode == "rows") {
                if (cols == "")
                        fail("no cols given")
                ncols = split(cols, colnames, ",")
                for (i = 1; i <= ncols; i++)
                        colidx[i] = column_index(colnames[i])
        } else if (mode == "keys") {
                if (keys == "")
                        fail("no keys given")
                nkeys = split(keys, keynames, ",")
                for (i = 1; i <= nkeys; i++)
                        keyidx[i] = column_index(keynames[i])
        }
        next
}

!selected() {
        next
}

mode == "count" {
        nrows++
        next
}

mode == "keys" {
        k = $(keyidx[1])
        for (i = 2; i <= nkeys; i++)
                k = k ":" $(keyidx[i])
        if (!(k in seen_key)) {
                seen_key[k] = 1
                key_list = key_list (key_list == "" ? "" : " ") k
        }
        next
}

uniq && ($(colidx[1]) in seen_first) {
        next
}

{
        seen_first[$(colidx[1])] = 1
        nrows++
        line = cell(colidx[1])
        for (i = 2; i <= ncols; i++)
                line = line "\t" cell(colidx[i])
        out[nrows] = line
        sortkey[nrows] = $(colidx[1]) + 0
        whole[nrows] = $0
}

END {
        if (failed)
                exit 2
        if (mode == "count") {
                print nrows + 0
                exit 0
        }
        if (mode == "keys") {
                print key_list
                exit 0
        }
        order_rows()
        check_duplicates()
        for (i = 1; i <= nrows; i++)
                print out[ord[i]]
}

# Stable insertion sort of the row numbers on sortkey (tens of rows).
function order_rows(    i, j, t)
{
        for (i = 1; i <= nrows; i++)
                ord[i] = i
        if (!sort)
                return
        for (i = 2; i <= nrows; i++) {
                t = ord[i]
                for (j = i - 1; j >= 1 && sortkey[ord[j]] > sortkey[t]; j--)
                        ord[j + 1] = ord[j]
                ord[j + 1] = t
        }
}

function check_duplicates(    i, a, b, na, nb, fa, fb, k, diff)
{
        if (!sort || uniq)
                return
        for (i = 2; i <= nrows; i++) {
                a = ord[i - 1]
                b = ord[i]
                if (sortkey[a] != sortkey[b])
                        continue
                na = split(whole[a], fa, "\t")
                nb = split(whole[b], fb, "\t")
                diff = ""
                for (k in idx)
                        if (fa[idx[k]] != fb[idx[k]] && k !~ /^(elapsed_|messages$|throughput_|rate_|lat_|cpu_ns|client_cpu|server_cpu|bus_cpu|n$|failed$)/)
                                diff = diff " " k
                printf "select.awk: ERROR: %s: several rows with %s=%s match '%s'; they differ in:%s\n", \
                        FILENAME, colnames[1], fa[colidx[1]], where, diff > "/dev/stderr"
                exit 2
        }
}
