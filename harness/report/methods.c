/* methods.c: the methods text from meta.ini (methods.h). */
#include "methods.h"

#include <math.h>
#include <string.h>

#include "columns.h"
#include "compare.h"
#include "latex.h"
#include "meta.h"
#include "render.h"
#include "samples.h"
#include "stats.h"
#include "verify.h"

/* KEY of GROUP in KF, or "" (as the paper shows a fact that is missing). */
static char *fact(GKeyFile *kf, const char *group, const char *key)
{
        char *v = g_key_file_get_string(kf, group, key, NULL);
        return v ? v : g_strdup("");
}

/* The same, LaTeX-escaped. */
static char *fact_tex(GKeyFile *kf, const char *group, const char *key)
{
        g_autofree char *v = fact(kf, group, key);
        return render_latex_escape(v);
}

/* "hypervisor: kvm, container: docker", or, for data written before
 * meta.ini kept the two apart, "virtualisation: docker". */
static char *virt_text(GKeyFile *kf)
{
        g_autofree char *h = fact_tex(kf, "machine", "hypervisor");
        g_autofree char *c = fact_tex(kf, "machine", "container");
        g_autofree char *v = fact_tex(kf, "machine", "virtualisation");

        if (g_key_file_has_key(kf, "machine", "hypervisor", NULL))
                return g_strdup_printf("hypervisor: %s, container: %s", h, c);
        return g_strdup_printf("virtualisation: %s", v);
}

/* The facts of the first meta.ini that the paragraph quotes, each a macro. */
static const struct {
        const char *group, *key;
} facts[] = {
        { "machine", "cpu_model" }, { "machine", "cpus_online" }, { "machine", "smt" },
        { "machine", "governor" }, { "machine", "boost" }, { "machine", "clocksource" },
        { "machine", "kernel" }, { "software", "glib" }, { "software", "libdbus" },
        { "software", "libsystemd" }, { "software", "dbus_daemon" }, { "software", "dbus_broker" },
        { "software", "compiler" }, { "software", "cflags" },
};

static void fact_macro(GString *out, GKeyFile *kf, const char *macro_key, const char *value_tex)
{
        g_autofree char *raw = g_strconcat("method ", macro_key, NULL);
        g_autofree char *name = latex_macro_name(raw);
        g_string_append_printf(out, "\\newcommand{\\%s}{%s}\n", name, value_tex);
        (void) kf;
}

static bool differs(GKeyFile *a, GKeyFile *b, const char *key)
{
        g_autofree char *x = fact(a, "machine", key);
        g_autofree char *y = fact(b, "machine", key);
        return strcmp(x, y) != 0;
}

/* One kind of warning: its text, or the text around its number and the
 * range of that number over the experiments. */
typedef struct {
        char *text;
        char *before, *after;
        double lo, hi;
} Warning;

static void warning_clear(Warning *w)
{
        g_free(w->text);
        g_free(w->before);
        g_free(w->after);
}

static void add_warnings(GArray *kinds, GKeyFile *kf)
{
        g_auto(GStrv) keys = g_key_file_get_keys(kf, "warnings", NULL, NULL);

        for (guint k = 0; keys && keys[k]; k++) {
                g_autofree char *w = g_key_file_get_string(kf, "warnings", keys[k], NULL);
                g_autofree char *before = NULL, *after = NULL;
                double v = NAN;
                if (!w)
                        continue;
                bool numbered = meta_warning_number(w, &before, &after, &v);
                bool seen = false;
                for (guint i = 0; i < kinds->len && !seen; i++) {
                        Warning *x = &g_array_index(kinds, Warning, i);
                        if (numbered && x->before && !strcmp(x->before, before) && !strcmp(x->after, after)) {
                                x->lo = MIN(x->lo, v);
                                x->hi = MAX(x->hi, v);
                                seen = true;
                        } else if (!numbered && x->text && !strcmp(x->text, w)) {
                                seen = true;
                        }
                }
                if (seen)
                        continue;
                Warning x = { .lo = v, .hi = v };
                if (numbered) {
                        x.before = g_steal_pointer(&before);
                        x.after = g_steal_pointer(&after);
                } else {
                        x.text = g_steal_pointer(&w);
                }
                g_array_append_val(kinds, x);
        }
}

/* "2026-12-01T13:18:02.5Z" -> "2026-12-01 13:18" (minutes, UTC). */
static char *started_text(GKeyFile *kf)
{
        g_autofree char *d = fact(kf, "run", "started");
        char *t = strchr(d, 'T');
        size_t n = strlen(d);

        if (t)
                *t = ' ';
        /* Drop ":SS[.frac]Z": the last colon and what follows, when it ends in Z. */
        char *colon = strrchr(d, ':');
        if (n && d[n - 1] == 'Z' && colon && colon > d + 10)
                *colon = '\0';
        return render_latex_escape(d);
}

/* The smallest and largest [bounds...] clock_read_ns of the meta.ini
 * files KFS (each environment measures its own); FALSE when none has it. */
static bool clock_read_range(GPtrArray *kfs, double *lo, double *hi)
{
        bool any = false;

        for (guint i = 0; i < kfs->len; i++) {
                g_auto(GStrv) groups = g_key_file_get_groups(kfs->pdata[i], NULL);
                for (guint g = 0; groups[g]; g++) {
                        if (strcmp(groups[g], "bounds") != 0 && !g_str_has_prefix(groups[g], "bounds "))
                                continue;
                        g_autofree char *v = g_key_file_get_value(kfs->pdata[i], groups[g], "clock_read_ns", NULL);
                        double d;
                        if (!v || !samples_parse_number(v, &d) || d <= 0)
                                continue;
                        *lo = any ? MIN(*lo, d) : d;
                        *hi = any ? MAX(*hi, d) : d;
                        any = true;
                }
        }
        return any;
}

/* V with one decimal below 10, none from 10 up (the paper's formatter). */
static char *fixed1(double v)
{
        return verify_format_digits(v, v >= 10 ? 0 : 1);
}

/* The table of every experiment's fixed part, from the summary of each
 * (SUMMARIES, one per meta.ini of PATHS, `ipclab summarize`'s): per
 * repetition, the window of one message timed just before the main one
 * (fixed_ns), and its share of the main window, each the median over a
 * cell's repetitions (the summary's columns), then the median and the
 * largest over the cells; and how many cells a claim may not stand on
 * (share over VERIFY_MAX_FIXED_SHARE).  An experiment whose data have no
 * fixed window, or no samples.tsv beside its meta.ini, says so. */
static bool windows_table(GString *out, char *const *paths, char *const *summaries, GPtrArray *kfs,
                          GError **error)
{
        double clo = 0, chi = 0;
        int limit = (int) (100 * VERIFY_MAX_FIXED_SHARE + 0.5);

        g_string_append(out, "\\begin{table}[htbp]\\centering\\small\n"
                        "\\caption{The fixed part of each experiment's windows, measured in the same run: the "
                        "window of one message, timed just before each repetition's main window, and its share of "
                        "that window (medians over a cell's repetitions; their median and largest over the "
                        "cells).");
        g_string_append_printf(out, "  Claims stand on no cell whose share exceeds %d\\,\\%%.", limit);
        if (clock_read_range(kfs, &clo, &chi)) {
                g_autofree char *a = fixed1(clo), *b = fixed1(chi);
                if (!strcmp(a, b))
                        g_string_append_printf(out, "  One clock read cost %s~ns (measured at the start of the "
                                               "run).", a);
                else
                        g_string_append_printf(out, "  One clock read cost %s to %s~ns (measured at the start of "
                                               "each run, in each environment).", a, b);
        } else {
                g_string_append(out, "  The cost of one clock read was not recorded with these data (meta.ini's "
                                "\\texttt{clock\\_read\\_ns}, which later runs record).");
        }
        g_string_append(out, "}\n\\label{tab:windows}\n"
                        "\\begin{tabular}{@{}lrrrrrr@{}}\\toprule\n"
                        "& & \\multicolumn{2}{c}{Fixed part (\\us)} & \\multicolumn{3}{c}{Share of the window} \\\\\n"
                        "\\cmidrule(lr){3-4}\\cmidrule(l){5-7}\n");
        g_string_append_printf(out, "Experiment & Cells & median & largest & median & largest & over %d\\,\\%% "
                               "\\\\\\midrule\n", limit);
        for (guint i = 0; paths[i]; i++) {
                g_autofree char *dir = g_path_get_dirname(paths[i]);
                g_autofree char *samples = g_build_filename(dir, "samples.tsv", NULL);
                g_autofree char *name = fact_tex(kfs->pdata[i], "experiment", "name");
                if (!g_file_test(samples, G_FILE_TEST_EXISTS)) {
                        g_string_append_printf(out, "%s & & \\multicolumn{5}{l}{no samples.tsv beside its "
                                               "meta.ini} \\\\\n", name);
                        continue;
                }
                g_autoptr(Table) sum = table_read(summaries[i], error);
                if (!sum)
                        return false;
                int fc = table_column(sum, column_table[COL_FIXED_NS].name);
                int sc = table_column(sum, column_table[COL_FIXED_SHARE].name);
                if (fc < 0 || sc < 0) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: no column %s", summaries[i],
                                    fc < 0 ? column_table[COL_FIXED_NS].name : column_table[COL_FIXED_SHARE].name);
                        return false;
                }
                guint rows = sum->rows->len;
                g_autofree double *f = g_new0(double, rows + 1);
                g_autofree double *sh = g_new0(double, rows + 1);
                guint n = 0, over = 0;
                for (guint c = 0; c < rows; c++) {
                        char **row = sum->rows->pdata[c];
                        double fx, s;
                        if (!samples_parse_number(row[fc], &fx) || !samples_parse_number(row[sc], &s))
                                continue;
                        f[n] = fx / 1000;
                        sh[n] = 100 * s;
                        over += s > VERIFY_MAX_FIXED_SHARE;
                        n++;
                }
                if (!n) {
                        g_string_append_printf(out, "%s & %u & \\multicolumn{5}{l}{no fixed window (whole "
                                               "commands, or older data)} \\\\\n", name, rows);
                        continue;
                }
                stats_sort_double(f, n);
                stats_sort_double(sh, n);
                g_autofree char *fm = fixed1(stats_median(f, n)), *fx = fixed1(f[n - 1]);
                g_autofree char *sm = fixed1(stats_median(sh, n)), *sx = fixed1(sh[n - 1]);
                g_string_append_printf(out, "%s & %u & %s & %s & %s\\,\\%% & %s\\,\\%% & %u \\\\\n", name, n, fm, fx,
                                       sm, sx, over);
        }
        g_string_append(out, "\\bottomrule\\end{tabular}\n\\end{table}\n\n");
        return true;
}

/* The machine's facts as macros, and the paragraph that names them: the
 * first experiment's machine, and any other an experiment ran on. */
static void machine_paragraph(GString *out, GPtrArray *kfs)
{
        GKeyFile *first = kfs->pdata[0];

        for (size_t i = 0; i < G_N_ELEMENTS(facts); i++) {
                g_autofree char *v = fact_tex(first, facts[i].group, facts[i].key);
                fact_macro(out, first, facts[i].key, v);
        }
        g_autofree char *virt = virt_text(first);
        fact_macro(out, first, "virtualisation", virt);
        g_autofree char *pti = compare_machine_fact(first, "machine", "page_table_isolation");
        g_autofree char *pti_tex = render_latex_escape(pti);
        fact_macro(out, first, "page table isolation", pti_tex);
        g_autofree char *pcid = compare_machine_fact(first, "machine", "pcid");
        g_autofree char *pcid_tex = render_latex_escape(strcmp(pcid, "--") ? pcid : "not recorded");
        fact_macro(out, first, "pcid", pcid_tex);

        g_string_append(out, "\\paragraph{Machine.}\n");
        g_string_append(out, "The data were measured on \\MethodCpuModel{} (\\MethodCpusOnline{} CPUs online, "
                        "SMT \\MethodSmt, frequency governor \\MethodGovernor, boost \\MethodBoost, clock source "
                        "\\MethodClocksource, page-table isolation \\MethodPageTableIsolation, PCID \\MethodPcid, "
                        "\\MethodVirtualisation) under Linux \\MethodKernel, ");
        g_string_append(out, "with GLib \\MethodGlib, libdbus \\MethodLibdbus, libsystemd \\MethodLibsystemd, "
                        "\\MethodDbusDaemon{} and \\MethodDbusBroker; the harness was compiled by "
                        "\\MethodCompiler{} with \\texttt{\\MethodCflags}.\n");
        for (guint i = 1; i < kfs->len; i++) {
                GKeyFile *kf = kfs->pdata[i];
                if (!differs(kf, first, "cpu_model") && !differs(kf, first, "kernel") &&
                    !differs(kf, first, "hypervisor") && !differs(kf, first, "container"))
                        continue;
                g_autofree char *name = fact_tex(kf, "experiment", "name");
                g_autofree char *cpu = fact_tex(kf, "machine", "cpu_model");
                g_autofree char *kernel = fact_tex(kf, "machine", "kernel");
                g_autofree char *v = virt_text(kf);
                g_string_append_printf(out, "Experiment %s ran elsewhere: %s under Linux %s (%s).\n", name, cpu, kernel, v);
        }
}

/* How client and server ran: processes, unless an experiment's meta.ini
 * says threads too (roles=; none said so before the key). */
static void roles_sentence(GString *out, GPtrArray *kfs)
{
        g_autoptr(GString) threads = g_string_new(NULL);
        guint n_threads = 0;
        for (guint i = 0; i < kfs->len; i++) {
                g_autofree char *roles = fact(kfs->pdata[i], "experiment", "roles");
                g_auto(GStrv) each = g_strsplit(roles, ";", -1);
                if (!g_strv_contains((const char *const *) each, "threads"))
                        continue;
                g_autofree char *name = fact_tex(kfs->pdata[i], "experiment", "name");
                g_string_append_printf(threads, "%s%s", n_threads++ ? ", " : "", name);
        }
        if (!n_threads)
                g_string_append(out, "In every experiment the client and the server ran as two processes forked by "
                                "the harness.\n");
        else
                g_string_append_printf(out, "The client and the server ran as two processes forked by the harness; "
                                       "in experiment%s %s also as two threads of one forked process "
                                       "(\\texttt{roles=threads}), each thread's CPU time and placement its own.\n",
                                       n_threads > 1 ? "s" : "", threads->str);
}

/* The table of when each experiment ran, with which profile, in which
 * environments, from which commit. */
static void provenance_table(GString *out, GPtrArray *kfs)
{
        g_string_append(out, "\n\\begin{table}[htbp]\\centering\\small\n"
                        "\\caption{Provenance of the data: when each experiment ran, with which profile, environment "
                        "and commit of ipclab (stored in its meta.ini).}\n"
                        "\\label{tab:provenance}\n"
                        "\\begin{tabular}{@{}lllll@{}}\\toprule\n"
                        "Experiment & Measured (UTC) & Profile & Environment & ipclab commit \\\\\\midrule\n");
        guint dirty = 0;
        for (guint i = 0; i < kfs->len; i++) {
                GKeyFile *kf = kfs->pdata[i];
                g_autofree char *commit = fact(kf, "software", "ipclab_commit");
                g_autofree char *tree = fact(kf, "software", "ipclab_tree");
                dirty += !strcmp(tree, "dirty");
                g_autofree char *c = g_strdup_printf("%.10s%s", commit, !strcmp(tree, "dirty") ? "+" : "");
                g_autofree char *ct = render_latex_escape(c);
                g_autofree char *name = fact_tex(kf, "experiment", "name");
                g_autofree char *date = started_text(kf);
                g_autofree char *profile = fact_tex(kf, "experiment", "profile");
                /* Every place an experiment ran in (envs=, a run of several),
                 * else the one. */
                g_autofree char *envs = fact(kf, "run", "envs");
                g_autofree char *one = fact(kf, "run", "env");
                g_auto(GStrv) each = g_strsplit(envs[0] ? envs : one, ";", -1);
                g_autofree char *joined = g_strjoinv(", ", each);
                g_autofree char *env = render_latex_escape(joined);
                g_string_append_printf(out, "%s & %s & %s & %s & \\texttt{%s} \\\\\n", name, date, profile, env, ct);
        }
        g_string_append(out, "\\bottomrule\\end{tabular}\n");
        if (dirty)
                g_string_append(out, "\\par\\footnotesize Commit hashes marked + were built from a tree with "
                                "uncommitted changes.\n");
        g_string_append(out, "\\end{table}\n\n");
}

/* The conditions known to bias results that the harness found. */
static void conditions(GString *out, GPtrArray *kfs)
{
        g_autoptr(GArray) kinds = g_array_new(FALSE, TRUE, sizeof(Warning));
        g_array_set_clear_func(kinds, (GDestroyNotify) warning_clear);
        for (guint i = 0; i < kfs->len; i++)
                add_warnings(kinds, kfs->pdata[i]);
        if (!kinds->len) {
                g_string_append(out, "\\paragraph{Conditions.} The harness found nothing known to bias the results.\n");
                return;
        }
        g_string_append(out, "\\paragraph{Conditions that bias results.}\n"
                        "The harness checks for conditions known to bias measurements and stores what it finds; "
                        "for these data it reported:\n\\begin{itemize}\n");
        for (guint i = 0; i < kinds->len; i++) {
                const Warning *w = &g_array_index(kinds, Warning, i);
                g_autofree char *text = NULL;
                if (w->text) {
                        text = g_strdup(w->text);
                } else {
                        g_autofree char *a = verify_format_digits(w->lo, 2);
                        g_autofree char *b = verify_format_digits(w->hi, 2);
                        text = w->lo == w->hi ? g_strconcat(w->before, a, w->after, NULL)
                                              : g_strconcat(w->before, a, " to ", b, w->after, NULL);
                }
                g_autofree char *t = render_latex_escape(text);
                g_string_append_printf(out, "\\item %s\n", t);
        }
        g_string_append(out, "\\end{itemize}\n");
}

char *methods_tex(char *const *paths, char *const *summaries, GError **error)
{
        guint n = paths ? g_strv_length((char **) paths) : 0;
        g_autoptr(GPtrArray) kfs = g_ptr_array_new_with_free_func((GDestroyNotify) g_key_file_unref);

        if (!n)
                return g_strdup("\\paragraph{Machine.} No experiment of this build has data.\n");
        if (!summaries || g_strv_length((char **) summaries) != n) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%u meta.ini files but %u summaries: one "
                            "--summary per meta.ini, in the same order", n,
                            summaries ? g_strv_length((char **) summaries) : 0);
                return NULL;
        }
        for (guint i = 0; i < n; i++) {
                GKeyFile *kf = meta_read(paths[i], error);
                if (!kf)
                        return NULL;
                g_ptr_array_add(kfs, kf);
        }
        g_autoptr(GString) out = g_string_new("% generated from data/*/meta.ini by `ipclab methods`\n");

        machine_paragraph(out, kfs);
        roles_sentence(out, kfs);
        provenance_table(out, kfs);
        if (!windows_table(out, paths, summaries, kfs, error))
                return NULL;
        conditions(out, kfs);
        return g_string_free(g_steal_pointer(&out), FALSE);
}
