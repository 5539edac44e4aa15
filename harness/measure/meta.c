/* meta.c: environment capture for meta.ini.  Reads /proc and /sys, asks
 * the daemons their versions; never prints. */
#include "meta.h"
#include "spawn.h"

#include <dbus/dbus.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "bus.h"
#include "dir.h"
#include "plugin.h"
#include "runner.h"
#include "safefile.h"
#include "samples.h"
#include "stats.h"
#include "transport.h"
#include "version.h"

struct Meta {
        GKeyFile *kf;
        GPtrArray *warnings;   /* char *, NULL-terminated */
};

/* First line of FILE, stripped, or NULL. */
static char *read_line(const char *file)
{
        g_autofree char *text = NULL;

        if (!g_file_get_contents(file, &text, NULL, NULL))
                return NULL;
        char *nl = strchr(text, '\n');
        if (nl)
                *nl = '\0';
        return g_strdup(g_strstrip(text));
}

static void set(Meta *m, const char *group, const char *key, const char *value)
{
        g_key_file_set_string(m->kf, group, key, value ? value : "unknown");
}

static void warn(Meta *m, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void warn(Meta *m, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        g_ptr_array_insert(m->warnings, (gint) m->warnings->len - 1, g_strdup_vprintf(fmt, ap));
        va_end(ap);
}

/* The warnings that carry a number, as meta.c writes them: what
 * meta_warning_number() reads back (methods: a range over experiments). */
static const char *const number_warnings[] = {
        "the machine was loaded at the start (load average %.2f)",
        "the machine was loaded at the end (load average %.2f)",
};
#define LOADED_AT_START number_warnings[0]
#define LOADED_AT_END number_warnings[1]

gboolean meta_warning_number(const char *warning, char **before, char **after, double *value)
{
        for (size_t i = 0; i < G_N_ELEMENTS(number_warnings); i++) {
                const char *f = number_warnings[i];
                const char *pct = strstr(f, "%.2f");
                size_t nb = (size_t) (pct - f), na = strlen(pct + 4);
                size_t nw = strlen(warning);
                if (nw <= nb + na || strncmp(warning, f, nb) || strcmp(warning + nw - na, pct + 4))
                        continue;
                g_autofree char *num = g_strndup(warning + nb, nw - nb - na);
                char *end;
                double v = g_ascii_strtod(num, &end);
                if (*end || !num[0] || !g_ascii_isdigit(num[0]))
                        continue;
                *before = g_strndup(f, nb);
                *after = g_strdup(pct + 4);
                *value = v;
                return TRUE;
        }
        return FALSE;
}

GKeyFile *meta_read(const char *path, GError **error)
{
        /* The one door of a meta.ini (safefile.h). */
        return safefile_key_file(path, error);
}

static char *cpu_model(void)
{
        g_autofree char *text = NULL;

        if (!g_file_get_contents("/proc/cpuinfo", &text, NULL, NULL))
                return NULL;
        g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
        for (guint i = 0; lines[i]; i++) {
                if (g_str_has_prefix(lines[i], "model name")) {
                        char *colon = strchr(lines[i], ':');
                        if (colon)
                                return g_strdup(g_strstrip(colon + 1));
                }
        }
        return NULL;
}

static bool cpu_has_flag(const char *flag)
{
        g_autofree char *text = NULL;
        g_autofree char *needle = g_strdup_printf(" %s ", flag);

        if (!g_file_get_contents("/proc/cpuinfo", &text, NULL, NULL))
                return false;
        g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
        for (guint i = 0; lines[i]; i++) {
                if (g_str_has_prefix(lines[i], "flags")) {
                        g_autofree char *l = g_strconcat(lines[i], " ", NULL);
                        return strstr(l, needle) != NULL;
                }
        }
        return false;
}

/* The kernel's CPU mitigations that are not "Not affected", as
 * "NAME: STATE; ..." in the order of /sys/devices/system/cpu/vulnerabilities,
 * "none" when every entry is, or NULL when the kernel does not say.  They
 * sit on every system call and context switch, which is what IPC is made
 * of: two runs under different mitigations are two different machines. */
static char *cpu_mitigations(void)
{
        const char *dir = "/sys/devices/system/cpu/vulnerabilities";
        g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);

        if (!d)
                return NULL;
        g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
        for (const char *n; (n = g_dir_read_name(d));)
                g_ptr_array_add(names, g_strdup(n));
        g_ptr_array_sort(names, samples_name_cmp);
        g_autoptr(GString) out = g_string_new(NULL);
        for (guint i = 0; i < names->len; i++) {
                g_autofree char *file = g_build_filename(dir, names->pdata[i], NULL);
                g_autofree char *state = read_line(file);
                if (!state || !strcmp(state, "Not affected"))
                        continue;
                g_string_append_printf(out, "%s%s: %s", out->len ? "; " : "", (char *) names->pdata[i], state);
        }
        return out->len ? g_string_free(g_steal_pointer(&out), FALSE) : g_strdup("none");
}

/* systemd-detect-virt --MODE: "kvm", "docker", "none"; it exits non-zero
 * when it finds none, and says "none".  Without it, what the CPU says. */
static char *detect_virt(const char *mode, Meta *m)
{
        const char *argv[] = { "systemd-detect-virt", mode, NULL };
        const char *why = NULL;
        g_autofree char *out = NULL;
        int r = spawn_helper(argv, SPAWN_HELPER_TIMEOUT_MS, &out);

        if (r == 0 || r == -EIO) {
                char *nl = out ? strchr(out, '\n') : NULL;
                if (nl)
                        *nl = '\0';
                return g_strdup(out && g_strstrip(out)[0] ? out : "none");
        }
        why = r == -ETIMEDOUT ? "timed out" : r == -EINTR ? "interrupted" : r == -ENOENT ? "not installed" : "failed";
        if (r == -ETIMEDOUT)
                warn(m, "systemd-detect-virt %s did not answer within %u s; killed", mode, SPAWN_HELPER_TIMEOUT_MS / 1000);
        if (!strcmp(mode, "--vm") && cpu_has_flag("hypervisor"))
                return g_strdup_printf("yes (hypervisor flag; systemd-detect-virt %s)", why);
        return g_strdup_printf("unknown (systemd-detect-virt %s)", why);
}

static double loadavg1(void)
{
        g_autofree char *l = read_line("/proc/loadavg");
        return l ? g_ascii_strtod(l, NULL) : -1;
}

static guint64 swap_used_kib(void)
{
        g_autofree char *text = NULL;
        guint64 total = 0, free_ = 0;

        if (!g_file_get_contents("/proc/meminfo", &text, NULL, NULL))
                return 0;
        g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
        for (guint i = 0; lines[i]; i++) {
                if (g_str_has_prefix(lines[i], "SwapTotal:"))
                        total = g_ascii_strtoull(lines[i] + 10, NULL, 10);
                else if (g_str_has_prefix(lines[i], "SwapFree:"))
                        free_ = g_ascii_strtoull(lines[i] + 9, NULL, 10);
        }
        return total > free_ ? total - free_ : 0;
}

const char *meta_env_backend(void)
{
        const char *e = g_getenv("IPCLAB_ENV_BACKEND");
        return e && *e ? e : "host";
}

const char *meta_machine_name(void)
{
        static char name[65];
        struct utsname u;

        if (name[0])
                return name;
        const char *m = g_getenv("IPCLAB_MACHINE");
        if (!m || !*m)
                m = g_getenv("SLURMD_NODENAME");
        if ((!m || !*m) && uname(&u) == 0)
                m = u.nodename;
        gsize n = 0;
        for (; m && m[n] && n < sizeof name - 1; n++) {
                /* A host name's first label; a name we were given whole. */
                if (m == u.nodename && m[n] == '.')
                        break;
                name[n] = g_ascii_isalnum(m[n]) || strchr("-_.", m[n]) ? m[n] : '_';
        }
        name[n] = '\0';
        if (!n || !strcmp(name, "-"))
                g_strlcpy(name, "unnamed", sizeof name);
        return name;
}

/* Whether S is one line of printable UTF-8 of at most 16 KiB. */
static bool printable(const char *s)
{
        return g_utf8_validate(s, -1, NULL) && strlen(s) <= 16384 && samples_plain_text(s);
}

gboolean meta_check_values(GKeyFile *kf, const char *path, GError **error)
{
        g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);

        for (guint i = 0; groups[i]; i++) {
                if (!printable(groups[i])) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "%s: a group name that is not one line of printable text", path);
                        return FALSE;
                }
                g_auto(GStrv) keys = g_key_file_get_keys(kf, groups[i], NULL, NULL);
                for (guint k = 0; keys && keys[k]; k++) {
                        g_autofree char *v = g_key_file_get_string(kf, groups[i], keys[k], NULL);
                        if (!printable(keys[k]) || !v || !printable(v)) {
                                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                            "%s: [%s] %s: not one line of printable text (at most 16 KiB, "
                                            "no control character)", path, groups[i],
                                            printable(keys[k]) ? keys[k] : "(a key)");
                                return FALSE;
                        }
                }
        }
        return TRUE;
}

void meta_add_machine_group(GKeyFile *kf)
{
        g_autofree char *name = g_key_file_get_string(kf, "run", "machine", NULL);
        const char *from[] = { "machine", "software" };

        if (!name)
                return;
        g_autofree char *group = g_strconcat("machine ", name, NULL);
        for (gsize i = 0; i < G_N_ELEMENTS(from); i++) {
                g_auto(GStrv) keys = g_key_file_get_keys(kf, from[i], NULL, NULL);
                for (guint k = 0; keys && keys[k]; k++) {
                        g_autofree char *v = g_key_file_get_value(kf, from[i], keys[k], NULL);
                        g_key_file_set_value(kf, group, keys[k], v);
                }
        }
        const char *load[] = { "load_start", "load_end", "env" };
        for (gsize i = 0; i < G_N_ELEMENTS(load); i++) {
                g_autofree char *v = g_key_file_get_value(kf, "run", load[i], NULL);
                if (v)
                        g_key_file_set_value(kf, group, load[i], v);
        }
}

/* [run]: when, what command, where, and the load at the start. */
static void meta_run_group(Meta *m, const char *const *argv)
{
        g_autoptr(GDateTime) now = g_date_time_new_now_utc();
        g_autofree char *date = g_date_time_format_iso8601(now);

        set(m, "run", "started", date);
        g_autofree char *cmd = g_strjoinv(" ", (char **) argv);
        set(m, "run", "command", cmd);
        set(m, "run", "env", meta_env_backend());
        set(m, "run", "machine", meta_machine_name());
        if (g_getenv("IPCLAB_ENV_IMAGE"))
                set(m, "run", "env_image", g_getenv("IPCLAB_ENV_IMAGE"));
        if (g_getenv("IPCLAB_ENV_ACCEL")) {
                set(m, "run", "env_accel", g_getenv("IPCLAB_ENV_ACCEL"));
                if (!strcmp(g_getenv("IPCLAB_ENV_ACCEL"), "tcg"))
                        warn(m, "the virtual machine is emulated (TCG, no KVM): timings are not comparable with hardware");
        }
        g_key_file_set_double(m->kf, "run", "load_start", loadavg1());
}

/* [machine]: the kernel, the CPUs and what makes timings noisy (each a
 * warning too). */
static void meta_machine_group(Meta *m)
{
        struct utsname u = { 0 };

        if (uname(&u) == 0) {
                set(m, "machine", "kernel", u.release);
                set(m, "machine", "kernel_version", u.version);
                set(m, "machine", "arch", u.machine);
                set(m, "machine", "hostname", u.nodename);
        }
        g_autofree char *cmdline = read_line("/proc/cmdline");
        set(m, "machine", "kernel_cmdline", cmdline);
        g_autofree char *model = cpu_model();
        set(m, "machine", "cpu_model", model);
        g_key_file_set_integer(m->kf, "machine", "cpus_online", (gint) sysconf(_SC_NPROCESSORS_ONLN));
        g_key_file_set_uint64(m->kf, "machine", "memory_bytes",
                              (guint64) sysconf(_SC_PHYS_PAGES) * (guint64) sysconf(_SC_PAGESIZE));

        g_autofree char *gov = read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
        set(m, "machine", "governor", gov ? gov : "none (no cpufreq)");
        if (gov && strcmp(gov, "performance") != 0)
                warn(m, "CPU frequency governor is '%s', not 'performance'", gov);

        g_autofree char *no_turbo = read_line("/sys/devices/system/cpu/intel_pstate/no_turbo");
        g_autofree char *boost = read_line("/sys/devices/system/cpu/cpufreq/boost");
        const char *boost_state = no_turbo ? (!strcmp(no_turbo, "1") ? "off" : "on")
                                           : boost ? (!strcmp(boost, "1") ? "on" : "off")
                                                   : "unknown (not exposed)";
        set(m, "machine", "boost", boost_state);
        if (!strcmp(boost_state, "on"))
                warn(m, "CPU boost (turbo) is on: clock speed varies with load and temperature");

        g_autofree char *smt = read_line("/sys/devices/system/cpu/smt/active");
        set(m, "machine", "smt", smt ? (!strcmp(smt, "1") ? "on" : "off") : "unknown (not exposed)");
        g_autofree char *cs = read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource");
        set(m, "machine", "clocksource", cs);
        /* Page-table isolation doubles the cost of every entry to the kernel
         * and flushes the TLB on a switch between processes (not threads):
         * the kernel turns it on for the CPUs that need it, or pti=on for
         * any.  x86 says so in /proc/cpuinfo's flags. */
        if (!strcmp(u.machine, "x86_64") || !strcmp(u.machine, "i686")) {
                set(m, "machine", "page_table_isolation", cpu_has_flag("pti") ? "on" : "off");
                /* With PCID a switch keeps other address spaces' TLB entries. */
                set(m, "machine", "pcid", cpu_has_flag("pcid") ? "yes" : "no");
        }
        g_autofree char *mitigations = cpu_mitigations();
        set(m, "machine", "cpu_mitigations", mitigations);
        /* A container inside a VM is both: systemd-detect-virt alone names
         * only the innermost (docker), hiding the hypervisor (kvm). */
        g_autofree char *hypervisor = detect_virt("--vm", m);
        g_autofree char *container = detect_virt("--container", m);
        set(m, "machine", "hypervisor", hypervisor);
        set(m, "machine", "container", container);
        g_autofree char *virt = !strcmp(hypervisor, "none") ? g_strdup(container)
                              : !strcmp(container, "none") ? g_strdup(hypervisor)
                              : g_strdup_printf("%s in %s", container, hypervisor);
        set(m, "machine", "virtualisation", virt);
        if (strcmp(hypervisor, "none") != 0 && !g_str_has_prefix(hypervisor, "unknown"))
                warn(m, "running in a virtual machine (%s): the hypervisor adds noise and its own IPC costs", hypervisor);
        if (strcmp(container, "none") != 0 && !g_str_has_prefix(container, "unknown"))
                warn(m, "running in a container (%s)", container);

        double load = loadavg1();
        if (load > 0.5 * (double) sysconf(_SC_NPROCESSORS_ONLN))
                warn(m, LOADED_AT_START, load);
        guint64 swap = swap_used_kib();
        g_key_file_set_uint64(m->kf, "machine", "swap_used_kib", swap);
        if (swap > 0)
                warn(m, "swap in use (%" G_GUINT64_FORMAT " KiB)", swap);
}

/* [software]: the libraries, buses and build measured with. */
static void meta_software_group(Meta *m)
{
        g_autofree char *glib = g_strdup_printf("%u.%u.%u", glib_major_version, glib_minor_version, glib_micro_version);
        set(m, "software", "glib", glib);
        int maj, min, mic;
        dbus_get_version(&maj, &min, &mic);
        g_autofree char *dbus = g_strdup_printf("%d.%d.%d", maj, min, mic);
        set(m, "software", "libdbus", dbus);
        set(m, "software", "libsystemd", IPCLAB_LIBSYSTEMD_VERSION);
        /* The C++ transports' libraries, as built in (mk/harness.mk), and
         * how that sdbus-c++ appends a std::vector<uint8_t>. */
        bool qt = !transport_qtdbus.unavailable(), sdcpp = !transport_sdbus_cpp.unavailable();
        set(m, "software", "qtdbus", qt ? IPCLAB_QTDBUS_VERSION : "not built in");
        set(m, "software", "sdbus_cpp", sdcpp ? IPCLAB_SDBUSCPP_VERSION : "not built in");
        set(m, "software", "sdbus_cpp_vector", !sdcpp ? "not built in" :
            IPCLAB_SDBUSCPP_ARRAY ? "one array" : "per element");
        /* The libraries ipclab's own transports say they use (their
         * libraries() hook: the messaging libraries), as a plugin's are
         * in its [plugin] group; why not, where one cannot run. */
        for (size_t i = 0; transport_table[i]; i++) {
                const Transport *t = transport_table[i];
                if (!t->libraries)
                        continue;
                const char *why = transport_unavailable(t);
                g_autofree char *key = g_strcanon(g_strdup(t->name), G_CSET_a_2_z G_CSET_A_2_Z G_CSET_DIGITS, '_');
                g_autofree char *value = why ? g_strdup_printf("unavailable: %s", why) : g_strdup(t->libraries());
                set(m, "software", key, value);
        }
        g_autofree char *daemon = bus_version(BUS_DBUS_DAEMON);
        set(m, "software", "dbus_daemon", daemon ? daemon : "not installed");
        g_autofree char *broker = bus_version(BUS_DBUS_BROKER);
        set(m, "software", "dbus_broker", broker ? broker : "not installed");
        set(m, "software", "compiler", "gcc " __VERSION__);
        set(m, "software", "cflags", IPCLAB_CFLAGS);
        set(m, "software", "ipclab_commit", IPCLAB_COMMIT);
        set(m, "software", "ipclab_tree", IPCLAB_TREE_STATE);
}

/* [experiment], [resolved], [skipped] and each plugin's group: what was
 * measured. */
static void meta_experiment_group(Meta *m, const Experiment *exp)
{
        set(m, "experiment", "name", exp->name);
        set(m, "experiment", "file", exp->path);
        set(m, "experiment", "sha256", exp->sha256);
        g_autofree char *config = experiment_config_sha256(exp);
        set(m, "experiment", "config_sha256", config);
        set(m, "experiment", "title", exp->title);
        if (exp->source)
                set(m, "experiment", "source", exp->source);
        set(m, "experiment", "profile", exp->profile ? exp->profile : "default");
        g_key_file_set_uint64(m->kf, "experiment", "seed", exp->seed);
        g_key_file_set_integer(m->kf, "experiment", "cells", (gint) exp->cells->len);
        /* How the cells ran their two roles (roles=; processes where the
         * file does not say), for the methods text. */
        bool roles[ROLES_THREADS + 1] = { false };
        for (guint i = 0; i < exp->cells->len; i++)
                roles[((const Cell *) exp->cells->pdata[i])->roles] = true;
        g_autoptr(GString) ran = g_string_new(NULL);
        for (int r = ROLES_PROCESSES; r <= ROLES_THREADS; r++)
                if (roles[r])
                        g_string_append_printf(ran, "%s%s", ran->len ? ";" : "", roles_name((Roles) r));
        set(m, "experiment", "roles", ran->len ? ran->str : roles_name(ROLES_PROCESSES));
        g_auto(GStrv) resolved = g_strsplit(exp->resolved, "\n", -1);
        for (guint i = 0; resolved[i]; i++) {
                char *eq = strchr(resolved[i], '=');
                if (!eq)
                        continue;
                *eq = '\0';
                set(m, "resolved", resolved[i], eq + 1);
        }
        for (guint i = 0; i < exp->skipped->len; i++) {
                g_autofree char *k = g_strdup_printf("skipped_%u", i + 1);
                set(m, "skipped", k, exp->skipped->pdata[i]);
        }
        /* Every plugin a cell uses: what it is, to the byte (plugin.h).
         * (A built-in transport's libraries are in [software], above.) */
        g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
        for (guint i = 0; i < exp->cells->len; i++) {
                const Cell *c = exp->cells->pdata[i];
                const Transport *t = transport_find(c->transport);
                if (!t || !g_hash_table_add(seen, (gpointer) c->transport))
                        continue;
                if (!plugin_of(t, NULL))
                        continue;
                g_autofree char *group = g_strconcat("plugin ", c->transport, NULL);
                plugin_provenance(t, m->kf, group);
        }
}

Meta *meta_begin(const Experiment *exp, const char *const *argv)
{
        Meta *m = g_new0(Meta, 1);

        m->kf = g_key_file_new();
        m->warnings = g_ptr_array_new_with_free_func(g_free);
        g_ptr_array_add(m->warnings, NULL);
        meta_run_group(m, argv);
        meta_machine_group(m);
        meta_software_group(m);
        meta_experiment_group(m, exp);
        return m;
}

void meta_end(Meta *m, guint cells, guint failed_rows, guint rows)
{
        g_autoptr(GDateTime) now = g_date_time_new_now_utc();
        g_autofree char *date = g_date_time_format_iso8601(now);

        set(m, "run", "finished", date);
        g_key_file_set_double(m->kf, "run", "load_end", loadavg1());
        g_key_file_set_integer(m->kf, "run", "cells_run", (gint) cells);
        g_key_file_set_integer(m->kf, "run", "rows", (gint) rows);
        g_key_file_set_integer(m->kf, "run", "rows_failed", (gint) failed_rows);
        double load = loadavg1();
        if (load > 0.5 * (double) sysconf(_SC_NPROCESSORS_ONLN) + 1)
                warn(m, LOADED_AT_END, load);
}

/* memcpy bandwidth for SIZE bytes, MiB/s: the best of five windows of
 * about 2 ms each (an upper bound wants the best the machine can do, not
 * the average of what a loaded machine did), after one warm-up copy,
 * alternating direction so that neither buffer idles. */
static double memcpy_mibps(guint64 size)
{
        g_autofree char *a = g_malloc(size), *b = g_malloc(size);
        guint64 copies = 0;
        double best = 0;

        memset(a, 1, size);
        memset(b, 2, size);
        memcpy(b, a, size);
        for (int w = 0; w < 5; w++) {
                guint64 n = 0;
                gint64 t0 = g_get_monotonic_time(), t1;
                do {
                        for (int i = 0; i < 16; i++, n++, copies++) {
                                if (copies & 1)
                                        memcpy(a, b, size);
                                else
                                        memcpy(b, a, size);
                                __asm__ volatile("" : : "r"(a), "r"(b) : "memory");
                        }
                        t1 = g_get_monotonic_time();
                } while (t1 - t0 < 2000);
                double mibps = (double) n * (double) size / ((double) (t1 - t0) / 1e6) / 1048576.0;
                best = MAX(best, mibps);
        }
        return best;
}

/* What one read of CLOCK_MONOTONIC costs, ns: the median of 15 batches
 * of 20 000 back-to-back reads (about 10 ms here).  One-way messages of a
 * stamped size carry two such reads inside the window (the client's send
 * stamp, the server's receipt), so the paper can state what they add. */
static double clock_read_ns(void)
{
        enum { BATCHES = 15, READS = 20000 };
        double per[BATCHES];
        struct timespec ts;

        for (int b = 0; b < BATCHES; b++) {
                gint64 t0 = g_get_monotonic_time();
                for (int i = 0; i < READS; i++) {
                        clock_gettime(CLOCK_MONOTONIC, &ts);
                        __asm__ volatile("" : : "r"(&ts) : "memory");
                }
                per[b] = (double) (g_get_monotonic_time() - t0) * 1000.0 / READS;
        }
        stats_sort_double(per, BATCHES);
        return stats_median(per, BATCHES);
}

void meta_measure_bounds(Meta *m, const Experiment *exp)
{
        g_autoptr(GHashTable) done = g_hash_table_new(g_direct_hash, g_direct_equal);

        g_key_file_set_double(m->kf, "bounds", "clock_read_ns", clock_read_ns());

        for (guint i = 0; i < exp->cells->len; i++) {
                const Cell *c = exp->cells->pdata[i];
                if (c->size == 0 || g_hash_table_contains(done, GSIZE_TO_POINTER(c->size)))
                        continue;
                g_hash_table_add(done, GSIZE_TO_POINTER(c->size));
                g_autofree char *k = g_strdup_printf("memcpy_MiBps_%" G_GUINT64_FORMAT, c->size);
                g_key_file_set_double(m->kf, "bounds", k, memcpy_mibps(c->size));
        }
}

void meta_set(Meta *m, const char *group, const char *key, const char *value)
{
        set(m, group, key, value);
}

const char *const *meta_warnings(const Meta *m)
{
        return (const char *const *) m->warnings->pdata;
}

char *meta_to_ini(const Meta *m)
{
        g_autoptr(GKeyFile) kf = g_key_file_new();
        g_autofree char *data = g_key_file_to_data(m->kf, NULL, NULL);

        g_key_file_load_from_data(kf, data, (gsize) -1, G_KEY_FILE_NONE, NULL);
        g_key_file_remove_group(kf, "warnings", NULL);
        for (guint i = 0; i + 1 < m->warnings->len; i++) {
                g_autofree char *k = g_strdup_printf("warning_%u", i + 1);
                g_key_file_set_string(kf, "warnings", k, m->warnings->pdata[i]);
        }
        meta_add_machine_group(kf);
        return g_key_file_to_data(kf, NULL, NULL);
}

void meta_free(Meta *m)
{
        if (!m)
                return;
        g_key_file_unref(m->kf);
        g_ptr_array_unref(m->warnings);
        g_free(m);
}
