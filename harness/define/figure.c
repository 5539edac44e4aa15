/* figure.c: [figure NAME] and [table NAME] groups, parsed and checked
 * (see figure.h).  The key table below describes every key once. */
#include "figure.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "columns.h"
#include "samples.h"
#include "select.h"
#include "suggest.h"

enum {
        FOR_FIGURE = 1 << 0,
        FOR_TABLE = 1 << 1,
        FOR_BOTH = FOR_FIGURE | FOR_TABLE,
};

static const struct {
        const char *key;
        unsigned applies;
        const char *help;
} figure_keys[] = {
        { "title", FOR_BOTH, "a short title: the caption's first words, in bold (default: none)" },
        { "caption", FOR_BOTH, "the caption under it in the paper (default: generated)" },
        { "where", FOR_BOTH, "which cells: a selector as in claims, transport=pipe|fifo,size>=4KiB" },
        { "type", FOR_FIGURE, "line (default), spectrum (latency against percentile, 1/(1-p) scale) "
          "or cdf (fraction against latency); spectrum and cdf read `ipclab latency`" },
        { "y", FOR_FIGURE, "summary columns to draw; several (;) are panels side by side, in one unit, sharing "
          "the y range when they are one quantity (a latency's median and 99th percentile) "
          "(default: lat_p50_ns for round trips, throughput_MiBps one-way, rate_per_s callrate)" },
        { "x", FOR_FIGURE, "the axis along x (default: the numeric axis with most values)" },
        { "series", FOR_FIGURE, "axes (;) whose values make the lines, or none "
          "(default: the other axes that vary)" },
        { "logx", FOR_FIGURE, "true, false or auto (default: log where the values span more than about a decade)" },
        { "logy", FOR_FIGURE, "true, false or auto (as logx)" },
        { "errorbars", FOR_FIGURE, "true (default) or false: the 95% interval of the median (the range of the repetitions "
          "with fewer than 6), "
          "where the column has one (NAME_lo, NAME_hi)" },
        { "bounds", FOR_FIGURE, "memcpy (the time or rate of memcpy for the message size; x=size) "
          "and/or direct (transport=direct drawn as the black dash-dot-dot floor, one per payload "
          "where payload makes lines; spectrum and cdf too)" },
        { "also", FOR_BOTH, "another experiment whose cells are drawn as a reference line "
          "(tables: a last row, its first value in each column, matched on the columns axis)" },
        { "also_where", FOR_BOTH, "which of its cells (a selector)" },
        { "also_title", FOR_BOTH, "its legend entry or row label (default: the experiment's name)" },
        { "published", FOR_BOTH, "a file in data/published/ to draw or tabulate beside ours" },
        { "published_x", FOR_FIGURE, "its column along x (in the x axis's unit)" },
        { "published_y", FOR_FIGURE, "its columns (;) along y, one line (per published_series value) each" },
        { "published_series", FOR_BOTH, "its column whose values make separate lines (tables: columns)" },
        { "published_where", FOR_BOTH, "which of its rows: a selector on its columns" },
        { "published_scale", FOR_BOTH, "factor from its unit to our column's (1000 for us to ns); default: "
          "from the unit its column's name ends in (_s, _ms, _us, _ns, _MiBps, _per_s), else 1" },
        { "published_title", FOR_BOTH, "its legend entry or column head: published (TITLE)" },
        { "published_heads", FOR_BOTH, "with several published_y or published_value columns, the title (;) of "
          "each: published (TITLE): HEAD (default: the column's name)" },
        { "rows", FOR_TABLE, "axes (;) that make the rows (default: the axes that vary, less columns)" },
        { "columns", FOR_TABLE, "an axis whose values make the columns, or value columns (;) "
          "(default: the numeric axis with most values)" },
        { "value", FOR_TABLE, "the summary columns (;) in the cells, with columns= an axis: several make a group "
          "of columns per value across (default as y)" },
        { "unit", FOR_TABLE, "display unit: ns, us, ms, s for times; KiB/s, MiB/s, GiB/s; 1/s, k/s, M/s; "
          "several (;): one per value= (or columns=) column" },
        { "per_message", FOR_TABLE, "value columns (;) shown per message: divided by the summary's messages" },
        { "intervals", FOR_TABLE, "true: each value with its 95% interval, v [lo, hi], where the summary has "
          "one (NAME_lo, NAME_hi); default false" },
        { "ratio", FOR_TABLE, "NUM/DEN pairs (;) of values of the columns= axis: after NUM's column, a column "
          "xDEN (\\ensuremath{\\times}DEN in LaTeX) holding NUM's value over DEN's in the same row (env-cost: vm/host)" },
        { "digits", FOR_TABLE, "fixed decimals 0-6 (default: three significant figures, as the paper)" },
        { "published_rows", FOR_TABLE, "AXIS=COLUMN pairs (;): the published column matched to each row axis" },
        { "published_value", FOR_TABLE, "the published columns (;) shown beside ours; one whose name says no "
          "unit (speedup_pct) is shown as published" },
        { "published_ratio", FOR_TABLE, "NUM/DEN pairs (;) of published_series values: a ratio column, as ratio=" },
        { "published_columns", FOR_TABLE, "OURS=THEIRS pairs (;): the published rows (those published_where keeps) "
          "as rows after ours, each value column OURS showing column THEIRS in our unit, labelled by published_label" },
        { "published_bounds", FOR_TABLE, "THEIRS=COLUMN pairs (;): the column saying how each published number is "
          "qualified (> over, < under, ~ about, = as stated), printed before it" },
        { "published_label", FOR_TABLE, "a published column shown first in each row, from the row matched "
          "(the published test a row's numbers come from); with published_columns=, the published rows' label" },
};

char *figure_key_help(void)
{
        GString *s = g_string_new(NULL);

        for (size_t i = 0; i < G_N_ELEMENTS(figure_keys); i++)
                g_string_append_printf(s, "%-18s %-17s %s\n",
                                       figure_keys[i].applies == FOR_BOTH ? "figure,table"
                                       : figure_keys[i].applies == FOR_TABLE ? "table" : "figure",
                                       figure_keys[i].key, figure_keys[i].help);
        return g_string_free(s, FALSE);
}

static int key_index(const char *key)
{
        for (size_t i = 0; i < G_N_ELEMENTS(figure_keys); i++)
                if (!strcmp(figure_keys[i].key, key))
                        return (int) i;
        return -1;
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

typedef GroupParse Parse;

static void bad(Parse *p, const char *key, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static void bad(Parse *p, const char *key, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        group_vbad(p, key, fmt, ap);
        va_end(ap);
}

static char *get(Parse *p, const char *key)
{
        return group_get(p, key);
}

static char **get_list(Parse *p, const char *key)
{
        return group_get_list(p, key);
}

static Scale get_scale(Parse *p, const char *key)
{
        g_autofree char *v = get(p, key);

        if (!v || !strcmp(v, "auto"))
                return SCALE_AUTO;
        if (!strcmp(v, "true"))
                return SCALE_LOG;
        if (!strcmp(v, "false"))
                return SCALE_LINEAR;
        bad(p, key, "'%s' is not true, false or auto", v);
        return SCALE_AUTO;
}

static bool get_bool(Parse *p, const char *key, bool def, bool *given)
{
        g_autofree char *v = get(p, key);

        *given = v != NULL;
        if (!v)
                return def;
        if (!strcmp(v, "true") || !strcmp(v, "false"))
                return !strcmp(v, "true");
        bad(p, key, "'%s' is not true or false", v);
        return def;
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
                bad(p, key, "'%s' is not an axis (allowed: transport, bus, payload, size, pattern, reply, "
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
                bad(p, key, "axis '%s' is not in this experiment (no cell it draws has a %s)", axis, c->key);
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
                bad(p, key, "unknown column '%s' (see `ipclab columns`)%s", name, hint);
                return NULL;
        }
        if ((c->kind != COLUMN_MEASURED && c->kind != COLUMN_SUMMARY) || !(c->flags & COLUMN_IN_SUMMARY)) {
                bad(p, key, "'%s' is not a measured column of the summary", name);
                return NULL;
        }
        return c;
}

static Table *read_published(Parse *p, const char *dir, const char *name)
{
        return group_read_published(p, dir, name);
}

static void check_published_column(Parse *p, const char *key, const Table *t, const char *col,
                                   const char *file)
{
        if (col && t && table_column(t, col) < 0) {
                g_autofree char *have = g_strjoinv(", ", t->columns);
                g_autofree char *hint = suggest_hint_among(col, (const char *const *) t->columns);
                bad(p, key, "%s has no column '%s' (it has: %s)%s", file, col, have, hint);
        }
}

/* Time, rate and bandwidth units a table may display, by the column's
 * unit. */
static const struct {
        const char *column_unit;
        const char *unit;
} display_units[] = {
        { "ns", "ns" }, { "ns", "us" }, { "ns", "ms" }, { "ns", "s" },
        { "MiB/s", "KiB/s" }, { "MiB/s", "MiB/s" }, { "MiB/s", "GiB/s" },
        { "1/s", "1/s" }, { "1/s", "k/s" }, { "1/s", "M/s" },
};

static bool in_strv(char **list, const char *s)
{
        for (guint i = 0; list && list[i]; i++)
                if (!strcmp(list[i], s))
                        return true;
        return false;
}

static bool unit_fits(const char *column_unit, const char *unit)
{
        for (size_t i = 0; i < G_N_ELEMENTS(display_units); i++)
                if (!strcmp(display_units[i].column_unit, column_unit) && !strcmp(display_units[i].unit, unit))
                        return true;
        return false;
}

/* The units a published column's name may end in, as factors to the
 * schema's units (ns, MiB/s, 1/s). */
static const struct {
        const char *suffix;
        const char *unit;
        double factor;
} name_units[] = {
        { "_ns", "ns", 1 }, { "_us", "ns", 1e3 }, { "_ms", "ns", 1e6 }, { "_s", "ns", 1e9 },
        { "_MiBps", "MiB/s", 1 }, { "_per_s", "1/s", 1 },
};

/* The factor from published column COLUMN's unit, as its name says, to
 * our column OURS's; 0 when the name says none (then no factor is
 * implied), -1 when it says one of another kind (a time for a rate). */
static double name_scale(const char *column, const char *ours)
{
        const Column *c = column_find(ours);
        const char *unit = NULL;
        double factor = 0;

        /* The longest suffix that fits: _per_s before _s. */
        size_t best = 0;
        for (size_t i = 0; i < G_N_ELEMENTS(name_units); i++)
                if (g_str_has_suffix(column, name_units[i].suffix) && strlen(name_units[i].suffix) > best) {
                        best = strlen(name_units[i].suffix);
                        unit = name_units[i].unit;
                        factor = name_units[i].factor;
                }
        if (!unit || !c)
                return 0;
        return strcmp(unit, c->unit) ? -1 : factor;
}

/* ---- what the build cannot make: refused here, by `ipclab check` ---------- */

const char *figure_text_problem(const char *s, gsize max)
{
        static char why[128];

        if (strlen(s) > max) {
                g_snprintf(why, sizeof why, "%zu bytes, more than the %zu it may have", strlen(s), max);
                return why;
        }
        if (!g_utf8_validate(s, -1, NULL))
                return "not UTF-8";
        for (const char *p = s; *p; p = g_utf8_next_char(p)) {
                gunichar c = g_utf8_get_char(p);
                if (c < 0x20 || (c >= 0x7f && c < 0xa0))
                        return "a control character, which LaTeX cannot typeset";
        }
        return NULL;
}

/* The text keys of a figure or table, each to be one line LaTeX and
 * gnuplot can print, of a sane length. */
static void check_texts(Parse *p)
{
        static const struct { const char *key; gsize max; } texts[] = {
                { "title", 500 }, { "caption", 4000 }, { "also_title", 200 }, { "published_title", 200 },
                { "published_heads", 1000 },
        };

        for (gsize i = 0; i < G_N_ELEMENTS(texts); i++) {
                g_autofree char *raw = g_key_file_get_value(p->kf, p->group, texts[i].key, NULL);
                g_autofree char *v = raw ? experiment_clean_value(raw) : NULL;
                const char *why = v ? figure_text_problem(v, texts[i].max) : NULL;
                if (why)
                        bad(p, texts[i].key, "%s", why);
        }
}

/* Every list key but unit= (one unit per value column: the same one may
 * well come twice) holds each value once: a column, axis, bound, ratio or
 * head given twice is drawn or tabulated twice, or one of them silently
 * not at all.  Axes are compared by their column (size and size_B are
 * one). */
static void check_lists_once(Parse *p)
{
        static const char *const lists[] = {
                "y", "series", "rows", "columns", "value", "per_message", "ratio", "bounds", "published_y",
                "published_heads", "published_rows", "published_value", "published_ratio", "published_columns",
                "published_bounds",
        };

        for (gsize k = 0; k < G_N_ELEMENTS(lists); k++) {
                g_autofree char *raw = g_key_file_get_value(p->kf, p->group, lists[k], NULL);
                g_autofree char *v = raw ? experiment_clean_value(raw) : NULL;
                g_auto(GStrv) items = v ? g_strsplit(v, ";", -1) : NULL;
                g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
                for (guint i = 0; items && items[i]; i++) {
                        g_strstrip(items[i]);
                        const Column *c = column_find_key(items[i]);
                        const char *id = c ? c->name : items[i];
                        if (!items[i][0])
                                continue;
                        if (g_hash_table_contains(seen, id)) {
                                bad(p, lists[k], "'%s' is listed twice", items[i]);
                                break;
                        }
                        g_hash_table_add(seen, (gpointer) id);
                }
        }
}

gboolean figure_check_collisions(GPtrArray *exps, GPtrArray *errors)
{
        g_autoptr(GHashTable) ids = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
        gboolean ok = TRUE;

        for (guint e = 0; e < exps->len; e++) {
                const Experiment *exp = exps->pdata[e];
                for (guint k = 0; k < exp->outputs->len; k++) {
                        const Output *o = exp->outputs->pdata[k];
                        g_autofree char *id = g_strdup_printf("%s %s-%s", o->is_table ? "table" : "figure",
                                                              exp->name, o->name);
                        g_autofree char *where = o->line ? g_strdup_printf("%s:%u", exp->path, o->line)
                                                         : g_strdup(exp->path);
                        g_autofree char *what = g_strdup_printf("%s's [%s]%s", exp->path, o->group,
                                                                o->is_default ? " (the default)" : "");
                        const char *first = g_hash_table_lookup(ids, id);
                        if (first) {
                                g_ptr_array_add(errors, g_strdup_printf("%s: [%s]: its output is %s, as %s's: rename one "
                                                                        "(a section would show the other's)", where,
                                                                        o->group, id + strcspn(id, " ") + 1, first));
                                ok = FALSE;
                                continue;
                        }
                        g_hash_table_insert(ids, g_steal_pointer(&id), g_strdup(what));
                }
        }
        return ok;
}

Output *figure_parse(GKeyFile *kf, const char *group, const Experiment *exp,
                     const char *published_dir, FigureReport report, void *ctx)
{
        Parse p = { .kf = kf, .group = group, .report = report, .ctx = ctx, .ok = true };
        g_autoptr(Output) o = g_new0(Output, 1);
        bool table = g_str_has_prefix(group, "table ");
        unsigned kind = table ? FOR_TABLE : FOR_FIGURE;
        bool given;

        o->is_table = table;
        o->group = g_strdup(group);
        o->name = g_strdup(group + (table ? strlen("table ") : strlen("figure ")));
        o->digits = -1;
        o->published_scale = 1;
        if (!o->name[0] || strlen(o->name) > 64 || strspn(o->name, "abcdefghijklmnopqrstuvwxyz"
                                                          "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != strlen(o->name))
                bad(&p, NULL, "%s name must be letters, digits, '-' or '_'", table ? "table" : "figure");

        g_auto(GStrv) keys = g_key_file_get_keys(kf, group, NULL, NULL);
        for (guint k = 0; keys && keys[k]; k++) {
                int i = key_index(keys[k]);
                if (i < 0 || !(figure_keys[i].applies & kind)) {
                        GString *allowed = g_string_new(NULL);
                        for (size_t j = 0; j < G_N_ELEMENTS(figure_keys); j++)
                                if (figure_keys[j].applies & kind)
                                        g_string_append_printf(allowed, "%s%s", allowed->len ? ", " : "",
                                                               figure_keys[j].key);
                        Suggest sg;
                        suggest_init(&sg, keys[k]);
                        for (size_t j = 0; j < G_N_ELEMENTS(figure_keys); j++)
                                if (figure_keys[j].applies & kind)
                                        suggest_consider(&sg, figure_keys[j].key);
                        g_autofree char *hint = suggest_hint(&sg);
                        bad(&p, keys[k], "unknown key in a %s (allowed: %s)%s", table ? "table" : "figure",
                            allowed->str, hint);
                        g_string_free(allowed, TRUE);
                }
        }

        /* What the build cannot make (above). */
        check_texts(&p);
        check_lists_once(&p);

        o->title = get(&p, "title");
        o->caption = get(&p, "caption");
        o->where = get(&p, "where");
        g_autoptr(Selector) sel = NULL;
        if (o->where) {
                g_autoptr(GError) e = NULL;
                sel = select_parse(o->where, SELECT_AXES, &e);
                if (!sel)
                        bad(&p, "where", "%s", e->message);
        }
        const char *pattern;
        const char *metric = default_metric(exp, sel, &pattern);
        /* With several patterns, the default metric is the first's. */
        g_autofree char *pattern_where = NULL;
        if (pattern && n_patterns(exp, sel) > 1)
                pattern_where = g_strdup_printf("%s%spattern=%s", o->where ? o->where : "",
                                                o->where ? "," : "", pattern);

        /* Published numbers. */
        o->published = get(&p, "published");
        g_autoptr(Table) pub = o->published ? read_published(&p, published_dir, o->published) : NULL;
        o->published_where = get(&p, "published_where");
        o->published_title = get(&p, "published_title");
        g_autofree char *scale = get(&p, "published_scale");
        if (scale) {
                char *end;
                o->published_scale = g_ascii_strtod(scale, &end);
                if (*end || !isfinite(o->published_scale) || !(o->published_scale > 0))
                        bad(&p, "published_scale", "'%s' is not a positive number", scale);
        }
        if (pub) {
                g_autoptr(GError) e = NULL;
                g_autoptr(Selector) ps = select_parse(o->published_where, SELECT_COLUMNS, &e);
                if (!ps || !select_check_table(ps, pub, o->published, &e))
                        bad(&p, "published_where", "%s", e->message);
                for (guint r = 0; ps && !e && r < pub->rows->len; r++)
                        o->published_kept += select_row(ps, pub, pub->rows->pdata[r]);
        }
        const char *needs_published[] = { "published_x", "published_y", "published_series", "published_where",
                                          "published_scale", "published_title", "published_rows",
                                          "published_value", "published_heads", "published_ratio",
                                          "published_label", "published_columns", "published_bounds" };
        if (!o->published)
                for (size_t i = 0; i < G_N_ELEMENTS(needs_published); i++)
                        if (g_key_file_has_key(kf, group, needs_published[i], NULL))
                                bad(&p, needs_published[i], "applies only with published=");

        /* A reference experiment (figures: lines; tables: a last row). */
        o->also = get(&p, "also");
        o->also_where = get(&p, "also_where");
        o->also_title = get(&p, "also_title");
        if (o->also && (strspn(o->also, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
                        != strlen(o->also) || strlen(o->also) > 64))
                bad(&p, "also", "'%s' is not an experiment's name", o->also);

        if (!o->also && (o->also_where || o->also_title))
                bad(&p, o->also_where ? "also_where" : "also_title", "applies only with also=");
        if (o->also_where) {
                g_autoptr(GError) e = NULL;
                g_autoptr(Selector) as = select_parse(o->also_where, SELECT_AXES, &e);
                if (!as)
                        bad(&p, "also_where", "%s", e->message);
        }
        o->published_heads = get_list(&p, "published_heads");

        if (table) {
                o->values = get_list(&p, "value");
                o->value = o->values && o->values[0] ? g_strdup(o->values[0]) : NULL;
                o->units = get_list(&p, "unit");
                o->unit = o->units && o->units[0] ? g_strdup(o->units[0]) : NULL;
                o->per_message = get_list(&p, "per_message");
                o->intervals = get_bool(&p, "intervals", false, &given);
                o->ratio = get_list(&p, "ratio");
                g_autofree char *digits = get(&p, "digits");
                if (digits) {
                        guint64 d;
                        if (!g_ascii_string_to_unsigned(digits, 10, 0, 6, &d, NULL))
                                bad(&p, "digits", "'%s' is not a whole number from 0 to 6", digits);
                        else
                                o->digits = (int) d;
                }
                g_auto(GStrv) cols = get_list(&p, "columns");
                if (cols && cols[0] && !cols[1] && column_find_key(cols[0])) {
                        const char *c = check_axis(&p, "columns", cols[0], exp, sel);
                        o->columns_axis = g_strdup(c);
                } else if (cols) {
                        for (guint i = 0; cols[i]; i++)
                                check_value_column(&p, "columns", cols[i]);
                        o->columns = g_steal_pointer(&cols);
                        if (o->value)
                                bad(&p, "value", "applies only when columns= is an axis");
                }
                o->rows = get_list(&p, "rows");
                for (guint i = 0; o->rows && o->rows[i]; i++) {
                        const char *c = check_axis(&p, "rows", o->rows[i], exp, sel);
                        if (c && o->columns_axis && !strcmp(c, o->columns_axis))
                                bad(&p, "rows", "'%s' is already across (columns=)", o->rows[i]);
                        if (c) {
                                g_free(o->rows[i]);
                                o->rows[i] = g_strdup(c);
                        }
                }
                /* Defaults: the numeric axis with most values across, the
                 * other varying axes down. */
                g_autoptr(GPtrArray) vary = figure_varying_axes(exp, pattern_where ? pattern_where : o->where);
                if (!cols && !o->columns && !o->columns_axis) {
                        const char *x = default_x(exp, sel);
                        bool x_varies = false;
                        for (guint i = 0; i < vary->len; i++)
                                x_varies |= !strcmp(vary->pdata[i], x);
                        if (x_varies && (vary->len > 1 || o->rows))
                                o->columns_axis = g_strdup(x);
                        else
                                o->columns = g_strsplit(o->value ? o->value : metric, ";", -1);
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
                        o->value = g_strdup(metric);
                        o->values = g_strsplit(metric, ";", -1);
                        /* The default metric is the first pattern's: only
                         * its cells, as for the default y. */
                        if (pattern_where && !o->where)
                                o->where = g_strdup(pattern_where);
                }
                if (!cols && o->columns && pattern_where && !o->where)
                        o->where = g_strdup(pattern_where);
                /* The value columns, each with its display unit: one unit
                 * for all, or one each. */
                char **vals = o->columns_axis ? o->values : o->columns;
                guint nvals = vals ? g_strv_length(vals) : 0, nunits = o->units ? g_strv_length(o->units) : 0;
                if (nunits > 1 && nunits != nvals)
                        bad(&p, "unit", "%u units for %u value columns: give one, or one each", nunits, nvals);
                for (guint i = 0; i < nvals; i++) {
                        const Column *c = o->columns_axis ? check_value_column(&p, "value", vals[i]) : column_find(vals[i]);
                        const char *u = nunits > 1 && i < nunits ? o->units[i] : o->unit;
                        if (u && c && !unit_fits(c->unit, u))
                                bad(&p, "unit", "'%s' does not fit %s, measured in %s", u, c->name,
                                    c->unit[0] ? c->unit : "no unit");
                }
                for (guint i = 0; o->per_message && o->per_message[i]; i++) {
                        bool in = false;
                        for (guint k = 0; k < nvals; k++)
                                in |= !strcmp(vals[k], o->per_message[i]);
                        if (!in)
                                bad(&p, "per_message", "'%s' is not one of the table's value columns", o->per_message[i]);
                }
                if (o->intervals) {
                        bool any = false;
                        for (guint k = 0; k < nvals; k++) {
                                const Column *c = column_find(vals[k]);
                                any |= c && (c->flags & COLUMN_HAS_CI);
                        }
                        if (!any)
                                bad(&p, "intervals", "no value column of the table has an interval in the summary");
                }
                if (o->ratio && !o->columns_axis)
                        bad(&p, "ratio", "applies only when columns= is an axis (its values are the ratio's terms)");
                for (guint i = 0; o->ratio && o->columns_axis && o->ratio[i]; i++) {
                        g_auto(GStrv) nd = g_strsplit(o->ratio[i], "/", -1);
                        bool ok = g_strv_length(nd) == 2;
                        for (guint k = 0; ok && k < 2; k++) {
                                g_autofree char *w = g_strdup_printf("%s=%s", o->columns_axis, g_strstrip(nd[k]));
                                g_autoptr(Selector) rs = select_parse(w, SELECT_AXES, NULL);
                                guint n = 0;
                                for (guint c = 0; rs && c < exp->cells->len; c++)
                                        n += selected(sel, exp->cells->pdata[c]) && select_cell(rs, exp->cells->pdata[c]);
                                ok = n > 0;
                        }
                        if (!ok && exp->cells->len)
                                bad(&p, "ratio", "'%s' is not NUM/DEN, two values of %s among the table's cells",
                                    o->ratio[i], o->columns_axis);
                }
                o->published_rows = get_list(&p, "published_rows");
                o->published_value = get_list(&p, "published_value");
                o->published_series = get(&p, "published_series");
                o->published_ratio = get_list(&p, "published_ratio");
                o->published_label = get(&p, "published_label");
                check_published_column(&p, "published_label", pub, o->published_label, o->published);
                if (o->published_ratio && !o->published_series)
                        bad(&p, "published_ratio", "applies only with published_series= (its values are the ratio's terms)");
                for (guint i = 0; o->published_ratio && o->published_series && pub && o->published_ratio[i]; i++) {
                        g_auto(GStrv) nd = g_strsplit(o->published_ratio[i], "/", -1);
                        int sc = table_column(pub, o->published_series);
                        bool ok = g_strv_length(nd) == 2 && sc >= 0;
                        for (guint k = 0; ok && k < 2; k++) {
                                bool found = false;
                                for (guint r = 0; r < pub->rows->len && !found; r++)
                                        found = !strcmp(((char **) pub->rows->pdata[r])[sc], g_strstrip(nd[k]));
                                ok = found;
                        }
                        if (!ok)
                                bad(&p, "published_ratio", "'%s' is not NUM/DEN, two values of %s in %s",
                                    o->published_ratio[i], o->published_series, o->published);
                }
                check_published_column(&p, "published_series", pub, o->published_series, o->published);
                for (guint i = 0; o->published_rows && o->published_rows[i]; i++) {
                        char *eq = strchr(o->published_rows[i], '=');
                        const Column *axis = eq ? NULL : NULL;
                        if (eq) {
                                g_autofree char *a = g_strndup(o->published_rows[i], (gsize) (eq - o->published_rows[i]));
                                axis = column_find_key(g_strstrip(a));
                        }
                        bool in_rows = false;
                        for (guint r = 0; axis && o->rows[r]; r++)
                                in_rows |= !strcmp(o->rows[r], axis->name);
                        if (!eq || !axis || !in_rows)
                                bad(&p, "published_rows", "'%s' is not AXIS=COLUMN with AXIS one of rows=",
                                    o->published_rows[i]);
                        else
                                check_published_column(&p, "published_rows", pub, g_strstrip(eq + 1), o->published);
                }
                o->published_columns = get_list(&p, "published_columns");
                o->published_bounds = get_list(&p, "published_bounds");
                o->published_columns_scale = g_new0(double, o->published_columns ? g_strv_length(o->published_columns) + 1 : 1);
                for (guint i = 0; o->published_columns && o->published_columns[i]; i++) {
                        g_auto(GStrv) kv = g_strsplit(o->published_columns[i], "=", 2);
                        bool ours = kv[0] && kv[1] && in_strv(vals, g_strstrip(kv[0]));
                        if (!ours)
                                bad(&p, "published_columns", "'%s' is not OURS=THEIRS with OURS one of the table's value columns",
                                    o->published_columns[i]);
                        else {
                                check_published_column(&p, "published_columns", pub, g_strstrip(kv[1]), o->published);
                                double f = name_scale(kv[1], kv[0]);
                                if (f < 0)
                                        bad(&p, "published_columns", "%s is not in the unit of %s", kv[1], kv[0]);
                                o->published_columns_scale[i] = f > 0 ? f : o->published_scale;
                        }
                }
                for (guint i = 0; o->published_bounds && o->published_bounds[i]; i++) {
                        g_auto(GStrv) kv = g_strsplit(o->published_bounds[i], "=", 2);
                        if (!kv[0] || !kv[1])
                                bad(&p, "published_bounds", "'%s' is not THEIRS=COLUMN", o->published_bounds[i]);
                        else
                                check_published_column(&p, "published_bounds", pub, g_strstrip(kv[1]), o->published);
                }
                if (o->published_bounds && !o->published_columns)
                        bad(&p, "published_bounds", "applies only with published_columns=");
                if (o->published && !o->published_columns && (!o->published_rows || !o->published_value))
                        bad(&p, o->published_rows ? "published_value" : "published_rows",
                            "missing: a published column is matched to our rows by published_rows= "
                            "and shown from published_value=");
                for (guint i = 0; o->published_value && o->published_value[i]; i++)
                        check_published_column(&p, "published_value", pub, o->published_value[i], o->published);
        } else {
                g_autofree char *type = get(&p, "type");
                if (!type || !strcmp(type, "line"))
                        o->type = FIGURE_LINE;
                else if (!strcmp(type, "spectrum"))
                        o->type = FIGURE_SPECTRUM;
                else if (!strcmp(type, "cdf"))
                        o->type = FIGURE_CDF;
                else {
                        static const char *const types[] = { "line", "spectrum", "cdf", NULL };
                        g_autofree char *hint = suggest_hint_among(type, types);
                        bad(&p, "type", "unknown type '%s' (allowed: line, spectrum, cdf)%s", type, hint);
                }
                bool latency = o->type != FIGURE_LINE;
                o->y = get_list(&p, "y");
                g_autofree char *x = get(&p, "x");
                if (latency && (o->y || x)) {
                        bad(&p, o->y ? "y" : "x", "a %s draws latency_ns and its percentiles from `ipclab latency`: "
                            "x and y do not apply", type);
                } else if (o->y) {
                        const Column *first = NULL;
                        for (guint i = 0; o->y[i]; i++) {
                                const Column *c = check_value_column(&p, "y", o->y[i]);
                                /* Panels share the y axis, so its unit. */
                                if (c && first && strcmp(c->unit, first->unit))
                                        bad(&p, "y", "%s (%s) and %s (%s): panels share one y axis, so one unit",
                                            first->name, first->unit[0] ? first->unit : "no unit", c->name,
                                            c->unit[0] ? c->unit : "no unit");
                                first = first ? first : c;
                        }
                } else if (!latency) {
                        o->y = g_strsplit(metric, ";", -1);
                        if (pattern_where && !o->where) {
                                o->where = g_strdup(pattern_where);
                                g_clear_pointer(&sel, select_free);
                                sel = select_parse(o->where, SELECT_AXES, NULL);
                        }
                }
                if (latency)
                        o->x = NULL;
                else if (x)
                        o->x = g_strdup(check_axis(&p, "x", x, exp, sel));
                else
                        o->x = g_strdup(default_x(exp, sel));
                g_autofree char *series = get(&p, "series");
                if (series && !strcmp(series, "none")) {
                        o->series = g_new0(char *, 1);
                } else if (series) {
                        o->series = get_list(&p, "series");
                        for (guint i = 0; o->series[i]; i++) {
                                const char *c = check_axis(&p, "series", o->series[i], exp, sel);
                                if (c && o->x && !strcmp(c, o->x))
                                        bad(&p, "series", "'%s' is already along x", o->series[i]);
                                if (c) {
                                        g_free(o->series[i]);
                                        o->series[i] = g_strdup(c);
                                }
                        }
                } else {
                        g_autoptr(GPtrArray) vary = figure_varying_axes(exp, o->where);
                        GPtrArray *s = g_ptr_array_new();
                        for (guint i = 0; i < vary->len; i++)
                                if (!o->x || strcmp(vary->pdata[i], o->x))
                                        g_ptr_array_add(s, g_strdup(vary->pdata[i]));
                        g_ptr_array_add(s, NULL);
                        o->series = (char **) g_ptr_array_free(s, FALSE);
                }
                o->logx = get_scale(&p, "logx");
                o->logy = get_scale(&p, "logy");
                o->errorbars = get_bool(&p, "errorbars", true, &given);
                if (given && o->errorbars && o->y)
                        for (guint i = 0; o->y[i]; i++) {
                                const Column *c = column_find(o->y[i]);
                                if (c && !(c->flags & COLUMN_HAS_CI))
                                        bad(&p, "errorbars", "%s has no interval in the summary", o->y[i]);
                        }
                g_auto(GStrv) bounds = get_list(&p, "bounds");
                for (guint i = 0; bounds && bounds[i]; i++) {
                        if (!strcmp(bounds[i], "memcpy")) {
                                o->bound_memcpy = true;
                                if (o->x && strcmp(o->x, "size_B"))
                                        bad(&p, "bounds", "memcpy is drawn for the message size: it needs x=size");
                        } else if (!strcmp(bounds[i], "direct")) {
                                o->bound_direct = true;
                                guint n = 0;
                                for (guint c = 0; c < exp->cells->len; c++) {
                                        const Cell *cell = exp->cells->pdata[c];
                                        n += selected(sel, cell) && !strcmp(cell->transport, "direct");
                                }
                                if (!n && exp->cells->len)
                                        bad(&p, "bounds", "direct: no cell it draws has transport=direct");
                        } else {
                                static const char *const kinds[] = { "memcpy", "direct", NULL };
                                g_autofree char *hint = suggest_hint_among(bounds[i], kinds);
                                bad(&p, "bounds", "unknown bound '%s' (allowed: memcpy, direct)%s", bounds[i], hint);
                        }
                }
                o->published_x = get(&p, "published_x");
                o->published_y = get_list(&p, "published_y");
                o->published_series = get(&p, "published_series");
                if (o->published && (!o->published_x || !o->published_y))
                        bad(&p, o->published_x ? "published_y" : "published_x", "missing: published numbers are "
                            "drawn from the columns published_x= and published_y=");
                if (o->published && latency)
                        bad(&p, "published", "published numbers are drawn on line figures only");
                check_published_column(&p, "published_x", pub, o->published_x, o->published);
                for (guint i = 0; o->published_y && o->published_y[i]; i++)
                        check_published_column(&p, "published_y", pub, o->published_y[i], o->published);
                check_published_column(&p, "published_series", pub, o->published_series, o->published);
        }
        /* Without published_scale, the published column's name says its
         * unit (elapsed_us: 1000 to our ns). */
        /* Several of them: each its own, and one whose name says no unit
         * is shown as published in a table (speedup_pct). */
        char **pub_cols = table ? o->published_value : o->published_y;
        const char *our_col = table ? (o->value ? o->value : o->columns ? o->columns[0] : NULL) : o->y ? o->y[0] : NULL;
        guint npc = pub_cols ? g_strv_length(pub_cols) : 0;
        o->published_scales = g_new0(double, npc + 1);
        for (guint i = 0; i < npc; i++) {
                double f = pub && our_col && !scale ? name_scale(pub_cols[i], our_col) : 0;
                if (f < 0)
                        bad(&p, table ? "published_value" : "published_y", "%s is not in the unit of %s (%s): "
                            "give published_scale=", pub_cols[i], our_col, column_find(our_col)->unit);
                o->published_scales[i] = f > 0 ? f : scale || !table ? o->published_scale : 0;
                if (i == 0 && f > 0)
                        o->published_scale = f;
        }
        if (o->published_heads && g_strv_length(o->published_heads) != npc)
                bad(&p, "published_heads", "%u heads for %u published columns: give one each",
                    g_strv_length(o->published_heads), npc);
        if (!p.ok)
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
