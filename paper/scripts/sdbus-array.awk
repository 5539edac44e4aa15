# sdbus-array.awk: seed 004 (sdbus-c++ on sd-bus) beside experiment
# sdbus-array.  Files: 1 = data/published/004-*.tsv, 2 = the summary.
# The post timed client and server threads of one process, so its CPU time
# compares with our client + server CPU time; the bus daemon's is apart.
# mode=macros: numbers for the text (the table: [table main] of the
# experiment file).

function cpu(r,    c, s)
{
        c = get(2, r, "client_cpu_ns")
        s = get(2, r, "server_cpu_ns")
        return known(c) && known(s) ? (c + s) / 1e9 : "-"
}

function cell(t, m, b,    r)
{
        return find_one(2, "pattern=roundtrip,transport=" t ",marshal=" m ",bus=" b)
}

# A published time in seconds (row R of file 1, column C) per call, in
# microseconds, or "-".
function pub_call(r, c,    v, n)
{
        v = get(1, r, c)
        n = get(1, r, "calls")
        return known(v) && known(n) && n + 0 > 0 ? v * 1e6 / n : "-"
}

# Column C of row R per call, in microseconds ("-" when unknown).
function per_call(r, c,    n, v)
{
        n = get(2, r, "count")
        v = get(2, r, c)
        return known(n) && known(v) && n + 0 > 0 ? ns_us(v) / n : "-"
}

# Macros for transport T marshalling M through the main bus, named
# Sdbus<What><Name>: wall (s), CPU client + server (s), and per call (us)
# wall, client, server and bus CPU.
function marshal_macros(t, m, name,    r)
{
        r = cell(t, m, b_main)
        macro("SdbusWall" name, r ? fmt(ns_s(get(2, r, "elapsed_ns"))) : "--")
        macro("SdbusCpu" name, r ? fmt(cpu(r)) : "--")
        macro("SdbusCallWall" name, r ? fmt(per_call(r, "elapsed_ns")) : "--")
        macro("SdbusCallClient" name, r ? fmt(per_call(r, "client_cpu_ns")) : "--")
        macro("SdbusCallServer" name, r ? fmt(per_call(r, "server_cpu_ns")) : "--")
        macro("SdbusCallBus" name, r ? fmt(per_call(r, "bus_cpu_ns")) : "--")
}

function macros(    r, calls)
{
        calls = first(1, "", "calls")
        macro("SdbusPubCalls", group(calls))
        macro("SdbusPubItems", group(first(1, "", "items")))
        macro("SdbusPubWallPerElement", pub(lookup(1, "variant=per-element", "wall_s")))
        macro("SdbusPubCpuPerElement", pub(lookup(1, "variant=per-element", "cpu_s")))
        macro("SdbusPubWallArray", pub(lookup(1, "variant=array", "wall_s")))
        macro("SdbusPubCpuArray", pub(lookup(1, "variant=array", "cpu_s")))
        macro("SdbusPubWallOld", pub(lookup(1, "variant=old-ipc", "wall_s")))
        macro("SdbusPubWallRatio", fmt(ratio(lookup(1, "variant=per-element", "wall_s"), \
                lookup(1, "variant=array", "wall_s"))))
        r = find_one(1, "variant=per-element")
        macro("SdbusPubCallWallPerElement", r ? fmt(pub_call(r, "wall_s")) : "--")
        macro("SdbusPubCallCpuPerElement", r ? fmt(pub_call(r, "cpu_s")) : "--")
        r = find_one(1, "variant=array")
        macro("SdbusPubCallWallArray", r ? fmt(pub_call(r, "wall_s")) : "--")
        macro("SdbusPubCallCpuArray", r ? fmt(pub_call(r, "cpu_s")) : "--")
        r = find(2, "pattern=roundtrip")
        macro("SdbusReps", r ? get(2, r, "n") : "--")
        macro("SdbusCiLevel", r ? ci_level(get(2, r, "n")) : "--")
        macro("SdbusCount", r ? group(get(2, r, "count")) : "--")
        macro("SdbusSize", r ? size_text(get(2, r, "size_B")) : "--")
        macro("SdbusBus", known(b_main) ? "\\texttt{" tex(b_main) "}" : "--")
        marshal_macros("sd-bus", "append-per-element", "AppendPerElement")
        marshal_macros("sd-bus", "per-element", "PerElement")
        marshal_macros("sd-bus", "array", "Array")
        # sdbus-c++ itself (its version has no whole-array append).
        marshal_macros("sdbus-c++", "append-per-element", "CxxAppendPerElement")
        marshal_macros("sdbus-c++", "per-element", "CxxPerElement")
        r = find(2, "pattern=roundtrip,transport=fdpass")
        macro("SdbusWallFdpass", r ? fmt(ns_s(get(2, r, "elapsed_ns"))) : "--")
        macro("SdbusCpuFdpass", r ? fmt(cpu(r)) : "--")
        # The memcpy bound: the same bytes copied once.
        r = find(2, "pattern=roundtrip,memcpy_MiBps!=-")
        macro("SdbusMemcpy", r ? fmt(get(2, r, "count") * get(2, r, "size_B") / (get(2, r, "memcpy_MiBps") * 1048576)) : "--")
        macro("SdbusMiB", r ? fmt(get(2, r, "count") * get(2, r, "size_B") / 1048576) : "--")
}

# The bus of the comparison: dbus-daemon if measured, else the first.
function setup()
{
        b_main = find(2, "pattern=roundtrip,transport=sd-bus,bus=dbus-daemon") ? "dbus-daemon" : \
                first(2, "pattern=roundtrip,transport=sd-bus", "bus")
}

END {
        generate()
}
