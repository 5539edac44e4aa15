/* verify.c: claims checked against measured samples (see verify.h):
 * verdicts, numbers as people read them, one look and a sequence of
 * looks.  The cells and pairs are verify-pairs.c's, the check before
 * measuring verify-design.c's, the command cli/verify-command.c's and
 * the paper's table report/claims-tex.c's.
 *
 * The evaluation functions are pure (verify_claim_dir only reads two
 * files); nothing here prints.
 */
#include "verify-internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "metrics.h"
#include "safefile.h"
#include "placement-modes.h"
#include "select.h"
#include "stats.h"

/* ---- Verdicts ----------------------------------------------------------- */

const char *verify_verdict_name(VerifyVerdict v)
{
        switch (v) {
        case VERIFY_HOLDS: return "holds";
        case VERIFY_INCONCLUSIVE: return "inconclusive";
        case VERIFY_FAILS: return "fails";
        default: return "no data";
        }
}

/* BY less a relative 1e-9: geometric means come back through exp(log),
 * and sqrt(0.5 * 8) must compare as 2, not as 1.9999999999999998. */
static double by_tolerant(double by)
{
        return by * (1 - 1e-9);
}

VerifyVerdict verify_verdict(double lo, double hi, double by)
{
        if (isnan(lo) || isnan(hi))
                return VERIFY_NO_DATA;
        if (lo >= by_tolerant(by))
                return VERIFY_HOLDS;
        if (hi < by_tolerant(by))
                return VERIFY_FAILS;
        return VERIFY_INCONCLUSIVE;
}

bool verify_reaches(double coverage, double level)
{
        return coverage >= level - 1e-12;
}

int verify_pair_intervals(const double *num, guint n_num, const double *den, guint n_den, double level_holds,
                          double level_fails, VerifyPair *pair)
{
        double r_f;
        int r = stats_ratio_ci(num, n_num, den, n_den, level_holds, &pair->ratio, &pair->lo, &pair->hi,
                               &pair->coverage);

        if (r == 0)
                r = stats_ratio_ci(num, n_num, den, n_den, level_fails, &r_f, &pair->fail_lo, &pair->fail_hi,
                                   &pair->fail_coverage);
        pair->reversed = r == 0 && pair->hi < by_tolerant(1);
        return r;
}

VerifyVerdict verify_pair_verdict(const VerifyPair *pair, double level_holds, double level_fails, double by)
{
        if (verify_reaches(pair->coverage, level_holds) && verify_verdict(pair->lo, pair->hi, by) == VERIFY_HOLDS)
                return VERIFY_HOLDS;
        if (verify_reaches(pair->fail_coverage, level_fails) &&
            verify_verdict(pair->fail_lo, pair->fail_hi, by) == VERIFY_FAILS)
                return VERIFY_FAILS;
        return VERIFY_INCONCLUSIVE;
}

static void pair_clear(VerifyPair *p)
{
        g_free(p->faster);
        g_free(p->slower);
        g_free(p->label);
}

void verify_result_clear(VerifyResult *result)
{
        if (result->pairs)
                g_array_unref(result->pairs);
        g_free(result->note);
        g_free(result->reversed);
        memset(result, 0, sizeof *result);
}

static void result_init(VerifyResult *result)
{
        memset(result, 0, sizeof *result);
        result->pairs = g_array_new(FALSE, TRUE, sizeof(VerifyPair));
        g_array_set_clear_func(result->pairs, (GDestroyNotify) pair_clear);
        result->ratio = result->lo = result->hi = NAN;
        result->decisive = -1;
        result->look = result->n_looks = 1;
}

/* ---- Metrics ------------------------------------------------------------ */

/* A claim's metric is a row of the schema with a claim name (metrics.h). */

/* How the ratio of metric NAME reads: "slower/faster" or "faster/slower". */
const char *verify_metric_direction(const char *name)
{
        const Column *m = metric_find_claim(name);
        return m && m->better == BETTER_HIGHER ? "faster/slower" : "slower/faster";
}

/* ---- Numbers as people read them ---------------------------------------- */

/* "2.04": two decimals from 0.1 to 100, else two significant figures or
 * none. */
void verify_format_one(char *buf, size_t len, double v)
{
        double a = fabs(v);

        if (a >= 100)
                g_ascii_formatd(buf, len, "%.0f", v);
        else if (a >= 0.1)
                g_ascii_formatd(buf, len, "%.2f", v);
        else
                g_ascii_formatd(buf, len, "%.2g", v);
}

char *verify_format_interval(double ratio, double lo, double hi)
{
        char s[3][32];

        verify_format_one(s[0], sizeof s[0], ratio);
        verify_format_one(s[1], sizeof s[1], lo);
        verify_format_one(s[2], sizeof s[2], hi);
        return g_strdup_printf("%s [%s, %s]", s[0], s[1], s[2]);
}

char *verify_format_coverage(double coverage, bool latex)
{
        char buf[32];

        /* Rounded down, so that 94.96% is never "95.0%"; to 0.01% from
         * 99% on, where levels such as 1 - 0.05/27 live. */
        if (coverage >= 0.99)
                g_ascii_formatd(buf, sizeof buf, "%.2f", floor(coverage * 10000 + 1e-9) / 100);
        else
                g_ascii_formatd(buf, sizeof buf, "%.1f", floor(coverage * 1000 + 1e-9) / 10);
        return g_strdup_printf("%s%s", buf, latex ? "\\,\\%" : "%");
}

/* "2.04 [1.88, 2.19] 95.9%". */
char *verify_format_interval_cov(double ratio, double lo, double hi, double coverage)
{
        g_autofree char *i = verify_format_interval(ratio, lo, hi);
        g_autofree char *c = verify_format_coverage(coverage, false);
        return g_strdup_printf("%s %s", i, c);
}

/* ---- One look ----------------------------------------------------------- */

/* The number of cell C in the data (its cell column), or G_MAXUINT. */
static guint vcell_number(const Pairing *pg, const VCell *c)
{
        guint64 v;

        return pg->cell_col >= 0 && samples_parse_whole(c->row[pg->cell_col], &v) && v < G_MAXUINT ? (guint) v
                                                                                               : G_MAXUINT;
}

/* Each pair of PG, its ratio and intervals at LEVEL_H (holds) and
 * LEVEL_F (fails) and what it does to CLAIM, labelled, into
 * RESULT->pairs, its numbers from look LOOK.  PG has at least one pair. */
static gboolean pairs_measure(const Claim *claim, const Pairing *pg, double level_h, double level_f, guint look,
                              VerifyResult *result, GError **error)
{
        bool higher = pg->m->better == BETTER_HIGHER;

        result->level_holds = level_h;
        result->level_fails = level_f;
        for (guint p = 0; p < pg->pf->len; p++) {
                VerifyPair pair = { 0 };
                VCell *fc = pg->fast->pdata[g_array_index(pg->pf, guint, p)];
                VCell *sc = pg->slow->pdata[g_array_index(pg->ps, guint, p)];
                const VCell *nc = higher ? fc : sc, *dc = higher ? sc : fc;
                pair.faster = verify_vcell_describe(fc, pg->axis_col, pg->env_col, pg->machines);
                pair.slower = verify_vcell_describe(sc, pg->axis_col, pg->env_col, pg->machines);
                pair.n_faster = fc->values->len;
                pair.n_slower = sc->values->len;
                pair.look = look;
                pair.cell_faster = vcell_number(pg, fc);
                pair.cell_slower = vcell_number(pg, sc);
                const double *nv = (const double *) (gpointer) nc->values->data;
                const double *dv = (const double *) (gpointer) dc->values->data;
                int r = verify_pair_intervals(nv, nc->values->len, dv, dc->values->len, level_h, level_f, &pair);
                if (r < 0) {
                        pair_clear(&pair);
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "claim %s: ratio: %s",
                                    claim->name, g_strerror(-r));
                        return FALSE;
                }
                pair.verdict = verify_pair_verdict(&pair, level_h, level_f, claim->by);
                g_array_append_val(result->pairs, pair);
        }
        verify_pair_labels(pg, result);
        return TRUE;
}

/* The claim's verdict from its pairs (RESULT->pairs, the levels set,
 * each pair's own verdict given): holds when all hold, fails when one
 * fails, with the summary numbers and the deciding pair (verify.h);
 * appends what it finds to NOTE. */
static void verdict_from_pairs(const Claim *claim, VerifyResult *result, GString *note)
{
        guint np = result->pairs->len;
        double level_h = result->level_holds, level_f = result->level_fails;
        g_autofree double *los = g_new(double, np), *his = g_new(double, np), *rs = g_new(double, np);
        double miss = 0;
        guint min_reps = G_MAXUINT, short_h = 0, short_f = 0, failing = 0;
        int weakest = -1, blocking = -1, failing_pair = -1;
        g_autoptr(GString) reversed = g_string_new(NULL);

        result->clear = 0;
        for (guint p = 0; p < np; p++) {
                const VerifyPair *pair = &g_array_index(result->pairs, VerifyPair, p);
                rs[p] = pair->ratio;
                los[p] = pair->fail_lo;
                his[p] = pair->fail_hi;
                miss += 1 - pair->fail_coverage;
                min_reps = MIN(min_reps, MIN(pair->n_faster, pair->n_slower));
                short_h += !verify_reaches(pair->coverage, level_h);
                short_f += !verify_reaches(pair->fail_coverage, level_f);
                result->clear += pair->verdict == VERIFY_HOLDS;
                if (pair->reversed) {
                        g_autofree char *rtxt = verify_format_interval_cov(pair->ratio, pair->lo, pair->hi,
                                                                           pair->coverage);
                        g_string_append_printf(reversed, "%s%s vs %s %s", reversed->len ? "; " : "", pair->faster,
                                               pair->slower, rtxt);
                }
                if (weakest < 0 || pair->lo < g_array_index(result->pairs, VerifyPair, weakest).lo)
                        weakest = (int) p;
                if (pair->verdict != VERIFY_HOLDS &&
                    (blocking < 0 || pair->lo < g_array_index(result->pairs, VerifyPair, blocking).lo))
                        blocking = (int) p;
                if (pair->verdict == VERIFY_FAILS) {
                        failing++;
                        if (failing_pair < 0 ||
                            pair->fail_hi < g_array_index(result->pairs, VerifyPair, failing_pair).fail_hi)
                                failing_pair = (int) p;
                }
        }
        result->ratio = stats_geometric_mean(rs, np);
        result->lo = stats_geometric_mean(los, np);
        result->hi = stats_geometric_mean(his, np);
        result->coverage = miss >= 1 ? 0 : 1 - miss;
        result->min_reps = min_reps;
        g_free(result->reversed);
        result->reversed = reversed->len ? g_strdup(reversed->str) : NULL;
        if (result->clear == np) {
                result->verdict = VERIFY_HOLDS;
                result->decisive = weakest;
        } else if (failing) {
                result->verdict = VERIFY_FAILS;
                result->decisive = failing_pair;
        } else {
                result->verdict = VERIFY_INCONCLUSIVE;
                result->decisive = blocking;
        }
        g_autofree char *lh = verify_format_coverage(level_h, false);
        g_autofree char *lf = verify_format_coverage(level_f, false);
        if (short_h)
                verify_note_add(note, "%u of %u pairs have too few repetitions for a %s interval "
                         "(fewest: %u): the claim cannot hold", short_h, np, lh, min_reps);
        if (short_f && result->verdict == VERIFY_INCONCLUSIVE)
                verify_note_add(note, "%u of %u pairs have too few repetitions for a %s interval, which failing "
                         "needs over %u pairs", short_f, np, lf, np);
        if (failing)
                verify_note_add(note, "%u of %u pairs lie below %g at %s", failing, np, claim->by, lf);
        if (result->reversed)
                verify_note_add(note, "reversed (the interval lies below 1): %s", result->reversed);
        else if (result->verdict == VERIFY_INCONCLUSIVE && np > 1 && !short_h)
                verify_note_add(note, "%u of %u pairs hold", result->clear, np);
}

/* The verdict of the claim on the pairs of PG, each pair's intervals at
 * 1 - ALPHA (holds) and 1 - ALPHA/K (fails); appends what it finds to
 * NOTE.  PG has at least one pair. */
gboolean verify_evaluate(const Claim *claim, const Pairing *pg, double alpha, VerifyResult *result,
                         GString *note, GError **error)
{
        if (!pairs_measure(claim, pg, 1 - alpha, 1 - alpha / pg->pf->len, 1, result, error))
                return FALSE;
        verdict_from_pairs(claim, result, note);
        return TRUE;
}

/* ---- Looks -------------------------------------------------------------- */

/* The no-data result, with what PG left out and why. */
static void no_data(const Claim *claim, const Pairing *pg, GString *note, VerifyResult *result)
{
        if (!pg->fast->len)
                verify_note_add(note, "no measured cell matches faster=%s%s%s", claim->faster,
                         claim->where ? " where " : "", claim->where ? claim->where : "");
        else if (!pg->slow->len)
                verify_note_add(note, "no measured cell matches slower=%s%s%s", claim->slower,
                         claim->where ? " where " : "", claim->where ? claim->where : "");
        else
                verify_note_add(note, "no slower cell agrees with a faster one on the other axes");
        result->verdict = VERIFY_NO_DATA;
        result->decisive = -1;
}

static gboolean unmeasured_error(const Claim *claim, const Pairing *pg, GError **error)
{
        int s = verify_pairing_unmeasured_side(pg);

        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                    "claim %s: %s=%s: no cell it selects measures %s (%s do)", claim->name,
                    s ? "slower" : "faster", s ? claim->slower : claim->faster, claim->metric,
                    metric_cells(pg->m));
        return FALSE;
}

/* The fewest rows (ok or not) of pair P's two cells. */
static guint pair_min_rows(const Pairing *pg, guint p)
{
        const VCell *fc = pg->fast->pdata[g_array_index(pg->pf, guint, p)];
        const VCell *sc = pg->slow->pdata[g_array_index(pg->ps, guint, p)];
        return MIN(fc->rows, sc->rows);
}

/* The pair of PAIRS between the same two cells as PAIR, or NULL. */
static const VerifyPair *pair_find(const GArray *pairs, const VerifyPair *pair)
{
        for (guint i = 0; pairs && i < pairs->len; i++) {
                const VerifyPair *o = &g_array_index(pairs, VerifyPair, i);
                if (!strcmp(o->faster, pair->faster) && !strcmp(o->slower, pair->slower))
                        return o;
        }
        return NULL;
}

/* Replaces *TO (cleared) with a copy of FROM. */
static void pair_set(VerifyPair *to, const VerifyPair *from)
{
        pair_clear(to);
        *to = *from;
        to->faster = g_strdup(from->faster);
        to->slower = g_strdup(from->slower);
        to->label = g_strdup(from->label);
}

/* Look LOOK (1-based) of a sequence, its pairs measured in CUR: a pair
 * decided at an earlier look (in PREV) keeps the numbers it was decided
 * on, and so does one whose cells stopped short of this look (WANT rows);
 * one that never reached a look decides nothing.  Returns the pairs
 * measured afresh at this look. */
static guint pairs_carry(const Pairing *pg, const VerifyResult *prev, guint look, guint want, VerifyResult *cur)
{
        guint fresh = 0;

        for (guint p = 0; p < cur->pairs->len; p++) {
                VerifyPair *pair = &g_array_index(cur->pairs, VerifyPair, p);
                const VerifyPair *old = look > 1 ? pair_find(prev->pairs, pair) : NULL;
                bool reached = pair_min_rows(pg, p) >= want;
                if (old && (old->verdict != VERIFY_INCONCLUSIVE || !reached))
                        pair_set(pair, old);
                else if (!reached)
                        pair->verdict = VERIFY_INCONCLUSIVE;
                else
                        fresh++;
        }
        return fresh;
}

gboolean verify_claim_table_looks(const Claim *claim, const Table *samples, const char *path,
                                  const guint *looks, guint n_looks, guint upto, VerifyResult *result,
                                  GError **error)
{
        bool sequential = looks && n_looks;
        guint n = sequential ? MIN(MAX(upto, 1), n_looks) : 1;

        result_init(result);
        for (guint j = 0; j < n; j++) {
                Pairing pg;
                g_autoptr(GString) note = g_string_new(NULL);
                guint want = sequential ? looks[j] : G_MAXUINT;
                if (!verify_pairing_build(claim, samples, path, want, &pg, error)) {
                        verify_result_clear(result);
                        return FALSE;
                }
                if (verify_pairing_unmeasured_side(&pg) >= 0) {
                        unmeasured_error(claim, &pg, error);
                        verify_pairing_clear(&pg);
                        verify_result_clear(result);
                        return FALSE;
                }
                verify_pairing_note(&pg, claim, note);
                VerifyResult cur;
                result_init(&cur);
                cur.look = j + 1;
                cur.n_looks = sequential ? n_looks : 1;
                cur.look_reps = sequential ? want : 0;
                double alpha = VERIFY_ALPHA / cur.n_looks;
                guint fresh = 0;
                if (pg.pf->len) {
                        if (!pairs_measure(claim, &pg, 1 - alpha, 1 - alpha / pg.pf->len, j + 1, &cur, error)) {
                                verify_pairing_clear(&pg);
                                verify_result_clear(&cur);
                                verify_result_clear(result);
                                return FALSE;
                        }
                        fresh = sequential ? pairs_carry(&pg, result, j + 1, want, &cur) : cur.pairs->len;
                }
                /* A later look is taken only when some undecided pair has
                 * reached it: else the sequence ends at the look before. */
                if (j > 0 && !fresh) {
                        g_autoptr(GString) more = g_string_new(result->note);
                        verify_note_add(more, "look %u (%u repetitions) not reached: the run stopped before", j + 1, want);
                        g_free(result->note);
                        result->note = g_strdup(more->str);
                        verify_pairing_clear(&pg);
                        verify_result_clear(&cur);
                        break;
                }
                if (!pg.pf->len) {
                        no_data(claim, &pg, note, &cur);
                } else {
                        verdict_from_pairs(claim, &cur, note);
                        if (sequential && fresh < cur.pairs->len && j == 0)
                                /* A pair short of the first look is undecided. */
                                verify_note_add(note, "look 1 (%u repetitions) not reached by %u of %u pairs: "
                                                "undecided", want, cur.pairs->len - fresh, cur.pairs->len);
                }
                bool decided = cur.verdict == VERIFY_HOLDS || cur.verdict == VERIFY_FAILS;
                if (sequential && (decided || j + 1 == n)) {
                        g_autofree char *each = verify_format_coverage(1 - VERIFY_ALPHA / n_looks, false);
                        guint earlier = 0;
                        for (guint p = 0; p < cur.pairs->len; p++) {
                                const VerifyPair *pair = &g_array_index(cur.pairs, VerifyPair, p);
                                earlier += pair->look < j + 1 && pair->verdict != VERIFY_INCONCLUSIVE;
                        }
                        verify_note_add(note, "%s at look %u of %u (%u repetitions, each look at %s)",
                                 decided ? "decided" : "undecided", j + 1, n_looks, want, each);
                        if (earlier)
                                verify_note_add(note, "%u of %u pairs decided at an earlier look, on its repetitions",
                                                earlier, cur.pairs->len);
                }
                cur.note = note->len ? g_strdup(note->str) : NULL;
                verify_pairing_clear(&pg);
                verify_result_clear(result);
                *result = cur;
                if (decided || (sequential && j == 0 && !fresh))
                        break;
        }
        /* Over several looks, the combined interval covers with what each
         * look's intervals miss, the looks not taken counted in full. */
        if (sequential && !isnan(result->lo))
                result->coverage = MAX(0, result->coverage - (1 - result->level_fails) * result->pairs->len *
                                                             (n_looks - 1));
        return TRUE;
}

gboolean verify_claim_table(const Claim *claim, const Table *samples, const char *path,
                            VerifyResult *result, GError **error)
{
        return verify_claim_table_looks(claim, samples, path, NULL, 0, 0, result, error);
}

/* verify.h */
guint verify_meta_looks(const char *dir, guint *looks)
{
        g_autofree char *path = g_build_filename(dir, "meta.ini", NULL);
        g_autoptr(GKeyFile) kf = safefile_key_file(path, NULL);
        guint n = 0;

        if (!kf)
                return 0;
        g_autofree char *v = g_key_file_get_string(kf, "repeat", "looks", NULL);
        g_auto(GStrv) parts = g_strsplit(v ? v : "", ";", -1);
        for (guint i = 0; parts[i] && n < EXPERIMENT_MAX_LOOKS; i++) {
                guint64 x = g_ascii_strtoull(parts[i], NULL, 10);
                if (x && (!n || x > looks[n - 1]))
                        looks[n++] = (guint) x;
        }
        return n;
}

/* verify.h */
gboolean verify_run_read(VerifyRun *run, const char *dir, GError **error)
{
        memset(run, 0, sizeof *run);
        run->path = g_build_filename(dir, "samples.tsv", NULL);
        if (!g_file_test(run->path, G_FILE_TEST_EXISTS))
                return TRUE;
        run->samples = samples_table_read(run->path, error);
        if (!run->samples)
                return FALSE;
        run->n_looks = verify_meta_looks(dir, run->looks);
        return TRUE;
}

/* verify.h */
void verify_run_clear(VerifyRun *run)
{
        if (run->samples)
                table_free(run->samples);
        g_free(run->path);
        memset(run, 0, sizeof *run);
}

/* verify.h */
gboolean verify_claim_run(const Claim *claim, const VerifyRun *run, VerifyResult *result, GError **error)
{
        if (!run->samples) {
                result_init(result);
                result->verdict = VERIFY_NO_DATA;
                result->note = g_strdup_printf("%s does not exist", run->path);
                return TRUE;
        }
        return verify_claim_table_looks(claim, run->samples, run->path, run->n_looks ? run->looks : NULL,
                                        run->n_looks, run->n_looks, result, error);
}

gboolean verify_claim_dir(const Claim *claim, const char *dir, VerifyResult *result,
                          GError **error)
{
        VerifyRun run;

        if (!verify_run_read(&run, dir, error)) {
                verify_run_clear(&run);
                memset(result, 0, sizeof *result);
                return FALSE;
        }
        gboolean ok = verify_claim_run(claim, &run, result, error);
        verify_run_clear(&run);
        return ok;
}

Table *verify_rows_table(const GPtrArray *rows)
{
        Table *t = g_new0(Table, 1);
        g_autofree char *head = g_strdup(samples_header());

        head[strcspn(head, "\n")] = '\0';
        t->columns = g_strsplit(head, "\t", -1);
        t->n_columns = g_strv_length(t->columns);
        t->rows = g_ptr_array_new_with_free_func((GDestroyNotify) g_strfreev);
        for (guint i = 0; i < rows->len; i++) {
                g_autofree char *line = g_strdup(rows->pdata[i]);
                line[strcspn(line, "\n")] = '\0';
                char **fields = g_strsplit(line, "\t", -1);
                if (g_strv_length(fields) != t->n_columns) {
                        g_strfreev(fields);
                        continue;
                }
                g_ptr_array_add(t->rows, fields);
        }
        return t;
}

/* The pair that decides R (verify.h) and the interval that shows it: the
 * fails-level one for a claim that fails, else the holds-level one.
 * NULL when there is none. */
const VerifyPair *verify_decisive_pair(const VerifyResult *r, const char **role, double *lo, double *hi,
                                       double *cov)
{
        if (r->decisive < 0 || !r->pairs || (guint) r->decisive >= r->pairs->len)
                return NULL;
        const VerifyPair *p = &g_array_index(r->pairs, VerifyPair, r->decisive);
        bool fails = r->verdict == VERIFY_FAILS;
        *role = r->verdict == VERIFY_HOLDS ? "weakest" : "blocking";
        *lo = fails ? p->fail_lo : p->lo;
        *hi = fails ? p->fail_hi : p->hi;
        *cov = fails ? p->fail_coverage : p->coverage;
        return p;
}

/* verify.h */
char *verify_decisive_text(const VerifyResult *r)
{
        const char *role;
        double lo, hi, cov;
        const VerifyPair *p = verify_decisive_pair(r, &role, &lo, &hi, &cov);

        if (!p)
                return g_strdup("-");
        if (r->min_reps == 1) {
                char s[32];
                verify_format_one(s, sizeof s, p->ratio);
                return g_strdup_printf("%s%s%s%s (one repetition: no interval)", r->pairs->len > 1 ? role : "",
                                       r->pairs->len > 1 ? " " : "", p->label, s);
        }
        g_autofree char *iv = verify_format_interval_cov(p->ratio, lo, hi, cov);
        if (r->pairs->len == 1)
                return g_steal_pointer(&iv);
        return g_strdup_printf("%s %s: %s", role, p->label, iv);
}
