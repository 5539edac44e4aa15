# env-cost: the same round trips on the host, in a systemd-nspawn
# container and in a QEMU virtual machine (experiment env-cost).
# One group per transport and message size, in the summary's order; in
# each group one point per environment (host, nspawn, vm, each its own
# colour and shape): the median over the repetitions of each repetition's
# median round trip, with the confidence interval of that median
# (lat_p50_ns_lo/hi).  Log y: the container and the host differ by
# per cent, an emulated VM by orders of magnitude.  The VM's accelerator
# (KVM, or TCG emulation) is read from the experiment's meta.ini and named
# in the legend.  An environment or a cell without data leaves its point
# out.  The memcpy bound is not drawn: it was measured in each place,
# and the summary carries only the host's.

if (!exists("plotdir")) plotdir = "plots"
fig_w = 6.0; fig_h = 2.7
load plotdir."/common.gp"

base = "pattern=roundtrip"
envs = "host nspawn vm"
ne = words(envs)
trs = keys(summary, base, "transport")
ntr = words(trs)
# Sizes in ascending order (sel sorts on its first column).
szs = system(sprintf("awk -f '%s/select.awk' -v where='%s' -v cols=size_B -v uniq=1 '%s' | tr '\\n' ' '", \
        plotdir, base, summary))
nsz = words(szs)
ng = ntr * nsz

# The VM's accelerator from [run vm] env_accel in data/<experiment>/meta.ini.
exp = word(keys(summary, "", "experiment"), 1)
accel = system(sprintf("awk '/^\\[/ { g = $0; next } g == \"[run vm]\" && /^env_accel=/ { print toupper(substr($0, 11)) }' 'data/%s/meta.ini' 2>/dev/null", exp))

ecolor(e) = e eq "host" ? "#000000" : e eq "nspawn" ? "#0072B2" : e eq "vm" ? "#D55E00" : "#444444"
epoint(e) = e eq "host" ? 7 : e eq "nspawn" ? 5 : e eq "vm" ? 9 : 1
etitle(e) = e eq "host" ? "host" : e eq "nspawn" ? "systemd-nspawn container" : \
        e eq "vm" ? (accel eq "TCG" ? "QEMU VM, emulated (TCG)" : accel eq "" ? "QEMU VM" : "QEMU VM (".accel.")") : e
# Group G (1 .. ng): transport (G-1)/nsz+1, size (G-1)%nsz+1; the K-th
# environment sits at G + eoff(K).
gtr(g) = word(trs, int((g - 1) / nsz) + 1)
gsz(g) = word(szs, (g - 1) % nsz + 1)
eoff(k) = 0.24 * (k - (ne + 1) / 2.0)

have = nrows(summary, base.",lat_p50_ns!=-")
if (have > 0) {
        stats selu(summary, base.",lat_p50_ns!=-", "lat_p50_ns_lo") using 1 name "lo" nooutput
        stats selu(summary, base.",lat_p50_ns!=-", "lat_p50_ns_hi") using 1 name "hi" nooutput
}

unset key
set lmargin at screen 0.09
set rmargin at screen 0.99
set tmargin at screen 0.86
set bmargin at screen 0.19
set ylabel "median round trip" offset 1, 0
set grid noxtics ytics
if (have == 0) {
        @no_data
        exit
}
@set_time_axis
eval set_time_range(lo_min / 1e9, hi_max / 1e9)
set xrange [0.5 : ng + 0.5]
set xtics () scale 0 offset 0, 0.2
do for [g = 1:ng] { set xtics add (sizetext(gsz(g) + 0) g) }
# Transport names under their groups, thin rules between transports.
do for [i = 1:ntr] {
        t = word(trs, i)
        b = system(sprintf("awk -f '%s/select.awk' -v mode=keys -v where='%s' -v keys=bus '%s' | cut -d' ' -f1", \
                plotdir, base.",transport=".t, summary))
        set label (10 + i) (nobus(b) ? t : t.", ".b) at first ((i - 1) * nsz + (nsz + 1) / 2.0), graph -0.15 center font ",9"
        if (i > 1) {
                set arrow (10 + i) from first ((i - 1) * nsz + 0.5), graph 0 to first ((i - 1) * nsz + 0.5), graph 1 \
                        nohead linecolor rgb "#bbbbbb" linewidth 0.6
        }
}
set key at screen 0.54, screen 0.995 center top horizontal width 0 samplen 1.5 font ",8"
plot for [k = 1:ne] for [g = 1:ng] \
        sel(summary, base.",env=".word(envs, k).",transport=".gtr(g).",size_B=".gsz(g), \
                "size_B,lat_p50_ns,lat_p50_ns_lo,lat_p50_ns_hi") \
        using (g + eoff(k)):($2 / 1e9):($3 / 1e9):($4 / 1e9) with yerrorbars \
        linecolor rgb ecolor(word(envs, k)) pointtype epoint(word(envs, k)) pointsize 0.8 \
        title (g == 1 ? etitle(word(envs, k)) : "")
