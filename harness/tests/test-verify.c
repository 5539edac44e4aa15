/* test-verify.c: claims evaluated on samples.tsv files with known ratios.
 *
 * The fixtures are written by samples_append_row(), the writer `ipclab run`
 * uses, so they have the real schema.  Exact cases (every repetition the
 * same) have exact ratios and intervals: 200 / 100 = 2 with [2, 2]; they
 * have 6 repetitions, the shipped minimum.  The noisy cases' expected
 * numbers come from an independent Python 3 implementation of the contract
 * in stats.h and verify.h, written from the comments: the ratio is the
 * median of all num/den ratios, the interval the k-th smallest and largest
 * of them with k from the Mann-Whitney distribution, found by enumerating
 * every one of the C(n+m, n) rank arrangements (itertools.combinations),
 * not by a recursion:
 *   pipe/fifo at 64 B, 5 and 5 values: 2.05 [1.7272727272727273,
 *   2.4444444444444446], coverage 244/252;
 *   at 4 KiB: 4.0 [3.6904761904761907, 4.342105263157895];
 *   both, at level 0.975 each: [1.7083333333333333, 2.5] and
 *   [3.658536585365854, 4.358974358974359]: the claim's interval
 *   [sqrt(1.70833 * 3.65854), sqrt(2.5 * 4.35897)] = [2.5, 3.3011264588676235],
 *   its ratio sqrt(2.05 * 4) = 2.8635642126552705. */
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "latex.h"
#include "placement.h"
#include "samples.h"
#include "stats.h"
#include "verify.h"
#include "transport.h"

static char *tmp_dir;

/* ---- Fixtures ------------------------------------------------------------ */

static Cell cell(const char *transport, guint64 size, Pattern pattern)
{
        Cell c = {
                .transport = transport, .bus = BUS_NONE, .payload = PAYLOAD_BYTES, .size = size,
                .pattern = pattern, .reply = REPLY_ECHO, .marshal = MARSHAL_ARRAY,
                .cpus = CPUS_NONE, .count = 100,
        };
        return c;
}

/* Appends one ok row per value of ELAPSED (N of them) for CELL: 100
 * messages of CELL's size; CPU costs and the median latency scale with the
 * elapsed time (cpu = elapsed / 2 per side, lat_p50 = elapsed / 100). */
static void rows(GString *out, const char *env, const Cell *c, const guint64 *elapsed, guint n)
{
        for (guint i = 0; i < n; i++) {
                Sample s = {
                        .elapsed_ns = elapsed[i], .client_cpu_ns = elapsed[i] / 2,
                        .server_cpu_ns = elapsed[i] / 2, .messages = 100, .bytes = 100 * c->size,
                };
                if (c->pattern != PATTERN_ONEWAY) {
                        s.lat_n = 100;
                        s.lat_min_ns = s.lat_p50_ns = s.lat_p90_ns = elapsed[i] / 100;
                        s.lat_p99_ns = s.lat_p999_ns = s.lat_max_ns = elapsed[i] / 100;
                }
                samples_append_row(out, env, "m1", c, i, &s);
        }
}

static void failed_row(GString *out, const Cell *c)
{
        Sample s = { .status = -ETIMEDOUT };
        g_strlcpy(s.why, "timed out", sizeof s.why);
        samples_append_row(out, "host", "m1", c, 99, &s);
}

static Table *table_of(GString *body, const char *name)
{
        g_autofree char *path = g_build_filename(tmp_dir, name, NULL);
        g_autofree char *text = g_strconcat(samples_header(), body->str, NULL);
        g_autoptr(GError) e = NULL;

        g_assert_true(g_file_set_contents(path, text, -1, NULL));
        Table *t = table_read(path, &e);
        g_assert_no_error(e);
        return t;
}

static Claim claim(const char *faster, const char *slower, const char *metric, const char *where,
                   double by)
{
        Claim c = {
                .name = (char *) "c", .text = (char *) "t", .faster = (char *) faster,
                .slower = (char *) slower, .metric = (char *) metric, .where = (char *) where,
                .by = by,
        };
        return c;
}

/* Evaluates and returns the verdict; *R holds the result. */
static VerifyVerdict eval(const Table *t, const char *faster, const char *slower, const char *metric,
                          const char *where, double by, VerifyResult *r)
{
        Claim c = claim(faster, slower, metric, where, by);
        g_autoptr(GError) e = NULL;

        gboolean ok = verify_claim_table(&c, t, "fixture", r, &e);
        g_assert_no_error(e);
        g_assert_true(ok);
        return r->verdict;
}

static const guint64 e100[] = { 100000, 100000, 100000, 100000, 100000, 100000 };
static const guint64 e200[] = { 200000, 200000, 200000, 200000, 200000, 200000 };
static const guint64 e800[] = { 800000, 800000, 800000, 800000, 800000, 800000 };
#define R 6

/* pipe 64 B: 100 us, fifo 64 B: 200 us; pipe 4 KiB: 100 us, fifo 4 KiB: 800 us. */
static Table *two_sizes(void)
{
        g_autoptr(GString) b = g_string_new(NULL);
        Cell p64 = cell("pipe", 64, PATTERN_ROUNDTRIP), f64 = cell("fifo", 64, PATTERN_ROUNDTRIP);
        Cell p4k = cell("pipe", 4096, PATTERN_ROUNDTRIP), f4k = cell("fifo", 4096, PATTERN_ROUNDTRIP);

        rows(b, "host", &p64, e100, R);
        rows(b, "host", &f64, e200, R);
        rows(b, "host", &p4k, e100, R);
        rows(b, "host", &f4k, e800, R);
        return table_of(b, "two-sizes.tsv");
}

/* ---- Tests --------------------------------------------------------------- */

static void test_verdict_rule(void)
{
        g_assert_cmpint(verify_verdict(2, 2, 1.5), ==, VERIFY_HOLDS);
        g_assert_cmpint(verify_verdict(2, 2, 2), ==, VERIFY_HOLDS);        /* lo >= by */
        g_assert_cmpint(verify_verdict(2, 2, 3), ==, VERIFY_FAILS);
        g_assert_cmpint(verify_verdict(1.4, 2.1, 2), ==, VERIFY_INCONCLUSIVE);
        g_assert_cmpint(verify_verdict(1.4, 2, 2), ==, VERIFY_INCONCLUSIVE); /* hi == by */
        g_assert_cmpint(verify_verdict(1.0, 1.99, 2), ==, VERIFY_FAILS);
        g_assert_cmpint(verify_verdict(NAN, NAN, 1), ==, VERIFY_NO_DATA);
        g_assert_cmpstr(verify_verdict_name(VERIFY_HOLDS), ==, "holds");
        g_assert_cmpstr(verify_verdict_name(VERIFY_FAILS), ==, "fails");
        g_assert_cmpstr(verify_verdict_name(VERIFY_INCONCLUSIVE), ==, "inconclusive");
        g_assert_cmpstr(verify_verdict_name(VERIFY_NO_DATA), ==, "no data");
}

static void test_exact(void)
{
        g_autoptr(Table) t = two_sizes();
        VerifyResult r;

        /* fifo / pipe at 64 B: 2, exactly, with the interval [2, 2]. */
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", "size=64", 1.5, &r), ==, VERIFY_HOLDS);
        g_assert_cmpfloat(r.ratio, ==, 2);
        g_assert_cmpfloat(r.lo, ==, 2);
        g_assert_cmpfloat(r.hi, ==, 2);
        g_assert_cmpuint(r.pairs->len, ==, 1);
        g_assert_cmpuint(r.min_reps, ==, R);
        verify_result_clear(&r);
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", "size=64", 3, &r), ==, VERIFY_FAILS);
        verify_result_clear(&r);
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", "size=64", 2, &r), ==, VERIFY_HOLDS);
        verify_result_clear(&r);
        /* The same claim turned round fails even at by = 1. */
        g_assert_cmpint(eval(t, "transport=fifo", "transport=pipe", "elapsed", "size=64", 1, &r), ==, VERIFY_FAILS);
        g_assert_cmpfloat(r.ratio, ==, 0.5);
        verify_result_clear(&r);

        /* Every metric points the same way here: higher-is-better ones
         * divide the faster cell's rate by the slower one's. */
        const char *metrics[] = { "roundtrip_latency", "elapsed", "cpu", "throughput" };
        for (guint i = 0; i < G_N_ELEMENTS(metrics); i++) {
                g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", metrics[i], "size<=64", 2, &r),
                                ==, VERIFY_HOLDS);
                g_assert_cmpfloat_with_epsilon(r.ratio, 2, 1e-12);
                g_assert_cmpfloat_with_epsilon(r.lo, 2, 1e-12);
                g_assert_cmpfloat_with_epsilon(r.hi, 2, 1e-12);
                verify_result_clear(&r);
        }
        /* callrate is measured by callrate cells only; there it points the
         * same way too. */
        g_autoptr(GString) cb = g_string_new(NULL);
        Cell pc = cell("pipe", 0, PATTERN_CALLRATE), fc = cell("fifo", 0, PATTERN_CALLRATE);
        rows(cb, "host", &pc, e100, R);
        rows(cb, "host", &fc, e200, R);
        g_autoptr(Table) ct = table_of(cb, "callrate.tsv");
        g_assert_cmpint(eval(ct, "transport=pipe", "transport=fifo", "callrate", NULL, 2, &r), ==, VERIFY_HOLDS);
        g_assert_cmpfloat_with_epsilon(r.ratio, 2, 1e-12);
        verify_result_clear(&r);
        /* Throughput of 4 KiB against 64 B pipe messages in the same
         * time: 64 times the bytes. */
        g_assert_cmpint(eval(t, "size=4KiB", "size=64", "throughput", NULL, 64, &r), ==, VERIFY_FAILS);
        /* ... pairs: pipe 4 KiB vs pipe 64 B (64), fifo 4 KiB vs fifo 64 B
         * (64 / 4 = 16): geometric mean 32, exactly, below 64. */
        g_assert_cmpfloat_with_epsilon(r.ratio, 32, 1e-9);
        verify_result_clear(&r);
}

static void test_geomean_and_where(void)
{
        g_autoptr(Table) t = two_sizes();
        VerifyResult r;

        /* Pairs 2 and 8: the geometric mean 4, not the average 5.  It
         * holds at 2, where both pairs do; at 4 the geometric mean would
         * (the rule before issue 9), but the pair of 2 lies below 4: it
         * fails (issue 22: one pair's 1 - 0.05/K interval below BY). */
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 2, &r), ==, VERIFY_HOLDS);
        g_assert_cmpuint(r.pairs->len, ==, 2);
        g_assert_cmpfloat_with_epsilon(r.ratio, 4, 1e-12);
        g_assert_cmpfloat_with_epsilon(r.hi, 4, 1e-12);
        verify_result_clear(&r);
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 4, &r), ==, VERIFY_FAILS);
        g_assert_cmpfloat_with_epsilon(r.ratio, 4, 1e-12);
        g_assert_cmpuint(r.clear, ==, 1);
        g_assert_nonnull(strstr(r.note, "1 of 2 pairs lie below 4 at 97.5%"));
        g_assert_cmpint(r.decisive, ==, 0);
        g_assert_cmpstr(g_array_index(r.pairs, VerifyPair, 0).label, ==, "64 B");
        verify_result_clear(&r);
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 4.5, &r), ==, VERIFY_FAILS);
        verify_result_clear(&r);
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", "size>=4KiB", 8, &r), ==, VERIFY_HOLDS);
        g_assert_cmpfloat(r.ratio, ==, 8);
        verify_result_clear(&r);
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", "size!=4096", 1, &r), ==, VERIFY_HOLDS);
        g_assert_cmpfloat(r.ratio, ==, 2);
        verify_result_clear(&r);
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", "size>1MiB", 1, &r), ==, VERIFY_NO_DATA);
        g_assert_true(isnan(r.ratio));
        g_assert_nonnull(strstr(r.note, "no measured cell matches faster=transport=pipe where size>1MiB"));
        verify_result_clear(&r);
        /* Selectors may carry units: size=4KiB is size_B 4096. */
        g_assert_cmpint(eval(t, "transport=pipe,size=4KiB", "transport=fifo,size=4096", "elapsed", NULL, 8, &r), ==, VERIFY_HOLDS);
        verify_result_clear(&r);
        /* Nothing matches the slower side. */
        g_assert_cmpint(eval(t, "transport=pipe", "transport=tcp", "elapsed", NULL, 1, &r), ==, VERIFY_NO_DATA);
        g_assert_nonnull(strstr(r.note, "no measured cell matches slower=transport=tcp"));
        verify_result_clear(&r);
}

static void test_pairing(void)
{
        g_autoptr(GString) b = g_string_new(NULL);
        Cell p64 = cell("pipe", 64, PATTERN_ROUNDTRIP), f64 = cell("fifo", 64, PATTERN_ROUNDTRIP);
        Cell p4k = cell("pipe", 4096, PATTERN_ROUNDTRIP), f4k = cell("fifo", 4096, PATTERN_ROUNDTRIP);

        rows(b, "host", &p64, e100, R);
        rows(b, "nspawn", &f64, e200, R);   /* another environment: no partner */
        rows(b, "host", &p4k, e100, R);
        rows(b, "host", &f4k, e800, R);
        g_autoptr(Table) t = table_of(b, "pairing.tsv");
        VerifyResult r;

        /* env is an axis neither selector names: pipe/64 in host has no
         * fifo/64 partner in host. */
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 8, &r), ==, VERIFY_HOLDS);
        g_assert_cmpuint(r.pairs->len, ==, 1);
        g_assert_cmpfloat(r.ratio, ==, 8);
        g_assert_nonnull(strstr(r.note, "1 faster cells without a slower partner"));
        verify_result_clear(&r);

        /* A cell in both sets is never compared with itself: pipe/64 vs
         * pipe/4K (1) and vs fifo/4K (8), pipe/4K vs fifo/4K (8). */
        g_assert_cmpint(eval(t, "transport=pipe", "size=4096", "elapsed", NULL, 1, &r), ==, VERIFY_HOLDS);
        g_assert_cmpuint(r.pairs->len, ==, 3);
        g_assert_cmpfloat_with_epsilon(r.ratio, 4, 1e-12);   /* (1 * 8 * 8)^(1/3) */
        g_assert_nonnull(strstr(r.note, "1 cells match both selectors"));
        VerifyPair *p = &g_array_index(r.pairs, VerifyPair, 0);
        g_assert_cmpstr(p->faster, ==, "pipe bytes 64 B roundtrip reply=echo count=100");
        g_assert_cmpstr(p->slower, ==, "pipe bytes 4 KiB roundtrip reply=echo count=100");
        /* What tells the pairs apart: the faster cell's size, and the
         * slower cell's transport where only it varies. */
        g_assert_cmpstr(p->label, ==, "64 B vs pipe");
        g_assert_cmpstr(g_array_index(r.pairs, VerifyPair, 2).label, ==, "4 KiB vs fifo");
        verify_result_clear(&r);
}

static void test_dash_values(void)
{
        g_autoptr(GString) b = g_string_new(NULL);
        Cell p = cell("pipe", 64, PATTERN_ONEWAY), f = cell("fifo", 64, PATTERN_ONEWAY);

        p.count = f.count = 0;
        p.duration_ns = f.duration_ns = 500000000;
        rows(b, "host", &p, e100, R);
        rows(b, "host", &f, e200, R);
        g_autoptr(Table) t = table_of(b, "oneway.tsv");
        VerifyResult r;

        /* bus "-" is none, reply "-" (one-way) is echo, as in the Cell. */
        g_assert_cmpint(eval(t, "transport=pipe,bus=none,reply=echo", "transport=fifo", "elapsed", NULL, 2, &r),
                        ==, VERIFY_HOLDS);
        verify_result_clear(&r);
        g_assert_cmpint(eval(t, "transport=pipe,reply=empty", "transport=fifo", "elapsed", NULL, 2, &r),
                        ==, VERIFY_NO_DATA);
        verify_result_clear(&r);
        /* duration=500ms selects duration_ns 500000000; count "-" is 0. */
        g_assert_cmpint(eval(t, "transport=pipe,duration=500ms,count=0", "transport=fifo", "elapsed", NULL, 2, &r),
                        ==, VERIFY_HOLDS);
        verify_result_clear(&r);
        /* A filter on count fails where count does not apply. */
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", "count>=0", 1, &r), ==, VERIFY_NO_DATA);
        verify_result_clear(&r);
        /* One-way cells have no latency: a claim on it is refused (it
         * was "no data" before issue 12). */
        g_autoptr(GError) e = NULL;
        Claim cl = claim("transport=pipe", "transport=fifo", "roundtrip_latency", NULL, 1);
        g_assert_false(verify_claim_table(&cl, t, "fixture", &r, &e));
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        g_assert_nonnull(strstr(e->message, "no cell it selects measures roundtrip_latency"));
        verify_result_clear(&r);
}

/* Cells a claim does not stand on: one whose fixed part (the one-message
 * window) is over 10% of its window is left out, and a pair on a cell
 * whose repetitions ran in two placements is named. */
static void test_fixed_and_placement(void)
{
        g_autoptr(GString) b = g_string_new(NULL);
        Cell p64 = cell("pipe", 64, PATTERN_ROUNDTRIP), f64 = cell("fifo", 64, PATTERN_ROUNDTRIP);
        Cell p4k = cell("pipe", 4096, PATTERN_ROUNDTRIP), f4k = cell("fifo", 4096, PATTERN_ROUNDTRIP);

        for (guint i = 0; i < R; i++) {
                const Cell *cs[] = { &p64, &f64, &p4k, &f4k };
                const guint64 el[] = { e100[i], e200[i], e100[i], e800[i] };
                for (guint k = 0; k < G_N_ELEMENTS(cs); k++) {
                        Sample s = { .elapsed_ns = el[k], .client_cpu_ns = el[k] / 2, .server_cpu_ns = el[k] / 2,
                                     .messages = 100, .bytes = 100 * cs[k]->size };
                        /* pipe 64 B: a fixed part of 20% of its window;
                         * fifo 4 KiB: 3 repetitions on one CPU, 3 on two. */
                        s.fixed_ns = k == 0 ? el[k] / 5 : el[k] / 100;
                        s.placement = k == 3 && i < 3 ? PLACEMENT_SAME : PLACEMENT_SPLIT;
                        samples_append_row(b, "host", "m1", cs[k], i, &s);
                }
        }
        g_autoptr(Table) t = table_of(b, "fixed.tsv");
        VerifyResult r;

        /* Only the 4 KiB pair is left: 8x. */
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 2, &r), ==, VERIFY_HOLDS);
        g_assert_cmpuint(r.pairs->len, ==, 1);
        g_assert_cmpfloat(r.ratio, ==, 8);
        g_assert_nonnull(strstr(r.note, "1 cells whose fixed part exceeds 10% of the window (up to 20%) left out"));
        g_assert_nonnull(strstr(r.note, "pairs on cells whose repetitions ran in several placements: fifo"));
        g_assert_nonnull(strstr(r.note, "(same:3,split:3)"));
        verify_result_clear(&r);
}

static void test_left_out(void)
{
        g_autoptr(GString) b = g_string_new(NULL);
        Cell p64 = cell("pipe", 64, PATTERN_ROUNDTRIP), f64 = cell("fifo", 64, PATTERN_ROUNDTRIP);
        Cell p4k = cell("pipe", 4096, PATTERN_ROUNDTRIP), f4k = cell("fifo", 4096, PATTERN_ROUNDTRIP);
        static const guint64 one[] = { 100000 }, zero[] = { 0, 0, 0, 0, 0, 0 };

        rows(b, "host", &p64, e100, R);
        failed_row(b, &p64);
        rows(b, "host", &f64, e200, R);
        failed_row(b, &f64);
        rows(b, "host", &p4k, zero, R);     /* too fast to measure: left out */
        rows(b, "host", &f4k, e800, R);
        g_autoptr(Table) t = table_of(b, "left-out.tsv");
        VerifyResult r;

        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 2, &r), ==, VERIFY_HOLDS);
        g_assert_cmpfloat(r.ratio, ==, 2);
        g_assert_nonnull(strstr(r.note, "2 failed repetitions left out"));
        g_assert_nonnull(strstr(r.note, "1 cells with a elapsed <= 0 left out"));
        verify_result_clear(&r);

        /* A single repetition gives no interval: at best inconclusive.
         * So do 3 and 3 (90% at most), which the old bootstrap let hold. */
        g_autoptr(GString) b1 = g_string_new(NULL);
        rows(b1, "host", &p64, one, 1);
        rows(b1, "host", &f64, e200, R);
        g_autoptr(Table) t1 = table_of(b1, "one-rep.tsv");
        g_assert_cmpint(eval(t1, "transport=pipe", "transport=fifo", "elapsed", NULL, 1.5, &r), ==, VERIFY_INCONCLUSIVE);
        g_assert_cmpfloat(r.ratio, ==, 2);
        g_assert_cmpuint(r.min_reps, ==, 1);
        g_assert_nonnull(strstr(r.note, "too few repetitions for a 95.0% interval"));
        verify_result_clear(&r);
        g_autoptr(GString) b3 = g_string_new(NULL);
        rows(b3, "host", &p64, e100, 3);
        rows(b3, "host", &f64, e200, 3);
        g_autoptr(Table) t3 = table_of(b3, "three-reps.tsv");
        g_assert_cmpint(eval(t3, "transport=pipe", "transport=fifo", "elapsed", NULL, 1.5, &r), ==, VERIFY_INCONCLUSIVE);
        g_assert_cmpfloat(r.ratio, ==, 2);
        g_assert_cmpfloat_with_epsilon(g_array_index(r.pairs, VerifyPair, 0).coverage, 0.9, 1e-12);
        verify_result_clear(&r);
}

static void test_noisy(void)
{
        g_autoptr(GString) b = g_string_new(NULL);
        Cell p64 = cell("pipe", 64, PATTERN_ROUNDTRIP), f64 = cell("fifo", 64, PATTERN_ROUNDTRIP);
        Cell p4k = cell("pipe", 4096, PATTERN_ROUNDTRIP), f4k = cell("fifo", 4096, PATTERN_ROUNDTRIP);
        static const guint64 pe[] = { 100, 120, 90, 110, 105 }, fe[] = { 210, 190, 250, 205, 220 };
        static const guint64 pk[] = { 400, 380, 420, 410, 390 }, fk[] = { 1700, 1500, 1600, 1650, 1550 };

        rows(b, "host", &p64, pe, 5);
        rows(b, "host", &f64, fe, 5);
        rows(b, "host", &p4k, pk, 5);
        rows(b, "host", &f4k, fk, 5);
        g_autoptr(Table) t = table_of(b, "noisy.tsv");
        VerifyResult r, again;

        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", "size=64", 1.5, &r), ==, VERIFY_HOLDS);
        g_assert_cmpfloat_with_epsilon(r.ratio, 2.05, 1e-12);
        g_assert_cmpfloat_with_epsilon(r.lo, 1.7272727272727273, 1e-12);
        g_assert_cmpfloat_with_epsilon(r.hi, 2.4444444444444446, 1e-12);
        VerifyPair *p = &g_array_index(r.pairs, VerifyPair, 0);
        g_assert_cmpfloat_with_epsilon(p->ratio, 2.05, 1e-12);
        g_assert_cmpfloat_with_epsilon(p->coverage, 244.0 / 252, 1e-12);
        g_assert_cmpuint(p->n_faster, ==, 5);
        verify_result_clear(&r);
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", "size=64", 2, &r), ==, VERIFY_INCONCLUSIVE);
        verify_result_clear(&r);

        /* Two pairs: each holds at 1.7, so the claim does; its interval is
         * the combined one. */
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 1.7, &r), ==, VERIFY_HOLDS);
        g_assert_cmpfloat_with_epsilon(r.ratio, 2.8635642126552705, 1e-12);
        g_assert_cmpfloat_with_epsilon(r.lo, 2.5, 1e-12);
        g_assert_cmpfloat_with_epsilon(r.hi, 3.3011264588676235, 1e-12);
        g_assert_cmpfloat_with_epsilon(g_array_index(r.pairs, VerifyPair, 1).lo, 3.6904761904761907, 1e-12);
        g_assert_cmpfloat_with_epsilon(g_array_index(r.pairs, VerifyPair, 1).hi, 4.342105263157895, 1e-12);
        /* Deterministic. */
        eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 1.7, &again);
        g_assert_cmpfloat(again.lo, ==, r.lo);
        g_assert_cmpfloat(again.hi, ==, r.hi);
        verify_result_clear(&r);
        verify_result_clear(&again);
        /* At 2.5 the geometric mean's interval [2.5, 3.30] would hold (the
         * old rule); the 64 B pair does not, and its 97.5% interval
         * [1.71, 2.5] does not lie below 2.5 either: inconclusive. */
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 2.5, &r), ==, VERIFY_INCONCLUSIVE);
        g_assert_nonnull(strstr(r.note, "1 of 2 pairs hold"));
        verify_result_clear(&r);
}

/* Issue 9, finding 4: a pair the other way round is not hidden by the
 * geometric mean.  pipe vs fifo: 0.8 at 64 B (fifo faster there), 4 at 4
 * KiB; the geometric mean 1.79 lies above 1, and the old rule said
 * "holds".  Since issue 22 the pair's 97.5% interval [0.8, 0.8], below 1,
 * fails the claim. */
static void test_reversed_pair(void)
{
        g_autoptr(GString) b = g_string_new(NULL);
        Cell p64 = cell("pipe", 64, PATTERN_ROUNDTRIP), f64 = cell("fifo", 64, PATTERN_ROUNDTRIP);
        Cell p4k = cell("pipe", 4096, PATTERN_ROUNDTRIP), f4k = cell("fifo", 4096, PATTERN_ROUNDTRIP);
        static const guint64 e125[] = { 125000, 125000, 125000, 125000, 125000, 125000 };
        static const guint64 e400[] = { 400000, 400000, 400000, 400000, 400000, 400000 };

        rows(b, "host", &p64, e125, R);
        rows(b, "host", &f64, e100, R);
        rows(b, "host", &p4k, e100, R);
        rows(b, "host", &f4k, e400, R);
        g_autoptr(Table) t = table_of(b, "reversed.tsv");
        VerifyResult r;

        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 1, &r), ==, VERIFY_FAILS);
        g_assert_cmpfloat_with_epsilon(r.ratio, sqrt(0.8 * 4), 1e-12);
        g_assert_cmpfloat(r.lo, >, 1);    /* the geometric mean says nothing */
        g_assert_nonnull(r.reversed);
        g_assert_nonnull(strstr(r.note, "reversed (the interval lies below 1): pipe bytes 64 B"));
        g_assert_nonnull(strstr(r.note, "vs fifo bytes 64 B roundtrip reply=echo count=100 0.80 [0.80, 0.80] 95.8%"));
        g_assert_null(strstr(r.note, "4 KiB"));
        VerifyPair *p0 = &g_array_index(r.pairs, VerifyPair, 0), *p1 = &g_array_index(r.pairs, VerifyPair, 1);
        g_assert_true(p0->reversed);
        g_assert_cmpint(p0->verdict, ==, VERIFY_FAILS);
        g_assert_false(p1->reversed);
        g_assert_cmpint(p1->verdict, ==, VERIFY_HOLDS);
        g_assert_cmpint(r.decisive, ==, 0);
        verify_result_clear(&r);
}

/* Issue 22: "fails" when one pair's 1 - 0.05/K interval lies wholly below
 * the factor.  A pair reversed at 95% whose 97.5% interval still reaches
 * 1 is named, and does not fail the claim.  pipe 64 B: 100..104 us, fifo
 * 64 B: 80, 85, 90, 95, 101.5 us: of the 25 ratios fifo/pipe two lie
 * above 1 (1.015 and 1.00495), the third is 0.995.  With 5 and 5 the 95%
 * interval is [r(3), r(23)] (coverage 1 - 2 * 4/252), the 97.5% one [r(2),
 * r(24)] (1 - 2 * 2/252).  The 4 KiB pair holds at 8. */
static void test_fails_rule(void)
{
        g_autoptr(GString) b = g_string_new(NULL);
        Cell p64 = cell("pipe", 64, PATTERN_ROUNDTRIP), f64 = cell("fifo", 64, PATTERN_ROUNDTRIP);
        Cell p4k = cell("pipe", 4096, PATTERN_ROUNDTRIP), f4k = cell("fifo", 4096, PATTERN_ROUNDTRIP);
        static const guint64 pe[] = { 100000, 101000, 102000, 103000, 104000 };
        static const guint64 fe[] = { 80000, 85000, 90000, 95000, 101500 };

        rows(b, "host", &p64, pe, 5);
        rows(b, "host", &f64, fe, 5);
        rows(b, "host", &p4k, e100, 5);
        rows(b, "host", &f4k, e800, 5);
        g_autoptr(Table) t = table_of(b, "fails-rule.tsv");
        VerifyResult r;

        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 1, &r), ==, VERIFY_INCONCLUSIVE);
        VerifyPair *p0 = &g_array_index(r.pairs, VerifyPair, 0);
        g_assert_true(p0->reversed);
        g_assert_cmpint(p0->verdict, ==, VERIFY_INCONCLUSIVE);
        g_assert_cmpfloat_with_epsilon(p0->hi, 101500.0 / 102000, 1e-12);
        g_assert_cmpfloat_with_epsilon(p0->coverage, 1 - 8.0 / 252, 1e-12);
        g_assert_cmpfloat_with_epsilon(p0->fail_hi, 101500.0 / 101000, 1e-12);
        g_assert_cmpfloat_with_epsilon(p0->fail_coverage, 1 - 4.0 / 252, 1e-12);
        g_assert_cmpfloat_with_epsilon(r.level_fails, 0.975, 1e-12);
        g_assert_nonnull(strstr(r.note, "reversed (the interval lies below 1): pipe bytes 64 B"));
        g_assert_cmpint(r.decisive, ==, 0);
        verify_result_clear(&r);

        /* The old rule on the same kind of claim: pairs 0.5 and 8, the
         * geometric mean of their 97.5% intervals [2, 2] lies above 1, so
         * it never failed; the pair of 0.5 fails it now. */
        g_autoptr(GString) b2 = g_string_new(NULL);
        rows(b2, "host", &p64, e200, R);
        rows(b2, "host", &f64, e100, R);
        rows(b2, "host", &p4k, e100, R);
        rows(b2, "host", &f4k, e800, R);
        g_autoptr(Table) t2 = table_of(b2, "fails-rule-2.tsv");
        g_assert_cmpint(eval(t2, "transport=pipe", "transport=fifo", "elapsed", NULL, 1, &r), ==, VERIFY_FAILS);
        g_assert_cmpfloat_with_epsilon(r.lo, 2, 1e-12);
        /* Each 97.5% interval of 6 and 6 reaches 1 - 2 * 7/924; the
         * combined one 1 - the sum of the misses. */
        g_assert_cmpfloat_with_epsilon(r.coverage, 1 - 2 * 14.0 / 924, 1e-12);
        verify_result_clear(&r);
}

/* ---- Sequential designs (repeat_until=decided) --------------------------- */

/* Replaying looks: the first look that decides gives the verdict,
 * whatever later repetitions show; a look some cell has not reached ends
 * the sequence.  pipe/fifo at 64 B: repetitions 0-4 give 2 (100 vs 200
 * us), 5-9 give 0.5. */
static void test_looks_replay(void)
{
        g_autoptr(GString) b = g_string_new(NULL);
        Cell p = cell("pipe", 64, PATTERN_ROUNDTRIP), f = cell("fifo", 64, PATTERN_ROUNDTRIP);
        static const guint64 pe[] = { 100000, 100000, 100000, 100000, 100000, 200000, 200000, 200000, 200000, 200000 };
        static const guint64 fe[] = { 200000, 200000, 200000, 200000, 200000, 100000, 100000, 100000, 100000, 100000 };
        rows(b, "host", &p, pe, 10);
        rows(b, "host", &f, fe, 10);
        g_autoptr(Table) t = table_of(b, "looks.tsv");
        Claim c = claim("transport=pipe", "transport=fifo", "elapsed", NULL, 1.5);
        VerifyResult r;
        g_autoptr(GError) e = NULL;

        /* One look at all ten: 2 and 0.5 mixed, inconclusive. */
        g_assert_true(verify_claim_table(&c, t, "looks", &r, &e));
        g_assert_cmpint(r.verdict, ==, VERIFY_INCONCLUSIVE);
        verify_result_clear(&r);
        /* Looks at 5 and 10, each at 97.5%: holds at look 1, on 5 and 5. */
        static const guint looks[] = { 5, 10, 20 };
        g_assert_true(verify_claim_table_looks(&c, t, "looks", looks, 2, 2, &r, &e));
        g_assert_cmpint(r.verdict, ==, VERIFY_HOLDS);
        g_assert_cmpuint(r.look, ==, 1);
        g_assert_cmpuint(r.look_reps, ==, 5);
        g_assert_cmpuint(r.min_reps, ==, 5);
        g_assert_cmpfloat_with_epsilon(r.level_holds, 0.975, 1e-12);
        g_assert_nonnull(strstr(r.note, "decided at look 1 of 2 (5 repetitions, each look at 97.5%)"));
        verify_result_clear(&r);
        /* Turned round (by 1.5, fifo faster): 0.5 at look 1 fails it. */
        Claim cr = claim("transport=fifo", "transport=pipe", "elapsed", NULL, 1.5);
        g_assert_true(verify_claim_table_looks(&cr, t, "looks", looks, 2, 2, &r, &e));
        g_assert_cmpint(r.verdict, ==, VERIFY_FAILS);
        g_assert_cmpuint(r.look, ==, 1);
        verify_result_clear(&r);
        /* Looks at 6, 10 and 20, by 1.2: look 1 on 6 and 6 has ratios 2, 1
         * and 0.5, its interval [1, 2] decides nothing; look 2 on all ten
         * neither; look 3 (20) is not reached: the sequence ends at look 2. */
        Claim cm = claim("transport=pipe", "transport=fifo", "elapsed", NULL, 1.2);
        static const guint late[] = { 6, 10, 20 };
        g_assert_true(verify_claim_table_looks(&cm, t, "looks", late, 3, 3, &r, &e));
        g_assert_cmpint(r.verdict, ==, VERIFY_INCONCLUSIVE);
        g_assert_cmpuint(r.look, ==, 2);
        g_assert_nonnull(strstr(r.note, "look 3 (20 repetitions) not reached"));
        verify_result_clear(&r);
}

/* Pairs decided apart: a pair decided at a look keeps that look's
 * verdict, whatever later repetitions of its cells show, and the others
 * go on.  Looks 5 and 10, pipe against fifo by 1.5.  At 64 B, repetitions
 * 0-4 give 2 and 5-9 give 0.5: the pair holds at look 1 and would be
 * undecided on all ten.  At 4 KiB, look 1 (pipe 100, 200, 100, 200, 100
 * us, fifo 150 us) decides nothing and look 2 (fifo 400 us from rep 5)
 * holds.  Deciding the claim as a whole at each look would leave it
 * undecided at look 2; pair by pair, it holds there. */
static void test_pairs_decided_apart(void)
{
        Cell p64 = cell("pipe", 64, PATTERN_ROUNDTRIP), f64 = cell("fifo", 64, PATTERN_ROUNDTRIP);
        Cell p4k = cell("pipe", 4096, PATTERN_ROUNDTRIP), f4k = cell("fifo", 4096, PATTERN_ROUNDTRIP);
        static const guint64 a[] = { 100000, 100000, 100000, 100000, 100000, 200000, 200000, 200000, 200000, 200000 };
        static const guint64 b[] = { 200000, 200000, 200000, 200000, 200000, 100000, 100000, 100000, 100000, 100000 };
        static const guint64 c[] = { 100000, 200000, 100000, 200000, 100000, 100000, 100000, 100000, 100000, 100000 };
        static const guint64 d[] = { 150000, 150000, 150000, 150000, 150000, 400000, 400000, 400000, 400000, 400000 };
        static const guint looks[] = { 5, 10 };
        Claim cl = claim("transport=pipe", "transport=fifo", "elapsed", NULL, 1.5);
        g_autoptr(GError) e = NULL;
        VerifyResult r;

        p64.index = 0, f64.index = 1, p4k.index = 2, f4k.index = 3;
        for (int stopped = 0; stopped < 2; stopped++) {
                /* STOPPED: the 64 B cells stopped at look 1, as a run
                 * stops them; the verdict is the same. */
                g_autoptr(GString) body = g_string_new(NULL);
                rows(body, "host", &p64, a, stopped ? 5 : 10);
                rows(body, "host", &f64, b, stopped ? 5 : 10);
                rows(body, "host", &p4k, c, 10);
                rows(body, "host", &f4k, d, 10);
                g_autoptr(Table) t = table_of(body, "apart.tsv");

                /* At look 1: the 64 B pair holds, the 4 KiB pair is open. */
                g_assert_true(verify_claim_table_looks(&cl, t, "apart", looks, 2, 1, &r, &e));
                g_assert_no_error(e);
                g_assert_cmpint(r.verdict, ==, VERIFY_INCONCLUSIVE);
                g_assert_cmpuint(r.pairs->len, ==, 2);
                const VerifyPair *small = &g_array_index(r.pairs, VerifyPair, 0);
                const VerifyPair *large = &g_array_index(r.pairs, VerifyPair, 1);
                g_assert_cmpint(small->verdict, ==, VERIFY_HOLDS);
                g_assert_cmpint(large->verdict, ==, VERIFY_INCONCLUSIVE);
                g_assert_cmpuint(large->look, ==, 1);
                g_assert_cmpuint(small->cell_faster, ==, 0);
                g_assert_cmpuint(small->cell_slower, ==, 1);
                g_assert_cmpuint(large->cell_faster, ==, 2);
                g_assert_cmpuint(large->cell_slower, ==, 3);
                verify_result_clear(&r);

                /* At look 2: the 64 B pair keeps look 1's numbers. */
                g_assert_true(verify_claim_table_looks(&cl, t, "apart", looks, 2, 2, &r, &e));
                g_assert_cmpint(r.verdict, ==, VERIFY_HOLDS);
                g_assert_cmpuint(r.look, ==, 2);
                small = &g_array_index(r.pairs, VerifyPair, 0);
                large = &g_array_index(r.pairs, VerifyPair, 1);
                g_assert_cmpuint(small->look, ==, 1);
                g_assert_cmpuint(small->n_faster, ==, 5);
                g_assert_cmpfloat(small->ratio, ==, 2);
                g_assert_cmpuint(large->look, ==, 2);
                g_assert_cmpuint(large->n_faster, ==, 10);
                g_assert_cmpint(large->verdict, ==, VERIFY_HOLDS);
                g_assert_nonnull(strstr(r.note, "1 of 2 pairs decided at an earlier look"));
                verify_result_clear(&r);
        }

        /* A pair whose cells stopped short of a look it was undecided at
         * keeps its last numbers and stays undecided; the claim cannot
         * hold, and the sequence ends when no undecided pair is left to
         * look at. */
        g_autoptr(GString) body = g_string_new(NULL);
        rows(body, "host", &p64, a, 10);
        rows(body, "host", &f64, b, 10);
        rows(body, "host", &p4k, c, 7);
        rows(body, "host", &f4k, d, 7);
        g_autoptr(Table) t = table_of(body, "short.tsv");
        g_assert_true(verify_claim_table_looks(&cl, t, "short", looks, 2, 2, &r, &e));
        g_assert_cmpint(r.verdict, ==, VERIFY_INCONCLUSIVE);
        g_assert_cmpuint(r.look, ==, 1);
        g_assert_nonnull(strstr(r.note, "look 2 (10 repetitions) not reached"));
        verify_result_clear(&r);
}

/* SIM claims over 2 pairs whose true ratios are exactly BY = 1 (lognormal
 * noise, sigma 0.2): any verdict is an error ("holds" needs every ratio
 * above, "fails" one below).  Each run draws 30 repetitions a cell and
 * looks at them in turn.  Returns the share of runs with a verdict.
 * LOOKS (N_LOOKS): the schedule; PER_LOOK_95: every look at 95%, the naive
 * rule (one look at a time, as a fixed design would be read), instead of
 * the sequential design's alpha/L. */
static double sequential_errors(guint64 seed, const guint *looks, guint n_looks, bool per_look_95, int sim)
{
        enum { N = 30 };
        StatsRng rng;
        Cell cells[4] = { cell("pipe", 64, PATTERN_ROUNDTRIP), cell("fifo", 64, PATTERN_ROUNDTRIP),
                          cell("pipe", 4096, PATTERN_ROUNDTRIP), cell("fifo", 4096, PATTERN_ROUNDTRIP) };
        Claim c = claim("transport=pipe", "transport=fifo", "elapsed", NULL, 1);
        int wrong = 0;

        stats_rng_init(&rng, seed);
        for (int s = 0; s < sim; s++) {
                g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func(g_free);
                for (guint k = 0; k < G_N_ELEMENTS(cells); k++)
                        for (guint i = 0; i < N; i++) {
                                double u1 = ((double) (stats_rng_next(&rng) >> 11) + 1) / 9007199254740993.0;
                                double u2 = (double) (stats_rng_next(&rng) >> 11) / 9007199254740992.0;
                                double z = sqrt(-2 * log(u1)) * cos(2 * G_PI * u2);
                                Sample smp = { .elapsed_ns = (guint64) (1e6 * exp(0.2 * z)), .messages = 100,
                                               .bytes = 100 * cells[k].size, .client_cpu_ns = 1, .server_cpu_ns = 1,
                                               .lat_n = 1, .lat_p50_ns = 1 };
                                GString *row = g_string_new(NULL);
                                samples_append_row(row, "host", "m1", &cells[k], i, &smp);
                                g_ptr_array_add(lines, g_string_free(row, FALSE));
                        }
                g_autoptr(Table) t = verify_rows_table(lines);
                bool decided = false;
                if (per_look_95) {
                        for (guint j = 0; j < n_looks && !decided; j++) {
                                VerifyResult r;
                                g_assert_true(verify_claim_table_looks(&c, t, "sim", &looks[j], 1, 1, &r, NULL));
                                decided = r.verdict == VERIFY_HOLDS || r.verdict == VERIFY_FAILS;
                                verify_result_clear(&r);
                        }
                } else {
                        VerifyResult r;
                        g_assert_true(verify_claim_table_looks(&c, t, "sim", looks, n_looks, n_looks, &r, NULL));
                        decided = r.verdict == VERIFY_HOLDS || r.verdict == VERIFY_FAILS;
                        verify_result_clear(&r);
                }
                wrong += decided;
        }
        return (double) wrong / sim;
}

/* Issue 22: the sequential design keeps the family-wise error at or below
 * 5% however the run stops; reading every look at 95% (stopping as soon
 * as a claim looks decided: optional stopping) does not.  A fixed seed:
 * the same numbers every time. */
static void test_sequential_error(void)
{
        static const guint looks[] = { 5, 10, 20, 30 };
        static const guint every[] = { 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                       21, 22, 23, 24, 25, 26, 27, 28, 29, 30 };
        int sim = g_test_slow() ? 4000 : 600;

        double seq = sequential_errors(22, looks, G_N_ELEMENTS(looks), false, sim);
        double naive = sequential_errors(22, every, G_N_ELEMENTS(every), true, sim);
        double naive4 = sequential_errors(22, looks, G_N_ELEMENTS(looks), true, sim);
        if (g_test_verbose())
                g_printerr("# %d runs, 2 pairs at the boundary: wrong verdicts %.4f with looks 5;10;20;30 at "
                           "alpha/4 each, %.4f at 95%% at each of those looks, %.4f at 95%% after every "
                           "repetition from 5 to 30\n", sim, seq, naive4, naive);
        g_assert_cmpfloat(seq, <=, 0.05);
        g_assert_cmpfloat(naive, >, 0.05);
        g_assert_cmpfloat(naive, >, 2 * seq);
}

/* Coverages are printed as reached, rounded down. */
static void test_format_coverage(void)
{
        static const struct {
                double c;
                const char *s;
        } cases[] = {
                { 0.9589, "95.8%" }, { 0.942, "94.2%" }, { 0.95, "95.0%" }, { 0.94999, "94.9%" },
                { 0.997835, "99.78%" }, { 0.998148, "99.81%" }, { 0.9, "90.0%" },
        };
        for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
                g_autofree char *s = verify_format_coverage(cases[i].c, false);
                g_assert_cmpstr(s, ==, cases[i].s);
        }
        g_autofree char *l = verify_format_coverage(0.9589, true);
        g_assert_cmpstr(l, ==, "95.8\\,\\%");
}

/* Loads TEXT as x/NAME.ini (with PROFILE); NULL with *E on a refusal. */
static Experiment *load(const char *name, const char *text, const char *profile, GError **e)
{
        g_autofree char *file = g_strdup_printf("x/%s.ini", name);
        return experiment_load_data(file, text, strlen(text), profile, e);
}

/* Issues 12 and 22: claims that cannot mean anything, or cannot be
 * decided with the repetitions the file gives, are refused when the file
 * is loaded (check, run and verify alike), at FILE:LINE: [claim c] KEY. */
static void test_claim_check(void)
{
        static const char head[] = "[experiment]\ntitle=t\ntransport=pipe;fifo\nsize=64;4KiB\n"
                                   "pattern=roundtrip\ncount=100\nenv=host;nspawn\n\n[claim c]\ntext=t\n";
        static const struct {
                const char *claim, *where, *what;
        } bad[] = {
                { "faster=transport=pipe\nslower=transport=fifo\nmetric=callrate\n", "x/check.ini:13: [claim c] metric: ",
                  "no cell that faster=transport=pipe selects measures callrate" },
                { "faster=size=64\nslower=size=64B\nmetric=elapsed\n", "x/check.ini:12: [claim c] slower: ",
                  "selects the same cells" },
                { "faster=transport=pipe\nslower=transport=fifo\nmetric=elapsed\nwhere=size>=1MiB\n",
                  "x/check.ini:14: [claim c] where: ", "keeps none of the cells" },
                { "faster=size=4KiB\nslower=size=64\nmetric=elapsed\nwhere=size>=1KiB\n", "x/check.ini:14: [claim c] where: ",
                  "'size>=1KiB' keeps none of the cells slower=size=64 selects" },
        };
        for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
                g_autoptr(GError) e = NULL;
                g_autofree char *text = g_strconcat(head, bad[i].claim, NULL);
                g_autoptr(Experiment) exp = load("check", text, NULL, &e);
                g_assert_null(exp);
                g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
                if (!g_str_has_prefix(e->message, bad[i].where) || !strstr(e->message, bad[i].what))
                        g_error("case %u: '%s'", i, e->message);
                g_assert_null(strchr(e->message, '\n'));   /* one mistake, one line */
        }
        g_autoptr(GError) e = NULL;
        g_autofree char *ok = g_strconcat(head, "faster=transport=pipe\nslower=transport=fifo\nmetric=elapsed\n"
                                          "where=size>=4KiB\n", NULL);
        g_autoptr(Experiment) exp = load("ok", ok, NULL, &e);
        g_assert_no_error(e);
        VerifyDesign d;
        const char *key = NULL;
        g_assert_true(verify_claim_design(exp, exp->claims->pdata[0], &d, &key, &e));
        g_assert_no_error(e);
        /* One size, two environments: two pairs; 5 repetitions (the
         * default) reach 99.2%, enough for 95% and for 97.5%. */
        g_assert_cmpuint(d.pairs, ==, 2);
        g_assert_cmpuint(d.reps, ==, 5);
        g_assert_cmpuint(d.need_holds, ==, 4);
        g_assert_cmpuint(d.need_fails, ==, 5);
        g_assert_true(d.can_hold && d.can_fail);
        g_assert_null(verify_design_refusal(&d));

        /* Two places named by the claim pair with each other, size by size
         * (once the refusal of a claim across env=); a place a profile
         * leaves out, env=vm here, is kept with no data, as an
         * unavailable transport is (without a profile it is refused:
         * the corpus's claim-env-not-run.ini). */
        static const char *const places[] = {
                "faster=env=host,transport=pipe\nslower=env=nspawn,transport=pipe\nmetric=elapsed\n",
                "faster=env=host,transport=pipe\nslower=env=vm,transport=pipe\nmetric=elapsed\n"
                "[profile p]\nenv=host;nspawn\n",
        };
        for (guint i = 0; i < G_N_ELEMENTS(places); i++) {
                g_autoptr(GError) pe = NULL;
                g_autofree char *text = g_strconcat(head, places[i], NULL);
                g_autoptr(Experiment) pexp = load("places", text, i ? "p" : NULL, &pe);
                g_assert_no_error(pe);
                VerifyDesign pd;
                g_assert_true(verify_claim_design(pexp, pexp->claims->pdata[0], &pd, &key, &pe));
                g_assert_cmpuint(pd.pairs, ==, i == 0 ? 2 : 0);
        }

        /* And on the data: callrate of round-trip cells is no call rate
         * (the old code reported "fails 0.51 [0.41, 0.66]"). */
        g_autoptr(Table) t = two_sizes();
        VerifyResult r;
        Claim cr = claim("transport=pipe", "transport=fifo", "callrate", NULL, 1);
        g_assert_false(verify_claim_table(&cr, t, "fixture", &r, &e));
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        g_assert_nonnull(strstr(e->message, "measures callrate"));
}

/* Issue 22: a claim the file's repetitions cannot decide is refused, at
 * its group's line, saying what would let it; a profile is exempt. */
static void test_claim_power(void)
{
        static const char claim3[] = "[experiment]\ntitle=t\ntransport=pipe;fifo\nsize=64;4KiB\ncount=100\n"
                                     "repeat=3\n\n[claim c]\ntext=t\nfaster=transport=pipe\n"
                                     "slower=transport=fifo\nmetric=elapsed\n";
        g_autoptr(GError) e = NULL;
        g_autoptr(Experiment) exp = load("three", claim3, NULL, &e);
        g_assert_null(exp);
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        g_assert_true(g_str_has_prefix(e->message, "x/three.ini:8: [claim c]: cannot be decided with 3 repetitions "
                                                   "a cell (3 and 3 reach 90.0%)"));
        g_assert_nonnull(strstr(e->message, "give the cells 5"));
        g_clear_error(&e);

        /* 27 pairs (9 sizes, 3 counts) with 6 repetitions: 1 - 0.05/27 =
         * 99.81% is out of reach of 6 and 6 (99.78%): it can hold, never
         * fail. */
        static const char claim27[] = "[experiment]\ntitle=t\ntransport=pipe;fifo\n"
                                      "size=1;2;4;8;16;32;64;128;256\ncount=10;20;30\nrepeat=6\n"
                                      "[profile quick]\nrepeat=2\n"
                                      "[claim c]\ntext=t\nfaster=transport=pipe\nslower=transport=fifo\n"
                                      "metric=elapsed\n";
        g_autoptr(Experiment) e27 = load("many", claim27, NULL, &e);
        g_assert_null(e27);
        g_assert_true(g_str_has_prefix(e->message, "x/many.ini:9: [claim c]: cannot fail with 6 repetitions a cell "
                                                   "(6 and 6 reach 99.78%): failing needs one of its 27 pairs' "
                                                   "intervals at 1 - 0.05/27 = 99.81%, 7 repetitions a side"));
        g_clear_error(&e);
        /* With 7 it loads. */
        g_autofree char *seven = g_strdup(claim27);
        *strstr(seven, "repeat=6") = '\0';
        g_autofree char *text7 = g_strconcat(seven, "repeat=7", strstr(claim27, "repeat=6") + 8, NULL);
        g_autoptr(Experiment) e7 = load("many", text7, NULL, &e);
        g_assert_no_error(e);
        g_assert_nonnull(e7);
        /* A profile is exempt: its verdicts are informative only. */
        g_autoptr(Experiment) q = load("many", claim27, "quick", &e);
        g_assert_no_error(e);
        g_assert_nonnull(q);
        VerifyDesign d;
        const char *key;
        g_assert_true(verify_claim_design(q, q->claims->pdata[0], &d, &key, &e));
        g_assert_cmpuint(d.pairs, ==, 27);
        g_assert_cmpuint(d.reps, ==, 2);
        g_assert_false(d.can_hold);
        g_assert_false(d.can_fail);
        g_autofree char *why = verify_design_refusal(&d);
        g_assert_nonnull(why);

        /* repeat_until=decided: the schedule is repeat_min, doubling, up to
         * repeat_max; the claim must be decidable at its last look, each
         * look at alpha/L. */
        static const char seq[] = "[experiment]\ntitle=t\ntransport=pipe;fifo\nsize=64;4KiB\ncount=10\n"
                                  "repeat=auto\nrepeat_until=decided\n"
                                  "[claim c]\ntext=t\nfaster=transport=pipe\nslower=transport=fifo\nmetric=elapsed\n";
        g_autoptr(Experiment) es = load("seq", seq, NULL, &e);
        g_assert_no_error(e);
        g_assert_true(es->repeat_decide);
        g_assert_cmpuint(es->n_looks, ==, 4);
        static const guint want[] = { 5, 10, 20, 30 };
        for (guint i = 0; i < 4; i++)
                g_assert_cmpuint(es->looks[i], ==, want[i]);
        g_assert_true(verify_claim_design(es, es->claims->pdata[0], &d, &key, &e));
        g_assert_cmpuint(d.looks, ==, 4);
        g_assert_cmpuint(d.reps, ==, 30);
        g_assert_cmpfloat_with_epsilon(d.level_holds, 1 - 0.05 / 4, 1e-12);
        g_assert_cmpfloat_with_epsilon(d.level_fails, 1 - 0.05 / 8, 1e-12);
        /* A cell is over the claim when either side selects it. */
        g_assert_true(verify_claim_covers(es->claims->pdata[0], es->cells->pdata[0]));

        /* Claims across machines pair cells of two machines: every cell. */
        static const char machines[] = "[experiment]\ntitle=t\ntransport=pipe\nsize=64;4KiB\ncount=10\n"
                                       "[claim c]\ntext=t\nfaster=machine=a\nslower=machine=b\nmetric=elapsed\n";
        g_autoptr(Experiment) em = load("machines", machines, NULL, &e);
        g_assert_no_error(e);
        g_assert_true(verify_claim_design(em, em->claims->pdata[0], &d, &key, &e));
        g_assert_cmpuint(d.pairs, ==, 2);
}

static void test_macros(void)
{
        static const char *const names[][2] = {
                { "array-beats-per-element", "ArrayBeatsPerElement" },
                { "p2p-saves-per-ping", "PTwoPSavesPerPing" },
                { "strings_cost.more", "StringsCostMore" },
        };
        for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
                g_autofree char *n = latex_macro_name(names[i][0]);
                g_assert_cmpstr(n, ==, names[i][1]);
        }
        /* The paper's format, worked by hand. */
        static const struct {
                double x;
                const char *s;
        } nums[] = {
                { 1.2345, "1.23" }, { 0.8567, "0.857" }, { 12.345, "12.3" }, { 99.96, "100" },
                { 123.4, "123" }, { 0.012345, "0.0123" }, { 0, "0" }, { 12345.6, "12\\,346" },
                { 1234, "1234" }, { -2.5, "-2.50" },
        };
        for (guint i = 0; i < G_N_ELEMENTS(nums); i++) {
                g_autofree char *s = verify_format_number(nums[i].x);
                g_assert_cmpstr(s, ==, nums[i].s);
        }
        g_autofree char *nan = verify_format_number(NAN);
        g_assert_cmpstr(nan, ==, "--");
}

static void test_bad_input(void)
{
        g_autoptr(GError) e = NULL;
        VerifyResult r;

        /* A samples file without a column the metric needs. */
        g_autofree char *path = g_build_filename(tmp_dir, "short.tsv", NULL);
        g_assert_true(g_file_set_contents(path, "transport\tstatus\nx\tok\n", -1, NULL));
        g_autoptr(Table) t = table_read(path, &e);
        g_assert_no_error(e);
        Claim c = claim("transport=pipe", "transport=fifo", "elapsed", NULL, 1);
        g_assert_false(verify_claim_table(&c, t, path, &r, &e));
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        g_assert_nonnull(strstr(e->message, "no column"));
        verify_result_clear(&r);
        g_clear_error(&e);

        /* A malformed filter or selector. */
        g_autoptr(Table) good = two_sizes();
        Claim cw = claim("transport=pipe", "transport=fifo", "elapsed", "size>>1", 1);
        g_assert_false(verify_claim_table(&cw, good, "fixture", &r, &e));
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        verify_result_clear(&r);
        g_clear_error(&e);
        Claim cs = claim("transport", "transport=fifo", "elapsed", NULL, 1);
        g_assert_false(verify_claim_table(&cs, good, "fixture", &r, &e));
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        verify_result_clear(&r);
        g_clear_error(&e);

        /* A directory without samples.tsv: no data, not an error. */
        g_assert_true(verify_claim_dir(&c, tmp_dir, &r, &e));
        g_assert_no_error(e);
        g_assert_cmpint(r.verdict, ==, VERIFY_NO_DATA);
        g_assert_nonnull(strstr(r.note, "does not exist"));
        verify_result_clear(&r);
}

int main(int argc, char **argv)
{
        g_test_init(&argc, &argv, NULL);
        transports_install(&transport_ops);
        experiment_install_claim_check(verify_claim_check);
        tmp_dir = g_dir_make_tmp("test-verify-XXXXXX", NULL);
        g_assert_nonnull(tmp_dir);
        g_test_add_func("/verify/verdict-rule", test_verdict_rule);
        g_test_add_func("/verify/exact", test_exact);
        g_test_add_func("/verify/geomean-and-where", test_geomean_and_where);
        g_test_add_func("/verify/pairing", test_pairing);
        g_test_add_func("/verify/dash-values", test_dash_values);
        g_test_add_func("/verify/left-out", test_left_out);
        g_test_add_func("/verify/fixed-and-placement", test_fixed_and_placement);
        g_test_add_func("/verify/noisy", test_noisy);
        g_test_add_func("/verify/reversed-pair", test_reversed_pair);
        g_test_add_func("/verify/fails-rule", test_fails_rule);
        g_test_add_func("/verify/format-coverage", test_format_coverage);
        g_test_add_func("/verify/looks-replay", test_looks_replay);
        g_test_add_func("/verify/sequential-error", test_sequential_error);
        g_test_add_func("/verify/pairs-decided-apart", test_pairs_decided_apart);
        g_test_add_func("/verify/claim-check", test_claim_check);
        g_test_add_func("/verify/claim-power", test_claim_power);
        g_test_add_func("/verify/macros", test_macros);
        g_test_add_func("/verify/bad-input", test_bad_input);
        int r = g_test_run();
        g_autoptr(GDir) d = g_dir_open(tmp_dir, 0, NULL);
        const char *name;
        while (d && (name = g_dir_read_name(d))) {
                g_autofree char *p = g_build_filename(tmp_dir, name, NULL);
                g_unlink(p);
        }
        g_rmdir(tmp_dir);
        g_free(tmp_dir);
        return r;
}
