/* render-gnuplot.c: the gnuplot script of a figure gathered by
 * render-plot.c (its styles, data blocks, axes and key), and the facts
 * its caption may quote.
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

static int point_cmp(gconstpointer a, gconstpointer b)
{
        const Point *x = a, *y = b;
        return x->x < y->x ? -1 : x->x > y->x;
}

/* Do the panels share their y axis?  When their columns are one
 * quantity ("round-trip latency, median" and "..., 99th percentile"):
 * then the label is what the columns' labels share before the comma,
 * in *SHARED (newly allocated; else the first column's). */
static bool panels_share_y(const Plot *p, char **shared)
{
        const Output *o = p->out;
        bool share = true;

        *shared = o->type == FIGURE_LINE ? render_column_label_of(o->y[0], p->y_time, render_plot_pattern(p)) : g_strdup("latency");
        for (guint i = 1; o->type == FIGURE_LINE && o->y[i]; i++) {
                g_autofree char *other = render_column_label_of(o->y[i], p->y_time, render_plot_pattern(p));
                const char *comma = strchr(*shared, ',');
                if (comma && !strncmp(*shared, other, (size_t) (comma - *shared)) && other[comma - *shared] == ',')
                        (*shared)[comma - *shared] = '\0';
                else if (strcmp(*shared, other))
                        share = false;
        }
        return share;
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

/* ---- styles of a figure ------------------------------------------------ */

void render_style_figure(Plot *p)
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

/* ---- the script -------------------------------------------------------- */

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
                g_autofree char *xl = render_column_label(o->x, true);
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
        g_autofree char *yl = o->type == FIGURE_LINE ? render_column_label_of(y, p->y_time, render_plot_pattern(p)) : g_strdup("latency");
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

/* The key below the panels: the columns of KEY (figure_key()), ROWS
 * entries high, in a band LEGEND_H of the figure's FIG_H inches. */
static void write_key(GString *gp, GArray *key, guint rows, double legend_h, double fig_h)
{
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

char *render_plot_script(Plot *p, const char *file)
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
                                g_autofree char *yl = render_column_label_of(o->y[k], p->y_time, render_plot_pattern(p));
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
        if (key->len)
                write_key(gp, key, rows, legend_h, fig_h);
        g_string_append(gp, "unset multiplot\n");
        return g_string_free(gp, FALSE);
}

char *render_plot_facts(const Plot *p)
{
        const Output *o = p->out;
        GString *s = g_string_new(NULL);
        g_autofree char *id = g_strdup_printf("%s-%s", p->exp->name, o->name);
        g_autofree char *enc = encoding_text(p);
        g_autofree char *bars = render_interval_text(p->n_min, p->n_max);
        GString *panels = g_string_new(NULL);
        g_autofree char *filter = o->where ? g_strdup_printf("cells where %s", o->where) : g_strdup("every cell");
        g_autofree char *left = p->left_out ? g_strdup_printf("%u points left out: too few values beyond their "
                                                              "percentile (fewer than %d)", p->left_out, STATS_TAIL_MIN)
                                            : g_strdup("");
        for (guint k = 0; o->type == FIGURE_LINE && k < p->panels->len && p->panels->len > 1; k++) {
                g_autofree char *l = render_column_label_of(o->y[k], true, render_plot_pattern(p));
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
