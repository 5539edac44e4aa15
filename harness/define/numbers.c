/* numbers.c: [number NAME] groups, parsed and checked (numbers.h).  The
 * key table below describes every key once; numbers-render.c computes
 * what they declare. */
#include "numbers.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "columns.h"
#include "latex.h"
#include "numbers-internal.h"
#include "select.h"
#include "suggest.h"
#include "table.h"

static const char *const reduce_words[] = { "one", "min", "max", "count", "distinct", "list", NULL };
static const char *const compare_words[] = { "ratio", "difference", "distance", "saving", NULL };
static const char *const keep_words[] = { "above", "below", "not-above", "not-below", "disjoint", "overlap",
                                          "apart", NULL };

/* Selectors, names and columns: no text the paper prints, but one line. */
#define ANY_LENGTH ((guint64) 1 << 20)

/* Every key of a [number] group: group_parse_keys() stores its value in
 * Number (compare= and reduce= as their word's index, keep= and show= as
 * lists), and numbers_parse() ties them together.  A list may name one
 * column twice (per=lat_p50_ns;lat_p50_ns: per squared time). */
static const GroupKey number_keys[] = {
        { { "experiment", OPT_STRING, NULL, NULL, false, 0, ANY_LENGTH,
            "another experiment whose summary the number reads (default: this one's)" },
          1, offsetof(Number, experiment), 0, NULL },
        { { "published", OPT_STRING, NULL, NULL, false, 0, ANY_LENGTH,
            "a file in data/published/ whose rows the number reads; its numbers are quoted as written" },
          1, offsetof(Number, published), 0, NULL },
        { { "meta", OPT_LIST, NULL, NULL, false, 0, 0,
            "GROUP.KEY: a fact of the experiment's meta.ini (run.env_accel, machine vm.kernel); two (;) "
          "with compare= (run.finished;run.started); or skipped: the cells the run left out, as rows of "
          "transport, size_B and limit_B" },
          1, offsetof(Number, meta), GROUP_KEY_REPEATS, NULL },
        { { "numbers", OPT_LIST, NULL, NULL, false, 0, 0,
            "A;B: two other [number] groups of this file, combined by compare=" },
          1, offsetof(Number, numbers), GROUP_KEY_REPEATS, NULL },
        { { "where", OPT_STRING, NULL, NULL, false, 0, ANY_LENGTH,
            "which rows: a selector on axes or any column, as in claims (default: every row)" },
          1, offsetof(Number, where), 0, NULL },
        { { "value", OPT_STRING, NULL, NULL, false, 0, ANY_LENGTH,
            "the column quoted (summary columns: `ipclab columns`; an axis by its key or column)" },
          1, offsetof(Number, value), 0, NULL },
        { { "times", OPT_LIST, NULL, NULL, false, 0, 0,
            "columns (;) of the same row the value is multiplied by (size_B;messages: bytes moved)" },
          1, offsetof(Number, times), GROUP_KEY_REPEATS, NULL },
        { { "per", OPT_LIST, NULL, NULL, false, 0, 0,
            "columns (;) of the same row the value is divided by (messages: per message)" },
          1, offsetof(Number, per), GROUP_KEY_REPEATS, NULL },
        { { "over", OPT_STRING, NULL, NULL, false, 0, ANY_LENGTH,
            "a second selector: each row of where= is paired with its rows (see pair=)" },
          1, offsetof(Number, over), 0, NULL },
        { { "over_value", OPT_STRING, NULL, NULL, false, 0, ANY_LENGTH,
            "the second column of a pair (default value=; without over=, of the same row)" },
          1, offsetof(Number, over_value), 0, NULL },
        { { "pair", OPT_LIST, NULL, NULL, false, 0, 0,
            "columns (;) on which the two rows of a pair agree (default: the axes neither "
          "selector names; published files and meta=skipped: none, every row with every row)" },
          1, offsetof(Number, pair), GROUP_KEY_REPEATS, NULL },
        { { "compare", OPT_ENUM, compare_words, NULL, false, 0, 0,
            "ratio (default), difference, distance (|a - b|) or saving (1 - a/b, in %): "
          "what a pair's two values make" },
          1, offsetof(Number, compare), 0, NULL },
        { { "keep", OPT_LIST, keep_words, NULL, false, 0, 0,
            "conditions (;) a pair must meet: above (a > b), below, not-above, not-below, "
          "disjoint (the two 95% intervals do not overlap), overlap, apart (disjoint and both at 95%)" },
          1, offsetof(Number, keep_list), GROUP_KEY_REPEATS, NULL },
        { { "reduce", OPT_ENUM, reduce_words, NULL, false, 0, 0,
            "one (default: every row or pair the same value), min, max, count, distinct "
          "(different values) or list" },
          1, offsetof(Number, reduce), 0, NULL },
        { { "show", OPT_LIST, NULL, NULL, false, 0, 0,
            "value (default), coverage (of the rows' median intervals, in %), apart (the picked "
          "row's interval apart from every other's, or the pair's, at 95%), or axes (;) of the picked "
          "row (min, max) or of the rows listed (list)" },
          1, offsetof(Number, show_axes), GROUP_KEY_REPEATS, NULL },
        { { "scale", OPT_NUMBER, NULL, NULL, false, 0, 0,
            "a factor the number is multiplied by (50: fifty calls)" },
          1, offsetof(Number, scale), 0, NULL },
        { { "unit", OPT_STRING, NULL, NULL, false, 0, ANY_LENGTH,
            "display unit: ns, us, ms, s; B, KiB, MiB, GiB; KiB/s, MiB/s, GiB/s; 1/s, k/s, M/s; % "
          "(default: the column's own; bytes as a size, 4~KiB)" },
          1, offsetof(Number, unit), 0, NULL },
        { { "digits", OPT_UINT, NULL, NULL, false, 0, 6,
            "fixed decimals 0-6 (default: three significant figures, as the paper's tables)" },
          1, offsetof(Number, digits), 0, NULL },
        { { "chars", OPT_UINT, NULL, NULL, false, 1, 1000,
            "the first N characters of a text (a hash)" },
          1, offsetof(Number, chars), 0, NULL },
        { { "labels", OPT_LIST, NULL, NULL, false, 0, 0,
            "VALUE=TEXT pairs (;): how values of a text column read in the text (busctl-call=busctl call)" },
          1, offsetof(Number, labels), GROUP_KEY_REPEATS, NULL },
        { { "test", OPT_STRING, NULL, NULL, false, 0, ANY_LENGTH,
            "a condition on the number (tcg, !=none|-, >2, as in selectors): the macro is 1 when it "
          "holds, else 0 (for \\ifnum)" },
          1, offsetof(Number, test), 0, NULL },
};

static const char *kinds_name(unsigned kinds)
{
        (void) kinds;
        return "number";
}

char *numbers_key_help(void)
{
        GString *s = g_string_new(NULL);

        group_key_help(s, number_keys, G_N_ELEMENTS(number_keys), kinds_name);
        return g_string_free(s, FALSE);
}

void number_free(Number *n)
{
        if (!n)
                return;
        g_free(n->name);
        g_free(n->macro);
        g_free(n->group);
        if (n->lines)
                g_hash_table_unref(n->lines);
        g_free(n->experiment);
        g_free(n->published);
        g_strfreev(n->meta);
        g_strfreev(n->numbers);
        g_free(n->where);
        g_free(n->over);
        g_free(n->value);
        g_free(n->over_value);
        g_strfreev(n->times);
        g_strfreev(n->per);
        g_strfreev(n->pair);
        g_strfreev(n->show_axes);
        g_strfreev(n->keep_list);
        g_free(n->unit);
        g_free(n->test);
        g_strfreev(n->labels);
        g_free(n);
}

/* ---- parsing ------------------------------------------------------------- */

/* COLUMN as the column it names in the number's source (an axis key
 * "size" names size_B in a summary), or NULL after a mistake. */
static char *check_column(GroupParse *p, const char *key, const Number *n, const Table *pub, const char *column)
{
        if (n->source == NUMBER_SUMMARY || n->source == NUMBER_EXPERIMENT) {
                const Column *c = column_find_key(column);
                int upper;
                if (c)
                        return g_strdup(c->name);
                c = column_find(column);
                if ((c && (c->flags & COLUMN_IN_SUMMARY)) || column_find_interval(column, &upper))
                        return g_strdup(column);
                g_autofree char *hint = column_hint(column, false);
                group_bad(p, key, "'%s' is not a column of the summary (see `ipclab columns`)%s", column, hint);
                return NULL;
        }
        if (n->source == NUMBER_SKIPPED) {
                if (!strcmp(column, "transport") || !strcmp(column, "size_B") || !strcmp(column, "limit_B"))
                        return g_strdup(column);
                if (!strcmp(column, "size"))
                        return g_strdup("size_B");
                group_bad(p, key, "'%s' is not a column of meta=skipped (transport, size_B, limit_B)", column);
                return NULL;
        }
        if (pub && select_key_column(pub, column) >= 0)
                return g_strdup(table_column(pub, column) >= 0 ? column : select_axis_column(column));
        if (pub) {
                g_autofree char *have = g_strjoinv(", ", pub->columns);
                g_autofree char *hint = suggest_hint_among(column, (const char *const *) pub->columns);
                group_bad(p, key, "%s has no column '%s' (it has: %s)%s", n->published, column, have, hint);
        }
        return NULL;
}

static void check_columns(GroupParse *p, const char *key, const Number *n, const Table *pub, char **list)
{
        for (guint i = 0; list && list[i]; i++) {
                char *c = check_column(p, key, n, pub, list[i]);
                if (c) {
                        g_free(list[i]);
                        list[i] = c;
                }
        }
}

static void check_selector(GroupParse *p, const char *key, const char *text, const Number *n, const Table *pub)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(Selector) s = select_parse(text, SELECT_COLUMNS, &e);

        if (!s) {
                group_bad(p, key, "%s", e->message);
                return;
        }
        if (pub && !select_check_table(s, pub, n->published, &e))
                group_bad(p, key, "%s", e->message);
}

/* "GROUP.KEY": a group and a key of meta.ini (the key after the last dot). */
static bool meta_fact_ok(const char *fact)
{
        const char *dot = strrchr(fact, '.');
        return dot && dot != fact && dot[1] && strspn(dot + 1, "abcdefghijklmnopqrstuvwxyz"
                                                      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(dot + 1);
}


/* The source's unit of what the number computes, or a mistake. */
static void check_unit(GroupParse *p, const Number *n, const Table *pub)
{
        NumberDims d;

        if (!number_dims(n, pub, &d)) {
                if (n->unit)
                        group_bad(p, "unit", "the number is a text: no unit applies");
                return;
        }
        if (!n->unit) {
                if (!number_default_unit(n) && !(d.time == 0 && d.bytes == 1))
                        group_bad(p, "unit", "missing: the number is %s, not in its column's unit: give unit=",
                            number_dims_text(&d));
                return;
        }
        const NumberUnit *u = number_unit_find(n->unit);
        if (!u) {
                group_bad(p, "unit", "unknown unit '%s' (allowed: %s)", n->unit, number_unit_names());
                return;
        }
        if (u->time != d.time || u->bytes != d.bytes)
                group_bad(p, "unit", "'%s' does not fit what the number computes (%s)", n->unit, number_dims_text(&d));
}

static void parse_name(GroupParse *p, Number *n)
{
        n->group = g_strdup(p->group);
        n->name = g_strdup(p->group + strlen("number "));
        n->macro = latex_macro_name(n->name);
        n->digits = -1;
        n->scale = 1;
        if (!n->name[0] || strlen(n->name) > 64 || !n->macro[0] ||
            strspn(n->name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != strlen(n->name))
                group_bad(p, NULL, "number name must be letters, digits, '-' or '_' (with a letter): "
                          "the macro is \\%s", n->macro);
        group_check_keys(p, number_keys, G_N_ELEMENTS(number_keys), 1, "number");
        /* compare= and reduce= as the index of their word; -1: not given. */
        n->compare = (NumberCompare) -1;
        n->reduce = (NumberReduce) -1;
        group_parse_keys(p, number_keys, G_N_ELEMENTS(number_keys), 1, n, NULL);
}

/* experiment=, published=, meta=, numbers=: at most one; the published
 * file's header into *PUB. */
static void parse_source(GroupParse *p, Number *n, const char *published_dir, Table **pub)
{
        if (!!n->experiment + !!n->published + !!n->meta + !!n->numbers > 1)
                group_bad(p, n->published ? "published" : n->meta ? "meta" : "numbers",
                          "one source: experiment=, published=, meta= or numbers=");
        n->source = NUMBER_SUMMARY;
        if (n->experiment) {
                n->source = NUMBER_EXPERIMENT;
                if (strspn(n->experiment, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
                    != strlen(n->experiment) || strlen(n->experiment) > 64)
                        group_bad(p, "experiment", "'%s' is not an experiment's name", n->experiment);
        } else if (n->published) {
                n->source = NUMBER_PUBLISHED;
                *pub = group_read_published(p, published_dir, n->published);
        } else if (n->meta && n->meta[0] && !n->meta[1] && !strcmp(n->meta[0], "skipped")) {
                n->source = NUMBER_SKIPPED;
        } else if (n->meta) {
                n->source = NUMBER_META;
                guint nm = g_strv_length(n->meta);
                for (guint i = 0; i < nm; i++)
                        if (!meta_fact_ok(n->meta[i]))
                                group_bad(p, "meta", "'%s' is not GROUP.KEY (run.env_accel, machine vm.kernel) or "
                                          "skipped", n->meta[i]);
                if (nm < 1 || nm > 2)
                        group_bad(p, "meta", "one fact, or two with compare=");
        } else if (n->numbers) {
                n->source = NUMBER_NUMBERS;
                if (g_strv_length(n->numbers) != 2)
                        group_bad(p, "numbers", "two numbers of this file, A;B");
                for (guint i = 0; n->numbers[i]; i++) {
                        g_autofree char *g = g_strconcat("number ", n->numbers[i], NULL);
                        if (!g_key_file_has_group(p->kf, g))
                                group_bad(p, "numbers", "no [number %s] in this file", n->numbers[i]);
                        else if (!strcmp(g, p->group))
                                group_bad(p, "numbers", "a number cannot be computed from itself");
                }
        }
}

static bool has_rows(const Number *n)
{
        return n->source != NUMBER_META && n->source != NUMBER_NUMBERS;
}

/* where=, over=, value=, over_value=, times=, per=, pair=: each column as
 * the column it names in the source. */
static void parse_rows(GroupParse *p, Number *n, const Table *pub)
{
        if (!has_rows(n)) {
                const char *row_keys[] = { "where", "over", "value", "over_value", "times", "per", "pair" };
                for (size_t i = 0; i < G_N_ELEMENTS(row_keys); i++)
                        if (g_key_file_has_key(p->kf, p->group, row_keys[i], NULL))
                                group_bad(p, row_keys[i], "applies to rows (a summary, published=, meta=skipped), "
                                          "not to %s", n->source == NUMBER_META ? "a meta.ini fact" : "numbers=");
                return;
        }
        if (n->where)
                check_selector(p, "where", n->where, n, pub);
        if (n->over)
                check_selector(p, "over", n->over, n, pub);
        char *c;
        if (n->value && (c = check_column(p, "value", n, pub, n->value))) {
                g_free(n->value);
                n->value = c;
        }
        if (n->over_value && (c = check_column(p, "over_value", n, pub, n->over_value))) {
                g_free(n->over_value);
                n->over_value = c;
        }
        check_columns(p, "times", n, pub, n->times);
        check_columns(p, "per", n, pub, n->per);
        check_columns(p, "pair", n, pub, n->pair);
        if ((n->times || n->per || n->over || n->over_value) && !n->value)
                group_bad(p, n->times ? "times" : n->per ? "per" : n->over ? "over" : "over_value",
                          "applies to a value: give value=");
        if (n->pair && !n->over)
                group_bad(p, "pair", "applies only with over=");
}

/* compare=, keep=, reduce=. */
static void parse_reduce(GroupParse *p, Number *n)
{
        bool pairs = n->over || n->over_value;
        bool two_meta = n->source == NUMBER_META && n->meta && n->meta[0] && n->meta[1];
        bool compare = g_key_file_has_key(p->kf, p->group, "compare", NULL);
        int w = (int) n->compare;

        n->compare = pairs || n->source == NUMBER_NUMBERS || two_meta ? COMPARE_RATIO : COMPARE_NONE;
        if (w >= 0)
                n->compare = (NumberCompare) (COMPARE_RATIO + w);
        if (compare && !pairs && n->source != NUMBER_NUMBERS && !two_meta)
                group_bad(p, "compare", "applies to two values: over=, over_value=, numbers= or meta=A;B");
        if (two_meta && n->compare == COMPARE_SAVING)
                group_bad(p, "compare", "two meta.ini facts make a ratio, a difference or a distance");
        for (guint i = 0; n->keep_list && n->keep_list[i]; i++)
                n->keep |= 1u << option_index(keep_words, n->keep_list[i]);
        if (g_key_file_has_key(p->kf, p->group, "keep", NULL) && !pairs)
                group_bad(p, "keep", "applies to pairs: give over= or over_value=");
        bool reduce = (int) n->reduce >= 0;
        if (!reduce)
                n->reduce = REDUCE_ONE;
        if (g_key_file_has_key(p->kf, p->group, "reduce", NULL) && !has_rows(n))
                group_bad(p, "reduce", "applies to rows");
}

/* show=: value, coverage, apart, or columns of the rows. */
static void parse_show(GroupParse *p, Number *n, const Table *pub)
{
        bool pairs = n->over || n->over_value;
        bool summary = n->source == NUMBER_SUMMARY || n->source == NUMBER_EXPERIMENT;
        g_auto(GStrv) show = g_steal_pointer(&n->show_axes);
        const char *one = show && show[0] && !show[1] ? show[0] : "";

        n->show = SHOW_VALUE;
        if (!show || !strcmp(one, "value")) {
                n->show = SHOW_VALUE;
        } else if (!strcmp(one, "coverage")) {
                n->show = SHOW_COVERAGE;
                if (!summary)
                        group_bad(p, "show", "coverage is that of a summary's median intervals (its column n)");
                if (n->reduce != REDUCE_ONE && n->reduce != REDUCE_MIN && n->reduce != REDUCE_MAX)
                        group_bad(p, "reduce", "show=coverage takes one (every row alike), min or max");
        } else if (!strcmp(one, "apart")) {
                n->show = SHOW_APART;
                const Column *c = n->value ? column_find(n->value) : NULL;
                if (!summary)
                        group_bad(p, "show", "apart compares a summary's 95%% intervals");
                else if (!c || !(c->flags & COLUMN_HAS_CI))
                        group_bad(p, "show", "apart needs a value= with an interval in the summary (NAME_lo, NAME_hi)");
                if (pairs ? n->reduce != REDUCE_ONE : n->reduce != REDUCE_MIN && n->reduce != REDUCE_MAX)
                        group_bad(p, "show", "apart is of the row reduce=min or max picks, or of the one pair");
        } else {
                n->show = SHOW_AXES;
                n->show_axes = g_steal_pointer(&show);
                if (!has_rows(n))
                        group_bad(p, "show", "axes are shown of rows");
                else
                        check_columns(p, "show", n, pub, n->show_axes);
                if (n->reduce != REDUCE_MIN && n->reduce != REDUCE_MAX && n->reduce != REDUCE_LIST)
                        group_bad(p, "show", "columns are shown of the row reduce=min or max picks, or of the rows "
                                  "reduce=list lists");
                if (pairs && n->reduce != REDUCE_LIST)
                        group_bad(p, "show", "columns of pairs are shown by reduce=list");
        }
        if ((n->reduce == REDUCE_MIN || n->reduce == REDUCE_MAX || n->reduce == REDUCE_DISTINCT) && !n->value &&
            n->show != SHOW_COVERAGE)
                group_bad(p, "reduce", "%s needs value=", reduce_words[n->reduce]);
        if (n->reduce == REDUCE_LIST && !n->value && !n->show_axes)
                group_bad(p, "reduce", "list needs value= or show= columns");
}

/* scale=, unit=, digits=, chars=, labels=, test=. */
static void parse_format(GroupParse *p, Number *n, const Table *pub, bool columns_ok)
{
        for (guint i = 0; n->labels && n->labels[i]; i++)
                if (!strchr(n->labels[i], '=') || n->labels[i][0] == '=')
                        group_bad(p, "labels", "'%s' is not VALUE=TEXT", n->labels[i]);
        if (n->test) {
                g_autoptr(GError) e = NULL;
                g_autofree char *cond = number_test_selector(n->test);
                g_autoptr(Selector) s = select_parse(cond, SELECT_COLUMNS, &e);
                if (!s)
                        group_bad(p, "test", "'%s' is not a condition (tcg, !=none|-, >2): %s", n->test, e->message);
        }
        bool counted = n->reduce == REDUCE_COUNT || n->reduce == REDUCE_DISTINCT;
        if (columns_ok && n->show == SHOW_VALUE && !counted)
                check_unit(p, n, pub);
        else if (n->unit && (counted || n->show != SHOW_VALUE))
                group_bad(p, "unit", "a count, a coverage, an interval's verdict or a name has no unit");
}

/* The selectors name cells the experiment has (a typo selects none; the
 * summary's rows are checked by `ipclab numbers`). */
static void check_cells(GroupParse *p, const Number *n, const Experiment *exp)
{
        const char *sels[] = { n->where, n->over };
        const char *keys[] = { "where", "over" };

        if (n->source != NUMBER_SUMMARY || !exp || !exp->cells->len)
                return;
        for (int s = 0; s < 2; s++) {
                g_autoptr(Selector) sel = sels[s] ? select_parse(sels[s], SELECT_COLUMNS, NULL) : NULL;
                guint kept = 0;
                for (guint i = 0; sel && i < exp->cells->len; i++)
                        kept += select_cell(sel, exp->cells->pdata[i]);
                if (sel && !kept && !experiment_selector_unavailable(exp, sels[s]))
                        group_bad(p, keys[s], "'%s' names no cell of this experiment", sels[s]);
        }
}

Number *numbers_parse(GKeyFile *kf, const char *group, const Experiment *exp, const char *published_dir,
                      FigureReport report, void *ctx)
{
        GroupParse p = { .kf = kf, .group = group, .report = report, .ctx = ctx, .ok = true };
        g_autoptr(Number) n = g_new0(Number, 1);
        g_autoptr(Table) pub = NULL;

        parse_name(&p, n);
        guint before = p.mistakes;
        parse_source(&p, n, published_dir, &pub);
        parse_rows(&p, n, pub);
        bool columns_ok = p.mistakes == before;
        parse_reduce(&p, n);
        parse_show(&p, n, pub);
        parse_format(&p, n, pub, columns_ok);
        if (p.ok)
                check_cells(&p, n, exp);
        return p.ok ? g_steal_pointer(&n) : NULL;
}

char *numbers_inputs(const Experiment *exp)
{
        GString *s = g_string_new(NULL);
        g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

        for (guint i = 0; exp->numbers && i < exp->numbers->len; i++) {
                const Number *n = exp->numbers->pdata[i];
                g_autofree char *in = n->experiment ? g_strdup_printf("exp:%s", n->experiment)
                                    : n->published ? g_strdup_printf("published:data/published/%s", n->published)
                                    : NULL;
                if (!in || g_hash_table_contains(seen, in))
                        continue;
                g_string_append_printf(s, "%s%s", s->len ? " " : "", in);
                g_hash_table_add(seen, g_steal_pointer(&in));
        }
        if (!s->len)
                g_string_append_c(s, '-');
        return g_string_free(s, FALSE);
}
