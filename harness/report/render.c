/* render.c: `ipclab plot`, `ipclab table` and `ipclab section` (render.h).
 *
 * The figure and table an experiment declares (figure.h) are drawn from a
 * summary (`ipclab summarize`), read by column name: the rows its where=
 * keeps, grouped into series by the series axes, ordered as the file lists
 * the values.  Labels and units come from the column schema (columns.h).
 */
#include "render.h"

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

char *render_latex_escape(const char *s)
{
        GString *out = g_string_new(NULL);

        for (const char *p = s ? s : ""; *p; p++) {
                switch (*p) {
                case '\\': g_string_append(out, "\\textbackslash{}"); break;
                case '{': case '}': case '$': case '&': case '#': case '%': case '_':
                        g_string_append_c(out, '\\');
                        g_string_append_c(out, *p);
                        break;
                case '^': g_string_append(out, "\\textasciicircum{}"); break;
                case '~': g_string_append(out, "\\textasciitilde{}"); break;
                case '<': g_string_append(out, "\\textless{}"); break;
                case '>': g_string_append(out, "\\textgreater{}"); break;
                default: g_string_append_c(out, *p);
                }
        }
        return g_string_free(out, FALSE);
}

/* "FILE:LINE" of O's group in EXP's file, for messages (FILE alone for
 * a default output, which has no line). */
static char *where_at(const Experiment *exp, const Output *o)
{
        return o->line ? g_strdup_printf("%s:%u", exp->path, o->line) : g_strdup(exp->path);
}

/* S as a number, or NAN: a finite decimal number (samples_parse_number:
 * no "inf", no hexadecimal, nothing beyond 1e300), so that what reaches
 * a gnuplot expression (a range, a tic) is one. */
static double number(const char *s)
{
        double v;

        return s && samples_parse_number(s, &v) ? v : NAN;
}

/* The experiment of FILE and its output NAME (a table when TABLE). */
static Experiment *load_output(const char *file, const char *name, bool table, const Output **out,
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

static int need_column(const Table *t, const char *path, const char *name, GError **error)
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
                        if (number(vals->pdata[j]) < number(vals->pdata[i])) {
                                gpointer tmp = vals->pdata[i];
                                vals->pdata[i] = vals->pdata[j];
                                vals->pdata[j] = tmp;
                        }
        return vals;
}

/* Where VALUE of AXIS comes in the experiment's order: numbers by value,
 * names by axis_order (env: host, nspawn, vm). */
static double axis_rank(const Experiment *exp, const char *axis, const char *value)
{
        double v = number(value);

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

/* The label of column NAME with its unit, for an axis or a table head;
 * times (ns) are labelled without a unit, their tics carry it.  The
 * schema's latency columns hold round trips or one-way transit times,
 * by the cell's pattern: with PATTERN (of every row drawn; NULL when
 * mixed or unknown) the label says which. */
static const char *label_kind(const Column *c, const char *pattern)
{
        if (!c || !pattern || !g_str_has_prefix(c->label, "latency"))
                return "";
        return !strcmp(pattern, "roundtrip") ? "round-trip " : !strcmp(pattern, "oneway") ? "one-way " : "";
}

static char *column_label_of(const char *name, bool time_tics, const char *pattern)
{
        const Column *c = column_find(name);
        if (!c)
                c = column_find_key(name);
        if (!c)
                return g_strdup(name);
        const char *kind = label_kind(c, pattern);
        if (!c->unit[0] || (time_tics && !strcmp(c->unit, "ns")) || c->kind == COLUMN_AXIS)
                return g_strconcat(kind, c->label, NULL);
        return g_strdup_printf("%s%s (%s)", kind, c->label, c->unit);
}

static char *column_label(const char *name, bool time_tics)
{
        return column_label_of(name, time_tics, NULL);
}

/* The characters of S as gnuplot reads them in a literal (QUOTED: a '
 * doubled) or a comment: a control character becomes a space, since a
 * newline or carriage return would end the line, and with it the literal
 * or the comment. */
static void gp_text(GString *out, const char *s, bool quoted)
{
        for (const char *p = s ? s : ""; *p; p++) {
                if (*p == '\'' && quoted)
                        g_string_append(out, "''");
                else if ((guchar) *p < 0x20 || *p == 0x7f)
                        g_string_append_c(out, ' ');
                else
                        g_string_append_c(out, *p);
        }
}

/* S as a gnuplot string literal: the one door of every value into a
 * generated gnuplot script (titles, labels, tics, names, the arguments of
 * common.gp's style functions), never a value inside an expression.
 * Single-quoted: gnuplot 5.4 substitutes backquoted commands and expands
 * @macros in double-quoted strings and nowhere in single-quoted ones,
 * where only '' stands for a quote (its scanner); a backslash is itself.
 * The literal ends with its closing quote, on the line it began. */
static void gp_string(GString *out, const char *s)
{
        g_string_append_c(out, '\'');
        gp_text(out, s, true);
        g_string_append_c(out, '\'');
}

/* A comment line "# S": S's characters as gp_text() gives them, and a
 * space after a last backslash, which would continue the comment onto
 * the next line. */
static void gp_comment(GString *out, const char *s)
{
        g_string_append(out, "# ");
        gp_text(out, s, false);
        if (g_str_has_suffix(out->str, "\\"))
                g_string_append_c(out, ' ');
        g_string_append_c(out, '\n');
}

char *render_gnuplot_string(const char *s)
{
        GString *out = g_string_new(NULL);
        gp_string(out, s);
        return g_string_free(out, FALSE);
}

static void gp_number(GString *out, double v)
{
        char buf[G_ASCII_DTOSTR_BUF_SIZE];

        if (isnan(v))
                g_string_append(out, "NaN");
        else
                g_string_append(out, g_ascii_formatd(buf, sizeof buf, "%.9g", v));
}

/* ---- plot ------------------------------------------------------------------ */

typedef struct {
        double x, y, lo, hi;
} Point;

typedef enum {
        LINE_SERIES,     /* cells of the summary: one line per series values */
        LINE_FLOOR,      /* transport=direct as the harness floor */
        LINE_MEMCPY,     /* the memcpy bound */
        LINE_PUBLISHED,  /* published numbers */
        LINE_ALSO,       /* another experiment's cells, for reference */
} LineKind;

typedef struct {
        LineKind kind;
        char *key;          /* what makes it one line: its values, tab-separated */
        char *title;        /* its key entry; NULL: none (a reproduction's committed data) */
        char **vals;        /* LINE_SERIES: the values of the plot's series axes */
        double rank[12];
        guint n_rank;
        GArray *pts;        /* Point */
        bool errorbars;
        bool grey;          /* --compare: the committed data, grey beneath the reproduction */
        bool across;        /* a reference drawn edge to edge */
        Style style;        /* set by style_figure() */
        double width;       /* 0: the default */
} Line;

static void line_free(Line *l)
{
        g_free(l->key);
        g_free(l->title);
        g_strfreev(l->vals);
        g_array_unref(l->pts);
        g_free(l);
}

static Line *line_new(const char *key, LineKind kind)
{
        Line *l = g_new0(Line, 1);
        l->key = g_strdup(key);
        l->kind = kind;
        l->pts = g_array_new(FALSE, FALSE, sizeof(Point));
        return l;
}

static int line_cmp(gconstpointer a, gconstpointer b)
{
        const Line *x = *(Line *const *) a, *y = *(Line *const *) b;

        for (guint i = 0; i < x->n_rank && i < y->n_rank; i++)
                if (x->rank[i] != y->rank[i])
                        return x->rank[i] < y->rank[i] ? -1 : 1;
        return 0;
}

static int point_cmp(gconstpointer a, gconstpointer b)
{
        const Point *x = a, *y = b;
        return x->x < y->x ? -1 : x->x > y->x;
}

/* What the plot draws, gathered before any gnuplot is written. */
typedef struct {
        const Experiment *exp;
        const Output *out;
        char **axes;           /* the series axes: the output's, and kind on a latency
                                * figure that has both kinds */
        double y_scale;        /* ns -> s: 1e-9 */
        bool y_time;
        double x_scale;
        bool x_time, x_size, x_categorical;
        GPtrArray *categories; /* char *: the x values of a text axis, in order */
        GPtrArray *panels;     /* GPtrArray of Line *, one per y column */
        double xmin, xmax, ymin, ymax;
        double *pymin, *pymax; /* each panel's y range, of the first n_panels */
        guint n_panels, cur;   /* panels with a range; the one being filled */
        double spectrum_max;   /* where a spectrum draws the maximum */
        char *pattern;         /* the pattern of every row drawn, "" when mixed */
        guint n_min, n_max;    /* repetitions behind the error bars drawn */
        guint left_out;        /* points of a percentile too few values support */
        Encoding *enc;         /* how the series lines are told apart */
} Plot;

/* Notes the pattern of a row drawn (the pattern column PC of ROW). */
static void note_pattern(Plot *p, const Table *t, char **row)
{
        int pc = table_column(t, "pattern");
        const char *v = pc >= 0 ? row[pc] : "";
        if (!p->pattern)
                p->pattern = g_strdup(v);
        else if (strcmp(p->pattern, v))
                p->pattern[0] = '\0';
}

/* The pattern every row drawn shares, or NULL. */
static const char *plot_pattern(const Plot *p)
{
        return p->pattern && p->pattern[0] ? p->pattern : NULL;
}

static void extend(Plot *p, double x, double y)
{
        if (!isnan(x) && x > 0) {
                p->xmin = MIN(p->xmin, x);
                p->xmax = MAX(p->xmax, x);
        }
        if (!isnan(y) && y > 0) {
                p->ymin = MIN(p->ymin, y);
                p->ymax = MAX(p->ymax, y);
                if (p->cur < p->n_panels) {
                        p->pymin[p->cur] = MIN(p->pymin[p->cur], y);
                        p->pymax[p->cur] = MAX(p->pymax[p->cur], y);
                }
        }
}

/* Do the panels share their y axis?  When their columns are one
 * quantity ("round-trip latency, median" and "..., 99th percentile"):
 * then the label is what the columns' labels share before the comma,
 * in *SHARED (newly allocated; else the first column's). */
static bool panels_share_y(const Plot *p, char **shared)
{
        const Output *o = p->out;
        bool share = true;

        *shared = o->type == FIGURE_LINE ? column_label_of(o->y[0], p->y_time, plot_pattern(p)) : g_strdup("latency");
        for (guint i = 1; o->type == FIGURE_LINE && o->y[i]; i++) {
                g_autofree char *other = column_label_of(o->y[i], p->y_time, plot_pattern(p));
                const char *comma = strchr(*shared, ',');
                if (comma && !strncmp(*shared, other, (size_t) (comma - *shared)) && other[comma - *shared] == ',')
                        (*shared)[comma - *shared] = '\0';
                else if (strcmp(*shared, other))
                        share = false;
        }
        return share;
}

/* The x position of ROW's x value. */
static double x_of(Plot *p, const char *value)
{
        if (p->x_categorical) {
                for (guint i = 0; i < p->categories->len; i++)
                        if (!strcmp(p->categories->pdata[i], value))
                                return i + 1;
                g_ptr_array_add(p->categories, g_strdup(value));
                return p->categories->len;
        }
        return number(value) * p->x_scale;
}

/* The values of row ROW at columns SC (N of them) as a key
 * "PREFIX\tv1\tv2...". */
static char *row_key(const char *prefix, char **row, const int *sc, guint n)
{
        GString *key = g_string_new(prefix);

        for (guint i = 0; i < n; i++)
                g_string_append_printf(key, "\t%s", row[sc[i]]);
        return g_string_free(key, FALSE);
}

/* A series line of the values VALS of AXES, titled by them all until
 * style_figure() titles it by what varies. */
static Line *series_line(Plot *p, const char *key, char **axes, char **vals)
{
        Line *l = line_new(key, LINE_SERIES);
        GString *title = g_string_new(NULL);

        l->vals = g_strdupv(vals);
        for (guint i = 0; axes[i]; i++) {
                if (!strcmp(vals[i], "-"))
                        continue;
                g_autofree char *v = style_value_text(axes[i], vals[i], false);
                g_string_append_printf(title, "%s%s", title->len ? ", " : "", v);
                if (l->n_rank < G_N_ELEMENTS(l->rank))
                        l->rank[l->n_rank++] = axis_rank(p->exp, axes[i], vals[i]);
        }
        l->title = g_string_free(title, FALSE);
        return l;
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

/* Do the values behind percentile column NAME of summary row ROW of T
 * support it (stats_quantile_supported)?  A repetition holds the
 * latencies of its messages; the pooled columns hold every repetition's.
 * TRUE for a column that is no percentile, or when the counts are not
 * known. */
static bool percentile_supported(const Table *t, char **row, const char *name)
{
        bool pooled;
        double q = column_quantile(name, &pooled);
        int mc = table_column(t, "messages"), nc = table_column(t, "n");
        double m = mc >= 0 ? number(row[mc]) : NAN, n = nc >= 0 ? number(row[nc]) : NAN;

        if (isnan(q) || isnan(m))
                return true;
        return stats_quantile_supported(pooled && !isnan(n) ? m * n : m, q);
}

/* Adds the rows of T (PATH) that SEL keeps to PANEL as lines by the
 * plot's series, plotting column Y; with bounds=direct, transport=direct
 * rows become the floor (one per value of the series axes other than
 * transport and bus: the floor of byte arrays and that of strings).
 * FALSE with ERROR when two rows of a line share an x (the selection
 * leaves an axis out). */
static gboolean add_rows(Plot *p, GPtrArray *panel, const Table *t, const char *path, const Selector *sel,
                         const char *y, bool grey, const char *prefix, GError **error)
{
        const Output *o = p->out;
        int xc = need_column(t, path, o->x, error);
        int yc = xc < 0 ? -1 : need_column(t, path, y, error);
        if (yc < 0)
                return FALSE;
        g_autofree char *lo_name = g_strconcat(y, "_lo", NULL);
        g_autofree char *hi_name = g_strconcat(y, "_hi", NULL);
        const Column *ycol = column_find(y);
        int loc = table_column(t, lo_name), hic = table_column(t, hi_name), nc = table_column(t, "n");
        bool bars = o->errorbars && ycol && (ycol->flags & COLUMN_HAS_CI) && loc >= 0 && hic >= 0;
        guint ns = g_strv_length(p->axes);
        g_autofree int *sc = g_new(int, ns + 1);
        for (guint i = 0; i < ns; i++)
                if ((sc[i] = need_column(t, path, p->axes[i], error)) < 0)
                        return FALSE;
        int tc = table_column(t, "transport");
        g_autoptr(GHashTable) by_key = g_hash_table_new(g_str_hash, g_str_equal);

        for (guint r = 0; r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                if (sel && !select_row(sel, t, row))
                        continue;
                if (!grey)
                        note_pattern(p, t, row);
                bool floor = o->bound_direct && tc >= 0 && !strcmp(row[tc], "direct");
                g_autofree char **vals = g_new0(char *, ns + 1);
                for (guint i = 0; i < ns; i++)
                        vals[i] = row[sc[i]];
                g_autofree char *key = row_key(prefix, row, sc, ns);
                g_autoptr(GString) floor_of = g_string_new(NULL);
                for (guint i = 0; floor && i < ns; i++)
                        if (strcmp(p->axes[i], "transport") && strcmp(p->axes[i], "bus"))
                                g_string_append_printf(floor_of, ", %s", row[sc[i]]);
                if (floor) {
                        g_free(key);
                        key = g_strdup_printf("floor%s", floor_of->str);
                }
                Line *l = g_hash_table_lookup(by_key, key);
                if (!l) {
                        if (floor) {
                                l = line_new(key, LINE_FLOOR);
                                l->title = g_strdup_printf("harness floor (direct)%s", floor_of->str);
                                l->rank[l->n_rank++] = -1;
                        } else {
                                l = series_line(p, key, p->axes, vals);
                        }
                        l->grey = grey;
                        l->errorbars = bars;
                        g_ptr_array_add(panel, l);
                        g_hash_table_insert(by_key, l->key, l);
                }
                if (!percentile_supported(t, row, y)) {
                        p->left_out += !grey;
                        continue;
                }
                Point pt = { x_of(p, row[xc]), number(row[yc]) * p->y_scale, NAN, NAN };
                if (bars) {
                        pt.lo = number(row[loc]) * p->y_scale;
                        pt.hi = number(row[hic]) * p->y_scale;
                        double n = nc >= 0 ? number(row[nc]) : NAN;
                        if (!grey && !isnan(pt.lo) && !isnan(pt.hi) && n >= 1) {
                                p->n_min = p->n_min ? MIN(p->n_min, (guint) n) : (guint) n;
                                p->n_max = MAX(p->n_max, (guint) n);
                        }
                }
                for (guint i = 0; i < l->pts->len; i++)
                        if (g_array_index(l->pts, Point, i).x == pt.x) {
                                g_autofree char *at = where_at(p->exp, o);
                                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                            "%s: [%s] series: %s has two rows of the line '%s' at %s=%s: add the "
                                            "axis in which they differ to series= or where=", at, o->group, path,
                                            l->title ? l->title : key, o->x, row[xc]);
                                return FALSE;
                        }
                g_array_append_val(l->pts, pt);
                extend(p, pt.x, pt.y);
                extend(p, NAN, pt.lo);
                extend(p, NAN, pt.hi);
        }
        return TRUE;
}

/* The memcpy bound for the rows SEL keeps, for Y's unit: the time memcpy
 * takes to copy the message once each way (request and reply on a round
 * trip), per message, or for all of a repetition's messages when Y is
 * elapsed_ns (one line per message count then); or memcpy's bandwidth
 * for a throughput; or the messages per second it allows for a rate. */
static void add_memcpy(Plot *p, GPtrArray *panel, const Table *t, const Selector *sel, const char *y)
{
        const Column *ycol = column_find(y);
        int sc = table_column(t, "size_B"), mc = table_column(t, "memcpy_MiBps"), pc = table_column(t, "pattern");
        int nc = table_column(t, "messages");
        bool total = !strcmp(y, "elapsed_ns");
        if (!ycol || sc < 0 || mc < 0 || (total && nc < 0) ||
            (strcmp(ycol->unit, "ns") && strcmp(ycol->unit, "MiB/s") && strcmp(ycol->unit, "1/s")))
                return;
        bool roundtrip = true, any = false;
        for (guint r = 0; r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                if ((!sel || select_row(sel, t, row)) && !isnan(number(row[mc]))) {
                        roundtrip &= pc >= 0 && strcmp(row[pc], "oneway") != 0;
                        any = true;
                }
        }
        if (!any)
                return;
        g_autoptr(GHashTable) by = g_hash_table_new(g_str_hash, g_str_equal);
        guint first = panel->len;
        double copies = roundtrip ? 2 : 1;
        for (guint r = 0; r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                double size = number(row[sc]), mib = number(row[mc]), msgs = total ? number(row[nc]) : 1;
                if ((sel && !select_row(sel, t, row)) || !(size > 0) || !(mib > 0) || !(msgs > 0))
                        continue;
                const char *key = total ? row[nc] : "";
                Line *l = g_hash_table_lookup(by, key);
                if (!l) {
                        l = line_new(key, LINE_MEMCPY);
                        l->width = 1.6;
                        g_ptr_array_add(panel, l);
                        g_hash_table_insert(by, l->key, l);
                }
                bool seen = false;
                for (guint i = 0; i < l->pts->len; i++)
                        seen |= g_array_index(l->pts, Point, i).x == size * p->x_scale;
                if (seen)
                        continue;
                double bytes_per_s = mib * 1048576.0;
                Point pt = { size * p->x_scale, NAN, NAN, NAN };
                pt.y = !strcmp(ycol->unit, "ns") ? msgs * copies * size / bytes_per_s * 1e9 * p->y_scale
                     : !strcmp(ycol->unit, "MiB/s") ? mib : bytes_per_s / size / copies;
                extend(p, NAN, pt.y);
                g_array_append_val(l->pts, pt);
        }
        const char *what = !strcmp(ycol->unit, "MiB/s") ? "memcpy bandwidth"
                         : total ? (roundtrip ? "memcpy of the requests and replies" : "memcpy of the messages")
                         : roundtrip ? "memcpy of request + reply" : "memcpy of the message";
        for (guint i = first; i < panel->len; i++) {
                Line *l = panel->pdata[i];
                l->title = panel->len - first > 1 ? g_strdup_printf("%s, %s messages", what, l->key) : g_strdup(what);
        }
}

/* Published numbers of O beside ours, in PANEL. */
static gboolean add_published(Plot *p, GPtrArray *panel, const char *dir, GError **error)
{
        const Output *o = p->out;
        g_autofree char *path = g_build_filename(dir, o->published, NULL);
        g_autoptr(Table) t = table_read(path, error);
        if (!t)
                return FALSE;
        g_autoptr(Selector) sel = select_parse(o->published_where, SELECT_COLUMNS, error);
        if (!sel || !select_check_table(sel, t, path, error))
                return FALSE;
        int xc = need_column(t, path, o->published_x, error);
        if (xc < 0)
                return FALSE;
        int sc = o->published_series ? table_column(t, o->published_series) : -1;
        g_autofree char *source = o->published_title ? g_strdup(o->published_title)
                                : g_strndup(o->published, strcspn(o->published, "."));
        g_autoptr(GHashTable) by = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        guint ny = g_strv_length(o->published_y);
        /* One line per published_y column and published_series value. */
        for (guint y = 0; y < ny; y++) {
                int yc = need_column(t, path, o->published_y[y], error);
                if (yc < 0)
                        return FALSE;
                const char *head = o->published_heads ? o->published_heads[y] : o->published_y[y];
                for (guint r = 0; r < t->rows->len; r++) {
                        char **row = t->rows->pdata[r];
                        if (!select_row(sel, t, row))
                                continue;
                        const char *k = sc >= 0 ? row[sc] : "";
                        g_autofree char *key = g_strdup_printf("%u\t%s", y, k);
                        Line *l = g_hash_table_lookup(by, key);
                        if (!l) {
                                l = line_new(key, LINE_PUBLISHED);
                                GString *title = g_string_new(NULL);
                                g_string_printf(title, "published (%s)", source);
                                if (ny > 1)
                                        g_string_append_printf(title, ": %s", head);
                                if (sc >= 0)
                                        g_string_append_printf(title, "%s%s", ny > 1 ? ", " : ": ", k);
                                l->title = g_string_free(title, FALSE);
                                g_ptr_array_add(panel, l);
                                g_hash_table_insert(by, g_strdup(key), l);
                        }
                        Point pt = { number(row[xc]) * p->x_scale,
                                     number(row[yc]) * o->published_scales[y] * p->y_scale, NAN, NAN };
                        if (p->x_categorical)
                                pt.x = x_of(p, row[xc]);
                        if (isnan(pt.x) || isnan(pt.y))
                                continue;
                        g_array_append_val(l->pts, pt);
                        extend(p, pt.x, pt.y);
                }
        }
        return TRUE;
}

/* Auto: log where the values span more than about a decade. */
static bool log_scale(Scale s, double lo, double hi)
{
        if (s == SCALE_LOG)
                return lo > 0;
        if (s == SCALE_LINEAR)
                return false;
        return lo > 0 && hi / lo > 12;
}

/* ---- styles of a figure ---------------------------------------------------- */

/* Every line's style: the series lines by style_encode() over the
 * distinct values they have (a reproduction's committed lines as the
 * reproduced ones, in grey), then the bounds and references, each kind
 * in its own colour and dash and told apart by its point. */
static void style_figure(Plot *p)
{
        guint na = g_strv_length(p->axes);
        g_autoptr(GPtrArray) tuples = g_ptr_array_new();     /* char **: distinct values */
        g_autoptr(GHashTable) index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        g_autoptr(GHashTable) extra = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

        for (guint k = 0; k < p->panels->len; k++) {
                GPtrArray *panel = p->panels->pdata[k];
                for (guint i = 0; i < panel->len; i++) {
                        Line *l = panel->pdata[i];
                        if (l->kind != LINE_SERIES)
                                continue;
                        g_autofree char *v = g_strjoinv("\t", l->vals);
                        if (!g_hash_table_contains(index, v)) {
                                g_hash_table_insert(index, g_steal_pointer(&v), GUINT_TO_POINTER(tuples->len));
                                g_ptr_array_add(tuples, l->vals);
                        }
                }
        }
        g_autofree Style *styles = g_new0(Style, tuples->len + 1);
        p->enc = style_encode(p->axes, na, (char *const *const *) tuples->pdata, tuples->len, styles);
        for (guint k = 0; k < p->panels->len; k++) {
                GPtrArray *panel = p->panels->pdata[k];
                guint memcpys = 0;
                for (guint i = 0; i < panel->len; i++) {
                        Line *l = panel->pdata[i];
                        /* Bounds and references: their number among their
                         * kind in the figure, by what they are. */
                        g_autofree char *ek = g_strdup_printf("%d\t%s", l->kind, l->key);
                        if (l->kind != LINE_SERIES && !g_hash_table_contains(extra, ek)) {
                                guint n = 0;
                                GHashTableIter it;
                                gpointer key, val;
                                g_hash_table_iter_init(&it, extra);
                                while (g_hash_table_iter_next(&it, &key, &val))
                                        n += atoi(key) == (int) l->kind;
                                g_hash_table_insert(extra, g_strdup(ek), GUINT_TO_POINTER(n));
                        }
                        guint n = GPOINTER_TO_UINT(g_hash_table_lookup(extra, ek));
                        switch (l->kind) {
                        case LINE_SERIES: {
                                g_autofree char *v = g_strjoinv("\t", l->vals);
                                l->style = styles[GPOINTER_TO_UINT(g_hash_table_lookup(index, v))];
                                g_autofree char *all = l->title;
                                l->title = l->grey ? NULL : style_line_title(p->enc, p->axes, na, l->vals,
                                                                             all && all[0] ? all : "measured");
                                break;
                        }
                        case LINE_FLOOR:
                                l->style = (Style) { STYLE_FLOOR_COLOUR, style_extra_point(n), STYLE_FLOOR_DASH };
                                break;
                        case LINE_MEMCPY:
                                l->style = (Style) { STYLE_MEMCPY_COLOUR, 0,
                                                     memcpys++ ? style_dash(memcpys) : STYLE_MEMCPY_DASH };
                                break;
                        case LINE_PUBLISHED:
                                l->style = (Style) { STYLE_PUBLISHED_COLOUR, style_extra_point(n + 3),
                                                     STYLE_PUBLISHED_DASH };
                                break;
                        case LINE_ALSO:
                                l->style = (Style) { STYLE_ALSO_COLOUR, style_extra_point(n + 1), STYLE_ALSO_DASH };
                                break;
                        }
                        if (l->grey) {
                                l->style.colour = STYLE_COMPARE_COLOUR;
                                g_clear_pointer(&l->title, g_free);
                        }
                }
        }
}

/* What the figure's encodings are, for its caption: the series'
 * channels, then the bounds and references drawn. */
static char *encoding_text(const Plot *p)
{
        GString *s = g_string_new(NULL);
        g_autofree char *series = style_describe(p->enc);
        bool floor = false, published = false, also = false, grey = false;
        const char *memcpy_line = NULL;    /* what the memcpy line is */

        for (guint k = 0; k < p->panels->len; k++) {
                GPtrArray *panel = p->panels->pdata[k];
                for (guint i = 0; i < panel->len; i++) {
                        const Line *l = panel->pdata[i];
                        if (!l->pts->len)
                                continue;
                        floor |= l->kind == LINE_FLOOR;
                        if (l->kind == LINE_MEMCPY && !memcpy_line)
                                memcpy_line = l->title;
                        published |= l->kind == LINE_PUBLISHED;
                        also |= l->kind == LINE_ALSO;
                        grey |= l->grey;
                }
        }
        if (series[0])
                g_string_append(s, series);
        if (floor)
                g_string_append_printf(s, "%sblack dash-dot-dot: the harness floor (direct)", s->len ? "; " : "");
        if (memcpy_line)
                g_string_append_printf(s, "%sgrey dashed, no points: %s", s->len ? "; " : "", memcpy_line);
        if (published) {
                g_autofree char *src = p->out->published_title ? g_strdup(p->out->published_title)
                                     : g_strndup(p->out->published, strcspn(p->out->published, "."));
                g_string_append_printf(s, "%sgrey dash-dot, open points: published (%s)", s->len ? "; " : "", src);
        }
        if (also)
                g_string_append_printf(s, "%sdark grey dotted: %s", s->len ? "; " : "",
                                       p->out->also_title ? p->out->also_title : p->out->also);
        if (grey)
                g_string_append_printf(s, "%slight grey: the committed data beneath the reproduction",
                                       s->len ? "; " : "");
        return g_string_free(s, FALSE);
}

/* The error bars of cells with N_MIN to N_MAX repetitions, as a caption
 * says it: the 95 % interval of the median where 6 or more give it,
 * else the range of the repetitions, with the coverage they give
 * (stats_median_ci); "" when no bar is drawn. */
static char *interval_text(guint n_min, guint n_max)
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

/* ---- the script ------------------------------------------------------------ */

/* The data block name of line L of panel P. */
static char *block_name(guint p, guint l)
{
        return g_strdup_printf("$p%us%u", p + 1, l + 1);
}

static void write_blocks(GString *gp, Plot *p)
{
        for (guint k = 0; k < p->panels->len; k++) {
                GPtrArray *panel = p->panels->pdata[k];
                for (guint i = 0; i < panel->len; i++) {
                        Line *l = panel->pdata[i];
                        g_autofree char *name = block_name(k, i);
                        g_array_sort(l->pts, point_cmp);
                        gp_comment(gp, l->title ? l->title : "committed data (grey)");
                        g_string_append_printf(gp, "%s << EOD\n", name);
                        for (guint j = 0; j < l->pts->len; j++) {
                                const Point *pt = &g_array_index(l->pts, Point, j);
                                gp_number(gp, pt->x);
                                g_string_append_c(gp, '\t');
                                gp_number(gp, pt->y);
                                if (l->errorbars) {
                                        g_string_append_c(gp, '\t');
                                        gp_number(gp, pt->lo);
                                        g_string_append_c(gp, '\t');
                                        gp_number(gp, pt->hi);
                                }
                                g_string_append_c(gp, '\n');
                        }
                        g_string_append(gp, "EOD\n");
                }
        }
}

/* " linecolor rgb "C" pointtype P dashtype D [linewidth W]" of S. */
static void style_args(GString *gp, const Style *s, bool points, double width)
{
        g_string_append(gp, " linecolor rgb ");
        gp_string(gp, s->colour);
        if (points)
                g_string_append_printf(gp, " pointtype %d", s->point);
        g_string_append_printf(gp, " dashtype %s", s->dash);
        if (width > 0)
                g_string_append_printf(gp, " linewidth %g", width);
}

/* "set xtics (...)": the tics TICS of AXIS ('x' or 'y'). */
static void write_tics(GString *gp, char axis, GArray *tics)
{
        g_string_append_printf(gp, "set %ctics (", axis);
        for (guint i = 0; i < tics->len; i++) {
                const StyleTic *t = &g_array_index(tics, StyleTic, i);
                g_string_append(gp, i ? ", " : "");
                gp_string(gp, t->label);
                g_string_append_c(gp, ' ');
                gp_number(gp, t->at);
                if (t->minor)
                        g_string_append(gp, " 1");
        }
        g_string_append_printf(gp, ")\nset %ctics noenhanced\n", axis);
}

/* A numeric x or y axis of KIND from LO to HI: its scale, tics and range;
 * a linear time axis's unit into *UNIT. */
static void write_axis(GString *gp, char axis, StyleAxis kind, double lo, double hi, bool log, const char **unit)
{
        double from, to;
        GArray *tics = style_tics(kind, lo, hi, log, &from, &to, unit);

        if (log)
                g_string_append_printf(gp, "set logscale %c %d\n", axis, kind == STYLE_AXIS_SIZE ? 2 : 10);
        write_tics(gp, axis, tics);
        g_string_append_printf(gp, "set m%ctics 1\nset %crange [", axis, axis);
        gp_number(gp, from);
        g_string_append_c(gp, ':');
        gp_number(gp, to);
        g_string_append(gp, "]\n");
        style_tics_free(tics);
}

static void write_axes(GString *gp, Plot *p, bool logx, bool logy, guint panel, guint n_panels)
{
        const Output *o = p->out;
        const char *unit = NULL;

        g_string_append(gp, "unset logscale\nset xtics autofreq\nset ytics autofreq\n");
        if (o->type == FIGURE_SPECTRUM) {
                static const char *const labels[] = { "0", "90", "99", "99.9", "99.99", "99.999",
                                                      "99.9999", "99.99999", "99.999999" };
                g_string_append(gp, "set logscale x 10\nset xtics (");
                int e = 0;
                for (; pow(10, e) < p->spectrum_max * 0.99 && e < (int) G_N_ELEMENTS(labels); e++) {
                        g_string_append(gp, e ? ", " : "");
                        gp_string(gp, labels[e]);
                        g_string_append_printf(gp, " %g", pow(10, e));
                }
                g_string_append(gp, e ? ", " : "");
                gp_string(gp, "max");
                g_string_append_printf(gp, " %g)\nset mxtics 1\nset xrange [0.8:%g]\nset xlabel ", p->spectrum_max,
                                       p->spectrum_max * 1.25);
                gp_string(gp, "percentile (%)");
                g_string_append(gp, " noenhanced offset 0, 0.4\n");
        } else if (o->type == FIGURE_CDF) {
                write_axis(gp, 'x', STYLE_AXIS_TIME, p->xmin, p->xmax, logx, &unit);
                g_string_append(gp, "set xlabel ");
                g_autofree char *xl = unit ? g_strdup_printf("latency (%s)", unit) : g_strdup("latency");
                gp_string(gp, xl);
                g_string_append(gp, " noenhanced offset 0, 0.4\n");
                unit = NULL;
        } else if (p->x_categorical) {
                g_string_append(gp, "set xtics (");
                for (guint i = 0; i < p->categories->len; i++) {
                        g_autofree char *t = style_value_text(o->x, p->categories->pdata[i], false);
                        if (i)
                                g_string_append(gp, ", ");
                        gp_string(gp, t);
                        g_string_append_printf(gp, " %u", i + 1);
                }
                /* Names as they are: no _ subscripts. */
                g_string_append_printf(gp, ")\nset xtics noenhanced\nset mxtics 1\nset xrange [0.5:%u.5]\n",
                                       p->categories->len);
        } else {
                StyleAxis kind = p->x_size ? STYLE_AXIS_SIZE : p->x_time ? STYLE_AXIS_TIME : STYLE_AXIS_NUMBER;
                write_axis(gp, 'x', kind, p->xmin, p->xmax, logx, &unit);
        }
        if (o->type == FIGURE_LINE) {
                g_autofree char *xl = column_label(o->x, true);
                g_autofree char *xu = unit ? g_strdup_printf("%s (%s)", xl, unit) : g_strdup(xl);
                g_string_append(gp, "set xlabel ");
                gp_string(gp, xu);
                g_string_append(gp, " noenhanced offset 0, 0.4\n");
        }
        if (o->type == FIGURE_CDF) {
                g_string_append(gp, "set yrange [0:1]\nset ytics (\"0\" 0, \"0.25\" 0.25, \"0.5\" 0.5, \"0.75\" 0.75, "
                                    "\"1\" 1)\nset ylabel \"fraction of messages\"\n");
                return;
        }
        unit = NULL;
        /* One y range for panels of one quantity, else each its own. */
        g_autofree char *shared = NULL;
        bool share = panels_share_y(p, &shared);
        double lo = share ? p->ymin : p->pymin[panel], hi = share ? p->ymax : p->pymax[panel];
        if (hi >= lo)
                write_axis(gp, 'y', p->y_time ? STYLE_AXIS_TIME : STYLE_AXIS_NUMBER, lo, hi,
                           logy && (share || log_scale(o->logy, lo, hi)), &unit);
        const char *y = o->type == FIGURE_LINE ? o->y[panel] : "latency_ns";
        g_autofree char *yl = o->type == FIGURE_LINE ? column_label_of(y, p->y_time, plot_pattern(p)) : g_strdup("latency");
        g_autofree char *ylab = g_strdup_printf("%s%s%s%s", share ? shared : yl, unit ? " (" : "", unit ? unit : "",
                                                unit ? ")" : "");
        g_string_append(gp, "set ylabel ");
        gp_string(gp, panel == 0 || !share ? ylab : "");
        g_string_append(gp, " noenhanced offset 1, 0\n");
        if (n_panels > 1) {
                g_autofree char *t = g_strdup_printf("(%c) %s", 'a' + panel, yl);
                g_string_append(gp, "set title ");
                gp_string(gp, t);
                g_string_append(gp, " noenhanced offset 0, -0.6\n");
        }
}

/* One entry of the key below the panels. */
typedef struct {
        const char *title;
        Style style;
        bool points, line;
        double width;
} KeyEntry;

/* A column of the key: its entries (KeyEntry), where it goes. */
typedef struct {
        GArray *entries;
        double width;       /* inches, estimated from its longest title */
        double x;           /* its left edge, inches from the figure's */
        guint band;         /* the row of columns it is in, from the top */
} KeyColumn;

static void key_column_clear(KeyColumn *c)
{
        g_array_unref(c->entries);
}

/* A new column of COLUMNS. */
static KeyColumn *key_column(GArray *columns)
{
        KeyColumn c = { g_array_new(FALSE, FALSE, sizeof(KeyEntry)), 0, 0, 0 };
        g_array_append_val(columns, c);
        return &g_array_index(columns, KeyColumn, columns->len - 1);
}

/* Adds an entry to the last column of COLUMNS, or to a new one when that
 * holds ROWS already. */
static void key_add(GArray *columns, guint rows, const char *title, Style s, bool points, bool line, double width)
{
        KeyColumn *c = columns->len ? &g_array_index(columns, KeyColumn, columns->len - 1) : NULL;
        if (!c || c->entries->len >= rows)
                c = key_column(columns);
        KeyEntry e = { title, s, points, line, width };
        g_array_append_val(c->entries, e);
}

#define KEY_WIDTH_IN 5.9       /* what the key may span */
#define KEY_ROW_IN 0.15        /* an entry's height at 8 pt */

/* The key's columns (KeyColumn) and *ROWS, the entries of the longest:
 * when the series are factored, each channel's values under the axis it
 * encodes, a column each; else every series line's entry; then the
 * bounds and references, each distinct title once.  Columns are placed
 * left to right, in bands one below the other when they do not fit the
 * width: *BANDS of them. */
static GArray *figure_key(Plot *p, GPtrArray *heads, guint *rows, guint *bands)
{
        GArray *columns = g_array_new(FALSE, FALSE, sizeof(KeyColumn));
        g_array_set_clear_func(columns, (GDestroyNotify) key_column_clear);
        g_autoptr(GHashTable) titled = g_hash_table_new(g_str_hash, g_str_equal);
        g_autoptr(GPtrArray) lines = g_ptr_array_new();
        GPtrArray *groups[3] = { p->enc->colour_entries, p->enc->point_entries, p->enc->dash_entries };
        bool grey = false;

        for (guint k = 0; k < p->panels->len; k++) {
                GPtrArray *panel = p->panels->pdata[k];
                for (guint i = 0; i < panel->len; i++) {
                        Line *l = panel->pdata[i];
                        grey |= l->grey && l->pts->len;
                        if (!l->title || !l->pts->len || (p->enc->factored && l->kind == LINE_SERIES) ||
                            g_hash_table_contains(titled, l->title))
                                continue;
                        g_hash_table_add(titled, l->title);
                        g_ptr_array_add(lines, l);
                }
        }
        *rows = 1;
        for (guint g = 0; p->enc->factored && g < 3; g++)
                *rows = MAX(*rows, groups[g]->len + 1);
        if (!p->enc->factored)
                *rows = MAX(1, (lines->len + grey + 2) / 3);
        for (guint g = 0; p->enc->factored && g < 3; g++) {
                if (!groups[g]->len)
                        continue;
                /* The axis (or axes) of the channel, as a head. */
                guint from = g == 0 ? 0 : g == 1 ? 1 : (p->enc->glyph ? 1 : 2);
                guint to = g == 2 ? p->enc->n_axes : from + 1;
                GString *h = g_string_new(NULL);
                for (guint a = from; a < to; a++) {
                        const Column *c = column_find(p->enc->axes[a]);
                        g_string_append_printf(h, "%s%s", a > from ? ", " : "", c ? c->label : p->enc->axes[a]);
                }
                g_string_append_c(h, ':');
                g_ptr_array_add(heads, g_string_free(h, FALSE));
                key_column(columns);
                key_add(columns, *rows, heads->pdata[heads->len - 1], (Style) { "#ffffff", 0, "1" }, false, true, 0);
                for (guint i = 0; i < groups[g]->len; i++) {
                        const StyleEntry *e = groups[g]->pdata[i];
                        key_add(columns, *rows, e->text, e->style, e->style.point > 0, g != 1, g == 0 ? 1.5 : 0);
                }
        }
        if (lines->len || grey)
                key_column(columns);
        for (guint i = 0; i < lines->len; i++) {
                const Line *l = lines->pdata[i];
                key_add(columns, *rows, l->title, l->style, l->style.point > 0 && !l->across && l->kind != LINE_MEMCPY,
                        !p->x_categorical || l->kind == LINE_MEMCPY || l->across, l->width);
        }
        if (grey)
                key_add(columns, *rows, "committed data (grey)", (Style) { STYLE_COMPARE_COLOUR, 0, "1" }, false, true, 0);
        /* Left to right, a new band when the width is full. */
        double x = 0;
        *bands = columns->len ? 1 : 0;
        for (guint i = 0; i < columns->len; i++) {
                KeyColumn *c = &g_array_index(columns, KeyColumn, i);
                glong longest = 0;
                for (guint j = 0; j < c->entries->len; j++)
                        longest = MAX(longest, g_utf8_strlen(g_array_index(c->entries, KeyEntry, j).title, -1));
                c->width = 0.45 + 0.052 * (double) longest;
                if (x > 0 && x + c->width > KEY_WIDTH_IN) {
                        x = 0;
                        (*bands)++;
                }
                c->x = x;
                c->band = *bands - 1;
                x += c->width;
        }
        return columns;
}

/* The horizontal offset of the I-th of N lines' points at one x: apart on
 * a log axis (common.gp's dodge) up to 8 lines, beside each other on a
 * text axis. */
static void write_x(GString *gp, const Plot *p, bool logx, guint i, guint n)
{
        if (p->x_categorical && n > 1)
                g_string_append_printf(gp, "($1 + %g)", (i - (n + 1) / 2.0) * MIN(0.12, 0.7 / n));
        else if (logx && n > 1 && n <= 8 && !p->x_categorical)
                g_string_append_printf(gp, "(dodge($1, %u, %u))", i, n);
        else
                g_string_append(gp, "1");
}

/* "# style" lines: what each line of every panel looks like, for the
 * paper check (ipclab paper-check): PANEL, TITLE, COLOUR, POINT, DASH. */
static void write_style_lines(GString *gp, const Plot *p)
{
        g_string_append(gp, "# Each line's look (for ipclab paper-check): panel, title, colour, point, dash\n");
        for (guint k = 0; k < p->panels->len; k++) {
                GPtrArray *panel = p->panels->pdata[k];
                for (guint i = 0; i < panel->len; i++) {
                        const Line *l = panel->pdata[i];
                        if (!l->pts->len || l->grey)
                                continue;
                        /* The title as gp_comment() writes one: no
                         * control character (a tab, a newline) in it. */
                        g_autoptr(GString) t = g_string_new(NULL);
                        gp_text(t, l->title ? l->title : "-", false);
                        g_string_append_printf(gp, "# style\t%u\t%s\t%s\t%d\t%s\n", k + 1, t->str, l->style.colour,
                                               l->kind == LINE_MEMCPY || l->across ? 0 : l->style.point, l->style.dash);
                }
        }
}

static char *plot_script(Plot *p, const char *file)
{
        const Output *o = p->out;
        GString *gp = g_string_new(NULL);
        guint np = p->panels->len;
        bool logx = o->type == FIGURE_SPECTRUM ||
                    (!p->x_categorical && o->type != FIGURE_SPECTRUM && log_scale(o->logx, p->xmin, p->xmax));
        bool logy = o->type != FIGURE_CDF && log_scale(o->logy, p->ymin, p->ymax);
        g_autofree char *shared = NULL;
        bool share = panels_share_y(p, &shared);
        g_autoptr(GPtrArray) heads = g_ptr_array_new_with_free_func(g_free);
        guint rows = 0, bands = 0;
        g_autoptr(GArray) key = figure_key(p, heads, &rows, &bands);
        double legend_h = bands ? KEY_ROW_IN * rows * bands + 0.12 : 0, fig_h = 2.3 + legend_h;

        /* Every value below goes through gp_string or gp_comment. */
        g_autofree char *id = g_strdup_printf("%s-%s", p->exp->name, o->name);
        g_autofree char *pdf = g_strdup_printf("%s.pdf", id);
        g_autofree char *head = g_strdup_printf("%s: generated by `ipclab plot %s %s`.", id, file, o->name);
        gp_comment(gp, head);
        g_string_append(gp, "# The data are inlined: this script alone redraws the figure,\n"
                        "#     gnuplot -e \"plotdir='plots'; out='FIGURE.pdf'\" THIS.gp\n");
        write_style_lines(gp, p);
        g_string_append(gp, "if (!exists(\"plotdir\")) plotdir = \"plots\"\nif (!exists(\"out\")) out = ");
        gp_string(gp, pdf);
        g_string_append_printf(gp, "\ninline_data = 1\nfig_w = 6.0; fig_h = %.2f\nload plotdir.\"/common.gp\"\n\n",
                               fig_h);
        write_blocks(gp, p);
        double bottom = (legend_h + 0.42) / fig_h, left = 0.1, right = 0.975, gap = share ? 0.09 : 0.12;
        double w = (right - left - gap * (np - 1)) / np;
        g_string_append_printf(gp, "\nset multiplot\nunset key\nset tmargin at screen %.3f\nset bmargin at screen %.3f\n",
                               np > 1 ? 0.93 : 0.97, bottom);
        for (guint k = 0; k < np; k++) {
                GPtrArray *panel = p->panels->pdata[k];
                g_string_append_printf(gp, "\n# panel %u\nset lmargin at screen %.3f\nset rmargin at screen %.3f\n",
                                       k + 1, left + k * (w + gap), left + k * (w + gap) + w);
                guint drawn = 0;
                for (guint i = 0; i < panel->len; i++)
                        drawn += ((Line *) panel->pdata[i])->pts->len > 0;
                if (!drawn) {
                        /* A frame that says so under its title: no axes to
                         * set. */
                        g_string_append(gp, "unset logscale\n");
                        if (np > 1 && o->type == FIGURE_LINE) {
                                g_autofree char *yl = column_label_of(o->y[k], p->y_time, plot_pattern(p));
                                g_autofree char *t = g_strdup_printf("(%c) %s", 'a' + k, yl);
                                g_string_append(gp, "set title ");
                                gp_string(gp, t);
                                g_string_append(gp, " noenhanced offset 0, -0.6\n");
                        }
                        g_string_append(gp, "@no_data\n");
                        continue;
                }
                write_axes(gp, p, logx, logy, k, np);
                g_string_append(gp, "plot ");
                /* The points of several lines at one x are set a little
                 * apart, so that their error bars do not hide each other. */
                guint nl = 0, n_apart = 0, apart = 0;
                for (guint i = 0; i < panel->len; i++) {
                        const Line *l = panel->pdata[i];
                        n_apart += l->pts->len && !l->across && l->kind != LINE_MEMCPY &&
                                   (p->x_categorical || l->errorbars);
                }
                for (guint i = 0; i < panel->len; i++) {
                        Line *l = panel->pdata[i];
                        if (!l->pts->len)
                                continue;
                        g_autofree char *name = block_name(k, i);
                        bool lines_only = l->kind == LINE_MEMCPY || l->across;
                        bool points_only = p->x_categorical && !lines_only;
                        bool moved = !lines_only && (p->x_categorical || l->errorbars);
                        apart += moved;
                        /* The line, solid or dashed; then its points, with
                         * solid error bars. */
                        if (!points_only) {
                                g_string_append_printf(gp, "%s%s using 1:2 with %s", nl++ ? ", \\\n     " : "", name,
                                                       lines_only || l->errorbars ? "lines" : "linespoints");
                                style_args(gp, &l->style, !lines_only && !l->errorbars, l->width);
                                g_string_append(gp, " notitle");
                        }
                        if (points_only || l->errorbars) {
                                g_string_append_printf(gp, "%s%s using ", nl++ ? ", \\\n     " : "", name);
                                write_x(gp, p, logx, moved ? apart : 0, moved ? n_apart : 0);
                                g_string_append(gp, l->errorbars ? ":2:3:4 with yerrorbars" : ":2 with points");
                                Style solid = l->style;
                                solid.dash = "1";
                                style_args(gp, &solid, true, 0);
                                g_string_append(gp, " notitle");
                        }
                }
                g_string_append_c(gp, '\n');
        }
        if (key->len) {
                /* Each column of the key is a plot of its own, placed where
                 * figure_key() put it: columns of one key would all be as
                 * wide as its longest entry. */
                g_string_append_printf(gp, "\n# the key, below the panels\nunset title\nunset xlabel\nunset ylabel\n"
                                       "unset border\nunset tics\nunset grid\nunset logscale\nset xrange [0:1]\n"
                                       "set yrange [0:1]\nset tmargin at screen %.3f\nset bmargin at screen 0\n"
                                       "set lmargin at screen 0.03\nset rmargin at screen 0.99\n", legend_h / fig_h);
                double total = 0;
                for (guint i = 0; i < key->len; i++) {
                        const KeyColumn *c = &g_array_index(key, KeyColumn, i);
                        if (!c->band)
                                total = MAX(total, c->x + c->width);
                }
                double x0 = MAX(0.05, (6.0 - total) / 2);
                for (guint i = 0; i < key->len; i++) {
                        const KeyColumn *c = &g_array_index(key, KeyColumn, i);
                        double top = legend_h - 0.06 - c->band * rows * KEY_ROW_IN;
                        g_string_append_printf(gp, "set key at screen %.3f, screen %.3f left top vertical maxrows %u "
                                               "width 0 samplen 2.5 font \",8\"\nplot ", (x0 + c->x) / 6.0, top / fig_h,
                                               MAX(rows, 1));
                        for (guint j = 0; j < c->entries->len; j++) {
                                const KeyEntry *e = &g_array_index(c->entries, KeyEntry, j);
                                g_string_append_printf(gp, "%sNaN with %s", j ? ", \\\n     " : "",
                                                       e->points && e->line ? "linespoints" : e->points ? "points" : "lines");
                                style_args(gp, &e->style, e->points, e->width);
                                g_string_append(gp, " title ");
                                gp_string(gp, e->title);
                                g_string_append(gp, " noenhanced");
                        }
                        g_string_append_c(gp, '\n');
                }
        }
        g_string_append(gp, "unset multiplot\n");
        return g_string_free(gp, FALSE);
}

/* The cells of another experiment (T, read from PATH) that SEL keeps, as
 * reference lines in PANEL: one for each value of the figure's series
 * axes that T has.  Along a numeric x, or a text x whose values T shares,
 * they are lines like ours; along a text x none of whose values T has
 * (its transports are not ours), each is a horizontal line at its value
 * across the panel. */
static gboolean add_also(Plot *p, GPtrArray *panel, const Table *t, const char *path, const Selector *sel,
                         const char *y, GError **error)
{
        const Output *o = p->out;
        g_autoptr(GPtrArray) series = g_ptr_array_new();
        for (guint i = 0; p->axes[i]; i++)
                if (table_column(t, p->axes[i]) >= 0)
                        g_ptr_array_add(series, p->axes[i]);
        g_ptr_array_add(series, NULL);
        Output shape = *o;
        shape.bound_direct = false;
        int xc = need_column(t, path, o->x, error), yc = xc < 0 ? -1 : need_column(t, path, y, error);
        if (yc < 0)
                return FALSE;
        bool across = p->x_categorical;
        for (guint r = 0; across && r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                for (guint i = 0; select_row(sel, t, row) && i < p->categories->len; i++)
                        across &= strcmp(p->categories->pdata[i], row[xc]) != 0;
        }
        g_autoptr(GPtrArray) ref = g_ptr_array_new_with_free_func((GDestroyNotify) line_free);
        Plot pa = *p;
        pa.out = &shape;
        pa.axes = (char **) series->pdata;
        if (!across) {
                gboolean ok = add_rows(&pa, ref, t, path, sel, y, false, "also", error);
                if (pa.pattern != p->pattern)
                        g_free(pa.pattern);
                if (!ok)
                        return FALSE;
        } else {
                /* One value per line, drawn from edge to edge. */
                for (guint r = 0; r < t->rows->len; r++) {
                        char **row = t->rows->pdata[r];
                        if (!select_row(sel, t, row))
                                continue;
                        g_autofree char **vals = g_new0(char *, series->len);
                        g_autofree int *sc = g_new0(int, series->len);
                        for (guint i = 0; pa.axes[i]; i++) {
                                sc[i] = table_column(t, pa.axes[i]);
                                vals[i] = row[sc[i]];
                        }
                        g_autofree char *key = row_key("also", row, sc, series->len - 1);
                        for (guint i = 0; i < ref->len; i++)
                                if (!strcmp(((Line *) ref->pdata[i])->key, key)) {
                                        g_autofree char *at = where_at(p->exp, o);
                                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                                    "%s: [%s] also_where: '%s' keeps several cells of %s for one "
                                                    "reference line: name the axis in which they differ", at, o->group,
                                                    o->also_where ? o->also_where : "", path);
                                        return FALSE;
                                }
                        Line *l = series_line(&pa, key, pa.axes, vals);
                        double v = number(row[yc]) * p->y_scale;
                        Point a = { 0.5, v, NAN, NAN }, b = { p->categories->len + 0.5, v, NAN, NAN };
                        g_array_append_val(l->pts, a);
                        g_array_append_val(l->pts, b);
                        extend(&pa, NAN, v);
                        l->across = true;
                        g_ptr_array_add(ref, l);
                }
        }
        p->xmin = pa.xmin;
        p->xmax = pa.xmax;
        p->ymin = pa.ymin;
        p->ymax = pa.ymax;
        p->left_out = pa.left_out;
        const char *title = o->also_title ? o->also_title : o->also;
        while (ref->len) {
                Line *l = g_ptr_array_steal_index(ref, 0);
                /* "in-process libdbus, dbus-daemon": the series values
                 * after the reference's own title. */
                char *t2 = series->len > 1 && l->title && l->title[0] ? g_strdup_printf("%s, %s", title, l->title)
                                                                       : g_strdup(title);
                g_free(l->title);
                g_clear_pointer(&l->vals, g_strfreev);
                l->title = t2;
                l->kind = LINE_ALSO;
                l->errorbars = false;
                g_ptr_array_add(panel, l);
        }
        return TRUE;
}

/* Latency rows (`ipclab latency` output) into PANEL: x the percentile on
 * the 1/(1-p) scale (spectrum) or the latency (cdf). */
static gboolean add_latency(Plot *p, GPtrArray *panel, const Table *t, const char *path, const Selector *sel,
                            GError **error)
{
        const Output *o = p->out;
        int pc = need_column(t, path, "percentile", error);
        int lc = pc < 0 ? -1 : need_column(t, path, "latency_ns", error);
        if (lc < 0)
                return FALSE;
        guint ns = g_strv_length(p->axes);
        g_autofree int *sc = g_new(int, ns + 1);
        for (guint i = 0; i < ns; i++)
                if ((sc[i] = need_column(t, path, p->axes[i], error)) < 0)
                        return FALSE;
        g_autoptr(GHashTable) by_key = g_hash_table_new(g_str_hash, g_str_equal);
        g_autoptr(GHashTable) percentiles = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        int tc = table_column(t, "transport");
        double top = 1;
        for (guint r = 0; r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                if (sel && !select_row(sel, t, row))
                        continue;
                bool floor = o->bound_direct && tc >= 0 && !strcmp(row[tc], "direct");
                g_autofree char *key = row_key("", row, sc, ns);
                g_autofree char **vals = g_new0(char *, ns + 1);
                for (guint i = 0; i < ns; i++)
                        vals[i] = row[sc[i]];
                Line *l = g_hash_table_lookup(by_key, key);
                if (!l) {
                        if (floor) {
                                /* The harness floor, as on line figures. */
                                l = line_new(key, LINE_FLOOR);
                                l->title = g_strdup("harness floor (direct)");
                                l->rank[l->n_rank++] = -1;
                        } else {
                                l = series_line(p, key, p->axes, vals);
                        }
                        g_ptr_array_add(panel, l);
                        g_hash_table_insert(by_key, l->key, l);
                }
                double pct = number(row[pc]), lat = number(row[lc]) * 1e-9;
                if (isnan(pct) || isnan(lat))
                        continue;
                g_autofree char *seen = g_strdup_printf("%s\t%s", key, row[pc]);
                if (g_hash_table_contains(percentiles, seen)) {
                        g_autofree char *at = where_at(p->exp, o);
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "%s: [%s] series: %s has two rows of the line '%s' at percentile %s: add the "
                                    "axis in which they differ to series= or where=", at, o->group, path, l->title,
                                    row[pc]);
                        return FALSE;
                }
                g_hash_table_add(percentiles, g_steal_pointer(&seen));
                Point pt = { 0, lat, NAN, NAN };
                if (o->type == FIGURE_CDF) {
                        pt.x = lat;
                        pt.y = pct / 100;
                        extend(p, pt.x, NAN);
                } else if (pct >= 100) {
                        pt.x = -1;   /* the maximum: placed past the last finite point, below */
                        extend(p, NAN, pt.y);
                } else {
                        pt.x = 1 / (1 - pct / 100);
                        top = MAX(top, pt.x);
                        extend(p, pt.x, pt.y);
                }
                g_array_append_val(l->pts, pt);
        }
        if (o->type == FIGURE_SPECTRUM) {
                /* The maximum a decade past the highest percentile drawn. */
                double at = pow(10, floor(log10(top) + 1e-9) + 1);
                p->spectrum_max = at;
                for (guint i = 0; i < panel->len; i++) {
                        Line *l = panel->pdata[i];
                        for (guint j = 0; j < l->pts->len; j++)
                                if (g_array_index(l->pts, Point, j).x < 0)
                                        g_array_index(l->pts, Point, j).x = at;
                }
                p->xmax = MAX(p->xmax, at);
        }
        p->y_time = o->type == FIGURE_SPECTRUM;
        return TRUE;
}

/* The series axes of a latency figure drawn from T: the output's, and
 * the kind (roundtrip, oneway) when both are there. */
static char **latency_axes(const Output *o, const Table *t)
{
        int kc = t ? table_column(t, "kind") : -1;
        bool kinds = false;
        GPtrArray *axes = g_ptr_array_new();

        for (guint r = 1; kc >= 0 && r < t->rows->len; r++)
                kinds |= strcmp(((char **) t->rows->pdata[r])[kc], ((char **) t->rows->pdata[0])[kc]) != 0;
        for (guint i = 0; o->series[i]; i++)
                g_ptr_array_add(axes, g_strdup(o->series[i]));
        if (kinds)
                g_ptr_array_add(axes, g_strdup("kind"));
        g_ptr_array_add(axes, NULL);
        return (char **) g_ptr_array_free(axes, FALSE);
}

/* The facts of figure ID that its caption may quote, as LaTeX
 * (ipclab.sty's \ipclabFact{ID}{KEY}): encoding, intervals, panels,
 * filter, left-out. */
static char *plot_facts(const Plot *p)
{
        const Output *o = p->out;
        GString *s = g_string_new(NULL);
        g_autofree char *id = g_strdup_printf("%s-%s", p->exp->name, o->name);
        g_autofree char *enc = encoding_text(p);
        g_autofree char *bars = interval_text(p->n_min, p->n_max);
        GString *panels = g_string_new(NULL);
        g_autofree char *filter = o->where ? g_strdup_printf("cells where %s", o->where) : g_strdup("every cell");
        g_autofree char *left = p->left_out ? g_strdup_printf("%u points left out: too few values beyond their "
                                                              "percentile (fewer than %d)", p->left_out, STATS_TAIL_MIN)
                                            : g_strdup("");
        for (guint k = 0; o->type == FIGURE_LINE && k < p->panels->len && p->panels->len > 1; k++) {
                g_autofree char *l = column_label_of(o->y[k], true, plot_pattern(p));
                g_string_append_printf(panels, "%s(%c) %s", k ? ", " : "", 'a' + k, l);
        }
        const struct { const char *key; const char *text; } facts[] = {
                { "encoding", enc }, { "intervals", bars }, { "panels", panels->str }, { "filter", filter },
                { "left-out", left },
        };
        g_string_append_printf(s, "%% facts of figure %s, written by `ipclab plot` with its script\n", id);
        for (size_t i = 0; i < G_N_ELEMENTS(facts); i++) {
                /* Encoding, intervals and left-out as sentences. */
                g_autofree char *text = g_strdup(facts[i].text);
                if (text[0] && i != 2 && i != 3) {
                        g_free(text);
                        text = g_strdup_printf("%c%s.", g_ascii_toupper(facts[i].text[0]), facts[i].text + 1);
                }
                g_autofree char *e = render_latex_escape(text);
                g_string_append_printf(s, "\\ipclabSetFact{%s}{%s}{%s}\n", id, facts[i].key, e);
        }
        g_string_free(panels, TRUE);
        return g_string_free(s, FALSE);
}

char *render_plot(const char *file, const char *name, const RenderInputs *in, char **facts, GError **error)
{
        const char *summary = in->summary, *compare = in->compare;
        char *result = NULL;

        const Output *o = NULL;
        g_autoptr(Experiment) exp = load_output(file, name, false, &o, error);
        if (!exp)
                return NULL;
        g_autoptr(Table) t = table_read(summary, error);
        g_autoptr(Table) t2 = t && compare ? table_read(compare, error) : NULL;
        if (!t || (compare && !t2))
                return NULL;

        g_autoptr(Selector) sel = select_parse(o->where, SELECT_AXES, error);
        Plot p = { .exp = exp, .out = o, .y_scale = 1, .x_scale = 1,
                   .xmin = INFINITY, .xmax = -INFINITY, .ymin = INFINITY, .ymax = -INFINITY };
        p.categories = g_ptr_array_new_with_free_func(g_free);
        p.panels = g_ptr_array_new_with_free_func((GDestroyNotify) g_ptr_array_unref);
        gboolean ok = TRUE;
        if (o->type != FIGURE_LINE) {
                const char *lpath = (in->latency ? g_hash_table_lookup(in->latency, exp->name) : NULL);
                /* Without latencies (data measured before they were
                 * kept: no --latency) the panel says "no data". */
                g_autoptr(Table) lt = lpath ? table_read(lpath, error) : NULL;
                GPtrArray *panel = g_ptr_array_new_with_free_func((GDestroyNotify) line_free);
                g_ptr_array_add(p.panels, panel);
                p.axes = latency_axes(o, lt);
                ok = !lpath || (lt && add_latency(&p, panel, lt, lpath, sel, error));
                if (ok)
                        g_ptr_array_sort(panel, line_cmp);
        } else {
                const Column *xc = column_find_key(o->x);
                const Column *yc = column_find(o->y[0]);
                p.axes = g_strdupv(o->series);
                p.n_panels = g_strv_length(o->y);
                p.pymin = g_new(double, p.n_panels);
                p.pymax = g_new(double, p.n_panels);
                for (guint k = 0; k < p.n_panels; k++) {
                        p.pymin[k] = INFINITY;
                        p.pymax[k] = -INFINITY;
                }
                p.x_size = !strcmp(o->x, "size_B");
                p.x_time = !strcmp(o->x, "duration_ns");
                p.x_scale = p.x_time ? 1e-9 : 1;
                p.x_categorical = xc && strcmp(xc->name, "size_B") && strcmp(xc->name, "count") &&
                                  strcmp(xc->name, "duration_ns");
                p.y_time = yc && !strcmp(yc->unit, "ns");
                p.y_scale = p.y_time ? 1e-9 : 1;
                /* The categories in the file's order. */
                if (p.x_categorical) {
                        int c = table_column(t, o->x);
                        g_autoptr(GPtrArray) vals = g_ptr_array_new();
                        for (guint r = 0; c >= 0 && r < t->rows->len; r++) {
                                char **row = t->rows->pdata[r];
                                bool seen = false;
                                for (guint i = 0; i < vals->len; i++)
                                        seen |= !strcmp(vals->pdata[i], row[c]);
                                if (!seen && select_row(sel, t, row))
                                        g_ptr_array_add(vals, row[c]);
                        }
                        for (guint i = 0; i < vals->len; i++)
                                for (guint j = i + 1; j < vals->len; j++)
                                        if (axis_rank(exp, o->x, vals->pdata[j]) < axis_rank(exp, o->x, vals->pdata[i])) {
                                                gpointer tmp = vals->pdata[i];
                                                vals->pdata[i] = vals->pdata[j];
                                                vals->pdata[j] = tmp;
                                        }
                        for (guint i = 0; i < vals->len; i++)
                                g_ptr_array_add(p.categories, g_strdup(vals->pdata[i]));
                }
                for (guint k = 0; ok && o->y[k]; k++) {
                        GPtrArray *panel = g_ptr_array_new_with_free_func((GDestroyNotify) line_free);
                        g_ptr_array_add(p.panels, panel);
                        p.cur = k;
                        ok = add_rows(&p, panel, t, summary, sel, o->y[k], t2 != NULL, "", error);
                        if (ok && t2)
                                ok = add_rows(&p, panel, t2, compare, sel, o->y[k], false, "repro", error);
                        if (!ok)
                                break;
                        g_ptr_array_sort(panel, line_cmp);
                        if (o->bound_memcpy)
                                add_memcpy(&p, panel, t, sel, o->y[k]);
                        if (o->also) {
                                const char *apath = in->also ? g_hash_table_lookup(in->also, o->also) : NULL;
                                if (!apath) {
                                        g_autofree char *at = where_at(exp, o);
                                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: [%s] also: needs --also %s=FILE "
                                                    "(its summary)", at, o->group, o->also);
                                        ok = FALSE;
                                        break;
                                }
                                g_autoptr(Table) at = table_read(apath, error);
                                g_autoptr(Selector) asel = at ? select_parse(o->also_where, SELECT_AXES, error) : NULL;
                                if (!(ok = asel && add_also(&p, panel, at, apath, asel, o->y[k], error)))
                                        break;
                        }
                        if (o->published && k == 0 && !(ok = add_published(&p, panel, in->published, error)))
                                break;
                }
        }
        if (ok) {
                style_figure(&p);
                result = plot_script(&p, file);
                if (facts)
                        *facts = plot_facts(&p);
        }
        g_ptr_array_unref(p.categories);
        g_ptr_array_unref(p.panels);
        g_strfreev(p.axes);
        g_free(p.pymin);
        g_free(p.pymax);
        style_encoding_free(p.enc);
        g_free(p.pattern);
        return result;
}

/* ---- table ----------------------------------------------------------------- */

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

/* Is S one of LIST's strings? */
static bool in_list(char **list, const char *s)
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

/* A head: the column's label (PER_MESSAGE: per message), and its unit
 * (the display unit if given). */
static char *value_head(const char *column, const char *unit, const char *pattern, bool per_message)
{
        const Column *c = column_find(column);
        const char *ul;
        unit_factor(unit, &ul);
        g_autofree char *text = c ? g_strconcat(label_kind(c, pattern), c->label, per_message ? " per message" : "", NULL)
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
        double x = number(a), y = number(b);
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
        double v = number(row[vc]);

        if (in_list(o->per_message, value))
                v = mc >= 0 ? v / number(row[mc]) : NAN;
        return v;
}

/* The display unit of value column I of table O drawn from the rows of T
 * SEL keeps: unit= (one, or one per value), else, for a time, the unit
 * in which the median of the values lies between 1 and 1000 (14 387 ns
 * is shown as 14.4 us); else NULL, the column's own. */
static const char *table_unit(const Output *o, guint i, const Table *t, const Selector *sel)
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
                        double v = vc >= 0 ? number(row[vc]) : NAN;
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
                g_autofree char *at = where_at(exp, o);
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: [%s] also: needs --also %s=FILE (its summary)",
                            at, o->group, o->also);
                return FALSE;
        }
        g_autoptr(Table) at = table_read(apath, error);
        g_autoptr(Selector) asel = at ? select_parse(o->also_where, SELECT_AXES, error) : NULL;
        if (!asel)
                return FALSE;
        int vc = need_column(at, apath, values[0], error);
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
                                g_autofree char *w = where_at(exp, o);
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
                if ((rc[i] = need_column(t, path, o->rows[i], error)) < 0)
                        return NULL;
        int cc = o->columns_axis ? need_column(t, path, o->columns_axis, error) : -1;
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
                                double ra = axis_rank(exp, o->rows[k], a[rc[k]]), rb = axis_rank(exp, o->rows[k], b[rc[k]]);
                                d = ra < rb ? -1 : ra > rb;
                        }
                        if (d > 0) {
                                keys->pdata[i] = b;
                                keys->pdata[j] = a;
                        }
                }
        for (guint i = 0; i < across->len; i++)
                for (guint j = i + 1; j < across->len; j++)
                        if (axis_rank(exp, o->columns_axis, across->pdata[j]) < axis_rank(exp, o->columns_axis, across->pdata[i])) {
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
        int mc = o->per_message ? need_column(t, path, "messages", error) : -1;
        if (o->per_message && mc < 0)
                return NULL;
        for (guint i = 0; i < nvals; i++) {
                if ((vc[i] = need_column(t, path, values[i], error)) < 0)
                        return NULL;
                g_autofree char *lo = g_strconcat(values[i], "_lo", NULL);
                g_autofree char *hi = g_strconcat(values[i], "_hi", NULL);
                loc[i] = o->intervals ? table_column(t, lo) : -1;
                hic[i] = o->intervals ? table_column(t, hi) : -1;
                vunit[i] = table_unit(o, i, t, sel);
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
                        if ((prc[i] = need_column(pub, pp, col, error)) < 0)
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
                        if ((pvc[i] = need_column(pub, pp, o->published_value[i], error)) < 0)
                                return NULL;
                /* (With published_columns= the label names the published rows.) */
                if (o->published_label && !o->published_columns &&
                    (plc = need_column(pub, pp, o->published_label, error)) < 0)
                        return NULL;
                /* published_series: one column per value, in the file's order. */
                if (o->published_series && (psc = need_column(pub, pp, o->published_series, error)) < 0)
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
                        g_autofree char *head = value_head(o->value, vunit[0], pattern, in_list(o->per_message, o->value));
                        g_autofree char *axis = column_label(o->columns_axis, false);
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
                g_autofree char *l = column_label(o->rows[i], false);
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
                          : value_head(values[x->value], vunit[x->value], pattern, in_list(o->per_message, values[x->value]));
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
                                                g_autofree char *at = where_at(exp, o);
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
                                if (found && !isnan(cell[c]) && !percentile_supported(t, found, values[j])) {
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
                                cell[c] = raw ? number(raw) * (f > 0 ? f : 1) : NAN;
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
        g_autoptr(Experiment) exp = load_output(file, name, true, &o, error);
        g_autoptr(Table) t = exp ? table_read(in->summary, error) : NULL;

        return t ? table_tex(exp, o, t, in->summary, in, error) : NULL;
}

/* ---- section --------------------------------------------------------------- */

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
                        if (axis_rank(exp, col, vals->pdata[j]) < axis_rank(exp, col, vals->pdata[i])) {
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
                double n = number(row[nc]);
                if ((sel && !select_row(sel, t, row)) || isnan(n))
                        continue;
                *lo = *lo && *lo <= n ? *lo : (guint) n;
                *hi = MAX(*hi, (guint) n);
                if (fc >= 0 && !isnan(number(row[fc])))
                        *failed += number(row[fc]);
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
                g_autofree char *l = column_label(columns[i], false);
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
                g_autofree char *h = value_head(values[i], table_unit(o, i, t, sel), pattern,
                                                in_list(o->per_message, values[i]));
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
                g_autofree char *l = column_label(o->per_message[i], false);
                g_autofree char *e = render_latex_escape(l);
                g_string_append_printf(s, "%s%s", i ? ", " : " (per message: ", e);
                if (!o->per_message[i + 1])
                        g_string_append(s, ", over the messages delivered)");
        }
        if (o->intervals) {
                guint lo, hi;
                double failed;
                data_repetitions(t, sel, &lo, &hi, &failed);
                g_autofree char *bars = interval_text(lo, hi);
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
                        g_autofree char *l = column_label_of(o->y[i], true, pattern);
                        g_autofree char *e = render_latex_escape(l);
                        g_string_append_printf(s, "%s%s%s", i ? (o->y[i + 1] ? ", " : " and ") : "",
                                               o->y[1] ? (char[]) { '(', (char) ('a' + i), ')', ' ', 0 } : "", e);
                }
                s->str[0] = g_ascii_toupper(s->str[0]);
                g_autofree char *x = column_label(o->x, false);
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
                g_autofree char *bars = interval_text(lo, hi);
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
                        g_autofree char *macro = verify_macro_name(cl->name);
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
