/* compare.c: the committed data and a reproduction, cell by cell and
 * machine by machine (compare.h).  Never prints. */
#include <string.h>

#include "compare.h"
#include "experiment.h"
#include "render.h"
#include "safefile.h"
#include "stats.h"

#define COMPARE_LEVEL 0.95

/* The axes a cell is matched on: every axis but count and duration_ns
 * (a profile changes how much is measured, not what) and machine (a
 * reproduction runs elsewhere by design). */
static bool is_matched_axis(const char *name)
{
        return strcmp(name, "count") && strcmp(name, "duration_ns") && strcmp(name, "machine");
}

char *compare_header(void)
{
        GString *h = g_string_new("experiment");

        for (guint i = 0; samples_axis_columns[i]; i++)
                if (is_matched_axis(samples_axis_columns[i]))
                        g_string_append_printf(h, "\t%s", samples_axis_columns[i]);
        g_string_append(h, "\tn_committed\tn_reproduced\tcommitted_ns_per_msg\treproduced_ns_per_msg"
                           "\tratio\tratio_lo\tratio_hi\tcoverage\n");
        return g_string_free(h, FALSE);
}

typedef struct {
        char *key;          /* the matched axes' values, tab-separated */
        GArray *values[2];  /* ns per message of each ok repetition: committed, reproduced */
} CompareCell;

static void compare_cell_free(CompareCell *c)
{
        g_free(c->key);
        for (int s = 0; s < 2; s++)
                g_array_unref(c->values[s]);
        g_free(c);
}

/* Adds T's rows to CELLS (by key, in first-seen order ORDER) on SIDE. */
static bool collect(const Table *t, int side, GHashTable *cells, GPtrArray *order, GError **error)
{
        int axis[16], n_axis = 0;
        int status = table_column(t, "status"), elapsed = table_column(t, "elapsed_ns"),
            messages = table_column(t, "messages");

        if (status < 0 || elapsed < 0 || messages < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "compare: a samples.tsv without status, elapsed_ns or messages");
                return false;
        }
        for (guint i = 0; samples_axis_columns[i]; i++) {
                if (!is_matched_axis(samples_axis_columns[i]))
                        continue;
                axis[n_axis] = table_column(t, samples_axis_columns[i]);
                if (axis[n_axis] < 0) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "compare: a samples.tsv without the column %s", samples_axis_columns[i]);
                        return false;
                }
                n_axis++;
        }
        for (guint r = 0; r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                g_autoptr(GString) key = g_string_new(NULL);
                for (int a = 0; a < n_axis; a++)
                        g_string_append_printf(key, "%s%s", a ? "\t" : "", row[axis[a]]);
                CompareCell *c = g_hash_table_lookup(cells, key->str);
                if (!c) {
                        c = g_new0(CompareCell, 1);
                        c->key = g_strdup(key->str);
                        for (int s = 0; s < 2; s++)
                                c->values[s] = g_array_new(FALSE, FALSE, sizeof(double));
                        g_hash_table_insert(cells, c->key, c);
                        g_ptr_array_add(order, c);
                }
                double ns = g_ascii_strtod(row[elapsed], NULL), n = g_ascii_strtod(row[messages], NULL);
                if (strcmp(row[status], "ok") || !(ns > 0) || !(n > 0))
                        continue;
                double v = ns / n;
                g_array_append_val(c->values[side], v);
        }
        return true;
}

static double median_of(GArray *values)
{
        g_autofree double *v = g_memdup2(values->data, values->len * sizeof(double));

        stats_sort_double(v, values->len);
        return stats_median(v, values->len);
}

bool compare_cells(const char *name, const Table *committed, const Table *reproduced, GString *out,
                   GError **error)
{
        g_autoptr(GHashTable) cells = g_hash_table_new(g_str_hash, g_str_equal);
        g_autoptr(GPtrArray) order = g_ptr_array_new_with_free_func((GDestroyNotify) compare_cell_free);

        if (!collect(committed, 0, cells, order, error) || !collect(reproduced, 1, cells, order, error))
                return false;
        for (guint i = 0; i < order->len; i++) {
                CompareCell *c = order->pdata[i];
                GArray *a = c->values[0], *b = c->values[1];
                g_string_append_printf(out, "%s\t%s\t%u\t%u", name, c->key, a->len, b->len);
                if (a->len)
                        g_string_append_printf(out, "\t%.6g", median_of(a));
                else
                        g_string_append(out, "\t-");
                if (b->len)
                        g_string_append_printf(out, "\t%.6g", median_of(b));
                else
                        g_string_append(out, "\t-");
                double ratio, lo, hi, coverage;
                if (a->len && b->len &&
                    stats_ratio_ci((double *) b->data, b->len, (double *) a->data, a->len, COMPARE_LEVEL,
                                   &ratio, &lo, &hi, &coverage) == 0)
                        g_string_append_printf(out, "\t%.6g\t%.6g\t%.6g\t%.4f\n", ratio, lo, hi, coverage);
                else
                        g_string_append(out, "\t-\t-\t-\t-\n");
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
        { "machine", "memory_bytes", "memory (bytes)" },
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

/* The value of GROUP.KEY in KF, or "--"; [machine NAME] stands in for a
 * missing [machine]. */
static char *meta_value(GKeyFile *kf, const char *group, const char *key)
{
        char *v = g_key_file_get_value(kf, group, key, NULL);

        if (!v && !strcmp(group, "machine")) {
                g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);
                for (guint i = 0; groups[i] && !v; i++)
                        if (g_str_has_prefix(groups[i], "machine "))
                                v = g_key_file_get_value(kf, groups[i], key, NULL);
        }
        return v ? v : g_strdup("--");
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
                g_autofree char *a = meta_value(kf[0], machine_rows[i].group, machine_rows[i].key);
                g_autofree char *b = meta_value(kf[1], machine_rows[i].group, machine_rows[i].key);
                g_autofree char *ea = render_latex_escape(a), *eb = render_latex_escape(b);
                g_string_append_printf(out, "%s & %s%s%s & %s%s%s \\\\\n", machine_rows[i].label,
                                       strcmp(a, b) ? "\\textbf{" : "", ea, strcmp(a, b) ? "}" : "",
                                       strcmp(a, b) ? "\\textbf{" : "", eb, strcmp(a, b) ? "}" : "");
        }
        g_string_append(out, "\\bottomrule\n\\end{tabular}\n");
        return true;
}
