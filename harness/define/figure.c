/* figure.c: [figure NAME] and [table NAME] groups, parsed and checked
 * (see figure.h).  The key table below describes every key once. */
#include "figure-internal.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>

#include "columns.h"
#include "select.h"
#include "suggest.h"
#include "table.h"

enum {
        FOR_FIGURE = 1 << 0,
        FOR_TABLE = 1 << 1,
        FOR_BOTH = FOR_FIGURE | FOR_TABLE,
};

static const char *const type_values[] = { "line", "spectrum", "cdf", NULL };
static const char *const bound_values[] = { "memcpy", "direct", NULL };

/* Selectors, names and columns: no text the paper prints, but one line. */
#define ANY_LENGTH ((guint64) 1 << 20)

#define KEY(name, kinds, field, type, values, def, max, help) \
        { { name, type, values, def, false, 0, max, help }, kinds, offsetof(Output, field), 0, NULL }

static const GroupKey figure_keys[] = {
        KEY("title", FOR_BOTH, title, OPT_STRING, NULL, NULL, 500,
            "a short title: the caption's first words, in bold (default: none)"),
        KEY("caption", FOR_BOTH, caption, OPT_STRING, NULL, NULL, 4000,
            "the caption under it in the paper (default: generated)"),
        KEY("where", FOR_BOTH, where, OPT_STRING, NULL, NULL, ANY_LENGTH,
            "which cells: a selector as in claims, transport=pipe|fifo,size>=4KiB"),
        { { "type", OPT_ENUM, type_values, "line", false, 0, 0,
            "line (default), spectrum (latency against percentile, 1/(1-p) scale) "
            "or cdf (fraction against latency); spectrum and cdf read `ipclab latency`" },
          FOR_FIGURE, offsetof(Output, type), 0, "type" },
        KEY("y", FOR_FIGURE, y, OPT_LIST, NULL, NULL, 0,
            "summary columns to draw; several (;) are panels side by side, in one unit, sharing "
            "the y range when they are one quantity (a latency's median and 99th percentile) "
            "(default: lat_p50_ns for round trips, throughput_MiBps one-way, rate_per_s callrate)"),
        KEY("x", FOR_FIGURE, x, OPT_STRING, NULL, NULL, ANY_LENGTH,
            "the axis along x (default: the numeric axis with most values)"),
        KEY("series", FOR_FIGURE, series, OPT_LIST, NULL, NULL, 0,
            "axes (;) whose values make the lines, or none (default: the other axes that vary)"),
        KEY("logx", FOR_FIGURE, logx, OPT_TRISTATE, NULL, NULL, 0,
            "true, false or auto (default: log where the values span more than about a decade)"),
        KEY("logy", FOR_FIGURE, logy, OPT_TRISTATE, NULL, NULL, 0, "true, false or auto (as logx)"),
        KEY("errorbars", FOR_FIGURE, errorbars, OPT_BOOL, NULL, "true", 0,
            "true (default) or false: the 95% interval of the median (the range of the repetitions "
            "with fewer than 6), where the column has one (NAME_lo, NAME_hi)"),
        { { "bounds", OPT_LIST, bound_values, NULL, false, 0, 0,
            "memcpy (the time or rate of memcpy for the message size; x=size) "
            "and/or direct (transport=direct drawn as the black dash-dot-dot floor, one per payload "
            "where payload makes lines; spectrum and cdf too)" },
          FOR_FIGURE, offsetof(Output, bounds), 0, "bound" },
        KEY("also", FOR_BOTH, also, OPT_STRING, NULL, NULL, ANY_LENGTH,
            "another experiment whose cells are drawn as a reference line "
            "(tables: a last row, its first value in each column, matched on the columns axis)"),
        KEY("also_where", FOR_BOTH, also_where, OPT_STRING, NULL, NULL, ANY_LENGTH,
            "which of its cells (a selector)"),
        KEY("also_title", FOR_BOTH, also_title, OPT_STRING, NULL, NULL, 200,
            "its legend entry or row label (default: the experiment's name)"),
        KEY("published", FOR_BOTH, published, OPT_STRING, NULL, NULL, ANY_LENGTH,
            "a file in data/published/ to draw or tabulate beside ours"),
        KEY("published_x", FOR_FIGURE, published_x, OPT_STRING, NULL, NULL, ANY_LENGTH,
            "its column along x (in the x axis's unit)"),
        KEY("published_y", FOR_FIGURE, published_y, OPT_LIST, NULL, NULL, 0,
            "its columns (;) along y, one line (per published_series value) each"),
        KEY("published_series", FOR_BOTH, published_series, OPT_STRING, NULL, NULL, ANY_LENGTH,
            "its column whose values make separate lines (tables: columns)"),
        KEY("published_where", FOR_BOTH, published_where, OPT_STRING, NULL, NULL, ANY_LENGTH,
            "which of its rows: a selector on its columns"),
        { { "published_scale", OPT_NUMBER, NULL, NULL, false, 1, 0,
            "factor from its unit to our column's (1000 for us to ns); default: "
            "from the unit its column's name ends in (_s, _ms, _us, _ns, _MiBps, _per_s), else 1" },
          FOR_BOTH, offsetof(Output, published_scale), 0, NULL },
        KEY("published_title", FOR_BOTH, published_title, OPT_STRING, NULL, NULL, 200,
            "its legend entry or column head: published (TITLE)"),
        KEY("published_heads", FOR_BOTH, published_heads, OPT_LIST, NULL, NULL, 1000,
            "with several published_y or published_value columns, the title (;) of "
            "each: published (TITLE): HEAD (default: the column's name)"),
        KEY("rows", FOR_TABLE, rows, OPT_LIST, NULL, NULL, 0,
            "axes (;) that make the rows (default: the axes that vary, less columns)"),
        KEY("columns", FOR_TABLE, columns, OPT_LIST, NULL, NULL, 0,
            "an axis whose values make the columns, or value columns (;) "
            "(default: the numeric axis with most values)"),
        KEY("value", FOR_TABLE, values, OPT_LIST, NULL, NULL, 0,
            "the summary columns (;) in the cells, with columns= an axis: several make a group "
            "of columns per value across (default as y)"),
        { { "unit", OPT_LIST, NULL, NULL, false, 0, 0,
            "display unit: ns, us, ms, s for times; KiB/s, MiB/s, GiB/s; 1/s, k/s, M/s; "
            "several (;): one per value= (or columns=) column" },
          FOR_TABLE, offsetof(Output, units), GROUP_KEY_REPEATS, NULL },
        KEY("per_message", FOR_TABLE, per_message, OPT_LIST, NULL, NULL, 0,
            "value columns (;) shown per message: divided by the summary's messages"),
        KEY("intervals", FOR_TABLE, intervals, OPT_BOOL, NULL, "false", 0,
            "true: each value with its 95% interval, v [lo, hi], where the summary has "
            "one (NAME_lo, NAME_hi); default false"),
        KEY("ratio", FOR_TABLE, ratio, OPT_LIST, NULL, NULL, 0,
            "NUM/DEN pairs (;) of values of the columns= axis: after NUM's column, a column "
            "xDEN (\\ensuremath{\\times}DEN in LaTeX) holding NUM's value over DEN's in the same row (env-cost: vm/host)"),
        { { "digits", OPT_UINT, NULL, NULL, false, 0, 6,
            "fixed decimals 0-6 (default: three significant figures, as the paper)" },
          FOR_TABLE, offsetof(Output, digits), 0, NULL },
        KEY("published_rows", FOR_TABLE, published_rows, OPT_LIST, NULL, NULL, 0,
            "AXIS=COLUMN pairs (;): the published column matched to each row axis"),
        KEY("published_value", FOR_TABLE, published_value, OPT_LIST, NULL, NULL, 0,
            "the published columns (;) shown beside ours; one whose name says no unit (speedup_pct) is shown as "
            "published"),
        KEY("published_ratio", FOR_TABLE, published_ratio, OPT_LIST, NULL, NULL, 0,
            "NUM/DEN pairs (;) of published_series values: a ratio column, as ratio="),
        KEY("published_columns", FOR_TABLE, published_columns, OPT_LIST, NULL, NULL, 0,
            "OURS=THEIRS pairs (;): the published rows (those published_where keeps) "
            "as rows after ours, each value column OURS showing column THEIRS in our unit, labelled by published_label"),
        KEY("published_bounds", FOR_TABLE, published_bounds, OPT_LIST, NULL, NULL, 0,
            "THEIRS=COLUMN pairs (;): the column saying how each published number is "
            "qualified (> over, < under, ~ about, = as stated), printed before it"),
        KEY("published_label", FOR_TABLE, published_label, OPT_STRING, NULL, NULL, ANY_LENGTH,
            "a published column shown first in each row, from the row matched "
            "(the published test a row's numbers come from); with published_columns=, the published rows' label"),
};

/* group_parse_keys() stores an OPT_ENUM or OPT_TRISTATE as an int. */
G_STATIC_ASSERT(sizeof(FigureType) == sizeof(int) && sizeof(Scale) == sizeof(int));

static const char *kinds_name(unsigned kinds)
{
        return kinds == FOR_BOTH ? "figure,table" : kinds == FOR_TABLE ? "table" : "figure";
}

char *figure_key_help(void)
{
        GString *s = g_string_new(NULL);

        group_key_help(s, figure_keys, G_N_ELEMENTS(figure_keys), kinds_name);
        return g_string_free(s, FALSE);
}

void output_free(Output *o)
{
        if (!o)
                return;
        g_free(o->name);
        g_free(o->group);
        g_free(o->title);
        g_free(o->caption);
        g_free(o->where);
        g_strfreev(o->y);
        g_free(o->x);
        g_strfreev(o->series);
        g_strfreev(o->bounds);
        g_free(o->also);
        g_free(o->also_where);
        g_free(o->also_title);
        g_free(o->published);
        g_free(o->published_x);
        g_strfreev(o->published_y);
        g_free(o->published_scales);
        g_free(o->published_series);
        g_free(o->published_where);
        g_free(o->published_title);
        g_strfreev(o->rows);
        g_free(o->columns_axis);
        g_strfreev(o->columns);
        g_free(o->value);
        g_strfreev(o->values);
        g_free(o->unit);
        g_strfreev(o->units);
        g_strfreev(o->per_message);
        g_strfreev(o->ratio);
        g_strfreev(o->published_rows);
        g_strfreev(o->published_value);
        g_strfreev(o->published_heads);
        g_strfreev(o->published_ratio);
        g_free(o->published_label);
        g_strfreev(o->published_columns);
        g_free(o->published_columns_scale);
        g_strfreev(o->published_bounds);
        g_free(o);
}

/* ---- the experiment's axes ---------------------------------------------- */

static bool selected(const Selector *sel, const Cell *cell)
{
        return !sel || select_cell(sel, cell);
}

/* The distinct values of AXIS among EXP's cells that SEL keeps. */
static guint axis_values(const Experiment *exp, const Selector *sel, const char *axis, bool *applies)
{
        g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

        *applies = false;
        for (guint i = 0; i < exp->cells->len; i++) {
                if (!selected(sel, exp->cells->pdata[i]))
                        continue;
                char *v = select_cell_value(exp->cells->pdata[i], axis);
                if (!v)
                        return 0;
                *applies |= strcmp(v, "-") != 0;
                g_hash_table_add(seen, v);
        }
        return g_hash_table_size(seen);
}

GPtrArray *figure_varying_axes(const Experiment *exp, const char *where)
{
        g_autoptr(Selector) sel = where ? select_parse(where, SELECT_AXES, NULL) : NULL;
        GPtrArray *out = g_ptr_array_new();
        bool applies;

        for (const Column *c = column_table; c->name; c++)
                if (c->kind == COLUMN_AXIS && strcmp(c->name, "env") &&
                    axis_values(exp, sel, c->name, &applies) > 1)
                        g_ptr_array_add(out, (gpointer) c->name);
        if (exp->n_envs > 1)
                g_ptr_array_insert(out, 0, (gpointer) "env");
        return out;
}

static bool numeric_axis(const char *col)
{
        const Column *c = column_find_key(col);
        return c && (!strcmp(c->name, "size_B") || !strcmp(c->name, "count") || !strcmp(c->name, "duration_ns"));
}

/* The numeric axis with most values among the cells SEL keeps, else the
 * axis with most values, else size_B. */
static const char *default_x(const Experiment *exp, const Selector *sel)
{
        const char *best = NULL, *best_any = NULL;
        guint most = 1, most_any = 1;
        bool applies;

        for (const Column *c = column_table; c->name; c++) {
                if (c->kind != COLUMN_AXIS || !strcmp(c->name, "env"))
                        continue;
                guint n = axis_values(exp, sel, c->name, &applies);
                if (numeric_axis(c->name) && n > most) {
                        most = n;
                        best = c->name;
                }
                if (n > most_any) {
                        most_any = n;
                        best_any = c->name;
                }
        }
        return best ? best : best_any ? best_any : "size_B";
}

/* The metric for the cells' pattern: round trips first, then one-way,
 * then callrate; *PATTERN gets the pattern's name. */
static const char *default_metric(const Experiment *exp, const Selector *sel, const char **pattern)
{
        static const struct { Pattern p; const char *metric; } order[] = {
                { PATTERN_ROUNDTRIP, "lat_p50_ns" },
                { PATTERN_ONEWAY, "throughput_MiBps" },
                { PATTERN_CALLRATE, "rate_per_s" },
        };

        for (size_t k = 0; k < G_N_ELEMENTS(order); k++)
                for (guint i = 0; i < exp->cells->len; i++) {
                        const Cell *cell = exp->cells->pdata[i];
                        if (cell->pattern == order[k].p && selected(sel, cell)) {
                                *pattern = pattern_name(order[k].p);
                                return order[k].metric;
                        }
                }
        *pattern = NULL;
        return "elapsed_ns";
}

/* How many patterns the cells SEL keeps have. */
static guint n_patterns(const Experiment *exp, const Selector *sel)
{
        bool applies;
        return axis_values(exp, sel, "pattern", &applies);
}

/* ---- parsing ------------------------------------------------------------- */

void figure_bad(Parse *p, const char *key, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        group_vbad(p, key, fmt, ap);
        va_end(ap);
}

/* Checks that AXIS (a key or column name) is an axis EXP has values of
 * among the cells SEL keeps; returns its column name or NULL. */
static const char *check_axis(Parse *p, const char *key, const char *axis, const Experiment *exp,
                              const Selector *sel)
{
        const Column *c = column_find_key(axis);
        bool applies;

        if (!c) {
                g_autofree char *hint = column_hint(axis, true);
                figure_bad(p, key, "'%s' is not an axis (allowed: transport, bus, payload, size, pattern, reply, "
                    "marshal, cpus, count, duration, env, machine)%s", axis, hint);
                return NULL;
        }
        /* Where a cell runs is the run's choice (env=, --host, --slurm):
         * every cell has an environment and a machine.  Without cells (a
         * mistake in the experiment's axes, reported on its own) whether
         * the axis has values cannot be told. */
        if (!strcmp(c->name, "env") || !strcmp(c->name, "machine") || !exp->cells->len)
                return c->name;
        /* A where= that keeps no cell is warned about by `ipclab check`;
         * the axes are then checked against every cell. */
        guint kept = 0;
        for (guint i = 0; i < exp->cells->len; i++)
                kept += selected(sel, exp->cells->pdata[i]);
        axis_values(exp, kept ? sel : NULL, c->name, &applies);
        if (!applies) {
                figure_bad(p, key, "axis '%s' is not in this experiment (no cell it draws has a %s)", axis, c->key);
                return NULL;
        }
        return c->name;
}

/* Checks that NAME is a column of the summary that holds a value. */
static const Column *check_value_column(Parse *p, const char *key, const char *name)
{
        const Column *c = column_find(name);

        if (!c) {
                g_autofree char *hint = column_hint(name, false);
                figure_bad(p, key, "unknown column '%s' (see `ipclab columns`)%s", name, hint);
                return NULL;
        }
        if ((c->kind != COLUMN_MEASURED && c->kind != COLUMN_SUMMARY) || !(c->flags & COLUMN_IN_SUMMARY)) {
                figure_bad(p, key, "'%s' is not a measured column of the summary", name);
                return NULL;
        }
        return c;
}

/* A list item's identity: axes by their column (size and size_B are one). */
static const char *item_identity(const char *item)
{
        const Column *c = column_find_key(item);

        return c ? c->name : item;
}

/* where=, and the default metric (with several patterns, the first's). */
static void parse_where(FigureParse *f)
{
        Output *o = f->o;
        const char *pattern;

        if (o->where) {
                g_autoptr(GError) e = NULL;
                f->sel = select_parse(o->where, SELECT_AXES, &e);
                if (!f->sel)
                        figure_bad(&f->p, "where", "%s", e->message);
        }
        f->metric = default_metric(f->exp, f->sel, &pattern);
        if (pattern && n_patterns(f->exp, f->sel) > 1)
                f->pattern_where = g_strdup_printf("%s%spattern=%s", o->where ? o->where : "",
                                                   o->where ? "," : "", pattern);
}

/* published= and what only applies with it; also=. */
static void parse_published_also(FigureParse *f, const char *published_dir)
{
        Output *o = f->o;
        Parse *p = &f->p;

        f->pub = o->published ? group_read_published(p, published_dir, o->published) : NULL;
        if (f->pub) {
                g_autoptr(GError) e = NULL;
                g_autoptr(Selector) ps = select_parse(o->published_where, SELECT_COLUMNS, &e);
                if (!ps || !select_check_table(ps, f->pub, o->published, &e))
                        figure_bad(p, "published_where", "%s", e->message);
                for (guint r = 0; ps && !e && r < f->pub->rows->len; r++)
                        o->published_kept += select_row(ps, f->pub, f->pub->rows->pdata[r]);
        }
        for (size_t i = 0; !o->published && i < G_N_ELEMENTS(figure_keys); i++)
                if (g_str_has_prefix(figure_keys[i].opt.key, "published_") &&
                    g_key_file_has_key(p->kf, p->group, figure_keys[i].opt.key, NULL))
                        figure_bad(p, figure_keys[i].opt.key, "applies only with published=");

        /* A reference experiment (figures: lines; tables: a last row). */
        if (o->also && (strspn(o->also, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
                        != strlen(o->also) || strlen(o->also) > 64))
                figure_bad(p, "also", "'%s' is not an experiment's name", o->also);
        if (!o->also && (o->also_where || o->also_title))
                figure_bad(p, o->also_where ? "also_where" : "also_title", "applies only with also=");
        if (o->also_where) {
                g_autoptr(GError) e = NULL;
                g_autoptr(Selector) as = select_parse(o->also_where, SELECT_AXES, &e);
                if (!as)
                        figure_bad(p, "also_where", "%s", e->message);
        }
}

/* columns= and rows=, and their defaults: the numeric axis with most
 * values across, the other varying axes down. */
static void parse_table_layout(FigureParse *f)
{
        Output *o = f->o;
        Parse *p = &f->p;
        g_auto(GStrv) cols = g_steal_pointer(&o->columns);
        bool given = cols != NULL;

        o->value = o->values && o->values[0] ? g_strdup(o->values[0]) : NULL;
        o->unit = o->units && o->units[0] ? g_strdup(o->units[0]) : NULL;
        if (cols && cols[0] && !cols[1] && column_find_key(cols[0])) {
                o->columns_axis = g_strdup(check_axis(p, "columns", cols[0], f->exp, f->sel));
        } else if (cols) {
                for (guint i = 0; cols[i]; i++)
                        check_value_column(p, "columns", cols[i]);
                o->columns = g_steal_pointer(&cols);
                if (o->value)
                        figure_bad(p, "value", "applies only when columns= is an axis");
        }
        for (guint i = 0; o->rows && o->rows[i]; i++) {
                const char *c = check_axis(p, "rows", o->rows[i], f->exp, f->sel);
                if (c && o->columns_axis && !strcmp(c, o->columns_axis))
                        figure_bad(p, "rows", "'%s' is already across (columns=)", o->rows[i]);
                if (c) {
                        g_free(o->rows[i]);
                        o->rows[i] = g_strdup(c);
                }
        }
        g_autoptr(GPtrArray) vary = figure_varying_axes(f->exp, f->pattern_where ? f->pattern_where : o->where);
        if (!given && !o->columns && !o->columns_axis) {
                const char *x = default_x(f->exp, f->sel);
                bool x_varies = false;
                for (guint i = 0; i < vary->len; i++)
                        x_varies |= !strcmp(vary->pdata[i], x);
                if (x_varies && (vary->len > 1 || o->rows))
                        o->columns_axis = g_strdup(x);
                else
                        o->columns = g_strsplit(o->value ? o->value : f->metric, ";", -1);
        }
        if (!o->rows) {
                GPtrArray *r = g_ptr_array_new();
                for (guint i = 0; i < vary->len; i++)
                        if (!o->columns_axis || strcmp(vary->pdata[i], o->columns_axis))
                                g_ptr_array_add(r, g_strdup(vary->pdata[i]));
                if (!r->len)
                        g_ptr_array_add(r, g_strdup("transport"));
                g_ptr_array_add(r, NULL);
                o->rows = (char **) g_ptr_array_free(r, FALSE);
        }
        if (o->columns_axis && !o->value) {
                o->value = g_strdup(f->metric);
                g_strfreev(o->values);
                o->values = g_strsplit(f->metric, ";", -1);
                /* The default metric is the first pattern's: only its
                 * cells, as for the default y. */
                if (f->pattern_where && !o->where)
                        o->where = g_strdup(f->pattern_where);
        }
        if (o->columns && f->pattern_where && !o->where)
                o->where = g_strdup(f->pattern_where);
}

/* The value columns, each with its display unit (one for all, or one
 * each), per_message=, intervals= and ratio=. */
static void check_table_values(FigureParse *f)
{
        Output *o = f->o;
        Parse *p = &f->p;
        char **vals = o->columns_axis ? o->values : o->columns;
        guint nvals = vals ? g_strv_length(vals) : 0, nunits = o->units ? g_strv_length(o->units) : 0;

        if (nunits > 1 && nunits != nvals)
                figure_bad(p, "unit", "%u units for %u value columns: give one, or one each", nunits, nvals);
        for (guint i = 0; i < nvals; i++) {
                const Column *c = o->columns_axis ? check_value_column(p, "value", vals[i]) : column_find(vals[i]);
                const char *u = nunits > 1 && i < nunits ? o->units[i] : o->unit;
                if (u && c && !figure_unit_fits(c->unit, u))
                        figure_bad(p, "unit", "'%s' does not fit %s, measured in %s", u, c->name,
                            c->unit[0] ? c->unit : "no unit");
        }
        for (guint i = 0; o->per_message && o->per_message[i]; i++)
                if (!figure_in_strv(vals, o->per_message[i]))
                        figure_bad(p, "per_message", "'%s' is not one of the table's value columns", o->per_message[i]);
        if (o->intervals) {
                bool any = false;
                for (guint k = 0; k < nvals; k++) {
                        const Column *c = column_find(vals[k]);
                        any |= c && (c->flags & COLUMN_HAS_CI);
                }
                if (!any)
                        figure_bad(p, "intervals", "no value column of the table has an interval in the summary");
        }
        if (o->ratio && !o->columns_axis)
                figure_bad(p, "ratio", "applies only when columns= is an axis (its values are the ratio's terms)");
        for (guint i = 0; o->ratio && o->columns_axis && o->ratio[i]; i++) {
                g_auto(GStrv) nd = g_strsplit(o->ratio[i], "/", -1);
                bool ok = g_strv_length(nd) == 2;
                for (guint k = 0; ok && k < 2; k++) {
                        g_autofree char *w = g_strdup_printf("%s=%s", o->columns_axis, g_strstrip(nd[k]));
                        g_autoptr(Selector) rs = select_parse(w, SELECT_AXES, NULL);
                        guint n = 0;
                        for (guint c = 0; rs && c < f->exp->cells->len; c++)
                                n += selected(f->sel, f->exp->cells->pdata[c]) && select_cell(rs, f->exp->cells->pdata[c]);
                        ok = n > 0;
                }
                if (!ok && f->exp->cells->len)
                        figure_bad(p, "ratio", "'%s' is not NUM/DEN, two values of %s among the table's cells",
                            o->ratio[i], o->columns_axis);
        }
}

static void parse_table(FigureParse *f)
{
        Output *o = f->o;

        parse_table_layout(f);
        check_table_values(f);
        figure_check_pub(f, "published_label", o->published_label);
        figure_check_published_ratio(f);
        figure_check_pub(f, "published_series", o->published_series);
        figure_check_published_rows(f);
        figure_check_published_columns(f);
        if (o->published && !o->published_columns && (!o->published_rows || !o->published_value))
                figure_bad(&f->p, o->published_rows ? "published_value" : "published_rows",
                    "missing: a published column is matched to our rows by published_rows= "
                    "and shown from published_value=");
        for (guint i = 0; o->published_value && o->published_value[i]; i++)
                figure_check_pub(f, "published_value", o->published_value[i]);
}

/* y= and x=, or their defaults; none for latency figures. */
static void parse_figure_axes(FigureParse *f)
{
        Output *o = f->o;
        Parse *p = &f->p;
        bool latency = o->type != FIGURE_LINE;
        g_autofree char *x = g_steal_pointer(&o->x);

        if (latency && (o->y || x)) {
                figure_bad(p, o->y ? "y" : "x", "a %s draws latency_ns and its percentiles from `ipclab latency`: "
                    "x and y do not apply", type_values[o->type]);
        } else if (o->y) {
                const Column *first = NULL;
                for (guint i = 0; o->y[i]; i++) {
                        const Column *c = check_value_column(p, "y", o->y[i]);
                        /* Panels share the y axis, so its unit. */
                        if (c && first && strcmp(c->unit, first->unit))
                                figure_bad(p, "y", "%s (%s) and %s (%s): panels share one y axis, so one unit",
                                    first->name, first->unit[0] ? first->unit : "no unit", c->name,
                                    c->unit[0] ? c->unit : "no unit");
                        first = first ? first : c;
                }
        } else if (!latency) {
                o->y = g_strsplit(f->metric, ";", -1);
                if (f->pattern_where && !o->where) {
                        o->where = g_strdup(f->pattern_where);
                        g_clear_pointer(&f->sel, select_free);
                        f->sel = select_parse(o->where, SELECT_AXES, NULL);
                }
        }
        if (latency)
                o->x = NULL;
        else if (x)
                o->x = g_strdup(check_axis(p, "x", x, f->exp, f->sel));
        else
                o->x = g_strdup(default_x(f->exp, f->sel));
}

/* series=: axes, none, or the other axes that vary. */
static void parse_figure_series(FigureParse *f)
{
        Output *o = f->o;

        if (o->series && o->series[0] && !o->series[1] && !strcmp(o->series[0], "none")) {
                g_clear_pointer(&o->series[0], g_free);
        } else if (o->series) {
                for (guint i = 0; o->series[i]; i++) {
                        const char *c = check_axis(&f->p, "series", o->series[i], f->exp, f->sel);
                        if (c && o->x && !strcmp(c, o->x))
                                figure_bad(&f->p, "series", "'%s' is already along x", o->series[i]);
                        if (c) {
                                g_free(o->series[i]);
                                o->series[i] = g_strdup(c);
                        }
                }
        } else {
                g_autoptr(GPtrArray) vary = figure_varying_axes(f->exp, o->where);
                GPtrArray *s = g_ptr_array_new();
                for (guint i = 0; i < vary->len; i++)
                        if (!o->x || strcmp(vary->pdata[i], o->x))
                                g_ptr_array_add(s, g_strdup(vary->pdata[i]));
                g_ptr_array_add(s, NULL);
                o->series = (char **) g_ptr_array_free(s, FALSE);
        }
}

/* errorbars= where given, bounds=, and the published lines. */
static void parse_figure_extras(FigureParse *f)
{
        Output *o = f->o;
        Parse *p = &f->p;

        if (g_key_file_has_key(p->kf, p->group, "errorbars", NULL) && o->errorbars && o->y)
                for (guint i = 0; o->y[i]; i++) {
                        const Column *c = column_find(o->y[i]);
                        if (c && !(c->flags & COLUMN_HAS_CI))
                                figure_bad(p, "errorbars", "%s has no interval in the summary", o->y[i]);
                }
        o->bound_memcpy = figure_in_strv(o->bounds, "memcpy");
        if (o->bound_memcpy && o->x && strcmp(o->x, "size_B"))
                figure_bad(p, "bounds", "memcpy is drawn for the message size: it needs x=size");
        o->bound_direct = figure_in_strv(o->bounds, "direct");
        guint n = 0;
        for (guint c = 0; o->bound_direct && c < f->exp->cells->len; c++) {
                const Cell *cell = f->exp->cells->pdata[c];
                n += selected(f->sel, cell) && !strcmp(cell->transport, "direct");
        }
        if (o->bound_direct && !n && f->exp->cells->len)
                figure_bad(p, "bounds", "direct: no cell it draws has transport=direct");
        if (o->published && (!o->published_x || !o->published_y))
                figure_bad(p, o->published_x ? "published_y" : "published_x", "missing: published numbers are "
                    "drawn from the columns published_x= and published_y=");
        if (o->published && o->type != FIGURE_LINE)
                figure_bad(p, "published", "published numbers are drawn on line figures only");
        figure_check_pub(f, "published_x", o->published_x);
        for (guint i = 0; o->published_y && o->published_y[i]; i++)
                figure_check_pub(f, "published_y", o->published_y[i]);
        figure_check_pub(f, "published_series", o->published_series);
}

Output *figure_parse(GKeyFile *kf, const char *group, const Experiment *exp,
                     const char *published_dir, FigureReport report, void *ctx)
{
        g_autoptr(Output) o = g_new0(Output, 1);
        bool table = g_str_has_prefix(group, "table ");
        unsigned kind = table ? FOR_TABLE : FOR_FIGURE;
        FigureParse f = { .p = { .kf = kf, .group = group, .report = report, .ctx = ctx, .ok = true },
                          .o = o, .exp = exp };

        o->is_table = table;
        o->group = g_strdup(group);
        o->name = g_strdup(group + (table ? strlen("table ") : strlen("figure ")));
        o->digits = -1;
        o->published_scale = 1;
        if (!o->name[0] || strlen(o->name) > 64 || strspn(o->name, "abcdefghijklmnopqrstuvwxyz"
                                                          "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != strlen(o->name))
                figure_bad(&f.p, NULL, "%s name must be letters, digits, '-' or '_'", table ? "table" : "figure");
        group_check_keys(&f.p, figure_keys, G_N_ELEMENTS(figure_keys), kind, table ? "table" : "figure");
        group_parse_keys(&f.p, figure_keys, G_N_ELEMENTS(figure_keys), kind, o, item_identity);
        f.scale_given = g_key_file_has_key(kf, group, "published_scale", NULL);

        parse_where(&f);
        parse_published_also(&f, published_dir);
        if (table) {
                parse_table(&f);
        } else {
                parse_figure_axes(&f);
                parse_figure_series(&f);
                parse_figure_extras(&f);
        }
        figure_published_scales(&f);
        g_clear_pointer(&f.sel, select_free);
        g_free(f.pattern_where);
        g_clear_pointer(&f.pub, table_free);
        if (!f.p.ok)
                return NULL;
        return g_steal_pointer(&o);
}

static void ignore(void *ctx, const char *group, const char *key, const char *msg)
{
        (void) ctx;
        (void) group;
        (void) key;
        (void) msg;
}

void figure_defaults(const Experiment *exp, GPtrArray *outputs)
{
        const char *groups[] = { "figure main", "table main" };
        g_autoptr(GKeyFile) kf = g_key_file_new();

        for (size_t i = 0; i < G_N_ELEMENTS(groups); i++) {
                /* A group with no keys: every key at its default (which
                 * cannot be a mistake). */
                Output *o = figure_parse(kf, groups[i], exp, ".", ignore, NULL);
                if (o) {
                        o->is_default = true;
                        g_ptr_array_add(outputs, o);
                }
        }
}

char *figure_inputs(const Experiment *exp, const Output *out)
{
        GString *s = g_string_new(NULL);

        if (out->also)
                g_string_append_printf(s, "exp:%s", out->also);
        if (!out->is_table && out->type != FIGURE_LINE)
                g_string_append_printf(s, "%slatency:%s", s->len ? " " : "", exp->name);
        if (out->published)
                g_string_append_printf(s, "%spublished:data/published/%s", s->len ? " " : "", out->published);
        if (!s->len)
                g_string_append_c(s, '-');
        return g_string_free(s, FALSE);
}

guint figure_cells_selected(const Experiment *exp, const Output *out)
{
        g_autoptr(Selector) sel = select_parse(out->where, SELECT_AXES, NULL);
        guint n = 0;

        for (guint i = 0; sel && i < exp->cells->len; i++)
                n += select_cell(sel, exp->cells->pdata[i]);
        return n;
}

char *figure_describe(const Output *o)
{
        GString *s = g_string_new(NULL);

        g_string_append_printf(s, "%s %s%s: ", o->is_table ? "table" : "figure", o->name,
                               o->is_default ? " (default)" : "");
        if (o->is_table) {
                g_autofree char *rows = g_strjoinv(", ", o->rows);
                g_string_append_printf(s, "rows %s, ", rows);
                if (o->columns_axis) {
                        g_autofree char *vals = g_strjoinv(", ", o->values);
                        g_string_append_printf(s, "columns by %s, %s", o->columns_axis, vals);
                } else {
                        g_autofree char *cols = g_strjoinv(", ", o->columns);
                        g_string_append_printf(s, "columns %s", cols);
                }
        } else if (o->type != FIGURE_LINE) {
                g_string_append(s, o->type == FIGURE_SPECTRUM ? "latency spectrum" : "latency distribution");
        } else {
                g_autofree char *y = g_strjoinv(" | ", o->y);
                g_string_append_printf(s, "%s against %s", y, o->x);
        }
        if (!o->is_table) {
                g_autofree char *series = g_strjoinv(", ", o->series);
                g_string_append_printf(s, ", %s%s", series[0] ? "lines by " : "one line", series);
        }
        if (o->where)
                g_string_append_printf(s, ", where %s", o->where);
        if (o->published)
                g_string_append_printf(s, ", beside %s", o->published);
        return g_string_free(s, FALSE);
}
