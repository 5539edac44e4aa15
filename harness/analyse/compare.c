/* compare.c: the committed data and a reproduction, cell by cell and
 * machine by machine (compare.h).  Never prints. */
#include <string.h>

#include "compare.h"
#include "experiment.h"
#include "latex.h"
#include "safefile.h"
#include "stats.h"
#include "verify.h"

/* The axes a profile or a place may change without changing what a cell
 * measures: how much (count, duration_ns) and where (machine: a
 * reproduction runs elsewhere by design); and any axis whose values on
 * the two sides have none in common (cpus=same in one run, split in the
 * next: the change a rerun is asked about).  A cell is matched on every
 * axis; only when a group of cells that agree on every other axis holds,
 * after that, exactly one cell on each side do those two stand for each
 * other (PROFILE=quick's counts, the reviewer's machine, the new cpus).
 * Never more: two cells of a side are never pooled. */
static bool is_loose_axis(const char *name)
{
        return !strcmp(name, "count") || !strcmp(name, "duration_ns") || !strcmp(name, "machine");
}

/* Which axes of samples_axis_columns are loose for tables A and B (above):
 * a new array. */
static bool *loose_axes(const Table *a, const Table *b)
{
        guint n_axis = g_strv_length((char **) samples_axis_columns);
        bool *loose = g_new0(bool, n_axis);

        for (guint i = 0; i < n_axis; i++) {
                int ca = table_column(a, samples_axis_columns[i]), cb = table_column(b, samples_axis_columns[i]);
                loose[i] = is_loose_axis(samples_axis_columns[i]);
                if (loose[i] || ca < 0 || cb < 0 || !a->rows->len || !b->rows->len)
                        continue;
                g_autoptr(GHashTable) va = g_hash_table_new(g_str_hash, g_str_equal);
                for (guint r = 0; r < a->rows->len; r++)
                        g_hash_table_add(va, ((char **) a->rows->pdata[r])[ca]);
                bool common = false;
                for (guint r = 0; r < b->rows->len && !common; r++)
                        common = g_hash_table_contains(va, ((char **) b->rows->pdata[r])[cb]);
                loose[i] = !common;
        }
        return loose;
}

char *compare_header(void)
{
        GString *h = g_string_new("experiment");

        for (guint i = 0; samples_axis_columns[i]; i++)
                g_string_append_printf(h, "\t%s", samples_axis_columns[i]);
        g_string_append(h, "\tn_committed\tn_reproduced\tcommitted_ns_per_msg\treproduced_ns_per_msg"
                           "\tratio\tratio_lo\tratio_hi\tcoverage\tfail_lo\tfail_hi\tfail_coverage\tchange\n");
        return g_string_free(h, FALSE);
}

typedef struct CompareCell {
        char *loose;        /* the values of the axes that must agree, tab-separated */
        char **axes;        /* every axis's value, in samples_axis_columns order */
        int side;           /* 0 committed, 1 reproduced */
        GArray *values;     /* ns per message of each ok repetition */
        struct CompareCell *partner;
} CompareCell;

static void compare_cell_free(CompareCell *c)
{
        g_free(c->loose);
        g_strfreev(c->axes);
        g_array_unref(c->values);
        g_free(c);
}

/* Adds T's cells (by every axis, in first-seen order) to ORDER on SIDE;
 * LOOSE: the axes a cell may be paired across (loose_axes). */
static bool collect(const Table *t, int side, const bool *is_loose, GPtrArray *order, GError **error)
{
        g_autoptr(GHashTable) cells = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        guint n_axis = g_strv_length((char **) samples_axis_columns);
        g_autofree int *axis = g_new(int, n_axis + 1);
        int status = table_column(t, "status"), elapsed = table_column(t, "elapsed_ns"),
            messages = table_column(t, "messages");

        if (status < 0 || elapsed < 0 || messages < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "compare: a samples.tsv without status, elapsed_ns or messages");
                return false;
        }
        for (guint i = 0; i < n_axis; i++) {
                axis[i] = table_column(t, samples_axis_columns[i]);
                if (axis[i] < 0) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "compare: a samples.tsv without the column %s", samples_axis_columns[i]);
                        return false;
                }
        }
        for (guint r = 0; r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                g_autoptr(GString) key = g_string_new(NULL), loose = g_string_new(NULL);
                for (guint a = 0; a < n_axis; a++) {
                        g_string_append_printf(key, "%s%s", a ? "\t" : "", row[axis[a]]);
                        if (!is_loose[a])
                                g_string_append_printf(loose, "%s\t", row[axis[a]]);
                }
                CompareCell *c = g_hash_table_lookup(cells, key->str);
                if (!c) {
                        c = g_new0(CompareCell, 1);
                        c->loose = g_strdup(loose->str);
                        c->axes = g_new0(char *, n_axis + 1);
                        for (guint a = 0; a < n_axis; a++)
                                c->axes[a] = g_strdup(row[axis[a]]);
                        c->side = side;
                        c->values = g_array_new(FALSE, FALSE, sizeof(double));
                        g_hash_table_insert(cells, g_strdup(key->str), c);
                        g_ptr_array_add(order, c);
                }
                double ns = g_ascii_strtod(row[elapsed], NULL), n = g_ascii_strtod(row[messages], NULL);
                if (strcmp(row[status], "ok") || !(ns > 0) || !(n > 0))
                        continue;
                double v = ns / n;
                g_array_append_val(c->values, v);
        }
        return true;
}

static bool same_axes(const CompareCell *a, const CompareCell *b)
{
        for (guint i = 0; a->axes[i]; i++)
                if (strcmp(a->axes[i], b->axes[i]))
                        return false;
        return true;
}

/* Pairs the cells of ORDER (committed ones first): every axis equal, else
 * the one left on each side of a loose group (loose_axes). */
static void pair_cells(GPtrArray *order)
{
        for (guint i = 0; i < order->len; i++) {
                CompareCell *a = order->pdata[i];
                for (guint k = 0; a->side == 0 && !a->partner && k < order->len; k++) {
                        CompareCell *b = order->pdata[k];
                        if (b->side == 1 && !b->partner && same_axes(a, b)) {
                                a->partner = b;
                                b->partner = a;
                        }
                }
        }
        for (guint i = 0; i < order->len; i++) {
                CompareCell *a = order->pdata[i], *only[2] = { NULL, NULL };
                guint n[2] = { 0, 0 };
                if (a->partner || a->side != 0)
                        continue;
                for (guint k = 0; k < order->len; k++) {
                        CompareCell *b = order->pdata[k];
                        if (!b->partner && !strcmp(a->loose, b->loose)) {
                                n[b->side]++;
                                only[b->side] = b;
                        }
                }
                if (n[0] == 1 && n[1] == 1) {
                        only[0]->partner = only[1];
                        only[1]->partner = only[0];
                }
        }
}

static double median_of(GArray *values)
{
        g_autofree double *v = g_memdup2(values->data, values->len * sizeof(double));

        stats_sort_double(v, values->len);
        return stats_median(v, values->len);
}

/* "transport=pipe size_B=64 cpus=same": the axes of C that apply, for a
 * message. */
static char *cell_text(const CompareCell *c)
{
        GString *s = g_string_new(NULL);

        for (guint a = 0; c->axes[a]; a++)
                if (strcmp(c->axes[a], "-"))
                        g_string_append_printf(s, "%s%s=%s", s->len ? " " : "", samples_axis_columns[a], c->axes[a]);
        return g_string_free(s, FALSE);
}

const char *compare_change_name(CompareChange c)
{
        static const char *const names[] = {
                [COMPARE_UNDECIDED] = "-", [COMPARE_SLOWER] = "slower", [COMPARE_FASTER] = "faster",
                [COMPARE_WITHIN] = "within",
        };
        return names[c];
}

/* What PAIR (reproduced over committed, per message, at the levels of
 * verify.h) says against a threshold of T: beyond 1 + T or below
 * 1 / (1 + T) at the fails level, or wholly within them there (T > 0);
 * an interval that cannot reach its level says nothing. */
static CompareChange change_of(const VerifyPair *pair, double level_fails, double t)
{
        if (!verify_reaches(pair->fail_coverage, level_fails))
                return COMPARE_UNDECIDED;
        if (pair->fail_lo > 1 + t)
                return COMPARE_SLOWER;
        if (verify_verdict(pair->fail_lo, pair->fail_hi, 1 / (1 + t)) == VERIFY_FAILS)
                return COMPARE_FASTER;
        if (t > 0 && pair->fail_lo >= 1 / (1 + t) && pair->fail_hi <= 1 + t)
                return COMPARE_WITHIN;
        return COMPARE_UNDECIDED;
}

bool compare_cells(const char *name, const Table *committed, const Table *reproduced, CompareTally *tally,
                   GString *out, GError **error)
{
        g_autoptr(GPtrArray) order = g_ptr_array_new_with_free_func((GDestroyNotify) compare_cell_free);
        double t = tally && tally->fail_above > 0 ? tally->fail_above : 0;

        g_autofree bool *loose = loose_axes(committed, reproduced);

        if (!collect(committed, 0, loose, order, error) || !collect(reproduced, 1, loose, order, error))
                return false;
        pair_cells(order);
        /* K: the cells compared, for the fails level (verify.h). */
        guint k = 0;
        for (guint i = 0; i < order->len; i++) {
                CompareCell *c = order->pdata[i];
                k += c->side == 0 && c->partner && c->values->len && c->partner->values->len;
        }
        double level_fails = 1 - VERIFY_ALPHA / MAX(k, 1);
        for (guint i = 0; i < order->len; i++) {
                CompareCell *c = order->pdata[i], *p = c->partner;
                if (c->side == 1 && p)
                        continue;   /* written with its committed cell */
                CompareCell *side[2] = { c->side == 0 ? c : p, c->side == 1 ? c : p };
                g_string_append(out, name);
                for (guint a = 0; c->axes[a]; a++) {
                        const char *x = side[0] ? side[0]->axes[a] : NULL, *y = side[1] ? side[1]->axes[a] : NULL;
                        if (x && y && strcmp(x, y))
                                g_string_append_printf(out, "\t%s/%s", x, y);   /* a loose axis that differs */
                        else
                                g_string_append_printf(out, "\t%s", x ? x : y);
                }
                GArray *a = side[0] ? side[0]->values : NULL, *b = side[1] ? side[1]->values : NULL;
                g_string_append_printf(out, "\t%u\t%u", a ? a->len : 0, b ? b->len : 0);
                if (a && a->len)
                        g_string_append_printf(out, "\t%.6g", median_of(a));
                else
                        g_string_append(out, "\t-");
                if (b && b->len)
                        g_string_append_printf(out, "\t%.6g", median_of(b));
                else
                        g_string_append(out, "\t-");
                VerifyPair pair = { 0 };
                if (a && b && a->len && b->len &&
                    verify_pair_intervals((double *) b->data, b->len, (double *) a->data, a->len, VERIFY_LEVEL,
                                          level_fails, &pair) == 0) {
                        CompareChange ch = change_of(&pair, level_fails, t);
                        g_string_append_printf(out, "\t%.6g\t%.6g\t%.6g\t%.4f\t%.6g\t%.6g\t%.4f\t%s\n", pair.ratio,
                                               pair.lo, pair.hi, pair.coverage, pair.fail_lo, pair.fail_hi,
                                               pair.fail_coverage, compare_change_name(ch));
                        if (tally) {
                                tally->cells++;
                                tally->changes[ch]++;
                                if (ch == COMPARE_SLOWER && t > 0) {
                                        g_autofree char *what = cell_text(side[1]);
                                        g_autofree char *iv = verify_format_interval(pair.ratio, pair.fail_lo,
                                                                                     pair.fail_hi);
                                        g_autofree char *cov = verify_format_coverage(pair.fail_coverage, false);
                                        g_ptr_array_add(tally->regressions,
                                                        g_strdup_printf("%s: %s: %s %s times the time per message",
                                                                        name, what, iv, cov));
                                }
                        }
                } else {
                        g_string_append(out, "\t-\t-\t-\t-\t-\t-\t-\t-\n");
                }
        }
        return true;
}

/* What the table shows, in order: group, key, label.  A machine group
 * named [machine NAME] (several machines) is read as [machine]. */
static const struct {
        const char *group, *key, *label;
} machine_rows[] = {
        { "machine", "cpu_model", "CPU" },
        { "machine", "cpus_online", "CPUs online" },
        { "machine", "smt", "SMT" },
        { "machine", "governor", "frequency governor" },
        { "machine", "boost", "boost" },
        { "machine", "clocksource", "clock source" },
        { "machine", "hypervisor", "hypervisor" },
        { "machine", "container", "container" },
        { "machine", "kernel", "kernel" },
        { "machine", "page_table_isolation", "page-table isolation" },
        { "machine", "pcid", "PCID" },
        { "machine", "cpu_mitigations", "CPU mitigations" },
        { "machine", "memory_bytes", "memory" },
        { "software", "glib", "GLib" },
        { "software", "libdbus", "libdbus" },
        { "software", "libsystemd", "libsystemd" },
        { "software", "dbus_daemon", "dbus-daemon" },
        { "software", "dbus_broker", "dbus-broker" },
        { "software", "compiler", "compiler" },
        { "software", "cflags", "compiler flags" },
        { "software", "ipclab_commit", "ipclab commit" },
        { "run", "env", "environment" },
        { "experiment", "profile", "profile" },
        { "run", "started", "started (UTC)" },
        { "run", "load_start", "load average at start" },
        { "run", "load_end", "load average at end" },
};

/* The raw value of GROUP.KEY in KF, or NULL; [machine NAME] stands in for
 * a missing [machine]. */
static char *meta_raw(GKeyFile *kf, const char *group, const char *key)
{
        char *v = g_key_file_get_value(kf, group, key, NULL);

        if (!v && !strcmp(group, "machine")) {
                g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);
                for (guint i = 0; groups[i] && !v; i++)
                        if (g_str_has_prefix(groups[i], "machine "))
                                v = g_key_file_get_value(kf, groups[i], key, NULL);
        }
        return v;
}

/* compare.h */
bool compare_same_machine(GKeyFile *a, GKeyFile *b)
{
        for (guint i = 0; i < G_N_ELEMENTS(machine_rows); i++) {
                if (strcmp(machine_rows[i].group, "machine"))
                        continue;
                g_autofree char *x = meta_raw(a, "machine", machine_rows[i].key);
                g_autofree char *y = meta_raw(b, "machine", machine_rows[i].key);
                if (x && y && strcmp(x, y))
                        return false;
        }
        return true;
}

/* Page-table isolation in data written before meta.ini recorded it: what
 * the kernel command line forced (pti=on; pti=off or nopti), or that it
 * forced nothing (the kernel chose by the CPU). */
static char *pti_from_cmdline(GKeyFile *kf)
{
        g_autofree char *cmdline = meta_raw(kf, "machine", "kernel_cmdline");
        g_auto(GStrv) words = g_strsplit(cmdline ? cmdline : "", " ", -1);
        const char *forced = NULL, *word = NULL;

        /* The last word wins, as in the kernel; "--" ends its options. */
        for (guint i = 0; words[i] && strcmp(words[i], "--"); i++)
                if (!strcmp(words[i], "pti=on"))
                        forced = "on", word = words[i];
                else if (!strcmp(words[i], "pti=off") || !strcmp(words[i], "nopti"))
                        forced = "off", word = words[i];
        return forced ? g_strdup_printf("%s (%s on the kernel command line; not recorded)", forced, word)
                      : g_strdup("not recorded (no pti= on the kernel command line)");
}

char *compare_machine_fact(GKeyFile *kf, const char *group, const char *key)
{
        char *v = meta_raw(kf, group, key);

        if (!v && !strcmp(key, "page_table_isolation"))
                v = pti_from_cmdline(kf);
        return v ? v : g_strdup("--");
}

/* VALUE of KEY as a reader reads it, in LaTeX: a load average to two
 * decimals (meta.ini keeps every digit), memory in GiB, a commit by its
 * first 12 hex digits, a time to the minute; the rest escaped.  What
 * differs is judged on these. */
static char *machine_value_tex(const char *key, const char *value)
{
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        char *end;
        double v = g_ascii_strtod(value, &end);
        bool numeric = end != value && !*end;

        if (numeric && g_str_has_prefix(key, "load_"))
                return g_strdup(g_ascii_formatd(buf, sizeof buf, "%.2f", v));
        if (numeric && !strcmp(key, "memory_bytes"))
                return g_strdup_printf("%s~GiB", g_ascii_formatd(buf, sizeof buf, "%.1f", v / 1073741824.0));
        if (!strcmp(key, "ipclab_commit") && strlen(value) > 12 && strspn(value, "0123456789abcdef") >= 12)
                return g_strndup(value, 12);
        if (!strcmp(key, "started") && strlen(value) >= 16 && value[10] == 'T') {
                g_autofree char *t = g_strdup_printf("%.10s %.5s UTC", value, value + 11);
                return render_latex_escape(t);
        }
        return render_latex_escape(value);
}

bool compare_machines(const char *committed, const char *reproduced, GString *out, GError **error)
{
        g_autoptr(GKeyFile) kf0 = safefile_key_file(committed, error);
        g_autoptr(GKeyFile) kf1 = kf0 ? safefile_key_file(reproduced, error) : NULL;
        GKeyFile *kf[2] = { kf0, kf1 };

        if (!kf1) {
                g_prefix_error(error, "compare: ");
                return false;
        }
        g_string_append(out, "\\begin{tabular}{@{}l>{\\raggedright\\arraybackslash}p{0.36\\linewidth}"
                             ">{\\raggedright\\arraybackslash}p{0.36\\linewidth}@{}}\n\\toprule\n"
                             " & committed data & reproduction \\\\\n\\midrule\n");
        for (size_t i = 0; i < G_N_ELEMENTS(machine_rows); i++) {
                g_autofree char *a = compare_machine_fact(kf[0], machine_rows[i].group, machine_rows[i].key);
                g_autofree char *b = compare_machine_fact(kf[1], machine_rows[i].group, machine_rows[i].key);
                g_autofree char *ea = machine_value_tex(machine_rows[i].key, a);
                g_autofree char *eb = machine_value_tex(machine_rows[i].key, b);
                /* Bold where the values differ as printed. */
                bool differ = strcmp(ea, eb) != 0;
                g_string_append_printf(out, "%s & %s%s%s & %s%s%s \\\\\n", machine_rows[i].label,
                                       differ ? "\\textbf{" : "", ea, differ ? "}" : "",
                                       differ ? "\\textbf{" : "", eb, differ ? "}" : "");
        }
        g_string_append(out, "\\bottomrule\n\\end{tabular}\n");
        return true;
}
