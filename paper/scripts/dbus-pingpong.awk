# dbus-pingpong.awk: seed 003 (kdbus on an ARM phone, 2010) beside
# experiment dbus-pingpong.  Files: 1 = data/published/003-*.tsv, 2 = the
# summary.  Rows are matched on the number of round trips; the post's
# 60000-query run (ipc-performances) matches our cell with that count.
# mode=macros: numbers for the text (the table: [table main] of the
# experiment file).

# Seconds for C round trips through bus B; COL picks the median (default)
# or a bound of its CI (elapsed_ns_lo, elapsed_ns_hi).
function ours(t, b, c, col)
{
        return ns_s(lookup(2, "pattern=roundtrip,transport=" t ",bus=" b ",count=" c, col == "" ? "elapsed_ns" : col))
}

function ours_ci(t, b1, b2, c)
{
        return ci_text(ours(t, b1, c, "elapsed_ns_lo"), ours(t, b1, c, "elapsed_ns_hi"), \
                ours(t, b2, c, "elapsed_ns_lo"), ours(t, b2, c, "elapsed_ns_hi"))
}

# Milliseconds per round trip.
function per_call_ms(sec, c)
{
        return known(sec) && c + 0 > 0 ? sec * 1000 / c : "-"
}

function setup(    k)
{
        nk = split(distinct(2, "pattern=roundtrip", "transport"), tr, " ")
        tmain = nk ? tr[1] : "libdbus"
        nkey = split(distinct(2, "pattern=roundtrip", "bus"), kb, " ")
        ncount = split(sort_nums(distinct(1, "", "count") " " distinct(2, "pattern=roundtrip", "count")), counts, " ")
}

function macros(    r, c, w, q, pd, pk, od, ob, op, x)
{
        r = find(2, "pattern=roundtrip")
        macro("PingReps", r ? get(2, r, "n") : "--")
        macro("PingCiLevel", r ? ci_level(get(2, r, "n")) : "--")
        macro("PingTransport", "\\texttt{" tex(tmain) "}")
        # The largest ping-pong run and the query run.
        c = 50000
        q = 60000
        w = num_words(c)
        pd = lookup(1, "count=" c, "dbus_daemon_s")
        pk = lookup(1, "count=" c, "kdbus_s")
        macro("PingPubDaemon" w, pub(pd))
        macro("PingPubKdbus" w, pub(pk))
        macro("PingPubSpeedup" w, pub(lookup(1, "count=" c, "speedup_pct")))
        macro("PingPubPerCallDaemon" w, fmt(per_call_ms(pd, c)))
        macro("PingPubPerCallKdbus" w, fmt(per_call_ms(pk, c)))
        macro("PingPubPerCallDaemonQueries", fmt(per_call_ms(lookup(1, "count=" q, "dbus_daemon_s"), q)))
        macro("PingPubPerCallKdbusQueries", fmt(per_call_ms(lookup(1, "count=" q, "kdbus_s"), q)))
        macro("PingPubSpeedupQueries", pub(lookup(1, "count=" q, "speedup_pct")))
        od = ours(tmain, "dbus-daemon", c)
        ob = ours(tmain, "dbus-broker", c)
        macro("PingDaemon" w, fmt(od))
        macro("PingBroker" w, fmt(ob))
        # Microseconds per round trip.
        macro("PingPerCallDaemon" w, fmt(known(od) ? od * 1e6 / c : "-"))
        macro("PingPerCallBroker" w, fmt(known(ob) ? ob * 1e6 / c : "-"))
        macro("PingSaving" w, known(saving(ob, od)) ? fmt(abs(saving(ob, od))) : "--")
        macro("PingLessMore" w, known(saving(ob, od)) && saving(ob, od) < 0 ? "more" : "less")
        macro("PingPubOverOurs" w, fmt(ratio(pd, od)))
        x = ours_ci(tmain, "dbus-broker", "dbus-daemon", c)
        macro("PingCi" w, x ~ /do not overlap/ ? x : x ~ /overlap/ ? \
                x ", so with " (r ? get(2, r, "n") : "these") " repetitions the difference between the buses is not established" : x)
        # Peer to peer: no daemon at all, the nearest thing to kdbus.
        op = ours(tmain, "p2p", c)
        macro("PingPTwoP" w, fmt(op))
        macro("PingPerCallPTwoP" w, fmt(known(op) ? op * 1e6 / c : "-"))
        macro("PingPTwoPSaving" w, known(saving(op, od)) ? fmt(abs(saving(op, od))) : "--")
        macro("PingPTwoPLessMore" w, known(saving(op, od)) && saving(op, od) < 0 ? "more" : "less")
        macro("PingPTwoPCi" w, ours_ci(tmain, "p2p", "dbus-daemon", c))
        macro("PingPTwoPVsKdbus" w, !known(saving(op, od)) || !known(lookup(1, "count=" c, "speedup_pct")) ? "--" : \
                saving(op, od) > lookup(1, "count=" c, "speedup_pct") + 0 ? "larger" : "smaller")
        r = find(2, "pattern=roundtrip")
        macro("PingSize", r ? size_text(get(2, r, "size_B")) : "--")
        macro("PingFiftyCallsSaving", fmt(known(od) && known(ob) ? abs(od - ob) * 1000 / c * 50 : "-"))
        od = ours(tmain, "dbus-daemon", q)
        ob = ours(tmain, "dbus-broker", q)
        macro("PingPerCallDaemonQueries", fmt(known(od) ? od * 1e6 / q : "-"))
        macro("PingPerCallBrokerQueries", fmt(known(ob) ? ob * 1e6 / q : "-"))
        # The 2010 question: what 50 calls save, in ms, then and now.
        macro("PingPubFiftyCallsSaving", fmt(known(pd) && known(pk) ? (pd - pk) * 1000 / c * 50 : "-"))
}

END {
        generate()
}
