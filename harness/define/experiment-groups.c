/* experiment-groups.c: the groups of an experiment file after
 * [experiment] and its profiles: [claim NAME] (read and checked here),
 * [figure NAME], [table NAME] (figure.h) and [number NAME] (numbers.h),
 * each with its mistakes reported at their lines (experiment-internal.h).
 */
#include "experiment-internal.h"

#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "figure.h"
#include "metrics.h"
#include "numbers.h"
#include "select.h"
#include "suggest.h"

/* The keys of a [claim NAME] group, as parse_claim reads them. */
static const struct {
        const char *key;
        const char *type;
        const char *def;            /* NULL: required */
        const char *help;
} claim_keys[] = {
        { "text", "text", NULL, "the claim as the paper states it, one line" },
        { "faster", "selector", NULL, "the cells that should be faster: axis=value[,axis=value] (transport=pipe)" },
        { "slower", "selector", NULL, "the cells they are compared with; each faster cell pairs with the slower "
          "cells that agree with it on the axes neither names" },
        { "metric", "name", NULL, "roundtrip_latency, elapsed, throughput, callrate or cpu" },
        { "by", "factor >= 1", "1", "how many times faster every pair must be (1: direction only)" },
        { "where", "selector", "every cell", "which cells the claim is about (size>=4KiB)" },
};

/* experiment-internal.h */
void experiment_claim_key_help(GString *s)
{
        for (size_t i = 0; i < G_N_ELEMENTS(claim_keys); i++) {
                g_autofree char *def = claim_keys[i].def ? g_strdup_printf("default %s", claim_keys[i].def)
                                                         : g_strdup("required");
                g_string_append_printf(s, "%-18s %-17s %s; %s; %s\n", "claim", claim_keys[i].key, claim_keys[i].type,
                                       def, claim_keys[i].help);
        }
}

void experiment_claim_free(Claim *cl)
{
        g_free(cl->name);
        g_free(cl->text);
        g_free(cl->faster);
        g_free(cl->slower);
        g_free(cl->metric);
        g_free(cl->where);
        g_free(cl);
}

/* A claim's text, as the claims table prints it: one line LaTeX can
 * typeset (figure_text_problem), at most 500 bytes, and not beginning
 * with '[', which LaTeX takes, right after the command before it (an
 * \item), for an optional argument that runs on to a ']'. */
static gboolean check_claim_text(const Ctx *c, const char *g, const char *text)
{
        const char *why = figure_text_problem(text, 500);

        if (why)
                return experiment_fail(c, g, "text", "%s", why);
        if (text[0] == '[')
                return experiment_fail(c, g, "text", "begins with '[', which LaTeX reads as the start of an optional argument: "
                                       "reword it");
        return TRUE;
}

static ExperimentClaimCheck claim_check;

void experiment_install_claim_check(ExperimentClaimCheck check)
{
        claim_check = check;
}

/* The checks of a claim before measuring (the installed claim_check):
 * refused when it cannot mean anything on EXP's cells, or, without a
 * profile, when the repetitions EXP gives cannot decide it (a profile
 * runs the same cells with less work: `ipclab check` says what its claims
 * can decide). */
static gboolean check_claim_design(const Ctx *c, const Experiment *exp, const Claim *cl, const char *g)
{
        const char *key = NULL;
        g_autofree char *why = NULL;
        g_autoptr(GError) e = NULL;

        if (!claim_check)
                return experiment_fail(c, g, NULL, "this program installed no check of claims "
                                       "(experiment_install_claim_check())");
        if (!claim_check(exp, cl, &key, &why, &e)) {
                g_autofree char *with = exp->profile ? g_strdup_printf(" (with [profile %s])", exp->profile)
                                                     : g_strdup("");
                return experiment_fail(c, g, key, "%s%s", e->message, with);
        }
        if (why && !exp->profile)
                return experiment_fail(c, g, NULL, "%s", why);
        return TRUE;
}

/* Parses [claim NAME] group G into a new claim of EXP: every mistake in
 * it reported; what depends on the cells (which a side selects, its
 * pairs) only when the rest is right and EXP has cells. */
static gboolean parse_claim(const Ctx *c, Experiment *exp, const char *g)
{
        g_auto(GStrv) keys = g_key_file_get_keys(c->kf, g, NULL, NULL);
        Claim *cl = g_new0(Claim, 1);
        gboolean ok = TRUE;

        g_ptr_array_add(exp->claims, cl);
        cl->name = g_strdup(g + strlen("claim "));
        if (!experiment_valid_name(cl->name))
                ok = experiment_fail(c, g, NULL, "claim name must be letters, digits, '-' or '_'");
        for (guint k = 0; keys[k]; k++) {
                Suggest sg;
                g_autoptr(GString) allowed = g_string_new(NULL);
                bool known = false;
                suggest_init(&sg, keys[k]);
                for (size_t i = 0; i < G_N_ELEMENTS(claim_keys); i++) {
                        known |= !strcmp(claim_keys[i].key, keys[k]);
                        suggest_consider(&sg, claim_keys[i].key);
                        g_string_append_printf(allowed, "%s%s", i ? ", " : "", claim_keys[i].key);
                }
                g_autofree char *hint = suggest_hint(&sg);
                if (!known)
                        ok = experiment_fail(c, g, keys[k], "unknown key (allowed: %s)%s", allowed->str, hint);
        }

        const char *str_keys[] = { "text", "faster", "slower", "metric", "where" };
        char **fields[] = { &cl->text, &cl->faster, &cl->slower, &cl->metric, &cl->where };
        for (guint k = 0; k < G_N_ELEMENTS(str_keys); k++) {
                g_autofree char *raw = g_key_file_get_value(c->kf, g, str_keys[k], NULL);
                bool required = false;
                for (size_t i = 0; i < G_N_ELEMENTS(claim_keys); i++)
                        required |= !strcmp(claim_keys[i].key, str_keys[k]) && !claim_keys[i].def;
                if (!raw) {
                        if (required)
                                ok = experiment_fail(c, g, str_keys[k], "missing");
                        continue;
                }
                g_autofree char *v = experiment_clean_value(raw);
                if (v[0] == '\0')
                        ok = experiment_fail(c, g, str_keys[k], "empty value");
                else
                        *fields[k] = g_steal_pointer(&v);
        }
        if (cl->text && !check_claim_text(c, g, cl->text))
                ok = FALSE;
        if (cl->metric && !metric_find_claim(cl->metric)) {
                /* The metrics claims may use: the registry's (metrics.h). */
                g_autofree char *hint = suggest_hint_among(cl->metric, metric_claim_names());
                g_autofree char *allowed = metric_claim_list();
                ok = experiment_fail(c, g, "metric", "unknown metric '%s' (allowed: %s)%s", cl->metric, allowed, hint);
        }
        if (cl->where) {
                g_autoptr(GError) we = NULL;
                g_autoptr(Selector) w = select_parse(cl->where, SELECT_AXES, &we);
                if (!w)
                        ok = experiment_fail(c, g, "where", "%s", we->message);
        }
        g_autofree char *by = g_key_file_get_value(c->kf, g, "by", NULL);
        cl->by = 1.0;
        if (by) {
                g_autofree char *v = experiment_clean_value(by);
                char *end;
                cl->by = g_ascii_strtod(v, &end);
                if (*end || !(cl->by >= 1.0) || !isfinite(cl->by))
                        ok = experiment_fail(c, g, "by", "'%s' is not a factor >= 1", v);
        }
        const char *sel_keys[] = { "faster", "slower" };
        const char *sels[] = { cl->faster, cl->slower };
        for (guint s = 0; s < 2; s++) {
                g_autoptr(GError) se = NULL;
                g_autoptr(Selector) sel = sels[s] ? select_parse(sels[s], SELECT_AXES, &se) : NULL;
                guint matched = 0;
                if (!sels[s])
                        continue;
                if (!sel) {
                        ok = experiment_fail(c, g, sel_keys[s], "%s", se->message);
                        continue;
                }
                for (guint j = 0; j < exp->cells->len; j++)
                        matched += select_cell(sel, exp->cells->pdata[j]);
                if (exp->cells->len && !matched && !experiment_selector_unavailable(exp, sels[s]))
                        ok = experiment_fail(c, g, sel_keys[s], "'%s' names no cell of this experiment", sels[s]);
        }
        if (!ok || !exp->cells->len)
                return ok;
        return check_claim_design(c, exp, cl, g);
}

/* Every claim group, each checked whatever the others hold. */
gboolean experiment_parse_claims(const Ctx *c, Experiment *exp)
{
        g_auto(GStrv) groups = g_key_file_get_groups(c->kf, NULL);
        gboolean ok = TRUE;

        for (guint i = 0; groups[i]; i++)
                if (g_str_has_prefix(groups[i], "claim ") && !parse_claim(c, exp, groups[i]))
                        ok = FALSE;
        return ok;
}

/* A mistake in a figure or table: at its key's line, or at the group's
 * header when the key is missing. */
static void report_output(void *ctx, const char *group, const char *key, const char *msg)
{
        const Ctx *c = ctx;
        guint line = key ? experiment_find_line(c->text, group, key) : 0;

        experiment_fail_at(c, line ? line : experiment_find_line(c->text, group, NULL), group, key, "%s", msg);
}

/* Where published= files are: data/published/ of the study the file is
 * in (experiments/X.ini -> data/published/), else of the working
 * directory. */
static char *published_dir(const char *file)
{
        g_autofree char *dir = g_path_get_dirname(file);
        g_autofree char *up = g_path_get_dirname(dir);
        char *pub = g_build_filename(up, "data", "published", NULL);

        if (g_file_test(pub, G_FILE_TEST_IS_DIR))
                return pub;
        g_free(pub);
        return g_build_filename("data", "published", NULL);
}

/* also= of O names an experiment whose file is beside EXP's, as the build
 * needs (its summary is made from data/ALSO when experiments/ALSO.ini is
 * there).  Asked by `ipclab check` and `ipclab run`, not where a file is
 * read to draw from data that exists (ANYWHERE: ipclab plot, table and
 * --list-outputs, whose caller says what it has). */
static void check_also_file(const Ctx *c, const Experiment *exp, const Output *o)
{
        g_autofree char *dir = g_path_get_dirname(exp->path);
        g_autofree char *base = o->also ? g_strconcat(o->also, ".ini", NULL) : NULL;
        g_autofree char *path = base ? g_build_filename(dir, base, NULL) : NULL;
        struct stat st;

        if (!c->anywhere && path && (stat(path, &st) < 0 || !S_ISREG(st.st_mode)))
                experiment_fail(c, o->group, "also", "no experiment '%s' (no file %s)", o->also, path);
}

/* Every figure and table group, each checked whatever the others hold;
 * the defaults when there is none. */
void experiment_parse_outputs(const Ctx *c, Experiment *exp)
{
        g_auto(GStrv) groups = g_key_file_get_groups(c->kf, NULL);
        g_autofree char *pub = published_dir(c->file);
        bool any = false;

        for (guint i = 0; groups[i]; i++) {
                if (!g_str_has_prefix(groups[i], "figure ") && !g_str_has_prefix(groups[i], "table "))
                        continue;
                any = true;
                Output *o = figure_parse(c->kf, groups[i], exp, pub, report_output, (void *) c);
                if (o) {
                        o->line = experiment_find_line(c->text, groups[i], NULL);
                        g_ptr_array_add(exp->outputs, o);
                        check_also_file(c, exp, o);
                }
        }
        if (!any)
                figure_defaults(exp, exp->outputs);
}

/* Every number group (numbers.h), each checked whatever the others hold;
 * each key's line kept for the mistakes `ipclab numbers` finds later. */
void experiment_parse_numbers(const Ctx *c, Experiment *exp)
{
        g_auto(GStrv) groups = g_key_file_get_groups(c->kf, NULL);
        g_autofree char *pub = published_dir(c->file);

        for (guint i = 0; groups[i]; i++) {
                if (!g_str_has_prefix(groups[i], "number "))
                        continue;
                Number *n = numbers_parse(c->kf, groups[i], exp, pub, report_output, (void *) c);
                if (!n)
                        continue;
                n->line = experiment_find_line(c->text, groups[i], NULL);
                n->lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
                g_auto(GStrv) keys = g_key_file_get_keys(c->kf, groups[i], NULL, NULL);
                for (guint k = 0; keys && keys[k]; k++)
                        g_hash_table_insert(n->lines, g_strdup(keys[k]),
                                            GUINT_TO_POINTER(experiment_find_line(c->text, groups[i], keys[k])));
                for (guint k = 0; k < exp->numbers->len; k++)
                        if (!strcmp(((Number *) exp->numbers->pdata[k])->macro, n->macro))
                                experiment_fail_at(c, n->line, groups[i], NULL, "its macro \\%s is also [%s]'s", n->macro,
                                                   ((Number *) exp->numbers->pdata[k])->group);
                g_ptr_array_add(exp->numbers, n);
        }
}
