# fifo-vs-socket.awk: seed 002 (FreeBSD FIFOs, 2009) beside experiment
# fifo-vs-socket.  Files: 1 = data/published/002-*.tsv, 2 = the summary.
# mode=macros: numbers for the text (the table: [table main] of the
# experiment file).

# Microseconds for COUNT messages of SIZE; COL picks the median (default)
# or a bound of its CI (elapsed_ns_lo, elapsed_ns_hi).
function ours(t, count, size, col)
{
        return ns_us(lookup(2, "pattern=oneway,transport=" t ",count=" count ",size_B=" size, col == "" ? "elapsed_ns" : col))
}

function published(impl, count, size)
{
        return lookup(1, "implementation=" impl ",count=" count ",size_B=" size, "elapsed_us")
}

function macros(    cells, n, i, c, s, w, pp, ps, of, ou, sv, r)
{
        r = find(2, "pattern=oneway")
        macro("FifoReps", r ? get(2, r, "n") : "--")
        macro("FifoCiLevel", r ? ci_level(get(2, r, "n")) : "--")
        distinct(2, "pattern=oneway", "count")
        macro("FifoCounts", n_distinct)
        distinct(2, "pattern=oneway", "size_B")
        macro("FifoSizes", n_distinct)
        distinct(1, "", "count")
        macro("FifoPubCounts", n_distinct)
        distinct(1, "", "size_B")
        macro("FifoPubSizes", n_distinct)
        macro("FifoPubReps", pub(first(1, "", "runs")))
        # Is there a memcpy bound in these data?
        macro("FifoHaveMemcpy", find(2, "pattern=oneway,memcpy_MiBps!=-") ? 1 : 0)
        # (count, size): the post's two examples and the largest volume.
        n = split("10000:64 100:128 100000:4096", cells, " ")
        for (i = 1; i <= n; i++) {
                split(cells[i], cs, ":")
                c = cs[1]
                s = cs[2]
                w = num_words(c) num_words(s)
                pp = published("pipe", c, s)
                ps = published("socket", c, s)
                macro("FifoPubPipe" w, pub(pp))
                macro("FifoPubSocket" w, pub(ps))
                macro("FifoPubSaving" w, fixed(saving(pp, ps), 0))
                macro("FifoPipeTime" w, fmt(ours("pipe", c, s)))
                of = ours("fifo", c, s)
                ou = ours("unix-stream", c, s)
                macro("FifoFifoTime" w, fmt(of))
                macro("FifoUnixStreamTime" w, fmt(ou))
                macro("FifoCi" w, ci_text(ours("fifo", c, s, "elapsed_ns_lo"), ours("fifo", c, s, "elapsed_ns_hi"), \
                        ours("unix-stream", c, s, "elapsed_ns_lo"), ours("unix-stream", c, s, "elapsed_ns_hi")))
        }
}

# Nothing to prepare before the macros.
function setup()
{
}

END {
        generate()
}
