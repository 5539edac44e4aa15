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

#include "samples.h"
#include "verify.h"

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
         * (the old rule), but the pair of 2 does not: inconclusive. */
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 2, &r), ==, VERIFY_HOLDS);
        g_assert_cmpuint(r.pairs->len, ==, 2);
        g_assert_cmpfloat_with_epsilon(r.ratio, 4, 1e-12);
        g_assert_cmpfloat_with_epsilon(r.hi, 4, 1e-12);
        verify_result_clear(&r);
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 4, &r), ==, VERIFY_INCONCLUSIVE);
        g_assert_cmpfloat_with_epsilon(r.ratio, 4, 1e-12);
        g_assert_nonnull(strstr(r.note, "1 of 2 pairs hold"));
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
        g_assert_cmpstr(p->faster, ==, "pipe bytes 64B roundtrip reply=echo count=100");
        g_assert_cmpstr(p->slower, ==, "pipe bytes 4096B roundtrip reply=echo count=100");
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
        g_assert_nonnull(strstr(r.note, "too few repetitions for a 95% interval"));
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
         * old rule); the 64 B pair does not: inconclusive. */
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 2.5, &r), ==, VERIFY_INCONCLUSIVE);
        g_assert_nonnull(strstr(r.note, "1 of 2 pairs hold"));
        verify_result_clear(&r);
}

/* Issue 9, finding 4: a pair the other way round is not hidden by the
 * geometric mean.  pipe vs fifo: 0.8 at 64 B (fifo faster there), 4 at 4
 * KiB; the geometric mean 1.79 lies above 1, and the old rule said
 * "holds". */
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

        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 1, &r), ==, VERIFY_INCONCLUSIVE);
        g_assert_cmpfloat_with_epsilon(r.ratio, sqrt(0.8 * 4), 1e-12);
        g_assert_cmpfloat(r.lo, >, 1);
        g_assert_nonnull(r.reversed);
        g_assert_nonnull(strstr(r.note, "reversed (the interval lies below 1): pipe bytes 64B"));
        g_assert_nonnull(strstr(r.note, "vs fifo bytes 64B roundtrip reply=echo count=100 0.80 [0.80, 0.80]"));
        g_assert_null(strstr(r.note, "4096B"));
        VerifyPair *p0 = &g_array_index(r.pairs, VerifyPair, 0), *p1 = &g_array_index(r.pairs, VerifyPair, 1);
        g_assert_true(p0->reversed);
        g_assert_cmpint(p0->verdict, ==, VERIFY_FAILS);
        g_assert_false(p1->reversed);
        g_assert_cmpint(p1->verdict, ==, VERIFY_HOLDS);
        verify_result_clear(&r);
}

/* Issue 12: claims that cannot mean anything are refused before any data
 * is read, naming file, group and key. */
static void test_claim_check(void)
{
        static const char head[] = "[experiment]\ntitle=t\ntransport=pipe;fifo\nsize=64;4KiB\n"
                                   "pattern=roundtrip\ncount=100\n\n[claim c]\ntext=t\n";
        static const struct {
                const char *claim, *key, *what;
        } bad[] = {
                { "faster=transport=pipe\nslower=transport=fifo\nmetric=callrate\n", "metric",
                  "no cell that faster=transport=pipe selects measures callrate" },
                { "faster=size=64\nslower=size=64B\nmetric=elapsed\n", "slower", "selects the same cells" },
                { "faster=transport=pipe\nslower=transport=fifo\nmetric=elapsed\nwhere=size>=1MiB\n", "where",
                  "keeps none of the cells" },
                { "faster=size=4KiB\nslower=size=64\nmetric=elapsed\nwhere=size>=1KiB\n", "where",
                  "'size>=1KiB' keeps none of the cells slower=size=64 selects" },
        };
        for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
                g_autoptr(GError) e = NULL;
                g_autofree char *text = g_strconcat(head, bad[i].claim, NULL);
                g_autoptr(Experiment) exp = experiment_load_data("x/check.ini", text, strlen(text), NULL, &e);
                g_assert_no_error(e);
                g_assert_false(verify_claim_check(exp, exp->claims->pdata[0], &e));
                g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
                g_autofree char *want = g_strdup_printf("x/check.ini: [claim c] %s: ", bad[i].key);
                g_assert_true(g_str_has_prefix(e->message, want));
                g_assert_nonnull(strstr(e->message, bad[i].what));
        }
        g_autoptr(GError) e = NULL;
        g_autofree char *ok = g_strconcat(head, "faster=transport=pipe\nslower=transport=fifo\nmetric=elapsed\n"
                                          "where=size>=4KiB\n", NULL);
        g_autoptr(Experiment) exp = experiment_load_data("x/ok.ini", ok, strlen(ok), NULL, &e);
        g_assert_no_error(e);
        g_assert_true(verify_claim_check(exp, exp->claims->pdata[0], &e));
        g_assert_no_error(e);

        /* And on the data: callrate of round-trip cells is no call rate
         * (the old code reported "fails 0.51 [0.41, 0.66]"). */
        g_autoptr(Table) t = two_sizes();
        VerifyResult r;
        Claim cr = claim("transport=pipe", "transport=fifo", "callrate", NULL, 1);
        g_assert_false(verify_claim_table(&cr, t, "fixture", &r, &e));
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        g_assert_nonnull(strstr(e->message, "measures callrate"));
        verify_result_clear(&r);
}

static void test_macros(void)
{
        static const char *const names[][2] = {
                { "array-beats-per-element", "ArrayBeatsPerElement" },
                { "p2p-saves-per-ping", "PTwoPSavesPerPing" },
                { "strings_cost.more", "StringsCostMore" },
        };
        for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
                g_autofree char *n = verify_macro_name(names[i][0]);
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
        tmp_dir = g_dir_make_tmp("test-verify-XXXXXX", NULL);
        g_assert_nonnull(tmp_dir);
        g_test_add_func("/verify/verdict-rule", test_verdict_rule);
        g_test_add_func("/verify/exact", test_exact);
        g_test_add_func("/verify/geomean-and-where", test_geomean_and_where);
        g_test_add_func("/verify/pairing", test_pairing);
        g_test_add_func("/verify/dash-values", test_dash_values);
        g_test_add_func("/verify/left-out", test_left_out);
        g_test_add_func("/verify/noisy", test_noisy);
        g_test_add_func("/verify/reversed-pair", test_reversed_pair);
        g_test_add_func("/verify/claim-check", test_claim_check);
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
