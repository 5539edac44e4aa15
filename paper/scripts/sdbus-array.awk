# sdbus-array.awk: seed 004 (sdbus-c++ on sd-bus) beside experiment
# sdbus-array.  Files: 1 = data/published/004-*.tsv, 2 = the summary.
# The post timed client and server threads of one process, so its CPU time
# compares with our client + server CPU time; the bus daemon's is apart.
# mode=table: wall and CPU time per variant; mode=macros: numbers for the text.

function bound(b)
{
        return b == ">" ? "$>$\\," : b == "<" ? "$<$\\," : b == "~" ? "$\\approx$\\," : ""
}

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

function wall(t, m, b,    r)
{
        r = cell(t, m, b)
        return r ? ns_s(get(2, r, "elapsed_ns")) : "-"
}

function cpu_of(t, m, b,    r)
{
        r = cell(t, m, b)
        return r ? cpu(r) : "-"
}

function variant_text(v)
{
        if (v == "per-element")
                return "sdbus-c++, per element"
        if (v == "array")
                return "sdbus-c++, whole array"
        if (v == "old-ipc")
                return "the old IPC tool"
        return tex(v)
}

function table(    r, v, c, m)
{
        print "\\begin{tabular}{@{}l l rrrr@{}}"
        print "\\toprule"
        print " & & wall clock & CPU, client & CPU, bus & per call \\\\"
        print "variant & bus & (s) & + server (s) & daemon (s) & (\\us) \\\\"
        print "\\midrule"
        printf "\\multicolumn{6}{@{}l}{\\emph{published, %s calls of %s}} \\\\\n", \
                group(first(1, "", "calls")), size_text(first(1, "", "size_B"))
        for (r = 1; r <= rows(1); r++) {
                printf "%s & session & %s%s & %s%s & -- & -- \\\\\n", variant_text(get(1, r, "variant")), \
                        bound(get(1, r, "wall_bound")), pub(get(1, r, "wall_s")), \
                        bound(get(1, r, "cpu_bound")), pub(get(1, r, "cpu_s"))
        }
        print "\\midrule"
        r = find(2, "pattern=roundtrip")
        printf "\\multicolumn{6}{@{}l}{\\emph{this work, %s calls of %s}} \\\\\n", \
                r ? group(get(2, r, "count")) : "--", r ? size_text(get(2, r, "size_B")) : "--"
        for (r = 1; r <= rows(2); r++) {
                if (!match_row(2, r, "pattern=roundtrip"))
                        continue
                m = get(2, r, "marshal")
                c = get(2, r, "count")
                printf "\\texttt{%s}%s & \\texttt{%s} & %s & %s & %s & %s \\\\\n", tex(get(2, r, "transport")), \
                        known(m) ? ", " tex(m) : "", tex(get(2, r, "bus")), \
                        fmt(ns_s(get(2, r, "elapsed_ns"))), fmt(cpu(r)), fmt(ns_s(get(2, r, "bus_cpu_ns"))), \
                        fmt(known(c) && c + 0 > 0 ? ns_us(get(2, r, "elapsed_ns")) / c : "-")
        }
        print "\\bottomrule"
        print "\\end{tabular}"
}

function macros(    r, r2, b, pw, aw, pc, ac, fw)
{
        macro("SdbusPubCalls", group(first(1, "", "calls")))
        macro("SdbusPubItems", group(first(1, "", "items")))
        macro("SdbusPubWallPerElement", pub(lookup(1, "variant=per-element", "wall_s")))
        macro("SdbusPubCpuPerElement", pub(lookup(1, "variant=per-element", "cpu_s")))
        macro("SdbusPubWallArray", pub(lookup(1, "variant=array", "wall_s")))
        macro("SdbusPubCpuArray", pub(lookup(1, "variant=array", "cpu_s")))
        macro("SdbusPubWallOld", pub(lookup(1, "variant=old-ipc", "wall_s")))
        macro("SdbusPubWallRatio", fmt(ratio(lookup(1, "variant=per-element", "wall_s"), \
                lookup(1, "variant=array", "wall_s"))))
        macro("SdbusPubCpuRatio", fmt(ratio(lookup(1, "variant=per-element", "cpu_s"), \
                lookup(1, "variant=array", "cpu_s"))))
        r = find(2, "pattern=roundtrip")
        macro("SdbusReps", r ? get(2, r, "n") : "--")
        macro("SdbusCiLevel", r ? ci_level(get(2, r, "n")) : "--")
        macro("SdbusCount", r ? group(get(2, r, "count")) : "--")
        macro("SdbusSize", r ? size_text(get(2, r, "size_B")) : "--")
        # The bus of the main comparison: dbus-daemon if measured, else the first.
        b = find(2, "pattern=roundtrip,transport=sd-bus,bus=dbus-daemon") ? "dbus-daemon" : \
                first(2, "pattern=roundtrip,transport=sd-bus", "bus")
        macro("SdbusBus", known(b) ? "\\texttt{" tex(b) "}" : "--")
        pw = wall("sd-bus", "per-element", b)
        aw = wall("sd-bus", "array", b)
        pc = cpu_of("sd-bus", "per-element", b)
        ac = cpu_of("sd-bus", "array", b)
        macro("SdbusWallPerElement", fmt(pw))
        macro("SdbusWallArray", fmt(aw))
        macro("SdbusCpuPerElement", fmt(pc))
        macro("SdbusCpuArray", fmt(ac))
        macro("SdbusWallRatio", fmt(ratio(pw, aw)))
        macro("SdbusCpuRatio", fmt(ratio(pc, ac)))
        r = cell("sd-bus", "array", b)
        macro("SdbusBusCpuArray", r ? fmt(ns_s(get(2, r, "bus_cpu_ns"))) : "--")
        r = find(2, "pattern=roundtrip,transport=fdpass")
        fw = r ? ns_s(get(2, r, "elapsed_ns")) : "-"
        macro("SdbusWallFdpass", fmt(fw))
        macro("SdbusCpuFdpass", r ? fmt(cpu(r)) : "--")
        macro("SdbusArrayOverFdpass", fmt(ratio(aw, fw)))
        # Noise: per element against array, wall clock.
        r = cell("sd-bus", "per-element", b)
        r2 = cell("sd-bus", "array", b)
        macro("SdbusWallCi", r && r2 ? ci_text(get(2, r, "elapsed_ns_lo"), get(2, r, "elapsed_ns_hi"), \
                get(2, r2, "elapsed_ns_lo"), get(2, r2, "elapsed_ns_hi")) : "--")
        # The memcpy bound: the same bytes copied once.
        r = find(2, "pattern=roundtrip,memcpy_MiBps!=-")
        macro("SdbusMemcpy", r ? fmt(get(2, r, "count") * get(2, r, "size_B") / (get(2, r, "memcpy_MiBps") * 1048576)) : "--")
        macro("SdbusMiB", r ? fmt(get(2, r, "count") * get(2, r, "size_B") / 1048576) : "--")
}

# Nothing to prepare before the table or the macros.
function setup()
{
}

END {
        generate()
}
