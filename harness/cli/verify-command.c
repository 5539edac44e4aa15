/* verify-command.c: `ipclab verify`, the command (see verify.h): the
 * claims table as text and TSV, --stability, and the paper's files
 * (claims-tex.h). */
#include "verify.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "columns.h"
#include "metrics.h"
#include "placement.h"
#include "safefile.h"
#include "select.h"
#include "stats.h"
#include "claims-tex.h"
#include "verify-internal.h"

#define EXIT_FAILED 1
#define EXIT_USAGE 2

/* ---- The command -------------------------------------------------------- */


static void row_clear(ClaimsRow *r)
{
        verify_result_clear(&r->res[0]);
        verify_result_clear(&r->res[1]);
        g_free(r->prov[0]);
        g_free(r->prov[1]);
        g_free(r->rerun_verdicts);
}

/* "27/28": pairs that hold, of all. */
static char *clear_text(const VerifyResult *r)
{
        if (r->verdict == VERIFY_NO_DATA || !r->pairs)
                return g_strdup("-");
        return g_strdup_printf("%u/%u", r->clear, r->pairs->len);
}

static char *ratio_text(const VerifyResult *r)
{
        char s[32];

        if (r->verdict == VERIFY_NO_DATA || isnan(r->ratio))
                return g_strdup("-");
        verify_format_one(s, sizeof s, r->ratio);
        return g_strdup(s);
}

/* Where DIR/meta.ini says the samples came from something else than EXP:
 * another version of the file, or a profile.  NULL when nothing to say. */
static char *provenance_note(const Experiment *exp, const char *dir)
{
        g_autofree char *path = g_build_filename(dir, "meta.ini", NULL);
        g_autoptr(GKeyFile) kf = safefile_key_file(path, NULL);
        g_autoptr(GString) s = g_string_new(NULL);

        if (!kf)
                return NULL;
        g_autofree char *sha = g_key_file_get_string(kf, "experiment", "sha256", NULL);
        g_autofree char *config = g_key_file_get_string(kf, "experiment", "config_sha256", NULL);
        g_autofree char *profile = g_key_file_get_string(kf, "experiment", "profile", NULL);
        bool default_profile = !profile || strcmp(profile, "default") == 0;
        /* Another version means another measurement: the file's bytes may
         * differ (a title, a comment, a claim) and the data still be its. */
        g_autofree char *want = config ? experiment_config_sha256(exp) : NULL;
        if (config ? default_profile && strcmp(config, want) != 0 : sha && strcmp(sha, exp->sha256) != 0)
                verify_note_add(s, "measured from another version of %s", exp->path);
        if (profile && strcmp(profile, "default") != 0)
                verify_note_add(s, "measured with profile %s (less work than the file asks: informative only)", profile);
        return s->len ? g_strdup(s->str) : NULL;
}

static GPtrArray *default_experiments(GError **error)
{
        g_autoptr(GDir) d = g_dir_open("experiments", 0, error);
        GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
        const char *name;

        if (!d) {
                g_ptr_array_unref(files);
                return NULL;
        }
        while ((name = g_dir_read_name(d)))
                if (g_str_has_suffix(name, ".ini"))
                        g_ptr_array_add(files, g_build_filename("experiments", name, NULL));
        return files;
}

/* ---- --stability -------------------------------------------------------- */

/* The seed of the draws for CLAIM and N (0: its design): one fixed seed
 * per claim and N, so that the same data give the same shares, whatever
 * else is asked. */
static guint64 stability_seed(const Claim *claim, guint n)
{
        return g_str_hash(claim->name) * 1000003u + n;
}

/* "6;14" (a sequential design's looks) or "6" (repetitions a cell). */
static char *design_label(const guint *looks, guint n_looks, guint n)
{
        if (!n_looks)
                return g_strdup_printf("%u", n);
        GString *s = g_string_new(NULL);
        for (guint j = 0; j < n_looks; j++)
                g_string_append_printf(s, "%s%u", j ? ";" : "", looks[j]);
        return g_string_free(s, FALSE);
}

/* The design R's data was measured with: its look schedule (LOOKS, the
 * count returned) from DIR/meta.ini, or 0 and *N its repetitions a cell
 * (the fewest of the compared cells). */
static guint row_design(const ClaimsRow *r, const char *dir, guint *looks, guint *n)
{
        *n = r->res[0].min_reps;
        return verify_meta_looks(dir, looks);
}

/* "6,10,15,20" into NS (at most MAX); 0 when malformed. */
static guint parse_counts(const char *s, guint *ns, guint max)
{
        g_auto(GStrv) parts = g_strsplit(s, ",", -1);
        guint n = 0;

        for (guint i = 0; parts[i]; i++) {
                char *end;
                guint64 v = g_ascii_strtoull(g_strstrip(parts[i]), &end, 10);
                if (*end || v < 1 || v > 1000 || n == max)
                        return 0;
                ns[n++] = (guint) v;
        }
        return n;
}

static int stability(const GArray *rows, const char *data_dir, const guint *ns, guint n_ns, guint draws,
                     const char *tsv)
{
        g_autoptr(GString) out = g_string_new("experiment\tclaim\tverdict\treps");
        g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func(g_free);
        g_autoptr(GError) e = NULL;
        int w_exp = (int) strlen("EXPERIMENT"), w_claim = (int) strlen("CLAIM");

        for (guint k = 0; k < n_ns; k++)
                g_string_append_printf(out, "\tagree_n%u\ttwo_agree_n%u\tholds_n%u\tinconclusive_n%u\tfails_n%u",
                                       ns[k], ns[k], ns[k], ns[k], ns[k]);
        g_string_append(out, "\tdesign\tagree_design\ttwo_agree_design\tholds_design\tinconclusive_design"
                        "\tfails_design");
        g_string_append_c(out, '\n');
        for (guint i = 0; i < rows->len; i++) {
                const ClaimsRow *r = &g_array_index(rows, ClaimsRow, i);
                w_exp = MAX(w_exp, (int) strlen(r->exp->name));
                w_claim = MAX(w_claim, (int) strlen(r->claim->name));
        }
        printf("%-*s  %-*s  %-12s  %4s", w_exp, "EXPERIMENT", w_claim, "CLAIM", "THIS DATA", "REPS");
        for (guint k = 0; k < n_ns; k++) {
                g_autofree char *h = g_strdup_printf("N=%u: SAME TWO (H/I/F)", ns[k]);
                printf("  %-26s", h);
        }
        printf("  %-10s  %-26s\n", "DESIGN", "AS MEASURED: SAME TWO (H/I/F)");
        for (guint i = 0; i < rows->len; i++) {
                const ClaimsRow *r = &g_array_index(rows, ClaimsRow, i);
                const VerifyResult *ref = &r->res[0];
                g_autofree char *dir = g_build_filename(data_dir, r->exp->name, NULL);
                g_autofree char *path = g_build_filename(dir, "samples.tsv", NULL);
                g_string_append_printf(out, "%s\t%s\t%s\t", r->exp->name, r->claim->name,
                                       verify_verdict_name(ref->verdict));
                if (r->missing[0] || ref->verdict == VERIFY_NO_DATA) {
                        printf("%-*s  %-*s  %-12s\n", w_exp, r->exp->name, w_claim, r->claim->name,
                               verify_verdict_name(ref->verdict));
                        g_string_append(out, "-");
                        for (guint k = 0; k <= n_ns; k++)
                                g_string_append(out, k == n_ns ? "\t-\t-\t-\t-\t-\t-" : "\t-\t-\t-\t-\t-");
                        g_string_append_c(out, '\n');
                        continue;
                }
                printf("%-*s  %-*s  %-12s  %4u", w_exp, r->exp->name, w_claim, r->claim->name,
                       verify_verdict_name(ref->verdict), ref->min_reps);
                g_string_append_printf(out, "%u", ref->min_reps);
                g_autoptr(Table) t = samples_table_read(path, &e);
                if (!t) {
                        fprintf(stderr, "\nipclab: verify: %s\n", e->message);
                        return EXIT_USAGE;
                }
                guint looks[EXPERIMENT_MAX_LOOKS], n_design;
                guint n_looks = row_design(r, dir, looks, &n_design);
                for (guint k = 0; k <= n_ns; k++) {
                        guint counts[4] = { 0 };
                        /* k == n_ns: the design the data was measured with. */
                        bool design = k == n_ns;
                        if (design) {
                                g_autofree char *label = design_label(looks, n_looks, n_design);
                                printf("  %-10s", label);
                                g_string_append_printf(out, "\t%s", label);
                        }
                        if (!verify_stability(r->claim, t, path, design ? n_design : ns[k], design ? looks : NULL,
                                              design ? n_looks : 0, draws,
                                              stability_seed(r->claim, design ? 0 : ns[k]), counts, &e)) {
                                fprintf(stderr, "\nipclab: verify: %s\n", e->message);
                                return EXIT_USAGE;
                        }
                        double agree = 100.0 * counts[ref->verdict] / draws, two = 0;
                        for (int v = 0; v < 4; v++)
                                two += (double) counts[v] * counts[v] / ((double) draws * draws);
                        g_autofree char *c = g_strdup_printf("%3.0f%% %3.0f%% (%.0f/%.0f/%.0f)", agree, 100 * two,
                                                             100.0 * counts[VERIFY_HOLDS] / draws,
                                                             100.0 * counts[VERIFY_INCONCLUSIVE] / draws,
                                                             100.0 * counts[VERIFY_FAILS] / draws);
                        printf("  %-26s", c);
                        fflush(stdout);
                        char b[G_ASCII_DTOSTR_BUF_SIZE];
                        g_string_append_printf(out, "\t%s", g_ascii_formatd(b, sizeof b, "%.4f", agree / 100));
                        g_string_append_printf(out, "\t%s", g_ascii_formatd(b, sizeof b, "%.4f", two));
                        for (int v = VERIFY_HOLDS; v <= VERIFY_FAILS; v++)
                                g_string_append_printf(out, "\t%s",
                                                       g_ascii_formatd(b, sizeof b, "%.4f", (double) counts[v] / draws));
                }
                printf("\n");
                g_string_append_c(out, '\n');
        }
        printf("\nN=n: of %u reruns of n repetitions a cell, drawn with replacement from this data's repetitions\n"
               "of each cell (failed ones too) and evaluated with one look: SAME, the share that reach this\n"
               "data's verdict; TWO, the chance that two such reruns reach the same verdict (the sum of the\n"
               "squared shares: a paper measured with n repetitions and its reviewer's rerun); then the shares\n"
               "that hold, are inconclusive and fail.  Drawing more repetitions than REPS repeats the measured\n"
               "ones: the spread between them is all a draw can show, so the figures at n above REPS are an\n"
               "optimistic guess, and a rerun on a busier or quieter machine differs more.  DESIGN, AS MEASURED:\n"
               "the same for a rerun of the design this data was measured with (its repetitions, or the looks\n"
               "of a sequential design, replayed as the run takes them: the first look that decides).\n", draws);
        if (tsv) {
                int rc = samples_write_atomic(tsv, out->str, out->len);
                if (rc < 0) {
                        fprintf(stderr, "ipclab: verify: cannot write %s: %s\n", tsv, g_strerror(-rc));
                        return EXIT_FAILED;
                }
        }
        return 0;
}

/* ---- ipclab verify ------------------------------------------------------ */

static void count_verdict(guint counts[4], const VerifyResult *r)
{
        counts[r->verdict]++;
}

static void print_counts(const char *what, const guint counts[4])
{
        printf("%s: %u hold, %u inconclusive, %u fail, %u no data\n", what, counts[VERIFY_HOLDS],
               counts[VERIFY_INCONCLUSIVE], counts[VERIFY_FAILS], counts[VERIFY_NO_DATA]);
}

/* Writes TEXT to PATH atomically; the exit status. */
static int write_out(const char *path, const char *text)
{
        int r = samples_write_atomic(path, text, strlen(text));
        if (r < 0) {
                fprintf(stderr, "ipclab: verify: cannot write %s: %s\n", path, g_strerror(-r));
                return EXIT_FAILED;
        }
        return 0;
}

/* The experiment files ARGV names, or every .ini of experiments/ in name
 * order; NULL after printing why when there are none. */
static GPtrArray *experiment_files(int argc, char **argv)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(GPtrArray) files = NULL;

        if (argc > 1) {
                files = g_ptr_array_new_with_free_func(g_free);
                for (int i = 1; i < argc; i++)
                        g_ptr_array_add(files, g_strdup(argv[i]));
        } else {
                files = default_experiments(&e);
                if (!files) {
                        fprintf(stderr, "ipclab: verify: no experiment files given and %s\n", e->message);
                        return NULL;
                }
                g_ptr_array_sort(files, samples_name_cmp);
                if (!files->len) {
                        fprintf(stderr, "ipclab: verify: no experiments/*.ini\n");
                        return NULL;
                }
        }

        return g_steal_pointer(&files);
}

/* Loads FILES into EXPS and evaluates every claim on DATA_DIR (and
 * REPRO, when not NULL) into ROWS, adding what is missing to NOTES.
 * FALSE after printing why (exit 2). */
static bool load_rows(GPtrArray *files, const char *data_dir, const char *repro, GPtrArray *exps, GArray *rows,
                      GPtrArray *notes)
{
        g_autoptr(GError) e = NULL;

        /* Load and evaluate everything before printing anything.  Loading
         * refuses claims that cannot mean anything or cannot be decided
         * (verify.h): exit 2. */
        for (guint i = 0; i < files->len; i++) {
                Experiment *exp = experiment_load(files->pdata[i], NULL, &e);
                if (!exp && strstr(e->message, "no cell can run here")) {
                        /* a tool this machine lacks: reported, not fatal */
                        fprintf(stderr, "ipclab: verify: %s: cannot run here, its claims are left out\n",
                                e->message);
                        g_clear_error(&e);
                        continue;
                }
                if (!exp) {
                        fprintf(stderr, "ipclab: %s\n", e->message);
                        return false;
                }
                g_ptr_array_add(exps, exp);
        }
        const char *which[] = { "this data", "reproduction" };
        for (guint i = 0; i < exps->len; i++) {
                const Experiment *exp = exps->pdata[i];
                char *dirs[2] = { g_build_filename(data_dir, exp->name, NULL),
                                  repro ? g_build_filename(repro, exp->name, NULL) : NULL };
                bool missing[2] = { false, false };
                char *prov[2] = { NULL, NULL };
                for (int k = 0; k < (repro ? 2 : 1); k++) {
                        g_autofree char *tsvp = g_build_filename(dirs[k], "samples.tsv", NULL);
                        missing[k] = !g_file_test(tsvp, G_FILE_TEST_EXISTS);
                        prov[k] = provenance_note(exp, dirs[k]);
                        if (exp->claims->len && missing[k])
                                g_ptr_array_add(notes, g_strdup_printf("%s, %s: %s (%s does not exist)", exp->name,
                                                                       which[k], k ? "not reproduced" : "no data", tsvp));
                        if (exp->claims->len && prov[k])
                                g_ptr_array_add(notes, g_strdup_printf("%s, %s: %s", exp->name, which[k], prov[k]));
                }
                /* Each side read once for all the claims of the experiment. */
                VerifyRun run[2] = { { 0 } };
                gboolean ok = TRUE;
                for (int k = 0; k < (repro ? 2 : 1) && ok && exp->claims->len; k++)
                        ok = verify_run_read(&run[k], dirs[k], &e);
                for (guint c = 0; c < exp->claims->len && ok; c++) {
                        ClaimsRow row = { .exp = exp, .claim = exp->claims->pdata[c], .have_repro = repro != NULL,
                                    .agree = NAN,
                                    .missing = { missing[0], missing[1] },
                                    .prov = { g_strdup(prov[0]), g_strdup(prov[1]) } };
                        ok = verify_claim_run(row.claim, &run[0], &row.res[0], &e);
                        if (ok && repro)
                                ok = verify_claim_run(row.claim, &run[1], &row.res[1], &e);
                        g_array_append_val(rows, row);
                }
                for (int k = 0; k < 2; k++) {
                        verify_run_clear(&run[k]);
                        g_free(dirs[k]);
                        g_free(prov[k]);
                }
                if (!ok) {
                        fprintf(stderr, "ipclab: %s: %s\n", exp->path, e->message);
                        return false;
                }
        }
        return true;
}

/* Prints the claims table of ROWS (with the reproduction's columns when
 * REPRO). */
static void print_table(const GArray *rows, bool repro)
{
        const char *head[] = { "EXPERIMENT", "CLAIM", "METRIC", "BY", "THIS DATA", "PAIRS", "RATIO",
                               "WEAKEST OR BLOCKING PAIR", "REPRODUCTION", "PAIRS", "RATIO",
                               "WEAKEST OR BLOCKING PAIR" };
        int ncol = repro ? 12 : 8;
        g_autoptr(GPtrArray) cellv = g_ptr_array_new_with_free_func(g_free);
        int width[12];
        for (int k = 0; k < ncol; k++)
                width[k] = (int) strlen(head[k]);
        for (guint i = 0; i < rows->len; i++) {
                const ClaimsRow *r = &g_array_index(rows, ClaimsRow, i);
                char *v[12] = {
                        g_strdup(r->exp->name), g_strdup(r->claim->name), g_strdup(r->claim->metric),
                        g_strdup_printf("%g", r->claim->by),
                        g_strdup(verify_verdict_name(r->res[0].verdict)), clear_text(&r->res[0]),
                        ratio_text(&r->res[0]), verify_decisive_text(&r->res[0]),
                        repro ? g_strdup(r->missing[1] ? "-" : verify_verdict_name(r->res[1].verdict)) : NULL,
                        repro ? clear_text(&r->res[1]) : NULL, repro ? ratio_text(&r->res[1]) : NULL,
                        repro ? verify_decisive_text(&r->res[1]) : NULL,
                };
                for (int k = 0; k < ncol; k++) {
                        width[k] = MAX(width[k], (int) strlen(v[k]));
                        g_ptr_array_add(cellv, v[k]);
                }
        }
        for (int k = 0; k < ncol; k++)
                printf("%-*s%s", k == ncol - 1 ? 0 : width[k], head[k], k == ncol - 1 ? "\n" : "  ");
        for (guint i = 0; i < rows->len; i++)
                for (int k = 0; k < ncol; k++)
                        printf("%-*s%s", k == ncol - 1 ? 0 : width[k], (char *) cellv->pdata[i * ncol + k],
                               k == ncol - 1 ? "\n" : "  ");
        if (!rows->len)
                printf("(no claims in these experiment files)\n");

}

/* Prints the notes and pairs of ROWS and NOTES (every pair with
 * SHOW_PAIRS, else those of claims over several), and counts the
 * verdicts into COUNTS (this data, the reproduction). */
static void print_notes(const GArray *rows, const GPtrArray *notes, bool show_pairs, guint counts[2][4])
{
        const char *which[] = { "this data", "reproduction" };
        bool printed_notes = false;
        for (guint i = 0; i < rows->len; i++) {
                const ClaimsRow *r = &g_array_index(rows, ClaimsRow, i);
                count_verdict(counts[0], &r->res[0]);
                if (r->have_repro)
                        count_verdict(counts[1], &r->res[1]);
                for (int k = 0; k < (r->have_repro ? 2 : 1); k++) {
                        const VerifyResult *res = &r->res[k];
                        if (r->missing[k])
                                continue;
                        bool list = res->pairs && (res->pairs->len > 1 || (show_pairs && res->pairs->len));
                        if (res->note || list) {
                                if (!printed_notes)
                                        printf("\n");
                                printed_notes = true;
                                printf("%s/%s, %s:%s%s\n", r->exp->name, r->claim->name, which[k],
                                       res->note ? " " : "", res->note ? res->note : "");
                        }
                        if (!list)
                                continue;
                        bool two = res->level_fails > res->level_holds + 1e-12;
                        for (guint p = 0; p < res->pairs->len; p++) {
                                const VerifyPair *pr = &g_array_index(res->pairs, VerifyPair, p);
                                g_autofree char *rs = verify_format_interval_cov(pr->ratio, pr->lo, pr->hi, pr->coverage);
                                g_autofree char *fs = two ? verify_format_interval_cov(pr->ratio, pr->fail_lo, pr->fail_hi,
                                                                                pr->fail_coverage) : NULL;
                                g_autofree char *v = claims_pair_verdict(res, pr);
                                printf("    %s (n=%u) vs %s (n=%u): %s%s%s %s\n", pr->faster, pr->n_faster,
                                       pr->slower, pr->n_slower, rs, two ? "; to fail: " : "", two ? fs : "", v);
                        }
                }
        }
        for (guint i = 0; i < notes->len; i++) {
                if (!printed_notes)
                        printf("\n");
                printed_notes = true;
                printf("%s\n", (char *) notes->pdata[i]);
        }
}

/* verify's command line. */
typedef struct {
        char *data, *repro, *reruns, *tsv, *macros, *latex, *stab, *require;
        gboolean show_pairs;
        gint draws;
        guint ns[16], n_ns;   /* --stability's counts */
} VerifyOpts;

static void verify_opts_clear(VerifyOpts *o)
{
        g_free(o->data);
        g_free(o->repro);
        g_free(o->reruns);
        g_free(o->tsv);
        g_free(o->macros);
        g_free(o->latex);
        g_free(o->stab);
        g_free(o->require);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(VerifyOpts, verify_opts_clear)

/* Parses and checks the options into O, leaving the files in ARGV:
 * 0, or the exit status of bad usage (told on stderr). */
static int verify_options(VerifyOpts *o, int *argc, char ***argv)
{
        GOptionEntry entries[] = {
                { "data", 'd', 0, G_OPTION_ARG_FILENAME, &o->data,
                  "This data: DIR/<experiment>/samples.tsv (default: data)", "DIR" },
                { "repro", 'r', 0, G_OPTION_ARG_FILENAME, &o->repro,
                  "Also evaluate the reproduction in DIR (e.g. build/repro)", "DIR" },
                { "reruns", 0, 0, G_OPTION_ARG_FILENAME, &o->reruns,
                  "Also count, per claim, the reruns of its experiment's design under DIR (e.g. reruns) that reach "
                  "this data's verdict", "DIR" },
                { "tsv", 't', 0, G_OPTION_ARG_FILENAME, &o->tsv,
                  "Also write the table as TSV to FILE (atomically)", "FILE" },
                { "macros", 'm', 0, G_OPTION_ARG_FILENAME, &o->macros,
                  "Also write LaTeX macros of every claim's verdict and ratio to FILE (atomically)", "FILE" },
                { "latex", 'l', 0, G_OPTION_ARG_FILENAME, &o->latex,
                  "Also write the paper's claims table (a LaTeX longtable) to FILE (atomically)", "FILE" },
                { "pairs", 'p', 0, G_OPTION_ARG_NONE, &o->show_pairs,
                  "Show the pairs of claims over one pair too (those over several always are)", NULL },
                { "stability", 's', 0, G_OPTION_ARG_STRING, &o->stab,
                  "Instead: how often reruns of N repetitions a cell, drawn from this data, reach its verdict",
                  "N,N..." },
                { "draws", 0, 0, G_OPTION_ARG_INT, &o->draws, "With --stability: draws per claim and N (default 200)",
                  "D" },
                { "require", 0, 0, G_OPTION_ARG_STRING, &o->require,
                  "Exit 1 unless every claim holds (holds) or every claim is decided, holds or fails "
                  "(decided); without it, exit 1 only when a claim fails", "holds|decided" },
                G_OPTION_ENTRY_NULL
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new(
                "[EXPERIMENT.ini...] - evaluate every claim on the data and on a reproduction");
        g_autoptr(GError) e = NULL;

        o->draws = 200;
        g_option_context_add_main_entries(ctx, entries, NULL);
        g_option_context_set_description(ctx,
                "Without files, every experiments/*.ini.  A pair's ratio above 1 points the claim's way\n"
                "(slower/faster for times and costs, faster/slower for rates).  A claim over K pairs holds\n"
                "when every pair's 95% interval lies at or above its factor `by`, fails when some pair's\n"
                "1 - 0.05/K interval lies wholly below it, and is inconclusive otherwise (data measured in\n"
                "L looks, repeat_until=decided: each look at 0.05/L).\n"
                "Exit status: 0 no claim fails, 1 a claim fails, 2 bad usage or bad input; with\n"
                "--require holds, 1 also when a claim is inconclusive or has no data; with --require\n"
                "decided, 1 when a claim is inconclusive or has no data (a claim that fails is decided).\n");
        if (!g_option_context_parse(ctx, argc, argv, &e)) {
                fprintf(stderr, "ipclab: %s\n", e->message);
                return EXIT_USAGE;
        }
        if (o->stab && !(o->n_ns = parse_counts(o->stab, o->ns, G_N_ELEMENTS(o->ns)))) {
                fprintf(stderr, "ipclab: verify: --stability '%s': give repetition counts from 1 to 1000, "
                        "such as 6,10,15,20\n", o->stab);
                return EXIT_USAGE;
        }
        if (o->require && strcmp(o->require, "holds") && strcmp(o->require, "decided")) {
                fprintf(stderr, "ipclab: verify: --require '%s': give holds or decided\n", o->require);
                return EXIT_USAGE;
        }
        if (o->draws < 1 || o->draws > 100000) {
                fprintf(stderr, "ipclab: verify: --draws %d: give 1 to 100000\n", o->draws);
                return EXIT_USAGE;
        }
        const char *data_dir = o->data ? o->data : "data";
        if (!g_file_test(data_dir, G_FILE_TEST_IS_DIR)) {
                fprintf(stderr, "ipclab: verify: %s is not a directory\n", data_dir);
                return EXIT_USAGE;
        }
        if (o->repro && !g_file_test(o->repro, G_FILE_TEST_IS_DIR)) {
                fprintf(stderr, "ipclab: verify: --repro %s is not a directory\n", o->repro);
                return EXIT_USAGE;
        }
        if (o->reruns && !g_file_test(o->reruns, G_FILE_TEST_IS_DIR)) {
                fprintf(stderr, "ipclab: verify: --reruns %s is not a directory\n", o->reruns);
                return EXIT_USAGE;
        }
        return 0;
}

/* The files --macros, --tsv and --latex ask for: 0, or the exit status
 * of the first that could not be written (told on stderr). */
static int write_files(const VerifyOpts *o, GArray *rows)
{
        g_autofree char *mtext = NULL;
        if (o->macros) {
                g_autoptr(GError) me = NULL;
                mtext = claims_tex_macros(rows, &me);
                if (!mtext) {
                        fprintf(stderr, "ipclab: verify: %s\n", me->message);
                        return EXIT_USAGE;
                }
        }
        int rc = 0;
        if (o->macros)
                rc = MAX(rc, write_out(o->macros, mtext));
        if (o->tsv) {
                g_autofree char *text = claims_tsv_table(rows);
                rc = MAX(rc, write_out(o->tsv, text));
        }
        if (o->latex) {
                g_autofree char *text = claims_tex_table(rows, o->repro != NULL);
                rc = MAX(rc, write_out(o->latex, text));
        }
        return rc;
}

/* The draws behind the paper's estimate of each claim's rerun agreement:
 * as many as `make claim-stability` takes by default. */
#define AGREE_DRAWS 200

/* For the paper (--latex, --macros): each claim's share of reruns of its data's
 * design estimated to reach this data's verdict (verify_stability), in
 * ROWS' agree.  FALSE after printing why. */
static bool rows_agreement(GArray *rows, const char *data_dir)
{
        g_autoptr(GHashTable) tables = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                                             (GDestroyNotify) table_free);
        for (guint i = 0; i < rows->len; i++) {
                ClaimsRow *r = &g_array_index(rows, ClaimsRow, i);
                if (r->missing[0] || r->res[0].verdict == VERIFY_NO_DATA)
                        continue;
                g_autofree char *dir = g_build_filename(data_dir, r->exp->name, NULL);
                g_autofree char *path = g_build_filename(dir, "samples.tsv", NULL);
                g_autoptr(GError) e = NULL;
                Table *t = g_hash_table_lookup(tables, path);
                if (!t && (t = samples_table_read(path, &e)))
                        g_hash_table_insert(tables, g_strdup(path), t);
                guint looks[EXPERIMENT_MAX_LOOKS], n, counts[4];
                guint n_looks = row_design(r, dir, looks, &n);
                if (!t || !verify_stability(r->claim, t, path, n, looks, n_looks, AGREE_DRAWS,
                                            stability_seed(r->claim, 0), counts, &e)) {
                        fprintf(stderr, "ipclab: verify: %s\n", e->message);
                        return false;
                }
                r->agree = (double) counts[r->res[0].verdict] / AGREE_DRAWS;
        }
        return true;
}

/* --reruns: each claim evaluated on every committed rerun of its
 * experiment's design under RERUNS (verify_rerun_dirs), counted into
 * ROWS' reruns and reruns_same.  FALSE after printing why (a rerun that
 * cannot be read is bad input, as this data would be). */
static bool rows_reruns(GArray *rows, const char *data_dir, const char *reruns)
{
        g_autoptr(GPtrArray) dirs = NULL;
        g_autoptr(GArray) runs = g_array_new(FALSE, TRUE, sizeof(VerifyRun));
        const Experiment *of = NULL;
        guint elsewhere = 0;

        g_array_set_clear_func(runs, (GDestroyNotify) verify_run_clear);
        for (guint i = 0; i < rows->len; i++) {
                ClaimsRow *r = &g_array_index(rows, ClaimsRow, i);
                if (r->exp != of) {
                        /* Each rerun read once for all the claims of its experiment. */
                        g_clear_pointer(&dirs, g_ptr_array_unref);
                        dirs = verify_rerun_dirs(reruns, r->exp, data_dir, &elsewhere);
                        g_array_set_size(runs, 0);
                        g_array_set_size(runs, dirs->len);
                        for (guint d = 0; d < dirs->len; d++) {
                                g_autoptr(GError) e = NULL;
                                if (!verify_run_read(&g_array_index(runs, VerifyRun, d), dirs->pdata[d], &e)) {
                                        fprintf(stderr, "ipclab: verify: --reruns %s: %s\n",
                                                (char *) dirs->pdata[d], e->message);
                                        return false;
                                }
                        }
                        of = r->exp;
                }
                r->reruns_elsewhere = elsewhere;
                if (r->missing[0] || r->res[0].verdict == VERIFY_NO_DATA)
                        continue;
                g_autoptr(GString) verdicts = g_string_new(NULL);
                for (guint d = 0; d < dirs->len; d++) {
                        VerifyResult res = { 0 };
                        g_autoptr(GError) e = NULL;
                        if (!verify_claim_run(r->claim, &g_array_index(runs, VerifyRun, d), &res, &e)) {
                                fprintf(stderr, "ipclab: verify: --reruns %s: %s\n", (char *) dirs->pdata[d],
                                        e->message);
                                verify_result_clear(&res);
                                return false;
                        }
                        r->reruns++;
                        r->reruns_same += res.verdict == r->res[0].verdict;
                        r->rerun_counts[res.verdict]++;
                        g_string_append_printf(verdicts, "%s%s", d ? "," : "", verify_verdict_name(res.verdict));
                        verify_result_clear(&res);
                }
                if (r->reruns)
                        r->rerun_verdicts = g_strdup(verdicts->str);
        }
        return true;
}

/* --reruns, after the table: per experiment the reruns and the verdicts
 * they share with this data, then every claim a rerun moved. */
static void print_reruns(const GArray *rows, const char *reruns)
{
        ClaimsRerunTally all;
        g_autoptr(GArray) per = claims_rerun_tally(rows, &all);

        printf("\nreruns of the same design on the same machine under %s/ (--reruns): verdicts as this data's\n",
               reruns);
        for (guint i = 0; i < per->len; i++) {
                const ClaimsRerunTally *t = &g_array_index(per, ClaimsRerunTally, i);
                if (t->reruns)
                        printf("  %-20s %u rerun%s  %u of %u\n", t->exp->name, t->reruns,
                               t->reruns == 1 ? " " : "s", t->same, t->verdicts);
        }
        if (all.elsewhere)
                printf("  (and %u rerun%s of these designs on another machine, not counted)\n", all.elsewhere,
                       all.elsewhere == 1 ? "" : "s");
        if (!all.verdicts) {
                printf("  (none: no rerun under %s/ has the design of these files on this data's machine)\n",
                       reruns);
                return;
        }
        printf("  %u reruns of %u experiments: %u of %u (%u%%)\n", all.reruns, all.experiments, all.same,
               all.verdicts, all.same * 100 / all.verdicts);
        printf("  any two runs, this data one of them: %u of %u pairs of verdicts the same (%u%%)\n",
               all.pairs_same, all.pairs, all.pairs_same * 100 / all.pairs);
        for (guint i = 0; i < rows->len; i++) {
                const ClaimsRow *r = &g_array_index(rows, ClaimsRow, i);
                if (r->reruns_same < r->reruns)
                        printf("  moved %s/%s: %s here; %s\n", r->exp->name, r->claim->name,
                               verify_verdict_name(r->res[0].verdict), r->rerun_verdicts);
        }
}

/* --require: what is short of the requirement, on every data set. */
static int required(const VerifyOpts *o, guint counts[2][4])
{
        bool holds = !strcmp(o->require, "holds");
        guint shortfall = 0;

        for (int k = 0; k < (o->repro ? 2 : 1); k++)
                shortfall += counts[k][VERIFY_INCONCLUSIVE] + counts[k][VERIFY_NO_DATA] +
                             (holds ? counts[k][VERIFY_FAILS] : 0);
        printf("required (--require %s): every claim %s%s: %s\n", o->require,
               holds ? "holds" : "decided (holds or fails)", o->repro ? ", on both" : "",
               shortfall ? "not met" : "met");
        return shortfall ? EXIT_FAILED : 0;
}

int verify_command(int argc, char **argv)
{
        g_auto(VerifyOpts) o = { 0 };
        int bad = verify_options(&o, &argc, &argv);
        if (bad)
                return bad;
        const char *data_dir = o.data ? o.data : "data";

        g_autoptr(GPtrArray) files = experiment_files(argc, argv);
        if (!files)
                return EXIT_USAGE;

        g_autoptr(GArray) rows = g_array_new(FALSE, TRUE, sizeof(ClaimsRow));
        g_array_set_clear_func(rows, (GDestroyNotify) row_clear);
        g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func(g_free);
        g_autoptr(GPtrArray) exps = g_ptr_array_new_with_free_func((GDestroyNotify) experiment_free);
        if (!load_rows(files, data_dir, o.repro, exps, rows, notes))
                return EXIT_USAGE;
        if (o.n_ns)
                return stability(rows, data_dir, o.ns, o.n_ns, (guint) o.draws, o.tsv);
        if ((o.latex || o.macros) && !rows_agreement(rows, data_dir))
                return EXIT_USAGE;
        if (o.reruns && !rows_reruns(rows, data_dir, o.reruns))
                return EXIT_USAGE;

        /* The table, its notes and the tally. */
        const char *which[] = { "this data", "reproduction" };
        print_table(rows, o.repro != NULL);

        guint counts[2][4] = { { 0 } };
        print_notes(rows, notes, o.show_pairs, counts);
        printf("\n");
        print_counts(which[0], counts[0]);
        if (o.repro)
                print_counts(which[1], counts[1]);
        if (o.reruns)
                print_reruns(rows, o.reruns);
        g_autofree char *lower = metric_claim_list_by(BETTER_LOWER);
        g_autofree char *higher = metric_claim_list_by(BETTER_HIGHER);
        printf("a ratio above 1 points the claim's way: slower/faster for times and costs (%s), faster/slower "
               "for rates (%s)\n", lower, higher);
        printf("holds: every pair's 95%% interval lies at or above BY; fails: some pair's 1 - 0.05/K interval "
               "lies wholly below BY (K pairs); inconclusive: neither; reversed: a pair's 95%% interval lies "
               "below 1; every interval is given with the coverage it reaches\n");

        int rc = write_files(&o, rows);
        if (rc)
                return rc;
        if (o.require)
                return required(&o, counts);
        return counts[0][VERIFY_FAILS] || counts[1][VERIFY_FAILS] ? EXIT_FAILED : 0;
}
