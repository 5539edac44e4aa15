/* findings.c: what a run found (findings.h).  Never prints. */
#include <math.h>
#include <string.h>

#include "axes.h"
#include "figure.h"
#include "findings.h"
#include "placement-modes.h"
#include "safefile.h"
#include "select.h"
#include "summarize.h"
#include "verify.h"

static void finding_free(Finding *f)
{
        g_free(f->label);
        g_free(f->tag);
        g_free(f->text);
        g_free(f);
}

void findings_free(Findings *f)
{
        if (!f)
                return;
        g_free(f->experiment);
        g_free(f->dir);
        g_ptr_array_unref(f->items);
        g_free(f);
}

static void add(Findings *f, FindingTone tone, const char *label, const char *tag, char *text)
{
        Finding *it = g_new0(Finding, 1);

        it->label = g_strdup(label);
        it->tag = g_strdup(tag ? tag : "");
        it->text = text;
        it->tone = tone;
        g_ptr_array_add(f->items, it);
}

/* ---- Claims ------------------------------------------------------------- */

static void add_claims(Findings *f, const Experiment *exp, const char *dir)
{
        for (guint k = 0; k < exp->claims->len; k++) {
                const Claim *cl = exp->claims->pdata[k];
                VerifyResult r;
                g_autoptr(GError) e = NULL;
                g_autofree char *label = g_strdup_printf("claim %s", cl->name);
                if (!verify_claim_dir(cl, dir, &r, &e)) {
                        add(f, FINDING_DOUBT, label, "error", g_strdup(e->message));
                        continue;
                }
                FindingTone tone = r.verdict == VERIFY_HOLDS ? FINDING_GOOD
                                 : r.verdict == VERIFY_FAILS ? FINDING_BAD : FINDING_DOUBT;
                g_autofree char *decisive = verify_decisive_text(&r);
                char *text;
                if (r.verdict == VERIFY_NO_DATA)
                        text = g_strdup(r.note ? r.note : "no pair of cells with measured values");
                else if (r.pairs->len == 1)
                        text = g_strdup_printf("%s, factor %g asked", decisive, cl->by);
                else {
                        g_autofree char *iv = verify_format_interval(r.ratio, r.lo, r.hi);
                        g_autofree char *cov = verify_format_coverage(r.coverage, false);
                        text = g_strdup_printf("%s %s over %u pairs, %u clear %g; %s", iv, cov, r.pairs->len,
                                               r.clear, cl->by, decisive);
                }
                add(f, tone, label, verify_verdict_name(r.verdict), text);
                verify_result_clear(&r);
        }
}

/* ---- Figures ------------------------------------------------------------ */

/* The verify metric that compares what Y draws (verify.h), first choice. */
static const char *metric_of(const char *y)
{
        if (g_str_has_prefix(y, "lat_") || g_str_has_prefix(y, "pooled_"))
                return "roundtrip_latency";
        if (g_str_has_prefix(y, "cpu_"))
                return "cpu";
        if (g_str_has_prefix(y, "rate_"))
                return "callrate";
        return "throughput";
}

/* "transport=pipe,size_B=64": the condition that V (values of COLS) holds,
 * or NULL when a value cannot be written in a selector. */
static char *series_selector(char *const *cols, char *const *vals)
{
        GString *s = g_string_new(NULL);

        for (guint i = 0; cols[i]; i++) {
                if (!vals[i][0] || strpbrk(vals[i], ",|=<>!")) {
                        g_string_free(s, TRUE);
                        return NULL;
                }
                g_string_append_printf(s, "%s%s=%s", i ? "," : "", cols[i], vals[i]);
        }
        return g_string_free(s, FALSE);
}

/* A series of one figure at one x: its selector and its name. */
typedef struct {
        char *sel;
        char *name;
} Series;

static void series_clear(Series *s)
{
        g_free(s->sel);
        g_free(s->name);
}

/* The claim "FASTER beats SLOWER" on METRIC (or, when it has no data,
 * on the fall-backs), kept by WHERE, evaluated on T: TRUE with *R. */
static bool compare_series(const Table *t, const char *path, const char *faster, const char *slower,
                           const char *metric, const char *where, VerifyResult *r)
{
        const char *metrics[] = { metric, "throughput", "callrate" };

        for (size_t i = 0; i < G_N_ELEMENTS(metrics); i++) {
                if (i && !strcmp(metrics[i], metric))
                        continue;
                Claim cl = { .name = "figure", .faster = (char *) faster, .slower = (char *) slower,
                             .metric = (char *) metrics[i], .where = (char *) where, .by = 1 };
                if (verify_claim_table(&cl, t, path, r, NULL) && r->verdict != VERIFY_NO_DATA && r->pairs->len)
                        return true;
                verify_result_clear(r);
        }
        return false;
}

/* "pipe ran 1.52 [1.47, 1.58] times faster than fifo". */
static char *ratio_line(const Series *best, const Series *other, const VerifyResult *r)
{
        const VerifyPair *p = &g_array_index(r->pairs, VerifyPair, 0);
        bool one = r->pairs->len == 1;
        double ratio = one ? p->ratio : r->ratio, lo = one ? p->lo : r->lo, hi = one ? p->hi : r->hi;
        double cov = one ? p->coverage : r->coverage;
        g_autofree char *iv = verify_format_interval(ratio, lo, hi);
        g_autofree char *c = verify_format_coverage(cov, false);
        g_autofree char *more = one ? NULL : g_strdup_printf(", geometric mean of %u pairs", r->pairs->len);

        return g_strdup_printf("%s ran %s times faster than %s%s%s%s%s", best->name, iv, other->name,
                               cov < VERIFY_LEVEL - 1e-12 || !one ? " (" : "",
                               cov < VERIFY_LEVEL - 1e-12 || !one ? c : "", more ? more : "",
                               cov < VERIFY_LEVEL - 1e-12 || !one ? ")" : "");
}

/* One x of figure O: the best series against the others. */
static void add_figure_x(Findings *f, const Output *o, const Summary *s, const Selector *where, int xcol,
                         const char *x)
{
        g_autoptr(GArray) series = g_array_new(FALSE, TRUE, sizeof(Series));
        g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        guint ns = g_strv_length(o->series);
        g_autofree char *label = g_strdup_printf("figure %s", o->name);
        g_autofree char *xtext = axis_format_value(o->x, x, false);
        g_autofree char *tag = g_strdup_printf("at %s", xtext);

        g_array_set_clear_func(series, (GDestroyNotify) series_clear);
        /* bounds=direct draws transport=direct as the floor, no series. */
        int tcol = o->bound_direct ? select_key_column(s->samples, "transport") : -1;
        for (guint i = 0; i < s->cells->len; i++) {
                const SummaryCell *c = s->cells->pdata[i];
                if ((where && !select_row(where, s->samples, c->first)) || strcmp(c->first[xcol], x) ||
                    (tcol >= 0 && !strcmp(c->first[tcol], "direct")))
                        continue;
                g_autofree char **cols = g_new0(char *, ns + 2);
                g_autofree char **vals = g_new0(char *, ns + 2);
                g_autoptr(GString) name = g_string_new(NULL);
                bool ok = true;
                for (guint k = 0; k < ns && ok; k++) {
                        int col = select_key_column(s->samples, o->series[k]);
                        ok = col >= 0;
                        if (!ok)
                                break;
                        cols[k] = o->series[k];
                        vals[k] = c->first[col];
                        g_autofree char *v = axis_format_value(o->series[k], vals[k], false);
                        g_string_append_printf(name, "%s%s", k ? " " : "", v);
                }
                cols[ns] = o->x;
                vals[ns] = (char *) x;
                char *sel = ok ? series_selector(cols, vals) : NULL;
                if (!sel || g_hash_table_contains(seen, sel)) {
                        g_free(sel);
                        continue;
                }
                g_hash_table_add(seen, g_strdup(sel));
                Series one = { sel, g_string_free(g_steal_pointer(&name), FALSE) };
                g_array_append_val(series, one);
        }
        if (series->len < 2)
                return;
        /* The best: the highest ratio over the first series. */
        guint best = 0;
        double best_ratio = 1;
        g_autofree double *over_first = g_new0(double, series->len);
        for (guint i = 1; i < series->len; i++) {
                VerifyResult r;
                over_first[i] = NAN;
                if (!compare_series(s->samples, s->path, g_array_index(series, Series, i).sel,
                                    g_array_index(series, Series, 0).sel, metric_of(o->y[0]), o->where, &r))
                        continue;
                over_first[i] = r.ratio;
                if (r.ratio > best_ratio) {
                        best_ratio = r.ratio;
                        best = i;
                }
                verify_result_clear(&r);
        }
        /* The others, the closest first. */
        g_autoptr(GArray) rest = g_array_new(FALSE, FALSE, sizeof(guint));
        for (guint i = 0; i < series->len; i++)
                if (i != best && !isnan(i ? over_first[i] : 1))
                        g_array_append_val(rest, i);
        for (guint a = 1; a < rest->len; a++)
                for (guint b = a; b > 0; b--) {
                        guint *v = (guint *) (gpointer) rest->data;
                        double rb = v[b] ? over_first[v[b]] : 1, ra = v[b - 1] ? over_first[v[b - 1]] : 1;
                        if (rb <= ra)
                                break;
                        guint t = v[b];
                        v[b] = v[b - 1];
                        v[b - 1] = t;
                }
        guint shown = 0;
        for (guint k = 0; k < rest->len && shown < FINDINGS_MAX_RIVALS; k++) {
                const Series *b = &g_array_index(series, Series, best);
                const Series *other = &g_array_index(series, Series, g_array_index(rest, guint, k));
                VerifyResult r;
                if (!compare_series(s->samples, s->path, b->sel, other->sel, metric_of(o->y[0]), o->where, &r))
                        continue;
                add(f, FINDING_PLAIN, label, tag, ratio_line(b, other, &r));
                verify_result_clear(&r);
                shown++;
        }
        if (rest->len > shown)
                add(f, FINDING_PLAIN, label, tag, g_strdup_printf("... and %u more series", rest->len - shown));
}

static int compare_x(gconstpointer a, gconstpointer b)
{
        double x = g_ascii_strtod(*(char *const *) a, NULL), y = g_ascii_strtod(*(char *const *) b, NULL);

        return x < y ? -1 : x > y;
}

static void add_figures(Findings *f, const Experiment *exp, const Summary *s)
{
        for (guint k = 0; k < exp->outputs->len; k++) {
                const Output *o = exp->outputs->pdata[k];
                if (o->is_table || o->type != FIGURE_LINE || !o->x || !o->series || !o->series[0] || !o->y ||
                    !o->y[0])
                        continue;
                g_autoptr(Selector) where = o->where ? select_parse(o->where, SELECT_AXES, NULL) : NULL;
                int xcol = select_key_column(s->samples, o->x);
                if ((o->where && !where) || xcol < 0)
                        continue;
                g_autoptr(GPtrArray) xs = g_ptr_array_new();
                for (guint i = 0; i < s->cells->len; i++) {
                        const SummaryCell *c = s->cells->pdata[i];
                        if (!where || select_row(where, s->samples, c->first))
                                g_ptr_array_add(xs, c->first[xcol]);
                }
                if (!xs->len)
                        continue;
                g_ptr_array_sort(xs, compare_x);
                const char *first = xs->pdata[0], *last = xs->pdata[xs->len - 1];
                add_figure_x(f, o, s, where, xcol, first);
                if (strcmp(first, last))
                        add_figure_x(f, o, s, where, xcol, last);
        }
}

/* ---- Suspicions --------------------------------------------------------- */

static void add_suspects(Findings *f, const Summary *s, const char *dir)
{
        guint mixed = 0, failed = 0;

        for (guint i = 0; i < s->cells->len; i++) {
                const SummaryCell *c = s->cells->pdata[i];
                if (placement_count_mixed(&c->placement) && mixed++ < FINDINGS_MAX_SUSPECT) {
                        g_autofree char *d = summary_cell_describe(s, c);
                        g_autofree char *modes = placement_count_describe(&c->placement);
                        add(f, FINDING_DOUBT, "suspect", "placements",
                            g_strdup_printf("%s: its repetitions ran in more than one CPU placement (%s; "
                                            "ipclab summarize --by-placement shows them apart)", d, modes));
                }
                if (c->failed && failed++ < FINDINGS_MAX_SUSPECT) {
                        g_autofree char *d = summary_cell_describe(s, c);
                        add(f, FINDING_DOUBT, "suspect", "failed",
                            g_strdup_printf("%s: %u of %u repetitions failed", d, c->failed, c->n + c->failed));
                }
        }
        if (mixed > FINDINGS_MAX_SUSPECT)
                add(f, FINDING_DOUBT, "suspect", "placements",
                    g_strdup_printf("... and %u more cells", mixed - FINDINGS_MAX_SUSPECT));
        if (failed > FINDINGS_MAX_SUSPECT)
                add(f, FINDING_DOUBT, "suspect", "failed",
                    g_strdup_printf("... and %u more cells", failed - FINDINGS_MAX_SUSPECT));
        /* meta.ini's [warnings] (and [warnings ENV] of other environments). */
        g_autofree char *mp = g_build_filename(dir, "meta.ini", NULL);
        g_autoptr(GKeyFile) kf = safefile_key_file(mp, NULL);
        g_auto(GStrv) groups = kf ? g_key_file_get_groups(kf, NULL) : NULL;
        for (guint g = 0; groups && groups[g]; g++) {
                if (strcmp(groups[g], "warnings") && !g_str_has_prefix(groups[g], "warnings "))
                        continue;
                g_auto(GStrv) keys = g_key_file_get_keys(kf, groups[g], NULL, NULL);
                for (guint k = 0; keys && keys[k]; k++) {
                        g_autofree char *v = g_key_file_get_string(kf, groups[g], keys[k], NULL);
                        if (v)
                                add(f, FINDING_DOUBT, "suspect", "meta.ini",
                                    g_strdup_printf("%s%s%s", groups[g][8] ? groups[g] + 9 : "",
                                                    groups[g][8] ? ": " : "", v));
                }
        }
}

Findings *findings_build(const Experiment *exp, const char *dir, GError **error)
{
        g_autoptr(Summary) s = summary_load(dir, error);

        if (!s)
                return NULL;
        Findings *f = g_new0(Findings, 1);
        f->experiment = g_strdup(exp->name);
        f->dir = g_strdup(dir);
        f->items = g_ptr_array_new_with_free_func((GDestroyNotify) finding_free);
        add_claims(f, exp, dir);
        add_figures(f, exp, s);
        add_suspects(f, s, dir);
        return f;
}

/* ---- Text --------------------------------------------------------------- */

static void pad(GString *out, const char *s, guint width)
{
        g_string_append(out, s);
        for (glong n = g_utf8_strlen(s, -1); n < (glong) width; n++)
                g_string_append_c(out, ' ');
}

char *findings_format(const Findings *f, bool colour)
{
        static const char *const tones[] = {
                [FINDING_PLAIN] = "", [FINDING_GOOD] = "\033[32m", [FINDING_BAD] = "\033[1;31m",
                [FINDING_DOUBT] = "\033[33m",
        };
        GString *out = g_string_new(NULL);
        guint wl = 0, wt = 0;

        for (guint i = 0; i < f->items->len; i++) {
                const Finding *it = f->items->pdata[i];
                wl = MAX(wl, (guint) g_utf8_strlen(it->label, -1));
                wt = MAX(wt, (guint) g_utf8_strlen(it->tag, -1));
        }
        g_string_append_printf(out, "%s%s%s (%s): %s\n", colour ? "\033[1m" : "", f->experiment,
                               colour ? "\033[0m" : "", f->dir,
                               f->items->len ? "what this run found" : "nothing to report (no claim, no figure with "
                                                                       "series, nothing suspicious)");
        for (guint i = 0; i < f->items->len; i++) {
                const Finding *it = f->items->pdata[i];
                g_autofree char *text = safefile_terminal_text(it->text, strlen(it->text));
                g_string_append(out, "  ");
                pad(out, it->label, wl + 2);
                bool c = colour && it->tone != FINDING_PLAIN;
                g_string_append(out, c ? tones[it->tone] : "");
                g_string_append(out, it->tag);
                g_string_append(out, c ? "\033[0m" : "");
                pad(out, "", wt - (guint) g_utf8_strlen(it->tag, -1) + 2);
                g_string_append_printf(out, "%s\n", text);
        }
        return g_string_free(out, FALSE);
}
