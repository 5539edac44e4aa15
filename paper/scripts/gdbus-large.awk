# gdbus-large.awk: seed 001 (GLib over kdbus and dbus-daemon, 2014) beside
# experiment gdbus-large.  Files: 1 = data/published/001-*.tsv, 2 = the
# summary.  Our times are scaled to the post's number of calls when a cell
# ran another count (a quick profile).
# Each bus and size has three cells: seed 001's workload (payload=string,
# marshal=copy: g_variant_new("(s)") copies and validates the text),
# ipclab's byte arrays (bytes/array) and ipclab's borrowed strings
# (string/array: g_variant_new_from_data, a best case); all answer "OK".
# mode=macros: numbers for the text (the table: [table main] of the
# experiment file).

# Seconds for the post's number of calls through bus B at size S, payload
# Y and marshalling M; COL picks the median (default) or a bound of its CI
# (elapsed_ns_lo, _hi).
function ours(b, y, m, s, col,    r, e, c)
{
        r = find_one(2, "transport=gdbus,pattern=roundtrip,bus=" b ",payload=" y ",marshal=" m ",size_B=" s)
        if (!r)
                return "-"
        e = get(2, r, col == "" ? "elapsed_ns" : col)
        c = get(2, r, "count")
        if (!known(e) || !known(c) || c + 0 == 0)
                return "-"
        return e / 1e9 / c * calls
}

# The seed's workload.
function seedw(b, s, col)
{
        return ours(b, "string", "copy", s, col)
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

function macros(    smin, smax, r, b)
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
        # The seed's own factors (kdbus against dbus-daemon, 2014).
        macro("GdbusPubRatioMin", fmt(ratio(published("dbus-daemon", smin), published("kdbus", smin))))
        macro("GdbusPubRatioMax", fmt(ratio(published("dbus-daemon", smax), published("kdbus", smax))))
        # Seed 001's workload through each bus, and beside it, through
        # dbus-daemon, byte arrays and borrowed strings.
        for (b = 1; b <= nb; b++) {
                macro("Gdbus" camel(bus[b]) "Min", fmt(seedw(bus[b], smin)))
                macro("Gdbus" camel(bus[b]) "Max", fmt(seedw(bus[b], smax)))
        }
        macro("GdbusBytesMin", fmt(ours("dbus-daemon", "bytes", "array", smin)))
        macro("GdbusBytesMax", fmt(ours("dbus-daemon", "bytes", "array", smax)))
        macro("GdbusBorrowedMin", fmt(ours("dbus-daemon", "string", "array", smin)))
        macro("GdbusBorrowedMax", fmt(ours("dbus-daemon", "string", "array", smax)))
        # The memcpy floor at the largest size: every payload copied once.
        r = find(2, "transport=gdbus,pattern=roundtrip,size_B=" smax ",memcpy_MiBps!=-")
        macro("GdbusMemcpyMax", r ? fmt(smax * calls / (get(2, r, "memcpy_MiBps") * 1048576)) : "--")
}

END {
        generate()
}
