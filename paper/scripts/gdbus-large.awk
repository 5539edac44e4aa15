# gdbus-large.awk: seed 001 (GLib over kdbus and dbus-daemon, 2014) beside
# experiment gdbus-large.  Files: 1 = data/published/001-*.tsv, 2 = the
# summary.  Our times are scaled to the post's number of calls when a cell
# ran another count (a quick profile).
# mode=table: time per size; mode=macros: numbers for the text.

# Seconds for the post's number of calls through bus B at size S; COL
# picks the median (default) or a bound of its CI (elapsed_ns_lo, _hi).
function ours(b, s, col,    r, e, c)
{
        r = find_one(2, "transport=gdbus,pattern=roundtrip,bus=" b ",size_B=" s)
        if (!r)
                return "-"
        e = get(2, r, col == "" ? "elapsed_ns" : col)
        c = get(2, r, "count")
        if (!known(e) || !known(c) || c + 0 == 0)
                return "-"
        return e / 1e9 / c * calls
}

function published(route, s)
{
        return lookup(1, "route=" route ",size_B=" s, "elapsed_s")
}

function setup(    sizes)
{
        calls = first(1, "", "calls")
        if (!known(calls))
                calls = 1000
        nsz = split(sort_nums(distinct(1, "", "size_B") " " distinct(2, "transport=gdbus,pattern=roundtrip", "size_B")), sz, " ")
        nb = split("dbus-daemon dbus-broker p2p", bus, " ")
}

function table(    i, s, pk, pd, line, b)
{
        print "\\begin{tabular}{@{}r rrr rrrr@{}}"
        print "\\toprule"
        print " & \\multicolumn{3}{c}{GLib 2014 (s)} & \\multicolumn{4}{c}{this work, \\texttt{gdbus} (s)} \\\\"
        print "\\cmidrule(lr){2-4}\\cmidrule(l){5-8}"
        print "size & kdbus & \\texttt{dbus-daemon} & ratio & \\texttt{dbus-daemon} & \\texttt{dbus-broker} & p2p & ratio \\\\"
        print "\\midrule"
        for (i = 1; i <= nsz; i++) {
                s = sz[i]
                pk = published("kdbus", s)
                pd = published("dbus-daemon", s)
                line = sprintf("%s & %s & %s & %s", size_text(s), pub(pk), pub(pd), fixed(ratio(pd, pk), 2))
                for (b = 1; b <= nb; b++)
                        line = line " & " fmt(ours(bus[b], s))
                line = line " & " fixed(ratio(ours("dbus-daemon", s), ours("dbus-broker", s)), 2)
                print line " \\\\"
        }
        print "\\bottomrule"
        print "\\end{tabular}"
}

function macros(    smin, smax, r, b, i, s, d, nf, na, nsd)
{
        smin = sz[1]
        smax = sz[nsz]
        r = find(2, "transport=gdbus,pattern=roundtrip")
        macro("GdbusReps", r ? get(2, r, "n") : "--")
        macro("GdbusCiLevel", r ? ci_level(get(2, r, "n")) : "--")
        macro("GdbusCount", r ? group(get(2, r, "count")) : "--")
        macro("GdbusPubCalls", group(calls))
        macro("GdbusMinSize", size_text(smin))
        macro("GdbusMaxSize", size_text(smax))
        macro("GdbusPubKdbusMin", pub(published("kdbus", smin)))
        macro("GdbusPubDaemonMin", pub(published("dbus-daemon", smin)))
        macro("GdbusPubKdbusMax", pub(published("kdbus", smax)))
        macro("GdbusPubDaemonMax", pub(published("dbus-daemon", smax)))
        macro("GdbusPubRatioMin", fmt(ratio(published("dbus-daemon", smin), published("kdbus", smin))))
        macro("GdbusPubRatioMax", fmt(ratio(published("dbus-daemon", smax), published("kdbus", smax))))
        for (b = 1; b <= nb; b++) {
                macro("Gdbus" camel(bus[b]) "Min", fmt(ours(bus[b], smin)))
                macro("Gdbus" camel(bus[b]) "Max", fmt(ours(bus[b], smax)))
        }
        macro("GdbusRatioMin", fmt(ratio(ours("dbus-daemon", smin), ours("dbus-broker", smin))))
        macro("GdbusRatioMax", fmt(ratio(ours("dbus-daemon", smax), ours("dbus-broker", smax))))
        macro("GdbusDaemonOverPTwoPMax", fmt(ratio(ours("dbus-daemon", smax), ours("p2p", smax))))
        macro("GdbusPubDaemonOverOursMax", fmt(ratio(published("dbus-daemon", smax), ours("dbus-daemon", smax))))
        # dbus-broker against dbus-daemon over every size: how often it was
        # faster, and how often beyond both confidence intervals.
        nf = na = nsd = 0
        for (i = 1; i <= nsz; i++) {
                s = sz[i]
                d = ours("dbus-daemon", s)
                b = ours("dbus-broker", s)
                if (!known(d) || !known(b))
                        continue
                nsd++
                if (b + 0 < d + 0) {
                        nf++
                        if (ci_apart(ours("dbus-broker", s, "elapsed_ns_lo"), ours("dbus-broker", s, "elapsed_ns_hi"), \
                                     ours("dbus-daemon", s, "elapsed_ns_lo"), ours("dbus-daemon", s, "elapsed_ns_hi")) == "apart")
                                na++
                }
        }
        macro("GdbusSizes", nsd)
        macro("GdbusBrokerFaster", nf)
        macro("GdbusBrokerApart", na)
        macro("GdbusNoiseVerdict", nsd == 0 ? "--" : 2 * na < nsd ? \
                "most of the differences between the two buses are within the noise" : \
                "most of the differences between the two buses exceed the noise")
        # Did the broker's advantage grow with the message, as kdbus's did?
        macro("GdbusRatioTrend", !known(ratio(ours("dbus-daemon", smax), ours("dbus-broker", smax))) || \
                !known(ratio(ours("dbus-daemon", smin), ours("dbus-broker", smin))) ? "--" : \
                ratio(ours("dbus-daemon", smax), ours("dbus-broker", smax)) > \
                1.25 * ratio(ours("dbus-daemon", smin), ours("dbus-broker", smin)) ? "grew" : "did not grow")
        # The memcpy floor at the largest size: every payload copied once.
        r = find(2, "transport=gdbus,pattern=roundtrip,size_B=" smax ",memcpy_MiBps!=-")
        macro("GdbusMemcpyMax", r ? fmt(smax * calls / (get(2, r, "memcpy_MiBps") * 1048576)) : "--")
}

END {
        generate()
}
