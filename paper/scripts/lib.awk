# lib.awk: what every macro generator shares (POSIX awk): the numbers a
# hand-written section quotes (tables are `ipclab table`'s, mk/plots.mk).
#
# A generator is run as
#     awk -f paper/scripts/lib.awk -f paper/scripts/<exp>.awk \
#         -v mode=macros PUBLISHED.tsv SUMMARY.tsv [ALSO.tsv...]
# (PUBLISHED is /dev/null when an experiment follows no seed).  This file
# reads every input into memory: file i's rows are rows(i) and cells are
# got with get(i, row, "column"), by column name, so that neither the order
# of columns nor the order of rows matters.  The generator's END block
# then calls the helpers below and prints LaTeX.
#
# Numbers are printed by fmt() (three significant figures, thin spaces in
# long numbers) or as published, character for character.  Macro names are
# built from words only (LaTeX allows no digits): num_words(10000) is
# "TenThousand".

BEGIN {
        FS = "\t"
        # File i is the i-th file operand, even when it is empty.
        nfiles = 0
        for (i = 1; i < ARGC; i++) {
                if (ARGV[i] == "" || ARGV[i] ~ /^[A-Za-z_][A-Za-z0-9_]*=/)
                        continue
                fname[++nfiles] = ARGV[i]
                nrow[nfiles] = 0
                have_header[nfiles] = 0
        }
        cur = 0
}

FNR == 1 {
        for (k = cur + 1; k < nfiles && fname[k] != FILENAME; k++)
                ;
        cur = k
}

/^#/ || /^[ \t]*$/ {
        next
}

!have_header[cur] {
        have_header[cur] = 1
        for (i = 1; i <= NF; i++) {
                colidx[cur, $i] = i
                colname[cur, i] = $i
        }
        next
}

{
        r = ++nrow[cur]
        for (i = 1; i <= NF; i++)
                val[cur, r, i] = $i
}

# ---- access -------------------------------------------------------------

function rows(f)
{
        return nrow[f] + 0
}

# The cell of file F, row R, column C; a column the file lacks is an error.
function get(f, r, c)
{
        if (!((f, c) in colidx))
                die("no column '" c "' in " fname[f])
        return val[f, r, colidx[f, c]]
}

# Is the cell a number (not "-", "", "NaN")?
function known(v)
{
        return v != "" && v != "-" && v != "NaN" && v != "nan"
}

# Does row R of file F match COND: "col=v,col2=v2|v3,col3!=v4"?
function match_row(f, r, cond,    n, i, c, p, name, vals, neg, hit)
{
        if (cond == "")
                return 1
        n = split(cond, parts, ",")
        for (i = 1; i <= n; i++) {
                c = parts[i]
                if ((p = index(c, "!=")) > 0) {
                        neg = 1
                        name = substr(c, 1, p - 1)
                        vals = "|" substr(c, p + 2) "|"
                } else {
                        p = index(c, "=")
                        neg = 0
                        name = substr(c, 1, p - 1)
                        vals = "|" substr(c, p + 1) "|"
                }
                if (!((f, name) in colidx))
                        die("no column '" name "' in " fname[f])
                hit = index(vals, "|" val[f, r, colidx[f, name]] "|") > 0
                if (hit == neg)
                        return 0
        }
        return 1
}

# The first row of F matching COND, or 0.
function find(f, cond,    r)
{
        for (r = 1; r <= nrow[f]; r++)
                if (match_row(f, r, cond))
                        return r
        return 0
}

# The one row of F matching COND, or 0 when none does.  Several matching
# rows mean COND left an axis out: an error naming the columns in which
# they differ.
function find_one(f, cond,    r, r2, k, diff)
{
        r = find(f, cond)
        if (!r)
                return 0
        for (r2 = r + 1; r2 <= nrow[f]; r2++) {
                if (!match_row(f, r2, cond))
                        continue
                diff = ""
                for (k = 1; (f, r, k) in val; k++)
                        if (val[f, r, k] != val[f, r2, k] && colname[f, k] !~ /^(elapsed_|messages$|throughput_|rate_|lat_|cpu_ns|client_cpu|server_cpu|bus_cpu|n$|failed$)/)
                                diff = diff " " colname[f, k]
                die(sprintf("%s: several rows match '%s'; they differ in:%s", fname[f], cond, diff))
        }
        return r
}

# Column C of the one row of F matching COND (see find_one), or "-".
function lookup(f, cond, c,    r)
{
        r = find_one(f, cond)
        return r ? get(f, r, c) : "-"
}

# Column C of the first row of F matching COND, or "-" (any row will do).
function first(f, cond, c,    r)
{
        r = find(f, cond)
        return r ? get(f, r, c) : "-"
}


# Distinct values of column C among rows of F matching COND, in order of
# first appearance, separated by spaces; returns their number in n_distinct.
function distinct(f, cond, c,    r, v, out, seen)
{
        out = ""
        n_distinct = 0
        split("", seen)
        for (r = 1; r <= nrow[f]; r++) {
                if (!match_row(f, r, cond))
                        continue
                v = get(f, r, c)
                if (v in seen)
                        continue
                seen[v] = 1
                n_distinct++
                out = out (out == "" ? "" : " ") v
        }
        return out
}

function die(msg)
{
        printf "paper/scripts: ERROR: %s\n", msg > "/dev/stderr"
        died = 1
        exit 2
}

# ---- numbers ---------------------------------------------------------------

function abs(x)
{
        return x < 0 ? -x : x
}

# Groups the digits of an integer string in threes with thin spaces
# (LaTeX "\,") when it has five digits or more.
function group(s,    sign, out)
{
        sign = ""
        if (substr(s, 1, 1) == "-") {
                sign = "-"
                s = substr(s, 2)
        }
        if (length(s) < 5)
                return sign s
        out = ""
        while (length(s) > 3) {
                out = "\\," substr(s, length(s) - 2) out
                s = substr(s, 1, length(s) - 3)
        }
        return sign s out
}

# The exponent of the power of ten at or below A > 0.
function floor10(a,    e)
{
        e = 0
        while (a < 1) {
                a *= 10
                e--
        }
        while (a >= 10) {
                a /= 10
                e++
        }
        return e
}

# X with three significant figures (at least the integer part), digits
# grouped; "--" when X is not a number.
function fmt(x,    a, s, p, ip, fp)
{
        if (!known(x))
                return "--"
        x += 0
        if (abs(x) < 100)
                x = sprintf("%.3g", x) + 0
        a = abs(x)
        if (a >= 100)
                s = sprintf("%.0f", x)
        else if (a >= 10)
                s = sprintf("%.1f", x)
        else if (a >= 1)
                s = sprintf("%.2f", x)
        else if (a == 0)
                s = "0"
        else
                s = sprintf("%." (2 - floor10(a)) "f", x)
        if (s ~ /e/)
                return s
        p = index(s, ".")
        if (p) {
                ip = substr(s, 1, p - 1)
                fp = substr(s, p)
        } else {
                ip = s
                fp = ""
        }
        return group(ip) fp
}

# X with exactly D decimals.
function fixed(x, d)
{
        if (!known(x))
                return "--"
        return sprintf("%." d "f", x + 0)
}

# A published number, character for character, digits grouped.
function pub(s,    p)
{
        if (!known(s))
                return "--"
        p = index(s, ".")
        if (p)
                return group(substr(s, 1, p - 1)) substr(s, p)
        return group(s)
}

# A ratio A/B, or "-" when either is missing or B is zero.
function ratio(a, b)
{
        if (!known(a) || !known(b) || b + 0 == 0)
                return "-"
        return (a + 0) / (b + 0)
}

# Percentage of time saved going from SLOW to FAST: 100 (1 - FAST/SLOW).
function saving(fast, slow)
{
        if (!known(fast) || !known(slow) || slow + 0 == 0)
                return "-"
        return 100 * (1 - (fast + 0) / (slow + 0))
}

# Whether two medians differ beyond their 95% confidence intervals
# [ALO, AHI] and [BLO, BHI]: "apart" when the intervals do not overlap,
# "overlap" when they do, "-" when one is unknown.  The text says which,
# so that a ratio of two noisy medians is not read as a difference.
function ci_apart(alo, ahi, blo, bhi)
{
        if (!known(alo) || !known(ahi) || !known(blo) || !known(bhi))
                return "-"
        return (ahi + 0 < blo + 0 || bhi + 0 < alo + 0) ? "apart" : "overlap"
}

# The same as a phrase for the text.
function ci_text(alo, ahi, blo, bhi,    a)
{
        a = ci_apart(alo, ahi, blo, bhi)
        if (a == "apart")
                return "their confidence intervals do not overlap"
        if (a == "overlap")
                return "their confidence intervals overlap"
        return "no confidence interval is available"
}

# The coverage, in per cent, of the confidence interval for a median of N
# repetitions as the harness computes it (stats_median_ci): from order
# statistics, at least 95 when N allows it (N >= 6), otherwise the range
# of the N values, which covers the median with probability 1 - 2^(1-N)
# (75 for three).  Captions quote it, so that "95 %" is never claimed for
# an interval that cannot reach it.
function ci_level(n)
{
        if (!known(n) || n + 0 < 2)
                return "--"
        n += 0
        if (1 - 2 * 0.5 ^ n >= 0.95)
                return "95"
        return sprintf("%.3g", 100 * (1 - 2 * 0.5 ^ n))
}

# Message sizes for text: 64~B, 4~KiB, 1~MiB.
function size_text(s)
{
        s += 0
        if (s >= 1048576 && s % 1048576 == 0)
                return (s / 1048576) "~MiB"
        if (s >= 1024 && s % 1024 == 0)
                return (s / 1024) "~KiB"
        return s "~B"
}

# ---- macro names -------------------------------------------------------------

function num_words(n,    ones, tens, w)
{
        split("One Two Three Four Five Six Seven Eight Nine Ten Eleven Twelve Thirteen Fourteen Fifteen Sixteen Seventeen Eighteen Nineteen", ones, " ")
        split("Ten Twenty Thirty Forty Fifty Sixty Seventy Eighty Ninety", tens, " ")
        n = int(n + 0)
        if (n == 0)
                return "Zero"
        w = ""
        if (n >= 1000000000) {
                w = w num_words(int(n / 1000000000)) "Billion"
                n = n % 1000000000
        }
        if (n >= 1000000) {
                w = w num_words(int(n / 1000000)) "Million"
                n = n % 1000000
        }
        if (n >= 1000) {
                w = w num_words(int(n / 1000)) "Thousand"
                n = n % 1000
        }
        if (n >= 100) {
                w = w ones[int(n / 100)] "Hundred"
                n = n % 100
        }
        if (n >= 20) {
                w = w tens[int(n / 10)]
                n = n % 10
        }
        if (n > 0)
                w = w ones[n]
        return w
}

# "unix-stream" -> "UnixStream", "dbus-daemon" -> "DbusDaemon", "p2p" -> "PTwoP".
function camel(s,    out, i, c, up)
{
        out = ""
        up = 1
        for (i = 1; i <= length(s); i++) {
                c = substr(s, i, 1)
                if (c ~ /[0-9]/) {
                        out = out num_words(c)
                        up = 1
                } else if (c ~ /[A-Za-z]/) {
                        out = out (up ? toupper(c) : c)
                        up = 0
                } else {
                        up = 1
                }
        }
        return out
}

# Prints \newcommand{\NAME}{VALUE}, once per name.
function macro(name, value)
{
        if (name !~ /^[A-Za-z]+$/)
                die("bad macro name '" name "'")
        if (name in macro_seen)
                die("macro \\" name " defined twice")
        macro_seen[name] = 1
        printf "\\newcommand{\\%s}{%s}\n", name, value
}

# ---- text --------------------------------------------------------------------

# Escapes a label for LaTeX text ("_" and "&" only appear in names).
# A list of sizes in words: "64 4096" -> "64~B and 4~KiB".
function sizes_text(s,    a, n, i, out)
{
        n = split(sort_nums(s), a, " ")
        out = ""
        for (i = 1; i <= n; i++)
                out = out (i == 1 ? "" : i == n ? " and " : ", ") size_text(a[i])
        return n ? out : "--"
}

# Sorts the space-separated numbers in S numerically; returns them space
# separated, without duplicates.
function sort_nums(s,    n, a, i, j, t, out)
{
        n = split(s, a, " ")
        for (i = 2; i <= n; i++) {
                t = a[i]
                for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--)
                        a[j + 1] = a[j]
                a[j + 1] = t
        }
        out = ""
        for (i = 1; i <= n; i++)
                if (i == 1 || a[i] + 0 != a[i - 1] + 0)
                        out = out (out == "" ? "" : " ") a[i]
        return out
}

# Nanoseconds to microseconds, seconds, milliseconds ("-" stays "-").
function ns_us(x) { return known(x) ? x / 1e3 : "-" }
function ns_ms(x) { return known(x) ? x / 1e6 : "-" }
function ns_s(x) { return known(x) ? x / 1e9 : "-" }

# ---- the end of every generator ------------------------------------------

# What a generator's END block does: stop if reading failed, then
# setup() and macros() (each generator defines both).
function generate()
{
        if (died)
                exit 2
        setup()
        if (mode != "macros")
                die("mode must be macros")
        macros()
}
