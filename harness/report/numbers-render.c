/* numbers-render.c: `ipclab numbers` and `ipclab select` (numbers.h):
 * what a [number] group declares, computed from its source and printed
 * as LaTeX.  Every comparison of intervals is stats.c's; every number is
 * printed by verify.c's formatter; every text through render.c's escaper. */
#include "numbers.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "columns.h"
#include "meta.h"
#include "numbers-internal.h"
#include "render.h"
#include "samples.h"
#include "select.h"
#include "stats.h"
#include "verify.h"

typedef struct {
        const Experiment *exp;
        const NumbersInputs *in;
        GHashTable *tables;     /* path -> Table *, each file read once */
        GKeyFile *meta;         /* the experiment's meta.ini, or NULL */
        bool meta_read;
        GPtrArray *errors;      /* char *: "FILE:LINE: [number NAME] key: message" */
        GHashTable *raw;        /* NAME -> Result *: every number computed so far */
        GHashTable *busy;       /* NAMEs being computed */
} Ctx;

/* What a number came to. */
typedef struct {
        char *tex;              /* the macro's body; NULL after a mistake */
        double raw;             /* the number in seconds and bytes (NAN: a text) */
} Result;

static void fail(Ctx *c, const Number *n, const char *key, const char *fmt, ...) G_GNUC_PRINTF(4, 5);

static void fail(Ctx *c, const Number *n, const char *key, const char *fmt, ...)
{
        va_list ap;
        guint line = key && n->lines ? GPOINTER_TO_UINT(g_hash_table_lookup(n->lines, key)) : 0;

        va_start(ap, fmt);
        g_autofree char *msg = g_strdup_vprintf(fmt, ap);
        va_end(ap);
        g_ptr_array_add(c->errors, g_strdup_printf("%s:%u: [%s]%s%s: %s", c->exp->path, line ? line : n->line,
                                                   n->group, key ? " " : "", key ? key : "", msg));
}

/* ---- sources --------------------------------------------------------------- */

static const Table *table_at(Ctx *c, const Number *n, const char *path)
{
        Table *t = g_hash_table_lookup(c->tables, path);
        g_autoptr(GError) e = NULL;

        if (t)
                return t;
        t = table_read(path, &e);
        if (!t) {
                fail(c, n, NULL, "%s", e->message);
                return NULL;
        }
        g_hash_table_insert(c->tables, g_strdup(path), t);
        return t;
}

static GKeyFile *meta_of(Ctx *c, const Number *n)
{
        g_autoptr(GError) e = NULL;

        if (!c->meta_read && c->in->meta) {
                c->meta = meta_read(c->in->meta, &e);
                if (!c->meta)
                        fail(c, n, "meta", "%s", e->message);
        }
        c->meta_read = true;
        return c->meta;
}

/* The cells the run left out, from meta.ini's [skipped], as a table of
 * transport, size_B and limit_B ("-" when the reason is another). */
static Table *skipped_table(Ctx *c, const Number *n, GKeyFile *kf)
{
        Table *t = g_new0(Table, 1);
        const char *cols[] = { "transport", "size_B", "limit_B", NULL };

        t->columns = g_strdupv((char **) cols);
        t->n_columns = 3;
        t->rows = g_ptr_array_new_with_free_func((GDestroyNotify) g_strfreev);
        g_auto(GStrv) keys = g_key_file_get_keys(kf, "skipped", NULL, NULL);
        for (guint k = 0; keys && keys[k]; k++) {
                g_autofree char *line = g_key_file_get_string(kf, "skipped", keys[k], NULL);
                g_autofree char *transport = NULL;
                guint64 size, limit;
                if (!line || !experiment_skipped_parse(line, &transport, &size, &limit)) {
                        fail(c, n, "meta", "%s: [skipped] %s is not a skipped cell as ipclab writes it",
                             c->in->meta, keys[k]);
                        continue;
                }
                char **row = g_new0(char *, 4);
                row[0] = g_steal_pointer(&transport);
                row[1] = g_strdup_printf("%" G_GUINT64_FORMAT, size);
                row[2] = limit ? g_strdup_printf("%" G_GUINT64_FORMAT, limit) : g_strdup("-");
                g_ptr_array_add(t->rows, row);
        }
        return t;
}

/* The rows N reads, or NULL: *NO_DATA when its source has none (another
 * experiment without data, a run without meta.ini), else after a mistake. */
static const Table *source_table(Ctx *c, const Number *n, const char **path, bool *no_data)
{
        *no_data = false;
        switch (n->source) {
        case NUMBER_SUMMARY:
                *path = c->in->summary;
                return table_at(c, n, c->in->summary);
        case NUMBER_EXPERIMENT:
                *path = c->in->also ? g_hash_table_lookup(c->in->also, n->experiment) : NULL;
                *no_data = !*path;
                return *path ? table_at(c, n, *path) : NULL;
        case NUMBER_PUBLISHED: {
                g_autofree char *p = g_build_filename(c->in->published, n->published, NULL);
                const Table *t = table_at(c, n, p);
                *path = t ? g_hash_table_lookup(c->tables, p) ? n->published : NULL : NULL;
                return t;
        }
        case NUMBER_SKIPPED: {
                GKeyFile *kf = meta_of(c, n);
                *path = "meta.ini [skipped]";
                *no_data = !kf && !c->in->meta;
                if (!kf)
                        return NULL;
                Table *t = g_hash_table_lookup(c->tables, "\001skipped");
                if (!t) {
                        t = skipped_table(c, n, kf);
                        g_hash_table_insert(c->tables, g_strdup("\001skipped"), t);
                }
                return t;
        }
        default:
                return NULL;
        }
}

/* ---- rows and pairs ---------------------------------------------------- */

typedef struct {
        char **a, **b;   /* the row, or the pair's two rows */
        double v;        /* its value in seconds and bytes; NAN: none, or a text */
        const char *text;/* the value as written (rows) */
} Item;

/* The columns of T that N names, -1 for those absent. */
typedef struct {
        int value, over_value, n, lo, hi, over_lo, over_hi;
        int *times, *per;
        double value_f, over_f, *times_f, *per_f;
} Cols;

static double col_factor(const Number *n, const char *col)
{
        bool text;
        const NumberUnit *u = number_column_unit(n, col, &text);
        return u ? u->factor : 1;
}

static int col_index(const Table *t, const char *name)
{
        return name ? select_key_column(t, name) : -1;
}

static int *col_list(const Table *t, char **names, double **factors, const Number *n)
{
        guint k = names ? g_strv_length(names) : 0;
        int *out = g_new(int, k + 1);
        *factors = g_new(double, k + 1);

        for (guint i = 0; i < k; i++) {
                out[i] = col_index(t, names[i]);
                (*factors)[i] = col_factor(n, names[i]);
        }
        out[k] = -2;
        return out;
}

static double operand(const Cols *cols, char **row, int vc, double vf)
{
        double v = vc >= 0 ? number_parse(row[vc]) * vf : NAN;

        for (guint i = 0; cols->times[i] != -2; i++)
                v *= cols->times[i] >= 0 ? number_parse(row[cols->times[i]]) * cols->times_f[i] : NAN;
        for (guint i = 0; cols->per[i] != -2; i++)
                v /= cols->per[i] >= 0 ? number_parse(row[cols->per[i]]) * cols->per_f[i] : NAN;
        return v;
}

static double interval_coverage(const Cols *cols, char **row)
{
        double k = cols->n >= 0 ? number_parse(row[cols->n]) : NAN;
        return isnan(k) || k < 1 ? 0 : stats_median_ci_level((size_t) k, VERIFY_LEVEL);
}

static bool pair_keeps(const Number *n, const Cols *cols, char **a, char **b, double va, double vb)
{
        double alo = cols->lo >= 0 ? number_parse(a[cols->lo]) : NAN, ahi = cols->hi >= 0 ? number_parse(a[cols->hi]) : NAN;
        double blo = cols->over_lo >= 0 ? number_parse(b[cols->over_lo]) : NAN;
        double bhi = cols->over_hi >= 0 ? number_parse(b[cols->over_hi]) : NAN;
        bool disjoint = stats_intervals_disjoint(alo, ahi, blo, bhi);
        bool known = !isnan(alo) && !isnan(ahi) && !isnan(blo) && !isnan(bhi);
        bool full = interval_coverage(cols, a) >= VERIFY_LEVEL && interval_coverage(cols, b) >= VERIFY_LEVEL;

        return !(((n->keep & KEEP_ABOVE) && !(va > vb)) || ((n->keep & KEEP_BELOW) && !(va < vb)) ||
                 ((n->keep & KEEP_NOT_ABOVE) && !(va <= vb)) || ((n->keep & KEEP_NOT_BELOW) && !(va >= vb)) ||
                 ((n->keep & KEEP_DISJOINT) && !disjoint) || ((n->keep & KEEP_OVERLAP) && (!known || disjoint)) ||
                 ((n->keep & KEEP_APART) && !(disjoint && full)));
}

static double combine(NumberCompare how, double a, double b)
{
        switch (how) {
        case COMPARE_RATIO: return a / b;
        case COMPARE_DIFFERENCE: return a - b;
        case COMPARE_DISTANCE: return fabs(a - b);
        case COMPARE_SAVING: return 1 - a / b;
        default: return a;
        }
}

/* The columns a pair's rows agree on: pair=, or the axes of T neither
 * selector names (a summary; none for other files). */
static GArray *pair_columns(const Number *n, const Table *t, const Selector *where, const Selector *over)
{
        GArray *cols = g_array_new(FALSE, FALSE, sizeof(int));

        if (n->pair) {
                for (guint i = 0; n->pair[i]; i++) {
                        int k = col_index(t, n->pair[i]);
                        g_array_append_val(cols, k);
                }
        } else if (over && (n->source == NUMBER_SUMMARY || n->source == NUMBER_EXPERIMENT)) {
                for (const Column *c = column_table; c->name; c++) {
                        int k = table_column(t, c->name);
                        if (c->kind == COLUMN_AXIS && k >= 0 && !select_names_column(where, c->name) &&
                            !select_names_column(over, c->name))
                                g_array_append_val(cols, k);
                }
        }
        return cols;
}

/* The axes in which the rows of ITEMS differ, for a message. */
static char *differing(const Table *t, GArray *items)
{
        GString *s = g_string_new(NULL);

        for (const Column *c = column_table; c->name; c++) {
                int k = table_column(t, c->name);
                if (k < 0 || c->kind != COLUMN_AXIS)
                        continue;
                for (guint i = 1; i < items->len; i++)
                        if (strcmp(g_array_index(items, Item, 0).a[k], g_array_index(items, Item, i).a[k])) {
                                g_string_append_printf(s, "%s%s", s->len ? ", " : "", c->name);
                                break;
                        }
        }
        if (!s->len)
                g_string_append(s, "no axis (several pairs)");
        return g_string_free(s, FALSE);
}

/* ---- one number -------------------------------------------------------- */

static Result compute(Ctx *c, const Number *n);

/* A number whose source has no data: "--", or 0 where the text tests it
 * with \ifnum (a count, an interval's verdict, a test). */
static Result no_data(const Number *n)
{
        bool zero = n->reduce == REDUCE_COUNT || n->reduce == REDUCE_DISTINCT || n->show == SHOW_APART || n->test;
        return (Result) { g_strdup(zero ? "0" : "--"), NAN };
}

/* A computed number V (seconds and bytes) as the macro's body: shown in
 * N's unit, or 1/0 by its test=. */
static Result shown_number(const Number *n, double v)
{
        if (n->test) {
                const NumberUnit *u = n->unit ? number_unit_find(n->unit) : number_default_unit(n);
                char buf[G_ASCII_DTOSTR_BUF_SIZE];
                g_ascii_formatd(buf, sizeof buf, "%.17g", v * n->scale / (u ? u->factor : 1));
                return (Result) { g_strdup(number_test_holds(n, buf) ? "1" : "0"), v };
        }
        return (Result) { number_value_tex(n, v), v };
}

static Result shown_text(const Number *n, const char *column, const char *raw)
{
        if (n->test)
                return (Result) { g_strdup(number_test_holds(n, raw) ? "1" : "0"), NAN };
        return (Result) { number_text_tex(n, column, raw), NAN };
}

/* Seconds from B to A when both are ISO 8601 times, else NAN. */
static double time_between(const char *a, const char *b)
{
        g_autoptr(GDateTime) ta = g_date_time_new_from_iso8601(a, NULL);
        g_autoptr(GDateTime) tb = g_date_time_new_from_iso8601(b, NULL);
        return ta && tb ? (double) g_date_time_difference(ta, tb) / 1e6 : NAN;
}

static Result compute_meta(Ctx *c, const Number *n)
{
        GKeyFile *kf = meta_of(c, n);
        g_autofree char *raw0 = NULL, *raw1 = NULL;
        char **raw[2] = { &raw0, &raw1 };
        guint nf = g_strv_length(n->meta);

        if (!kf)
                return c->in->meta ? (Result) { NULL, NAN } : no_data(n);
        for (guint i = 0; i < nf; i++) {
                const char *dot = strrchr(n->meta[i], '.');
                g_autofree char *group = g_strndup(n->meta[i], (gsize) (dot - n->meta[i]));
                /* A group the run did not write (no VM ran): no data. */
                if (!g_key_file_has_group(kf, group))
                        return no_data(n);
                *raw[i] = g_key_file_get_string(kf, group, dot + 1, NULL);
                if (!*raw[i]) {
                        fail(c, n, "meta", "%s: [%s] has no key %s", c->in->meta, group, dot + 1);
                        return (Result) { NULL, NAN };
                }
        }
        NumberDims d;
        bool text;
        if (nf == 1 && !number_dims(n, NULL, &d))
                return shown_text(n, NULL, raw0);
        const NumberUnit *u = number_column_unit(n, n->meta[0], &text);
        double f = u ? u->factor : 1;
        double a = number_parse(raw0) * f;
        if (nf == 2) {
                double t = time_between(raw0, raw1);
                double b = number_parse(raw1) * f;
                a = !isnan(t) ? combine(n->compare, t, 0) : combine(n->compare, a, b);
                if (!isnan(t) && n->compare == COMPARE_RATIO)
                        a = NAN;
        }
        if (isnan(a)) {
                fail(c, n, "meta", "%s: %s is not a number%s", c->in->meta, raw0, nf == 2 ? " or a time" : "");
                return (Result) { NULL, NAN };
        }
        return shown_number(n, a);
}

static Result compute_numbers(Ctx *c, const Number *n)
{
        double v[2];

        for (guint i = 0; i < 2; i++) {
                const Number *o = NULL;
                for (guint k = 0; k < c->exp->numbers->len && !o; k++)
                        if (!strcmp(((const Number *) c->exp->numbers->pdata[k])->name, n->numbers[i]))
                                o = c->exp->numbers->pdata[k];
                if (!o || g_hash_table_contains(c->busy, o->name)) {
                        fail(c, n, "numbers", "[number %s] %s", n->numbers[i],
                             o ? "is computed from this one: a cycle" : "is not in the file");
                        return (Result) { NULL, NAN };
                }
                Result r = compute(c, o);
                if (!r.tex)
                        return r;
                g_free(r.tex);
                v[i] = r.raw;
        }
        if (isnan(v[0]) || isnan(v[1]))
                return no_data(n);
        return shown_number(n, combine(n->compare, v[0], v[1]));
}

/* The columns N names in T; FALSE after a mistake. */
static bool find_columns(Ctx *c, const Number *n, const Table *t, const char *path, Cols *cols)
{
        const char *keys[] = { "value", "over_value" };
        const char *names[] = { n->value, n->over_value ? n->over_value : n->value };
        bool ok = true;

        cols->value = col_index(t, names[0]);
        cols->over_value = col_index(t, names[1]);
        for (int i = 0; i < 2; i++)
                if (names[i] && col_index(t, names[i]) < 0) {
                        fail(c, n, n->over_value || !i ? keys[i] : keys[0], "%s has no column %s", path, names[i]);
                        ok = false;
                }
        char **lists[] = { n->times, n->per, n->pair, n->show_axes };
        const char *lkeys[] = { "times", "per", "pair", "show" };
        for (int l = 0; l < 4; l++)
                for (guint i = 0; lists[l] && lists[l][i]; i++)
                        if (col_index(t, lists[l][i]) < 0) {
                                fail(c, n, lkeys[l], "%s has no column %s", path, lists[l][i]);
                                ok = false;
                        }
        cols->value_f = n->value ? col_factor(n, names[0]) : 1;
        cols->over_f = n->value ? col_factor(n, names[1]) : 1;
        cols->times = col_list(t, n->times, &cols->times_f, n);
        cols->per = col_list(t, n->per, &cols->per_f, n);
        cols->n = table_column(t, "n");
        g_autofree char *lo = names[0] ? g_strconcat(names[0], "_lo", NULL) : NULL;
        g_autofree char *hi = names[0] ? g_strconcat(names[0], "_hi", NULL) : NULL;
        g_autofree char *olo = names[1] ? g_strconcat(names[1], "_lo", NULL) : NULL;
        g_autofree char *ohi = names[1] ? g_strconcat(names[1], "_hi", NULL) : NULL;
        cols->lo = lo ? table_column(t, lo) : -1;
        cols->hi = hi ? table_column(t, hi) : -1;
        cols->over_lo = olo ? table_column(t, olo) : -1;
        cols->over_hi = ohi ? table_column(t, ohi) : -1;
        if (n->show == SHOW_APART && (cols->lo < 0 || cols->hi < 0 || cols->n < 0)) {
                fail(c, n, "show", "%s has no interval of %s (%s_lo, %s_hi) or no column n", path, names[0], names[0],
                     names[0]);
                ok = false;
        }
        return ok;
}

static void cols_clear(Cols *cols)
{
        g_free(cols->times);
        g_free(cols->per);
        g_free(cols->times_f);
        g_free(cols->per_f);
}

/* Does row A agree with row B on the columns PC ("-" agrees with anything)? */
static bool agree(GArray *pc, char **a, char **b)
{
        for (guint i = 0; i < pc->len; i++) {
                int k = g_array_index(pc, int, i);
                if (k >= 0 && strcmp(a[k], b[k]) && strcmp(a[k], "-") && strcmp(b[k], "-"))
                        return false;
        }
        return true;
}

static bool item_known(const Item *it, bool text, bool has_value)
{
        return !has_value || (text ? it->text && strcmp(it->text, "-") != 0 : !isnan(it->v));
}

/* The rows (or pairs) of one number, while it is computed. */
typedef struct {
        const Number *n;
        const Table *t;
        const char *path;
        Selector *where, *over;
        Cols cols;
        bool pairs;           /* over= or over_value= */
        bool written;         /* a published column nothing is computed from */
        bool text;            /* the value is a text */
        guint selected;       /* rows where= selects */
        guint over_rows;      /* rows over= selects */
        guint items;          /* rows or pairs made of them */
        guint unkept;         /* pairs keep= left out */
        GArray *known;        /* Item: those with a value */
} Rows;

static void rows_clear(Rows *r)
{
        select_free(r->where);
        select_free(r->over);
        cols_clear(&r->cols);
        if (r->known)
                g_array_unref(r->known);
}

/* The rows where= selects, or the pairs they make with over=, into
 * R->known (those with a value). */
static void rows_collect(Rows *r)
{
        const Number *n = r->n;
        const Table *t = r->t;
        g_autoptr(GArray) pc = pair_columns(n, t, r->where, r->over);

        r->known = g_array_new(FALSE, TRUE, sizeof(Item));
        for (guint i = 0; r->pairs && i < t->rows->len; i++)
                r->over_rows += r->over ? select_row(r->over, t, t->rows->pdata[i])
                                        : select_row(r->where, t, t->rows->pdata[i]);
        for (guint i = 0; i < t->rows->len; i++) {
                char **a = t->rows->pdata[i];
                if (!select_row(r->where, t, a))
                        continue;
                r->selected++;
                for (guint q = 0; q < (r->pairs ? t->rows->len : 1); q++) {
                        char **b = r->pairs ? t->rows->pdata[q] : NULL;
                        Item it = { a, b, operand(&r->cols, a, r->cols.value, r->cols.value_f),
                                    r->cols.value >= 0 ? a[r->cols.value] : NULL };
                        if (r->pairs) {
                                if (r->over ? b == a || !select_row(r->over, t, b) || !agree(pc, a, b) : b != a)
                                        continue;
                                double vb = operand(&r->cols, b, r->cols.over_value, r->cols.over_f);
                                if (n->keep && !pair_keeps(n, &r->cols, a, b, it.v, vb)) {
                                        r->unkept++;
                                        continue;
                                }
                                it = (Item) { a, b, combine(n->compare, it.v, vb), NULL };
                        }
                        r->items++;
                        if (item_known(&it, r->text, n->value != NULL))
                                g_array_append_val(r->known, it);
                }
        }
}

/* show=coverage: of the intervals of the rows' n repetitions; every row
 * alike, or the least or the greatest (reduce=min, max: a sequential
 * design's cells have different n, and the coverage of a median's
 * interval is not monotonic in n). */
static Result rows_coverage(Ctx *c, Rows *r)
{
        const Number *n = r->n;
        double k = NAN, level = NAN;

        for (guint i = 0; i < r->t->rows->len; i++) {
                char **a = r->t->rows->pdata[i];
                double m = select_row(r->where, r->t, a) && r->cols.n >= 0 ? number_parse(a[r->cols.n]) : NAN;
                if (isnan(m))
                        continue;
                if (n->reduce == REDUCE_ONE && !isnan(k) && m != k) {
                        fail(c, n, "where", "'%s' selects rows with different repetitions (%g and %g): "
                             "their intervals' coverage differs (reduce=min or max picks one)",
                             n->where ? n->where : "", k, m);
                        return (Result) { NULL, NAN };
                }
                double l = 100 * interval_coverage(&r->cols, a);
                if (isnan(level) || (n->reduce == REDUCE_MAX ? l > level : l < level))
                        level = l;
                k = m;
        }
        if (isnan(level))
                return no_data(n);
        return (Result) { verify_format_digits(level, n->digits), level };
}

/* The item reduce= picks: the one (every one alike), the least or the
 * greatest; FALSE after a mistake. */
static bool rows_pick(Ctx *c, Rows *r, guint *pick)
{
        const Number *n = r->n;
        GArray *known = r->known;

        *pick = 0;
        for (guint i = 1; i < known->len; i++) {
                const Item *it = &g_array_index(known, Item, i), *best = &g_array_index(known, Item, *pick);
                if (n->reduce == REDUCE_MIN ? it->v < best->v : n->reduce == REDUCE_MAX ? it->v > best->v : false)
                        *pick = i;
                if (n->reduce != REDUCE_ONE)
                        continue;
                bool same = !r->pairs && (r->text ? !strcmp(it->text, best->text) : it->v == best->v);
                if (!same) {
                        g_autofree char *diff = differing(r->t, known);
                        if (r->pairs)
                                fail(c, n, "where", "'%s' and over='%s' make %u pairs where one is needed (they "
                                     "differ in: %s)", n->where ? n->where : "", n->over ? n->over : "", known->len, diff);
                        else
                                fail(c, n, "where", "'%s' selects %u rows with different values of %s where one is "
                                     "needed (they differ in: %s)", n->where ? n->where : "", known->len, n->value, diff);
                        return false;
                }
        }
        return true;
}

/* show=apart: the picked row's interval apart from every other row's, or
 * the pair's two intervals apart; either at 95 %. */
static Result rows_apart(Rows *r, guint pick)
{
        const Cols *cols = &r->cols;
        GArray *known = r->known;
        const Item *it = &g_array_index(known, Item, pick);
        bool apart;

        if (r->pairs) {
                apart = stats_intervals_disjoint(number_parse(it->a[cols->lo]), number_parse(it->a[cols->hi]),
                                                 cols->over_lo >= 0 ? number_parse(it->b[cols->over_lo]) : NAN,
                                                 cols->over_hi >= 0 ? number_parse(it->b[cols->over_hi]) : NAN) &&
                        interval_coverage(cols, it->a) >= VERIFY_LEVEL && interval_coverage(cols, it->b) >= VERIFY_LEVEL;
        } else {
                g_autofree double *lo = g_new(double, known->len);
                g_autofree double *hi = g_new(double, known->len);
                bool full = true;
                for (guint i = 0; i < known->len; i++) {
                        char **row = g_array_index(known, Item, i).a;
                        lo[i] = number_parse(row[cols->lo]);
                        hi[i] = number_parse(row[cols->hi]);
                        full &= interval_coverage(cols, row) >= VERIFY_LEVEL;
                }
                apart = full && stats_interval_apart(lo, hi, known->len, pick);
        }
        return (Result) { g_strdup(apart ? "1" : "0"), apart };
}

/* What the picked item shows: its axes (show=), its text, or its number. */
static Result rows_value(Rows *r, const Item *it)
{
        const Number *n = r->n;

        if (n->show == SHOW_AXES) {
                if (n->test && !n->show_axes[1])
                        return shown_text(n, NULL, it->a[col_index(r->t, n->show_axes[0])]);
                GString *s = g_string_new(NULL);
                for (guint i = 0; n->show_axes[i]; i++) {
                        g_autofree char *v = number_text_tex(n, n->show_axes[i], it->a[col_index(r->t, n->show_axes[i])]);
                        g_string_append_printf(s, "%s%s", i ? " " : "", v);
                }
                return (Result) { g_string_free(s, FALSE), NAN };
        }
        if (r->text && (!r->written || isnan(it->v)))
                return shown_text(n, n->value, it->text);
        /* As written: a published number nothing was computed from, or a
         * whole number of the summary (repetitions, a count). */
        bool plain = !r->pairs && !n->times && !n->per && n->scale == 1 && !n->unit && n->digits < 0 && !n->test;
        const NumberUnit *u = number_default_unit(n);
        bool whole = it->text && number_parse(it->text) == floor(number_parse(it->text));
        bool summary = n->source == NUMBER_SUMMARY || n->source == NUMBER_EXPERIMENT;
        if (plain && u && (n->source == NUMBER_PUBLISHED || (summary && whole && u->time == 0 && u->bytes == 0))) {
                char *w = verify_format_written(it->text);
                return (Result) { w ? w : number_text_tex(n, n->value, it->text), it->v };
        }
        return shown_number(n, it->v);
}

static Result compute_rows(Ctx *c, const Number *n)
{
        Rows r = { .n = n };
        bool none;
        g_autoptr(GError) e = NULL;
        Result res = { NULL, NAN };

        r.t = source_table(c, n, &r.path, &none);
        if (!r.t)
                return none ? no_data(n) : res;
        r.where = select_parse(n->where, SELECT_COLUMNS, &e);
        if (!r.where || !select_check_table(r.where, r.t, r.path, &e)) {
                fail(c, n, "where", "%s", e->message);
                goto out;
        }
        r.over = n->over ? select_parse(n->over, SELECT_COLUMNS, &e) : NULL;
        if (n->over && (!r.over || !select_check_table(r.over, r.t, r.path, &e))) {
                fail(c, n, "over", "%s", e->message);
                goto out;
        }
        if (!find_columns(c, n, r.t, r.path, &r.cols))
                goto out;
        NumberDims d;
        r.pairs = n->over || n->over_value;
        /* A published column nothing is computed from may hold text. */
        r.written = n->source == NUMBER_PUBLISHED && !r.pairs && !n->times && !n->per &&
                    n->reduce != REDUCE_MIN && n->reduce != REDUCE_MAX;
        r.text = n->value && (r.written || !number_dims(n, r.t, &d));
        rows_collect(&r);
        GArray *known = r.known;
        if (n->reduce == REDUCE_COUNT) {
                res = n->test ? shown_number(n, known->len) : (Result) { g_strdup_printf("%u", known->len), known->len };
        } else if (n->reduce == REDUCE_DISTINCT) {
                g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
                for (guint i = 0; i < known->len; i++)
                        g_hash_table_add(seen, (gpointer) g_array_index(known, Item, i).text);
                res = (Result) { g_strdup_printf("%u", g_hash_table_size(seen)), g_hash_table_size(seen) };
        } else if (n->show == SHOW_COVERAGE) {
                res = rows_coverage(c, &r);
        } else if (!known->len) {
                /* The cells selected are not in the data (a profile, a
                 * place or a library that did not run), or have no value
                 * (a failed cell): no data.  Rows on both sides that make
                 * no pair are a mistake of pair= or the selectors. */
                if (r.pairs && r.selected && r.over_rows && !r.items && !r.unkept)
                        fail(c, n, n->pair ? "pair" : "over", "no row of over='%s' agrees with a row of where='%s'%s",
                             n->over ? n->over : "", n->where ? n->where : "",
                             n->pair ? " on the pair= columns" : " on the axes neither names");
                else
                        res = no_data(n);
        } else if (n->reduce == REDUCE_LIST) {
                g_autoptr(GPtrArray) rows = g_ptr_array_new();
                for (guint i = 0; i < known->len; i++)
                        g_ptr_array_add(rows, g_array_index(known, Item, i).a);
                res = (Result) { number_list_tex(n, r.t, rows), NAN };
        } else {
                guint pick;
                if (rows_pick(c, &r, &pick))
                        res = n->show == SHOW_APART ? rows_apart(&r, pick) : rows_value(&r, &g_array_index(known, Item, pick));
        }
out:
        rows_clear(&r);
        return res;
}

/* N's result, computed once (numbers= may ask for it before its turn). */
static Result compute(Ctx *c, const Number *n)
{
        Result *done = g_hash_table_lookup(c->raw, n->name);

        if (!done) {
                g_hash_table_add(c->busy, n->name);
                Result r = n->source == NUMBER_META ? compute_meta(c, n)
                         : n->source == NUMBER_NUMBERS ? compute_numbers(c, n)
                         : compute_rows(c, n);
                g_hash_table_remove(c->busy, n->name);
                done = g_memdup2(&r, sizeof r);
                g_hash_table_insert(c->raw, n->name, done);
        }
        return (Result) { g_strdup(done->tex), done->raw };
}

static void result_free(Result *r)
{
        g_free(r->tex);
        g_free(r);
}

char *numbers_render(const char *file, const NumbersInputs *in, GError **error)
{
        g_autoptr(Experiment) exp = experiment_load_anywhere(file, error);

        if (!exp)
                return NULL;
        Ctx c = {
                .exp = exp, .in = in,
                .tables = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify) table_free),
                .errors = g_ptr_array_new_with_free_func(g_free),
                .raw = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, (GDestroyNotify) result_free),
                .busy = g_hash_table_new(g_str_hash, g_str_equal),
        };
        g_autoptr(GString) out = g_string_new(NULL);
        g_string_append_printf(out, "%% generated by `ipclab numbers` from %s: the numbers its section quotes\n",
                               exp->name);
        for (guint i = 0; i < exp->numbers->len; i++) {
                const Number *n = exp->numbers->pdata[i];
                Result r = compute(&c, n);
                if (r.tex)
                        g_string_append_printf(out, "\\newcommand{\\%s}{%s}\n", n->macro, r.tex);
                g_free(r.tex);
        }
        char *text = NULL;
        if (c.errors->len) {
                g_ptr_array_add(c.errors, NULL);
                g_autofree char *all = g_strjoinv("\n", (char **) c.errors->pdata);
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s", all);
        } else {
                text = g_string_free(g_steal_pointer(&out), FALSE);
        }
        g_hash_table_unref(c.tables);
        g_ptr_array_unref(c.errors);
        g_hash_table_unref(c.raw);
        g_hash_table_unref(c.busy);
        if (c.meta)
                g_key_file_unref(c.meta);
        return text;
}

