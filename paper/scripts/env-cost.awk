# env-cost.awk: experiment env-cost (no published counterpart; the place
# where seed 001 measured, a systemd-nspawn container, made an axis).
# Files: 1 = /dev/null (no seed), 2 = the summary, one row per
# environment (column env: host, nspawn, vm) and cell.  What the summary
# does not carry about the container and the virtual machine (the VM's
# accelerator, the guest's kernel, CPU, memory and clock source, the image,
# memcpy bandwidth measured inside each) is read from the experiment's
# data/<experiment>/meta.ini, written with the samples: groups
# "[run vm]", "[machine vm]", "[bounds vm]" and so on, the host's without
# a suffix.
# mode=macros: numbers and the data-derived wording for the text (the
# table: [table main] of the experiment file).

# Column C of environment E's row for transport T at size S.
function cellv(e, t, s, c)
{
        return lookup(2, base ",env=" e ",transport=" t ",size_B=" s, c)
}

function p50(e, t, s)
{
        return cellv(e, t, s, "lat_p50_ns")
}

# meta.ini as meta[group, key]; groups are "run", "machine vm", ...
function read_meta(    f, line, grp, k)
{
        f = "data/" first(2, "", "experiment") "/meta.ini"
        grp = ""
        while ((getline line < f) > 0) {
                if (line ~ /^\[.*\]$/) {
                        grp = substr(line, 2, length(line) - 2)
                        continue
                }
                if (line !~ /^[A-Za-z0-9_]+=/)
                        continue
                k = substr(line, 1, index(line, "=") - 1)
                meta[grp, k] = substr(line, index(line, "=") + 1)
        }
        close(f)
}

function m(grp, k)
{
        return ((grp, k) in meta) ? meta[grp, k] : "-"
}

# Escapes a meta.ini value for LaTeX text.
function setup(    sizes, i)
{
        base = "pattern=roundtrip"
        ntr = split(distinct(2, base, "transport"), tr, " ")
        nsz = split(sort_nums(distinct(2, base, "size_B")), sz, " ")
        smin = sz[1]
        smax = sz[nsz]
        for (i = 1; i <= ntr; i++)
                trbus[tr[i]] = first(2, base ",transport=" tr[i], "bus")
        have_nspawn = find(2, base ",env=nspawn") > 0
        have_vm = find(2, base ",env=vm") > 0
        read_meta()
}

# The VM's accelerator as recorded by the run: "TCG", "KVM" or "--".
function accel_name(    a)
{
        a = m("run vm", "env_accel")
        return a == "-" ? "--" : toupper(a)
}

# Compares environment E with the host over every cell that both have:
# sets cmp_n (cells), cmp_apart (intervals do not overlap), cmp_slow and
# cmp_fast (of those apart, E slower / faster), cmp_min and cmp_max (the
# range of the ratios E/host) and cmp_spread (the largest ratio of an E
# cell's interval's upper end to its lower end).
function compare(e,    i, j, t, s, h, v, r, q, a, ss, ns)
{
        cmp_n = cmp_apart = cmp_slow = cmp_fast = 0
        cmp_min = cmp_max = cmp_spread = "-"
        cmp_cells = ""
        for (i = 1; i <= ntr; i++) {
                t = tr[i]
                ss = ""
                ns = 0
                for (j = 1; j <= nsz; j++) {
                        s = sz[j]
                        h = p50("host", t, s)
                        v = p50(e, t, s)
                        r = ratio(v, h)
                        if (!known(r))
                                continue
                        cmp_n++
                        if (cmp_min == "-" || r < cmp_min)
                                cmp_min = r
                        if (cmp_max == "-" || r > cmp_max)
                                cmp_max = r
                        q = ratio(cellv(e, t, s, "lat_p50_ns_hi"), cellv(e, t, s, "lat_p50_ns_lo"))
                        if (known(q) && (cmp_spread == "-" || q > cmp_spread))
                                cmp_spread = q
                        a = ci_apart(cellv(e, t, s, "lat_p50_ns_lo"), cellv(e, t, s, "lat_p50_ns_hi"), \
                                     cellv("host", t, s, "lat_p50_ns_lo"), cellv("host", t, s, "lat_p50_ns_hi"))
                        if (a != "apart")
                                continue
                        cmp_apart++
                        if (r > 1)
                                cmp_slow++
                        else if (r < 1)
                                cmp_fast++
                        ss = ss (ss == "" ? "" : " ") s
                        ns++
                }
                if (ns)
                        cmp_cells = cmp_cells (cmp_cells == "" ? "" : "; ") "\\texttt{" tex(t) "} " \
                                (ns == nsz && nsz > 1 ? "at both sizes" : "at " sizes_text(ss))
        }
}

# What compare() found, as a clause for the text: "WHERE was slower
# than the host in all 6 cells, beyond the confidence intervals".
function verdict(where,    s)
{
        if (cmp_n == 0)
                return "--"
        if (cmp_apart == 0)
                return "in none of the " cmp_n " cells did the confidence interval of " where \
                        " separate from the host's: at this precision " where " cost nothing measurable"
        if (cmp_slow == cmp_n)
                return where " was slower than the host in all " cmp_n " cells, beyond the confidence intervals"
        if (cmp_fast == cmp_n)
                return where " was faster than the host in all " cmp_n " cells, beyond the confidence intervals"
        s = "the confidence intervals of " where " and of the host do not overlap in " cmp_apart \
                " of the " cmp_n " cells (" cmp_cells ")"
        if (cmp_slow == cmp_apart)
                return s ", and in " those() " " where " was slower"
        if (cmp_fast == cmp_apart)
                return s ", and in " those() " " where " was faster"
        return s ": " where " was slower in " cmp_slow " and faster in " cmp_fast " of them"
}

# "that one", "both" or "all of them": the cmp_apart cells.
function those()
{
        return cmp_apart == 1 ? "that one" : cmp_apart == 2 ? "both" : "all of them"
}

# "2060423168" -> "1.9~GiB".
function mem_text(b)
{
        if (!known(b))
                return "--"
        return fmt(b / 1073741824) "~GiB"
}

function macros(    i, j, t, r, q, names, e, hm, vm, lo_min, lo_max, small_bound, \
                    vm_spread, kmin, kmax, dmin, dmax)
{
        r = find(2, base)
        macro("EnvReps", r ? get(2, r, "n") : "--")
        macro("EnvCiLevel", r ? ci_level(get(2, r, "n")) : "--")
        macro("EnvCount", r ? group(get(2, r, "count")) : "--")
        macro("EnvMinSize", size_text(smin))
        macro("EnvMaxSize", size_text(smax))
        macro("EnvBus", r ? "\\texttt{" tex(first(2, base ",bus!=-", "bus")) "}" : "--")
        macro("EnvHaveNspawn", have_nspawn ? 1 : 0)
        macro("EnvHaveVm", have_vm ? 1 : 0)
        # Per transport, at the smallest size: the host's median round
        # trip and each environment's ratio to it.  The text names these
        # three transports; those the run lacks get "--".
        names = " pipe unix-stream libdbus "
        for (i = 1; i <= ntr; i++)
                if (index(names, " " tr[i] " ") == 0)
                        names = names tr[i] " "
        ntn = split(names, tn, " ")
        for (i = 1; i <= ntn; i++) {
                t = tn[i]
                macro("EnvHost" camel(t), fmt(ns_us(p50("host", t, smin))))
                macro("EnvNspawn" camel(t), fmt(ns_us(p50("nspawn", t, smin))))
                macro("EnvVm" camel(t), fmt(ns_us(p50("vm", t, smin))))
        }
        # The container against the host, over every cell.
        compare("nspawn")
        macro("EnvNspawnCells", cmp_n)
        macro("EnvNspawnApart", cmp_apart)
        macro("EnvNspawnRatioMin", fmt(cmp_min))
        macro("EnvNspawnRatioMax", fmt(cmp_max))
        macro("EnvNspawnVerdict", verdict("the container"))
        # Is the container within a factor small_bound of the host in
        # every cell?  The text draws a conclusion for seed 001 only then.
        small_bound = 1.5
        macro("EnvNspawnSmall", cmp_n > 0 && cmp_max < small_bound && cmp_min > 1 / small_bound ? 1 : 0)
        # The VM against the host.
        compare("vm")
        macro("EnvVmCells", cmp_n)
        macro("EnvVmApart", cmp_apart)
        macro("EnvVmRatioMin", fmt(cmp_min))
        macro("EnvVmRatioMax", fmt(cmp_max))
        macro("EnvVmVerdict", verdict("the virtual machine"))
        macro("EnvVmSpread", fmt(cmp_spread))
        # Even the lower end of the VM's interval, against the host's median.
        lo_min = lo_max = "-"
        for (i = 1; i <= ntr; i++)
                for (j = 1; j <= nsz; j++) {
                        q = ratio(cellv("vm", tr[i], sz[j], "lat_p50_ns_lo"), p50("host", tr[i], sz[j]))
                        if (!known(q))
                                continue
                        if (lo_min == "-" || q < lo_min)
                                lo_min = q
                        if (lo_max == "-" || q > lo_max)
                                lo_max = q
                }
        macro("EnvVmLowRatioMin", fmt(lo_min))
        macro("EnvVmLowRatioMax", fmt(lo_max))
        vm_spread = cmp_spread
        compare("host")
        macro("EnvHostSpread", fmt(cmp_spread))
        # Did the VM's repetitions disagree much more than the host's (the
        # widest interval at least twice as wide, as a ratio)?
        macro("EnvVmNoisy", known(vm_spread) && known(cmp_spread) && \
                vm_spread > 2 * cmp_spread ? 1 : 0)
        # The VM's penalty for the kernel transports and for the D-Bus
        # ones (those with a bus), and whether the ranges are disjoint.
        kmin = kmax = dmin = dmax = "-"
        for (i = 1; i <= ntr; i++)
                for (j = 1; j <= nsz; j++) {
                        q = ratio(p50("vm", tr[i], sz[j]), p50("host", tr[i], sz[j]))
                        if (!known(q))
                                continue
                        if (trbus[tr[i]] == "-" || trbus[tr[i]] == "") {
                                if (kmin == "-" || q < kmin) kmin = q
                                if (kmax == "-" || q > kmax) kmax = q
                        } else {
                                if (dmin == "-" || q < dmin) dmin = q
                                if (dmax == "-" || q > dmax) dmax = q
                        }
                }
        macro("EnvVmKernelRatioMin", fmt(kmin))
        macro("EnvVmKernelRatioMax", fmt(kmax))
        macro("EnvVmDbusRatioMin", fmt(dmin))
        macro("EnvVmDbusRatioMax", fmt(dmax))
        macro("EnvVmDbusWorse", known(kmax) && known(dmin) && dmin > kmax ? 1 : 0)
        # Where each ran, from meta.ini.
        macro("EnvHostKernel", tex(m("machine", "kernel")))
        macro("EnvHostVirt", tex(m("machine", "virtualisation")))
        macro("EnvHostIsVirtual", m("machine", "virtualisation") ~ /^(-|none|)$/ ? 0 : 1)
        macro("EnvNspawnKernel", tex(m("machine nspawn", "kernel")))
        macro("EnvNspawnSameKernel", m("machine nspawn", "kernel") == m("machine", "kernel") ? 1 : 0)
        macro("EnvImage", tex(substr(m("run nspawn", "env_image") != "-" ? m("run nspawn", "env_image") : m("run vm", "env_image"), 1, 12)))
        macro("EnvAccel", tex(accel_name()))
        macro("EnvVmEmulated", m("run vm", "env_accel") == "tcg" ? 1 : 0)
        macro("EnvVmKernel", tex(m("machine vm", "kernel")))
        macro("EnvVmCpu", tex(m("machine vm", "cpu_model")))
        macro("EnvVmCpus", tex(m("machine vm", "cpus_online")))
        macro("EnvVmMemory", mem_text(m("machine vm", "memory_bytes")))
        # How long the whole run (every cell, warm-up included) took in
        # each place, from meta.ini's timestamps: for the VM, measured by
        # the guest's clock, without its boot.
        macro("EnvHostRunSeconds", fmt(run_seconds("run")))
        macro("EnvNspawnRunSeconds", fmt(run_seconds("run nspawn")))
        macro("EnvVmRunSeconds", fmt(run_seconds("run vm")))
        # memcpy at the largest size measured inside each: how much slower
        # plain computation ran there.
        hm = m("bounds", "memcpy_MiBps_" smax)
        macro("EnvHostMemcpy", fmt(hm))
        e = m("bounds nspawn", "memcpy_MiBps_" smax)
        macro("EnvNspawnMemcpy", fmt(e))
        vm = m("bounds vm", "memcpy_MiBps_" smax)
        macro("EnvVmMemcpy", fmt(vm))
}

# "2026-12-01T02:29:19.290871Z" -> seconds since midnight, or "-".
function seconds(ts,    t, a)
{
        if (ts !~ /^[0-9-]+T[0-9][0-9]:[0-9][0-9]:[0-9.]+Z$/)
                return "-"
        t = substr(ts, index(ts, "T") + 1)
        sub(/Z$/, "", t)
        split(t, a, ":")
        return a[1] * 3600 + a[2] * 60 + a[3]
}

# Seconds from started= to finished= of meta.ini group GRP, or "-" when
# either is missing; a run that crosses midnight wraps once.
function run_seconds(grp,    a, b)
{
        a = seconds(m(grp, "started"))
        b = seconds(m(grp, "finished"))
        if (!known(a) || !known(b))
                return "-"
        if (substr(m(grp, "started"), 1, 10) != substr(m(grp, "finished"), 1, 10))
                b += 86400
        return b - a
}

END {
        generate()
}
