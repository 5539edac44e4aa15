/* render-plot.c: `ipclab plot` (render.h): what a figure draws, gathered
 * from the summaries and published files before any gnuplot is written
 * (render-gnuplot.c writes it).
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

const char *render_plot_pattern(const Plot *p)
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
        return render_number(value) * p->x_scale;
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
 * render_style_figure() titles it by what varies. */
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
                        l->rank[l->n_rank++] = render_axis_rank(p->exp, axes[i], vals[i]);
        }
        l->title = g_string_free(title, FALSE);
        return l;
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
        int xc = render_need_column(t, path, o->x, error);
        int yc = xc < 0 ? -1 : render_need_column(t, path, y, error);
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
                if ((sc[i] = render_need_column(t, path, p->axes[i], error)) < 0)
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
                if (!render_percentile_supported(t, row, y)) {
                        p->left_out += !grey;
                        continue;
                }
                Point pt = { x_of(p, row[xc]), render_number(row[yc]) * p->y_scale, NAN, NAN };
                if (bars) {
                        pt.lo = render_number(row[loc]) * p->y_scale;
                        pt.hi = render_number(row[hic]) * p->y_scale;
                        double n = nc >= 0 ? render_number(row[nc]) : NAN;
                        if (!grey && !isnan(pt.lo) && !isnan(pt.hi) && n >= 1) {
                                p->n_min = p->n_min ? MIN(p->n_min, (guint) n) : (guint) n;
                                p->n_max = MAX(p->n_max, (guint) n);
                        }
                }
                for (guint i = 0; i < l->pts->len; i++)
                        if (g_array_index(l->pts, Point, i).x == pt.x) {
                                g_autofree char *at = render_where_at(p->exp, o);
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
                if ((!sel || select_row(sel, t, row)) && !isnan(render_number(row[mc]))) {
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
                double size = render_number(row[sc]), mib = render_number(row[mc]), msgs = total ? render_number(row[nc]) : 1;
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
        int xc = render_need_column(t, path, o->published_x, error);
        if (xc < 0)
                return FALSE;
        int sc = o->published_series ? table_column(t, o->published_series) : -1;
        g_autofree char *source = o->published_title ? g_strdup(o->published_title)
                                : g_strndup(o->published, strcspn(o->published, "."));
        g_autoptr(GHashTable) by = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        guint ny = g_strv_length(o->published_y);
        /* One line per published_y column and published_series value. */
        for (guint y = 0; y < ny; y++) {
                int yc = render_need_column(t, path, o->published_y[y], error);
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
                        Point pt = { render_number(row[xc]) * p->x_scale,
                                     render_number(row[yc]) * o->published_scales[y] * p->y_scale, NAN, NAN };
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
        int xc = render_need_column(t, path, o->x, error), yc = xc < 0 ? -1 : render_need_column(t, path, y, error);
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
                                        g_autofree char *at = render_where_at(p->exp, o);
                                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                                    "%s: [%s] also_where: '%s' keeps several cells of %s for one "
                                                    "reference line: name the axis in which they differ", at, o->group,
                                                    o->also_where ? o->also_where : "", path);
                                        return FALSE;
                                }
                        Line *l = series_line(&pa, key, pa.axes, vals);
                        double v = render_number(row[yc]) * p->y_scale;
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
        int pc = render_need_column(t, path, "percentile", error);
        int lc = pc < 0 ? -1 : render_need_column(t, path, "latency_ns", error);
        if (lc < 0)
                return FALSE;
        guint ns = g_strv_length(p->axes);
        g_autofree int *sc = g_new(int, ns + 1);
        for (guint i = 0; i < ns; i++)
                if ((sc[i] = render_need_column(t, path, p->axes[i], error)) < 0)
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
                double pct = render_number(row[pc]), lat = render_number(row[lc]) * 1e-9;
                if (isnan(pct) || isnan(lat))
                        continue;
                g_autofree char *seen = g_strdup_printf("%s\t%s", key, row[pc]);
                if (g_hash_table_contains(percentiles, seen)) {
                        g_autofree char *at = render_where_at(p->exp, o);
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

char *render_plot(const char *file, const char *name, const RenderInputs *in, char **facts, GError **error)
{
        const char *summary = in->summary, *compare = in->compare;
        char *result = NULL;

        const Output *o = NULL;
        g_autoptr(Experiment) exp = render_load_output(file, name, false, &o, error);
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
                                        if (render_axis_rank(exp, o->x, vals->pdata[j]) < render_axis_rank(exp, o->x, vals->pdata[i])) {
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
                                        g_autofree char *at = render_where_at(exp, o);
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
                render_style_figure(&p);
                result = render_plot_script(&p, file);
                if (facts)
                        *facts = render_plot_facts(&p);
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
