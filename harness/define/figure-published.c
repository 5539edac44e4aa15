/* figure-published.c: a [figure]/[table] group's published= keys checked
 * against the published file, and the units of its columns (figure.h). */
#include "figure-internal.h"

#include <string.h>

#include "columns.h"
#include "suggest.h"

static void check_published_column(Parse *p, const char *key, const Table *t, const char *col,
                                   const char *file)
{
        if (col && t && table_column(t, col) < 0) {
                g_autofree char *have = g_strjoinv(", ", t->columns);
                g_autofree char *hint = suggest_hint_among(col, (const char *const *) t->columns);
                figure_bad(p, key, "%s has no column '%s' (it has: %s)%s", file, col, have, hint);
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

bool figure_in_strv(char **list, const char *s)
{
        for (guint i = 0; list && list[i]; i++)
                if (!strcmp(list[i], s))
                        return true;
        return false;
}

bool figure_unit_fits(const char *column_unit, const char *unit)
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

/* A published column of the file, or a mistake in KEY. */
void figure_check_pub(FigureParse *f, const char *key, const char *col)
{
        check_published_column(&f->p, key, f->pub, col, f->o->published);
}

/* published_ratio=: NUM/DEN, two values of published_series. */
void figure_check_published_ratio(FigureParse *f)
{
        Output *o = f->o;

        if (o->published_ratio && !o->published_series)
                figure_bad(&f->p, "published_ratio", "applies only with published_series= (its values are the ratio's terms)");
        for (guint i = 0; o->published_ratio && o->published_series && f->pub && o->published_ratio[i]; i++) {
                g_auto(GStrv) nd = g_strsplit(o->published_ratio[i], "/", -1);
                int sc = table_column(f->pub, o->published_series);
                bool ok = g_strv_length(nd) == 2 && sc >= 0;
                for (guint k = 0; ok && k < 2; k++) {
                        bool found = false;
                        for (guint r = 0; r < f->pub->rows->len && !found; r++)
                                found = !strcmp(((char **) f->pub->rows->pdata[r])[sc], g_strstrip(nd[k]));
                        ok = found;
                }
                if (!ok)
                        figure_bad(&f->p, "published_ratio", "'%s' is not NUM/DEN, two values of %s in %s",
                            o->published_ratio[i], o->published_series, o->published);
        }
}

/* published_rows=: AXIS=COLUMN with AXIS one of rows=. */
void figure_check_published_rows(FigureParse *f)
{
        Output *o = f->o;

        for (guint i = 0; o->published_rows && o->published_rows[i]; i++) {
                char *eq = strchr(o->published_rows[i], '=');
                const Column *axis = NULL;
                if (eq) {
                        g_autofree char *a = g_strndup(o->published_rows[i], (gsize) (eq - o->published_rows[i]));
                        axis = column_find_key(g_strstrip(a));
                }
                bool in_rows = axis && figure_in_strv(o->rows, axis->name);
                if (!eq || !axis || !in_rows)
                        figure_bad(&f->p, "published_rows", "'%s' is not AXIS=COLUMN with AXIS one of rows=",
                            o->published_rows[i]);
                else
                        figure_check_pub(f, "published_rows", g_strstrip(eq + 1));
        }
}

/* published_columns= (OURS=THEIRS) and published_bounds= (THEIRS=COLUMN). */
void figure_check_published_columns(FigureParse *f)
{
        Output *o = f->o;
        char **vals = o->columns_axis ? o->values : o->columns;

        o->published_columns_scale = g_new0(double, o->published_columns ? g_strv_length(o->published_columns) + 1 : 1);
        for (guint i = 0; o->published_columns && o->published_columns[i]; i++) {
                g_auto(GStrv) kv = g_strsplit(o->published_columns[i], "=", 2);
                bool ours = kv[0] && kv[1] && figure_in_strv(vals, g_strstrip(kv[0]));
                if (!ours) {
                        figure_bad(&f->p, "published_columns", "'%s' is not OURS=THEIRS with OURS one of the table's value "
                            "columns", o->published_columns[i]);
                        continue;
                }
                figure_check_pub(f, "published_columns", g_strstrip(kv[1]));
                double s = name_scale(kv[1], kv[0]);
                if (s < 0)
                        figure_bad(&f->p, "published_columns", "%s is not in the unit of %s", kv[1], kv[0]);
                o->published_columns_scale[i] = s > 0 ? s : o->published_scale;
        }
        for (guint i = 0; o->published_bounds && o->published_bounds[i]; i++) {
                g_auto(GStrv) kv = g_strsplit(o->published_bounds[i], "=", 2);
                if (!kv[0] || !kv[1])
                        figure_bad(&f->p, "published_bounds", "'%s' is not THEIRS=COLUMN", o->published_bounds[i]);
                else
                        figure_check_pub(f, "published_bounds", g_strstrip(kv[1]));
        }
        if (o->published_bounds && !o->published_columns)
                figure_bad(&f->p, "published_bounds", "applies only with published_columns=");
}

/* Each published column's factor to our unit: without published_scale,
 * what the column's name says (elapsed_us: 1000 to our ns); one whose
 * name says no unit is shown as published in a table (speedup_pct). */
void figure_published_scales(FigureParse *f)
{
        Output *o = f->o;
        bool table = o->is_table;
        char **pub_cols = table ? o->published_value : o->published_y;
        const char *our_col = table ? (o->value ? o->value : o->columns ? o->columns[0] : NULL) : o->y ? o->y[0] : NULL;
        guint npc = pub_cols ? g_strv_length(pub_cols) : 0;

        o->published_scales = g_new0(double, npc + 1);
        for (guint i = 0; i < npc; i++) {
                double s = f->pub && our_col && !f->scale_given ? name_scale(pub_cols[i], our_col) : 0;
                if (s < 0)
                        figure_bad(&f->p, table ? "published_value" : "published_y", "%s is not in the unit of %s (%s): "
                            "give published_scale=", pub_cols[i], our_col, column_find(our_col)->unit);
                o->published_scales[i] = s > 0 ? s : f->scale_given || !table ? o->published_scale : 0;
                if (i == 0 && s > 0)
                        o->published_scale = s;
        }
        if (o->published_heads && g_strv_length(o->published_heads) != npc)
                figure_bad(&f->p, "published_heads", "%u heads for %u published columns: give one each",
                    g_strv_length(o->published_heads), npc);
}
