# methods.awk: the paper's description of machine and software, generated
# from data/*/meta.ini (given as arguments) so that it is never typed.
#   awk -f paper/scripts/methods.awk data/a/meta.ini data/b/meta.ini > methods.tex

FNR == 1 {
        nexp++
        file[nexp] = FILENAME
        group = ""
}
/^\[.*\]$/ {
        group = substr($0, 2, length($0) - 2)
        next
}
/^[A-Za-z0-9_]+=/ {
        k = substr($0, 1, index($0, "=") - 1)
        v = substr($0, index($0, "=") + 1)
        val[nexp, group "." k] = v
        have[nexp, group "." k] = 1
        if (group == "warnings") {
                # "loaded at the start (load average 3.00)": one line per
                # kind of warning, with the range of the numbers in it.
                kind = v
                num = ""
                if (match(v, /\(load average [0-9.]+\)/)) {
                        kind = substr(v, 1, RSTART - 1) "(load average %s)" substr(v, RSTART + RLENGTH)
                        num = substr(v, RSTART + 14, RLENGTH - 15) + 0
                }
                if (!(kind in seen_warning)) {
                        seen_warning[kind] = 1
                        warnings[++nwarn] = kind
                        lo[kind] = hi[kind] = num
                } else if (num != "") {
                        if (num < lo[kind]) lo[kind] = num
                        if (num > hi[kind]) hi[kind] = num
                }
        }
}

function m(k) { return tex(val[1, k]) }

END {
        if (nexp == 0) {
                print "\\paragraph{Machine.} No experiment of this build has data."
                exit
        }
        print "% generated from data/*/meta.ini by paper/scripts/methods.awk"
        printf "\\paragraph{Machine.}\n"
        # The hypervisor and the container apart (systemd-detect-virt --vm
        # and --container): one "virtualisation" names only the innermost
        # layer, and a container in a VM would hide the VM.  Data measured
        # before meta.ini had the two keys fall back to that one.
        if ((1, "machine.hypervisor") in have)
                virt = sprintf("hypervisor: %s, container: %s", m("machine.hypervisor"), m("machine.container"))
        else
                virt = sprintf("virtualisation: %s", m("machine.virtualisation"))
        printf "The data were measured on %s (%s CPUs online, SMT %s, frequency governor %s, boost %s, clock source %s, %s) under Linux %s, ",
                m("machine.cpu_model"), m("machine.cpus_online"), m("machine.smt"),
                m("machine.governor"), m("machine.boost"), m("machine.clocksource"),
                virt, m("machine.kernel")
        printf "with GLib %s, libdbus %s, libsystemd %s, %s and %s; the harness was compiled by %s with \\texttt{%s}.\n",
                m("software.glib"), m("software.libdbus"), m("software.libsystemd"),
                m("software.dbus_daemon"), m("software.dbus_broker"),
                m("software.compiler"), m("software.cflags")
        # Where experiments ran on different machines or software, say so.
        for (i = 2; i <= nexp; i++)
                if (val[i, "machine.cpu_model"] != val[1, "machine.cpu_model"] || \
                    val[i, "machine.kernel"] != val[1, "machine.kernel"] || \
                    val[i, "machine.hypervisor"] != val[1, "machine.hypervisor"] || \
                    val[i, "machine.container"] != val[1, "machine.container"])
                        printf "Experiment %s ran elsewhere: %s under Linux %s (%s).\n",
                                tex(val[i, "experiment.name"]), tex(val[i, "machine.cpu_model"]),
                                tex(val[i, "machine.kernel"]), ((i, "machine.hypervisor") in have) ? \
                                "hypervisor: " tex(val[i, "machine.hypervisor"]) ", container: " tex(val[i, "machine.container"]) : \
                                "virtualisation: " tex(val[i, "machine.virtualisation"])
        print ""
        print "\\begin{table}[htbp]\\centering\\small"
        print "\\caption{Provenance of the data: when each experiment ran, with which profile, environment and commit of ipclab (stored in its meta.ini).}"
        print "\\label{tab:provenance}"
        print "\\begin{tabular}{@{}lllll@{}}\\toprule"
        print "Experiment & Measured (UTC) & Profile & Environment & ipclab commit \\\\\\midrule"
        for (i = 1; i <= nexp; i++) {
                c = val[i, "software.ipclab_commit"]
                if (val[i, "software.ipclab_tree"] == "dirty")
                        dirty++
                c = substr(c, 1, 10) (val[i, "software.ipclab_tree"] == "dirty" ? "+" : "")
                d = val[i, "run.started"]
                sub(/T/, " ", d)
                sub(/:[0-9][0-9](\.[0-9]+)?Z$/, "", d)
                printf "%s & %s & %s & %s & \\texttt{%s} \\\\\n", tex(val[i, "experiment.name"]),
                        tex(d), tex(val[i, "experiment.profile"]), tex(val[i, "run.env"]), tex(c)
        }
        print "\\bottomrule\\end{tabular}"
        print "\\end{table}"
        print ""
        if (nwarn == 0) {
                print "\\paragraph{Conditions.} The harness found nothing known to bias the results."
        } else {
                print "\\paragraph{Conditions that bias results.}"
                print "The harness checks for conditions known to bias measurements and stores what it finds; for these data it reported:"
                print "\\begin{itemize}"
                for (i = 1; i <= nwarn; i++) {
                        w = warnings[i]
                        if (index(w, "%s")) {
                                r = (lo[w] == hi[w]) ? sprintf("%.2f", lo[w]) : sprintf("%.2f to %.2f", lo[w], hi[w])
                                w = sprintf(w, r)
                        }
                        printf "\\item %s\n", tex(w)
                }
                print "\\end{itemize}"
        }
        if (dirty)
                print "Commit hashes marked + were built from a tree with uncommitted changes."

}
