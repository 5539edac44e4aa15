# dbus-throughput.awk: seed 000 (QtDBus, 2007) beside experiment
# dbus-throughput.  Files: 1 = data/published/000-*.tsv, 2 = the summary.
# The post's three routes map to ours as: bus -> a bus daemon (dbus-daemon,
# and dbus-broker which it never saw), loopback -> peer to peer (no
# daemon), direct -> the in-process `direct` transport.
# mode=macros: numbers for the text (the table: [table main] of the
# experiment file).

# Throughput (column COL: throughput_MiBps or its _lo/_hi bound).
function thr(t, b, p, y, s, col,    c)
{
        c = "transport=" t ",pattern=" p ",payload=" y ",size_B=" s
        if (b != "")
                c = c ",bus=" b
        return lookup(2, c, col == "" ? "throughput_MiBps" : col)
}

function rate(t, b, col,    c)
{
        c = "transport=" t ",pattern=callrate"
        if (b != "")
                c = c ",bus=" b
        return lookup(2, c, col == "" ? "rate_per_s" : col)
}

# memcpy bandwidth at size S (the same for every cell of that size).
function memcpy_at(s)
{
        return first(2, "size_B=" s ",memcpy_MiBps!=-", "memcpy_MiBps")
}

function pthr(route, p, y, s)
{
        return lookup(1, "route=" route ",pattern=" p ",payload=" y ",size_B=" s, "throughput_MiBps")
}

function prate(route)
{
        return lookup(1, "route=" route ",pattern=callrate", "calls_per_s")
}

function setup(    sizes, n)
{
        n = split(sort_nums(distinct(1, "pattern!=callrate", "size_B")), sizes, " ")
        smin = sizes[1]
        smax = sizes[n]
        nlib = split("libdbus gdbus sd-bus qtdbus", lib, " ")
        nbus = split("dbus-daemon dbus-broker p2p direct", bus, " ")
        split("bus - loopback direct", route, " ")
        split("oneway roundtrip", pat, " ")
        split("Oneway Roundtrip", patname, " ")
        split("bytes string", pay, " ")
        split("Bytes String", payname, " ")
        split("one-way round~trip", pattext, " ")
        split("\\texttt{ay} \\texttt{s}", paytext, " ")
}

function macros(    r, t, b, x, v, best, bestname, bt, bb, apart, lo)
{
        r = find(2, "pattern=oneway")
        macro("ThruReps", r ? get(2, r, "n") : "--")
        macro("ThruCiLevel", r ? ci_level(get(2, r, "n")) : "--")
        macro("ThruWindow", r ? fmt(ns_ms(get(2, r, "duration_ns"))) : "--")
        macro("ThruPubWindow", pub(first(1, "pattern=oneway", "window_ms")))
        macro("ThruMinSize", size_text(smin))
        macro("ThruMaxSize", size_text(smax))
        # Call rates.
        macro("ThruPubCallRateBus", pub(prate("bus")))
        macro("ThruPubCallRateDirect", pub(prate("direct")))
        macro("ThruPubCallRateRatio", fmt(ratio(prate("direct"), prate("bus"))))
        for (t = 1; t <= nlib; t++)
                for (b = 1; b <= 3; b++)
                        macro("ThruCallRate" camel(lib[t]) camel(bus[b]), fmt(rate(lib[t], bus[b])))
        macro("ThruCallRateDirect", fmt(rate("direct", "")))
        # Seed 000's own observations: strings against byte arrays through
        # the bus (one way, largest size); one way against round trips,
        # through the bus (every size, byte arrays) and in direct delivery.
        macro("ThruPubStringOverBytes", fmt(ratio(pthr("bus", "oneway", "string", smax), \
                pthr("bus", "oneway", "bytes", smax))))
        macro("ThruPubRoundOverOneDirect", fmt(ratio(pthr("direct", "roundtrip", "bytes", smin), \
                pthr("direct", "oneway", "bytes", smin))))
        macro("ThruPubOneOverRoundBusMin", fmt(ratio(pthr("bus", "oneway", "bytes", smin), \
                pthr("bus", "roundtrip", "bytes", smin))))
        macro("ThruPubOneOverRoundBusMax", fmt(ratio(pthr("bus", "oneway", "bytes", smax), \
                pthr("bus", "roundtrip", "bytes", smax))))
        pub_direction()
        # What the daemon costs in 2007: direct and loopback over the bus.
        macro("ThruPubDirectOverBus", fmt(ratio(pthr("direct", "oneway", "bytes", smax), \
                pthr("bus", "oneway", "bytes", smax))))
        macro("ThruPubLoopbackOverBus", fmt(ratio(pthr("loopback", "oneway", "bytes", smax), \
                pthr("bus", "oneway", "bytes", smax))))
        macro("ThruPubBusMax", pub(pthr("bus", "oneway", "bytes", smax)))
        # Ours, libdbus one way at the largest size, along each route.
        macro("ThruDaemonMax", fmt(thr("libdbus", "dbus-daemon", "oneway", "bytes", smax)))
        macro("ThruBrokerMax", fmt(thr("libdbus", "dbus-broker", "oneway", "bytes", smax)))
        macro("ThruPTwoPMax", fmt(thr("libdbus", "p2p", "oneway", "bytes", smax)))
        qtdbus_macros()
        # Are the call rates' differences beyond the noise?
        macro("ThruRateBrokerDaemonCi", ci_text(rate("libdbus", "dbus-broker", "rate_per_s_lo"), \
                rate("libdbus", "dbus-broker", "rate_per_s_hi"), rate("libdbus", "dbus-daemon", "rate_per_s_lo"), \
                rate("libdbus", "dbus-daemon", "rate_per_s_hi")))
        # The bounds: memcpy at the largest size; the D-Bus route with the
        # highest one-way median there, and whether its interval lies above
        # every other route's (only then is it "the fastest").
        x = memcpy_at(smax)
        macro("ThruMemcpyMax", known(x) ? group(sprintf("%.0f", x)) : "--")
        best = "-"
        for (t = 1; t <= nlib; t++)
                for (b = 1; b <= 3; b++) {
                        v = thr(lib[t], bus[b], "oneway", "bytes", smax)
                        if (known(v) && (!known(best) || v + 0 > best + 0)) {
                                best = v
                                bt = t
                                bb = b
                                bestname = "\\texttt{" lib[t] "}" (bus[b] == "p2p" ? " peer to peer" : " through \\texttt{" bus[b] "}")
                        }
                }
        apart = known(best)
        for (t = 1; t <= nlib && apart; t++)
                for (b = 1; b <= 3 && apart; b++) {
                        if (t == bt && b == bb)
                                continue
                        v = thr(lib[t], bus[b], "oneway", "bytes", smax, "throughput_MiBps_hi")
                        lo = thr(lib[bt], bus[bb], "oneway", "bytes", smax, "throughput_MiBps_lo")
                        if (known(v) && (!known(lo) || lo + 0 <= v + 0))
                                apart = 0
                }
        macro("ThruBestMax", fmt(best))
        macro("ThruBestMaxName", known(best) ? bestname : "--")
        # Only a 95% interval can set a route apart (ci_level).
        macro("ThruBestApart", apart && ci_level(first(2, "pattern=oneway", "n")) == "95" ? 1 : 0)
        macro("ThruDirectMax", fmt(thr("direct", "", "oneway", "bytes", smax)))
}

# QtDBus today beside QtDBus in 2007, at the smallest and largest size,
# for each pattern and payload: ours through dbus-daemon and peer to peer,
# \ThruQtdbus<Pattern><Payload><Min|Max><Bus>, and the post's through the
# bus, \ThruPubBus<Pattern><Payload><Min|Max> (its call rate is
# \ThruPubCallRateBus, ours \ThruCallRateQtdbus<Bus>).
function qtdbus_macros(    i, j, k, b, s, sname, qbus)
{
        split("dbus-daemon p2p", qbus, " ")
        for (i = 1; i <= 2; i++)
                for (j = 1; j <= 2; j++)
                        for (k = 1; k <= 2; k++) {
                                s = k == 1 ? smin : smax
                                sname = k == 1 ? "Min" : "Max"
                                macro("ThruPubBus" patname[i] payname[j] sname, \
                                        pub(pthr("bus", pat[i], pay[j], s)))
                                for (b = 1; b <= 2; b++)
                                        macro("ThruQtdbus" patname[i] payname[j] sname camel(qbus[b]), \
                                                fmt(thr("qtdbus", qbus[b], pat[i], pay[j], s)))
                        }
}

# Seed 000, every size and payload: did round trips beat one-way sends in
# direct delivery, and one-way sends beat round trips through the bus?
# The text states both as facts of the post; these macros let it say so
# only when the transcribed numbers bear them out.
function pub_direction(    i, j, s, sizes, n, d_rt, b_ow)
{
        n = split(sort_nums(distinct(1, "pattern!=callrate", "size_B")), sizes, " ")
        d_rt = b_ow = n > 0
        for (i = 1; i <= n; i++)
                for (j = 1; j <= 2; j++) {
                        s = sizes[i]
                        if (!(pthr("direct", "roundtrip", pay[j], s) + 0 > pthr("direct", "oneway", pay[j], s) + 0))
                                d_rt = 0
                        if (!(pthr("bus", "oneway", pay[j], s) + 0 > pthr("bus", "roundtrip", pay[j], s) + 0))
                                b_ow = 0
                }
        macro("ThruPubDirectRoundAlways", d_rt)
        macro("ThruPubBusOneAlways", b_ow)
}

END {
        generate()
}
