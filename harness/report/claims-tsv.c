/* claims-tsv.c: the claims table as TSV (`ipclab verify --tsv`, see
 * claims-tex.h). */
#include "claims-tex.h"

#include <math.h>
#include <string.h>

/* A TSV field: tabs and newlines become spaces; empty or NULL is "-". */
static void tsv_field(GString *out, const char *s, bool first)
{
        if (!first)
                g_string_append_c(out, '\t');
        if (!s || !s[0]) {
                g_string_append_c(out, '-');
                return;
        }
        for (const char *p = s; *p; p++)
                g_string_append_c(out, (*p == '\t' || *p == '\n' || *p == '\r') ? ' ' : *p);
}

static void tsv_number(GString *out, double v)
{
        char buf[G_ASCII_DTOSTR_BUF_SIZE];

        if (isnan(v))
                g_string_append(out, "\t-");
        else
                g_string_append_printf(out, "\t%s", g_ascii_formatd(buf, sizeof buf, "%.6g", v));
}

static void tsv_result(GString *out, const VerifyResult *r, bool present)
{
        if (!present) {
                g_string_append(out, "\t-\t-\t-\t-\t-\t-\t-");
                return;
        }
        tsv_field(out, verify_verdict_name(r->verdict), false);
        tsv_number(out, r->ratio);
        tsv_number(out, r->lo);
        tsv_number(out, r->hi);
        g_string_append_printf(out, "\t%u", r->pairs ? r->pairs->len : 0);
        if (r->verdict == VERIFY_NO_DATA)
                g_string_append(out, "\t-");
        else
                g_string_append_printf(out, "\t%u", r->min_reps);
        tsv_field(out, r->note, false);
}

/* claims-tex.h */
char *claims_pair_verdict(const VerifyResult *r, const VerifyPair *pr)
{
        g_autofree char *at = r->n_looks > 1 ? g_strdup_printf(" at look %u", pr->look) : g_strdup("");
        return g_strdup_printf("%s%s%s", verify_verdict_name(pr->verdict), at, pr->reversed ? ", reversed" : "");
}

/* Every pair as "FASTER vs SLOWER: RATIO [LO, HI] COVERAGE VERDICT[,
 * reversed]", separated by " | ", then the reversed pairs (or "-"). */
static void tsv_pairs(GString *out, const VerifyResult *r, bool present)
{
        if (!present || !r->pairs || !r->pairs->len) {
                g_string_append(out, "\t-\t-");
                return;
        }
        g_autoptr(GString) s = g_string_new(NULL);
        char b[3][G_ASCII_DTOSTR_BUF_SIZE];
        for (guint p = 0; p < r->pairs->len; p++) {
                const VerifyPair *pr = &g_array_index(r->pairs, VerifyPair, p);
                g_autofree char *cov = verify_format_coverage(pr->coverage, false);
                g_autofree char *v = claims_pair_verdict(r, pr);
                g_string_append_printf(s, "%s%s vs %s: %s [%s, %s] %s %s", p ? " | " : "", pr->faster, pr->slower,
                                       g_ascii_formatd(b[0], sizeof b[0], "%.6g", pr->ratio),
                                       g_ascii_formatd(b[1], sizeof b[1], "%.6g", pr->lo),
                                       g_ascii_formatd(b[2], sizeof b[2], "%.6g", pr->hi), cov, v);
        }
        tsv_field(out, s->str, false);
        tsv_field(out, r->reversed, false);
}

/* The columns added with issue 22: the combined interval's coverage, the
 * pairs that hold, the deciding pair, the look. */
static void tsv_more(GString *out, const VerifyResult *r, bool present)
{
        if (!present || r->verdict == VERIFY_NO_DATA) {
                g_string_append(out, "\t-\t-\t-\t-");
                return;
        }
        tsv_number(out, r->coverage);
        g_string_append_printf(out, "\t%u", r->clear);
        g_autofree char *d = verify_decisive_text(r);
        tsv_field(out, d, false);
        g_string_append_printf(out, "\t%u/%u", r->look, r->n_looks);
}

/* claims-tex.h */
char *claims_tsv_table(const GArray *rows)
{
        GString *out = g_string_new("experiment\tclaim\ttext\tmetric\tby\tfaster\tslower\twhere"
                                    "\tpublished\tpublished_ratio\tpublished_lo\tpublished_hi"
                                    "\tpublished_pairs\tpublished_min_reps\tpublished_note"
                                    "\treproduced\treproduced_ratio\treproduced_lo\treproduced_hi"
                                    "\treproduced_pairs\treproduced_min_reps\treproduced_note"
                                    "\tpublished_pair_ratios\tpublished_reversed"
                                    "\treproduced_pair_ratios\treproduced_reversed"
                                    "\tpublished_coverage\tpublished_clear\tpublished_decisive\tpublished_look"
                                    "\treproduced_coverage\treproduced_clear\treproduced_decisive\treproduced_look"
                                    "\treruns\treruns_same\treruns_verdicts\n");

        for (guint i = 0; i < rows->len; i++) {
                const ClaimsRow *r = &g_array_index(rows, ClaimsRow, i);
                tsv_field(out, r->exp->name, true);
                tsv_field(out, r->claim->name, false);
                tsv_field(out, r->claim->text, false);
                tsv_field(out, r->claim->metric, false);
                tsv_number(out, r->claim->by);
                tsv_field(out, r->claim->faster, false);
                tsv_field(out, r->claim->slower, false);
                tsv_field(out, r->claim->where, false);
                tsv_result(out, &r->res[0], true);
                tsv_result(out, &r->res[1], r->have_repro);
                tsv_pairs(out, &r->res[0], true);
                tsv_pairs(out, &r->res[1], r->have_repro);
                tsv_more(out, &r->res[0], true);
                tsv_more(out, &r->res[1], r->have_repro);
                if (r->reruns)
                        g_string_append_printf(out, "\t%u\t%u", r->reruns, r->reruns_same);
                else
                        g_string_append(out, "\t0\t-");
                tsv_field(out, r->rerun_verdicts, false);
                g_string_append_c(out, '\n');
        }
        return g_string_free(out, FALSE);
}

