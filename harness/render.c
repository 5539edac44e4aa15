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
#include "samples.h"
#include "select.h"
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

/* An axis value as text: sizes as 64 B, 4 KiB (LATEX: 64~B), durations
 * in ms, "-" as "none". */
static char *axis_text(const char *axis, const char *value, bool latex)
{
        double v = number(value);

        if (!strcmp(value, "-"))
                return g_strdup(latex ? "--" : "none");
        if (!strcmp(axis, "size_B") && !isnan(v)) {
                guint64 s = (guint64) v;
                const char *sp = latex ? "~" : " ";
                if (s >= 1048576 && s % 1048576 == 0)
                        return g_strdup_printf("%" G_GUINT64_FORMAT "%sMiB", s / 1048576, sp);
                if (s >= 1024 && s % 1024 == 0)
                        return g_strdup_printf("%" G_GUINT64_FORMAT "%sKiB", s / 1024, sp);
                return g_strdup_printf("%" G_GUINT64_FORMAT "%sB", s, sp);
        }
        if (!strcmp(axis, "duration_ns") && !isnan(v))
                return g_strdup_printf("%g%sms", v / 1e6, latex ? "~" : " ");
        return latex ? render_latex_escape(value) : g_strdup(value);
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

/* FN(S), a call of one of common.gp's style functions (tcolor, tpoint,
 * bpoint, bdash) on a value, as a gnuplot expression. */
static char *gp_call(const char *fn, const char *s)
{
        GString *out = g_string_new(fn);
        g_string_append_c(out, '(');
        gp_string(out, s);
        g_string_append_c(out, ')');
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

typedef struct {
        char *key;          /* the series axes' values, tab-separated */
        char *title;
        char *color, *point, *dash;   /* gnuplot expressions */
        char **vals;        /* the series axes' values, or NULL (a bound, a reference) */
        double rank[12];
        guint n_rank;
        GArray *pts;        /* Point */
        bool errorbars;
        bool lines_only;    /* a bound: no points */
        const char *width;  /* "memwidth" or NULL */
} Line;

static void line_free(Line *l)
{
        g_free(l->key);
        g_free(l->title);
        g_free(l->color);
        g_free(l->point);
        g_free(l->dash);
        g_strfreev(l->vals);
        g_array_unref(l->pts);
        g_free(l);
}

static Line *line_new(const char *key)
{
        Line *l = g_new0(Line, 1);
        l->key = g_strdup(key);
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
        double y_scale;        /* ns -> s: 1e-9 */
        bool y_time;
        double x_scale;
        bool x_time, x_size, x_categorical;
        GPtrArray *categories; /* char *: the x values of a text axis, in order */
        GPtrArray *panels;     /* GPtrArray of Line *, one per y column */
        double xmin, xmax, ymin, ymax;
        double spectrum_max;   /* where a spectrum draws the maximum */
        char *pattern;         /* the pattern of every row drawn, "" when mixed */
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
        }
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

/* Style and title of a line of series values VALS (the series axes). */
static void style_line(Line *l, const Output *o, char **vals, guint index, bool grey)
{
        const char *t = NULL, *b = NULL;
        GString *title = g_string_new(NULL);

        for (guint i = 0; o->series[i]; i++) {
                if (!strcmp(o->series[i], "transport"))
                        t = vals[i];
                else if (!strcmp(o->series[i], "bus"))
                        b = vals[i];
                if (!strcmp(vals[i], "-"))
                        continue;
                g_autofree char *v = axis_text(o->series[i], vals[i], false);
                g_string_append_printf(title, "%s%s", title->len ? ", " : "", v);
        }
        l->vals = g_strdupv(vals);
        if (t && !strcmp(t, "direct"))
                g_string_assign(title, "harness floor (direct)");
        if (!title->len)
                g_string_assign(title, "measured");
        l->title = g_string_free(title, FALSE);
        if (t) {
                l->color = gp_call("tcolor", t);
                l->point = b && strcmp(b, "-") ? gp_call("bpoint", b) : gp_call("tpoint", t);
        } else {
                l->color = g_strdup_printf("scolor(%u)", index);
                l->point = g_strdup_printf("spoint(%u)", index);
        }
        l->dash = t && !strcmp(t, "direct") ? g_strdup("floordash")
                : b ? gp_call("bdash", b) : g_strdup("1");
        if (grey) {
                g_free(l->color);
                l->color = g_strdup("comparecolor");
        }
}

/* After sorting PANEL: lines that the series axes other than transport
 * and bus tell apart get the palette's points and dashes in that order
 * (the colour stays the transport's); without transport and bus in the
 * series, every line gets the next colour and point of the palette. */
static void restyle(GPtrArray *panel, const Output *o)
{
        bool has_tb = false, has_other = false, has_bus = false;
        g_autoptr(GHashTable) index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

        for (guint i = 0; o->series[i]; i++) {
                bool tb = !strcmp(o->series[i], "transport") || !strcmp(o->series[i], "bus");
                has_tb |= tb;
                has_other |= !tb;
                has_bus |= !strcmp(o->series[i], "bus");
        }
        for (guint i = 0; i < panel->len; i++) {
                Line *l = panel->pdata[i];
                if (!l->vals)
                        continue;
                bool floor = !strcmp(l->dash, "floordash");
                g_autoptr(GString) other = g_string_new(NULL);
                for (guint k = 0; o->series[k]; k++)
                        if (has_tb ? strcmp(o->series[k], "transport") && strcmp(o->series[k], "bus") : true)
                                g_string_append_printf(other, "%s\t", l->vals[k]);
                guint n = GPOINTER_TO_UINT(g_hash_table_lookup(index, other->str));
                if (!n) {
                        n = g_hash_table_size(index) + 1;
                        g_hash_table_insert(index, g_strdup(other->str), GUINT_TO_POINTER(n));
                }
                if (floor) {
                        /* A floor per payload: its points as the payload's
                         * lines have them, black and dash-dotted still. */
                        if (has_tb && has_other) {
                                g_free(l->point);
                                l->point = g_strdup_printf("spoint(%u)", n);
                        }
                        continue;
                }
                if (!has_tb) {
                        if (strcmp(l->color, "comparecolor")) {
                                g_free(l->color);
                                l->color = g_strdup_printf("scolor(%u)", n);
                        }
                        g_free(l->point);
                        l->point = g_strdup_printf("spoint(%u)", n);
                } else if (has_other) {
                        g_free(l->point);
                        l->point = g_strdup_printf("spoint(%u)", n);
                        if (!has_bus) {
                                g_free(l->dash);
                                l->dash = g_strdup_printf("%u", n);
                        }
                }
        }
}

/* Adds the rows of T (PATH) that SEL keeps to PANEL as lines by O's
 * series, plotting column Y; DIRECT_FLOOR: transport=direct rows become
 * the floor line only.  FALSE with ERROR when two rows of a line share an
 * x (the selection leaves an axis out). */
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
        int loc = table_column(t, lo_name), hic = table_column(t, hi_name);
        bool bars = o->errorbars && ycol && (ycol->flags & COLUMN_HAS_CI) && loc >= 0 && hic >= 0;
        guint ns = g_strv_length(o->series);
        g_autofree int *sc = g_new(int, ns + 1);
        for (guint i = 0; i < ns; i++)
                if ((sc[i] = need_column(t, path, o->series[i], error)) < 0)
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
                g_autoptr(GString) key = g_string_new(prefix);
                g_autofree char **vals = g_new0(char *, ns + 1);
                for (guint i = 0; i < ns; i++) {
                        vals[i] = row[sc[i]];
                        g_string_append_printf(key, "\t%s", floor && strcmp(o->series[i], "transport") ? "-" : row[sc[i]]);
                }
                /* The floor: one line, or one per value of the series
                 * axes other than transport and bus (payload: the floor
                 * of byte arrays and that of strings). */
                g_autoptr(GString) floor_of = g_string_new(NULL);
                for (guint i = 0; floor && i < ns; i++)
                        if (strcmp(o->series[i], "transport") && strcmp(o->series[i], "bus"))
                                g_string_append_printf(floor_of, ", %s", row[sc[i]]);
                if (floor)
                        g_string_printf(key, "floor%s", floor_of->str);
                Line *l = g_hash_table_lookup(by_key, key->str);
                if (!l) {
                        l = line_new(key->str);
                        if (floor) {
                                l->title = g_strdup_printf("harness floor (direct)%s", floor_of->str);
                                l->color = grey ? g_strdup("comparecolor") : gp_call("tcolor", "direct");
                                l->point = gp_call("tpoint", "direct");
                                l->dash = g_strdup("floordash");
                                l->rank[l->n_rank++] = -1;
                                if (floor_of->len)
                                        l->vals = g_strdupv(vals);
                        } else {
                                style_line(l, o, vals, panel->len + 1, grey);
                                for (guint i = 0; i < ns && l->n_rank < G_N_ELEMENTS(l->rank); i++)
                                        l->rank[l->n_rank++] = axis_rank(p->exp, o->series[i], vals[i]);
                        }
                        if (grey) {
                                g_free(l->title);
                                l->title = NULL;
                        }
                        l->errorbars = bars;
                        g_ptr_array_add(panel, l);
                        g_hash_table_insert(by_key, l->key, l);
                }
                Point pt = { x_of(p, row[xc]), number(row[yc]) * p->y_scale, NAN, NAN };
                if (bars) {
                        pt.lo = number(row[loc]) * p->y_scale;
                        pt.hi = number(row[hic]) * p->y_scale;
                }
                for (guint i = 0; i < l->pts->len; i++)
                        if (g_array_index(l->pts, Point, i).x == pt.x) {
                                g_autofree char *at = where_at(p->exp, o);
                                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                            "%s: [%s] series: %s has two rows of the line '%s' at %s=%s: add the "
                                            "axis in which they differ to series= or where=", at, o->group, path,
                                            l->title ? l->title : key->str, o->x, row[xc]);
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
                        l = line_new(key);
                        l->color = g_strdup("memcolor");
                        l->point = g_strdup("0");
                        l->dash = g_strdup("memdash");
                        l->width = "memwidth";
                        l->lines_only = true;
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
        guint n = 0, ny = g_strv_length(o->published_y);
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
                                l = line_new(key);
                                n++;
                                GString *title = g_string_new(NULL);
                                g_string_printf(title, "published (%s)", source);
                                if (ny > 1)
                                        g_string_append_printf(title, ": %s", head);
                                if (sc >= 0)
                                        g_string_append_printf(title, "%s%s", ny > 1 ? ", " : ": ", k);
                                l->title = g_string_free(title, FALSE);
                                l->color = g_strdup("pubcolor");
                                l->point = g_strdup_printf("pubpoint(%u)", n);
                                l->dash = g_strdup("pubdash");
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

static bool log_scale(Scale s, double lo, double hi)
{
        if (s == SCALE_LOG)
                return lo > 0;
        if (s == SCALE_LINEAR)
                return false;
        return lo > 0 && hi / lo > 100;
}

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
                        gp_comment(gp, l->title ? l->title : "(committed)");
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

/* The gnuplot style of line L ("with ... lc ... pt ... dt ..."). */
static void line_style(GString *gp, const Line *l, bool legend)
{
        if (l->lines_only)
                g_string_append(gp, " with lines");
        else if (l->errorbars && !legend)
                g_string_append(gp, " with yerrorlines");
        else
                g_string_append(gp, " with linespoints");
        g_string_append_printf(gp, " linecolor rgb %s", l->color);
        if (!l->lines_only)
                g_string_append_printf(gp, " pointtype %s", l->point);
        g_string_append_printf(gp, " dashtype %s", l->dash);
        if (l->width)
                g_string_append_printf(gp, " linewidth %s", l->width);
}

static void write_axes(GString *gp, Plot *p, bool logx, bool logy, guint panel, guint n_panels)
{
        const Output *o = p->out;

        g_string_append(gp, "unset logscale\nset xtics autofreq\nset format x \"% h\"\nset format y \"% h\"\n");
        if (o->type == FIGURE_SPECTRUM) {
                static const char *const labels[] = { "0", "90", "99", "99.9", "99.99", "99.999",
                                                      "99.9999", "99.99999", "99.999999" };
                g_string_append(gp, "set logscale x 10\nset xtics (");
                int e = 0;
                for (; pow(10, e) < p->spectrum_max * 0.99 && e < (int) G_N_ELEMENTS(labels); e++)
                        g_string_append_printf(gp, "%s\"%s\" %g", e ? ", " : "", labels[e], pow(10, e));
                g_string_append_printf(gp, "%s\"max\" %g)\nset xrange [0.8:%g]\n"
                                       "set xlabel \"percentile\" offset 0, 0.4\n", e ? ", " : "",
                                       p->spectrum_max, p->spectrum_max * 1.25);
        } else if (o->type == FIGURE_CDF) {
                g_string_append(gp, logx ? "set logscale x 10\n" : "");
                g_string_append(gp, "set format x \"%.0s %cs\"\nset xlabel \"latency\" offset 0, 0.4\n");
        } else if (p->x_categorical) {
                g_string_append(gp, "set xtics (");
                for (guint i = 0; i < p->categories->len; i++) {
                        g_autofree char *t = axis_text(o->x, p->categories->pdata[i], false);
                        if (i)
                                g_string_append(gp, ", ");
                        gp_string(gp, t);
                        g_string_append_printf(gp, " %u", i + 1);
                }
                /* Names as they are: no _ subscripts. */
                g_string_append_printf(gp, ")\nset xtics noenhanced\nset xrange [0.5:%u.5]\n", p->categories->len);
        } else if (p->x_size && logx) {
                double decades = log2(p->xmax / p->xmin);
                g_string_append_printf(gp, "sizestep = %d\n@set_size_axis\neval padsize(%g, %g)\n",
                                       MAX(1, (int) ceil(decades / 7)), p->xmin, p->xmax);
        } else {
                if (logx)
                        g_string_append(gp, "set logscale x 10\n");
                if (p->x_time)
                        g_string_append(gp, "set format x \"%.0s %cs\"\n");
        }
        if (o->type == FIGURE_LINE) {
                g_autofree char *xl = column_label(o->x, p->x_time);
                g_string_append(gp, "set xlabel ");
                gp_string(gp, xl);
                g_string_append(gp, " offset 0, 0.4\n");
        }
        if (o->type == FIGURE_CDF) {
                g_string_append(gp, "set yrange [0:1]\nset ylabel \"fraction of messages\"\n");
                return;
        }
        if (p->y_time && logy)
                g_string_append(gp, "@set_time_axis\n");
        else if (logy)
                g_string_append(gp, "set logscale y 10\n");
        else if (p->y_time)
                g_string_append(gp, "set format y \"%.0s %cs\"\n");
        if (p->ymax >= p->ymin) {
                if (logy)
                        g_string_append_printf(gp, "set yrange [%g:%g]\n", p->ymin / 1.6, p->ymax * 1.6);
                else
                        g_string_append_printf(gp, "set yrange [0:%g]\n", p->ymax * 1.1);
        }
        const char *y = o->type == FIGURE_LINE ? o->y[panel] : "latency_ns";
        g_autofree char *yl = o->type == FIGURE_LINE ? column_label_of(y, p->y_time, plot_pattern(p)) : g_strdup("latency");
        /* Panels share the y axis: its label is what their columns'
         * labels share before a comma ("round-trip latency" of "...,
         * median" and "..., 99th percentile"), else the first's. */
        g_autofree char *shared = o->type == FIGURE_LINE ? column_label_of(o->y[0], p->y_time, plot_pattern(p))
                                                         : g_strdup(yl);
        for (guint i = 1; o->type == FIGURE_LINE && i < n_panels; i++) {
                g_autofree char *other = column_label_of(o->y[i], p->y_time, plot_pattern(p));
                const char *comma = strchr(shared, ',');
                if (comma && !strncmp(shared, other, (size_t) (comma - shared)) && other[comma - shared] == ',')
                        shared[comma - shared] = '\0';
        }
        g_string_append(gp, "set ylabel ");
        gp_string(gp, panel == 0 ? shared : "");
        g_string_append(gp, " offset 1, 0\n");
        if (n_panels > 1) {
                g_autofree char *t = g_strdup_printf("(%c) %s", 'a' + panel, yl);
                g_string_append(gp, "set title ");
                gp_string(gp, t);
                g_string_append(gp, " noenhanced offset 0, -0.6\n");
        }
}

static char *plot_script(Plot *p, const char *file)
{
        const Output *o = p->out;
        GString *gp = g_string_new(NULL);
        guint np = p->panels->len;
        bool logx = o->type == FIGURE_SPECTRUM || log_scale(o->logx, p->xmin, p->xmax);
        bool logy = o->type != FIGURE_CDF && log_scale(o->logy, p->ymin, p->ymax);

        /* The legend: every distinct title once, in the order drawn. */
        g_autoptr(GPtrArray) legend = g_ptr_array_new();
        g_autoptr(GHashTable) titled = g_hash_table_new(g_str_hash, g_str_equal);
        for (guint k = 0; k < np; k++) {
                GPtrArray *panel = p->panels->pdata[k];
                for (guint i = 0; i < panel->len; i++) {
                        Line *l = panel->pdata[i];
                        if (l->title && !g_hash_table_contains(titled, l->title)) {
                                g_hash_table_add(titled, l->title);
                                g_ptr_array_add(legend, l);
                        }
                }
        }
        guint per_row = np > 1 ? 4 : 3, legend_rows = (legend->len + per_row - 1) / per_row;
        double legend_h = legend_rows ? 0.16 * legend_rows + 0.12 : 0, fig_h = 2.3 + legend_h;

        /* Every value below goes through gp_string or gp_comment. */
        g_autofree char *id = g_strdup_printf("%s-%s", p->exp->name, o->name);
        g_autofree char *pdf = g_strdup_printf("%s.pdf", id);
        g_autofree char *head = g_strdup_printf("%s: generated by `ipclab plot %s %s`.", id, file, o->name);
        gp_comment(gp, head);
        g_string_append(gp, "# The data are inlined: this script alone redraws the figure,\n"
                        "#     gnuplot -e \"plotdir='plots'; out='FIGURE.pdf'\" THIS.gp\n"
                        "if (!exists(\"plotdir\")) plotdir = \"plots\"\nif (!exists(\"out\")) out = ");
        gp_string(gp, pdf);
        g_string_append_printf(gp, "\ninline_data = 1\nfig_w = 6.0; fig_h = %.2f\nload plotdir.\"/common.gp\"\n\n",
                               fig_h);
        write_blocks(gp, p);
        double bottom = (legend_h + 0.42) / fig_h, left = 0.085, right = 0.975, gap = 0.09;
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
                        /* A frame that says so: no axes to set. */
                        g_string_append(gp, "unset logscale\n@no_data\n");
                        continue;
                }
                write_axes(gp, p, logx, logy, k, np);
                g_string_append(gp, "plot ");
                /* Error bars at one x are set a little apart (common.gp's
                 * dodge), up to 8 lines; beyond, the offsets would pass
                 * for differences in x. */
                guint nl = 0, n_dodge = 0, dodged = 0;
                for (guint i = 0; i < panel->len; i++)
                        n_dodge += ((Line *) panel->pdata[i])->errorbars && ((Line *) panel->pdata[i])->pts->len;
                for (guint i = 0; i < panel->len; i++) {
                        Line *l = panel->pdata[i];
                        if (!l->pts->len)
                                continue;
                        g_autofree char *name = block_name(k, i);
                        g_string_append_printf(gp, "%s%s", nl++ ? ", \\\n     " : "", name);
                        bool dodge = l->errorbars && logx && n_dodge > 1 && n_dodge <= 8 && !p->x_categorical;
                        if (l->errorbars)
                                g_string_append_printf(gp, dodge ? " using (dodge($1, %u, %u)):2:3:4" : " using 1:2:3:4",
                                                       ++dodged, n_dodge);
                        else
                                g_string_append(gp, " using 1:2");
                        line_style(gp, l, false);
                        g_string_append(gp, " notitle");
                }
                g_string_append_c(gp, '\n');
        }
        if (legend->len) {
                g_string_append_printf(gp, "\n# the legend, below the panels\nunset title\nunset xlabel\nunset ylabel\n"
                                       "unset border\nunset tics\nunset grid\nunset logscale\nset xrange [0:1]\n"
                                       "set yrange [0:1]\nset tmargin at screen %.3f\nset bmargin at screen 0\n"
                                       "set lmargin at screen 0.03\nset rmargin at screen 0.99\n"
                                       "set key center top horizontal maxrows %u width 0 samplen 2.5 font \",8\"\nplot ",
                                       legend_h / fig_h, legend_rows);
                for (guint i = 0; i < legend->len; i++) {
                        Line *l = legend->pdata[i];
                        g_string_append_printf(gp, "%sNaN", i ? ", \\\n     " : "");
                        line_style(gp, l, true);
                        g_string_append(gp, " title ");
                        gp_string(gp, l->title);
                        g_string_append(gp, " noenhanced");
                }
                g_string_append_c(gp, '\n');
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
        for (guint i = 0; o->series[i]; i++)
                if (table_column(t, o->series[i]) >= 0)
                        g_ptr_array_add(series, o->series[i]);
        g_ptr_array_add(series, NULL);
        Output shape = *o;
        shape.series = (char **) series->pdata;
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
        if (!across) {
                if (!add_rows(&pa, ref, t, path, sel, y, false, "also", error))
                        return FALSE;
        } else {
                /* One value per line, drawn from edge to edge. */
                for (guint r = 0; r < t->rows->len; r++) {
                        char **row = t->rows->pdata[r];
                        if (!select_row(sel, t, row))
                                continue;
                        g_autoptr(GString) key = g_string_new("also");
                        g_autofree char **vals = g_new0(char *, series->len);
                        for (guint i = 0; shape.series[i]; i++) {
                                vals[i] = row[table_column(t, shape.series[i])];
                                g_string_append_printf(key, "\t%s", vals[i]);
                        }
                        for (guint i = 0; i < ref->len; i++)
                                if (!strcmp(((Line *) ref->pdata[i])->key, key->str)) {
                                        g_autofree char *at = where_at(p->exp, o);
                                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                                    "%s: [%s] also_where: '%s' keeps several cells of %s for one "
                                                    "reference line: name the axis in which they differ", at, o->group,
                                                    o->also_where ? o->also_where : "", path);
                                        return FALSE;
                                }
                        Line *l = line_new(key->str);
                        style_line(l, &shape, vals, ref->len + 1, false);
                        double v = number(row[yc]) * p->y_scale;
                        Point a = { 0.5, v, NAN, NAN }, b = { p->categories->len + 0.5, v, NAN, NAN };
                        g_array_append_val(l->pts, a);
                        g_array_append_val(l->pts, b);
                        extend(&pa, NAN, v);
                        l->lines_only = true;
                        g_ptr_array_add(ref, l);
                }
        }
        p->xmin = pa.xmin;
        p->xmax = pa.xmax;
        p->ymin = pa.ymin;
        p->ymax = pa.ymax;
        const char *title = o->also_title ? o->also_title : o->also;
        while (ref->len) {
                Line *l = g_ptr_array_steal_index(ref, 0);
                /* "in-process libdbus, dbus-daemon": the series values
                 * after the reference's own title. */
                char *t2 = series->len > 1 && strcmp(l->title, "measured") ? g_strdup_printf("%s, %s", title, l->title)
                                                                         : g_strdup(title);
                g_free(l->title);
                g_free(l->color);
                g_free(l->point);
                g_free(l->dash);
                g_clear_pointer(&l->vals, g_strfreev);
                l->title = t2;
                l->color = g_strdup("alsocolor");
                l->point = g_strdup("alsopoint");
                l->dash = g_strdup("alsodash");
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
        int kc = table_column(t, "kind");
        if (lc < 0)
                return FALSE;
        guint ns = g_strv_length(o->series);
        g_autofree int *sc = g_new(int, ns + 1);
        for (guint i = 0; i < ns; i++)
                if ((sc[i] = need_column(t, path, o->series[i], error)) < 0)
                        return FALSE;
        /* The kind (roundtrip, oneway) makes lines of its own when both
         * are there. */
        bool kinds = false;
        for (guint r = 1; kc >= 0 && r < t->rows->len; r++)
                kinds |= strcmp(((char **) t->rows->pdata[r])[kc], ((char **) t->rows->pdata[0])[kc]) != 0;
        g_autoptr(GHashTable) by_key = g_hash_table_new(g_str_hash, g_str_equal);
        g_autoptr(GHashTable) percentiles = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        int tc = table_column(t, "transport");
        double top = 1;
        for (guint r = 0; r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                if (sel && !select_row(sel, t, row))
                        continue;
                bool floor = o->bound_direct && tc >= 0 && !strcmp(row[tc], "direct");
                g_autoptr(GString) key = g_string_new(kinds ? row[kc] : "");
                g_autofree char **vals = g_new0(char *, ns + 1);
                for (guint i = 0; i < ns; i++) {
                        vals[i] = row[sc[i]];
                        g_string_append_printf(key, "\t%s", row[sc[i]]);
                }
                Line *l = g_hash_table_lookup(by_key, key->str);
                if (!l) {
                        l = line_new(key->str);
                        style_line(l, o, vals, panel->len + 1, false);
                        if (floor) {
                                /* The harness floor, as on line figures. */
                                g_free(l->title);
                                g_free(l->color);
                                g_free(l->point);
                                g_free(l->dash);
                                g_clear_pointer(&l->vals, g_strfreev);
                                l->title = g_strdup("harness floor (direct)");
                                l->color = gp_call("tcolor", "direct");
                                l->point = gp_call("tpoint", "direct");
                                l->dash = g_strdup("floordash");
                        }
                        if (kinds) {
                                char *t2 = g_strdup_printf("%s, %s", l->title, row[kc]);
                                g_free(l->title);
                                l->title = t2;
                        }
                        if (floor)
                                l->rank[l->n_rank++] = -1;
                        for (guint i = 0; i < ns && l->n_rank < G_N_ELEMENTS(l->rank); i++)
                                l->rank[l->n_rank++] = axis_rank(p->exp, o->series[i], vals[i]);
                        g_ptr_array_add(panel, l);
                        g_hash_table_insert(by_key, l->key, l);
                }
                double pct = number(row[pc]), lat = number(row[lc]) * 1e-9;
                if (isnan(pct) || isnan(lat))
                        continue;
                g_autofree char *seen = g_strdup_printf("%s\t%s", key->str, row[pc]);
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

char *render_plot(const char *file, const char *name, const RenderInputs *in, GError **error)
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
                ok = !lpath || (lt && add_latency(&p, panel, lt, lpath, sel, error));
                if (ok) {
                        g_ptr_array_sort(panel, line_cmp);
                        restyle(panel, o);
                }
        } else {
                const Column *xc = column_find_key(o->x);
                const Column *yc = column_find(o->y[0]);
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
                        ok = add_rows(&p, panel, t, summary, sel, o->y[k], t2 != NULL, "", error);
                        if (ok && t2)
                                ok = add_rows(&p, panel, t2, compare, sel, o->y[k], false, "repro", error);
                        if (!ok)
                                break;
                        g_ptr_array_sort(panel, line_cmp);
                        restyle(panel, o);
                        if (t2 && panel->len) {
                                /* One legend entry for the grey lines. */
                                for (guint i = 0; i < panel->len; i++) {
                                        Line *l = panel->pdata[i];
                                        if (!l->title && !strcmp(l->color, "comparecolor")) {
                                                l->title = g_strdup("committed data (grey)");
                                                break;
                                        }
                                }
                        }
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
        if (ok)
                result = plot_script(&p, file);
        g_ptr_array_unref(p.categories);
        g_ptr_array_unref(p.panels);
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
        g_string_append_printf(tex, "\\midrule\n\\multicolumn{%u}{@{}l}{%s}", nl, title);
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
        guint nvals = g_strv_length(values), nunits = o->units ? g_strv_length(o->units) : 0;
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
                vunit[i] = nunits > 1 ? o->units[i] : o->unit;
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
        if (o->columns_axis && nvals == 1) {
                g_autofree char *head = value_head(o->value, o->unit, pattern, in_list(o->per_message, o->value));
                g_autofree char *axis = column_label(o->columns_axis, false);
                g_autofree char *ae = render_latex_escape(axis);
                g_string_append_printf(tex, "\\multicolumn{%u}{@{}l}{} & \\multicolumn{%u}{c}{%s, by %s} \\\\\n"
                                       "\\cmidrule(l){%u-%u}\n", nl, n_ours, head, ae, nl + 1, nl + n_ours);
        } else if (o->columns_axis) {
                /* Several values: a head per value across over its group. */
                g_string_append_printf(tex, "\\multicolumn{%u}{@{}l}{}", nl);
                GString *rules = g_string_new(NULL);
                for (guint k = 0; k < n_ours;) {
                        guint w = 1;
                        const TableCol *x = &g_array_index(cols, TableCol, k);
                        while (k + w < n_ours && g_array_index(cols, TableCol, k + w).group == x->group)
                                w++;
                        g_autofree char *h = axis_text(o->columns_axis, x->across, true);
                        g_string_append_printf(tex, " & \\multicolumn{%u}{c}{%s}", w, h);
                        g_string_append_printf(rules, "\\cmidrule(l){%u-%u}", nl + k + 1, nl + k + w);
                        k += w;
                }
                g_string_append_printf(tex, " \\\\\n%s\n", rules->str);
                g_string_free(rules, TRUE);
        }
        for (guint i = 0; i < nr; i++) {
                g_autofree char *l = column_label(o->rows[i], false);
                g_autofree char *le = render_latex_escape(l);
                g_string_append_printf(tex, "%s%s", i ? " & " : "", le);
        }
        if (plc >= 0) {
                g_autofree char *le = render_latex_escape(o->published_label);
                g_string_append_printf(tex, "%s%s", nr ? " & " : "", le);
        }
        g_autofree char *src = o->published ? render_latex_escape(o->published_title ? o->published_title : o->published)
                                            : NULL;
        for (guint k = 0; k < cols->len; k++) {
                const TableCol *x = &g_array_index(cols, TableCol, k);
                g_autofree char *h = NULL;
                if (x->kind == TC_RATIO || x->kind == TC_PUB_RATIO) {
                        g_autofree char *d = x->kind == TC_RATIO ? axis_text(o->columns_axis, x->den_text, true)
                                                                 : render_latex_escape(x->den_text);
                        h = g_strdup_printf("\\ensuremath{\\times}%s", d);
                } else if (x->kind == TC_OURS) {
                        h = o->columns_axis && nvals == 1 ? axis_text(o->columns_axis, x->across, true)
                          : value_head(values[x->value], vunit[x->value], pattern, in_list(o->per_message, values[x->value]));
                } else {
                        g_autofree char *sv = render_latex_escape(x->series);
                        const char *pv = o->published_value[x->value];
                        g_autofree char *ph = render_latex_escape(o->published_heads ? o->published_heads[x->value] : pv);
                        h = g_strdup_printf("published (%s)%s%s%s%s", src, x->series[0] ? ": " : "", sv,
                                            npv > 1 ? (x->series[0] ? ", " : ": ") : "", npv > 1 ? ph : "");
                }
                g_string_append_printf(tex, " & %s", h);
        }
        g_string_append(tex, " \\\\\n\\midrule\n");
        g_autofree double *cell = g_new(double, cols->len + 1);
        for (guint k = 0; k < keys->len; k++) {
                char **key = keys->pdata[k];
                for (guint i = 0; i < nr; i++) {
                        g_autofree char *v = axis_text(o->rows[i], key[rc[i]], true);
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
                                if (found && loc[j] >= 0 && hic[j] >= 0) {
                                        double lo = our_value(o, found, values[j], loc[j], mc) * factor[j];
                                        double hi = our_value(o, found, values[j], hic[j], mc) * factor[j];
                                        if (!isnan(lo) && !isnan(hi)) {
                                                g_autofree char *l = format_value(lo, o->digits);
                                                g_autofree char *h = format_value(hi, o->digits);
                                                char *t2 = g_strdup_printf("%s [%s, %s]", text, l, h);
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

/* The distinct values of AXIS among EXP's cells, in file order, as LaTeX. */
static char *axis_values_tex(const Experiment *exp, const char *axis)
{
        g_autoptr(GPtrArray) vals = axis_order(exp, axis);
        GString *s = g_string_new(NULL);

        for (guint i = 0; i < vals->len; i++) {
                g_autofree char *v = axis_text(axis, vals->pdata[i], true);
                g_string_append_printf(s, "%s%s", i ? ", " : "", v);
        }
        return g_string_free(s, FALSE);
}

/* The caption of O when it gives none: what is drawn against what. */
static char *default_caption(const Experiment *exp, const Output *o)
{
        GString *s = g_string_new(NULL);

        if (o->is_table) {
                const char *v = o->columns_axis ? o->value : o->columns[0];
                g_autofree char *l = column_label(v, false);
                g_string_append_printf(s, "%s", l);
                if (o->columns_axis) {
                        g_autofree char *a = column_label(o->columns_axis, false);
                        g_string_append_printf(s, " by %s", a);
                }
        } else if (o->type != FIGURE_LINE) {
                g_string_append(s, o->type == FIGURE_SPECTRUM ? "Latency against percentile" : "Distribution of latency");
        } else {
                for (guint i = 0; o->y[i]; i++) {
                        g_autofree char *l = column_label(o->y[i], true);
                        g_string_append_printf(s, "%s%s", i ? (o->y[i + 1] ? ", " : " and ") : "", l);
                }
                g_autofree char *x = column_label(o->x, false);
                g_string_append_printf(s, " against %s", x);
        }
        if (o->series && o->series[0]) {
                g_string_append(s, o->is_table ? "" : ", one line per ");
                for (guint i = 0; !o->is_table && o->series[i]; i++) {
                        g_autofree char *l = column_label(o->series[i], false);
                        g_string_append_printf(s, "%s%s", i ? " and " : "", l);
                }
        }
        g_string_append_printf(s, " (experiment %s): medians over the repetitions", exp->name);
        if (!o->is_table && o->type == FIGURE_LINE && o->errorbars)
                g_string_append(s, ", with their 95% intervals where the summary has them");
        g_string_append_c(s, '.');
        s->str[0] = g_ascii_toupper(s->str[0]);
        char *t = render_latex_escape(s->str);
        g_string_free(s, TRUE);
        return t;
}

static char *section_tex(const Experiment *exp, const Table *t)
{
        GString *tex = g_string_new(NULL);
        g_autofree char *title = render_latex_escape(exp->title);
        g_autofree char *path = render_latex_escape(exp->path);

        g_string_append_printf(tex, "%% section-%s.tex: generated by `ipclab section` from %s.\n"
                               "%% Write paper/sections/%s.tex to replace it.\n", exp->name, exp->path, exp->name);
        g_string_append_printf(tex, "\\section{%s}\n\\label{sec:%s}\n\n", title, exp->name);
        if (exp->source) {
                g_autofree char *src = render_latex_escape(exp->source);
                g_string_append_printf(tex, "This experiment follows the published measurement \\texttt{%s}.\n", src);
        }
        g_string_append_printf(tex, "Experiment \\texttt{%s} (\\texttt{%s}) measured %u cells", exp->name, path,
                               exp->cells->len);
        g_autoptr(GPtrArray) vary = figure_varying_axes(exp, NULL);
        if (vary->len) {
                g_string_append(tex, "; what varied:\n\\begin{itemize}\n");
                for (guint i = 0; i < vary->len; i++) {
                        g_autofree char *l = column_label(vary->pdata[i], false);
                        g_autofree char *le = render_latex_escape(l);
                        g_autofree char *v = !strcmp(vary->pdata[i], "env") ? NULL : axis_values_tex(exp, vary->pdata[i]);
                        if (!v) {
                                GString *envs = g_string_new(NULL);
                                for (guint k = 0; k < exp->n_envs; k++)
                                        g_string_append_printf(envs, "%s%s", k ? ", " : "", env_name(exp->envs[k]));
                                v = g_string_free(envs, FALSE);
                        }
                        g_string_append_printf(tex, "\\item %s: %s\n", le, v);
                }
                g_string_append(tex, "\\end{itemize}\n");
        } else {
                g_string_append(tex, ".\n");
        }
        const Cell *c0 = exp->cells->pdata[0];
        bool by_count = c0->count != 0;
        g_autofree char *amount = by_count ? axis_values_tex(exp, "count") : axis_values_tex(exp, "duration_ns");
        g_string_append_printf(tex, "A repetition %s %s%s; every cell was repeated %s%u times",
                               by_count ? "exchanges" : "runs for", amount, by_count ? " messages" : "",
                               exp->repeat_auto ? "at least " : "", exp->repeat);
        if (exp->repeat_auto)
                g_string_append_printf(tex, " (until the median's 95\\,\\%% interval was within %.0f\\,\\%%, at most %u)",
                                       exp->ci_target * 100, exp->repeat_max);
        g_string_append_printf(tex, ", after %u warm-up messages", exp->warmup);
        int nc = t ? table_column(t, "n") : -1, fc = t ? table_column(t, "failed") : -1;
        if (nc >= 0 && t->rows->len) {
                double lo = INFINITY, hi = -INFINITY, failed = 0;
                for (guint r = 0; r < t->rows->len; r++) {
                        double n = number(((char **) t->rows->pdata[r])[nc]);
                        lo = MIN(lo, n);
                        hi = MAX(hi, n);
                        if (fc >= 0)
                                failed += number(((char **) t->rows->pdata[r])[fc]);
                }
                if (lo == hi)
                        g_string_append_printf(tex, "; the data hold %.0f repetitions of each of %u cells", lo, t->rows->len);
                else
                        g_string_append_printf(tex, "; the data hold %.0f to %.0f repetitions of each of %u cells",
                                               lo, hi, t->rows->len);
                if (failed > 0)
                        g_string_append_printf(tex, ", %.0f failed", failed);
        }
        g_string_append(tex, ".\n\n");
        for (guint i = 0; i < exp->outputs->len; i++) {
                const Output *o = exp->outputs->pdata[i];
                g_autofree char *body = o->caption ? render_latex_escape(o->caption) : default_caption(exp, o);
                g_autofree char *head = o->title ? render_latex_escape(o->title) : NULL;
                g_autofree char *cap = head ? g_strdup_printf("\\textbf{%s.} %s", head, body) : g_strdup(body);
                if (o->is_table)
                        g_string_append_printf(tex, "\\begin{table}[tbp]\n\\centering\n\\caption{%s}\n\\label{tab:%s-%s}\n"
                                               "\\ipclabTable{%s-%s}\n\\end{table}\n\n", cap, exp->name, o->name,
                                               exp->name, o->name);
                else
                        g_string_append_printf(tex, "\\begin{figure}[tbp]\n\\centering\n\\ipclabFigure{%s-%s}\n"
                                               "\\caption{%s}\n\\label{fig:%s-%s}\n\\end{figure}\n\n", exp->name, o->name,
                                               cap, exp->name, o->name);
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

        return t ? section_tex(exp, t) : NULL;
}
