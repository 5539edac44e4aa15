/* claims-tex.c: the paper's claims table and verdict macros, as LaTeX
 * (see claims-tex.h). */
#include "claims-tex.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "latex.h"
#include "metrics.h"
#include "placement.h"
#include "safefile.h"
#include "select.h"
#include "stats.h"
#include "render.h"
#include "verify-internal.h"

/* ---- The paper's table and macros --------------------------------------- */

/* S escaped for LaTeX, with a permitted line break before each '-', '_',
 * '.', '=' and '|' and after each '/' and ',': names and selectors in
 * typewriter type, which LaTeX
 * never hyphenates, would otherwise run into the margin.  (Before, not
 * after, a '-': text extraction takes a line that ends in '-' for a
 * hyphenated word and drops the '-', and the name would not be found.) */
static char *tex_breakable(const char *s)
{
        GString *out = g_string_new(NULL);

        for (const char *p = s; *p; p++) {
                char one[2] = { *p, 0 };
                g_autofree char *e = render_latex_escape(one);
                if (strchr("-_.=|", *p) && p != s)
                        g_string_append(out, "\\allowbreak{}");
                g_string_append(out, e);
                if ((*p == '/' || *p == ',') && p[1])
                        g_string_append(out, "\\allowbreak{}");
        }
        return g_string_free(out, FALSE);
}

/* "2.35 [0.94, 2.42] (95.9\,\%)" in the paper's number format. */
static char *tex_interval(double ratio, double lo, double hi, double cov, bool with_cov)
{
        g_autofree char *r = verify_format_number(ratio), *l = verify_format_number(lo);
        g_autofree char *h = verify_format_number(hi), *c = verify_format_coverage(cov, true);
        return with_cov ? g_strdup_printf("%s [%s, %s] (%s)", r, l, h, c) : g_strdup_printf("%s [%s, %s]", r, l, h);
}

/* The deciding pair for the paper: "blocking: LABEL 2.35 [...] (95.9\,\%)";
 * for a claim of one pair the interval alone.  NULL without one. */
static char *tex_decisive(const VerifyResult *r, bool cite)
{
        const char *role;
        double lo, hi, cov;
        const VerifyPair *p = verify_decisive_pair(r, &role, &lo, &hi, &cov);

        if (!p)
                return NULL;
        g_autofree char *label = render_latex_escape(p->label);
        g_autofree char *iv = NULL;
        if (r->min_reps == 1) {
                g_autofree char *x = verify_format_number(p->ratio);
                iv = g_strdup_printf("%s (one repetition: no interval)", x);
        } else {
                iv = tex_interval(p->ratio, lo, hi, cov, true);
        }
        if (r->pairs->len == 1)
                return g_steal_pointer(&iv);
        return g_strdup_printf("%s%s %s: %s", role, cite ? " pair" : "", label, iv);
}

/* The verdict cell of one side of a claim, for the table. */
static char *tex_result(const ClaimsRow *row, int side)
{
        const VerifyResult *r = &row->res[side];
        GString *s = g_string_new(NULL);

        if (row->missing[side]) {
                g_string_append(s, side ? "not reproduced" : "no data");
                return g_string_free(s, FALSE);
        }
        const char *v = verify_verdict_name(r->verdict);
        if (r->verdict == VERIFY_FAILS)
                g_string_append_printf(s, "\\textbf{%s}", v);
        else
                g_string_append(s, v);
        if (r->verdict == VERIFY_NO_DATA)
                return g_string_free(s, FALSE);
        guint np = r->pairs->len;
        g_autofree char *by = g_strdup_printf("%g", row->claim->by);
        if (np > 1) {
                g_autofree char *ratio = verify_format_number(r->ratio);
                g_string_append_printf(s, ": %u of %u pairs clear %s; ratio %s", r->clear, np, by, ratio);
        }
        g_autofree char *d = tex_decisive(r, false);
        if (d)
                g_string_append_printf(s, "\\newline %s", d);
        bool any = false;
        for (guint p = 0; p < np; p++) {
                const VerifyPair *pair = &g_array_index(r->pairs, VerifyPair, p);
                if (!pair->reversed || (np == 1 && d))
                        continue;
                g_autofree char *label = render_latex_escape(pair->label);
                g_autofree char *iv = tex_interval(pair->ratio, pair->lo, pair->hi, pair->coverage, true);
                g_string_append_printf(s, "%s%s %s", any ? "; " : "\\newline reversed: ", label, iv);
                any = true;
        }
        if (np == 1 && r->pairs->len && g_array_index(r->pairs, VerifyPair, 0).reversed)
                g_string_append(s, "\\newline reversed");
        if (r->n_looks > 1)
                g_string_append_printf(s, "\\newline %s at look %u of %u (%u repetitions)",
                                       r->verdict == VERIFY_INCONCLUSIVE ? "undecided" : "decided", r->look,
                                       r->n_looks, r->look_reps);
        if (side == 0 && !isnan(row->agree))
                g_string_append_printf(s, "\\newline a rerun agrees: %.0f\\,\\%%", 100 * row->agree);
        if (side == 0 && row->reruns)
                g_string_append_printf(s, "\\newline reruns: %u of %u agree", row->reruns_same, row->reruns);
        if (row->prov[side]) {
                g_autofree char *p = render_latex_escape(row->prov[side]);
                g_string_append_printf(s, "\\newline \\emph{%s}", p);
        }
        return g_string_free(s, FALSE);
}

/* The claims table of the paper (and of the reviewer's report): a
 * longtable, which breaks across pages and repeats its head, so that no
 * claim is ever lost; the line above it (its caption) says how to read a
 * ratio and the rule. */
/* "\texttt{elapsed}, \texttt{roundtrip\_latency}": the claim names of
 * the metrics for which BETTER is better (metrics.h), for LaTeX. */
static char *tex_metric_list(ColumnBetter better)
{
        g_autofree char *list = metric_claim_list_by(better);
        g_auto(GStrv) names = g_strsplit(list, ", ", -1);
        GString *s = g_string_new(NULL);

        for (guint i = 0; names[i] && names[i][0]; i++) {
                g_autofree char *e = render_latex_escape(names[i]);
                g_string_append_printf(s, "%s\\texttt{%s}", i ? ", " : "", e);
        }
        return g_string_free(s, FALSE);
}

char *claims_tex_table(const GArray *rows, bool have_repro)
{
        g_autofree char *lower = tex_metric_list(BETTER_LOWER);
        g_autofree char *higher = tex_metric_list(BETTER_HIGHER);
        GString *out = g_string_new("% Generated by `ipclab verify --latex`: the claims table; do not edit.\n");
        int ncol = have_repro ? 4 : 3;
        const char *head = have_repro ? "Claim & Metric & This data & Reproduction \\\\\n"
                                      : "Claim & Metric & This data \\\\\n";

        g_string_append(out, "\\begingroup\\small\n\\setlength{\\LTpre}{\\smallskipamount}\\setlength{\\LTpost}{0pt}"
                        "\\setlength{\\LTcapwidth}{\\linewidth}\n");
        g_string_append_printf(out, "\\begin{longtable}{@{}"
                               ">{\\raggedright\\arraybackslash}p{%s\\linewidth}"
                               ">{\\raggedright\\arraybackslash}p{%s\\linewidth}"
                               ">{\\raggedright\\arraybackslash}p{\\dimexpr %s\\linewidth-%d\\tabcolsep\\relax}%s@{}}\n",
                               have_repro ? "0.25" : "0.36", have_repro ? "0.15" : "0.17",
                               have_repro ? "0.29" : "0.47", have_repro ? 6 : 4,
                               have_repro ? ">{\\raggedright\\arraybackslash}p{0.31\\linewidth}" : "");
        g_string_append_printf(out,
                "\\caption{The claims of the experiment files, checked by \\texttt{ipclab verify} on this "
                "data (the committed \\texttt{data/})%s.  A pair's ratio above 1 points the claim's way: the "
                "slower cell's value over the faster one's for times and costs (%s), the faster one's over the "
                "slower one's for rates (%s).  A claim over $K$ pairs \\emph{holds} when every "
                "pair's 95\\,\\%% interval lies at or above its factor, \\emph{fails} when some pair's "
                "$1-0.05/K$ interval lies wholly below it, and is \\emph{inconclusive} otherwise; the weakest "
                "pair (of a claim that holds) or the blocking one is shown with its interval and the coverage "
                "that interval reaches, and every reversed pair (95\\,\\%% interval below 1) is named.  \\emph{A rerun agrees}: "
                "the share of 200 reruns of the design this data was measured with (its repetitions, or its "
                "looks replayed as the run takes them), drawn with replacement from this data's repetitions, "
                "that reach this data's verdict (\\texttt{make claim-stability}); the draws know only the "
                "spread within this run, so the share is optimistic.  \\emph{Reruns}: of the committed reruns of the "
                "same design (\\texttt{reruns/}, \\texttt{make claim-reruns}), measured, those that reach this "
                "data's verdict.}"
                "\\label{tab:claims}\\\\\n",
                have_repro ? " and on the reproduction" : "", lower, higher);
        g_string_append_printf(out, "\\toprule\n%s\\midrule\n\\endfirsthead\n", head);
        g_string_append_printf(out, "\\multicolumn{%d}{@{}l}{\\footnotesize Table~\\thetable, continued}\\\\\n"
                               "\\toprule\n%s\\midrule\n\\endhead\n", ncol, head);
        g_string_append_printf(out, "\\midrule\n\\multicolumn{%d}{@{}r@{}}{\\footnotesize continued on the next page}\\\\\n"
                               "\\endfoot\n\\bottomrule\n\\endlastfoot\n", ncol);
        if (!rows->len)
                g_string_append_printf(out, "\\multicolumn{%d}{@{}l}{No experiment file states a claim.}\\\\\n", ncol);
        for (guint i = 0; i < rows->len; i++) {
                const ClaimsRow *r = &g_array_index(rows, ClaimsRow, i);
                g_autofree char *text = render_latex_escape(r->claim->text);
                /* In typewriter type, where '|' is a bar (in roman it is a dash). */
                g_autofree char *where_tt = r->claim->where ? tex_breakable(r->claim->where) : NULL;
                g_autofree char *where = where_tt ? g_strdup_printf("{\\ttfamily %s}", where_tt) : NULL;
                g_autofree char *full = g_strdup_printf("%s/%s", r->exp->name, r->claim->name);
                g_autofree char *name = tex_breakable(full);
                g_autofree char *metric = tex_breakable(r->claim->metric);
                g_autofree char *by = g_strdup_printf("%g", r->claim->by);
                g_autofree char *d = tex_result(r, 0);
                g_autofree char *rep = have_repro ? tex_result(r, 1) : NULL;
                g_string_append_printf(out, "%s%s%s%s\\newline{\\footnotesize\\ttfamily %s} & "
                                       "\\texttt{%s}, by %s\\newline{\\footnotesize ratio %s} & %s%s%s \\\\%s\n",
                                       text, where ? " (where " : "", where ? where : "", where ? ")" : "",
                                       name, metric, by, verify_metric_direction(r->claim->metric), d,
                                       have_repro ? " & " : "", have_repro ? rep : "",
                                       i + 1 < rows->len ? "\\addlinespace[3pt]" : "");
        }
        g_string_append(out, "\\end{longtable}\n\\endgroup\n");
        return g_string_free(out, FALSE);
}

/* claims-tex.h */
GArray *claims_rerun_tally(const GArray *rows, ClaimsRerunTally *total)
{
        GArray *out = g_array_new(FALSE, TRUE, sizeof(ClaimsRerunTally));

        *total = (ClaimsRerunTally) { 0 };
        for (guint i = 0; i < rows->len;) {
                ClaimsRerunTally t = { .exp = g_array_index(rows, ClaimsRow, i).exp };
                for (; i < rows->len && g_array_index(rows, ClaimsRow, i).exp == t.exp; i++) {
                        const ClaimsRow *r = &g_array_index(rows, ClaimsRow, i);
                        t.same += r->reruns_same;
                        t.verdicts += r->reruns;
                        t.reruns = MAX(t.reruns, r->reruns);
                        t.elsewhere = MAX(t.elsewhere, r->reruns_elsewhere);
                        if (!r->reruns)
                                continue;
                        guint n = r->reruns + 1;
                        t.pairs += n * (n - 1) / 2;
                        for (int v = 0; v < 4; v++) {
                                guint c = r->rerun_counts[v] + (v == (int) r->res[0].verdict);
                                t.pairs_same += c * (c ? c - 1 : 0) / 2;
                        }
                }
                if (!t.reruns && !t.elsewhere)
                        continue;
                g_array_append_val(out, t);
                total->reruns += t.reruns;
                total->verdicts += t.verdicts;
                total->same += t.same;
                total->elsewhere += t.elsewhere;
                total->pairs += t.pairs;
                total->pairs_same += t.pairs_same;
                total->experiments += t.reruns > 0;
        }
        return out;
}

/* The macros of the reruns (--reruns) to OUT: per experiment with
 * reruns its reruns (\ExperimentRerunsNAME), the verdicts they give
 * (\ExperimentRerunVerdictsNAME: reruns times claims) and those that
 * reach this data's (\ExperimentSameRerunVerdictsNAME); then the same
 * over every experiment (\ClaimsReruns, \ClaimsRerunVerdicts,
 * \ClaimsSameRerunVerdicts), the experiments (\ClaimsRerunExperiments)
 * and the share in per cent, rounded down so that it never says more
 * than it is (\ClaimsRerunShare); the reruns of these designs on another
 * machine, not counted (\ClaimsRerunsElsewhere); how often two runs
 * agree, this data one of them (\ClaimsRunPairs, \ClaimsSameRunPairs,
 * \ClaimsRunPairShare; per experiment \ExperimentRunPairShareNAME, each
 * share rounded down); and every claim a rerun
 * moved, with its verdict here and what the reruns gave
 * (\ClaimsMovedByReruns, "none" when no rerun moved one).  Nothing
 * without reruns. */
static void tex_rerun_macros(GString *out, const GArray *rows)
{
        ClaimsRerunTally all;
        g_autoptr(GArray) per = claims_rerun_tally(rows, &all);

        for (guint i = 0; i < per->len; i++) {
                const ClaimsRerunTally *t = &g_array_index(per, ClaimsRerunTally, i);
                if (!t->reruns)
                        continue;
                g_autofree char *name = latex_macro_name(t->exp->name);
                g_string_append_printf(out, "%% %s: its reruns, their verdicts, and those as this data's\n",
                                       t->exp->name);
                g_string_append_printf(out, "\\newcommand{\\ExperimentReruns%s}{%u}\n", name, t->reruns);
                g_string_append_printf(out, "\\newcommand{\\ExperimentRerunVerdicts%s}{%u}\n", name, t->verdicts);
                g_string_append_printf(out, "\\newcommand{\\ExperimentSameRerunVerdicts%s}{%u}\n", name, t->same);
                g_string_append_printf(out, "\\newcommand{\\ExperimentRunPairShare%s}{%u}\n", name,
                                       t->pairs_same * 100 / t->pairs);
        }
        if (!all.verdicts)
                return;
        g_string_append(out, "% every experiment with reruns\n");
        g_string_append_printf(out, "\\newcommand{\\ClaimsReruns}{%u}\n", all.reruns);
        g_string_append_printf(out, "\\newcommand{\\ClaimsRerunExperiments}{%u}\n", all.experiments);
        g_string_append_printf(out, "\\newcommand{\\ClaimsRerunVerdicts}{%u}\n", all.verdicts);
        g_string_append_printf(out, "\\newcommand{\\ClaimsSameRerunVerdicts}{%u}\n", all.same);
        g_string_append_printf(out, "\\newcommand{\\ClaimsRerunShare}{%u}\n", all.same * 100 / all.verdicts);
        g_string_append_printf(out, "\\newcommand{\\ClaimsRerunsElsewhere}{%u}\n", all.elsewhere);
        g_string_append_printf(out, "\\newcommand{\\ClaimsRunPairs}{%u}\n", all.pairs);
        g_string_append_printf(out, "\\newcommand{\\ClaimsSameRunPairs}{%u}\n", all.pairs_same);
        g_string_append_printf(out, "\\newcommand{\\ClaimsRunPairShare}{%u}\n", all.pairs_same * 100 / all.pairs);
        g_autoptr(GString) moved = g_string_new(NULL);
        for (guint i = 0; i < rows->len; i++) {
                const ClaimsRow *r = &g_array_index(rows, ClaimsRow, i);
                if (r->reruns_same == r->reruns)
                        continue;
                g_autofree char *full = g_strdup_printf("%s/%s", r->exp->name, r->claim->name);
                g_autofree char *name = tex_breakable(full);
                g_string_append_printf(moved, "%s\\texttt{%s} (%s here; %u of %u reruns agree, ", moved->len ? "; " : "",
                                       name, verify_verdict_name(r->res[0].verdict), r->reruns_same, r->reruns);
                bool first = true;
                for (int v = 0; v < 4; v++) {
                        if (v == (int) r->res[0].verdict || !r->rerun_counts[v])
                                continue;
                        g_string_append_printf(moved, "%s%u %s", first ? "" : ", ", r->rerun_counts[v],
                                               verify_verdict_name((VerifyVerdict) v));
                        first = false;
                }
                g_string_append_c(moved, ')');
        }
        g_string_append_printf(out, "\\newcommand{\\ClaimsMovedByReruns}{%s}\n", moved->len ? moved->str : "none");
}

/* The macros of --macros (verify.h), for this data. */
char *claims_tex_macros(const GArray *rows, GError **error)
{
        g_autoptr(GString) out = g_string_new("% Generated by `ipclab verify --macros`: the verdict and ratio of every claim.\n");
        g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

        for (guint i = 0; i < rows->len; i++) {
                const ClaimsRow *r = &g_array_index(rows, ClaimsRow, i);
                const VerifyResult *d = &r->res[0];
                g_autofree char *name = latex_macro_name(r->claim->name);
                const char *other = g_hash_table_lookup(seen, name);
                if (other) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "--macros: claims %s and %s both give the macro name %s", other,
                                    r->claim->name, name);
                        return NULL;
                }
                g_hash_table_insert(seen, g_strdup(name), r->claim->name);
                g_autofree char *ratio = verify_format_number(d->ratio);
                g_autofree char *lo = verify_format_number(d->lo);
                g_autofree char *hi = verify_format_number(d->hi);
                g_string_append_printf(out, "%% %s/%s\n", r->exp->name, r->claim->name);
                g_string_append_printf(out, "\\newcommand{\\ClaimVerdict%s}{%s}\n", name,
                                       verify_verdict_name(d->verdict));
                g_string_append_printf(out, "\\newcommand{\\ClaimRatio%s}{%s}\n", name, ratio);
                g_string_append_printf(out, "\\newcommand{\\ClaimLo%s}{%s}\n", name, lo);
                g_string_append_printf(out, "\\newcommand{\\ClaimHi%s}{%s}\n", name, hi);
                if (!isnan(r->agree))
                        g_string_append_printf(out, "\\newcommand{\\ClaimAgree%s}{%.0f}\n", name, 100 * r->agree);
                if (r->reruns) {
                        g_string_append_printf(out, "\\newcommand{\\ClaimReruns%s}{%u}\n", name, r->reruns);
                        g_string_append_printf(out, "\\newcommand{\\ClaimSameReruns%s}{%u}\n", name,
                                               r->reruns_same);
                }
                g_autofree char *dec = d->verdict == VERIFY_NO_DATA ? NULL : tex_decisive(d, true);
                g_autofree char *by = g_strdup_printf("%g", r->claim->by);
                if (!dec)
                        g_string_append_printf(out, "\\newcommand{\\ClaimInterval%s}{--}\n", name);
                else if (d->pairs->len == 1)
                        g_string_append_printf(out, "\\newcommand{\\ClaimInterval%s}{%s}\n", name, dec);
                else
                        g_string_append_printf(out, "\\newcommand{\\ClaimInterval%s}{%u of %u pairs clear %s; %s}\n",
                                               name, d->clear, d->pairs->len, by, dec);
        }
        tex_rerun_macros(out, rows);
        return g_string_free(g_steal_pointer(&out), FALSE);
}

