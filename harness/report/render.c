/* render.c: `ipclab plot`, `ipclab table` and `ipclab section` (render.h).
 *
 * The figure and table an experiment declares (figure.h) are drawn from a
 * summary (`ipclab summarize`), read by column name: the rows its where=
 * keeps, grouped into series by the series axes, ordered as the file lists
 * the values.  Labels and units come from the column schema (columns.h).
 *
 * This file holds the helpers every output shares (render-internal.h);
 * a figure is gathered in render-plot.c and written in render-gnuplot.c,
 * a table in render-table.c, a section in render-section.c.
 */
#include "render.h"
#include "render-internal.h"

#include <math.h>
#include <string.h>

#include "columns.h"
#include "experiment.h"
#include "figure.h"
#include "meta.h"
#include "samples.h"
#include "select.h"
#include "stats.h"
#include "style.h"
#include "verify.h"

/* ---- shared -------------------------------------------------------------- */

char *render_where_at(const Experiment *exp, const Output *o)
{
        return o->line ? g_strdup_printf("%s:%u", exp->path, o->line) : g_strdup(exp->path);
}

double render_number(const char *s)
{
        double v;

        return s && samples_parse_number(s, &v) ? v : NAN;
}

Experiment *render_load_output(const char *file, const char *name, bool table, const Output **out,
                               GError **error)
{
        g_autoptr(Experiment) exp = experiment_load_anywhere(file, error);

        if (!exp)
                return NULL;
        for (guint i = 0; i < exp->outputs->len; i++) {
                const Output *o = exp->outputs->pdata[i];
                if (o->is_table == table && !strcmp(o->name, name)) {
                        *out = o;
                        return g_steal_pointer(&exp);
                }
        }
        GString *have = g_string_new(NULL);
        for (guint i = 0; i < exp->outputs->len; i++) {
                const Output *o = exp->outputs->pdata[i];
                if (o->is_table == table)
                        g_string_append_printf(have, "%s%s", have->len ? ", " : "", o->name);
        }
        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: no [%s %s] (it has: %s)", file,
                    table ? "table" : "figure", name, have->len ? have->str : "none");
        g_string_free(have, TRUE);
        return NULL;
}

int render_need_column(const Table *t, const char *path, const char *name, GError **error)
{
        int c = select_key_column(t, name);

        if (c < 0)
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: no column %s", path, name);
        return c;
}

/* The distinct values of AXIS among EXP's cells ("-" left out), in the
 * order the file lists them (the cells' index order); numbers ascending. */
static GPtrArray *axis_order(const Experiment *exp, const char *axis)
{
        g_autofree const Cell **by_index = g_new0(const Cell *, exp->cells->len);
        GPtrArray *vals = g_ptr_array_new_with_free_func(g_free);

        for (guint j = 0; j < exp->cells->len; j++) {
                const Cell *cell = exp->cells->pdata[j];
                if (cell->index < exp->cells->len)
                        by_index[cell->index] = cell;
        }
        for (guint i = 0; i < exp->cells->len; i++) {
                g_autofree char *v = by_index[i] ? select_cell_value(by_index[i], axis) : NULL;
                bool seen = !v || !strcmp(v, "-");
                for (guint k = 0; k < vals->len && !seen; k++)
                        seen = !strcmp(vals->pdata[k], v);
                if (!seen)
                        g_ptr_array_add(vals, g_steal_pointer(&v));
        }
        for (guint i = 0; i < vals->len; i++)
                for (guint j = i + 1; j < vals->len; j++)
                        if (render_number(vals->pdata[j]) < render_number(vals->pdata[i])) {
                                gpointer tmp = vals->pdata[i];
                                vals->pdata[i] = vals->pdata[j];
                                vals->pdata[j] = tmp;
                        }
        return vals;
}

double render_axis_rank(const Experiment *exp, const char *axis, const char *value)
{
        double v = render_number(value);

        if (!isnan(v))
                return v;
        if (!strcmp(value, "-"))
                return -1;
        if (!strcmp(axis, "env"))
                return !strcmp(value, "host") ? 0 : !strcmp(value, "nspawn") ? 1 : 2;
        g_autoptr(GPtrArray) order = axis_order(exp, axis);
        for (guint i = 0; i < order->len; i++)
                if (!strcmp(order->pdata[i], value))
                        return i;
        return 1e12;
}

const char *render_label_kind(const Column *c, const char *pattern)
{
        if (!c || !pattern || !g_str_has_prefix(c->label, "latency"))
                return "";
        return !strcmp(pattern, "roundtrip") ? "round-trip " : !strcmp(pattern, "oneway") ? "one-way " : "";
}

char *render_column_label_of(const char *name, bool time_tics, const char *pattern)
{
        const Column *c = column_find(name);
        if (!c)
                c = column_find_key(name);
        if (!c)
                return g_strdup(name);
        const char *kind = render_label_kind(c, pattern);
        if (!c->unit[0] || (time_tics && !strcmp(c->unit, "ns")) || c->kind == COLUMN_AXIS)
                return g_strconcat(kind, c->label, NULL);
        return g_strdup_printf("%s%s (%s)", kind, c->label, c->unit);
}

char *render_column_label(const char *name, bool time_tics)
{
        return render_column_label_of(name, time_tics, NULL);
}

/* The quantile a percentile column holds (lat_p99_ns: 0.99), else NAN;
 * *POOLED: of every message of the cell, not of one repetition. */
static double column_quantile(const char *name, bool *pooled)
{
        static const struct { const char *suffix; double q; } qs[] = {
                { "_p50_ns", 0.5 }, { "_p90_ns", 0.9 }, { "_p99_ns", 0.99 }, { "_p999_ns", 0.999 },
        };

        *pooled = g_str_has_prefix(name, "pooled_");
        if (!*pooled && !g_str_has_prefix(name, "lat_"))
                return NAN;
        for (size_t i = 0; i < G_N_ELEMENTS(qs); i++)
                if (g_str_has_suffix(name, qs[i].suffix))
                        return qs[i].q;
        return NAN;
}

bool render_percentile_supported(const Table *t, char **row, const char *name)
{
        bool pooled;
        double q = column_quantile(name, &pooled);
        int mc = table_column(t, "messages"), nc = table_column(t, "n");
        double m = mc >= 0 ? render_number(row[mc]) : NAN, n = nc >= 0 ? render_number(row[nc]) : NAN;

        if (isnan(q) || isnan(m))
                return true;
        return stats_quantile_supported(pooled && !isnan(n) ? m * n : m, q);
}

char *render_interval_text(guint n_min, guint n_max)
{
        if (!n_max)
                return g_strdup("");
        double lo, hi;
        g_autofree double *v = g_new0(double, MAX(n_max, 1));
        double c_min = stats_median_ci(v, n_min, 0.95, &lo, &hi);
        double c_max = stats_median_ci(v, n_max, 0.95, &lo, &hi);
        /* Coverages as the claims print them: rounded down, never more
         * than they are. */
        g_autofree char *t_min = verify_format_coverage(c_min, false);
        g_autofree char *t_max = verify_format_coverage(c_max, false);
        if (c_min >= 0.95)
                return g_strdup("error bars: the 95 % interval of the median");
        if (n_min == n_max)
                return n_min == 1 ? g_strdup("one repetition: no interval")
                                  : g_strdup_printf("error bars: the range of the %u repetitions, a %s interval "
                                                    "of the median", n_min, t_min);
        if (c_max < 0.95)
                return g_strdup_printf("error bars: the range of the repetitions (%u to %u), a %s to %s "
                                       "interval of the median", n_min, n_max, t_min, t_max);
        return g_strdup_printf("error bars: the 95 %% interval of the median where a cell has 6 repetitions or more, "
                               "else the range of its repetitions (at %u, a %s interval)", n_min, t_min);
}
