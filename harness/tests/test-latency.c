/* test-latency.c: latencies.tsv.gz written, read back and pooled.
 *
 * The file round trip (histograms written and read back have the same
 * counts, exact values stay exact); pooling two raw repetitions equals the
 * histogram of the union of their values; a 60000-message repetition's
 * histogram takes under 64 KiB in the file, whatever its spread; and every
 * kind of damage (truncated or corrupt gzip, trailing bytes, a bad header,
 * a bucket not hist.h's, non-contiguous rows, a bad count) is an error
 * naming the file (and the line, where there is one).  A one-way run
 * over pipe has every message's transit; one whose send stamps are
 * garbage (a wrapper transport overwrites them) fails saying so. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "experiment.h"
#include "latency.h"
#include "runner.h"
#include "transport.h"
#include "verify.h"
#include "samples.h"
#include "stats.h"

static char *tmpdir;

static char *tmp_path(const char *name)
{
        return g_build_filename(tmpdir, name, NULL);
}

/* N values, log-uniform in [LO, HI], from SEED. */
static guint64 *values(guint64 seed, size_t n, double lo, double hi)
{
        StatsRng rng;
        guint64 *v = g_new(guint64, n);

        stats_rng_init(&rng, seed);
        for (size_t i = 0; i < n; i++) {
                double u = (double) stats_rng_next(&rng) / 18446744073709551616.0;
                v[i] = (guint64) exp(log(lo) + u * (log(hi) - log(lo)));
        }
        return v;
}

static void assert_hist_equal(const Hist *a, const Hist *b)
{
        g_assert_cmpuint(a->n, ==, b->n);
        for (guint i = 0; i < HIST_BUCKETS; i++)
                if (a->count[i] != b->count[i])
                        g_test_fail_printf("bucket %u: %" G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT, i,
                                           a->count[i], b->count[i]);
}

/* Writes TEXT gzipped to NAME in the test directory; returns its path. */
static char *write_gz(const char *name, const char *text)
{
        char *path = tmp_path(name);
        g_assert_cmpint(latency_write(path, text, strlen(text)), ==, 0);
        return path;
}

static void test_round_trip(void)
{
        g_autofree guint64 *v = values(1, 20000, 50, 5e6);
        g_autoptr(GString) text = g_string_new(LATENCY_HEADER);
        latency_append_part(text, "host", "ws", 3, 0, LATENCY_ROUNDTRIP, v, 20000, FALSE);
        latency_append_part(text, "host", "ws", 3, 1, LATENCY_ONEWAY, v, 1000, TRUE);
        g_autofree char *path = write_gz("rt.tsv.gz", text->str);

        g_autoptr(GError) e = NULL;
        g_autoptr(LatencyFile) f = latency_read(path, &e);
        g_assert_no_error(e);
        g_assert_cmpuint(f->parts->len, ==, 2);
        const LatencyPart *p = f->parts->pdata[0];
        g_assert_cmpstr(p->env, ==, "host");
        g_assert_cmpuint(p->cell, ==, 3);
        g_assert_cmpuint(p->rep, ==, 0);
        g_assert_cmpint(p->kind, ==, LATENCY_ROUNDTRIP);
        g_autofree Hist *want = g_new(Hist, 1), *got = g_new(Hist, 1);
        hist_init(want);
        hist_record_all(want, v, 20000);
        hist_init(got);
        latency_part_add_to(p, got);
        assert_hist_equal(got, want);

        /* Raw values come back exactly: min and max too. */
        p = f->parts->pdata[1];
        g_assert_cmpint(p->kind, ==, LATENCY_ONEWAY);
        hist_init(want);
        hist_record_all(want, v, 1000);
        hist_init(got);
        latency_part_add_to(p, got);
        assert_hist_equal(got, want);
        g_assert_cmpuint(p->min, ==, want->min);
        g_assert_cmpuint(p->max, ==, want->max);

        /* The text in the file is the text written. */
        gsize len;
        g_autofree char *back = latency_read_text(path, &len, &e);
        g_assert_no_error(e);
        g_assert_cmpuint(len, ==, text->len);
        g_assert_cmpstr(back, ==, text->str);
}

static void test_pool_raw_union(void)
{
        g_autofree guint64 *a = values(2, 3000, 1000, 1e5);
        g_autofree guint64 *b = values(3, 5000, 800, 3e5);
        g_autoptr(GString) text = g_string_new(LATENCY_HEADER);
        latency_append_part(text, "host", "ws", 0, 0, LATENCY_ROUNDTRIP, a, 3000, TRUE);
        latency_append_part(text, "host", "ws", 0, 1, LATENCY_ROUNDTRIP, b, 5000, TRUE);
        /* Others that must stay out of the pool: another cell, kind, env. */
        latency_append_part(text, "host", "ws", 1, 0, LATENCY_ROUNDTRIP, b, 100, TRUE);
        latency_append_part(text, "vm", "ws", 0, 0, LATENCY_ROUNDTRIP, b, 100, TRUE);
        /* ... and another machine's same cell, environment and repetition. */
        latency_append_part(text, "host", "other", 0, 0, LATENCY_ROUNDTRIP, b, 100, TRUE);
        g_autoptr(GError) e = NULL;
        g_autoptr(LatencyFile) f = latency_parse("pool.tsv", text->str, text->len, &e);
        g_assert_no_error(e);

        guint cell = 0;
        g_autofree Hist *pooled = latency_pool(f, "host", "ws", &cell, 1, "roundtrip");
        g_assert_nonnull(pooled);
        g_autofree Hist *want = g_new(Hist, 1);
        hist_init(want);
        hist_record_all(want, a, 3000);
        hist_record_all(want, b, 5000);
        assert_hist_equal(pooled, want);
        g_assert_cmpuint(pooled->min, ==, want->min);
        g_assert_cmpuint(pooled->max, ==, want->max);
        /* Its percentiles are within 1% of the sorted union's. */
        g_autofree guint64 *all = g_new(guint64, 8000);
        memcpy(all, a, 3000 * sizeof *a);
        memcpy(all + 3000, b, 5000 * sizeof *b);
        stats_sort_u64(all, 8000);
        for (double q = 0.05; q < 1; q += 0.05) {
                double exact = (double) stats_quantile_u64(all, 8000, q);
                double got = (double) hist_quantile(pooled, q);
                if (fabs(got - exact) / exact > 0.01)
                        g_test_fail_printf("q=%.2f: %.0f, exact %.0f", q, got, exact);
        }
        g_assert_null(latency_pool(f, "host", "ws", &cell, 1, "oneway"));
        g_autofree Hist *any_env = latency_pool(f, NULL, "ws", &cell, 1, "roundtrip");
        g_assert_cmpuint(any_env->n, ==, 8100);
        g_autofree Hist *any_machine = latency_pool(f, "host", NULL, &cell, 1, "roundtrip");
        g_assert_cmpuint(any_machine->n, ==, 8100);
}

/* The gzip size of a file holding one 60000-message repetition. */
static gsize part_size(guint64 seed, double lo, double hi)
{
        g_autofree guint64 *v = values(seed, 60000, lo, hi);
        g_autoptr(GString) text = g_string_new(LATENCY_HEADER);
        latency_append_part(text, "host", "ws", 12, 4, LATENCY_ROUNDTRIP, v, 60000, FALSE);
        g_autofree char *path = write_gz("size.tsv.gz", text->str);
        GStatBuf st;
        g_assert_cmpint(g_stat(path, &st), ==, 0);
        return (gsize) st.st_size;
}

static void test_storage_size(void)
{
        /* A realistic spread (1 us to 10 ms) and the worst one: log-uniform
         * over the whole range, a value in almost every bucket. */
        gsize real = part_size(4, 1e3, 1e7), worst = part_size(5, 1, (double) HIST_MAX_NS);

        g_test_message("60000 messages: %zu bytes (1 us - 10 ms), %zu bytes (1 ns - %.1f h)", real, worst,
                       (double) HIST_MAX_NS / 3.6e12);
        g_assert_cmpuint(real, <, 64 * 1024);
        g_assert_cmpuint(worst, <, 64 * 1024);
}

/* Reading PATH fails, and the message names it and holds WHAT. */
static void assert_read_fails(const char *path, const char *what)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(LatencyFile) f = latency_read(path, &e);

        g_assert_null(f);
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        if (!strstr(e->message, path) || !strstr(e->message, what))
                g_test_fail_printf("'%s': does not name %s and say '%s'", e->message, path, what);
}

static void test_damage(void)
{
        g_autofree guint64 *v = values(6, 5000, 100, 1e6);
        g_autoptr(GString) text = g_string_new(LATENCY_HEADER);
        latency_append_part(text, "host", "ws", 0, 0, LATENCY_ROUNDTRIP, v, 5000, FALSE);
        g_autofree char *good = write_gz("good.tsv.gz", text->str);
        g_autofree char *gz = NULL;
        gsize len;
        g_assert_true(g_file_get_contents(good, &gz, &len, NULL));

        g_autofree char *cut = tmp_path("cut.tsv.gz");
        g_assert_true(g_file_set_contents(cut, gz, (gssize) len / 2, NULL));
        assert_read_fails(cut, "truncated");
        g_assert_true(g_file_set_contents(cut, gz, (gssize) len - 4, NULL));   /* only the length lost */
        assert_read_fails(cut, "truncated");

        g_autofree char *bad = tmp_path("corrupt.tsv.gz");
        g_autofree char *copy = g_memdup2(gz, len);
        for (gsize i = len / 3; i < len / 3 + 16; i++)
                copy[i] ^= 0x5a;
        g_assert_true(g_file_set_contents(bad, copy, (gssize) len, NULL));
        assert_read_fails(bad, "not a valid gzip file");
        g_assert_true(g_file_set_contents(bad, "env\tcell\n", -1, NULL));
        assert_read_fails(bad, "not a valid gzip file");

        g_autofree char *more = tmp_path("trailing.tsv.gz");
        g_autofree char *longer = g_malloc(len + 3);
        memcpy(longer, gz, len);
        memcpy(longer + len, "abc", 3);
        g_assert_true(g_file_set_contents(more, longer, (gssize) len + 3, NULL));
        assert_read_fails(more, "after the gzip data");

        g_autofree char *missing = tmp_path("missing.tsv.gz");
        assert_read_fails(missing, "No such file");

        struct {
                const char *text, *what;
        } bad_text[] = {
                { "env\tcell\trep\tkind\tlower\tupper\tcount\n", ":1: the header" },
                { LATENCY_HEADER "host\tws\t0\t0\troundtrip\t1000\t1002\t5\n", ":2: [1000, 1002] is not a histogram bucket" },
                { LATENCY_HEADER "host\tws\t0\t0\troundtrip\t1000\t1003\t5\nhost\tws\t0\t0\troundtrip\t1004\t1007\t0\n",
                  ":3: count '0'" },
                { LATENCY_HEADER "host\tws\t0\t0\troundtrip\t5\t5\t1\nhost\tws\t0\t1\troundtrip\t5\t5\t1\n"
                  "host\tws\t0\t0\troundtrip\t6\t6\t1\n", ":4: the rows of env host machine ws cell 0 repetition 0 roundtrip are not contiguous" },
                { LATENCY_HEADER "host\tws\t0\t0\tsideways\t5\t5\t1\n", ":2: 'host ws 0 0 sideways'" },
                { LATENCY_HEADER "host\tws\t0\t0\troundtrip\t5\t5\n", ":2: 7 fields" },
                { LATENCY_HEADER "host\tws\tx\t0\troundtrip\t5\t5\t1\n", ":2:" },
                { LATENCY_HEADER "host\tws\t0\t0\troundtrip\t5\t5\t1", ":2: the last line has no newline" },
        };
        for (size_t i = 0; i < G_N_ELEMENTS(bad_text); i++) {
                g_autofree char *name = g_strdup_printf("bad%zu.tsv.gz", i);
                g_autofree char *path = write_gz(name, bad_text[i].text);
                g_autofree char *what = g_strconcat(path, bad_text[i].what, NULL);
                assert_read_fails(path, what);
        }
}

/* pipe, except that a one-way message's first 8 bytes (its send stamp)
 * arrive as 0xff: a time far in the future. */
static int garbage_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        if (!(flags & SEND_NO_REPLY) || len < 8)
                return transport_pipe.send(ep, data, len, flags);
        g_autofree char *copy = g_memdup2(data, len + 1);
        memset(copy, 0xff, 8);
        return transport_pipe.send(ep, copy, len, flags);
}

static Transport garbage_stamps;

static Experiment *oneway_experiment(const char *transport)
{
        g_autofree char *text = g_strdup_printf("[experiment]\ntitle=t\ntransport=%s\nsize=64\npattern=oneway\n"
                                                "count=500\nrepeat=1\nwarmup=5\n", transport);
        g_autoptr(GError) e = NULL;
        Experiment *exp = experiment_load_data("oneway.ini", text, strlen(text), NULL, &e);
        g_assert_no_error(e);
        return exp;
}

static void test_oneway_stamps(void)
{
        g_autoptr(Experiment) exp = oneway_experiment("pipe");
        g_autoptr(Runner) r = runner_new(exp);
        Sample s;
        g_assert_cmpint(runner_run(r, exp->cells->pdata[0], 0, &s), ==, 0);
        g_assert_cmpint(s.status, ==, 0);
        size_t n;
        const guint64 *lat = runner_latencies(r, &n);
        g_assert_cmpuint(n, ==, 500);
        g_assert_cmpuint(s.lat_n, ==, 500);
        g_assert_cmpuint(lat[0], >, 0);
        g_assert_cmpuint(lat[0], ==, s.lat_min_ns);
        g_assert_cmpuint(lat[n - 1], ==, s.lat_max_ns);
        g_assert_cmpuint(s.lat_max_ns, <=, s.elapsed_ns);

        g_autoptr(Experiment) bad = oneway_experiment(garbage_stamps.name);
        g_autoptr(Runner) rb = runner_new(bad);
        g_assert_cmpint(runner_run(rb, bad->cells->pdata[0], 0, &s), ==, 0);
        g_assert_cmpint(s.status, <, 0);
        if (!strstr(s.why, "are not a send time before its receipt"))
                g_test_fail_printf("failed, but saying '%s'", s.why);
        runner_latencies(rb, &n);
        g_assert_cmpuint(n, ==, 0);
}

int main(int argc, char **argv)
{
        g_test_init(&argc, &argv, NULL);
        transports_install(&transport_ops);
        experiment_install_claim_check(verify_claim_check);
        garbage_stamps = transport_pipe;
        garbage_stamps.name = "garbage-stamps";
        garbage_stamps.send = garbage_send;
        transport_add_extra(&garbage_stamps);
        tmpdir = g_dir_make_tmp("test-latency-XXXXXX", NULL);
        g_test_add_func("/latency/round-trip", test_round_trip);
        g_test_add_func("/latency/pool-raw-union", test_pool_raw_union);
        g_test_add_func("/latency/storage-size", test_storage_size);
        g_test_add_func("/latency/damage", test_damage);
        g_test_add_func("/latency/oneway-stamps", test_oneway_stamps);
        int r = g_test_run();
        samples_remove_dir(tmpdir);
        g_free(tmpdir);
        return r;
}
