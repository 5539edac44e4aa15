/* render-table.c: `ipclab table` (render.h): the LaTeX tabular of a
 * [table NAME] group.
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

/* Display units: factor from the column's unit and the LaTeX of the unit. */
static double unit_factor(const char *unit, const char **latex)
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

char *render_unit_latex(const char *unit)
{
        const char *latex;

        unit_factor(unit, &latex);
        return latex ? g_strdup(latex) : render_latex_escape(unit);
}

static char *format_value(double v, int digits)
{
        if (isnan(v))
                return g_strdup("--");
        if (digits >= 0) {
                char buf[64];
                g_autofree char *f = g_strdup_printf("%%.%df", digits);
                return g_strdup(g_ascii_formatd(buf, sizeof buf, f, v));
        }
        return verify_format_number(v);
}

bool render_in_list(char **list, const char *s)
{
        for (guint i = 0; list && list[i]; i++)
                if (!strcmp(list[i], s))
                        return true;
        return false;
}

/* How wide LaTeX text T prints, roughly, in characters: a command's
 * name and the braces count for nothing, \, for nothing. */
static gsize visible_len(const char *t)
{
        gsize n = 0;

        for (const char *p = t; *p; p++) {
                if (*p == '\\') {
                        if (g_ascii_isalpha(p[1]))
                                while (g_ascii_isalpha(p[1]))
                                        p++;
                        else if (p[1] == ',' || p[1] == ' ')
                                p++;
                        else if (p[1])
                                p++, n++;
                        continue;
                }
                n += *p != '{' && *p != '}' && (*p & 0xc0) != 0x80;
        }
        return n;
}

/* A cell (LaTeX) of more than a few words as lines of at most about
 * WIDTH characters, broken at its blanks (never inside a braced group):
 * \ipclabHead{round-trip\\latency, median\\(ns)}, or with TOP
 * \ipclabRowHead (aligned at its first line, for a row's label). */
static char *wrap_cell(const char *latex, gsize width, bool top)
{
        g_autoptr(GPtrArray) words = g_ptr_array_new_with_free_func(g_free);
        const char *from = latex;
        int depth = 0;

        if (visible_len(latex) <= width)
                return g_strdup(latex);
        for (const char *p = latex;; p++) {
                depth += *p == '{' ? 1 : *p == '}' ? -1 : 0;
                if (!*p || (*p == ' ' && depth == 0)) {
                        if (p > from)
                                g_ptr_array_add(words, g_strndup(from, (gsize) (p - from)));
                        from = p + 1;
                        if (!*p)
                                break;
                }
        }
        GString *out = g_string_new(top ? "\\ipclabRowHead{" : "\\ipclabHead{");
        gsize line = 0;
        for (guint i = 0; i < words->len; i++) {
                const char *w = words->pdata[i];
                if (i && line + 1 + visible_len(w) > width) {
                        g_string_append(out, "\\\\");
                        line = 0;
                } else if (i) {
                        g_string_append_c(out, ' ');
                        line++;
                }
                g_string_append(out, w);
                line += visible_len(w);
        }
        g_string_append_c(out, '}');
        return g_string_free(out, FALSE);
}

/* A column head of a table of N_COLUMNS, in lines of 10 to 16
 * characters: narrower the more columns share the width (0: a row
 * label's head, 16). */
static char *head_cell(const char *latex, guint n_columns)
{
        return wrap_cell(latex, n_columns ? CLAMP(84 / n_columns, 10, 16) : 16, false);
}

char *render_value_head(const char *column, const char *unit, const char *pattern, bool per_message)
{
        const Column *c = column_find(column);
        const char *ul;
        unit_factor(unit, &ul);
        g_autofree char *text = c ? g_strconcat(render_label_kind(c, pattern), c->label, per_message ? " per message" : "", NULL)
                                  : g_strdup(column);
        g_autofree char *label = render_latex_escape(text);
        const char *u = ul ? ul : c && c->unit[0] ? c->unit : NULL;
        g_autofree char *ue = u && !ul ? render_latex_escape(u) : g_strdup(u);
        return u ? g_strdup_printf("%s (%s)", label, ue) : g_strdup(label);
}

/* Are A and B the same value: equal numbers (4096 and 4096.0), else the
 * same text? */
static gboolean equal_values(const char *a, const char *b)
{
        double x = render_number(a), y = render_number(b);
        return (!isnan(x) && !isnan(y)) ? x == y : !strcmp(a, b);
}

/* One column of a table, left to right after the row labels. */
typedef enum {
        TC_OURS,        /* a value of ours: VALUE of the cells at ACROSS */
        TC_RATIO,       /* ours: column NUM's value over column DEN's */
        TC_PUB,         /* a published value: column VALUE at series SERIES */
        TC_PUB_RATIO,   /* published: column NUM's value over column DEN's */
} TableColKind;

typedef struct {
        TableColKind kind;
        const char *across;   /* TC_OURS: the columns axis value, or NULL */
        const char *series;   /* TC_PUB: the published_series value, or "" */
        guint value;          /* the index in the values (ours) or published_value */
        guint num, den;       /* ratios: indexes of the columns divided */
        const char *den_text; /* ratios: DEN's value, for the head */
        guint group;          /* ours: the index of its value across */
} TableCol;

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

/* The value of our column VALUE (in column VC) of summary row ROW: per
 * message where per_message= says so.  NAN when there is none. */
static double our_value(const Output *o, char **row, const char *value, int vc, int mc)
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
                double x = sel && !select_row(sel, t, row) ? NAN : our_value(o, row, values[i], vc, mc);
                if (x > 0)
                        g_array_append_val(v, x);
        }
        if (!v->len)
                return NULL;
        stats_sort_double((double *) v->data, v->len);
        double median = g_array_index(v, double, v->len / 2);
        return median >= 1e9 ? "s" : median >= 1e6 ? "ms" : median >= 1e3 ? "us" : "ns";
}

/* The index of the "KEY=VALUE" pair KEY in LIST, or -1. */
static int pair_index(char **list, const char *key)
{
        for (guint i = 0; list && list[i]; i++) {
                const char *eq = strchr(list[i], '=');
                if (eq && (size_t) (eq - list[i]) == strlen(key) && !strncmp(list[i], key, (size_t) (eq - list[i])))
                        return (int) i;
        }
        return -1;
}

static const char *pair_value(char **list, const char *key)
{
        int i = pair_index(list, key);
        return i >= 0 ? strchr(list[i], '=') + 1 : NULL;
}

/* The published rows as rows of the table (published_columns=): after
 * ours, each labelled published (TITLE): LABEL, each of our value columns
 * showing its published column in our unit, qualified by its bound
 * (published_bounds=: > over, < under, ~ about). */
static void published_rows(const Output *o, const Table *pub, const Selector *psel, GArray *cols, char **values,
                           const double *factor, GString *tex, guint nl)
{
        int lc = o->published_label ? table_column(pub, o->published_label) : -1;
        g_autofree char *src = render_latex_escape(o->published_title ? o->published_title : o->published);

        g_string_append(tex, "\\midrule\n");
        for (guint r = 0; r < pub->rows->len; r++) {
                char **row = pub->rows->pdata[r];
                if (!select_row(psel, pub, row))
                        continue;
                g_autofree char *label = lc >= 0 ? render_latex_escape(row[lc]) : NULL;
                g_string_append_printf(tex, "\\multicolumn{%u}{@{}l}{published (%s)%s%s}", nl, src,
                                       label ? ": " : "", label ? label : "");
                for (guint c = 0; c < cols->len; c++) {
                        const TableCol *x = &g_array_index(cols, TableCol, c);
                        int k = x->kind == TC_OURS ? pair_index(o->published_columns, values[x->value]) : -1;
                        const char *theirs = k >= 0 ? strchr(o->published_columns[k], '=') + 1 : NULL;
                        int vc = theirs ? table_column(pub, theirs) : -1;
                        double v = vc >= 0 ? render_number(row[vc]) : NAN;
                        if (isnan(v)) {
                                g_string_append(tex, x->kind == TC_OURS ? " & --" : " & ");
                                continue;
                        }
                        double f = o->published_columns_scale[k];
                        const char *bcol = pair_value(o->published_bounds, theirs);
                        int bc = bcol ? table_column(pub, bcol) : -1;
                        const char *b = bc >= 0 ? row[bc] : "";
                        const char *sym = !strcmp(b, ">") ? "$>$\\," : !strcmp(b, "<") ? "$<$\\," : !strcmp(b, "~") ? "$\\approx$\\," : "";
                        g_autofree char *num = format_value(v * f * factor[x->value], o->digits);
                        g_string_append_printf(tex, " & %s%s", sym, num);
                }
                g_string_append(tex, " \\\\\n");
        }
}

/* The last row of a table with also=: the other experiment's cells that
 * also_where keeps, its first value in each of our columns of that value
 * (matched on the columns axis where it has it), labelled also_title. */
static gboolean also_row(const Experiment *exp, const Output *o, const RenderInputs *in, GArray *cols,
                         char **values, const double *factor, GString *tex, guint nl, GError **error)
{
        const char *apath = in->also ? g_hash_table_lookup(in->also, o->also) : NULL;
        if (!apath) {
                g_autofree char *at = render_where_at(exp, o);
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: [%s] also: needs --also %s=FILE (its summary)",
                            at, o->group, o->also);
                return FALSE;
        }
        g_autoptr(Table) at = table_read(apath, error);
        g_autoptr(Selector) asel = at ? select_parse(o->also_where, SELECT_AXES, error) : NULL;
        if (!asel)
                return FALSE;
        int vc = render_need_column(at, apath, values[0], error);
        if (vc < 0)
                return FALSE;
        int cc = o->columns_axis ? table_column(at, o->columns_axis) : -1;
        int mc = table_column(at, "messages");
        g_autofree char *title = render_latex_escape(o->also_title ? o->also_title : o->also);
        g_autofree char *cell = wrap_cell(title, 16, true);
        g_string_append_printf(tex, "\\midrule\n\\multicolumn{%u}{@{}l}{%s}", nl, cell);
        for (guint c = 0; c < cols->len; c++) {
                const TableCol *x = &g_array_index(cols, TableCol, c);
                char **found = NULL;
                for (guint r = 0; x->kind == TC_OURS && x->value == 0 && r < at->rows->len; r++) {
                        char **row = at->rows->pdata[r];
                        if (!select_row(asel, at, row) || (cc >= 0 && x->across && strcmp(row[cc], x->across)))
                                continue;
                        if (found) {
                                g_autofree char *w = render_where_at(exp, o);
                                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                            "%s: [%s] also_where: '%s' keeps several cells of %s for one column: "
                                            "name the axis in which they differ", w, o->group,
                                            o->also_where ? o->also_where : "", apath);
                                return FALSE;
                        }
                        found = row;
                }
                g_autofree char *v = found ? format_value(our_value(o, found, values[0], vc, mc) * factor[0], o->digits)
                                           : g_strdup("");
                g_string_append_printf(tex, " & %s", v);
        }
        g_string_append(tex, " \\\\\n");
        return TRUE;
}

static char *table_tex(const Experiment *exp, const Output *o, const Table *t, const char *path,
                       const RenderInputs *in, GError **error)
{
        g_autoptr(Selector) sel = select_parse(o->where, SELECT_AXES, error);
        if (!sel)
                return NULL;
        guint nr = g_strv_length(o->rows);
        g_autofree int *rc = g_new(int, nr + 1);
        for (guint i = 0; i < nr; i++)
                if ((rc[i] = render_need_column(t, path, o->rows[i], error)) < 0)
                        return NULL;
        int cc = o->columns_axis ? render_need_column(t, path, o->columns_axis, error) : -1;
        if (o->columns_axis && cc < 0)
                return NULL;
        /* The values down (row keys) and across, in the file's order. */
        g_autoptr(GPtrArray) keys = g_ptr_array_new();      /* char ** rows (first row of each key) */
        g_autoptr(GPtrArray) across = g_ptr_array_new();    /* char *: columns_axis values */
        for (guint r = 0; r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                if (!select_row(sel, t, row))
                        continue;
                bool seen = false;
                for (guint k = 0; k < keys->len && !seen; k++) {
                        char **other = keys->pdata[k];
                        bool same = true;
                        for (guint i = 0; i < nr; i++)
                                same &= !strcmp(other[rc[i]], row[rc[i]]);
                        seen = same;
                }
                if (!seen)
                        g_ptr_array_add(keys, row);
                if (cc >= 0) {
                        bool have = false;
                        for (guint i = 0; i < across->len; i++)
                                have |= !strcmp(across->pdata[i], row[cc]);
                        if (!have)
                                g_ptr_array_add(across, row[cc]);
                }
        }
        /* Sort both by the file's order. */
        for (guint i = 0; i < keys->len; i++)
                for (guint j = i + 1; j < keys->len; j++) {
                        char **a = keys->pdata[i], **b = keys->pdata[j];
                        int d = 0;
                        for (guint k = 0; k < nr && !d; k++) {
                                double ra = render_axis_rank(exp, o->rows[k], a[rc[k]]), rb = render_axis_rank(exp, o->rows[k], b[rc[k]]);
                                d = ra < rb ? -1 : ra > rb;
                        }
                        if (d > 0) {
                                keys->pdata[i] = b;
                                keys->pdata[j] = a;
                        }
                }
        for (guint i = 0; i < across->len; i++)
                for (guint j = i + 1; j < across->len; j++)
                        if (render_axis_rank(exp, o->columns_axis, across->pdata[j]) < render_axis_rank(exp, o->columns_axis, across->pdata[i])) {
                                gpointer tmp = across->pdata[i];
                                across->pdata[i] = across->pdata[j];
                                across->pdata[j] = tmp;
                        }
        /* The pattern every row shares, for the latency columns' heads. */
        int pcol = table_column(t, "pattern");
        const char *pattern = NULL;
        for (guint i = 0; pcol >= 0 && i < keys->len; i++) {
                const char *v = ((char **) keys->pdata[i])[pcol];
                if (!i)
                        pattern = v;
                else if (pattern && strcmp(pattern, v))
                        pattern = NULL;
        }
        /* Our value columns: the values= at each value across, or the
         * columns=, each with its summary column, unit and interval. */
        char **values = o->columns_axis ? o->values : o->columns;
        guint nvals = g_strv_length(values);
        g_autofree int *vc = g_new(int, nvals + 1);
        g_autofree int *loc = g_new(int, nvals + 1);
        g_autofree int *hic = g_new(int, nvals + 1);
        g_autofree double *factor = g_new(double, nvals + 1);
        g_autofree const char **vunit = g_new0(const char *, nvals + 1);
        int mc = o->per_message ? render_need_column(t, path, "messages", error) : -1;
        if (o->per_message && mc < 0)
                return NULL;
        for (guint i = 0; i < nvals; i++) {
                if ((vc[i] = render_need_column(t, path, values[i], error)) < 0)
                        return NULL;
                g_autofree char *lo = g_strconcat(values[i], "_lo", NULL);
                g_autofree char *hi = g_strconcat(values[i], "_hi", NULL);
                loc[i] = o->intervals ? table_column(t, lo) : -1;
                hic[i] = o->intervals ? table_column(t, hi) : -1;
                vunit[i] = render_table_unit(o, i, t, sel);
                const char *ul;
                factor[i] = unit_factor(vunit[i], &ul);
        }

        /* Published numbers beside ours. */
        g_autoptr(Table) pub = NULL;
        g_autoptr(Selector) psel = NULL;
        g_autofree int *prc = NULL;
        g_autofree int *prow = NULL;
        g_autofree int *pvc = NULL;
        int psc = -1, plc = -1;
        guint npv = o->published_value ? g_strv_length(o->published_value) : 0;
        g_autoptr(GPtrArray) pub_series = g_ptr_array_new();   /* published_series values */
        if (o->published) {
                g_autofree char *pp = g_build_filename(in->published, o->published, NULL);
                pub = table_read(pp, error);
                psel = pub ? select_parse(o->published_where, SELECT_COLUMNS, error) : NULL;
                if (!psel || !select_check_table(psel, pub, pp, error))
                        return NULL;
                guint n = o->published_rows ? g_strv_length(o->published_rows) : 0;
                prc = g_new(int, n + 1);
                prow = g_new(int, n + 1);
                for (guint i = 0; i < n; i++) {
                        char *eq = strchr(o->published_rows[i], '=');
                        g_autofree char *axis = g_strstrip(g_strndup(o->published_rows[i], (gsize) (eq - o->published_rows[i])));
                        g_autofree char *col = g_strstrip(g_strdup(eq + 1));
                        if ((prc[i] = render_need_column(pub, pp, col, error)) < 0)
                                return NULL;
                        const char *an = select_axis_column(axis);
                        prow[i] = -1;
                        for (guint k = 0; k < nr; k++)
                                if (an && !strcmp(o->rows[k], an))
                                        prow[i] = rc[k];
                }
                prc[n] = -1;
                pvc = g_new(int, npv + 1);
                for (guint i = 0; i < npv; i++)
                        if ((pvc[i] = render_need_column(pub, pp, o->published_value[i], error)) < 0)
                                return NULL;
                /* (With published_columns= the label names the published rows.) */
                if (o->published_label && !o->published_columns &&
                    (plc = render_need_column(pub, pp, o->published_label, error)) < 0)
                        return NULL;
                /* published_series: one column per value, in the file's order. */
                if (o->published_series && (psc = render_need_column(pub, pp, o->published_series, error)) < 0)
                        return NULL;
                for (guint r = 0; r < pub->rows->len; r++) {
                        char **row = pub->rows->pdata[r];
                        const char *v = psc >= 0 ? row[psc] : "";
                        bool seen = !select_row(psel, pub, row);
                        for (guint i = 0; i < pub_series->len && !seen; i++)
                                seen = !strcmp(pub_series->pdata[i], v);
                        if (!seen)
                                g_ptr_array_add(pub_series, (gpointer) v);
                }
                if (!pub_series->len)
                        g_ptr_array_add(pub_series, (gpointer) "");
        }

        /* The columns, left to right: ours (a group of values per value
         * across, a ratio after its numerator's group), then the
         * published ones (a group per series value, likewise). */
        g_autoptr(GArray) cols = g_array_new(FALSE, TRUE, sizeof(TableCol));
        g_autoptr(GPtrArray) dens = g_ptr_array_new_with_free_func(g_free);
        guint n_groups = o->columns_axis ? across->len : 1;
        for (guint a = 0; a < n_groups; a++) {
                guint first = cols->len;
                for (guint j = 0; j < nvals; j++) {
                        TableCol c = { .kind = TC_OURS, .across = o->columns_axis ? across->pdata[a] : NULL, .value = j,
                                       .group = a };
                        g_array_append_val(cols, c);
                }
                char *den = NULL;
                if (o->columns_axis && ratio_after(o->ratio, across->pdata[a], &den)) {
                        g_ptr_array_add(dens, den);
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
        guint n_ours = cols->len;
        for (guint s = 0; s < pub_series->len; s++) {
                guint first = cols->len;
                for (guint j = 0; j < npv; j++) {
                        TableCol c = { .kind = TC_PUB, .series = pub_series->pdata[s], .value = j };
                        g_array_append_val(cols, c);
                }
                char *den = NULL;
                if (ratio_after(o->published_ratio, pub_series->pdata[s], &den)) {
                        g_ptr_array_add(dens, den);
                        TableCol c = { .kind = TC_PUB_RATIO, .num = first, .den = G_MAXUINT, .den_text = den };
                        g_array_append_val(cols, c);
                }
        }
        for (guint k = n_ours; k < cols->len; k++) {
                TableCol *x = &g_array_index(cols, TableCol, k);
                for (guint m = n_ours; x->kind == TC_PUB_RATIO && m < cols->len; m++) {
                        TableCol *y = &g_array_index(cols, TableCol, m);
                        if (y->kind == TC_PUB && y->value == 0 && !strcmp(y->series, x->den_text))
                                x->den = m;
                }
        }
        guint nl = nr + (plc >= 0);   /* label columns */

        GString *tex = g_string_new(NULL);
        g_string_append_printf(tex, "%% generated by `ipclab table` from %s, [%s]\n", exp->path, o->group);
        g_string_append(tex, "\\begin{tabular}{@{}");
        for (guint i = 0; i < nl; i++)
                g_string_append_c(tex, 'l');
        g_string_append_c(tex, ' ');
        for (guint i = 0; i < cols->len; i++)
                g_string_append_c(tex, 'r');
        g_string_append(tex, "@{}}\n\\toprule\n");
        /* Heads over groups of columns: ours (the value by the axis
         * across, or each value across over its group), then the
         * published ones under their source when there are several. */
        guint n_pub = cols->len - n_ours;
        g_autofree char *src = o->published ? render_latex_escape(o->published_title ? o->published_title : o->published)
                                            : NULL;
        if (o->columns_axis || n_pub > 1) {
                GString *rules = g_string_new(NULL);
                g_string_append_printf(tex, "\\multicolumn{%u}{@{}l}{}", nl);
                if (o->columns_axis && nvals == 1) {
                        g_autofree char *head = render_value_head(o->value, vunit[0], pattern, render_in_list(o->per_message, o->value));
                        g_autofree char *axis = render_column_label(o->columns_axis, false);
                        g_autofree char *ae = render_latex_escape(axis);
                        /* About as wide as the columns beneath it: the
                         * head's lines, then "by AXIS" on one of its own. */
                        g_autofree char *cell = wrap_cell(head, MAX(20, n_ours * 7), false);
                        const char *open = "\\ipclabHead{";
                        g_autofree char *lines = g_str_has_prefix(cell, open)
                                ? g_strndup(cell + strlen(open), strlen(cell) - strlen(open) - 1) : g_strdup(cell);
                        g_autofree char *span = g_strdup_printf("\\ipclabHead{%s\\\\by %s}", lines, ae);
                        g_string_append_printf(tex, " & \\multicolumn{%u}{c}{%s}", n_ours, span);
                        g_string_append_printf(rules, "\\cmidrule(l){%u-%u}", nl + 1, nl + n_ours);
                } else if (o->columns_axis) {
                        for (guint k = 0; k < n_ours;) {
                                guint w = 1;
                                const TableCol *x = &g_array_index(cols, TableCol, k);
                                while (k + w < n_ours && g_array_index(cols, TableCol, k + w).group == x->group)
                                        w++;
                                g_autofree char *h = style_value_text(o->columns_axis, x->across, true);
                                g_string_append_printf(tex, " & \\multicolumn{%u}{c}{%s}", w, h);
                                g_string_append_printf(rules, "\\cmidrule(l){%u-%u}", nl + k + 1, nl + k + w);
                                k += w;
                        }
                } else if (n_ours) {
                        g_string_append_printf(tex, " & \\multicolumn{%u}{c}{}", n_ours);
                }
                if (n_pub > 1) {
                        g_string_append_printf(tex, " & \\multicolumn{%u}{c}{published (%s)}", n_pub, src);
                        g_string_append_printf(rules, "\\cmidrule(l){%u-%u}", nl + n_ours + 1, nl + cols->len);
                }
                g_string_append_printf(tex, " \\\\\n%s\n", rules->str);
                g_string_free(rules, TRUE);
        }
        for (guint i = 0; i < nr; i++) {
                g_autofree char *l = render_column_label(o->rows[i], false);
                g_autofree char *le = render_latex_escape(l);
                g_autofree char *lh = head_cell(le, 0);
                g_string_append_printf(tex, "%s%s", i ? " & " : "", lh);
        }
        if (plc >= 0) {
                g_autofree char *le = render_latex_escape(o->published_label);
                g_string_append_printf(tex, "%s%s", nr ? " & " : "", le);
        }
        for (guint k = 0; k < cols->len; k++) {
                const TableCol *x = &g_array_index(cols, TableCol, k);
                g_autofree char *h = NULL;
                if (x->kind == TC_RATIO || x->kind == TC_PUB_RATIO) {
                        g_autofree char *d = x->kind == TC_RATIO ? style_value_text(o->columns_axis, x->den_text, true)
                                                                 : render_latex_escape(x->den_text);
                        h = g_strdup_printf("\\ensuremath{\\times}%s", d);
                } else if (x->kind == TC_OURS) {
                        h = o->columns_axis && nvals == 1 ? style_value_text(o->columns_axis, x->across, true)
                          : render_value_head(values[x->value], vunit[x->value], pattern, render_in_list(o->per_message, values[x->value]));
                } else {
                        g_autofree char *sv = render_latex_escape(x->series);
                        const char *pv = o->published_value[x->value];
                        g_autofree char *ph = render_latex_escape(o->published_heads ? o->published_heads[x->value] : pv);
                        /* Under "published (SRC)" when there are several. */
                        if (n_pub > 1)
                                h = g_strdup_printf("%s%s%s", sv, x->series[0] && npv > 1 ? ", " : "", npv > 1 ? ph : "");
                        else
                                h = g_strdup_printf("published (%s)%s%s%s%s", src, x->series[0] ? ": " : "", sv,
                                                    npv > 1 ? (x->series[0] ? ", " : ": ") : "", npv > 1 ? ph : "");
                }
                g_autofree char *hc = head_cell(h, nl + cols->len);
                g_string_append_printf(tex, " & %s", hc);
        }
        g_string_append(tex, " \\\\\n\\midrule\n");
        g_autofree double *cell = g_new(double, cols->len + 1);
        bool unsupported = false;
        for (guint k = 0; k < keys->len; k++) {
                char **key = keys->pdata[k];
                for (guint i = 0; i < nr; i++) {
                        g_autofree char *v = style_value_text(o->rows[i], key[rc[i]], true);
                        g_string_append_printf(tex, "%s%s", i ? " & " : "", v);
                }
                /* The published label: from the first published row
                 * matched to this one. */
                for (guint r = 0; plc >= 0 && r <= pub->rows->len; r++) {
                        char **row = r < pub->rows->len ? pub->rows->pdata[r] : NULL;
                        bool same = row && select_row(psel, pub, row);
                        for (guint i = 0; prc[i] >= 0 && same; i++)
                                same = prow[i] >= 0 && equal_values(row[prc[i]], key[prow[i]]);
                        if (same || !row) {
                                g_autofree char *l = row ? render_latex_escape(row[plc]) : g_strdup("--");
                                g_string_append_printf(tex, "%s%s", nr ? " & " : "", l);
                                break;
                        }
                }
                g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func(g_free);
                for (guint c = 0; c < cols->len; c++) {
                        const TableCol *x = &g_array_index(cols, TableCol, c);
                        char *text = NULL;
                        cell[c] = NAN;
                        if (x->kind == TC_OURS) {
                                char **found = NULL;
                                for (guint r = 0; r < t->rows->len; r++) {
                                        char **row = t->rows->pdata[r];
                                        bool same = select_row(sel, t, row);
                                        for (guint i = 0; i < nr && same; i++)
                                                same = !strcmp(row[rc[i]], key[rc[i]]);
                                        if (same && cc >= 0)
                                                same = !strcmp(row[cc], x->across);
                                        if (!same)
                                                continue;
                                        if (found) {
                                                g_autofree char *at = render_where_at(exp, o);
                                                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                                            "%s: [%s] rows: several rows of %s fall in one cell of the table: "
                                                            "add the axis in which they differ to rows= or where=", at,
                                                            o->group, path);
                                                g_string_free(tex, TRUE);
                                                return NULL;
                                        }
                                        found = row;
                                }
                                guint j = x->value;
                                cell[c] = found ? our_value(o, found, values[j], vc[j], mc) : NAN;
                                text = format_value(cell[c] * factor[j], o->digits);
                                /* A percentile too few values support, in
                                 * parentheses (noted below the table). */
                                if (found && !isnan(cell[c]) && !render_percentile_supported(t, found, values[j])) {
                                        char *t2 = g_strdup_printf("(%s)", text);
                                        g_free(text);
                                        text = t2;
                                        unsupported = true;
                                }
                                if (found && loc[j] >= 0 && hic[j] >= 0) {
                                        double lo = our_value(o, found, values[j], loc[j], mc) * factor[j];
                                        double hi = our_value(o, found, values[j], hic[j], mc) * factor[j];
                                        if (!isnan(lo) && !isnan(hi)) {
                                                g_autofree char *l = format_value(lo, o->digits);
                                                g_autofree char *h = format_value(hi, o->digits);
                                                /* The interval under the value, smaller. */
                                                char *t2 = g_strdup_printf("\\ipclabInterval{%s}{[%s, %s]}", text, l, h);
                                                g_free(text);
                                                text = t2;
                                        }
                                }
                        } else if (x->kind == TC_PUB) {
                                const char *raw = NULL;
                                for (guint r = 0; r < pub->rows->len && !raw; r++) {
                                        char **row = pub->rows->pdata[r];
                                        bool same = select_row(psel, pub, row) &&
                                                    (psc < 0 || !strcmp(row[psc], x->series));
                                        for (guint i = 0; prc[i] >= 0 && same; i++)
                                                same = prow[i] >= 0 && equal_values(row[prc[i]], key[prow[i]]);
                                        if (same)
                                                raw = row[pvc[x->value]];
                                }
                                double f = o->published_scales[x->value];
                                cell[c] = raw ? render_number(raw) * (f > 0 ? f : 1) : NAN;
                                /* A column whose name says no unit, as published. */
                                text = f > 0 || !raw ? format_value(cell[c] * factor[0], o->digits)
                                                     : render_latex_escape(raw);
                        }
                        g_ptr_array_add(texts, text);
                }
                /* Ratios, once every value of the row is known. */
                for (guint c = 0; c < cols->len; c++) {
                        const TableCol *x = &g_array_index(cols, TableCol, c);
                        if (x->kind == TC_RATIO || x->kind == TC_PUB_RATIO) {
                                g_free(texts->pdata[c]);
                                texts->pdata[c] = format_value(x->den < cols->len ? cell[x->num] / cell[x->den] : NAN, -1);
                        }
                        g_string_append_printf(tex, " & %s", texts->pdata[c] ? (char *) texts->pdata[c] : "--");
                }
                g_string_append(tex, " \\\\\n");
        }
        if (o->published_columns)
                published_rows(o, pub, psel, cols, values, factor, tex, nl);
        if (o->also && !also_row(exp, o, in, cols, values, factor, tex, nl, error)) {
                g_string_free(tex, TRUE);
                return NULL;
        }
        if (unsupported) {
                /* A note as wide as it is, the columns as they are. */
                g_autofree char *note = g_strdup_printf("In parentheses: a percentile with fewer than %d values beyond "
                                                        "it in a repetition, which says little.", STATS_TAIL_MIN);
                g_autofree char *cell = wrap_cell(note, 56, true);
                g_string_append_printf(tex, "\\midrule\n\\multicolumn{%u}{@{}l@{}}{\\makebox[0pt][l]{\\footnotesize %s}} "
                                       "\\\\\n", nl + cols->len, cell);
        }
        g_string_append(tex, "\\bottomrule\n\\end{tabular}\n");
        return g_string_free(tex, FALSE);
}

char *render_table(const char *file, const char *name, const RenderInputs *in, GError **error)
{
        const Output *o = NULL;
        g_autoptr(Experiment) exp = render_load_output(file, name, true, &o, error);
        g_autoptr(Table) t = exp ? table_read(in->summary, error) : NULL;

        return t ? table_tex(exp, o, t, in->summary, in, error) : NULL;
}
