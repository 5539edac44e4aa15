# kernel-latency.awk: experiment kernel-latency (no published counterpart).
# Files: 1 = /dev/null (no seed), 2 = the summary.  The cells the harness
# left out, and why, are read from data/<experiment>/meta.ini ([skipped]),
# which is written with the samples the summary comes from.
# mode=macros: numbers for the text (the table: [table main] of the
# experiment file).

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
        read_skipped()
}

# meta.ini's [skipped] lines: "mq roundtrip bytes size=32768 ...: size 32768
# exceeds the transport's limit of 8192 bytes".  Sets nskip, the sizes
# skipped for mq (mq_skipped, space-separated) and mq's limit (mq_limit).
function read_skipped(    f, line, grp, v, p, t, rest)
{
        nskip = 0
        mq_skipped = ""
        mq_limit = "-"
        f = "data/" first(2, "", "experiment") "/meta.ini"
        grp = ""
        while ((getline line < f) > 0) {
                if (line ~ /^\[.*\]$/) {
                        grp = line
                        continue
                }
                if (grp != "[skipped]" || line !~ /^skipped_[0-9]+=/)
                        continue
                nskip++
                v = substr(line, index(line, "=") + 1)
                split(v, t, " ")
                if (t[1] != "mq")
                        continue
                if (match(v, /size=[0-9]+/))
                        mq_skipped = mq_skipped (mq_skipped == "" ? "" : " ") substr(v, RSTART + 5, RLENGTH - 5)
                if (match(v, /limit of [0-9]+ bytes/)) {
                        rest = substr(v, RSTART + 9, RLENGTH - 9)
                        mq_limit = rest + 0
                }
        }
        close(f)
}

function macros(    i, t, v, fast, slow, vfast, vslow, tail, vtail, r, q, tmp, full, nfo, nso)
{
        r = find(2, base)
        macro("LatReps", r ? get(2, r, "n") : "--")
        macro("LatCiLevel", r ? ci_level(get(2, r, "n")) : "--")
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
        # "Fastest" and "slowest" only when that transport's interval lies
        # clear of every other's; otherwise the text names the lowest
        # (highest) median and says how many intervals overlap it.
        nfo = nso = 0
        for (i = 1; i <= ntr; i++) {
                t = tr[i]
                if (t == "direct" || !known(lat(t, smin, "lat_p50_ns")))
                        continue
                if (t != fast && ci_apart(lat(fast, smin, "lat_p50_ns_lo"), lat(fast, smin, "lat_p50_ns_hi"), \
                                          lat(t, smin, "lat_p50_ns_lo"), lat(t, smin, "lat_p50_ns_hi")) != "apart")
                        nfo++
                if (t != slow && ci_apart(lat(slow, smin, "lat_p50_ns_lo"), lat(slow, smin, "lat_p50_ns_hi"), \
                                          lat(t, smin, "lat_p50_ns_lo"), lat(t, smin, "lat_p50_ns_hi")) != "apart")
                        nso++
        }
        # Only a 95% interval can set a transport apart (ci_level).
        full = ci_level(first(2, base, "n")) == "95"
        macro("LatFastestApart", full && fast != "" && nfo == 0 ? 1 : 0)
        macro("LatFastestOverlaps", nfo)
        macro("LatSlowestApart", full && slow != "" && nso == 0 ? 1 : 0)
        macro("LatSlowestOverlaps", nso)
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
        # CPU placement of the experiment: shm polls before sleeping only
        # when client and server are on two CPUs (cpus=split).
        macro("LatCpus", "\\texttt{cpus=" tex(first(2, base, "cpus")) "}")
        macro("LatHaveMemcpy", find(2, base ",memcpy_MiBps!=-") ? 1 : 0)
        macro("LatShmSpins", first(2, base, "cpus") == "split" ? 1 : 0)
        macro("LatShmSmall", fmt(ns_us(lat("shm", smin, "lat_p50_ns"))))
        # Where mq stopped, from meta.ini.
        macro("LatSkipped", nskip)
        macro("LatMqLimit", known(mq_limit) ? size_text(mq_limit) : "--")
        macro("LatMqSkippedSizes", sizes_text(mq_skipped))
        macro("LatMqSkips", mq_skipped == "" ? 0 : split(mq_skipped, tmp, " "))
        v = sort_last(distinct(2, base ",transport=mq", "size_B"))
        macro("LatMqMaxSize", v + 0 > 0 ? size_text(v) : "--")
}

function sort_last(s,    a, n)
{
        n = split(sort_nums(s), a, " ")
        return n ? a[n] : 0
}

END {
        generate()
}
