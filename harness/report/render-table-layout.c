/* render-table-layout.c: the layout of a [table NAME] group's tabular
 * (render-table-layout.h): which rows, which columns, in which units.
 */
#include "render-table-layout.h"

#include <math.h>
#include <string.h>

#include "columns.h"
#include "render.h"
#include "stats.h"

double render_unit_factor(const char *unit, const char **latex)
{
        static const struct { const char *unit; double factor; const char *latex; } units[] = {
                { "ns", 1, "ns" }, { "us", 1e-3, "\\ensuremath{\\mu}s" }, { "ms", 1e-6, "ms" }, { "s", 1e-9, "s" },
                { "KiB/s", 1024, "KiB/s" }, { "MiB/s", 1, "MiB/s" }, { "GiB/s", 1.0 / 1024, "GiB/s" },
                { "1/s", 1, "1/s" }, { "k/s", 1e-3, "k/s" }, { "M/s", 1e-6, "M/s" },
        };

        for (size_t i = 0; unit && i < G_N_ELEMENTS(units); i++)
                if (!strcmp(units[i].unit, unit)) {
                        *latex = units[i].latex;
                        return units[i].factor;
                }
        *latex = NULL;
        return 1;
}

/* NUM/DEN pairs in LIST whose NUM is VALUE: DEN into *DEN. */
static bool ratio_after(char **list, const char *value, char **den)
{
        for (guint i = 0; list && list[i]; i++) {
                g_auto(GStrv) nd = g_strsplit(list[i], "/", 2);
                if (nd[0] && nd[1] && !strcmp(g_strstrip(nd[0]), value)) {
                        *den = g_strdup(g_strstrip(nd[1]));
                        return true;
                }
        }
        return false;
}

double render_table_value(const Output *o, char **row, const char *value, int vc, int mc)
{
        double v = render_number(row[vc]);

        if (render_in_list(o->per_message, value))
                v = mc >= 0 ? v / render_number(row[mc]) : NAN;
        return v;
}

const char *render_table_unit(const Output *o, guint i, const Table *t, const Selector *sel)
{
        char **values = o->columns_axis ? o->values : o->columns;
        guint nunits = o->units ? g_strv_length(o->units) : 0;
        const char *given = nunits > 1 ? o->units[i] : o->unit;
        const Column *c = column_find(values[i]);
        int vc = table_column(t, values[i]), mc = table_column(t, "messages");

        if (given || !c || strcmp(c->unit, "ns") || vc < 0)
                return given;
        g_autoptr(GArray) v = g_array_new(FALSE, FALSE, sizeof(double));
        for (guint r = 0; r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                double x = sel && !select_row(sel, t, row) ? NAN : render_table_value(o, row, values[i], vc, mc);
                if (x > 0)
                        g_array_append_val(v, x);
        }
        if (!v->len)
                return NULL;
        stats_sort_double((double *) v->data, v->len);
        double median = g_array_index(v, double, v->len / 2);
        return median >= 1e9 ? "s" : median >= 1e6 ? "ms" : median >= 1e3 ? "us" : "ns";
}

/* The values down (row keys: the first row of each) and across (the
 * columns axis's), in the summary's order. */
static bool layout_keys(TableLayout *l, GError **error)
{
        const Output *o = l->o;
        const Table *t = l->t;

        l->sel = select_parse(o->where, SELECT_AXES, error);
        if (!l->sel)
                return false;
        l->nr = g_strv_length(o->rows);
        l->rc = g_new(int, l->nr + 1);
        for (guint i = 0; i < l->nr; i++)
                if ((l->rc[i] = render_need_column(t, l->path, o->rows[i], error)) < 0)
                        return false;
        l->cc = o->columns_axis ? render_need_column(t, l->path, o->columns_axis, error) : -1;
        if (o->columns_axis && l->cc < 0)
                return false;
        l->keys = g_ptr_array_new();
        l->across = g_ptr_array_new();
        for (guint r = 0; r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                if (!select_row(l->sel, t, row))
                        continue;
                bool seen = false;
                for (guint k = 0; k < l->keys->len && !seen; k++) {
                        char **other = l->keys->pdata[k];
                        bool same = true;
                        for (guint i = 0; i < l->nr; i++)
                                same &= !strcmp(other[l->rc[i]], row[l->rc[i]]);
                        seen = same;
                }
                if (!seen)
                        g_ptr_array_add(l->keys, row);
                if (l->cc >= 0) {
                        bool have = false;
                        for (guint i = 0; i < l->across->len; i++)
                                have |= !strcmp(l->across->pdata[i], row[l->cc]);
                        if (!have)
                                g_ptr_array_add(l->across, row[l->cc]);
                }
        }
        return true;
}

/* Sorts the keys and the values across by the experiment file's order,
 * and finds the pattern every row shares, for the latency columns'
 * heads. */
static void layout_order(TableLayout *l)
{
        const Output *o = l->o;
        GPtrArray *keys = l->keys, *across = l->across;

        for (guint i = 0; i < keys->len; i++)
                for (guint j = i + 1; j < keys->len; j++) {
                        char **a = keys->pdata[i], **b = keys->pdata[j];
                        int d = 0;
                        for (guint k = 0; k < l->nr && !d; k++) {
                                double ra = render_axis_rank(l->exp, o->rows[k], a[l->rc[k]]);
                                double rb = render_axis_rank(l->exp, o->rows[k], b[l->rc[k]]);
                                d = ra < rb ? -1 : ra > rb;
                        }
                        if (d > 0) {
                                keys->pdata[i] = b;
                                keys->pdata[j] = a;
                        }
                }
        for (guint i = 0; i < across->len; i++)
                for (guint j = i + 1; j < across->len; j++)
                        if (render_axis_rank(l->exp, o->columns_axis, across->pdata[j]) <
                            render_axis_rank(l->exp, o->columns_axis, across->pdata[i])) {
                                gpointer tmp = across->pdata[i];
                                across->pdata[i] = across->pdata[j];
                                across->pdata[j] = tmp;
                        }
        int pcol = table_column(l->t, "pattern");
        l->pattern = NULL;
        for (guint i = 0; pcol >= 0 && i < keys->len; i++) {
                const char *v = ((char **) keys->pdata[i])[pcol];
                if (!i)
                        l->pattern = v;
                else if (l->pattern && strcmp(l->pattern, v))
                        l->pattern = NULL;
        }
}

/* Our value columns: each one's summary column, unit and interval. */
static bool layout_values(TableLayout *l, GError **error)
{
        const Output *o = l->o;
        const Table *t = l->t;

        l->values = o->columns_axis ? o->values : o->columns;
        l->nvals = g_strv_length(l->values);
        l->vc = g_new(int, l->nvals + 1);
        l->loc = g_new(int, l->nvals + 1);
        l->hic = g_new(int, l->nvals + 1);
        l->factor = g_new(double, l->nvals + 1);
        l->vunit = g_new0(const char *, l->nvals + 1);
        l->mc = o->per_message ? render_need_column(t, l->path, "messages", error) : -1;
        if (o->per_message && l->mc < 0)
                return false;
        for (guint i = 0; i < l->nvals; i++) {
                if ((l->vc[i] = render_need_column(t, l->path, l->values[i], error)) < 0)
                        return false;
                g_autofree char *lo = g_strconcat(l->values[i], "_lo", NULL);
                g_autofree char *hi = g_strconcat(l->values[i], "_hi", NULL);
                l->loc[i] = o->intervals ? table_column(t, lo) : -1;
                l->hic[i] = o->intervals ? table_column(t, hi) : -1;
                l->vunit[i] = render_table_unit(o, i, t, l->sel);
                const char *ul;
                l->factor[i] = render_unit_factor(l->vunit[i], &ul);
        }
        return true;
}

/* The published file (published=): its rows matched to ours
 * (published_rows=), its value columns, its label and its series. */
static bool layout_published(TableLayout *l, const RenderInputs *in, GError **error)
{
        const Output *o = l->o;
        g_autofree char *pp = g_build_filename(in->published, o->published, NULL);

        l->pub = table_read(pp, error);
        l->psel = l->pub ? select_parse(o->published_where, SELECT_COLUMNS, error) : NULL;
        if (!l->psel || !select_check_table(l->psel, l->pub, pp, error))
                return false;
        guint n = o->published_rows ? g_strv_length(o->published_rows) : 0;
        l->prc = g_new(int, n + 1);
        l->prow = g_new(int, n + 1);
        for (guint i = 0; i < n; i++) {
                char *eq = strchr(o->published_rows[i], '=');
                g_autofree char *axis = g_strstrip(g_strndup(o->published_rows[i], (gsize) (eq - o->published_rows[i])));
                g_autofree char *col = g_strstrip(g_strdup(eq + 1));
                if ((l->prc[i] = render_need_column(l->pub, pp, col, error)) < 0)
                        return false;
                const char *an = select_axis_column(axis);
                l->prow[i] = -1;
                for (guint k = 0; k < l->nr; k++)
                        if (an && !strcmp(o->rows[k], an))
                                l->prow[i] = l->rc[k];
        }
        l->prc[n] = -1;
        l->pvc = g_new(int, l->npv + 1);
        for (guint i = 0; i < l->npv; i++)
                if ((l->pvc[i] = render_need_column(l->pub, pp, o->published_value[i], error)) < 0)
                        return false;
        /* (With published_columns= the label names the published rows.) */
        if (o->published_label && !o->published_columns &&
            (l->plc = render_need_column(l->pub, pp, o->published_label, error)) < 0)
                return false;
        /* published_series: one column per value, in the file's order. */
        if (o->published_series && (l->psc = render_need_column(l->pub, pp, o->published_series, error)) < 0)
                return false;
        for (guint r = 0; r < l->pub->rows->len; r++) {
                char **row = l->pub->rows->pdata[r];
                const char *v = l->psc >= 0 ? row[l->psc] : "";
                bool seen = !select_row(l->psel, l->pub, row);
                for (guint i = 0; i < l->pub_series->len && !seen; i++)
                        seen = !strcmp(l->pub_series->pdata[i], v);
                if (!seen)
                        g_ptr_array_add(l->pub_series, (gpointer) v);
        }
        if (!l->pub_series->len)
                g_ptr_array_add(l->pub_series, (gpointer) "");
        return true;
}

/* Our columns: a group of values per value across, a ratio after its
 * numerator's group. */
static void layout_our_columns(TableLayout *l)
{
        const Output *o = l->o;
        GArray *cols = l->cols;
        guint n_groups = o->columns_axis ? l->across->len : 1;

        for (guint a = 0; a < n_groups; a++) {
                guint first = cols->len;
                for (guint j = 0; j < l->nvals; j++) {
                        TableCol c = { .kind = TC_OURS, .across = o->columns_axis ? l->across->pdata[a] : NULL,
                                       .value = j, .group = a };
                        g_array_append_val(cols, c);
                }
                char *den = NULL;
                if (o->columns_axis && ratio_after(o->ratio, l->across->pdata[a], &den)) {
                        g_ptr_array_add(l->dens, den);
                        TableCol c = { .kind = TC_RATIO, .num = first, .den_text = den, .group = a };
                        guint found = G_MAXUINT;
                        for (guint k = 0; k < cols->len; k++) {
                                TableCol *x = &g_array_index(cols, TableCol, k);
                                if (x->kind == TC_OURS && x->value == 0 && x->across && !strcmp(x->across, den))
                                        found = k;
                        }
                        /* DEN's column may come later: found once all are in. */
                        c.den = found;
                        g_array_append_val(cols, c);
                }
        }
        for (guint k = 0; k < cols->len; k++) {
                TableCol *x = &g_array_index(cols, TableCol, k);
                for (guint m = 0; x->kind == TC_RATIO && x->den == G_MAXUINT && m < cols->len; m++) {
                        TableCol *y = &g_array_index(cols, TableCol, m);
                        if (y->kind == TC_OURS && y->value == 0 && y->across && !strcmp(y->across, x->den_text))
                                x->den = m;
                }
        }
}

/* The published columns: a group per series value, a ratio after its
 * numerator's group. */
static void layout_published_columns(TableLayout *l)
{
        GArray *cols = l->cols;

        for (guint s = 0; s < l->pub_series->len; s++) {
                guint first = cols->len;
                for (guint j = 0; j < l->npv; j++) {
                        TableCol c = { .kind = TC_PUB, .series = l->pub_series->pdata[s], .value = j };
                        g_array_append_val(cols, c);
                }
                char *den = NULL;
                if (ratio_after(l->o->published_ratio, l->pub_series->pdata[s], &den)) {
                        g_ptr_array_add(l->dens, den);
                        TableCol c = { .kind = TC_PUB_RATIO, .num = first, .den = G_MAXUINT, .den_text = den };
                        g_array_append_val(cols, c);
                }
        }
        for (guint k = l->n_ours; k < cols->len; k++) {
                TableCol *x = &g_array_index(cols, TableCol, k);
                for (guint m = l->n_ours; x->kind == TC_PUB_RATIO && m < cols->len; m++) {
                        TableCol *y = &g_array_index(cols, TableCol, m);
                        if (y->kind == TC_PUB && y->value == 0 && !strcmp(y->series, x->den_text))
                                x->den = m;
                }
        }
}

bool render_table_layout(TableLayout *l, const Experiment *exp, const Output *o, const Table *t, const char *path,
                         const RenderInputs *in, GError **error)
{
        *l = (TableLayout) { .exp = exp, .o = o, .t = t, .path = path, .cc = -1, .mc = -1, .psc = -1, .plc = -1 };
        l->npv = o->published_value ? g_strv_length(o->published_value) : 0;
        l->pub_series = g_ptr_array_new();
        l->cols = g_array_new(FALSE, TRUE, sizeof(TableCol));
        l->dens = g_ptr_array_new_with_free_func(g_free);
        if (!layout_keys(l, error))
                return false;
        layout_order(l);
        if (!layout_values(l, error))
                return false;
        if (o->published && !layout_published(l, in, error))
                return false;
        /* The columns, left to right: ours, then the published ones. */
        layout_our_columns(l);
        l->n_ours = l->cols->len;
        layout_published_columns(l);
        l->nl = l->nr + (l->plc >= 0);
        return true;
}

void render_table_layout_clear(TableLayout *l)
{
        g_clear_pointer(&l->sel, select_free);
        g_clear_pointer(&l->rc, g_free);
        g_clear_pointer(&l->keys, g_ptr_array_unref);
        g_clear_pointer(&l->across, g_ptr_array_unref);
        g_clear_pointer(&l->vc, g_free);
        g_clear_pointer(&l->loc, g_free);
        g_clear_pointer(&l->hic, g_free);
        g_clear_pointer(&l->factor, g_free);
        g_free((gpointer) l->vunit);
        l->vunit = NULL;
        g_clear_pointer(&l->pub, table_free);
        g_clear_pointer(&l->psel, select_free);
        g_clear_pointer(&l->prc, g_free);
        g_clear_pointer(&l->prow, g_free);
        g_clear_pointer(&l->pvc, g_free);
        g_clear_pointer(&l->pub_series, g_ptr_array_unref);
        g_clear_pointer(&l->cols, g_array_unref);
        g_clear_pointer(&l->dens, g_ptr_array_unref);
}
