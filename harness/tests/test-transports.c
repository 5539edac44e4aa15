/* test-transports.c: every transport moves data intact, in both payload
 * types and every pattern, in real processes (and through real private
 * dbus-daemon and dbus-broker instances for the D-Bus transports).  A
 * transport whose library fixes its byte-array marshalling (sdbus-c++)
 * runs every marshal= value it takes; no D-Bus transport leaves a
 * process or a directory behind.
 *
 * Each cell runs with verify=true: the server checks every message's size
 * and a running checksum of every payload, echoes are compared byte for
 * byte, and the client compares the server's counts with what it sent. */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <sched.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <sys/socket.h>
#include <unistd.h>

#include "experiment.h"
#include "placement.h"
#include "runner.h"
#include "transport.h"
#include "verify.h"

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

/* Skips the test, saying why, when T cannot run here. */
static gboolean skip_unavailable(const Transport *t)
{
        const char *why = t->unavailable ? t->unavailable() : NULL;

        if (why)
                g_test_skip(why);
        return why != NULL;
}

/* Can this process run on two CPUs (cpus=split)? */
static bool two_cpus(void)
{
        cpu_set_t set;

        return sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) >= 2;
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

/* Loads the text FMT makes as experiment NAME, says which cells it leaves
 * out, and runs the others, of which there must be some. */
static void run_text(const char *name, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void run_text(const char *name, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        g_autofree char *text = g_strdup_vprintf(fmt, ap);
        va_end(ap);
        g_autoptr(Experiment) exp = load_text(name, text);

        for (guint i = 0; i < exp->skipped->len; i++)
                g_test_message("skipped: %s", (char *) exp->skipped->pdata[i]);
        g_assert_cmpuint(exp->cells->len, >, 0);
        run_all(exp);
}

/* Why T refuses a string round trip with cpus=CPUS (busy polling refuses
 * all but split), or NULL. */
static const char *refuses_cpus(const Transport *t, CpuPlacement cpus)
{
        const Cell probe = { .transport = t->name, .bus = (t->flags & TRANSPORT_DBUS) ? BUS_DBUS_DAEMON : BUS_NONE,
                             .payload = PAYLOAD_STRING, .size = 64, .pattern = PATTERN_ROUNDTRIP, .cpus = cpus,
                             .count = 1 };

        return transport_refuses(t, &probe);
}

/* The cpus= value for T's cells: WANT, or split where T refuses WANT;
 * NULL, with the test skipped and why, where split needs two CPUs this
 * process does not have. */
static const char *cpus_for(const Transport *t, CpuPlacement want)
{
        const char *cpus = refuses_cpus(t, want) ? "split" : cpus_name(want);

        if (!strcmp(cpus, "split") && !two_cpus()) {
                g_test_skip("one CPU to run on: cpus=split needs two");
                return NULL;
        }
        return cpus;
}

/* Every payload type and pattern of T through every bus BUSES (D-Bus),
 * with the axes AXES, verify=true: data intact. */
static void run_intact(const Transport *t, const char *name, const char *buses, const char *axes, ...)
        G_GNUC_PRINTF(4, 5);

static void run_intact(const Transport *t, const char *name, const char *buses, const char *axes, ...)
{
        va_list ap;

        va_start(ap, axes);
        g_autofree char *more = g_strdup_vprintf(axes, ap);
        va_end(ap);
        run_text(name,
                "[experiment]\ntitle=%s: %s\ntransport=%s\n%s%s%s%s"
                "payload=bytes;string\npattern=oneway;roundtrip;callrate\n"
                "repeat=1\nwarmup=3\ntimeout=3600s\nverify=true\n",
                t->name, name, t->name, (t->flags & TRANSPORT_DBUS) ? "bus=" : "",
                (t->flags & TRANSPORT_DBUS) ? buses : "", (t->flags & TRANSPORT_DBUS) ? "\n" : "", more);
}

static void test_transport(gconstpointer data)
{
        const Transport *t = data;
        const char *cpus;

        if (skip_unavailable(t) || !(cpus = cpus_for(t, CPUS_NONE)))
                return;
        run_intact(t, "intact", "dbus-daemon;dbus-broker;p2p",
                   "size=1;1000;65536\nreply=echo;empty\ncount=40\ncpus=%s\n", cpus);
}

/* A time box instead of a count, on one CPU (cpus=same) or two (split:
 * skipped, and said so, where this process may run on one CPU only);
 * D-Bus transports peer to peer and through a bus (sdbus-c++ before 1.4.0
 * has only the bus); both roles as processes, or as threads. */
static void run_boxed(const Transport *t, const char *cpus, const char *roles)
{
        run_text("boxed",
                "[experiment]\ntitle=boxed\ntransport=%s\n%spayload=string\nsize=64\n"
                "pattern=oneway;roundtrip\ncpus=%s\nroles=%s\nduration=20ms\nrepeat=1\nwarmup=2\nverify=true\n",
                t->name, (t->flags & TRANSPORT_DBUS) ? "bus=p2p;dbus-daemon\n" : "", cpus, roles);
}

static void test_boxed(gconstpointer data, CpuPlacement cpus)
{
        const Transport *t = data;
        const char *no = refuses_cpus(t, cpus);

        if (skip_unavailable(t))
                return;
        if (no) {
                g_test_skip(no);
                return;
        }
        if (cpus == CPUS_SPLIT && !two_cpus()) {
                g_test_skip("one CPU to run on: cpus=split needs two");
                return;
        }
        run_boxed(t, cpus_name(cpus), "processes");
}

static void test_boxed_same(gconstpointer data)
{
        test_boxed(data, CPUS_SAME);
}

static void test_boxed_split(gconstpointer data)
{
        test_boxed(data, CPUS_SPLIT);
}

/* A per-element `ay` must arrive as intact as the fixed array. */
static void test_per_element(gconstpointer data)
{
        const Transport *t = data;
        if (skip_unavailable(t))
                return;
        run_text("per-element",
                "[experiment]\ntitle=per-element\ntransport=%s\nbus=p2p;dbus-daemon\npayload=bytes\n"
                "size=1;3000\nmarshal=array;per-element\npattern=oneway;roundtrip\ncount=10\n"
                "repeat=1\nwarmup=1\nverify=true\n", t->name);
}

/* A transport whose library decides how it marshals a byte array
 * (refuses() takes the marshal= values it does not do): every value it
 * takes, through both buses, with data intact.  sdbus-c++ before 1.3.0:
 * append-per-element and per-element, its only byte-array cells. */
static void test_own_marshal(gconstpointer data)
{
        const Transport *t = data;
        if (skip_unavailable(t))
                return;
        run_text("own-marshal",
                "[experiment]\ntitle=own marshal\ntransport=%s\nbus=dbus-daemon;dbus-broker\npayload=bytes\n"
                "size=1;3000;65536\nmarshal=array;per-element;append-per-element\npattern=oneway;roundtrip\n"
                "reply=echo;empty\ncount=20\nrepeat=1\nwarmup=2\nverify=true\n", t->name);
}

/* A one-way stream of 6 MiB, past the 4 MiB after which gdbus flushes
 * and qtdbus makes a Sync round trip to bound their send queues: every
 * message arrives, and none of those round trips reaches the runner. */
static void test_long_stream(gconstpointer data)
{
        const Transport *t = data;
        if (skip_unavailable(t))
                return;
        run_text("long-stream",
                "[experiment]\ntitle=long stream\ntransport=%s\nbus=dbus-daemon;p2p\npayload=bytes;string\n"
                "size=64KiB\nmarshal=%s\npattern=oneway\ncount=96\nrepeat=1\nwarmup=2\nverify=true\n",
                t->name, (t->flags & TRANSPORT_MARSHAL) && t->refuses ? "array;append-per-element" : "array");
}

/* A messaging library's limits on a message (gRPC's default is 4 MiB)
 * are the transport's to lift or to name (max_size): messages of 1 and
 * 8 MiB arrive intact, or are left out with the limit named. */
static void test_large(gconstpointer data)
{
        const Transport *t = data;
        if (skip_unavailable(t))
                return;
        run_text("large",
                "[experiment]\ntitle=large\ntransport=%s\npayload=bytes\nsize=1MiB;8MiB\n"
                "pattern=oneway;roundtrip\nreply=echo;empty\ncount=3\nrepeat=1\nwarmup=1\nverify=true\n", t->name);
}

/* *W: transport BASE called NAME, added to those an experiment file can
 * name, for a test to change an op of. */
static Transport *variant(Transport *w, const Transport *base, const char *name)
{
        *w = *base;
        w->name = name;
        transport_add_extra(w);
        return w;
}

/* The same of the pipe transport. */
static Transport *pipe_variant(Transport *w, const char *name)
{
        return variant(w, &transport_pipe, name);
}

/* Runs CELL once with R, which must measure it. */
static void run_cell(Runner *r, const Cell *cell, Sample *s)
{
        g_assert_cmpint(runner_run(r, cell, 0, s), ==, 0);
        g_assert_cmpstr(s->why, ==, "");
        g_assert_cmpint(s->status, ==, 0);
}

/* A transport's refuses() leaves the cells it names out, with its reason
 * in the list `ipclab check` prints, and keeps the others. */
static const char *refuse_large(const IpclabCell *cell)
{
        return cell->size > 100 ? "refused: more than 100 bytes" : NULL;
}

static void test_refuses(void)
{
        static Transport picky;
        pipe_variant(&picky, "picky-pipe")->refuses = refuse_large;
        g_autoptr(Experiment) exp = load_text("refuses",
                "[experiment]\ntitle=refuses\ntransport=picky-pipe\nsize=64;4096\npattern=roundtrip\n"
                "count=5\nrepeat=1\n");
        g_assert_cmpuint(exp->cells->len, ==, 1);
        g_assert_cmpuint(((const Cell *) exp->cells->pdata[0])->size, ==, 64);
        g_assert_cmpuint(exp->skipped->len, ==, 1);
        g_assert_nonnull(strstr(exp->skipped->pdata[0], "size=4096"));
        g_assert_nonnull(strstr(exp->skipped->pdata[0], "refused: more than 100 bytes"));
        run_all(exp);
}

/* A claim about a transport built without its library (no cell here) is
 * kept, with no data; one whose selector names no cell of a transport
 * that can run is still a mistake in the file. */
static const char *never_here(void)
{
        return "built without its library (test)";
}

static void test_claim_unavailable(void)
{
        static Transport absent;
        pipe_variant(&absent, "absent-pipe")->unavailable = never_here;
        const char *head = "[experiment]\ntitle=claims\ntransport=pipe;absent-pipe\nsize=64\npattern=roundtrip\n"
                           "count=5\nrepeat=1\n[claim c]\ntext=t\nmetric=elapsed\n";
        g_autofree char *ok_text = g_strconcat(head, "faster=transport=pipe\nslower=transport=absent-pipe\n", NULL);
        g_autoptr(Experiment) exp = load_text("claim-unavailable", ok_text);
        g_assert_cmpuint(exp->claims->len, ==, 1);
        g_assert_cmpuint(exp->cells->len, ==, 1);

        g_autofree char *bad_text = g_strconcat(head, "faster=transport=pipe\nslower=transport=pipe,size=128\n", NULL);
        g_autofree char *path = g_strdup_printf("%s/claim-bad.ini", tmp_dir);
        g_autoptr(GError) e = NULL;
        g_assert_true(g_file_set_contents(path, bad_text, -1, NULL));
        g_autoptr(Experiment) bad = experiment_load(path, NULL, &e);
        g_unlink(path);
        g_assert_null(bad);
        g_assert_error(e, IPCLAB_ERROR, IPCLAB_ERROR_INPUT);
        g_assert_nonnull(strstr(e->message, "names no cell"));
}

/* sdbus-c++ takes the marshal= values its version appends a vector with
 * (one array from 1.3.0, per element before), never both kinds, and says
 * why it leaves the others and peer to peer out. */
static void test_sdbus_cpp_cells(void)
{
        const Transport *t = transport_find("sdbus-c++");
        if (skip_unavailable(t))
                return;
        g_autoptr(Experiment) exp = load_text("sdbus-cpp-cells",
                "[experiment]\ntitle=cells\ntransport=sdbus-c++\nbus=dbus-daemon;p2p\npayload=bytes\nsize=64\n"
                "marshal=array;per-element;append-per-element\npattern=roundtrip\ncount=5\nrepeat=1\n");
        bool whole = strstr(t->summary, "as one array") != NULL;
        guint n[3] = { 0 };
        for (guint i = 0; i < exp->cells->len; i++) {
                const Cell *c = exp->cells->pdata[i];
                g_assert_cmpint(c->bus, ==, BUS_DBUS_DAEMON);
                n[c->marshal]++;
        }
        g_assert_cmpuint(n[MARSHAL_ARRAY], ==, whole ? 1 : 0);
        g_assert_cmpuint(n[MARSHAL_PER_ELEMENT] + n[MARSHAL_APPEND_PER_ELEMENT], ==, whole ? 0 : 2);
        guint p2p = 0, marshal = 0;
        for (guint i = 0; i < exp->skipped->len; i++) {
                const char *line = exp->skipped->pdata[i];
                p2p += strstr(line, "bus=p2p") && strstr(line, "has no peer-to-peer connection");
                marshal += !strstr(line, "bus=p2p") &&
                           strstr(line, whole ? "as one array" : "element by element") != NULL;
        }
        g_assert_cmpuint(p2p, ==, 3);
        g_assert_cmpuint(marshal, ==, whole ? 2 : 1);
}

/* grpc has no one-way (a unary call always has a response): its one-way
 * cells are left out with that reason, its round trips kept. */
static void test_grpc_cells(void)
{
        const Transport *t = transport_find("grpc");
        if (skip_unavailable(t))
                return;
        g_autoptr(Experiment) exp = load_text("grpc-cells",
                "[experiment]\ntitle=cells\ntransport=grpc\npattern=oneway;roundtrip;callrate\ncount=5\n"
                "repeat=1\n");
        g_assert_cmpuint(exp->cells->len, ==, 2);
        for (guint i = 0; i < exp->cells->len; i++)
                g_assert_cmpint(((const Cell *) exp->cells->pdata[i])->pattern, !=, PATTERN_ONEWAY);
        g_assert_cmpuint(exp->skipped->len, ==, 1);
        g_assert_nonnull(strstr(exp->skipped->pdata[0], "grpc oneway "));
        g_assert_nonnull(strstr(exp->skipped->pdata[0], "a gRPC unary call always has a response"));
}

/* The processes descended from this one (a subreaper: orphans stay ours). */
static guint count_descendants(GString *names)
{
        g_autoptr(GHashTable) parent = g_hash_table_new(g_direct_hash, g_direct_equal);
        g_autoptr(GDir) d = g_dir_open("/proc", 0, NULL);
        const char *e;
        guint n = 0;

        g_assert_nonnull(d);
        while ((e = g_dir_read_name(d))) {
                g_autofree char *path = g_strdup_printf("/proc/%s/status", e);
                g_autofree char *text = NULL;
                const char *pp;
                if (!g_ascii_isdigit(e[0]) || !g_file_get_contents(path, &text, NULL, NULL) ||
                    !(pp = strstr(text, "\nPPid:")))
                        continue;
                g_hash_table_insert(parent, GINT_TO_POINTER(atoi(e)), GINT_TO_POINTER(atoi(pp + 6)));
        }
        GHashTableIter it;
        gpointer pid, ppid;
        g_hash_table_iter_init(&it, parent);
        while (g_hash_table_iter_next(&it, &pid, &ppid)) {
                for (int up = GPOINTER_TO_INT(ppid), hops = 0; up > 1 && hops < 64; hops++) {
                        if (up == getpid()) {
                                g_autofree char *comm_path = g_strdup_printf("/proc/%d/comm", GPOINTER_TO_INT(pid));
                                g_autofree char *comm = NULL;
                                g_file_get_contents(comm_path, &comm, NULL, NULL);
                                g_string_append_printf(names, " %d:%s", GPOINTER_TO_INT(pid),
                                                       comm ? g_strstrip(comm) : "?");
                                n++;
                                break;
                        }
                        up = GPOINTER_TO_INT(g_hash_table_lookup(parent, GINT_TO_POINTER(up)));
                }
        }
        return n;
}

/* Every transport, every bus (D-Bus transports), one payload, its cpus=
 * as test_transport()'s: once the runner is freed no process it started
 * (client, server, bus daemon or its guardian) is left, and neither is
 * any directory it made (nor a library transport's socket files, which
 * lie in the repetition's directory). */
static void test_left_behind(gconstpointer data)
{
        const Transport *t = data;
        const char *cpus;

        if (skip_unavailable(t) || !(cpus = cpus_for(t, CPUS_NONE)))
                return;
        g_autofree char *runtime = g_dir_make_tmp("ipclab-lb-XXXXXX", NULL);
        g_autofree char *old = g_strdup(g_getenv("XDG_RUNTIME_DIR"));
        g_assert_nonnull(runtime);
        g_assert_cmpint(prctl(PR_SET_CHILD_SUBREAPER, 1), ==, 0);
        g_setenv("XDG_RUNTIME_DIR", runtime, TRUE);
        run_text("left-behind",
                "[experiment]\ntitle=left behind\ntransport=%s\n%s"
                "payload=string\nsize=64\npattern=oneway;roundtrip\ncount=5\nrepeat=1\nwarmup=1\nverify=true\n"
                "cpus=%s\n", t->name, (t->flags & TRANSPORT_DBUS) ? "bus=dbus-daemon;dbus-broker;p2p\n" : "",
                cpus);

        /* Waits for the descendants to go, however long that takes (one
         * left for good hangs the test, which run-tests reports). */
        g_autoptr(GString) names = g_string_new(NULL);
        guint left = 0;
        for (;;) {
                while (waitpid(-1, NULL, WNOHANG) > 0)
                        ;
                g_string_truncate(names, 0);
                if ((left = count_descendants(names)) == 0)
                        break;
                g_usleep(50000);
        }
        g_autoptr(GDir) d = g_dir_open(runtime, 0, NULL);
        const char *entry = d ? g_dir_read_name(d) : NULL;
        g_autofree char *entry_name = g_strdup(entry);
        g_clear_pointer(&d, g_dir_close);
        if (old)
                g_setenv("XDG_RUNTIME_DIR", old, TRUE);
        else
                g_unsetenv("XDG_RUNTIME_DIR");
        prctl(PR_SET_CHILD_SUBREAPER, 0);
        if (!entry_name)
                g_rmdir(runtime);
        g_assert_cmpstr(names->str, ==, "");
        g_assert_cmpuint(left, ==, 0);
        g_assert_cmpstr(entry_name, ==, NULL);
}

/* roles=threads: every payload and pattern intact, counted and time-boxed,
 * with both roles as threads of one process, on one CPU and on two. */
static void test_threads(gconstpointer data)
{
        const Transport *t = data;
        const char *cpus;

        if (skip_unavailable(t) || !(cpus = cpus_for(t, CPUS_SAME)))
                return;
        run_intact(t, "threads", "dbus-daemon;p2p", "roles=threads\ncpus=%s\nsize=1;65536\ncount=20\n", cpus);
        run_boxed(t, !strcmp(cpus, "same") && two_cpus() ? "same;split" : cpus, "threads");
}

/* Where a wrapped pipe's open() writes "ROLE PID TID" (whose-pipe). */
static char *whose_path;

static int whose_open(Endpoint *ep, Role role)
{
        int fd = open(whose_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
        if (fd >= 0) {
                dprintf(fd, "%d %d %d\n", (int) role, (int) getpid(), (int) gettid());
                close(fd);
        }
        return transport_pipe.open(ep, role);
}

/* The CPU time a burn-pipe server spends on every message it receives. */
#define BURN_NS 200000

static int burn_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        int r = transport_pipe.recv(ep, data, len, expect);
        struct timespec a, b;

        if (r <= 0 || ep->role != ROLE_SERVER || clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a) < 0)
                return r;
        do {
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
        } while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < BURN_NS);
        return r;
}

/* roles=threads puts both roles into one process (one pid, two threads,
 * not the test's own), roles=processes into two; with cpus=split each
 * thread's placement is its own, and the cell's is split. */
static void test_threads_one_process(void)
{
        static Transport whose;
        pipe_variant(&whose, "whose-pipe")->open = whose_open;
        whose_path = g_build_filename(tmp_dir, "whose", NULL);
        bool two = two_cpus();
        g_autoptr(Experiment) exp = load_text("whose",
                two ? "[experiment]\ntitle=whose\ntransport=whose-pipe\nroles=processes;threads\ncpus=split\n"
                      "pattern=roundtrip\ncount=50\nrepeat=1\nwarmup=2\n"
                    : "[experiment]\ntitle=whose\ntransport=whose-pipe\nroles=processes;threads\ncpus=same\n"
                      "pattern=roundtrip\ncount=50\nrepeat=1\nwarmup=2\n");
        g_autoptr(Runner) r = runner_new(exp);

        g_assert_cmpuint(exp->cells->len, ==, 2);
        for (guint i = 0; i < exp->cells->len; i++) {
                const Cell *c = exp->cells->pdata[i];
                Sample s;
                g_unlink(whose_path);
                run_cell(r, c, &s);
                g_autofree char *text = NULL;
                g_assert_true(g_file_get_contents(whose_path, &text, NULL, NULL));
                int role[2], pid[2], tid[2];
                g_assert_cmpint(sscanf(text, "%d %d %d\n%d %d %d", &role[0], &pid[0], &tid[0],
                                       &role[1], &pid[1], &tid[1]), ==, 6);
                g_assert_cmpint(role[0], ==, ROLE_SERVER);
                g_assert_cmpint(role[1], ==, ROLE_CLIENT);
                g_assert_cmpint(pid[0], !=, getpid());
                g_assert_cmpint(pid[1], !=, getpid());
                if (c->roles == ROLES_THREADS) {
                        g_assert_cmpint(pid[0], ==, pid[1]);
                        g_assert_cmpint(tid[0], !=, tid[1]);
                        g_assert_cmpint(tid[0], !=, pid[0]);   /* neither is the process's main thread */
                        g_assert_cmpint(tid[1], !=, pid[0]);
                } else {
                        g_assert_cmpint(pid[0], !=, pid[1]);
                }
                if (two) {
                        g_assert_cmpuint(s.placement, ==, PLACEMENT_SPLIT);
                        g_assert_cmpuint(s.client_on_cpu, !=, s.server_on_cpu);
                } else {
                        g_assert_cmpuint(s.placement, ==, PLACEMENT_SAME);
                }
        }
        g_unlink(whose_path);
}

/* Where a wrapped sysv-msg's open() writes its process id. */
static char *sysv_pids_path;

static int sysv_pids_open(Endpoint *ep, Role role)
{
        int fd = open(sysv_pids_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
        if (fd >= 0) {
                dprintf(fd, "%d\n", (int) getpid());
                close(fd);
        }
        return transport_sysv_msg.open(ep, role);
}

/* sysv-msg's queues have no name to unlink: once the runner is done, no
 * queue is left that the cell's processes sent to or received from
 * (lspid, lrpid in /proc/sysvipc/msg; only those processes' own queues
 * are looked at, never other programs'). */
static void test_sysv_removed(void)
{
        static Transport t;
        if (skip_unavailable(&transport_sysv_msg))
                return;
        variant(&t, &transport_sysv_msg, "sysv-pids")->open = sysv_pids_open;
        sysv_pids_path = g_build_filename(tmp_dir, "sysv-pids", NULL);
        {
                g_autoptr(Experiment) exp = load_text("sysv",
                        "[experiment]\ntitle=sysv\ntransport=sysv-pids\npattern=oneway;roundtrip\ncount=20\n"
                        "repeat=1\nwarmup=2\nverify=true\n");
                run_all(exp);
        }
        g_autofree char *pids = NULL, *queues = NULL;
        g_assert_true(g_file_get_contents(sysv_pids_path, &pids, NULL, NULL));
        g_unlink(sysv_pids_path);
        g_assert_true(g_file_get_contents("/proc/sysvipc/msg", &queues, NULL, NULL));
        g_auto(GStrv) ours = g_strsplit(g_strstrip(pids), "\n", -1);
        g_assert_cmpuint(g_strv_length(ours), ==, 4);   /* two cells, two roles */
        g_auto(GStrv) lines = g_strsplit(queues, "\n", -1);
        for (guint i = 1; lines[i]; i++) {
                g_auto(GStrv) f = g_strsplit_set(g_strstrip(lines[i]), " ", -1);
                g_autoptr(GPtrArray) v = g_ptr_array_new();
                for (guint k = 0; f[k]; k++)
                        if (*f[k])
                                g_ptr_array_add(v, f[k]);
                if (v->len < 7)
                        continue;
                /* key msqid perms cbytes qnum lspid lrpid ... */
                for (guint k = 0; ours[k]; k++) {
                        g_assert_cmpstr(v->pdata[5], !=, ours[k]);
                        g_assert_cmpstr(v->pdata[6], !=, ours[k]);
                }
        }
}

/* udp: a datagram the receiver's full buffer dropped fails the receive
 * of the next one queued after it, saying so; it does not go unnoticed.
 * Both roles in this process, the server's receive buffer at the
 * kernel's least, and nothing read until the client has sent 50. */
static void test_udp_loss(void)
{
        const Transport *t = &transport_udp;
        const Cell cell = { .transport = t->name, .payload = PAYLOAD_BYTES, .size = 4096,
                            .pattern = PATTERN_ONEWAY, .count = 50 };
        Endpoint srv, cli;
        char payload[4096] = { 0 };
        const void *data;
        size_t len;
        int tiny = 1, r = 0;

        if (skip_unavailable(t))
                return;
        IpclabCell tcell;
        transport_cell(&cell, &tcell);
        endpoint_init(&srv, &tcell);
        g_assert_cmpint(t->prepare(&srv), ==, 0);
        cli = srv;
        for (size_t i = 0; i < G_N_ELEMENTS(cli.fd); i++)
                cli.fd[i] = srv.fd[i] >= 0 ? fcntl(srv.fd[i], F_DUPFD_CLOEXEC, 0) : -1;
        g_assert_cmpint(t->open(&srv, ROLE_SERVER), ==, 0);
        g_assert_cmpint(t->open(&cli, ROLE_CLIENT), ==, 0);
        g_assert_cmpint(setsockopt(srv.fd[0], SOL_SOCKET, SO_RCVBUF, &tiny, sizeof tiny), ==, 0);
        for (guint i = 0; i < cell.count; i++)
                g_assert_cmpint(t->send(&cli, payload, sizeof payload, 0), ==, 0);
        /* What was queued before the drops arrives as it was; the next
         * datagram, queued once there is room, carries the count. */
        g_assert_cmpint(t->recv(&srv, &data, &len, sizeof payload), ==, 1);
        g_assert_cmpint(t->send(&cli, payload, sizeof payload, 0), ==, 0);
        r = t->recv(&srv, &data, &len, sizeof payload);
        g_test_message("the server's receive: %d, %s", r, srv.why);
        g_assert_cmpint(r, ==, -EPROTO);
        g_assert_nonnull(strstr(srv.why, "lost (the receive buffer was full): a lost datagram fails the repetition"));
        t->close(&cli);
        t->cleanup(&srv);
        g_free(cli.buf);
        g_free(srv.buf);
}

/* roles=threads reads each thread's own CPU clock: a server that burns
 * BURN_NS of CPU on every message shows it in server_cpu_ns, and the
 * client, waiting on the same CPU, does not (a process-wide clock would
 * give the client the server's time too). */
static void test_threads_cpu_clocks(void)
{
        static Transport burn;
        pipe_variant(&burn, "burn-pipe")->recv = burn_recv;
        g_autoptr(Experiment) exp = load_text("burn",
                "[experiment]\ntitle=burn\ntransport=burn-pipe\nroles=threads;processes\ncpus=same\n"
                "pattern=roundtrip\ncount=30\nrepeat=1\nwarmup=2\n");
        g_autoptr(Runner) r = runner_new(exp);

        g_assert_cmpuint(exp->cells->len, ==, 2);
        for (guint i = 0; i < exp->cells->len; i++) {
                const Cell *c = exp->cells->pdata[i];
                Sample s;
                run_cell(r, c, &s);
                g_test_message("%s: client %" G_GUINT64_FORMAT " ns, server %" G_GUINT64_FORMAT " ns of CPU",
                               roles_name(c->roles), (guint64) s.client_cpu_ns, (guint64) s.server_cpu_ns);
                g_assert_cmpuint(s.server_cpu_ns, >=, 30 * (guint64) BURN_NS);
                g_assert_cmpuint(s.server_cpu_ns, <=, s.elapsed_ns);
                g_assert_cmpuint(s.client_cpu_ns, >, 0);
                g_assert_cmpuint(s.client_cpu_ns, <, s.server_cpu_ns / 4);
        }
}

/* busy-ring runs only with a CPU for each side: cpus=none and same are
 * left out with the reason before anything is measured, split runs,
 * as processes and as threads (where this process has two CPUs). */
static void test_busy_ring_cpus(void)
{
        g_autoptr(Experiment) exp = load_text("busy-cpus",
                "[experiment]\ntitle=busy\ntransport=busy-ring\ncpus=none;same;split\nroles=processes;threads\n"
                "pattern=roundtrip\ncount=20\nrepeat=1\nwarmup=2\nverify=true\n");
        guint refused = 0;

        if (!two_cpus()) {
                g_test_skip("one CPU to run on: cpus=split needs two");
                return;
        }
        for (guint i = 0; i < exp->skipped->len; i++) {
                const char *line = exp->skipped->pdata[i];
                g_test_message("skipped: %s", line);
                refused += strstr(line, "CPUs of their own") != NULL;
        }
        g_assert_cmpuint(refused, ==, 4);
        g_assert_cmpuint(exp->cells->len, ==, 2);
        for (guint i = 0; i < exp->cells->len; i++)
                g_assert_cmpint(((const Cell *) exp->cells->pdata[i])->cpus, ==, CPUS_SPLIT);
        run_all(exp);
}

/* A busy-ring side waiting for a peer that has closed gives up with
 * EPIPE instead of spinning.  Both roles in this process. */
static void test_busy_ring_peer_gone(void)
{
        const Transport *t = &transport_busy_ring;
        const Cell cell = { .transport = t->name, .payload = PAYLOAD_BYTES, .size = 64,
                            .pattern = PATTERN_ROUNDTRIP, .cpus = CPUS_SPLIT, .count = 1 };
        IpclabCell tcell;
        Endpoint srv, cli;
        const void *data;
        size_t len;

        transport_cell(&cell, &tcell);
        endpoint_init(&srv, &tcell);
        g_assert_cmpint(t->prepare(&srv), ==, 0);
        cli = srv;
        g_assert_cmpint(t->open(&srv, ROLE_SERVER), ==, 0);
        g_assert_cmpint(t->open(&cli, ROLE_CLIENT), ==, 0);
        g_assert_cmpint(t->send(&cli, "ping", 4, 0), ==, 0);
        g_assert_cmpint(t->recv(&srv, &data, &len, 4), ==, 1);
        g_assert_cmpmem(data, len, "ping", 4);
        t->close(&cli);
        int r = t->recv(&srv, &data, &len, 4);
        g_test_message("the server's receive: %d, %s", r, srv.why);
        g_assert_cmpint(r, ==, -EPIPE);
        t->cleanup(&srv);
        g_free(cli.buf);
        g_free(srv.buf);
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
        transports_install(&transport_ops);
        experiment_install_claim_check(verify_claim_check);
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
                if ((t->flags & TRANSPORT_MARSHAL) && t->refuses) {
                        g_autofree char *own = g_strdup_printf("/transports/own-marshal/%s", t->name);
                        g_test_add_data_func(own, t, test_own_marshal);
                }
                if (t->flags & TRANSPORT_THREADS) {
                        g_autofree char *th = g_strdup_printf("/transports/threads/%s", t->name);
                        g_test_add_data_func(th, t, test_threads);
                }
                if (t->flags & TRANSPORT_DBUS) {
                        g_autofree char *ls = g_strdup_printf("/transports/long-stream/%s", t->name);
                        g_test_add_data_func(ls, t, test_long_stream);
                }
                g_autofree char *lb = g_strdup_printf("/transports/left-behind/%s", t->name);
                g_test_add_data_func(lb, t, test_left_behind);
                if (!strcmp(t->family, "library")) {
                        g_autofree char *lg = g_strdup_printf("/transports/large/%s", t->name);
                        g_test_add_data_func(lg, t, test_large);
                }
        }
        g_test_add_func("/transports/time-limit", test_time_limit);
        g_test_add_func("/transports/threads/one-process", test_threads_one_process);
        g_test_add_func("/transports/threads/cpu-clocks", test_threads_cpu_clocks);
        g_test_add_func("/transports/sysv-msg/removed", test_sysv_removed);
        g_test_add_func("/transports/udp/loss", test_udp_loss);
        g_test_add_func("/transports/busy-ring/cpus", test_busy_ring_cpus);
        g_test_add_func("/transports/busy-ring/peer-gone", test_busy_ring_peer_gone);
        g_test_add_func("/transports/refuses", test_refuses);
        g_test_add_func("/transports/claim-unavailable", test_claim_unavailable);
        g_test_add_func("/transports/sdbus-c++/cells", test_sdbus_cpp_cells);
        g_test_add_func("/transports/grpc/cells", test_grpc_cells);
        int r = g_test_run();
        g_rmdir(tmp_dir);
        return r;
}
