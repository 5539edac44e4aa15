/* render-table.c: `ipclab table` (render.h): the LaTeX tabular of a
 * [table NAME] group, written from its layout (render-table-layout.c).
 */
#include "render.h"
#include "render-table-layout.h"

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

char *render_unit_latex(const char *unit)
{
        const char *latex;

        render_unit_factor(unit, &latex);
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
        render_unit_factor(unit, &ul);
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
                g_autofree char *v = found ? format_value(render_table_value(o, found, values[0], vc, mc) * factor[0], o->digits)
                                           : g_strdup("");
                g_string_append_printf(tex, " & %s", v);
        }
        g_string_append(tex, " \\\\\n");
        return TRUE;
}

/* The tabular's head: its column types, and the heads over groups of
 * columns: ours (the value by the axis across, or each value across
 * over its group), then the published ones under their source SRC when
 * there are several. */
static void head_groups(const TableLayout *l, const char *src, GString *tex)
{
        const Output *o = l->o;
        guint nl = l->nl, n_ours = l->n_ours, n_pub = l->cols->len - l->n_ours;

        g_string_append_printf(tex, "%% generated by `ipclab table` from %s, [%s]\n", l->exp->path, o->group);
        g_string_append(tex, "\\begin{tabular}{@{}");
        for (guint i = 0; i < nl; i++)
                g_string_append_c(tex, 'l');
        g_string_append_c(tex, ' ');
        for (guint i = 0; i < l->cols->len; i++)
                g_string_append_c(tex, 'r');
        g_string_append(tex, "@{}}\n\\toprule\n");
        if (!o->columns_axis && n_pub <= 1)
                return;
        GString *rules = g_string_new(NULL);
        g_string_append_printf(tex, "\\multicolumn{%u}{@{}l}{}", nl);
        if (o->columns_axis && l->nvals == 1) {
                g_autofree char *head = render_value_head(o->value, l->vunit[0], l->pattern,
                                                          render_in_list(o->per_message, o->value));
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
                        const TableCol *x = &g_array_index(l->cols, TableCol, k);
                        while (k + w < n_ours && g_array_index(l->cols, TableCol, k + w).group == x->group)
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
                g_string_append_printf(rules, "\\cmidrule(l){%u-%u}", nl + n_ours + 1, nl + l->cols->len);
        }
        g_string_append_printf(tex, " \\\\\n%s\n", rules->str);
        g_string_free(rules, TRUE);
}

/* The head of column X: a ratio's denominator, our value (or the value
 * across it), or a published value under its source SRC. */
static char *column_head(const TableLayout *l, const TableCol *x, const char *src)
{
        const Output *o = l->o;
        guint n_pub = l->cols->len - l->n_ours, npv = l->npv;

        if (x->kind == TC_RATIO || x->kind == TC_PUB_RATIO) {
                g_autofree char *d = x->kind == TC_RATIO ? style_value_text(o->columns_axis, x->den_text, true)
                                                         : render_latex_escape(x->den_text);
                return g_strdup_printf("\\ensuremath{\\times}%s", d);
        }
        if (x->kind == TC_OURS)
                return o->columns_axis && l->nvals == 1 ? style_value_text(o->columns_axis, x->across, true)
                     : render_value_head(l->values[x->value], l->vunit[x->value], l->pattern,
                                         render_in_list(o->per_message, l->values[x->value]));
        g_autofree char *sv = render_latex_escape(x->series);
        const char *pv = o->published_value[x->value];
        g_autofree char *ph = render_latex_escape(o->published_heads ? o->published_heads[x->value] : pv);
        /* Under "published (SRC)" when there are several. */
        if (n_pub > 1)
                return g_strdup_printf("%s%s%s", sv, x->series[0] && npv > 1 ? ", " : "", npv > 1 ? ph : "");
        return g_strdup_printf("published (%s)%s%s%s%s", src, x->series[0] ? ": " : "", sv,
                               npv > 1 ? (x->series[0] ? ", " : ": ") : "", npv > 1 ? ph : "");
}

/* The row of heads: the row axes' labels, the published label, each
 * column's head. */
static void head_row(const TableLayout *l, const char *src, GString *tex)
{
        const Output *o = l->o;

        for (guint i = 0; i < l->nr; i++) {
                g_autofree char *lab = render_column_label(o->rows[i], false);
                g_autofree char *le = render_latex_escape(lab);
                g_autofree char *lh = head_cell(le, 0);
                g_string_append_printf(tex, "%s%s", i ? " & " : "", lh);
        }
        if (l->plc >= 0) {
                g_autofree char *le = render_latex_escape(o->published_label);
                g_string_append_printf(tex, "%s%s", l->nr ? " & " : "", le);
        }
        for (guint k = 0; k < l->cols->len; k++) {
                g_autofree char *h = column_head(l, &g_array_index(l->cols, TableCol, k), src);
                g_autofree char *hc = head_cell(h, l->nl + l->cols->len);
                g_string_append_printf(tex, " & %s", hc);
        }
        g_string_append(tex, " \\\\\n\\midrule\n");
}

/* Our cell of row KEY in column X: its value into *CELL, its text (with
 * its interval under it; a percentile too few values support in
 * parentheses, *UNSUPPORTED then set), or NULL with an error when
 * several summary rows fall in it. */
static char *our_cell(const TableLayout *l, char **key, const TableCol *x, double *cell, bool *unsupported,
                      GError **error)
{
        const Output *o = l->o;
        const Table *t = l->t;
        char **found = NULL;

        for (guint r = 0; r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                bool same = select_row(l->sel, t, row);
                for (guint i = 0; i < l->nr && same; i++)
                        same = !strcmp(row[l->rc[i]], key[l->rc[i]]);
                if (same && l->cc >= 0)
                        same = !strcmp(row[l->cc], x->across);
                if (!same)
                        continue;
                if (found) {
                        g_autofree char *at = render_where_at(l->exp, o);
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "%s: [%s] rows: several rows of %s fall in one cell of the table: "
                                    "add the axis in which they differ to rows= or where=", at, o->group, l->path);
                        return NULL;
                }
                found = row;
        }
        guint j = x->value;
        *cell = found ? render_table_value(o, found, l->values[j], l->vc[j], l->mc) : NAN;
        char *text = format_value(*cell * l->factor[j], o->digits);
        /* A percentile too few values support, in parentheses (noted
         * below the table). */
        if (found && !isnan(*cell) && !render_percentile_supported(t, found, l->values[j])) {
                char *t2 = g_strdup_printf("(%s)", text);
                g_free(text);
                text = t2;
                *unsupported = true;
        }
        if (found && l->loc[j] >= 0 && l->hic[j] >= 0) {
                double lo = render_table_value(o, found, l->values[j], l->loc[j], l->mc) * l->factor[j];
                double hi = render_table_value(o, found, l->values[j], l->hic[j], l->mc) * l->factor[j];
                if (!isnan(lo) && !isnan(hi)) {
                        g_autofree char *lt = format_value(lo, o->digits);
                        g_autofree char *ht = format_value(hi, o->digits);
                        /* The interval under the value, smaller. */
                        char *t2 = g_strdup_printf("\\ipclabInterval{%s}{[%s, %s]}", text, lt, ht);
                        g_free(text);
                        text = t2;
                }
        }
        return text;
}

/* The published cell of row KEY in column X: its value into *CELL, its
 * text. */
static char *published_cell(const TableLayout *l, char **key, const TableCol *x, double *cell)
{
        const Table *pub = l->pub;
        const char *raw = NULL;

        for (guint r = 0; r < pub->rows->len && !raw; r++) {
                char **row = pub->rows->pdata[r];
                bool same = select_row(l->psel, pub, row) && (l->psc < 0 || !strcmp(row[l->psc], x->series));
                for (guint i = 0; l->prc[i] >= 0 && same; i++)
                        same = l->prow[i] >= 0 && equal_values(row[l->prc[i]], key[l->prow[i]]);
                if (same)
                        raw = row[l->pvc[x->value]];
        }
        double f = l->o->published_scales[x->value];
        *cell = raw ? render_number(raw) * (f > 0 ? f : 1) : NAN;
        /* A column whose name says no unit, as published. */
        return f > 0 || !raw ? format_value(*cell * l->factor[0], l->o->digits) : render_latex_escape(raw);
}

/* The published label of row KEY: from the first published row matched
 * to it, or "--". */
static void published_label(const TableLayout *l, char **key, GString *tex)
{
        const Table *pub = l->pub;

        for (guint r = 0; r <= pub->rows->len; r++) {
                char **row = r < pub->rows->len ? pub->rows->pdata[r] : NULL;
                bool same = row && select_row(l->psel, pub, row);
                for (guint i = 0; l->prc[i] >= 0 && same; i++)
                        same = l->prow[i] >= 0 && equal_values(row[l->prc[i]], key[l->prow[i]]);
                if (same || !row) {
                        g_autofree char *lab = row ? render_latex_escape(row[l->plc]) : g_strdup("--");
                        g_string_append_printf(tex, "%s%s", l->nr ? " & " : "", lab);
                        break;
                }
        }
}

/* The row of row key KEY: its labels, then each column's cell, the
 * ratios once every value of the row is known. */
static bool body_row(const TableLayout *l, char **key, GString *tex, bool *unsupported, GError **error)
{
        GArray *cols = l->cols;
        g_autofree double *cell = g_new(double, cols->len + 1);
        g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func(g_free);

        for (guint i = 0; i < l->nr; i++) {
                g_autofree char *v = style_value_text(l->o->rows[i], key[l->rc[i]], true);
                g_string_append_printf(tex, "%s%s", i ? " & " : "", v);
        }
        if (l->plc >= 0)
                published_label(l, key, tex);
        for (guint c = 0; c < cols->len; c++) {
                const TableCol *x = &g_array_index(cols, TableCol, c);
                char *text = NULL;
                cell[c] = NAN;
                if (x->kind == TC_OURS && !(text = our_cell(l, key, x, &cell[c], unsupported, error)))
                        return false;
                if (x->kind == TC_PUB)
                        text = published_cell(l, key, x, &cell[c]);
                g_ptr_array_add(texts, text);
        }
        for (guint c = 0; c < cols->len; c++) {
                const TableCol *x = &g_array_index(cols, TableCol, c);
                if (x->kind == TC_RATIO || x->kind == TC_PUB_RATIO) {
                        g_free(texts->pdata[c]);
                        texts->pdata[c] = format_value(x->den < cols->len ? cell[x->num] / cell[x->den] : NAN, -1);
                }
                g_string_append_printf(tex, " & %s", texts->pdata[c] ? (char *) texts->pdata[c] : "--");
        }
        g_string_append(tex, " \\\\\n");
        return true;
}

static char *table_tex(const Experiment *exp, const Output *o, const Table *t, const char *path,
                       const RenderInputs *in, GError **error)
{
        g_auto(TableLayout) l = { 0 };
        if (!render_table_layout(&l, exp, o, t, path, in, error))
                return NULL;
        g_autofree char *src = o->published ? render_latex_escape(o->published_title ? o->published_title : o->published)
                                            : NULL;
        g_autoptr(GString) tex = g_string_new(NULL);
        bool unsupported = false;

        head_groups(&l, src, tex);
        head_row(&l, src, tex);
        for (guint k = 0; k < l.keys->len; k++)
                if (!body_row(&l, l.keys->pdata[k], tex, &unsupported, error))
                        return NULL;
        if (o->published_columns)
                published_rows(o, l.pub, l.psel, l.cols, l.values, l.factor, tex, l.nl);
        if (o->also && !also_row(exp, o, in, l.cols, l.values, l.factor, tex, l.nl, error))
                return NULL;
        if (unsupported) {
                /* A note as wide as it is, the columns as they are. */
                g_autofree char *note = g_strdup_printf("In parentheses: a percentile with fewer than %d values beyond "
                                                        "it in a repetition, which says little.", STATS_TAIL_MIN);
                g_autofree char *cell = wrap_cell(note, 56, true);
                g_string_append_printf(tex, "\\midrule\n\\multicolumn{%u}{@{}l@{}}{\\makebox[0pt][l]{\\footnotesize %s}} "
                                       "\\\\\n", l.nl + l.cols->len, cell);
        }
        g_string_append(tex, "\\bottomrule\n\\end{tabular}\n");
        return g_string_free(g_steal_pointer(&tex), FALSE);
}

char *render_table(const char *file, const char *name, const RenderInputs *in, GError **error)
{
        const Output *o = NULL;
        g_autoptr(Experiment) exp = render_load_output(file, name, true, &o, error);
        g_autoptr(Table) t = exp ? table_read(in->summary, error) : NULL;

        return t ? table_tex(exp, o, t, in->summary, in, error) : NULL;
}
