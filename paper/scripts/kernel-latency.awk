# kernel-latency.awk: experiment kernel-latency (no published counterpart).
# Files: 1 = /dev/null (no seed), 2 = the summary.
# mode=table: latency percentiles per transport at the smallest and the
# largest size; mode=macros: numbers for the text.

function lat(t, s, c)
{
        return lookup(2, base ",transport=" t ",size_B=" s, c)
}

function setup(    sizes)
{
        base = "pattern=roundtrip"
        ntr = split(distinct(2, base, "transport"), tr, " ")
        nsz = split(sort_nums(distinct(2, base, "size_B")), sizes, " ")
        smin = sizes[1]
        smax = sizes[nsz]
}

function table(    i, t)
{
        print "\\begin{tabular}{@{}l rrr rrr@{}}"
        print "\\toprule"
        printf " & \\multicolumn{3}{c}{%s (\\us)} & \\multicolumn{3}{c}{%s (\\us)} \\\\\n", size_text(smin), size_text(smax)
        print "\\cmidrule(lr){2-4}\\cmidrule(l){5-7}"
        print "transport & median & 99\\,\\% & 99.9\\,\\% & median & 99\\,\\% & 99.9\\,\\% \\\\"
        print "\\midrule"
        for (i = 1; i <= ntr; i++) {
                t = tr[i]
                printf "\\texttt{%s} & %s & %s & %s & %s & %s & %s \\\\\n", tex(t), \
                        fmt(ns_us(lat(t, smin, "lat_p50_ns"))), fmt(ns_us(lat(t, smin, "lat_p99_ns"))), \
                        fmt(ns_us(lat(t, smin, "lat_p999_ns"))), \
                        fmt(ns_us(lat(t, smax, "lat_p50_ns"))), fmt(ns_us(lat(t, smax, "lat_p99_ns"))), \
                        fmt(ns_us(lat(t, smax, "lat_p999_ns")))
        }
        print "\\bottomrule"
        print "\\end{tabular}"
}

function macros(    i, t, v, fast, slow, vfast, vslow, tail, vtail, r, q)
{
        r = find(2, base)
        macro("LatReps", r ? get(2, r, "n") : "--")
        macro("LatCount", r ? group(get(2, r, "count")) : "--")
        macro("LatTransports", ntr)
        macro("LatMinSize", size_text(smin))
        macro("LatMaxSize", size_text(smax))
        fast = slow = tail = ""
        for (i = 1; i <= ntr; i++) {
                t = tr[i]
                v = lat(t, smin, "lat_p50_ns")
                if (t == "direct" || !known(v))
                        continue
                if (fast == "" || v + 0 < vfast + 0) {
                        fast = t
                        vfast = v
                }
                if (slow == "" || v + 0 > vslow + 0) {
                        slow = t
                        vslow = v
                }
                q = ratio(lat(t, smin, "lat_p99_ns"), v)
                if (known(q) && (tail == "" || q > vtail)) {
                        tail = t
                        vtail = q
                }
        }
        macro("LatFastestName", fast == "" ? "--" : "\\texttt{" tex(fast) "}")
        macro("LatFastestSmall", fmt(ns_us(vfast)))
        macro("LatSlowestName", slow == "" ? "--" : "\\texttt{" tex(slow) "}")
        macro("LatSlowestSmall", fmt(ns_us(vslow)))
        macro("LatWorstTailName", tail == "" ? "--" : "\\texttt{" tex(tail) "}")
        macro("LatWorstTailRatio", fixed(vtail, 1))
        macro("LatDirectSmall", fmt(lat("direct", smin, "lat_p50_ns")))
        macro("LatPipeSmall", fmt(ns_us(lat("pipe", smin, "lat_p50_ns"))))
        macro("LatPipeLarge", fmt(ns_us(lat("pipe", smax, "lat_p50_ns"))))
        macro("LatPipeTailSmall", fmt(ns_us(lat("pipe", smin, "lat_p99_ns"))))
}

END {
        if (died)
                exit 2
        setup()
        if (mode == "table")
                table()
        else if (mode == "macros")
                macros()
        else
                die("mode must be table or macros")
}
