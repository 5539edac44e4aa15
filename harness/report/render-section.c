/* render-section.c: `ipclab section` (render.h): the LaTeX section of
 * an experiment, with the captions of its figures and tables.
 */
#include "render.h"
#include "render-internal.h"

#include <math.h>
#include <string.h>

#include "columns.h"
#include "experiment.h"
#include "figure.h"
#include "latex.h"
#include "meta.h"
#include "samples.h"
#include "select.h"
#include "stats.h"
#include "style.h"
#include "verify.h"

/* The distinct values of column COL among the rows of T that SEL keeps
 * (NULL: every row), "-" left out, in the experiment's order; the
 * strings are T's. */
static GPtrArray *data_values(const Experiment *exp, const Table *t, const Selector *sel, const char *col)
{
        GPtrArray *vals = g_ptr_array_new();
        int c = table_column(t, col);

        for (guint r = 0; c >= 0 && r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                bool seen = !strcmp(row[c], "-") || (sel && !select_row(sel, t, row));
                for (guint i = 0; i < vals->len && !seen; i++)
                        seen = !strcmp(vals->pdata[i], row[c]);
                if (!seen)
                        g_ptr_array_add(vals, row[c]);
        }
        for (guint i = 0; i < vals->len; i++)
                for (guint j = i + 1; j < vals->len; j++)
                        if (render_axis_rank(exp, col, vals->pdata[j]) < render_axis_rank(exp, col, vals->pdata[i])) {
                                gpointer tmp = vals->pdata[i];
                                vals->pdata[i] = vals->pdata[j];
                                vals->pdata[j] = tmp;
                        }
        return vals;
}

/* VALS of AXIS as LaTeX: "64~B, 4~KiB". */
static char *values_tex(const char *axis, GPtrArray *vals)
{
        GString *s = g_string_new(NULL);

        for (guint i = 0; i < vals->len; i++) {
                g_autofree char *v = style_value_text(axis, vals->pdata[i], true);
                g_string_append_printf(s, "%s%s", i ? ", " : "", v);
        }
        return g_string_free(s, FALSE);
}

/* The fewest and most repetitions (the summary's n) of the rows of T that
 * SEL keeps, and their failed repetitions. */
static void data_repetitions(const Table *t, const Selector *sel, guint *lo, guint *hi, double *failed)
{
        int nc = table_column(t, "n"), fc = table_column(t, "failed");

        *lo = *hi = 0;
        *failed = 0;
        for (guint r = 0; nc >= 0 && r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                double n = render_number(row[nc]);
                if ((sel && !select_row(sel, t, row)) || isnan(n))
                        continue;
                *lo = *lo && *lo <= n ? *lo : (guint) n;
                *hi = MAX(*hi, (guint) n);
                if (fc >= 0 && !isnan(render_number(row[fc])))
                        *failed += render_number(row[fc]);
        }
}

/* The pattern every row of T that SEL keeps has, or NULL. */
static const char *data_pattern(const Table *t, const Selector *sel)
{
        int pc = table_column(t, "pattern");
        const char *pattern = NULL;
        bool first = true;

        for (guint r = 0; pc >= 0 && r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                if (sel && !select_row(sel, t, row))
                        continue;
                if (first)
                        pattern = row[pc];
                else if (pattern && strcmp(pattern, row[pc]))
                        pattern = NULL;
                first = false;
        }
        return pattern;
}

/* The labels of COLUMNS (axes), escaped: "transport and message size". */
static char *labels_tex(char **columns)
{
        GString *s = g_string_new(NULL);
        guint n = columns ? g_strv_length(columns) : 0;

        for (guint i = 0; i < n; i++) {
                g_autofree char *l = render_column_label(columns[i], false);
                g_autofree char *e = render_latex_escape(l);
                g_string_append_printf(s, "%s%s", i ? (i + 1 < n ? ", " : " and ") : "", e);
        }
        return g_string_free(s, FALSE);
}

/* The caption of table O of EXP drawn from summary T, when the file gives
 * none: its values with their units, what makes its rows and columns,
 * the cells it shows, what its extra columns and rows are. */
static char *table_caption(const Experiment *exp, const Output *o, const Table *t)
{
        g_autoptr(Selector) sel = select_parse(o->where, SELECT_AXES, NULL);
        const char *pattern = data_pattern(t, sel);
        char **values = o->columns_axis ? o->values : o->columns;
        guint nvals = g_strv_length(values);
        GString *s = g_string_new(NULL);

        for (guint i = 0; i < nvals; i++) {
                g_autofree char *h = render_value_head(values[i], render_table_unit(o, i, t, sel), pattern,
                                                render_in_list(o->per_message, values[i]));
                g_string_append_printf(s, "%s%s", i ? (i + 1 < nvals ? ", " : " and ") : "", h);
        }
        s->str[0] = g_ascii_toupper(s->str[0]);
        g_autofree char *rows = labels_tex(o->rows);
        g_string_append_printf(s, ": a row per %s", rows);
        if (o->columns_axis) {
                char *axis[] = { o->columns_axis, NULL };
                g_autofree char *across = labels_tex(axis);
                g_string_append_printf(s, ", a column per %s%s", across, nvals > 1 ? " (each a group of the values)" : "");
        }
        g_autofree char *name = render_latex_escape(exp->name);
        g_autofree char *where = o->where ? render_latex_escape(o->where) : NULL;
        g_string_append_printf(s, "; %s of experiment \\texttt{%s}", where ? "the cells" : "every cell", name);
        if (where)
                g_string_append_printf(s, " where \\texttt{%s}", where);
        g_string_append(s, ": medians over the repetitions");
        for (guint i = 0; o->per_message && o->per_message[i]; i++) {
                g_autofree char *l = render_column_label(o->per_message[i], false);
                g_autofree char *e = render_latex_escape(l);
                g_string_append_printf(s, "%s%s", i ? ", " : " (per message: ", e);
                if (!o->per_message[i + 1])
                        g_string_append(s, ", over the messages delivered)");
        }
        if (o->intervals) {
                guint lo, hi;
                double failed;
                data_repetitions(t, sel, &lo, &hi, &failed);
                g_autofree char *bars = render_interval_text(lo, hi);
                g_autofree char *e = render_latex_escape(bars + strlen("error bars: "));
                g_string_append_printf(s, ", each with its interval beneath it: %s", g_str_has_prefix(bars, "error bars: ") ? e : "");
        }
        for (guint i = 0; o->ratio && o->ratio[i]; i++) {
                g_auto(GStrv) nd = g_strsplit(o->ratio[i], "/", 2);
                g_autofree char *num = render_latex_escape(g_strstrip(nd[0]));
                g_autofree char *den = render_latex_escape(nd[1] ? g_strstrip(nd[1]) : "");
                g_string_append_printf(s, "; \\ensuremath{\\times}%s: %s's value over %s's", den, num, den);
        }
        if (o->published) {
                g_autofree char *src = render_latex_escape(o->published_title ? o->published_title : o->published);
                g_string_append_printf(s, "; %s: the numbers published (%s), in our unit",
                                       o->published_columns ? "rows below" : "last columns", src);
        }
        if (o->also) {
                g_autofree char *title = render_latex_escape(o->also_title ? o->also_title : o->also);
                g_autofree char *also = render_latex_escape(o->also);
                g_autofree char *aw = o->also_where ? render_latex_escape(o->also_where) : NULL;
                g_string_append_printf(s, "; last row: %s (experiment \\texttt{%s}%s%s%s)", title, also,
                                       aw ? ", the cells where \\texttt{" : "", aw ? aw : "", aw ? "}" : "");
        }
        g_string_append_c(s, '.');
        return g_string_free(s, FALSE);
}

/* The caption of figure O of EXP when the file gives none: what is drawn
 * against what, which cells; then, from `ipclab plot`'s facts (ipclab.sty's
 * \ipclabFact), what the encodings and error bars are. */
static char *figure_caption(const Experiment *exp, const Output *o, const Table *t)
{
        g_autoptr(Selector) sel = select_parse(o->where, SELECT_AXES, NULL);
        const char *pattern = data_pattern(t, sel);
        GString *s = g_string_new(NULL);

        if (o->type != FIGURE_LINE) {
                g_string_append(s, o->type == FIGURE_SPECTRUM ? "Latency against percentile, every message of a cell's "
                                                                "repetitions pooled"
                                                              : "Distribution of latency, every message of a cell's "
                                                                "repetitions pooled");
        } else {
                for (guint i = 0; o->y[i]; i++) {
                        g_autofree char *l = render_column_label_of(o->y[i], true, pattern);
                        g_autofree char *e = render_latex_escape(l);
                        g_string_append_printf(s, "%s%s%s", i ? (o->y[i + 1] ? ", " : " and ") : "",
                                               o->y[1] ? (char[]) { '(', (char) ('a' + i), ')', ' ', 0 } : "", e);
                }
                s->str[0] = g_ascii_toupper(s->str[0]);
                g_autofree char *x = render_column_label(o->x, false);
                g_autofree char *xe = render_latex_escape(x);
                g_string_append_printf(s, " against %s", xe);
        }
        g_autofree char *name = render_latex_escape(exp->name);
        g_autofree char *where = o->where ? render_latex_escape(o->where) : NULL;
        g_string_append_printf(s, "; %s of experiment \\texttt{%s}", where ? "the cells" : "every cell", name);
        if (where)
                g_string_append_printf(s, " where \\texttt{%s}", where);
        g_string_append(s, o->type == FIGURE_LINE ? ": medians over the repetitions." : ".");
        return g_string_free(s, FALSE);
}

/* What the data of EXP (summary T, meta.ini META or NULL) hold, as the
 * section says it: the profile measured, the messages of a repetition,
 * the repetitions of the cells, the warm-up. */
static void describe_run(GString *tex, const Experiment *exp, const Table *t, GKeyFile *meta)
{
        g_autofree char *profile = meta ? g_key_file_get_value(meta, "experiment", "profile", NULL) : NULL;
        g_autofree char *warmup = meta ? g_key_file_get_value(meta, "resolved", "warmup", NULL) : NULL;
        g_autofree char *repeat = meta ? g_key_file_get_value(meta, "resolved", "repeat", NULL) : NULL;
        g_autoptr(GPtrArray) counts = data_values(exp, t, NULL, "count");
        g_autoptr(GPtrArray) durations = data_values(exp, t, NULL, "duration_ns");
        g_autoptr(GString) run = g_string_new(NULL);
        guint lo, hi;
        double failed;

        if (profile && strcmp(profile, "default")) {
                g_autofree char *p = render_latex_escape(profile);
                g_string_append_printf(tex, "These data were measured with the file's profile \\texttt{%s}, "
                                       "not its default.\n", p);
        } else if (!meta) {
                g_string_append(tex, "(Which profile measured these data is not known here: no meta.ini.)\n");
        }
        if (counts->len) {
                g_autofree char *c = values_tex("count", counts);
                g_string_append_printf(run, "a repetition exchanged %s messages", c);
        }
        if (durations->len) {
                g_autofree char *d = values_tex("duration_ns", durations);
                g_string_append_printf(run, "%sa repetition ran for %s", counts->len ? ", or " : "", d);
        }
        g_autofree char *w = warmup ? render_latex_escape(warmup) : g_strdup_printf("%u", exp->warmup);
        g_string_append_printf(run, " after %s warm-up messages", w);
        data_repetitions(t, NULL, &lo, &hi, &failed);
        if (lo == hi)
                g_string_append_printf(run, "; the data hold %u repetition%s of each of %u cells", lo, lo == 1 ? "" : "s",
                                       t->rows->len);
        else
                g_string_append_printf(run, "; the data hold %u to %u repetitions of each of %u cells", lo, hi,
                                       t->rows->len);
        if (repeat && !strcmp(repeat, "auto"))
                g_string_append(run, " (repeated until the median's 95\\,\\% interval was narrow enough)");
        if (failed > 0)
                g_string_append_printf(run, ", and %.0f repetitions failed", failed);
        run->str[0] = g_ascii_toupper(run->str[0]);
        g_string_append_printf(tex, "%s.\n", run->str);
        if (hi && lo < 6) {
                g_autofree char *bars = render_interval_text(lo, hi);
                g_autofree char *e = render_latex_escape(bars + strlen("error bars: "));
                if (g_str_has_prefix(bars, "error bars: "))
                        g_string_append_printf(tex, "An interval here is %s (95\\,\\%% needs 6 repetitions).\n", e);
        }
}

static char *section_tex(const Experiment *exp, const Table *t, GKeyFile *meta)
{
        GString *tex = g_string_new(NULL);
        g_autofree char *title = render_latex_escape(exp->title);
        g_autofree char *escaped = render_latex_escape(exp->path);
        /* A long path may break after a slash. */
        g_auto(GStrv) parts = g_strsplit(escaped, "/", -1);
        g_autofree char *path = g_strjoinv("/\\allowbreak{}", parts);
        g_autofree char *ename = render_latex_escape(exp->name);

        g_string_append_printf(tex, "%% section-%s.tex: generated by `ipclab section` from %s.\n"
                               "%% Write paper/sections/%s.tex to replace it.\n", exp->name, exp->path, exp->name);
        g_string_append_printf(tex, "\\section{%s}\n\\label{sec:%s}\n\n", title, exp->name);
        if (exp->source) {
                g_autofree char *src = render_latex_escape(exp->source);
                g_string_append_printf(tex, "This experiment follows the published measurement \\texttt{%s}.\n", src);
        }
        g_string_append_printf(tex, "Experiment \\texttt{%s} (\\texttt{%s}) measured %u cells", ename, path,
                               t->rows->len);
        /* What varied among the cells measured, and what every cell (where
         * the axis applies) had. */
        GString *same = g_string_new(NULL);
        guint n_vary = 0;
        for (const Column *c = column_table; c->name; c++) {
                if (c->kind != COLUMN_AXIS || !strcmp(c->name, "count") || !strcmp(c->name, "duration_ns"))
                        continue;
                g_autoptr(GPtrArray) vals = data_values(exp, t, NULL, c->name);
                if (!vals->len)
                        continue;
                g_autofree char *l = render_latex_escape(c->label);
                g_autofree char *v = values_tex(c->name, vals);
                if (vals->len > 1)
                        g_string_append_printf(tex, "%s\\item %s: %s\n", n_vary++ ? "" : "; what varied:\n\\begin{itemize}\n",
                                               l, v);
                else
                        g_string_append_printf(same, "%s%s %s", same->len ? "; " : "", l, v);
        }
        g_string_append(tex, n_vary ? "\\end{itemize}\n" : ".\n");
        if (same->len)
                g_string_append_printf(tex, "Every cell had (where it applies): %s.\n", same->str);
        g_string_free(same, TRUE);
        describe_run(tex, exp, t, meta);
        g_string_append_c(tex, '\n');
        for (guint i = 0; i < exp->outputs->len; i++) {
                const Output *o = exp->outputs->pdata[i];
                g_autofree char *body = o->caption ? render_latex_escape(o->caption)
                                      : o->is_table ? table_caption(exp, o, t) : figure_caption(exp, o, t);
                g_autofree char *head = o->title ? render_latex_escape(o->title) : NULL;
                g_autofree char *cap = head ? g_strdup_printf("\\textbf{%s.} %s", head, body) : g_strdup(body);
                if (o->is_table)
                        g_string_append_printf(tex, "\\begin{table}[htbp]\n\\centering\n\\caption{%s}\n\\label{tab:%s-%s}\n"
                                               "\\ipclabTable{%s-%s}\n\\end{table}\n\n", cap, exp->name, o->name,
                                               exp->name, o->name);
                else
                        g_string_append_printf(tex, "\\begin{figure}[htbp]\n\\centering\n\\ipclabFigure{%s-%s}\n"
                                               "\\caption{%s \\ipclabFact{%s-%s}{encoding} \\ipclabFact{%s-%s}{intervals} "
                                               "\\ipclabFact{%s-%s}{left-out}}\n\\label{fig:%s-%s}\n\\end{figure}\n\n",
                                               exp->name, o->name, cap, exp->name, o->name, exp->name, o->name,
                                               exp->name, o->name, exp->name, o->name);
        }
        if (exp->claims->len) {
                g_string_append(tex, "\\paragraph{Claims.}\nWe asked before measuring whether:\n\\begin{itemize}\n");
                for (guint i = 0; i < exp->claims->len; i++) {
                        const Claim *cl = exp->claims->pdata[i];
                        g_autofree char *text = render_latex_escape(cl->text);
                        g_autofree char *macro = latex_macro_name(cl->name);
                        g_autofree char *name = render_latex_escape(cl->name);
                        g_string_append_printf(tex, "\\item %s \\ipclabClaim{%s}{%s}.\n", text, macro, name);
                }
                g_string_append(tex, "\\end{itemize}\n");
        }
        return g_string_free(tex, FALSE);
}

char *render_section(const char *file, const RenderInputs *in, GError **error)
{
        g_autoptr(Experiment) exp = experiment_load_anywhere(file, error);
        g_autoptr(Table) t = exp ? table_read(in->summary, error) : NULL;
        if (!t)
                return NULL;
        g_autoptr(GKeyFile) meta = in->meta ? meta_read(in->meta, error) : NULL;
        if (in->meta && !meta)
                return NULL;
        return section_tex(exp, t, meta);
}
