/* test-faults.c: faults injected into real runs, through wrapper transports.
 *
 * Each wrapper (registered with transport_add_extra()) forwards every op to
 * a real transport (pipe, unix-stream, unix-seqpacket, libdbus, gdbus,
 * sd-bus) and misbehaves once, in one role, after a number of messages:
 * raise(SIGKILL), stop answering (the cell's time limit must end it), kill
 * the bus daemon, flip one payload byte, break a string's UTF-8, shorten a
 * message, fail an op, corrupt the server's final ack.  Every experiment
 * lists the faulty transport first and then healthy cells, and runs them
 * all with one Runner, as `ipclab run` does.  For every fault:
 *   - the faulty cell is recorded as failed (status < 0) with a reason that
 *     says what happened;
 *   - the healthy cells after it still run and succeed (a killed bus is
 *     replaced by a new one);
 *   - afterwards no process of ours is left (the test is a child
 *     subreaper, so an orphan would be reparented to it and seen in
 *     /proc), and no private directory (ipclab-*, ipclab-bus-*) is left in
 *     $XDG_RUNTIME_DIR or $TMPDIR, which point to a directory of our own.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "bus.h"
#include "experiment.h"
#include "runner.h"
#include "transport.h"
#include "verify.h"

typedef enum {
        FAULT_KILL,       /* raise(SIGKILL) */
        FAULT_HANG,       /* stop answering: sleep until killed */
        FAULT_KILL_BUS,   /* SIGKILL the bus daemon, then carry on */
        FAULT_FLIP,       /* flip the low bit of one payload byte */
        FAULT_BAD_UTF8,   /* put a 0xff byte into a string payload */
        FAULT_TRUNCATE,   /* send one byte less than asked */
        FAULT_FAIL,       /* the op fails with EIO and a reason */
        FAULT_FLIP_ACK,   /* corrupt the server's final ack */
} FaultKind;

typedef enum {
        OP_OPEN,          /* open() */
        OP_SEND,          /* send() or call(): a request or a reply */
        OP_RECV,          /* recv() that returned a message */
} Op;

typedef struct {
        const char *name;          /* the transport name experiments use */
        const Transport *inner;
        FaultKind kind;
        Role role;                 /* the side that misbehaves */
        Op op;                     /* at which op */
        guint after;               /* ops of that kind done normally first */
        Transport wrapper;
} Fault;

#define AFTER 20   /* warm-up 3 + 17 timed messages */

static Fault faults[] = {
        { "fault-kill-server", &transport_pipe, FAULT_KILL, ROLE_SERVER, OP_RECV, AFTER, { 0 } },
        { "fault-kill-client", &transport_pipe, FAULT_KILL, ROLE_CLIENT, OP_SEND, AFTER, { 0 } },
        { "fault-kill-open", &transport_pipe, FAULT_KILL, ROLE_SERVER, OP_OPEN, 0, { 0 } },
        { "fault-hang-server", &transport_pipe, FAULT_HANG, ROLE_SERVER, OP_SEND, AFTER, { 0 } },
        { "fault-hang-client", &transport_unix_stream, FAULT_HANG, ROLE_CLIENT, OP_SEND, AFTER, { 0 } },
        { "fault-fail-recv", &transport_pipe, FAULT_FAIL, ROLE_SERVER, OP_RECV, AFTER, { 0 } },
        { "fault-flip-request", &transport_pipe, FAULT_FLIP, ROLE_CLIENT, OP_SEND, AFTER, { 0 } },
        { "fault-flip-reply", &transport_unix_stream, FAULT_FLIP, ROLE_SERVER, OP_SEND, AFTER, { 0 } },
        { "fault-flip-ack", &transport_pipe, FAULT_FLIP_ACK, ROLE_SERVER, OP_SEND, 0, { 0 } },
        { "fault-bad-utf8", &transport_pipe, FAULT_BAD_UTF8, ROLE_CLIENT, OP_SEND, AFTER, { 0 } },
        { "fault-truncate", &transport_unix_seqpacket, FAULT_TRUNCATE, ROLE_CLIENT, OP_SEND, AFTER, { 0 } },
        { "fault-kill-bus-libdbus", &transport_libdbus, FAULT_KILL_BUS, ROLE_CLIENT, OP_SEND, AFTER, { 0 } },
        { "fault-kill-bus-gdbus", &transport_gdbus, FAULT_KILL_BUS, ROLE_CLIENT, OP_SEND, AFTER, { 0 } },
        { "fault-kill-bus-sd-bus", &transport_sd_bus, FAULT_KILL_BUS, ROLE_CLIENT, OP_SEND, AFTER, { 0 } },
        { "fault-kill-client-libdbus", &transport_libdbus, FAULT_KILL, ROLE_CLIENT, OP_SEND, AFTER, { 0 } },
        { "fault-flip-libdbus", &transport_libdbus, FAULT_FLIP, ROLE_CLIENT, OP_SEND, AFTER, { 0 } },
};

static char *tmp_dir;              /* $XDG_RUNTIME_DIR and $TMPDIR: ours alone */
static guint faults_injected;      /* faulty cells run */
static guint cells_survived;       /* healthy cells that ran after a fault */

/* Per process (each child starts from the parent's zeros). */
static Role my_role;
static guint op_count[3];
static bool stream_ended;          /* the server's recv() returned 0 */
static char *scratch;              /* a corrupted copy of a payload */

static const Fault *fault_of(const Endpoint *ep)
{
        for (size_t i = 0; i < G_N_ELEMENTS(faults); i++)
                if (!strcmp(faults[i].name, ep->cell->transport))
                        return &faults[i];
        g_assert_not_reached();
}

/* True when this op of this process is the one that misbehaves. */
static bool strikes(const Fault *f, Op op)
{
        if (f->role != my_role || f->op != op)
                return false;
        if (f->kind == FAULT_FLIP_ACK)
                return stream_ended;
        return op_count[op] == f->after;
}

static void hang_forever(void)
{
        for (;;)
                pause();
}

static int w_open(Endpoint *ep, Role role)
{
        const Fault *f = fault_of(ep);

        my_role = role;
        if (strikes(f, OP_OPEN))
                raise(SIGKILL);
        return f->inner->open(ep, role);
}

/* The payload to send in place of DATA, or DATA itself; *LEN may shrink. */
static const void *misbehave_send(const Fault *f, Endpoint *ep, const void *data, size_t *len)
{
        if (!strikes(f, OP_SEND))
                return data;
        switch (f->kind) {
        case FAULT_KILL:
                raise(SIGKILL);
                break;
        case FAULT_HANG:
                hang_forever();
                break;
        case FAULT_KILL_BUS:
                g_assert_cmpint(ep->bus_pid, >, 0);
                kill(ep->bus_pid, SIGKILL);
                break;
        case FAULT_FLIP:
        case FAULT_BAD_UTF8:
        case FAULT_FLIP_ACK:
                if (*len == 0)
                        break;
                g_free(scratch);
                scratch = g_malloc(*len + 1);
                memcpy(scratch, data, *len);
                scratch[*len] = '\0';
                if (f->kind == FAULT_BAD_UTF8)
                        scratch[*len / 2] = (char) 0xff;
                else if (f->kind == FAULT_FLIP_ACK)
                        scratch[30] ^= 1;    /* the last digit of the message count */
                else
                        scratch[*len / 2] ^= 1;
                return scratch;
        case FAULT_TRUNCATE:
                if (*len > 0)
                        (*len)--;
                break;
        case FAULT_FAIL:
                break;
        }
        return data;
}

static int w_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        const Fault *f = fault_of(ep);

        data = misbehave_send(f, ep, data, &len);
        if (strikes(f, OP_SEND) && f->kind == FAULT_FAIL)
                return endpoint_fail(ep, EIO, "injected send failure");
        op_count[OP_SEND]++;
        return f->inner->send(ep, data, len, flags);
}

static int w_call(Endpoint *ep, const void *data, size_t len, const void **reply, size_t *reply_len,
                  size_t expect)
{
        const Fault *f = fault_of(ep);

        data = misbehave_send(f, ep, data, &len);
        if (strikes(f, OP_SEND) && f->kind == FAULT_FAIL)
                return endpoint_fail(ep, EIO, "injected call failure");
        op_count[OP_SEND]++;
        return f->inner->call(ep, data, len, reply, reply_len, expect);
}

static int w_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        const Fault *f = fault_of(ep);

        if (strikes(f, OP_RECV)) {
                if (f->kind == FAULT_KILL)
                        raise(SIGKILL);
                if (f->kind == FAULT_HANG)
                        hang_forever();
                if (f->kind == FAULT_FAIL)
                        return endpoint_fail(ep, EIO, "injected receive failure");
        }
        int r = f->inner->recv(ep, data, len, expect);
        if (r > 0)
                op_count[OP_RECV]++;
        if (r == 0 && my_role == ROLE_SERVER)
                stream_ended = true;
        return r;
}

static int w_prepare(Endpoint *ep)
{
        const Fault *f = fault_of(ep);
        return f->inner->prepare ? f->inner->prepare(ep) : 0;
}

static int w_send_end(Endpoint *ep)
{
        return fault_of(ep)->inner->send_end(ep);
}

static void w_close(Endpoint *ep)
{
        const Fault *f = fault_of(ep);
        if (f->inner->close)
                f->inner->close(ep);
}

static void w_cleanup(Endpoint *ep)
{
        const Fault *f = fault_of(ep);
        if (f->inner->cleanup)
                f->inner->cleanup(ep);
}

static void register_faults(void)
{
        for (size_t i = 0; i < G_N_ELEMENTS(faults); i++) {
                Fault *f = &faults[i];
                Transport *w = &f->wrapper;

                g_assert_cmpuint(f->inner->flags & TRANSPORT_INPROCESS, ==, 0);
                *w = *f->inner;   /* flags, limits, availability */
                w->name = f->name;
                w->summary = "fault injection (test only)";
                w->prepare = w_prepare;
                w->open = w_open;
                w->send = w_send;
                w->recv = w_recv;
                w->send_end = w_send_end;
                w->call = f->inner->call ? w_call : NULL;
                w->close = w_close;
                w->cleanup = w_cleanup;
                transport_add_extra(w);
        }
}

/* ---- processes and directories left behind ---- */

typedef struct {
        pid_t pid, ppid;
        char state;
        char comm[32];
} Proc;

static bool read_proc(pid_t pid, Proc *p)
{
        g_autofree char *path = g_strdup_printf("/proc/%d/stat", (int) pid);
        g_autofree char *text = NULL;

        if (!g_file_get_contents(path, &text, NULL, NULL))
                return false;
        char *open = strchr(text, '('), *close = strrchr(text, ')');
        if (!open || !close || close < open)
                return false;
        p->pid = pid;
        g_strlcpy(p->comm, open + 1, MIN(sizeof p->comm, (size_t) (close - open)));
        if (sscanf(close + 2, "%c %d", &p->state, &p->ppid) != 2)
                return false;
        return true;
}

/* Live processes whose parent chain leads to this test, as "pid comm". */
static GPtrArray *descendants(void)
{
        g_autoptr(GHashTable) parent = g_hash_table_new(g_direct_hash, g_direct_equal);
        g_autoptr(GArray) procs = g_array_new(FALSE, FALSE, sizeof(Proc));
        GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
        pid_t self = getpid();
        DIR *d = opendir("/proc");
        struct dirent *e;

        g_assert_nonnull(d);
        while ((e = readdir(d))) {
                Proc p;
                if (!g_ascii_isdigit(e->d_name[0]) || !read_proc(atoi(e->d_name), &p))
                        continue;
                g_array_append_val(procs, p);
                g_hash_table_insert(parent, GINT_TO_POINTER(p.pid), GINT_TO_POINTER(p.ppid));
        }
        closedir(d);
        for (guint i = 0; i < procs->len; i++) {
                const Proc *p = &g_array_index(procs, Proc, i);
                pid_t up = p->ppid;
                if (p->pid == self || p->state == 'Z')
                        continue;
                for (int depth = 0; up > 1 && up != self && depth < 64; depth++)
                        up = GPOINTER_TO_INT(g_hash_table_lookup(parent, GINT_TO_POINTER(up)));
                if (up == self)
                        g_ptr_array_add(out, g_strdup_printf("%d %s", (int) p->pid, p->comm));
        }
        return out;
}

/* Entries of the private directory, as one string ("" when empty). */
static char *leftover_files(void)
{
        g_autoptr(GDir) d = g_dir_open(tmp_dir, 0, NULL);
        GString *s = g_string_new(NULL);
        const char *name;

        while (d && (name = g_dir_read_name(d)))
                g_string_append_printf(s, "%s%s", s->len ? " " : "", name);
        return g_string_free(s, FALSE);
}

/* Waits for every descendant to be gone (reaping the zombies that orphans
 * leave with us) and the private directory to be empty, however long that
 * takes: what is left for good makes the test hang, and run-tests stops a
 * hung test and names it. */
static void assert_nothing_left(void)
{
        for (;;) {
                while (waitpid(-1, NULL, WNOHANG) > 0)
                        ;
                g_autoptr(GPtrArray) procs = descendants();
                g_autofree char *files = leftover_files();
                if (procs->len == 0 && files[0] == '\0')
                        return;
                g_usleep(20000);
        }
}

/* ---- running experiments ---- */

static Experiment *load_text(const char *text)
{
        g_autoptr(GError) e = NULL;
        g_autofree char *path = g_build_filename(tmp_dir, "faults.ini", NULL);

        g_assert_true(g_file_set_contents(path, text, -1, NULL));
        Experiment *exp = experiment_load(path, NULL, &e);
        g_assert_no_error(e);
        g_unlink(path);
        return exp;
}

static bool skip_unavailable(const Transport *t)
{
        const char *why = t->unavailable ? t->unavailable() : NULL;

        if (why)
                g_test_skip(why);
        return why != NULL;
}

/* Runs every cell of an experiment over FAULT's wrapper and then the real
 * transport; the faulty cells must fail with a reason containing one of
 * the |-separated EXPECT strings, the healthy ones must succeed.  EXTRA
 * holds more [experiment] lines. */
static void run_fault(const Fault *f, const char *extra, const char *expect)
{
        g_autofree char *text = g_strdup_printf(
                "[experiment]\ntitle=fault %s\ntransport=%s;%s\nsize=100\ncount=50\nwarmup=3\n"
                "repeat=1\nverify=true\n%s", f->name, f->name, f->inner->name, extra);
        g_autoptr(Experiment) exp = load_text(text);
        g_autoptr(Runner) runner = runner_new(exp);
        g_auto(GStrv) expects = g_strsplit(expect, "|", -1);
        guint faulty = 0, healthy = 0;

        for (guint i = 0; i < exp->cells->len; i++) {
                const Cell *c = exp->cells->pdata[i];
                g_autofree char *d = cell_describe(c);
                bool is_fault = !strcmp(c->transport, f->name);
                Sample s;

                memset(op_count, 0, sizeof op_count);
                stream_ended = false;
                g_assert_cmpint(runner_run(runner, c, 0, &s), ==, 0);
                g_test_message("%s: status %d: %s", d, s.status, s.status ? s.why : "ok");
                if (is_fault) {
                        bool named = false;
                        for (guint k = 0; expects[k]; k++)
                                named |= strstr(s.why, expects[k]) != NULL;
                        if (s.status >= 0)
                                g_test_fail_printf("%s: the fault went unnoticed", d);
                        else if (!named)
                                g_test_fail_printf("%s: the reason '%s' does not say '%s'", d, s.why, expect);
                        faulty++;
                } else {
                        if (s.status != 0)
                                g_test_fail_printf("%s: a healthy cell after a fault failed: %s", d, s.why);
                        else if (s.messages != c->count)
                                g_test_fail_printf("%s: %" G_GUINT64_FORMAT " messages, %" G_GUINT64_FORMAT
                                                   " expected", d, s.messages, c->count);
                        healthy++;
                }
        }
        g_assert_cmpuint(faulty, >, 0);
        g_assert_cmpuint(healthy, >, 0);
        g_clear_pointer(&runner, runner_free);
        assert_nothing_left();
        faults_injected += faulty;
        cells_survived += healthy;
}

static const Fault *fault(const char *name)
{
        for (size_t i = 0; i < G_N_ELEMENTS(faults); i++)
                if (!strcmp(faults[i].name, name))
                        return &faults[i];
        g_assert_not_reached();
}

static void test_kill_server(void)
{
        run_fault(fault("fault-kill-server"), "pattern=oneway;roundtrip\n",
                  "the server killed by signal 9");
}

static void test_kill_client(void)
{
        run_fault(fault("fault-kill-client"), "pattern=oneway;roundtrip\n",
                  "the client killed by signal 9");
}

static void test_kill_before_ready(void)
{
        run_fault(fault("fault-kill-open"), "pattern=roundtrip\n", "server");
}

/* A peer that stops answering: the time limit ends the cell (were it not
 * enforced, the test would hang).  The healthy cells run under the same
 * limit: 5 s, which 50 round trips do not reach on a busy machine (with
 * 1 s, two CPU hogs beside them came close). */
static void test_hang_server(void)
{
        run_fault(fault("fault-hang-server"), "pattern=roundtrip\ntimeout=5s\n", "time limit");
}

static void test_hang_client(void)
{
        run_fault(fault("fault-hang-client"), "pattern=oneway;roundtrip\ntimeout=5s\n", "time limit");
}

static void test_fail_recv(void)
{
        run_fault(fault("fault-fail-recv"), "pattern=oneway;roundtrip\n",
                  "server receive: injected receive failure");
}

/* A request corrupted in flight: a one-way stream's checksum and a round
 * trip's echo both notice. */
static void test_flip_request(void)
{
        run_fault(fault("fault-flip-request"), "pattern=oneway;roundtrip\npayload=bytes;string\n",
                  "payload checksum mismatch|echoed payload differs");
}

static void test_flip_reply(void)
{
        run_fault(fault("fault-flip-reply"), "pattern=roundtrip\npayload=bytes;string\n",
                  "echoed payload differs");
}

static void test_flip_ack(void)
{
        run_fault(fault("fault-flip-ack"), "pattern=oneway;roundtrip\n",
                  "the server received|malformed ack");
}

static void test_bad_utf8(void)
{
        run_fault(fault("fault-bad-utf8"), "pattern=oneway;roundtrip\npayload=string\n",
                  "not valid UTF-8");
}

static void test_truncate(void)
{
        run_fault(fault("fault-truncate"), "pattern=oneway;roundtrip\n",
                  "99 bytes arrived, 100 were sent");
}

/* The bus daemon killed mid-cell: that cell fails, the bus is replaced and
 * the next cells on the same kind of bus run.  One test per transport and
 * bus, so that a bus daemon missing here is a skip, not a pass. */
typedef struct {
        const char *fault;   /* the fault-injecting transport */
        BusKind bus;
} KillBus;

static const KillBus kill_bus_cases[] = {
        { "fault-kill-bus-libdbus", BUS_DBUS_DAEMON },
        { "fault-kill-bus-libdbus", BUS_DBUS_BROKER },
        { "fault-kill-bus-gdbus", BUS_DBUS_DAEMON },
        { "fault-kill-bus-gdbus", BUS_DBUS_BROKER },
        { "fault-kill-bus-sd-bus", BUS_DBUS_DAEMON },
        { "fault-kill-bus-sd-bus", BUS_DBUS_BROKER },
};

static void test_kill_bus(gconstpointer data)
{
        const KillBus *k = data;
        const Fault *f = fault(k->fault);

        if (skip_unavailable(f->inner))
                return;
        const char *why = bus_unavailable(k->bus);
        if (why) {
                g_test_skip(why);
                return;
        }
        /* An hour's limit: the death must end the cell, not the limit. */
        g_autofree char *extra = g_strdup_printf("bus=%s\npattern=roundtrip\ntimeout=3600s\n",
                                                 bus_name(k->bus));
        run_fault(f, extra, "died during the cell");
}

/* A client killed on a bus: the server, which sees no end of stream on a
 * bus, must not keep the cell waiting for its time limit (an hour here:
 * the test would hang, and the reason would be the limit). */
static void test_kill_client_on_bus(void)
{
        const Fault *f = fault("fault-kill-client-libdbus");

        if (skip_unavailable(f->inner))
                return;
        run_fault(f, "bus=dbus-daemon;p2p\npattern=roundtrip\ntimeout=3600s\n", "the client killed by signal 9");
}

static void test_flip_on_bus(void)
{
        const Fault *f = fault("fault-flip-libdbus");

        if (skip_unavailable(f->inner))
                return;
        run_fault(f, "bus=dbus-daemon;p2p\npattern=oneway;roundtrip\npayload=bytes;string\n",
                  "payload checksum mismatch|echoed payload differs");
}

static void test_summary(void)
{
        g_test_message("faults injected: %u; healthy cells run after them: %u", faults_injected,
                       cells_survived);
}

int main(int argc, char **argv)
{
        /* Every fault is a test of its own: one failing must not hide the
         * others, so keep going after a failure. */
        char **args = g_new0(char *, argc + 2);
        memcpy(args, argv, sizeof *argv * (size_t) argc);
        args[argc++] = (char *) "--keep-going";
        g_test_init(&argc, &args, NULL);
        transports_install(&transport_ops);
        experiment_install_claim_check(verify_claim_check);

        /* Orphans of ours come back to us, so that none can hide. */
        g_assert_cmpint(prctl(PR_SET_CHILD_SUBREAPER, 1), ==, 0);
        tmp_dir = g_dir_make_tmp("ipclab-faults-XXXXXX", NULL);
        g_assert_nonnull(tmp_dir);
        g_setenv("XDG_RUNTIME_DIR", tmp_dir, TRUE);
        g_setenv("TMPDIR", tmp_dir, TRUE);
        register_faults();

        g_test_add_func("/faults/kill-server", test_kill_server);
        g_test_add_func("/faults/kill-client", test_kill_client);
        g_test_add_func("/faults/kill-before-ready", test_kill_before_ready);
        g_test_add_func("/faults/hang-server", test_hang_server);
        g_test_add_func("/faults/hang-client", test_hang_client);
        g_test_add_func("/faults/fail-recv", test_fail_recv);
        g_test_add_func("/faults/flip-request", test_flip_request);
        g_test_add_func("/faults/flip-reply", test_flip_reply);
        g_test_add_func("/faults/flip-ack", test_flip_ack);
        g_test_add_func("/faults/bad-utf8", test_bad_utf8);
        g_test_add_func("/faults/truncate", test_truncate);
        for (size_t i = 0; i < G_N_ELEMENTS(kill_bus_cases); i++) {
                const KillBus *k = &kill_bus_cases[i];
                g_autofree char *path = g_strdup_printf("/faults/kill-bus/%s/%s",
                                                        k->fault + strlen("fault-kill-bus-"),
                                                        bus_name(k->bus));
                g_test_add_data_func(path, k, test_kill_bus);
        }
        g_test_add_func("/faults/kill-client-on-bus", test_kill_client_on_bus);
        g_test_add_func("/faults/flip-on-bus", test_flip_on_bus);
        g_test_add_func("/faults/summary/count", test_summary);
        int r = g_test_run();
        g_rmdir(tmp_dir);
        g_free(tmp_dir);
        g_free(args);
        return r;
}
