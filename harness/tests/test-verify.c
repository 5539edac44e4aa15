/* test-verify.c: claims evaluated on samples.tsv files with known ratios.
 *
 * The fixtures are written by samples_append_row(), the writer `ipclab run`
 * uses, so they have the real schema.  Exact cases (every repetition the
 * same) have exact ratios and intervals: 200 / 100 = 2 with [2, 2].  The
 * noisy cases' expected numbers come from an independent Python 3
 * implementation of the contract in stats.h (the one described in
 * test-stats.c), fed the same values:
 *   boot([[100,120,90,110,105], [210,190,250,205,220]], [(1,0)], 2000, 0.95,
 *        12345) = (2.0, 1.7272727272727273, 2.4444444444444446)
 *   boot([... the two above, [400,380,420], [1700,1500,1600,1650]],
 *        [(1,0), (3,2)], 2000, 0.95, 777)
 *        = (2.850438562747845, 2.6111648393354674, 3.1576510627233856)
 * and the FNV-1a hash of "fixture/noisy" = 5114110668857740327 likewise. */
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
                samples_append_row(out, env, c, i, &s);
        }
}

static void failed_row(GString *out, const Cell *c)
{
        Sample s = { .status = -ETIMEDOUT };
        g_strlcpy(s.why, "timed out", sizeof s.why);
        samples_append_row(out, "host", c, 99, &s);
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
                          const char *where, double by, guint64 seed, VerifyResult *r)
{
        Claim c = claim(faster, slower, metric, where, by);
        g_autoptr(GError) e = NULL;

        g_assert_true(verify_claim_table(&c, t, "fixture", seed, r, &e));
        g_assert_no_error(e);
        return r->verdict;
}

static const guint64 e100[] = { 100000, 100000, 100000 };
static const guint64 e200[] = { 200000, 200000, 200000 };
static const guint64 e800[] = { 800000, 800000, 800000 };

/* pipe 64 B: 100 us, fifo 64 B: 200 us; pipe 4 KiB: 100 us, fifo 4 KiB: 800 us. */
static Table *two_sizes(void)
{
        g_autoptr(GString) b = g_string_new(NULL);
        Cell p64 = cell("pipe", 64, PATTERN_ROUNDTRIP), f64 = cell("fifo", 64, PATTERN_ROUNDTRIP);
        Cell p4k = cell("pipe", 4096, PATTERN_ROUNDTRIP), f4k = cell("fifo", 4096, PATTERN_ROUNDTRIP);

        rows(b, "host", &p64, e100, 3);
        rows(b, "host", &f64, e200, 3);
        rows(b, "host", &p4k, e100, 3);
        rows(b, "host", &f4k, e800, 3);
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
        g_assert_cmpuint(verify_claim_seed("fixture", "noisy"), ==, UINT64_C(5114110668857740327));
}

static void test_where_parse(void)
{
        const char *good[] = { "size>=4096", "size >= 4KiB", "count<1000,duration!=500ms",
                               "size=64", "size<=1MiB, size>64", "duration>1s", "", NULL };
        const char *bad[] = { "size>>4", "speed>1", "transport=pipe", "size>=4kb", "size>=",
                              ">=4", "size", "count<1.5", "size>=4096,", "size=>4096" };

        for (guint i = 0; i < G_N_ELEMENTS(good); i++) {
                g_autoptr(GError) e = NULL;
                g_autoptr(VerifyWhere) w = verify_where_parse(good[i], &e);
                g_assert_no_error(e);
                g_assert_nonnull(w);
        }
        for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
                g_autoptr(GError) e = NULL;
                g_autoptr(VerifyWhere) w = verify_where_parse(bad[i], &e);
                g_assert_null(w);
                g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
                g_assert_nonnull(strstr(e->message, bad[i]));
        }
}

static void test_exact(void)
{
        g_autoptr(Table) t = two_sizes();
        VerifyResult r;

        /* fifo / pipe at 64 B: 2, exactly, with the interval [2, 2]. */
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", "size=64", 1.5, 1, &r), ==, VERIFY_HOLDS);
        g_assert_cmpfloat(r.ratio, ==, 2);
        g_assert_cmpfloat(r.lo, ==, 2);
        g_assert_cmpfloat(r.hi, ==, 2);
        g_assert_cmpuint(r.pairs->len, ==, 1);
        g_assert_cmpuint(r.min_reps, ==, 3);
        verify_result_clear(&r);
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", "size=64", 3, 1, &r), ==, VERIFY_FAILS);
        verify_result_clear(&r);
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", "size=64", 2, 1, &r), ==, VERIFY_HOLDS);
        verify_result_clear(&r);
        /* The same claim turned round fails even at by = 1. */
        g_assert_cmpint(eval(t, "transport=fifo", "transport=pipe", "elapsed", "size=64", 1, 1, &r), ==, VERIFY_FAILS);
        g_assert_cmpfloat(r.ratio, ==, 0.5);
        verify_result_clear(&r);

        /* Every metric points the same way here: higher-is-better ones
         * divide the faster cell's rate by the slower one's. */
        const char *metrics[] = { "roundtrip_latency", "elapsed", "cpu", "throughput", "callrate" };
        for (guint i = 0; i < G_N_ELEMENTS(metrics); i++) {
                g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", metrics[i], "size<=64", 2, 1, &r),
                                ==, VERIFY_HOLDS);
                g_assert_cmpfloat_with_epsilon(r.ratio, 2, 1e-12);
                g_assert_cmpfloat_with_epsilon(r.lo, 2, 1e-12);
                g_assert_cmpfloat_with_epsilon(r.hi, 2, 1e-12);
                verify_result_clear(&r);
        }
        /* Throughput of 4 KiB against 64 B pipe messages in the same
         * time: 64 times the bytes. */
        g_assert_cmpint(eval(t, "size=4KiB", "size=64", "throughput", NULL, 64, 1, &r), ==, VERIFY_FAILS);
        /* ... pairs: pipe 4 KiB vs pipe 64 B (64), fifo 4 KiB vs fifo 64 B
         * (64 / 4 = 16): geometric mean 32, exactly, below 64. */
        g_assert_cmpfloat_with_epsilon(r.ratio, 32, 1e-9);
        verify_result_clear(&r);
}

static void test_geomean_and_where(void)
{
        g_autoptr(Table) t = two_sizes();
        VerifyResult r;

        /* Pairs 2 and 8: the geometric mean 4, not the average 5. */
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 4, 1, &r), ==, VERIFY_HOLDS);
        g_assert_cmpuint(r.pairs->len, ==, 2);
        g_assert_cmpfloat_with_epsilon(r.ratio, 4, 1e-12);
        g_assert_cmpfloat_with_epsilon(r.hi, 4, 1e-12);
        verify_result_clear(&r);
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 4.5, 1, &r), ==, VERIFY_FAILS);
        verify_result_clear(&r);
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", "size>=4KiB", 8, 1, &r), ==, VERIFY_HOLDS);
        g_assert_cmpfloat(r.ratio, ==, 8);
        verify_result_clear(&r);
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", "size!=4096", 1, 1, &r), ==, VERIFY_HOLDS);
        g_assert_cmpfloat(r.ratio, ==, 2);
        verify_result_clear(&r);
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", "size>1MiB", 1, 1, &r), ==, VERIFY_NO_DATA);
        g_assert_true(isnan(r.ratio));
        g_assert_nonnull(strstr(r.note, "no measured cell matches faster=transport=pipe where size>1MiB"));
        verify_result_clear(&r);
        /* Selectors may carry units: size=4KiB is size_B 4096. */
        g_assert_cmpint(eval(t, "transport=pipe,size=4KiB", "transport=fifo,size=4096", "elapsed", NULL, 8, 1, &r), ==, VERIFY_HOLDS);
        verify_result_clear(&r);
        /* Nothing matches the slower side. */
        g_assert_cmpint(eval(t, "transport=pipe", "transport=tcp", "elapsed", NULL, 1, 1, &r), ==, VERIFY_NO_DATA);
        g_assert_nonnull(strstr(r.note, "no measured cell matches slower=transport=tcp"));
        verify_result_clear(&r);
}

static void test_pairing(void)
{
        g_autoptr(GString) b = g_string_new(NULL);
        Cell p64 = cell("pipe", 64, PATTERN_ROUNDTRIP), f64 = cell("fifo", 64, PATTERN_ROUNDTRIP);
        Cell p4k = cell("pipe", 4096, PATTERN_ROUNDTRIP), f4k = cell("fifo", 4096, PATTERN_ROUNDTRIP);

        rows(b, "host", &p64, e100, 3);
        rows(b, "nspawn", &f64, e200, 3);   /* another environment: no partner */
        rows(b, "host", &p4k, e100, 3);
        rows(b, "host", &f4k, e800, 3);
        g_autoptr(Table) t = table_of(b, "pairing.tsv");
        VerifyResult r;

        /* env is an axis neither selector names: pipe/64 in host has no
         * fifo/64 partner in host. */
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 8, 1, &r), ==, VERIFY_HOLDS);
        g_assert_cmpuint(r.pairs->len, ==, 1);
        g_assert_cmpfloat(r.ratio, ==, 8);
        g_assert_nonnull(strstr(r.note, "1 faster cells without a slower partner"));
        verify_result_clear(&r);

        /* A cell in both sets is never compared with itself: pipe/64 vs
         * pipe/4K (1) and vs fifo/4K (8), pipe/4K vs fifo/4K (8). */
        g_assert_cmpint(eval(t, "transport=pipe", "size=4096", "elapsed", NULL, 1, 1, &r), ==, VERIFY_HOLDS);
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
        rows(b, "host", &p, e100, 3);
        rows(b, "host", &f, e200, 3);
        g_autoptr(Table) t = table_of(b, "oneway.tsv");
        VerifyResult r;

        /* bus "-" is none, reply "-" (one-way) is echo, as in the Cell. */
        g_assert_cmpint(eval(t, "transport=pipe,bus=none,reply=echo", "transport=fifo", "elapsed", NULL, 2, 1, &r),
                        ==, VERIFY_HOLDS);
        verify_result_clear(&r);
        g_assert_cmpint(eval(t, "transport=pipe,reply=empty", "transport=fifo", "elapsed", NULL, 2, 1, &r),
                        ==, VERIFY_NO_DATA);
        verify_result_clear(&r);
        /* duration=500ms selects duration_ns 500000000; count "-" is 0. */
        g_assert_cmpint(eval(t, "transport=pipe,duration=500ms,count=0", "transport=fifo", "elapsed", NULL, 2, 1, &r),
                        ==, VERIFY_HOLDS);
        verify_result_clear(&r);
        /* A filter on count fails where count does not apply. */
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", "count>=0", 1, 1, &r), ==, VERIFY_NO_DATA);
        verify_result_clear(&r);
        /* One-way cells have no latency: no data, and the note says why. */
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "roundtrip_latency", NULL, 1, 1, &r),
                        ==, VERIFY_NO_DATA);
        g_assert_nonnull(strstr(r.note, "6 repetitions without roundtrip_latency left out"));
        verify_result_clear(&r);
}

static void test_left_out(void)
{
        g_autoptr(GString) b = g_string_new(NULL);
        Cell p64 = cell("pipe", 64, PATTERN_ROUNDTRIP), f64 = cell("fifo", 64, PATTERN_ROUNDTRIP);
        Cell p4k = cell("pipe", 4096, PATTERN_ROUNDTRIP), f4k = cell("fifo", 4096, PATTERN_ROUNDTRIP);
        static const guint64 one[] = { 100000 }, zero[] = { 0, 0, 0 };

        rows(b, "host", &p64, e100, 3);
        failed_row(b, &p64);
        rows(b, "host", &f64, e200, 3);
        failed_row(b, &f64);
        rows(b, "host", &p4k, zero, 3);     /* too fast to measure: left out */
        rows(b, "host", &f4k, e800, 3);
        g_autoptr(Table) t = table_of(b, "left-out.tsv");
        VerifyResult r;

        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 2, 1, &r), ==, VERIFY_HOLDS);
        g_assert_cmpfloat(r.ratio, ==, 2);
        g_assert_nonnull(strstr(r.note, "2 failed repetitions left out"));
        g_assert_nonnull(strstr(r.note, "1 cells with a elapsed <= 0 left out"));
        verify_result_clear(&r);

        /* A single repetition gives no interval: at best inconclusive. */
        g_autoptr(GString) b1 = g_string_new(NULL);
        rows(b1, "host", &p64, one, 1);
        rows(b1, "host", &f64, e200, 3);
        g_autoptr(Table) t1 = table_of(b1, "one-rep.tsv");
        g_assert_cmpint(eval(t1, "transport=pipe", "transport=fifo", "elapsed", NULL, 1.5, 1, &r), ==, VERIFY_INCONCLUSIVE);
        g_assert_cmpfloat(r.ratio, ==, 2);
        g_assert_cmpuint(r.min_reps, ==, 1);
        g_assert_nonnull(strstr(r.note, "one repetition"));
        verify_result_clear(&r);
}

static void test_noisy(void)
{
        g_autoptr(GString) b = g_string_new(NULL);
        Cell p64 = cell("pipe", 64, PATTERN_ROUNDTRIP), f64 = cell("fifo", 64, PATTERN_ROUNDTRIP);
        Cell p4k = cell("pipe", 4096, PATTERN_ROUNDTRIP), f4k = cell("fifo", 4096, PATTERN_ROUNDTRIP);
        static const guint64 pe[] = { 100, 120, 90, 110, 105 }, fe[] = { 210, 190, 250, 205, 220 };
        static const guint64 pk[] = { 400, 380, 420 }, fk[] = { 1700, 1500, 1600, 1650 };

        rows(b, "host", &p64, pe, 5);
        rows(b, "host", &f64, fe, 5);
        rows(b, "host", &p4k, pk, 3);
        rows(b, "host", &f4k, fk, 4);
        g_autoptr(Table) t = table_of(b, "noisy.tsv");
        VerifyResult r, again;

        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", "size=64", 1.5, 12345, &r), ==, VERIFY_HOLDS);
        g_assert_cmpfloat_with_epsilon(r.ratio, 2.0, 1e-12);
        g_assert_cmpfloat_with_epsilon(r.lo, 1.7272727272727273, 1e-12);
        g_assert_cmpfloat_with_epsilon(r.hi, 2.4444444444444446, 1e-12);
        /* The pair's own interval is the same bootstrap with its own seed. */
        VerifyPair *p = &g_array_index(r.pairs, VerifyPair, 0);
        g_assert_cmpfloat_with_epsilon(p->ratio, 2.0, 1e-12);
        g_assert_cmpuint(p->n_faster, ==, 5);
        verify_result_clear(&r);
        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", "size=64", 2, 12345, &r), ==, VERIFY_INCONCLUSIVE);
        verify_result_clear(&r);

        g_assert_cmpint(eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 2.5, 777, &r), ==, VERIFY_HOLDS);
        g_assert_cmpfloat_with_epsilon(r.ratio, 2.850438562747845, 1e-12);
        g_assert_cmpfloat_with_epsilon(r.lo, 2.6111648393354674, 1e-12);
        g_assert_cmpfloat_with_epsilon(r.hi, 3.1576510627233856, 1e-12);
        /* Deterministic. */
        eval(t, "transport=pipe", "transport=fifo", "elapsed", NULL, 2.5, 777, &again);
        g_assert_cmpfloat(again.lo, ==, r.lo);
        g_assert_cmpfloat(again.hi, ==, r.hi);
        verify_result_clear(&r);
        verify_result_clear(&again);
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
        g_assert_false(verify_claim_table(&c, t, path, 1, &r, &e));
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        g_assert_nonnull(strstr(e->message, "no column"));
        verify_result_clear(&r);
        g_clear_error(&e);

        /* A malformed filter or selector. */
        g_autoptr(Table) good = two_sizes();
        Claim cw = claim("transport=pipe", "transport=fifo", "elapsed", "size>>1", 1);
        g_assert_false(verify_claim_table(&cw, good, "fixture", 1, &r, &e));
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        verify_result_clear(&r);
        g_clear_error(&e);
        Claim cs = claim("transport", "transport=fifo", "elapsed", NULL, 1);
        g_assert_false(verify_claim_table(&cs, good, "fixture", 1, &r, &e));
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        verify_result_clear(&r);
        g_clear_error(&e);

        /* A directory without samples.tsv: no data, not an error. */
        g_assert_true(verify_claim_dir(&c, tmp_dir, 1, &r, &e));
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
        g_test_add_func("/verify/where-parse", test_where_parse);
        g_test_add_func("/verify/exact", test_exact);
        g_test_add_func("/verify/geomean-and-where", test_geomean_and_where);
        g_test_add_func("/verify/pairing", test_pairing);
        g_test_add_func("/verify/dash-values", test_dash_values);
        g_test_add_func("/verify/left-out", test_left_out);
        g_test_add_func("/verify/noisy", test_noisy);
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
