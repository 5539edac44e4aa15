/* test-transports.c: every transport moves data intact, in both payload
 * types and every pattern, in real processes (and through real private
 * dbus-daemon and dbus-broker instances for the D-Bus transports).
 *
 * Each cell runs with verify=true: the server checks every message's size
 * and a running checksum of every payload, echoes are compared byte for
 * byte, and the client compares the server's counts with what it sent. */
#include <glib.h>
#include <glib/gstdio.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "experiment.h"
#include "runner.h"
#include "transport.h"

static char *tmp_dir;

static Experiment *load_text(const char *name, const char *text)
{
        g_autoptr(GError) e = NULL;
        g_autofree char *path = g_strdup_printf("%s/%s.ini", tmp_dir, name);
        g_assert_true(g_file_set_contents(path, text, -1, NULL));
        Experiment *exp = experiment_load(path, NULL, &e);
        g_assert_no_error(e);
        g_unlink(path);
        return exp;
}

/* What is wrong with sample S of cell C, or NULL when it is as expected. */
static char *sample_problem(const Cell *c, const Sample *s)
{
        if (s->status != 0)
                return g_strdup(s->why);
        if (c->count && s->messages != c->count)
                return g_strdup_printf("%" G_GUINT64_FORMAT " messages, want %" G_GUINT64_FORMAT,
                                       (guint64) s->messages, (guint64) c->count);
        if (c->count && c->pattern != PATTERN_CALLRATE && s->bytes != c->count * c->size)
                return g_strdup_printf("%" G_GUINT64_FORMAT " bytes, want %" G_GUINT64_FORMAT,
                                       (guint64) s->bytes, (guint64) (c->count * c->size));
        if (!s->messages)
                return g_strdup("no messages");
        if (!s->elapsed_ns)
                return g_strdup("no elapsed time");
        if (c->pattern != PATTERN_ONEWAY &&
            (s->lat_n != s->messages || s->lat_min_ns > s->lat_p50_ns || s->lat_p50_ns > s->lat_p99_ns ||
             s->lat_p99_ns > s->lat_max_ns))
                return g_strdup_printf("latencies inconsistent: n=%" G_GUINT64_FORMAT " min=%" G_GUINT64_FORMAT
                                       " p50=%" G_GUINT64_FORMAT " p99=%" G_GUINT64_FORMAT " max=%" G_GUINT64_FORMAT,
                                       (guint64) s->lat_n, (guint64) s->lat_min_ns, (guint64) s->lat_p50_ns,
                                       (guint64) s->lat_p99_ns, (guint64) s->lat_max_ns);
        return NULL;
}

/* Runs every cell of EXP once; every one must succeed with the expected
 * number of messages and bytes.  Each cell that does not fails the test
 * with its own message, and the others still run. */
static void run_all(Experiment *exp)
{
        g_autoptr(Runner) r = runner_new(exp);
        guint failures = 0;

        for (guint i = 0; i < exp->cells->len; i++) {
                const Cell *c = exp->cells->pdata[i];
                g_autofree char *d = cell_describe(c);
                Sample s;

                g_autofree char *bad = runner_run(r, c, 0, &s) != 0 ? g_strdup("the runner could not run it")
                                                                     : sample_problem(c, &s);
                if (bad) {
                        /* GTest keeps the last failure message only: each
                         * one is also a message of its own */
                        g_test_message("FAILED %s: %s", d, bad);
                        g_test_fail_printf("%u of %u cells failed, the last: %s: %s", ++failures,
                                           exp->cells->len, d, bad);
                } else {
                        g_test_message("%s: %.1f us", d, (double) s.elapsed_ns / 1e3);
                }
        }
}

static void test_transport(gconstpointer data)
{
        const Transport *t = data;
        const char *why = t->unavailable ? t->unavailable() : NULL;

        if (why) {
                g_test_skip(why);
                return;
        }
        bool dbus = (t->flags & TRANSPORT_DBUS) != 0;
        g_autofree char *text = g_strdup_printf(
                "[experiment]\ntitle=%s moves data intact\ntransport=%s\n%s"
                "payload=bytes;string\nsize=1;1000;65536\npattern=oneway;roundtrip;callrate\n"
                "reply=echo;empty\ncount=40\nrepeat=1\nwarmup=3\ntimeout=30s\nverify=true\n",
                t->name, t->name, dbus ? "bus=dbus-daemon;dbus-broker;p2p\n" : "");
        g_autoptr(Experiment) exp = load_text("intact", text);

        for (guint i = 0; i < exp->skipped->len; i++)
                g_test_message("skipped: %s", (char *) exp->skipped->pdata[i]);
        g_assert_cmpuint(exp->cells->len, >, 0);
        run_all(exp);
}

/* A time box instead of a count, on one CPU (cpus=same) or two (split:
 * skipped, and said so, where this process may run on one CPU only). */
static void test_boxed(gconstpointer data, const char *cpus)
{
        const Transport *t = data;
        const char *why = t->unavailable ? t->unavailable() : NULL;

        if (why) {
                g_test_skip(why);
                return;
        }
        cpu_set_t set;
        if (!strcmp(cpus, "split") && (sched_getaffinity(0, sizeof set, &set) < 0 || CPU_COUNT(&set) < 2)) {
                g_test_skip("one CPU to run on: cpus=split needs two");
                return;
        }
        g_autofree char *boxed = g_strdup_printf(
                "[experiment]\ntitle=boxed\ntransport=%s\n%spayload=string\nsize=64\n"
                "pattern=oneway;roundtrip\ncpus=%s\nduration=20ms\nrepeat=1\nwarmup=2\nverify=true\n",
                t->name, (t->flags & TRANSPORT_DBUS) ? "bus=p2p\n" : "", cpus);
        g_autoptr(Experiment) exp = load_text("boxed", boxed);
        run_all(exp);
}

static void test_boxed_same(gconstpointer data)
{
        test_boxed(data, "same");
}

static void test_boxed_split(gconstpointer data)
{
        test_boxed(data, "split");
}

/* A per-element `ay` must arrive as intact as the fixed array. */
static void test_per_element(gconstpointer data)
{
        const Transport *t = data;
        if (t->unavailable && t->unavailable()) {
                g_test_skip(t->unavailable());
                return;
        }
        g_autofree char *text = g_strdup_printf(
                "[experiment]\ntitle=per-element\ntransport=%s\nbus=p2p;dbus-daemon\npayload=bytes\n"
                "size=1;3000\nmarshal=array;per-element\npattern=oneway;roundtrip\ncount=10\n"
                "repeat=1\nwarmup=1\nverify=true\n", t->name);
        g_autoptr(Experiment) exp = load_text("per-element", text);
        run_all(exp);
}

/* A cell that cannot finish in its time limit fails with the reason, and
 * the next cell still runs. */
static void test_time_limit(void)
{
        g_autoptr(Experiment) exp = load_text("limit",
                "[experiment]\ntitle=limit\ntransport=pipe\nsize=64KiB\npattern=oneway\n"
                "count=1000000000\nrepeat=1\ntimeout=300ms\n");
        g_autoptr(Runner) r = runner_new(exp);
        Sample s;

        g_assert_cmpint(runner_run(r, exp->cells->pdata[0], 0, &s), ==, 0);
        g_assert_cmpint(s.status, <, 0);
        g_assert_nonnull(strstr(s.why, "time limit"));
}

int main(int argc, char **argv)
{
        g_test_init(&argc, &argv, NULL);
        tmp_dir = g_dir_make_tmp("ipclab-test-XXXXXX", NULL);
        for (size_t i = 0; transport_table[i]; i++) {
                const Transport *t = transport_table[i];
                if (t->flags & TRANSPORT_COMMAND)
                        continue;   /* whole commands: test-run.sh */
                g_autofree char *path = g_strdup_printf("/transports/intact/%s", t->name);
                g_test_add_data_func(path, t, test_transport);
                g_autofree char *same = g_strdup_printf("/transports/boxed-same/%s", t->name);
                g_test_add_data_func(same, t, test_boxed_same);
                g_autofree char *split = g_strdup_printf("/transports/boxed-split/%s", t->name);
                g_test_add_data_func(split, t, test_boxed_split);
                if (t->flags & TRANSPORT_MARSHAL) {
                        g_autofree char *p2 = g_strdup_printf("/transports/per-element/%s", t->name);
                        g_test_add_data_func(p2, t, test_per_element);
                }
        }
        g_test_add_func("/transports/time-limit", test_time_limit);
        int r = g_test_run();
        g_rmdir(tmp_dir);
        return r;
}
