/* verify-design.c: claims checked before measuring, and the names and
 * numbers claims give the paper (see verify.h). */
#include "verify-internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "metrics.h"
#include "placement-modes.h"
#include "safefile.h"
#include "select.h"
#include "stats.h"

/* ---- Before measuring --------------------------------------------------- */

bool verify_claim_covers(const Claim *claim, const Cell *cell)
{
        g_autoptr(Selector) f = select_parse(claim->faster, SELECT_AXES, NULL);
        g_autoptr(Selector) s = select_parse(claim->slower, SELECT_AXES, NULL);
        g_autoptr(Selector) w = select_parse(claim->where, SELECT_AXES, NULL);
        const Column *m = metric_find_claim(claim->metric);

        return f && s && w && m && (select_cell(f, cell) || select_cell(s, cell)) && select_cell(w, cell) &&
               metric_applies(m, pattern_name(cell->pattern));
}

/* The machine names the claim's selectors name (machine=A|B), each once,
 * into NAMES; "-" (one machine) when they name none. */
static void claim_machines(const Claim *claim, GPtrArray *names)
{
        const char *sels[] = { claim->faster, claim->slower, claim->where };

        for (guint i = 0; i < G_N_ELEMENTS(sels); i++) {
                g_auto(GStrv) parts = g_strsplit(sels[i] ? sels[i] : "", ",", -1);
                for (guint k = 0; parts[k]; k++) {
                        char *eq = strchr(parts[k], '=');
                        if (!eq || eq == parts[k] || eq[-1] == '!' || eq[-1] == '<' || eq[-1] == '>')
                                continue;
                        g_autofree char *key = g_strstrip(g_strndup(parts[k], (gsize) (eq - parts[k])));
                        if (strcmp(key, "machine") != 0)
                                continue;
                        g_auto(GStrv) vals = g_strsplit(eq + 1, "|", -1);
                        for (guint v = 0; vals[v]; v++) {
                                const char *name = g_strstrip(vals[v]);
                                bool seen = false;
                                for (guint n = 0; n < names->len && !seen; n++)
                                        seen = !strcmp(names->pdata[n], name);
                                if (!seen && *name)
                                        g_ptr_array_add(names, g_strdup(name));
                        }
                }
        }
        if (!names->len)
                g_ptr_array_add(names, g_strdup("-"));
}

/* The cells of EXP as samples.tsv would hold them, one repetition each,
 * in every environment it runs in and on each of MACHINES. */
static Table *design_table(const Experiment *exp, const GPtrArray *machines)
{
        g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func(g_free);
        Sample s = {
                .elapsed_ns = 1000, .client_cpu_ns = 1000, .server_cpu_ns = 1000, .bus_cpu_ns = 1000,
                .messages = 10, .bytes = 10, .lat_n = 10, .lat_min_ns = 100, .lat_p50_ns = 100,
                .lat_p90_ns = 100, .lat_p99_ns = 100, .lat_p999_ns = 100, .lat_max_ns = 100,
        };

        for (guint e = 0; e < MAX(exp->n_envs, 1); e++)
                for (guint m = 0; m < machines->len; m++)
                        for (guint c = 0; c < exp->cells->len; c++) {
                                GString *row = g_string_new(NULL);
                                samples_append_row(row, env_name(exp->n_envs ? exp->envs[e] : exp->env),
                                                   machines->pdata[m], exp->cells->pdata[c], 0, &s);
                                g_ptr_array_add(rows, g_string_free(row, FALSE));
                        }
        return verify_rows_table(rows);
}

static gboolean design_fail(GError **error, const char **key, const char *k, const char *fmt, ...)
        G_GNUC_PRINTF(4, 5);

static gboolean design_fail(GError **error, const char **key, const char *k, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        g_autofree char *msg = g_strdup_vprintf(fmt, ap);
        va_end(ap);
        *key = k;
        g_set_error_literal(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, msg);
        return FALSE;
}

/* The environments EXP runs in, "host, nspawn". */
static char *env_list(const Experiment *exp)
{
        GString *s = g_string_new(NULL);

        for (guint e = 0; e < exp->n_envs; e++)
                g_string_append_printf(s, "%s%s", e ? ", " : "", env_name(exp->envs[e]));
        return g_string_free(s, FALSE);
}

/* Why pairing found nothing: the first axis on which the first faster and
 * slower cells differ where it constrains them. */
static char *pairing_blocker(const Pairing *pg)
{
        const VCell *fc = pg->fast->pdata[0], *sc = pg->slow->pdata[0];

        for (guint k = 0; k < pg->n_key; k++) {
                const char *fv = fc->row[pg->key_col[k]], *sv = sc->row[pg->key_col[k]];
                if (!verify_pairing_names_key(pg, k) && strcmp(fv, sv) && strcmp(fv, "-") && strcmp(sv, "-"))
                        return g_strdup_printf("%s (%s against %s)", samples_axis_columns[k], fv, sv);
        }
        return g_strdup("an axis");
}

gboolean verify_claim_design(const Experiment *exp, const Claim *claim, VerifyDesign *d, const char **key,
                             GError **error)
{
        memset(d, 0, sizeof *d);
        *key = NULL;
        if (experiment_selector_unavailable(exp, claim->faster) || experiment_selector_unavailable(exp, claim->slower))
                return TRUE;
        g_autoptr(GPtrArray) machines = g_ptr_array_new_with_free_func(g_free);
        claim_machines(claim, machines);
        g_autoptr(Table) t = design_table(exp, machines);
        Pairing pg;
        if (!verify_pairing_build(claim, t, exp->path, G_MAXUINT, &pg, error)) {
                *key = "faster";
                return FALSE;
        }
        const char *sels[] = { claim->faster, claim->slower };
        const char *keys[] = { "faster", "slower" };
        gboolean ok = TRUE;
        g_autofree char *envs = env_list(exp);
        if (claim->where && pg.any[0] + pg.any[1] && !pg.kept[0] && !pg.kept[1])
                ok = design_fail(error, key, "where", "'%s' keeps none of the cells faster and slower select",
                                 claim->where);
        for (int s = 0; s < 2 && ok; s++)
                if (claim->where && pg.any[s] && !pg.kept[s])
                        ok = design_fail(error, key, "where", "'%s' keeps none of the cells %s=%s selects",
                                         claim->where, keys[s], sels[s]);
        for (int s = 0; s < 2 && ok; s++)
                if (!pg.any[s])
                        ok = design_fail(error, key, keys[s], "'%s' selects no cell where this file runs (%s)",
                                         sels[s], envs);
        if (ok && pg.kept[0] && !pg.differ)
                ok = design_fail(error, key, "slower", "'%s' selects the same cells as faster=%s: nothing to compare",
                                 claim->slower, claim->faster);
        int side = ok ? verify_pairing_unmeasured_side(&pg) : -1;
        if (side >= 0)
                ok = design_fail(error, key, "metric", "no cell that %s=%s selects measures %s (%s do)", keys[side],
                                 sels[side], claim->metric, metric_cells(pg.m));
        if (ok && !pg.pf->len) {
                g_autofree char *why = pg.fast->len && pg.slow->len ? pairing_blocker(&pg) : g_strdup("an axis");
                ok = design_fail(error, key, "slower",
                                 "'%s' pairs with nothing: no cell it selects agrees with a cell faster=%s "
                                 "selects on the axes neither names (they differ in %s)",
                                 claim->slower, claim->faster, why);
        }
        if (ok) {
                d->pairs = pg.pf->len;
                d->unpaired = pg.unpaired;
                if (exp->repeat_decide && exp->n_looks) {
                        d->looks = exp->n_looks;
                        d->reps = exp->looks[exp->n_looks - 1];
                } else {
                        d->looks = 1;
                        d->reps = exp->repeat_auto ? MIN(2 * exp->repeat, exp->repeat_max) : exp->repeat;
                }
                d->level_holds = 1 - VERIFY_ALPHA / d->looks;
                d->level_fails = 1 - VERIFY_ALPHA / (d->looks * d->pairs);
                d->need_holds = (guint) stats_ratio_ci_reps(d->level_holds);
                d->need_fails = (guint) stats_ratio_ci_reps(d->level_fails);
                d->reach = stats_ratio_ci_reach(d->reps, d->reps);
                d->can_hold = verify_reaches(d->reach, d->level_holds);
                d->can_fail = verify_reaches(d->reach, d->level_fails);
        }
        verify_pairing_clear(&pg);
        return ok;
}

/* verify.h */
GPtrArray *verify_design_pairs(const Experiment *exp, const Claim *claim)
{
        GPtrArray *out = g_ptr_array_new_with_free_func(g_free);

        if (experiment_selector_unavailable(exp, claim->faster) || experiment_selector_unavailable(exp, claim->slower))
                return out;
        /* In file order (the cells' index), not as seed= shuffled them. */
        g_autoptr(GPtrArray) cells = experiment_cells_in_file_order(exp);
        Experiment in_order = *exp;
        in_order.cells = cells;
        g_autoptr(GPtrArray) machines = g_ptr_array_new_with_free_func(g_free);
        claim_machines(claim, machines);
        g_autoptr(Table) t = design_table(&in_order, machines);
        Pairing pg;
        if (!verify_pairing_build(claim, t, exp->path, G_MAXUINT, &pg, NULL))
                return out;
        for (guint p = 0; p < pg.pf->len; p++) {
                const VCell *fc = pg.fast->pdata[g_array_index(pg.pf, guint, p)];
                const VCell *sc = pg.slow->pdata[g_array_index(pg.ps, guint, p)];
                g_autofree char *f = verify_vcell_describe(fc, pg.axis_col, pg.env_col, pg.machines);
                g_autofree char *sl = verify_vcell_describe(sc, pg.axis_col, pg.env_col, pg.machines);
                g_ptr_array_add(out, g_strdup_printf("%s  vs  %s", f, sl));
        }
        verify_pairing_clear(&pg);
        return out;
}

/* "repeat=6", or what repeat=auto is sure of. */
static char *design_reps_text(const VerifyDesign *d)
{
        if (d->looks > 1)
                return g_strdup_printf("%u repetitions at the last of %u looks, each at alpha/%u", d->reps,
                                       d->looks, d->looks);
        return g_strdup_printf("%u repetitions a cell", d->reps);
}

char *verify_design_refusal(const VerifyDesign *d)
{
        if (!d->pairs || (d->can_hold && d->can_fail))
                return NULL;
        g_autofree char *reps = design_reps_text(d);
        g_autofree char *reach = verify_format_coverage(d->reach, false);
        g_autofree char *lh = verify_format_coverage(d->level_holds, false);
        g_autofree char *lf = verify_format_coverage(d->level_fails, false);
        guint need = MAX(d->need_holds, d->need_fails);
        if (!d->can_hold)
                return g_strdup_printf("cannot be decided with %s (%u and %u reach %s): holding needs each of its "
                                       "%u pairs' intervals at %s, %u repetitions a side; failing needs one at "
                                       "%s, %u; give the cells %u", reps, d->reps, d->reps, reach, d->pairs, lh,
                                       d->need_holds, lf, d->need_fails, need);
        return g_strdup_printf("cannot fail with %s (%u and %u reach %s): failing needs one of its %u pairs' "
                               "intervals at 1 - 0.05/%u%s = %s, %u repetitions a side; give the cells %u, or ask "
                               "it over fewer pairs", reps, d->reps, d->reps, reach, d->pairs,
                               d->pairs * d->looks, d->looks > 1 ? " (pairs x looks)" : "", lf, d->need_fails,
                               d->need_fails);
}

gboolean verify_claim_check(const Experiment *exp, const Claim *claim, const char **key, char **refusal,
                            GError **error)
{
        VerifyDesign d;

        *refusal = NULL;
        if (!verify_claim_design(exp, claim, &d, key, error))
                return FALSE;
        *refusal = verify_design_refusal(&d);
        return TRUE;
}

char *verify_design_describe(const VerifyDesign *d)
{
        if (!d->pairs)
                return g_strdup("not checked here (a transport it names cannot run on this machine)");
        g_autofree char *lh = verify_format_coverage(d->level_holds, false);
        g_autofree char *lf = verify_format_coverage(d->level_fails, false);
        g_autofree char *reps = design_reps_text(d);
        g_autofree char *unpaired = d->unpaired ? g_strdup_printf(" (%u faster cells without a partner)",
                                                                  d->unpaired) : g_strdup("");
        return g_strdup_printf("%u pairs%s; holding needs %u repetitions a side (every pair at %s), failing "
                               "%u (a pair at %s); %s: %s", d->pairs, unpaired, d->need_holds, lh, d->need_fails,
                               lf, reps,
                               d->can_hold && d->can_fail ? "can hold or fail"
                               : d->can_hold ? "can hold, cannot fail"
                               : d->can_fail ? "can fail, cannot hold" : "can neither hold nor fail");
}

/* ---- Names and numbers for the paper ------------------------------------ */

/* The number written in BUF with its integer digits grouped by three,
 * "\\," between groups, from five digits on. */
static char *group_digits(const char *buf)
{
        const char *digits = buf[0] == '-' || buf[0] == '+' ? buf + 1 : buf;
        size_t ilen = strcspn(digits, ".");
        if (ilen < 5)
                return g_strdup(buf);
        GString *s = g_string_new_len(buf, digits - buf);
        for (size_t i = 0; i < ilen; i++) {
                if (i && (ilen - i) % 3 == 0)
                        g_string_append(s, "\\,");
                g_string_append_c(s, digits[i]);
        }
        g_string_append(s, digits + ilen);
        return g_string_free(s, FALSE);
}

char *verify_format_number(double x)
{
        char buf[64];

        if (isnan(x))
                return g_strdup("--");
        if (fabs(x) < 100) {
                g_ascii_formatd(buf, sizeof buf, "%.3g", x);
                x = g_ascii_strtod(buf, NULL);
        }
        double a = fabs(x);
        if (a >= 100)
                g_ascii_formatd(buf, sizeof buf, "%.0f", x);
        else if (a >= 10)
                g_ascii_formatd(buf, sizeof buf, "%.1f", x);
        else if (a >= 1)
                g_ascii_formatd(buf, sizeof buf, "%.2f", x);
        else if (a == 0)
                g_strlcpy(buf, "0", sizeof buf);
        else {
                int e = 0;
                for (double t = a; t < 1; t *= 10)
                        e--;
                g_autofree char *f = g_strdup_printf("%%.%df", 2 - e);
                g_ascii_formatd(buf, sizeof buf, f, x);
        }
        return group_digits(buf);
}

char *verify_format_digits(double x, int digits)
{
        char buf[64];

        if (digits < 0 || isnan(x))
                return verify_format_number(x);
        g_autofree char *f = g_strdup_printf("%%.%df", digits);
        return g_strdup(g_ascii_formatd(buf, sizeof buf, f, x));
}

char *verify_format_written(const char *s)
{
        char *end;

        if (!s || !s[0] || !strcmp(s, "-"))
                return g_strdup("--");
        double x = g_ascii_strtod(s, &end);
        if (*end || !isfinite(x) || strchr(s, 'e') || strchr(s, 'E') || !strchr("+-.0123456789", s[0]))
                return NULL;
        return group_digits(s);
}

