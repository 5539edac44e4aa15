# shell-calls.awk: experiment shell-calls (no published counterpart): one
# D-Bus call made by dbus-send, gdbus call or busctl call, each started
# afresh, timed by hyperfine.  Files: 1 = /dev/null (no seed), 2 = the
# summary, 3 = dbus-pingpong's summary (/dev/null when it has no data),
# whose libdbus round trips are the in-process reference.
# Per call: the median over repetitions of each repetition's median run
# (lat_p50_ns, with its 95% CI); the command's CPU time (hyperfine's user
# + system, client_cpu_ns) and the bus daemon's (bus_cpu_ns) divided by
# the runs of a repetition.
# mode=macros: numbers for the text (the table: [table main] of the
# experiment file).

function cell(c, b)
{
        return find_one(2, "pattern=roundtrip,transport=" c ",bus=" b)
}

function val_of(c, b, col,    r)
{
        r = cell(c, b)
        return r ? get(2, r, col) : "-"
}

# Column COL of the cell divided by its runs per repetition (a per-call cost).
function per_call(c, b, col,    r, v, n)
{
        r = cell(c, b)
        if (!r)
                return "-"
        v = get(2, r, col)
        n = get(2, r, "count")
        return known(v) && known(n) && n + 0 > 0 ? v / n : "-"
}

# One in-process libdbus round trip through bus B (ns): dbus-pingpong's
# median round trip in its largest run.
function ref(b,    r, best, c)
{
        best = 0
        c = 0
        for (r = 1; r <= rows(3); r++) {
                if (!match_row(3, r, "transport=libdbus,pattern=roundtrip,bus=" b))
                        continue
                if (!known(get(3, r, "lat_p50_ns")))
                        continue
                if (get(3, r, "count") + 0 > c) {
                        c = get(3, r, "count") + 0
                        best = r
                }
        }
        return best ? get(3, best, "lat_p50_ns") : "-"
}

function setup(    i)
{
        ncmd = split("dbus-send gdbus-call busctl-call", cmd, " ")
        nbus = split("dbus-daemon dbus-broker", bus, " ")
        split("\\texttt{dbus-send} \\texttt{gdbus~call} \\texttt{busctl~call}", cmdtext, " ")
        split("libdbus GDBus sd-bus", lib, " ")
        for (i = 1; i <= ncmd; i++)
                gsub(/~/, " ", cmdtext[i])
}

function macros(    r, full, i, j, c, b, v, lo, hi, fast, slow, vfast, vslow, q, qmin, qmax, d, dmax, sep, dl, dh, bl, bh, cpu, bshare)
{
        r = find(2, "pattern=roundtrip")
        macro("ShellReps", r ? get(2, r, "n") : "--")
        macro("ShellCiLevel", r ? ci_level(get(2, r, "n")) : "--")
        macro("ShellRuns", r ? group(get(2, r, "count")) : "--")
        macro("ShellSize", r ? size_text(get(2, r, "size_B")) : "--")
        macro("ShellCommands", ncmd)
        fast = slow = ""
        qmin = qmax = ""
        dmax = ""
        sep = 0
        for (i = 1; i <= ncmd; i++) {
                c = cmd[i]
                for (j = 1; j <= nbus; j++) {
                        b = bus[j]
                        v = val_of(c, b, "lat_p50_ns")
                        macro("Shell" camel(c) camel(b), fmt(ns_ms(v)))
                        if (!known(v))
                                continue
                        if (fast == "" || v + 0 < vfast + 0) {
                                fast = c " " b
                                vfast = v
                        }
                        if (slow == "" || v + 0 > vslow + 0) {
                                slow = c " " b
                                vslow = v
                        }
                        q = ratio(v, ref(b))
                        if (known(q)) {
                                if (qmin == "" || q < qmin)
                                        qmin = q
                                if (qmax == "" || q > qmax)
                                        qmax = q
                        }
                }
                # The command's CPU and the daemon's per call, dbus-daemon.
                cpu = per_call(c, "dbus-daemon", "client_cpu_ns")
                macro("ShellCpu" camel(c), fmt(ns_ms(cpu)))
                macro("ShellCpuShare" camel(c), known(cpu) && known(val_of(c, "dbus-daemon", "lat_p50_ns")) ? \
                        fixed(100 * cpu / val_of(c, "dbus-daemon", "lat_p50_ns"), 0) : "--")
                macro("ShellBusCpu" camel(c), fmt(ns_us(per_call(c, "dbus-daemon", "bus_cpu_ns"))))
                # The largest share of a call's wall-clock time that the
                # bus daemon spent on CPU, over commands and buses.
                for (j = 1; j <= nbus; j++) {
                        q = ratio(per_call(c, bus[j], "bus_cpu_ns"), val_of(c, bus[j], "lat_p50_ns"))
                        if (known(q) && (!known(bshare) || 100 * q > bshare))
                                bshare = 100 * q
                }
                # dbus-broker against dbus-daemon: the difference and
                # whether the two confidence intervals are apart.
                d = ratio(val_of(c, "dbus-broker", "lat_p50_ns"), val_of(c, "dbus-daemon", "lat_p50_ns"))
                macro("ShellBrokerOverDaemon" camel(c), fmt(d))
                if (known(d)) {
                        d = abs(1 - d)
                        if (dmax == "" || d > dmax)
                                dmax = d
                        dl = val_of(c, "dbus-daemon", "lat_p50_ns_lo")
                        dh = val_of(c, "dbus-daemon", "lat_p50_ns_hi")
                        bl = val_of(c, "dbus-broker", "lat_p50_ns_lo")
                        bh = val_of(c, "dbus-broker", "lat_p50_ns_hi")
                        if (known(dl) && known(dh) && known(bl) && known(bh) && (bh + 0 < dl + 0 || bl + 0 > dh + 0))
                                sep++
                }
        }
        macro("ShellFastestName", fast == "" ? "--" : name_text(fast))
        macro("ShellFastest", fmt(ns_ms(vfast)))
        macro("ShellSlowestName", slow == "" ? "--" : name_text(slow))
        macro("ShellSlowest", fmt(ns_ms(vslow)))
        # Only a 95% interval can set a command apart (ci_level).
        full = r && ci_level(get(2, r, "n")) == "95"
        macro("ShellFastestApart", full && fast != "" && apart_from_all(fast) ? 1 : 0)
        macro("ShellSlowestApart", full && slow != "" && apart_from_all(slow) ? 1 : 0)
        macro("ShellBusSeparated", sep)
        macro("ShellBusCiClause", sep == 0 ? "the confidence intervals of the two buses overlapped for every command: these data do not show that either bus makes a shell call cheaper" : \
                sep == ncmd ? "the confidence intervals of the two buses were apart for every command" : \
                sprintf("the confidence intervals of the two buses were apart for %d of the %d commands", sep, ncmd))
        macro("ShellBusCpuShareMax", known(bshare) ? fixed(bshare, 0) : "--")
        macro("ShellRefDbusDaemon", fmt(ns_us(ref("dbus-daemon"))))
        macro("ShellRefDbusBroker", fmt(ns_us(ref("dbus-broker"))))
        macro("ShellHaveRef", qmin == "" ? "0" : "1")
}

# Does the interval of cell K ("command bus") lie clear of every other
# cell's?  Only then may the text call it the cheapest or the dearest.
function apart_from_all(k,    i, j, c, b, kc, kb)
{
        split(k, kp, " ")
        kc = kp[1]
        kb = kp[2]
        for (i = 1; i <= ncmd; i++)
                for (j = 1; j <= nbus; j++) {
                        c = cmd[i]
                        b = bus[j]
                        if ((c == kc && b == kb) || !known(val_of(c, b, "lat_p50_ns")))
                                continue
                        if (ci_apart(val_of(kc, kb, "lat_p50_ns_lo"), val_of(kc, kb, "lat_p50_ns_hi"), \
                                     val_of(c, b, "lat_p50_ns_lo"), val_of(c, b, "lat_p50_ns_hi")) != "apart")
                                return 0
                }
        return 1
}

# "busctl-call dbus-broker" -> "\texttt{busctl call} through \texttt{dbus-broker}"
function name_text(s,    p)
{
        split(s, p, " ")
        sub(/-call$/, " call", p[1])
        return "\\texttt{" p[1] "} through \\texttt{" p[2] "}"
}

END {
        generate()
}
