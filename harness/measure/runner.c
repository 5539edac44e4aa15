/* runner.c: fork client and server, pin CPUs, warm up, time, collect.
 *
 * One repetition of one cell:
 *   runner   (ipclab's process) pins the bus daemon (below), makes a
 *            private 0700 directory, forks the supervisor and sleeps until
 *            its report (supervise); it calls no hook of the transport, so
 *            that a crash or a hang in one fails the cell, not the run
 *   supervisor  prepare()s the transport, forks the server and waits for
 *            its READY byte, forks the client, close()s its copies, then
 *            waits for both reports (or the time limit, then SIGKILL),
 *            cleanup()s and reports; each hook it calls under a timer
 *            (hook_enter) and with its name where the runner reads it
 *   server   open(SERVER), READY, answers requests until the end of the
 *            stream, sends the ack (messages, bytes, checksum it received,
 *            and its clock and CPU readings at the end of the timed window)
 *   client   open(CLIENT), warm-up round trips, a placement snapshot, two
 *            fixed windows, the timed pattern (the main window), end of
 *            stream, reads the ack and checks it against what it sent
 * Each child writes one Sample into its report pipe and _exit()s.  What
 * the ack's fixed width cannot hold (the start of the window, the fixed
 * window's end, the server's placement) goes through a page of memory
 * shared by the runner and both children (Shared).
 *
 * roles=threads (transports flagged TRANSPORT_THREADS, transport.h): the
 * supervisor forks one child instead of two; in it the server runs as a
 * thread and, once open, the client as a second one (pair_run), each with
 * its own context, endpoint (fds duplicated) and report pipe, each pinned
 * as its process would be.  Everything below holds with "thread" for
 * "process": each side's CPU clock is its thread's (CLOCK_THREAD_CPUTIME_ID,
 * the server's read by the client through pthread_getcpuclockid()), its
 * placement its thread's alone (placement_snap_thread), and the windows
 * are read exactly as between processes.  The time limit and a failed
 * side kill the one process, and with it both roles.
 *
 * The timed window.  It opens when the client reads CLOCK_MONOTONIC after
 * the warm-up and the fixed windows (t0).  Round trips: it closes when the
 * client reads the clock after the last reply.  One-way: it closes when the
 * server has received the last message (the server reads the clock then
 * and sends the reading back in its ack, after the window; both sides read
 * the same clock on one machine) or when the client's last send has
 * returned, whichever is later: the receipt, unless both share a CPU and
 * the server ran first.  So the end of the stream, the ack (its
 * formatting and parsing, cold code run once), close() and the exit of
 * either side all lie outside, and so do the supervisor (which waits in
 * collect(), as ipclab's process did before it ran the hooks elsewhere)
 * and ipclab's process (asleep in ppoll() until the report, with no
 * timer).  Inside lie the messages and the reads of
 * CPU clocks below, system calls: on the client, its own twice and the
 * server's twice (round trips) or once (one-way, where the server reads
 * its own once).
 *
 * Duration-boxed cells (duration=).  Round trips and calls: the client
 * checks the clock after every reply and stops at the first at or past
 * t0 + duration, so the window overshoots the duration by at most one
 * round trip.  One-way: the window ends at the server's last receipt at
 * or before t0 + duration (the client writes t0 into the shared page
 * before its first timed send; the server reads the clock on every
 * receipt), and only the messages received by then count; the client
 * stops sending at t0 + duration too, and what it queued that arrives
 * later is drained outside the window.  So the window falls short of the
 * duration by at most the gap between two receipts; only when no message
 * at all arrives by then (a library that queues on a busy CPU: GDBus in a
 * 20 ms box under load) does it end later, at the first receipt, with one
 * message.  (Until this rule the
 * window ended at the receipt of the last message sent before the
 * duration was up, and a library that queues what it sends stretched it:
 * GDBus, whose client hands messages to a worker thread and flushes every
 * 4 MiB, up to 705 ms for a 250 ms box, and counts that snapped to one
 * flush; sd-bus to 417 ms and QtDBus to 303 ms through a daemon's queue.)
 *
 * The fixed window.  After the warm-up the client times two windows of one
 * message each, exactly as the main window is timed (the same clock and
 * CPU-clock reads, the same kind of message; one-way, the server reads the
 * clock on its receipt and then answers it, outside that window, so that
 * the main window starts on an idle server); the second one's elapsed time
 * is the repetition's fixed_ns.  It bounds what a window holds besides
 * its messages (the clock and CPU-clock reads, the consumer's first
 * wake-up, the drain of a stream's last message): a window of N messages
 * holds N times a message's share plus at most that.  The first one-message
 * window runs the one-way paths (a one-way send, a stamp, the server's
 * receipt of a timed message) for the first time since the warm-up's round
 * trips, and after the placement snapshot's reads of /proc: measured on
 * direct, that first window took 20 to 25 us where the next took 4 (2 vCPUs
 * under KVM), a cost that would otherwise fall into the main window.  The
 * shared page is written by both children before the first window, so
 * that its first write (a page fault) does not fall into one.
 *
 * Placement (placement.h).  The client reads every thread of the client,
 * the server and the bus daemon from /proc after the warm-up, before the
 * fixed windows, and again after the main window (round trips) or after
 * the ack (one-way, where the server reads its own and the bus's threads
 * when the end of the stream arrives); each side reads sched_getcpu()
 * where its part of the main window ends.  cpus=same pins the client and
 * the server to the first CPU of ipclab's affinity mask, cpus=split the
 * server to the first and the client to the second; the bus daemon goes
 * with the server (so cpus=same puts all three on one CPU, cpus=split the
 * client alone), and back to ipclab's whole mask for cpus=none, before
 * every repetition: one daemon serves every cell of a run.
 *
 * CPU.  The kernel keeps an exact CPU clock per process (the scheduler's
 * runtime in ns, every thread; CLOCK_PROCESS_CPUTIME_ID, and for another
 * process clock_getcpuclockid()).  The client reads its own and the
 * server's just after t0, and again just before the window closes: after
 * the last reply, before its last clock read; one-way, the client's after
 * its last send and the server's by the server itself, just before it reads
 * the clock that closes the window.  So every CPU time lies inside the
 * window and cannot exceed it for one thread.  Where the server cannot know
 * which one-way message is the last (duration-boxed cells) it reads its CPU
 * clock (and the bus's) on the first receipt past t0 + duration, or at the
 * end of the stream, which adds the one receive that reports it.  The bus daemon's CPU clock is read just before t0 and where the
 * window closes (by the client after the last reply, by the server after
 * the last one-way message).  No user/system split: the kernel only
 * samples that at ticks, which at these durations is noise.  The reads
 * inside the window are system calls; bench/window.sh bounds what they and
 * everything else not the transport's add per repetition.
 *
 * One-way latency.  When a one-way message has room (8 bytes for a byte
 * array, 16 for a string, which gets the time as 16 hex digits so that it
 * stays valid UTF-8), the client reads CLOCK_MONOTONIC just before each
 * timed send and writes the reading into the payload's first bytes; the
 * server reads the clock once on receipt and records receipt - stamp per
 * message into the runner's shared latency buffer, which the client sorts
 * after the window.  So the window holds one clock read per message on
 * each side more than before (a duration-boxed stream reads none more on
 * the client: the stamp is also the reading its time box is checked
 * against; its server reads none more: its receipt reading is the
 * window's end), plus encoding a string's stamp.  Measured A B A B
 * against the runner without stamps (5 pairs of 100000 64-byte messages,
 * 2 CPUs under KVM): 41 ns more a message on direct (its two clock reads),
 * a median 22 ns (3 to 32 %) more on pipe and 33 ns (1 to 9 %) on
 * unix-stream; bench/window.sh 3 95af05d found the fixed cost of a
 * repetition unchanged within its noise (new/old medians 0.90 to 1.16).
 * The checksum of verify=true skips the stamp's bytes on both sides (the
 * sequence number goes after them), so that the time can be written
 * after the checksum, just before the send.
 */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bus.h"
#include "placement.h"
#include "spawn.h"
#include "samples.h"
#include "stats.h"
#include "transport.h"

/* What the server hands the client (and the client the parent) beside
 * the ack, in memory shared by the runner and both children (mapped
 * before they are forked): the ack's fixed 128 bytes hold no more. */
typedef struct {
        guint64 t0;               /* client: where the main window opened */
        guint64 fixed_end_ns;     /* server: receipt of the fixed window's message */
        guint64 in_window;        /* server, duration-boxed one-way: the messages
                                   * received by t0 + duration */
        int srv_end_cpu;          /* server, one-way: sched_getcpu() where its part
                                   * of the window ended; -1 */
        PlacementProc srv_after;  /* server, one-way: its threads and the bus's */
        PlacementProc bus_after;  /* at the end of the stream */
} Shared;

struct Runner {
        const Experiment *exp;
        Shared *shared;           /* MAP_SHARED: see Shared */
        /* Every round-trip latency of the last repetition, sorted: shared
         * with the client, which writes them there; grown as cells need. */
        guint64 *lat;
        size_t lat_cap, lat_n;
        int *stage;               /* MAP_SHARED: where the supervisor is (Stage) */
        Bus *bus[BUS_P2P + 1];
        char *bus_error[BUS_P2P + 1];   /* why a bus could not start */
};

volatile sig_atomic_t runner_interrupted;

/* messages, bytes, checksum, and where a one-way window closed: the
 * server's clock, its CPU clock and the bus daemon's CPU clock; fixed
 * width, within the 128 bytes every transport's smallest message holds. */
#define ACK_FORMAT "ipclab-ack %016" PRIx64 " %016" PRIx64 " %016" PRIx64 " %016" PRIx64 \
        " %016" PRIx64 " %016" PRIx64
#define ACK_SCAN "ipclab-ack %16" SCNx64 " %16" SCNx64 " %16" SCNx64 " %16" SCNx64 \
        " %16" SCNx64 " %16" SCNx64
#define ACK_LEN (10 + 6 * 17)
_Static_assert(ACK_LEN <= IPCLAB_TRANSPORT_ACK_MAX, "the ack is larger than ipclab/transport.h promises");
#define READY_BYTE 'R'
/* One-message windows before the main one (client_run): the last is
 * fixed_ns. */
#define FIXED_WINDOWS 2
/* Latencies kept per duration-boxed or one-way repetition (the first
 * ones): 32 MiB.  A round-trip count is checked against the machine's
 * memory when the file is loaded; a one-way count is not, and may be far
 * larger than any buffer. */
#define LATENCY_CAP ((guint64) 1 << 22)

/* Clock CLK in ns; 0 if it cannot be read. */
static guint64 clock_ns(clockid_t clk)
{
        struct timespec ts;

        if (clock_gettime(clk, &ts) != 0)
                return 0;
        return (guint64) ts.tv_sec * 1000000000u + (guint64) ts.tv_nsec;
}

static guint64 now_ns(void)
{
        return clock_ns(CLOCK_MONOTONIC);
}

/* CPU time process PID (every thread) has used, in ns, from its CPU clock;
 * 0 if unknown or PID <= 0. */
static guint64 proc_cpu_ns(pid_t pid)
{
        clockid_t clk;

        if (pid <= 0 || clock_getcpuclockid(pid, &clk) != 0)
                return 0;
        return clock_ns(clk);
}

/* FNV-1a, 64 bits, chained over every payload in order. */
static guint64 checksum_update(guint64 h, const void *data, size_t len)
{
        const unsigned char *p = data;

        for (size_t i = 0; i < len; i++) {
                h ^= p[i];
                h *= 1099511628211ull;
        }
        return h;
}
#define CHECKSUM_INIT 14695981039346656037ull

/* The request size on the wire: callrate carries no payload, which a
 * transport that cannot send empty messages replaces with one byte. */
static size_t request_size(const Transport *t, const Cell *cell)
{
        if (cell->pattern == PATTERN_CALLRATE)
                return (t->flags & TRANSPORT_EMPTY_OK) ? 0 : 1;
        return cell->size;
}

static size_t reply_size(const Transport *t, const Cell *cell)
{
        if (cell->reply == REPLY_ECHO && cell->pattern != PATTERN_CALLRATE)
                return cell->size;
        return (t->flags & TRANSPORT_EMPTY_OK) ? 0 : 1;
}

static const char empty_reply[] = "a";

/* Fills a payload: letters for strings (valid UTF-8 text, as 000 used),
 * a byte pattern covering all 256 values for byte arrays. */
static void payload_fill(char *buf, size_t len, PayloadType type)
{
        for (size_t i = 0; i < len; i++)
                buf[i] = type == PAYLOAD_STRING ? (char) ('a' + i % 26) : (char) (i * 7 + 3);
        buf[len] = '\0';
}

/* Stamps sequence number SEQ into the first 16 bytes as letters, so that
 * every message differs and loss or reordering changes the checksum. */
static void payload_stamp(char *buf, size_t len, guint64 seq)
{
        for (size_t k = 0; k < len && k < 16; k++)
                buf[k] = (char) ('a' + ((seq >> (4 * k)) & 15));
}

/* The bytes of a one-way payload of CELL that carry its send time: 8
 * (binary) in a byte array, 16 (hex digits) in a string; 0 when there is
 * no room or the cell is not one-way. */
static size_t stamp_size(const Cell *cell)
{
        size_t need = cell->payload == PAYLOAD_STRING ? 16 : 8;

        return cell->pattern == PATTERN_ONEWAY && cell->size >= need ? need : 0;
}

static const char hex_digits[] = "0123456789abcdef";

/* Writes send time T into the first LEN (stamp_size) bytes of BUF. */
static inline void stamp_write(char *buf, size_t len, guint64 t)
{
        if (len == 8) {
                memcpy(buf, &t, sizeof t);
                return;
        }
        for (int k = 15; k >= 0; k--, t >>= 4)
                buf[k] = hex_digits[t & 15];
}

/* Reads the send time stamp_write() put into DATA; false when it is not
 * one. */
static bool stamp_read(const char *data, size_t len, guint64 *t)
{
        if (len == 8) {
                memcpy(t, data, sizeof *t);
                return true;
        }
        *t = 0;
        for (int k = 0; k < 16; k++) {
                const char *d = memchr(hex_digits, data[k], 16);
                if (!d || !data[k])
                        return false;
                *t = *t << 4 | (guint64) (d - hex_digits);
        }
        return true;
}

/* How far a send stamp may lie after its receipt before it is taken for
 * garbage: CLOCK_MONOTONIC is one clock for every CPU. */
#define STAMP_SLACK_NS 1000000u

static void report_fail(Sample *s, int err, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static void report_fail(Sample *s, int err, const char *fmt, ...)
{
        va_list ap;

        if (s->status < 0)
                return;  /* keep the first reason */
        s->status = err > 0 ? -err : (err < 0 ? err : -EIO);
        s->failed_ns = now_ns();
        va_start(ap, fmt);
        vsnprintf(s->why, sizeof s->why, fmt, ap);
        va_end(ap);
}

typedef struct Pair Pair;

typedef struct {
        const Experiment *exp;
        const Transport *t;
        const Cell *cell;
        Endpoint *ep;
        Shared *sh;               /* the runner's shared memory */
        size_t req_size, rep_size;
        size_t stamp_len;         /* one-way: bytes of each payload holding its send time, or 0 */
        guint64 *lat;             /* the runner's shared latency buffer, lat_cap entries */
        size_t lat_cap;
        guint64 untimed;          /* warm-up + the fixed window's message: the
                                   * messages before the main window */
        /* server state, for TRANSPORT_INPROCESS also used inline */
        guint64 srv_messages, srv_bytes, srv_checksum;
        pid_t srv_pid;            /* the server process, for its CPU clock; 0 in process
                                   * and with roles=threads */
        Pair *pair;               /* roles=threads: the process of both threads, else NULL */
        guint64 srv_last;         /* untimed + count: the last timed message; 0 if unknown */
        guint64 srv_cpu1, srv_end_ns, srv_bus1;   /* one-way: where the window closed */
        guint64 srv_deadline;     /* duration-boxed one-way: t0 + duration, once known */
        bool srv_past;            /* duration-boxed one-way: a message came after it */
        bool srv_done;
        /* The server's ack; it outlives server_step() because a transport
         * may hand it over by pointer (direct does). */
        char srv_ack[ACK_LEN + 1];
} Ctx;

/* roles=threads (see the top of the file): one forked process, its two
 * roles each a thread with a context and an endpoint of its own. */
struct Pair {
        Ctx srv, cli;
        Endpoint srv_ep, cli_ep;
        int srv_fd, cli_fd;       /* each role's report pipe */
        int cpu_server, cpu_client;
        pthread_mutex_t lock;
        pthread_cond_t cond;
        bool srv_up;              /* the server is open: srv_tid and srv_clk are set */
        bool srv_over;            /* the server thread has reported */
        pid_t srv_tid;
        clockid_t srv_clk;        /* the server thread's CPU clock ... */
        bool srv_clk_ok;          /* ... where pthread_getcpuclockid() gave it */
};

/* The CPU time of the side C runs, in ns: its process's (every thread),
 * or with roles=threads its own thread's.  Exact, not tick-sampled. */
static guint64 side_cpu_ns(const Ctx *c)
{
        return clock_ns(c->pair ? CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID);
}

/* The server's CPU time, read by the client: the server process's, or
 * with roles=threads the server thread's; 0 in process. */
static guint64 server_cpu_ns(const Ctx *c)
{
        if (c->pair)
                return c->pair->srv_clk_ok ? clock_ns(c->pair->srv_clk) : 0;
        return proc_cpu_ns(c->srv_pid);
}

/* Where a one-way window closes (see the top of the file): the server's
 * CPU clock, then, when LAST says this was the last timed message, the
 * clock that closes it, then the bus's CPU clock; then (outside) the CPU
 * the server is on, a read of the rseq area. */
static void server_window_end(Ctx *c, bool last)
{
        c->srv_cpu1 = side_cpu_ns(c);
        if (last)
                c->srv_end_ns = now_ns();
        c->srv_bus1 = proc_cpu_ns(c->ep->bus_pid);
        if (!(c->t->flags & TRANSPORT_INPROCESS))
                c->sh->srv_end_cpu = sched_getcpu();
}

/* The end of the fixed window's one-way message: read as the main
 * window's end is (a CPU clock, then the clock). */
static void server_fixed_end(Ctx *c)
{
        (void) side_cpu_ns(c);
        c->sh->fixed_end_ns = now_ns();
}

/* One-way, at the end of the stream: the server's threads and the bus's,
 * for the placement (placement.h), now that the window is over. */
static void server_snap(Ctx *c)
{
        if (c->cell->pattern != PATTERN_ONEWAY || (c->t->flags & TRANSPORT_INPROCESS))
                return;
        if (c->pair)
                placement_snap_thread(gettid(), &c->sh->srv_after);
        else
                placement_snap(getpid(), &c->sh->srv_after);
        if (c->ep->bus_pid > 0)
                placement_snap(c->ep->bus_pid, &c->sh->bus_after);
}

/* The server's handling of one message: returns 1 after a request, 0 after
 * the end of the stream (the ack is sent), < 0 on failure. */
static int server_step(Ctx *c, Sample *s)
{
        const void *data;
        size_t len;
        bool oneway = c->cell->pattern == PATTERN_ONEWAY;
        int r = c->t->recv(c->ep, &data, &len, c->req_size);
        /* The receipt, where a window may end on it: a stamped message, any
         * one-way message of a duration-boxed cell. */
        guint64 got = r > 0 && (c->stamp_len || (oneway && !c->srv_last)) ? now_ns() : 0;

        if (r < 0) {
                report_fail(s, r, "server receive: %s", c->ep->why);
                return r;
        }
        if (r == 0) {
                if (oneway && !c->srv_cpu1)
                        server_window_end(c, false);
                server_snap(c);
                if (oneway && !c->srv_last && !c->srv_past)
                        c->sh->in_window = c->srv_messages > c->untimed ? c->srv_messages - c->untimed : 0;
                snprintf(c->srv_ack, sizeof c->srv_ack, ACK_FORMAT, c->srv_messages, c->srv_bytes,
                         c->srv_checksum, c->srv_end_ns, c->srv_cpu1, c->srv_bus1);
                r = c->t->send(c->ep, c->srv_ack, ACK_LEN, 0);
                if (r < 0) {
                        report_fail(s, r, "server ack: %s", c->ep->why);
                        return r;
                }
                c->srv_done = true;
                return 0;
        }
        if (len != c->req_size) {
                report_fail(s, EPROTO, "message %" PRIu64 ": %zu bytes arrived, %zu were sent",
                            c->srv_messages, len, c->req_size);
                return -EPROTO;
        }
        if (c->cell->payload == PAYLOAD_STRING && !(c->t->flags & TRANSPORT_VALIDATES) &&
            !g_utf8_validate_len(data, len, NULL)) {
                report_fail(s, EILSEQ, "message %" PRIu64 ": string payload is not valid UTF-8",
                            c->srv_messages);
                return -EILSEQ;
        }
        if (c->exp->verify)
                c->srv_checksum = checksum_update(c->srv_checksum, (const char *) data + c->stamp_len,
                                                  len - c->stamp_len);
        bool answer = c->srv_messages < c->untimed || !oneway;
        c->srv_messages++;
        c->srv_bytes += len;
        bool timed = c->srv_messages > c->untimed;
        if (oneway && c->srv_messages > c->exp->warmup && c->srv_messages <= c->untimed)
                server_fixed_end(c);
        /* One-way, duration-boxed, in a process of its own: the window
         * ends at the last receipt by t0 + duration (the client wrote t0
         * before its first timed send), or at the first receipt when none
         * came by then; a later message is drained, not counted.  (In
         * process every message is handled before the send returns: the
         * client's clock closes the window.) */
        if (oneway && !c->srv_last && timed && !c->srv_past && !(c->t->flags & TRANSPORT_INPROCESS)) {
                if (!c->srv_deadline)
                        c->srv_deadline = c->sh->t0 + c->cell->duration_ns;
                if (got <= c->srv_deadline || c->srv_messages == c->untimed + 1) {
                        c->srv_end_ns = got;
                } else {
                        c->srv_past = true;
                        c->sh->in_window = c->srv_messages - 1 - c->untimed;
                        server_window_end(c, false);
                }
        }
        if (got && timed && !c->srv_past && c->stamp_len) {
                guint64 sent, k = c->srv_messages - c->untimed - 1;
                if (!stamp_read(data, c->stamp_len, &sent) || sent > got + STAMP_SLACK_NS) {
                        report_fail(s, EPROTO, "message %" PRIu64 ": its first %zu bytes are not a send time "
                                    "before its receipt", c->srv_messages, c->stamp_len);
                        return -EPROTO;
                }
                if (k < c->lat_cap)
                        c->lat[k] = got > sent ? got - sent : 0;
        }
        if (answer) {
                const void *reply = c->rep_size == len ? data : empty_reply;
                r = c->t->send(c->ep, reply, c->rep_size, 0);
                if (r < 0) {
                        report_fail(s, r, "server reply: %s", c->ep->why);
                        return r;
                }
        }
        if (oneway && c->srv_messages == c->srv_last)
                server_window_end(c, true);
        return 1;
}

/* server_step() inside the client's process, for TRANSPORT_INPROCESS. */
static int server_step_inline(Ctx *c, Sample *s)
{
        c->ep->role = ROLE_SERVER;
        int r = server_step(c, s);
        c->ep->role = ROLE_CLIENT;
        return r < 0 ? -EIO : 0;
}

static int client_roundtrip(Ctx *c, const char *buf, Sample *s)
{
        const void *reply;
        size_t len;
        int r;

        if (c->t->flags & TRANSPORT_INPROCESS) {
                r = c->t->send(c->ep, buf, c->req_size, 0);
                if (r >= 0)
                        r = server_step_inline(c, s);
                if (r >= 0)
                        r = c->t->recv(c->ep, &reply, &len, c->rep_size);
        } else if (c->t->call) {
                r = c->t->call(c->ep, buf, c->req_size, &reply, &len, c->rep_size);
        } else {
                r = c->t->send(c->ep, buf, c->req_size, 0);
                if (r >= 0)
                        r = c->t->recv(c->ep, &reply, &len, c->rep_size);
        }
        if (r < 0) {
                report_fail(s, r, "round trip: %s", c->ep->why);
                return r;
        }
        if (r == 0) {
                report_fail(s, EPIPE, "round trip: the server closed the stream");
                return -EPIPE;
        }
        if (len != c->rep_size) {
                report_fail(s, EPROTO, "reply of %zu bytes, %zu expected", len, c->rep_size);
                return -EPROTO;
        }
        if (c->exp->verify && c->rep_size == c->req_size && memcmp(reply, buf, len) != 0) {
                report_fail(s, EBADMSG, "the echoed payload differs from the request");
                return -EBADMSG;
        }
        return 0;
}

/* What the server's ack reports of the end of its part of the window. */
typedef struct {
        guint64 end_ns, cpu_ns, bus_cpu_ns;
} AckWindow;

/* Sends the end of the stream and checks the server's ack against what
 * the client sent; fills *W from it. */
static int client_finish(Ctx *c, guint64 sent, guint64 sent_bytes, guint64 checksum, AckWindow *w,
                         Sample *s)
{
        const void *ack;
        size_t len;
        int r = c->t->send_end(c->ep);

        if (r >= 0 && (c->t->flags & TRANSPORT_INPROCESS))
                r = server_step_inline(c, s);
        if (r < 0) {
                report_fail(s, r, "end of stream: %s", c->ep->why);
                return r;
        }
        r = c->t->recv(c->ep, &ack, &len, ACK_LEN);
        if (r <= 0) {
                report_fail(s, r < 0 ? r : -EPIPE, "reading the server's ack: %s",
                            r < 0 ? c->ep->why : "end of stream");
                return r < 0 ? r : -EPIPE;
        }
        guint64 got = 0, got_bytes = 0, got_sum = 0;
        char text[ACK_LEN + 1];
        memcpy(text, ack, MIN(len, (size_t) ACK_LEN));
        text[MIN(len, (size_t) ACK_LEN)] = '\0';
        if (len != ACK_LEN ||
            sscanf(text, ACK_SCAN, &got, &got_bytes, &got_sum, &w->end_ns, &w->cpu_ns, &w->bus_cpu_ns) != 6) {
                report_fail(s, EPROTO, "malformed ack from the server");
                return -EPROTO;
        }
        if (got != sent || got_bytes != sent_bytes) {
                report_fail(s, EPROTO, "the server received %" PRIu64 " messages (%" PRIu64
                            " bytes); %" PRIu64 " (%" PRIu64 " bytes) were sent",
                            got, got_bytes, sent, sent_bytes);
                return -EPROTO;
        }
        if (c->exp->verify && got_sum != checksum) {
                report_fail(s, EBADMSG, "payload checksum mismatch: %016" PRIx64 " received, %016"
                            PRIx64 " sent", got_sum, checksum);
                return -EBADMSG;
        }
        return 0;
}

/* Sorts the N latencies of LAT in place and puts their percentiles into S. */
static void sample_latencies(Sample *s, guint64 *lat, size_t n)
{
        stats_sort_u64(lat, n);
        s->lat_n = n;
        s->lat_min_ns = n ? lat[0] : 0;
        s->lat_p50_ns = stats_quantile_u64(lat, n, 0.50);
        s->lat_p90_ns = stats_quantile_u64(lat, n, 0.90);
        s->lat_p99_ns = stats_quantile_u64(lat, n, 0.99);
        s->lat_p999_ns = stats_quantile_u64(lat, n, 0.999);
        s->lat_max_ns = n ? lat[n - 1] : 0;
}

/* One timed window on the client's side (see the top of the file). */
typedef struct {
        guint64 t0, t1;           /* its start and the client's end */
        guint64 cpu0, cpu1;       /* the client's CPU clock */
        guint64 srv0, srv1;       /* the server's, read by the client */
        guint64 bus0, bus1;       /* the bus daemon's */
        guint64 n;                /* messages sent */
        int end_cpu;              /* sched_getcpu() after the client's end */
} Window;

/* Runs one window of COUNT messages, or of DURATION ns when COUNT is 0,
 * with the clock and CPU-clock reads the top of the file describes.  The
 * fixed window (FIXED) is one message that the server answers even
 * one-way (after the window has closed, at its receipt), so that the main
 * window starts on an idle server; its latency is not recorded.  SEQ and
 * CHECKSUM go on across windows.  0, or < 0 with S failed. */
static int client_window(Ctx *c, char *buf, guint64 count, guint64 duration, bool fixed, guint64 *seq,
                         guint64 *checksum, Window *w, Sample *s)
{
        const Cell *cell = c->cell;
        size_t size = c->req_size, stamp = c->stamp_len;   /* the checksum skips the stamp */
        bool oneway = cell->pattern == PATTERN_ONEWAY;
        guint64 *lat = fixed ? NULL : c->lat;
        guint64 cap = fixed ? 0 : c->lat_cap, n = 0;
        unsigned flags = oneway && !fixed ? SEND_NO_REPLY : 0;

        w->bus0 = proc_cpu_ns(c->ep->bus_pid);
        w->t0 = now_ns();
        if (!fixed)
                c->sh->t0 = w->t0;   /* the server's deadline, duration-boxed one-way */
        w->cpu0 = side_cpu_ns(c);
        w->srv0 = server_cpu_ns(c);
        guint64 t1 = w->t0;
        guint64 deadline = count ? 0 : w->t0 + duration;

        for (;;) {
                if (count ? n >= count : t1 >= deadline)
                        break;
                if (c->exp->verify) {
                        payload_stamp(buf + stamp, size - stamp, *seq);
                        *checksum = checksum_update(*checksum, buf + stamp, size - stamp);
                }
                (*seq)++;
                if (oneway) {
                        guint64 ts = 0;
                        if (stamp) {
                                ts = now_ns();
                                stamp_write(buf, stamp, ts);
                        }
                        int r = c->t->send(c->ep, buf, size, flags);
                        if (r >= 0 && (c->t->flags & TRANSPORT_INPROCESS))
                                r = server_step_inline(c, s);
                        if (r < 0) {
                                report_fail(s, r, "send: %s", c->ep->why);
                                return r;
                        }
                        n++;
                        if (deadline)
                                t1 = stamp ? ts : now_ns();
                } else {
                        guint64 ts = t1;
                        if (client_roundtrip(c, buf, s) < 0)
                                return -EIO;
                        t1 = now_ns();
                        if (n < cap)
                                lat[n] = t1 - ts;
                        n++;
                }
        }
        w->cpu1 = side_cpu_ns(c);
        /* One-way to another process, the window closes at the server; an
         * in-process server has handled every message by now. */
        if (!oneway || (c->t->flags & TRANSPORT_INPROCESS)) {
                w->srv1 = server_cpu_ns(c);
                w->t1 = now_ns();
                w->bus1 = proc_cpu_ns(c->ep->bus_pid);
        } else {
                w->t1 = now_ns();   /* the last send has returned */
        }
        w->end_cpu = sched_getcpu();
        w->n = n;
        if (fixed && oneway) {
                /* The server's answer: after its receipt, outside. */
                const void *reply;
                size_t len;
                int r = c->t->recv(c->ep, &reply, &len, c->rep_size);
                if (r <= 0) {
                        report_fail(s, r < 0 ? r : -EPIPE, "the reply to the fixed window's message: %s",
                                    r < 0 ? c->ep->why : "end of stream");
                        return r < 0 ? r : -EPIPE;
                }
        }
        return 0;
}

/* The placement snapshot of every process of the repetition; with
 * roles=threads, of the client's and the server's thread. */
static void snap_all(const Ctx *c, PlacementProc p[PLACE_N_ROLES])
{
        memset(p, 0, sizeof(PlacementProc) * PLACE_N_ROLES);
        if (c->pair) {
                placement_snap_thread(gettid(), &p[PLACE_CLIENT]);
                placement_snap_thread(c->pair->srv_tid, &p[PLACE_SERVER]);
        } else {
                placement_snap(getpid(), &p[PLACE_CLIENT]);
        }
        if (c->srv_pid > 0)
                placement_snap(c->srv_pid, &p[PLACE_SERVER]);
        if (c->ep->bus_pid > 0)
                placement_snap(c->ep->bus_pid, &p[PLACE_BUS]);
}

static void client_run(Ctx *c, Sample *s)
{
        const Cell *cell = c->cell;
        size_t size = c->req_size;
        bool oneway = cell->pattern == PATTERN_ONEWAY;
        bool inproc = (c->t->flags & TRANSPORT_INPROCESS) != 0;
        g_autofree char *buf = g_try_malloc(size + 1);
        guint64 checksum = CHECKSUM_INIT, seq = 0;
        size_t stamp = c->stamp_len;   /* the checksum skips these bytes */
        PlacementProc before[PLACE_N_ROLES], after[PLACE_N_ROLES];

        if (!buf) {
                report_fail(s, ENOMEM, "payload of %zu bytes", size);
                return;
        }
        payload_fill(buf, size, cell->payload);
        /* Fault the pages in now, where the latencies are written: here,
         * or one-way in the server (server_child). */
        if (c->lat && (!oneway || inproc))
                memset(c->lat, 0, c->lat_cap * sizeof *c->lat);
        c->sh->t0 = 0;   /* and the shared page, written in the window */

        for (guint i = 0; i < c->exp->warmup; i++, seq++) {
                if (c->exp->verify) {
                        payload_stamp(buf + stamp, size - stamp, seq);
                        checksum = checksum_update(checksum, buf + stamp, size - stamp);
                }
                if (client_roundtrip(c, buf, s) < 0)
                        return;
        }

        /* The first placement snapshot, then the fixed window: one
         * message, timed as the main window is, twice: the first runs the
         * one-way paths (the send, the stamp, the server's receipt) for
         * the first time and after the snapshot's reads of /proc, paying
         * for code and data not yet touched or evicted, which would
         * otherwise fall into the next window; the second is kept.  (A
         * migration in the fixed windows counts as one in the main
         * window: it errs on the side of "moved".) */
        snap_all(c, before);
        Window fw = { 0 }, w = { 0 };
        guint64 fixed_end = 0;
        for (guint i = 0; i < FIXED_WINDOWS; i++) {
                if (client_window(c, buf, 1, 0, true, &seq, &checksum, &fw, s) < 0)
                        return;
                fixed_end = fw.t1;
                if (oneway && !inproc)
                        fixed_end = MAX(fixed_end, c->sh->fixed_end_ns);
        }

        if (client_window(c, buf, cell->count, cell->duration_ns, false, &seq, &checksum, &w, s) < 0)
                return;
        bool server_ends = oneway && !inproc;
        if (!server_ends)
                snap_all(c, after);

        AckWindow aw = { 0 };
        guint64 total = w.n + c->untimed;
        if (client_finish(c, total, total * size, checksum, &aw, s) < 0)
                return;
        guint64 t1 = w.t1, srv1 = w.srv1, bus1 = w.bus1, n = w.n;
        int end_cpu[PLACE_N_ROLES] = { w.end_cpu, -1, -1 };
        if (server_ends) {
                /* Where the last message arrived; the server's clock is ours. */
                if (aw.end_ns < w.t0 || (cell->duration_ns && !c->sh->in_window)) {
                        report_fail(s, EPROTO, "the server's end of the window precedes its start");
                        return;
                }
                if (cell->duration_ns) {
                        /* The last receipt by t0 + duration (server_step). */
                        n = c->sh->in_window;
                        t1 = aw.end_ns;
                } else {
                        t1 = MAX(t1, aw.end_ns);
                }
                srv1 = aw.cpu_ns;
                bus1 = aw.bus_cpu_ns;
                /* The server's threads and the bus's as the server saw
                 * them at the end of the stream; the client's own now. */
                snap_all(c, after);
                after[PLACE_SERVER] = c->sh->srv_after;
                if (c->ep->bus_pid > 0)
                        after[PLACE_BUS] = c->sh->bus_after;
                end_cpu[PLACE_SERVER] = c->sh->srv_end_cpu;
        }

        s->elapsed_ns = t1 - w.t0;
        s->client_cpu_ns = w.cpu1 - w.cpu0;
        s->server_cpu_ns = srv1 > w.srv0 ? srv1 - w.srv0 : 0;
        s->bus_cpu_ns = bus1 > w.bus0 ? bus1 - w.bus0 : 0;
        s->messages = n;
        s->bytes = n * (guint64) size;
        s->fixed_ns = fixed_end - fw.t0;
        Placement pl;
        placement_observe(before, after, end_cpu, &pl);
        s->placement = pl.mode;
        s->client_on_cpu = pl.on_cpu[PLACE_CLIENT] >= 0 ? (guint64) pl.on_cpu[PLACE_CLIENT] : SAMPLE_NONE;
        s->server_on_cpu = pl.on_cpu[PLACE_SERVER] >= 0 ? (guint64) pl.on_cpu[PLACE_SERVER] : SAMPLE_NONE;
        s->bus_on_cpu = pl.on_cpu[PLACE_BUS] >= 0 ? (guint64) pl.on_cpu[PLACE_BUS] : SAMPLE_NONE;
        s->migrations = pl.migrations >= 0 ? (guint64) pl.migrations : SAMPLE_NONE;
        if (c->lat)
                sample_latencies(s, c->lat, MIN(n, c->lat_cap));
}

static int pin(int cpu)
{
        cpu_set_t set;

        if (cpu < 0)
                return 0;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        return sched_setaffinity(0, sizeof set, &set) < 0 ? -errno : 0;
}

/* The CPUs for server and client under PLACEMENT: -1 for unpinned. */
static int choose_cpus(CpuPlacement placement, int *server, int *client)
{
        cpu_set_t set;
        int first = -1, second = -1;

        *server = *client = -1;
        if (placement == CPUS_NONE)
                return 0;
        if (sched_getaffinity(0, sizeof set, &set) < 0)
                return -errno;
        for (int i = 0; i < CPU_SETSIZE; i++) {
                if (!CPU_ISSET(i, &set))
                        continue;
                if (first < 0)
                        first = i;
                else if (second < 0)
                        second = i;
        }
        if (placement == CPUS_SPLIT && second < 0)
                return -ERANGE;
        *server = first;
        *client = placement == CPUS_SPLIT ? second : first;
        return 0;
}

/* Pins the bus daemon (every thread) for a cell whose server is on CPU
 * SERVER (choose_cpus; -1: unpinned): to the server's CPU, so that
 * cpus=same puts all three processes on one CPU and cpus=split the bus
 * with the server (placement.h); unpinned, back to ipclab's own mask.
 * The bus serves every cell of a run, so this is done per repetition.
 * 0, or -errno with OUT failed. */
static int pin_bus(Bus *bus, BusKind kind, int server, Sample *out)
{
        cpu_set_t set;
        int r = 0;

        CPU_ZERO(&set);
        if (server >= 0)
                CPU_SET(server, &set);
        else if (sched_getaffinity(0, sizeof set, &set) < 0)
                r = -errno;
        if (r == 0)
                r = placement_pin_process(bus_get_pid(bus), &set);
        if (r < 0)
                report_fail(out, r, "cannot pin the %s (pid %d): %s", bus_name(kind), (int) bus_get_pid(bus),
                            g_strerror(-r));
        return r;
}

void runner_child_start(pid_t parent)
{
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
                _exit(127);
        signal(SIGPIPE, SIG_IGN);
}

/* Start of every side: die with the parent, take the CPU. */
static void child_setup(int cpu, pid_t parent)
{
        runner_child_start(parent);
        signal(SIGINT, SIG_IGN);   /* the parent decides what an interrupt does */
        pin(cpu);
}

static void report_write(int fd, const Sample *s)
{
        (void) !write(fd, s, sizeof *s);
        close(fd);
}

static void child_report(int fd, const Sample *s)
{
        report_write(fd, s);
        _exit(0);
}

static void pair_server_up(Pair *p);

/* The server's part: open, the READY byte on REPORT_FD, every message
 * until the end of the stream, close; *S is its report. */
static void server_role(Ctx *c, int report_fd, Sample *s)
{
        char ready = READY_BYTE;

        sample_init(s);
        int r = c->t->open(c->ep, ROLE_SERVER);
        if (r < 0) {
                report_fail(s, r, "server open: %s", c->ep->why);
                return;
        }
        if (c->lat && c->stamp_len)
                memset(c->lat, 0, c->lat_cap * sizeof *c->lat);   /* fault the pages in now */
        c->sh->srv_end_cpu = -1;   /* the shared page too */
        if (c->pair)
                pair_server_up(c->pair);
        if (write(report_fd, &ready, 1) != 1)
                _exit(1);
        while ((r = server_step(c, s)) > 0)
                ;
        s->messages = c->srv_messages;
        if (c->t->close)
                c->t->close(c->ep);
}

/* The client's part: open, the pattern, close; *S is its report. */
static void client_role(Ctx *c, Sample *s)
{
        sample_init(s);
        if (c->t->flags & TRANSPORT_INPROCESS)
                (void) c->t->open(c->ep, ROLE_SERVER);
        int r = c->t->open(c->ep, ROLE_CLIENT);
        if (r < 0) {
                report_fail(s, r, "client open: %s", c->ep->why);
                return;
        }
        client_run(c, s);
        if (c->t->close)
                c->t->close(c->ep);
}

static void server_child(Ctx *c, int report_fd)
{
        Sample s;

        server_role(c, report_fd, &s);
        child_report(report_fd, &s);
}

static void client_child(Ctx *c, int report_fd)
{
        Sample s;

        client_role(c, &s);
        child_report(report_fd, &s);
}

/* ---- roles=threads: both roles as threads of one forked process ---- */

/* The server thread is open: the client may start, and read its clock. */
static void pair_server_up(Pair *p)
{
        pthread_mutex_lock(&p->lock);
        p->srv_tid = gettid();
        p->srv_clk_ok = pthread_getcpuclockid(pthread_self(), &p->srv_clk) == 0;
        p->srv_up = true;
        pthread_cond_broadcast(&p->cond);
        pthread_mutex_unlock(&p->lock);
}

static void *pair_server(void *arg)
{
        Pair *p = arg;
        Sample s;

        pin(p->cpu_server);
        server_role(&p->srv, p->srv_fd, &s);
        report_write(p->srv_fd, &s);
        pthread_mutex_lock(&p->lock);
        p->srv_over = true;
        pthread_cond_broadcast(&p->cond);
        pthread_mutex_unlock(&p->lock);
        return NULL;
}

static void *pair_client(void *arg)
{
        Pair *p = arg;
        Sample s;

        pin(p->cpu_client);
        client_role(&p->cli, &s);
        report_write(p->cli_fd, &s);
        return NULL;
}

/* DST: a copy of the prepared endpoint SRC for one role's thread, every
 * fd of fd[] duplicated (close-on-exec), so that each role closes its
 * own as it would after fork (transport.h).  0 or -errno. */
static int endpoint_for_thread(const Endpoint *src, Endpoint *dst)
{
        *dst = *src;
        dst->buf = NULL;
        dst->buf_size = 0;
        dst->why[0] = '\0';
        for (size_t i = 0; i < G_N_ELEMENTS(dst->fd); i++) {
                if (src->fd[i] < 0)
                        continue;
                dst->fd[i] = fcntl(src->fd[i], F_DUPFD_CLOEXEC, 0);
                if (dst->fd[i] < 0) {
                        int e = errno;
                        for (size_t j = 0; j < i; j++)
                                if (src->fd[j] >= 0)
                                        io_close(&dst->fd[j]);
                        return -e;
                }
        }
        return 0;
}

/* The forked process of roles=threads: the server thread, once it is
 * open the client thread, each pinned as the processes would be and
 * reporting on its own pipe; returns when both are done. */
static void pair_run(Ctx *c, int srv_fd, int cli_fd, int cpu_server, int cpu_client)
{
        static Pair p;   /* one per process, and large: not on the stack */
        pthread_t srv_thread, cli_thread;
        Sample s;
        int r;

        p.srv_fd = srv_fd;
        p.cli_fd = cli_fd;
        p.cpu_server = cpu_server;
        p.cpu_client = cpu_client;
        pthread_mutex_init(&p.lock, NULL);
        pthread_cond_init(&p.cond, NULL);
        r = endpoint_for_thread(c->ep, &p.srv_ep);
        if (r == 0) {
                r = endpoint_for_thread(c->ep, &p.cli_ep);
                if (r < 0)
                        for (size_t i = 0; i < G_N_ELEMENTS(p.srv_ep.fd); i++)
                                io_close(&p.srv_ep.fd[i]);
        }
        /* Each role holds its own duplicates now. */
        for (size_t i = 0; i < G_N_ELEMENTS(c->ep->fd); i++)
                io_close(&c->ep->fd[i]);
        p.srv = *c;
        p.srv.ep = &p.srv_ep;
        p.srv.pair = &p;
        p.cli = *c;
        p.cli.ep = &p.cli_ep;
        p.cli.pair = &p;
        if (r == 0)
                r = -pthread_create(&srv_thread, NULL, pair_server, &p);
        if (r < 0) {
                sample_init(&s);
                report_fail(&s, r, "roles=threads: cannot start the server thread: %s", g_strerror(-r));
                report_write(srv_fd, &s);
                close(cli_fd);
                return;
        }
        pthread_mutex_lock(&p.lock);
        while (!p.srv_up && !p.srv_over)
                pthread_cond_wait(&p.cond, &p.lock);
        bool up = p.srv_up;
        pthread_mutex_unlock(&p.lock);
        r = up ? -pthread_create(&cli_thread, NULL, pair_client, &p) : -ECANCELED;
        if (r < 0 && up) {
                sample_init(&s);
                report_fail(&s, r, "roles=threads: cannot start the client thread: %s", g_strerror(-r));
                report_write(cli_fd, &s);
        } else if (r < 0) {
                close(cli_fd);   /* the server failed, and says why */
        }
        pthread_join(srv_thread, NULL);
        if (r == 0)
                pthread_join(cli_thread, NULL);
}

/* The longest name a transport gives a socket in its private directory
 * ("seqpacket.sock"), with room to spare. */
#define PRIVATE_NAME_MAX 16

/* The start time of process PID (clock ticks since boot, /proc/PID/stat
 * field 22), or 0 when there is no such process. */
static guint64 process_start_time(pid_t pid)
{
        g_autofree char *path = g_strdup_printf("/proc/%d/stat", (int) pid);
        g_autofree char *text = NULL;

        if (!g_file_get_contents(path, &text, NULL, NULL))
                return 0;
        /* The command name, in parentheses, may hold spaces: count the
         * fields from the last ')', which ends field 2. */
        const char *p = strrchr(text, ')');
        if (!p)
                return 0;
        g_auto(GStrv) f = g_strsplit(p + 2, " ", 0);
        return g_strv_length(f) > 19 ? g_ascii_strtoull(f[19], NULL, 10) : 0;
}

/* Removes the ipclab-XXXXXX directories under BASE that a run of ours
 * (same uid) left when it was killed: their owner file names a process
 * (pid, start time) that is gone.  One without an owner file (older
 * ipclab, or one being made this instant) goes once it is a minute old. */
static void remove_stale_dirs(const char *base)
{
        g_autoptr(GDir) d = g_dir_open(base, 0, NULL);
        const char *name;

        if (!d)
                return;
        while ((name = g_dir_read_name(d))) {
                struct stat st;
                g_autofree char *path = g_build_filename(base, name, NULL);
                g_autofree char *owner_path = g_build_filename(path, "owner", NULL);
                g_autofree char *owner = NULL;

                if (!g_str_has_prefix(name, "ipclab-") || strlen(name) != strlen("ipclab-XXXXXX") ||
                    lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
                        continue;
                if (g_file_get_contents(owner_path, &owner, NULL, NULL)) {
                        guint64 pid = 0, start = 0;
                        if (sscanf(owner, "%" SCNu64 " %" SCNu64, &pid, &start) != 2 ||
                            (pid > 0 && pid <= G_MAXINT && process_start_time((pid_t) pid) == start))
                                continue;
                } else if (time(NULL) - st.st_mtime < 60) {
                        continue;
                }
                samples_remove_dir(path);
        }
}

/* Makes the private directory of one repetition (0700): its sockets and
 * FIFOs go there.  Under $XDG_RUNTIME_DIR, else $TMPDIR, else /tmp, the
 * first writable one where a socket path still fits in sun_path (108
 * bytes: a long TMPDIR would break every socket transport).  It holds a
 * file "owner": our pid and start time, so that the next run can tell a
 * directory a killed run left (see remove_stale_dirs).  Returns NULL with
 * *WHY saying why nothing fitted. */
static char *make_private_dir(char **why)
{
        static bool swept;
        const char *cands[] = { g_getenv("XDG_RUNTIME_DIR"), g_getenv("TMPDIR"), "/tmp" };
        const char *names[] = { "$XDG_RUNTIME_DIR", "$TMPDIR", "/tmp" };
        const size_t room = sizeof(((struct sockaddr_un *) 0)->sun_path);
        g_autoptr(GString) tried = g_string_new(NULL);

        for (size_t i = 0; i < G_N_ELEMENTS(cands); i++) {
                const char *base = cands[i];
                if (!base || base[0] != '/')
                        continue;
                g_autofree char *tmpl = g_build_filename(base, "ipclab-XXXXXX", NULL);
                if (strlen(tmpl) + 1 + PRIVATE_NAME_MAX >= room) {
                        g_string_append_printf(tried, "%s%s (%zu bytes)", tried->len ? ", " : "",
                                               names[i], strlen(base));
                        continue;
                }
                if (access(base, W_OK | X_OK) != 0) {
                        g_string_append_printf(tried, "%s%s: %s", tried->len ? ", " : "", names[i],
                                               g_strerror(errno));
                        continue;
                }
                if (!swept)
                        remove_stale_dirs(base);
                if (!g_mkdtemp_full(tmpl, 0700)) {
                        g_string_append_printf(tried, "%s%s: %s", tried->len ? ", " : "", names[i],
                                               g_strerror(errno));
                        continue;
                }
                swept = true;
                g_autofree char *owner = g_build_filename(tmpl, "owner", NULL);
                g_autofree char *who = g_strdup_printf("%d %" PRIu64 "\n", (int) getpid(),
                                                       process_start_time(getpid()));
                if (!g_file_set_contents(owner, who, -1, NULL)) {
                        g_string_append_printf(tried, "%s%s: cannot write its owner file", tried->len ? ", " : "",
                                               names[i]);
                        samples_remove_dir(tmpl);
                        continue;
                }
                return g_steal_pointer(&tmpl);
        }
        *why = g_strdup_printf("no directory where a socket path fits in sun_path (%zu bytes): %s; "
                               "set TMPDIR to a short writable directory",
                               room, tried->len ? tried->str : "none of $XDG_RUNTIME_DIR, $TMPDIR, /tmp is set");
        return NULL;
}

typedef struct {
        pid_t pid;
        int fd;
        Sample s;
        bool have_report;
        bool killed;              /* by the runner, for its peer or the time limit */
        int status;               /* from waitpid() */
        const char *role;
} Child;

typedef enum {
        SPAWN_SERVER,
        SPAWN_CLIENT,
        SPAWN_PAIR,     /* roles=threads: both, as threads of one process */
} SpawnKind;

/* Forks the server's or the client's process, or (roles=threads) the one
 * process of both (pair_run), pinned to CPU (the pair's client thread to
 * CPU_CLIENT).  CH[0] gets its pid and report pipe; the pair's CH[0] and
 * CH[1] get its pid and the server's and the client's report pipes. */
static pid_t spawn(Ctx *c, Child *ch, SpawnKind kind, int cpu, int cpu_client)
{
        int p[2][2] = { { -1, -1 }, { -1, -1 } };
        size_t n = kind == SPAWN_PAIR ? 2 : 1;
        pid_t parent = getpid(), pid = -1;
        int e = 0;

        for (size_t i = 0; i < n && !e; i++)
                if (pipe2(p[i], O_CLOEXEC) < 0)
                        e = errno;
        if (!e) {
                fflush(NULL);
                if ((pid = fork()) < 0)
                        e = errno;
        }
        if (e) {
                for (size_t i = 0; i < n; i++)
                        for (size_t j = 0; j < 2; j++)
                                if (p[i][j] >= 0)
                                        close(p[i][j]);
                return -e;
        }
        if (pid == 0) {
                for (size_t i = 0; i < n; i++)
                        close(p[i][0]);
                child_setup(cpu, parent);
                if (kind == SPAWN_SERVER)
                        server_child(c, p[0][1]);
                else if (kind == SPAWN_CLIENT)
                        client_child(c, p[0][1]);
                else
                        pair_run(c, p[0][1], p[1][1], cpu, cpu_client);
                _exit(0);
        }
        for (size_t i = 0; i < n; i++) {
                close(p[i][1]);
                ch[i].pid = pid;
                ch[i].fd = p[i][0];
        }
        return pid;
}

/* Waits until CH's READY byte arrives; false on exit or time limit. */
static bool wait_ready(Child *ch, guint64 deadline)
{
        for (;;) {
                guint64 now = now_ns();
                if (now >= deadline || runner_interrupted)
                        return false;
                struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
                int r = poll(&pfd, 1, (int) MIN((deadline - now) / 1000000 + 1, 1000));
                if (r < 0 && errno != EINTR)
                        return false;
                if (r <= 0)
                        continue;
                char b;
                ssize_t n = read(ch->fd, &b, 1);
                if (n == 1 && b == READY_BYTE)
                        return true;
                if (n <= 0 && errno != EINTR)
                        return false;
        }
}

/* Reads reports from the children until all are in, or the deadline.
 * When one side fails or dies, its peer gets PEER_GRACE_NS to report or
 * die on its own (it may have failed first, or died first) and is then
 * killed: over a bus, a datagram socket or a message queue it cannot tell
 * and would wait for the time limit.  Returns false when the time limit
 * struck or ipclab was interrupted. */
#define PEER_GRACE_NS 500000000u
static bool collect(Child *ch, size_t n, guint64 deadline)
{
        guint64 grace = 0;

        for (;;) {
                struct pollfd pfd[2];
                size_t open_n = 0;
                for (size_t i = 0; i < n; i++) {
                        if (ch[i].fd < 0)
                                continue;
                        pfd[open_n].fd = ch[i].fd;
                        pfd[open_n].events = POLLIN;
                        open_n++;
                }
                if (!open_n)
                        return true;
                guint64 now = now_ns();
                if (now >= deadline || runner_interrupted)
                        return false;
                if (grace && now >= grace) {
                        for (size_t j = 0; j < n; j++) {
                                if (ch[j].fd >= 0 && ch[j].pid > 0) {
                                        kill(ch[j].pid, SIGKILL);
                                        ch[j].killed = true;
                                }
                        }
                        grace = G_MAXUINT64;   /* their fds end now */
                }
                guint64 until = MIN(deadline, grace ? grace : deadline);
                int r = poll(pfd, open_n, until > now ? (int) MIN((until - now) / 1000000 + 1, 1000) : 1);
                if (r < 0 && errno != EINTR)
                        return false;
                for (size_t i = 0; r > 0 && i < n; i++) {
                        if (ch[i].fd < 0)
                                continue;
                        struct pollfd q = { .fd = ch[i].fd, .events = POLLIN };
                        if (poll(&q, 1, 0) <= 0)
                                continue;
                        ssize_t got = read(ch[i].fd, &ch[i].s, sizeof ch[i].s);
                        if (got == (ssize_t) sizeof ch[i].s)
                                ch[i].have_report = true;
                        close(ch[i].fd);
                        ch[i].fd = -1;
                        if ((!ch[i].have_report || ch[i].s.status < 0) && !grace)
                                grace = now_ns() + PEER_GRACE_NS;
                }
        }
}

static void describe_exit(int status, char *buf, size_t len)
{
        if (WIFSIGNALED(status))
                snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
        else
                snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
}

static Bus *runner_bus(Runner *r, BusKind kind, Sample *out)
{
        if (r->bus[kind] && !bus_is_alive(r->bus[kind]))
                g_clear_pointer(&r->bus[kind], bus_stop);
        if (!r->bus[kind] && !r->bus_error[kind]) {
                g_autoptr(GError) e = NULL;
                r->bus[kind] = bus_start(kind, &e);
                if (!r->bus[kind])
                        r->bus_error[kind] = g_strdup(e->message);
        }
        if (!r->bus[kind])
                report_fail(out, EHOSTDOWN, "%s", r->bus_error[kind]);
        return r->bus[kind];
}

/* The numbers of the JSON array KEY ("times": [ ... ]) in TEXT. */
static GArray *json_numbers(const char *text, const char *key)
{
        g_autofree char *needle = g_strdup_printf("\"%s\":", key);
        GArray *v = g_array_new(FALSE, FALSE, sizeof(double));
        const char *p = strstr(text, needle);

        if (!p || !(p = strchr(p, '[')))
                return v;
        for (p++; *p && *p != ']';) {
                char *end;
                double d = g_ascii_strtod(p, &end);
                if (end == p) {
                        p++;
                        continue;
                }
                g_array_append_val(v, d);
                p = end;
        }
        return v;
}

static double json_number(const char *text, const char *key)
{
        g_autofree char *needle = g_strdup_printf("\"%s\":", key);
        const char *p = strstr(text, needle);
        return p ? g_ascii_strtod(p + strlen(needle), NULL) : 0;
}

/* Makes RUNNER's latency buffer hold N entries: a shared mapping, so that
 * the client child's latencies are the parent's to keep. */
static int runner_latency_buffer(Runner *runner, size_t n)
{
        if (n <= runner->lat_cap)
                return 0;
        if (runner->lat)
                munmap(runner->lat, runner->lat_cap * sizeof *runner->lat);
        runner->lat = mmap(NULL, n * sizeof *runner->lat, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (runner->lat == MAP_FAILED) {
                runner->lat = NULL;
                runner->lat_cap = 0;
                return -ENOMEM;
        }
        runner->lat_cap = n;
        return 0;
}

const guint64 *runner_latencies(const Runner *runner, size_t *n)
{
        *n = runner->lat_n;
        return runner->lat;
}

/* Where the supervisor is, for the runner to name when it dies: in
 * ipclab's code (STAGE_RUN) or in a hook of the transport. */
typedef enum {
        STAGE_RUN,
        STAGE_PREPARE,
        STAGE_CLOSE,
        STAGE_CLEANUP,
        STAGE_COMMAND,
} Stage;

static const char *const stage_hook[] = {
        [STAGE_RUN] = "the repetition's supervisor",
        [STAGE_PREPARE] = "prepare()",
        [STAGE_CLOSE] = "close() in the forking process",
        [STAGE_CLEANUP] = "cleanup()",
        [STAGE_COMMAND] = "command()",
};

/* How long the supervisor may take beyond its hooks' and its sides'
 * time limits (reaping both sides, writing its report) before the runner
 * kills it; and, once ipclab is interrupted, to end the repetition. */
#define SUPERVISOR_SLACK_NS 5000000000u
#define INTERRUPT_GRACE_NS 2000000000u

/* The supervisor calls hook STAGE, which must return within LIMIT_NS
 * (at least 1 us): else SIGALRM, whose default action ends the
 * supervisor (supervise), which the runner reports as the hook's time
 * limit.  The stage goes into the page the runner reads (Runner.stage). */
static void hook_enter(Runner *runner, Stage stage, guint64 limit_ns)
{
        struct itimerval it = { .it_value = { .tv_sec = (time_t) (limit_ns / 1000000000u),
                                              .tv_usec = (suseconds_t) MAX(limit_ns % 1000000000u / 1000, 1) } };

        __atomic_store_n(runner->stage, (int) stage, __ATOMIC_RELEASE);
        setitimer(ITIMER_REAL, &it, NULL);
}

/* The hook has returned: back in ipclab's code. */
static void hook_leave(Runner *runner)
{
        struct itimerval off = { { 0, 0 }, { 0, 0 } };

        setitimer(ITIMER_REAL, &off, NULL);
        __atomic_store_n(runner->stage, (int) STAGE_RUN, __ATOMIC_RELEASE);
}

/* The time left until DEADLINE, for a hook that must end by then. */
static guint64 time_left(guint64 deadline)
{
        guint64 now = now_ns();

        return deadline > now ? deadline - now : 0;
}

/* What hyperfine's child needs before its exec. */
typedef struct {
        int cpu;
        const char *bus_address;
} HyperfineChild;

static void hyperfine_setup(void *data)
{
        const HyperfineChild *hc = data;

        prctl(PR_SET_PDEATHSIG, SIGKILL);
        pin(hc->cpu);   /* hyperfine and every command it starts */
        /* Never the user's session bus: ours, for tools that only find a
         * bus through the environment. */
        setenv("DBUS_SESSION_BUS_ADDRESS", hc->bus_address, 1);
}

/* SpawnCheck: stop at SIGINT or SIGTERM. */
static int hyperfine_stop(void *data)
{
        (void) data;
        return runner_interrupted ? -EINTR : 0;
}

/* Runs hyperfine for RUNS runs of CMD with no warm-up of its own, pinned
 * to CPU (-1: unpinned), exporting JSON (when not NULL); 0, or fails OUT.
 * Its output goes to LOG, which the failure message quotes. */
static int hyperfine_exec(const Cell *cell, const Endpoint *ep, const char *cmd, guint64 runs,
                          const char *json, const char *log, int cpu, guint64 deadline, Sample *out)
{
        g_autofree char *n = g_strdup_printf("%" G_GUINT64_FORMAT, runs);
        const char *argv[16] = { "hyperfine", "-N", "--style", "none", "--runs", n, "--warmup", "0",
                                 "--command-name", cell->transport };
        size_t argc = 10;
        int status = 0;

        if (json) {
                argv[argc++] = "--export-json";
                argv[argc++] = json;
        }
        argv[argc++] = "--";
        argv[argc++] = cmd;
        argv[argc] = NULL;

        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        HyperfineChild hc = { .cpu = cpu, .bus_address = ep->bus_address };
        SpawnOpts o = { .argv = argv, .in_fd = -1, .out_fd = fd, .err_fd = fd, .new_group = true,
                        .setup = hyperfine_setup, .data = &hc };
        SpawnChild child;
        int r = spawn_start(&o, &child);
        if (fd >= 0)
                close(fd);
        if (r < 0) {
                report_fail(out, -r, "hyperfine: %s", g_strerror(-r));
                return -1;
        }
        r = spawn_wait(&child, (gint64) (deadline / 1000), 0, NULL, hyperfine_stop, NULL, &status);
        if (r < 0) {
                report_fail(out, r == -EINTR ? EINTR : ETIMEDOUT, "%s",
                            r == -EINTR ? "interrupted" : "hyperfine exceeded the time limit");
                return -1;
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                g_autofree char *l = NULL;
                g_file_get_contents(log, &l, NULL, NULL);
                report_fail(out, EIO, "hyperfine failed: %s", l ? g_strstrip(l) : "no output");
                return -1;
        }
        return 0;
}

/* The timed part of run_command_cell(): the warm-up runs in a hyperfine
 * of their own, then the timed runs, with the server's and the bus's CPU
 * clocks read around the timed runs only. */
static void command_time(Runner *runner, const Cell *cell, const Transport *t, Endpoint *ep,
                         Child *srv, int cpu, guint64 deadline, Sample *out)
{
        g_autofree char *payload = g_malloc(cell->size + 1);
        payload_fill(payload, cell->size, PAYLOAD_STRING);
        hook_enter(runner, STAGE_COMMAND, time_left(deadline));
        g_autofree char *cmd = t->command(ep->bus_address, payload);
        hook_leave(runner);
        g_autofree char *json = g_build_filename(ep->dir, "hyperfine.json", NULL);
        g_autofree char *log = g_build_filename(ep->dir, "hyperfine.log", NULL);

        /* hyperfine makes at least two runs. */
        if (runner->exp->warmup &&
            hyperfine_exec(cell, ep, cmd, MAX(runner->exp->warmup, 2u), NULL, log, cpu, deadline, out) < 0)
                return;
        guint64 bus0 = proc_cpu_ns(ep->bus_pid);
        guint64 srv0 = proc_cpu_ns(srv->pid);
        int r = hyperfine_exec(cell, ep, cmd, cell->count, json, log, cpu, deadline, out);
        guint64 srv1 = proc_cpu_ns(srv->pid);
        guint64 bus1 = proc_cpu_ns(ep->bus_pid);
        if (r < 0)
                return;
        g_autofree char *text = NULL;
        if (!g_file_get_contents(json, &text, NULL, NULL)) {
                report_fail(out, EIO, "hyperfine wrote no %s", json);
                return;
        }
        g_autoptr(GArray) times = json_numbers(text, "times");
        if (times->len != cell->count) {
                report_fail(out, EPROTO, "hyperfine reported %u runs, %" G_GUINT64_FORMAT " were asked for",
                            times->len, cell->count);
                return;
        }
        if (runner_latency_buffer(runner, times->len) < 0) {
                report_fail(out, ENOMEM, "latency buffer of %u entries", times->len);
                return;
        }
        double sum = 0;
        for (guint i = 0; i < times->len; i++) {
                double s = g_array_index(times, double, i);
                sum += s;
                runner->lat[i] = (guint64) (s * 1e9);
        }
        out->elapsed_ns = (guint64) (sum * 1e9);
        out->messages = times->len;
        out->bytes = times->len * cell->size;
        /* The commands' CPU: hyperfine's mean user + system time of the
         * runs (the kernel's total at each exit is exact; only its split
         * is sampled) times the runs. */
        out->client_cpu_ns = (guint64) ((json_number(text, "user") + json_number(text, "system")) *
                                        1e9 * times->len);
        out->server_cpu_ns = srv1 > srv0 ? srv1 - srv0 : 0;
        out->bus_cpu_ns = bus1 > bus0 ? bus1 - bus0 : 0;
        sample_latencies(out, runner->lat, times->len);
}

/* ---- the supervisor: the transport's hooks out of ipclab's own process ---- */

/* What the runner sets up in its own process for one repetition, before
 * the supervisor is forked (runner_run): nothing of the transport runs
 * here, only ipclab's code. */
typedef struct {
        const Transport *t;
        const Cell *cell;
        Bus *bus;                 /* the cell's bus, or NULL */
        int cpu_server, cpu_client;
        char *dir;                /* the repetition's private directory */
        guint64 *lat;             /* the runner's latency buffer, or NULL */
        size_t lat_cap;
} Rep;

/* A runner=hyperfine repetition, in the supervisor: ipclab serves
 * org.ipclab.Bench with the libdbus transport's server on the private
 * bus, hyperfine starts the cell's command COUNT times, and its JSON
 * export becomes one Sample: elapsed is the sum of the runs, latencies
 * are the runs' durations, the client's CPU is hyperfine's mean user and
 * system time times the runs. */
static void command_repetition(Runner *runner, const Rep *rp, Sample *out)
{
        const Cell *cell = rp->cell;
        const guint64 limit = runner->exp->timeout_ns;
        Cell srv_cell = *cell;
        Endpoint ep;
        Ctx c = { .exp = runner->exp, .t = &transport_libdbus, .cell = &srv_cell, .ep = &ep,
                  .sh = runner->shared, .srv_checksum = CHECKSUM_INIT };
        Child srv = { .pid = -1, .fd = -1, .role = "server" };

        srv_cell.transport = transport_libdbus.name;
        srv_cell.reply = REPLY_EMPTY;
        srv_cell.pattern = PATTERN_ROUNDTRIP;
        IpclabCell seen;
        transport_cell(&srv_cell, &seen);
        endpoint_init(&ep, &seen);
        c.req_size = cell->size;
        c.rep_size = 0;
        ep.bus_address = bus_get_address(rp->bus);
        ep.bus_pid = bus_get_pid(rp->bus);
        ep.dir = rp->dir;
        guint64 deadline = now_ns() + limit;
        hook_enter(runner, STAGE_PREPARE, limit);
        int r = transport_libdbus.prepare ? transport_libdbus.prepare(&ep) : 0;
        hook_leave(runner);
        if (r < 0) {
                report_fail(out, r, "prepare: %s", ep.why);
                goto done;
        }
        r = spawn(&c, &srv, SPAWN_SERVER, rp->cpu_server, -1);
        if (r < 0) {
                report_fail(out, r, "fork: %s", g_strerror(-r));
                goto done;
        }
        if (!wait_ready(&srv, deadline)) {
                report_fail(out, EIO, "the server did not become ready");
                goto reap;
        }

        /* The commands run where hyperfine does, on the client's CPU. */
        command_time(runner, cell, rp->t, &ep, &srv, rp->cpu_client, deadline, out);
reap:
        if (srv.pid > 0) {
                kill(srv.pid, SIGKILL);
                while (waitpid(srv.pid, NULL, 0) < 0 && errno == EINTR)
                        ;
        }
        if (srv.fd >= 0)
                close(srv.fd);
        if (transport_libdbus.close) {
                hook_enter(runner, STAGE_CLOSE, limit);
                transport_libdbus.close(&ep);
                hook_leave(runner);
        }
        if (transport_libdbus.cleanup) {
                hook_enter(runner, STAGE_CLEANUP, limit);
                transport_libdbus.cleanup(&ep);
                hook_leave(runner);
        }
done:
        free(ep.buf);   /* ipclab_endpoint_buffer() realloc()s it */
}

/* One repetition of a cell of two sides, in the supervisor: prepare(),
 * the server, the client, the forking process's close(), both reports,
 * cleanup() (see the top of the file). */
static void repetition(Runner *runner, const Rep *rp, Sample *out)
{
        const Transport *t = rp->t;
        const Cell *cell = rp->cell;
        const guint64 limit = runner->exp->timeout_ns;
        Endpoint ep;
        Ctx c = { .exp = runner->exp, .t = t, .cell = cell, .ep = &ep, .sh = runner->shared,
                  .srv_checksum = CHECKSUM_INIT, .lat = rp->lat, .lat_cap = rp->lat_cap };
        Child ch[2] = { { .pid = -1, .fd = -1, .role = "server" },
                        { .pid = -1, .fd = -1, .role = "client" } };
        bool inproc = (t->flags & TRANSPORT_INPROCESS) != 0;
        bool server_early = false;   /* the server ended before it was ready */
        bool threads = cell->roles == ROLES_THREADS;
        int r;

        IpclabCell seen;
        transport_cell(cell, &seen);
        endpoint_init(&ep, &seen);
        c.req_size = request_size(t, cell);
        c.rep_size = reply_size(t, cell);
        c.untimed = runner->exp->warmup + FIXED_WINDOWS;
        c.srv_last = cell->count ? c.untimed + cell->count : 0;
        c.stamp_len = stamp_size(cell);
        if (rp->bus) {
                ep.bus_address = bus_get_address(rp->bus);
                ep.bus_pid = bus_get_pid(rp->bus);
        }
        ep.dir = rp->dir;
        hook_enter(runner, STAGE_PREPARE, limit);
        r = t->prepare ? t->prepare(&ep) : 0;
        hook_leave(runner);
        if (r < 0) {
                report_fail(out, r, "prepare: %s", ep.why);
                goto done;
        }

        guint64 deadline = now_ns() + limit;
        if (!inproc) {
                r = spawn(&c, ch, threads ? SPAWN_PAIR : SPAWN_SERVER, rp->cpu_server, rp->cpu_client);
                if (r < 0) {
                        report_fail(out, r, "fork: %s", g_strerror(-r));
                        goto reap;
                }
                if (!wait_ready(&ch[0], deadline)) {
                        collect(&ch[0], 1, MIN(deadline, now_ns() + 1000000000u));
                        if (ch[0].have_report && ch[0].s.status < 0)
                                report_fail(out, ch[0].s.status, "%s", ch[0].s.why);
                        else if (runner_interrupted)
                                report_fail(out, EINTR, "interrupted");
                        else if (now_ns() >= deadline)
                                report_fail(out, ETIMEDOUT, "the server did not become ready within the time limit");
                        else {
                                report_fail(out, EIO, "the server ended before it was ready");
                                server_early = true;
                        }
                        goto reap;
                }
        }
        c.srv_pid = inproc || threads ? 0 : ch[0].pid;
        r = threads ? 0 : spawn(&c, &ch[1], SPAWN_CLIENT, rp->cpu_client, -1);
        if (r < 0) {
                report_fail(out, r, "fork: %s", g_strerror(-r));
                goto reap;
        }
        /* The children hold their ends now; the parent's copies would keep
         * a stream from ever ending.  It must return by the cell's
         * deadline. */
        if (!inproc && t->close) {
                hook_enter(runner, STAGE_CLOSE, time_left(deadline));
                t->close(&ep);
                hook_leave(runner);
        }
        if (!collect(ch, 2, deadline)) {
                if (runner_interrupted)
                        report_fail(out, EINTR, "interrupted");
                else
                        report_fail(out, ETIMEDOUT, "exceeded the time limit of %.3g s", (double) limit / 1e9);
        }

reap:
        for (size_t i = 0; i < 2; i++) {
                if (ch[i].pid <= 0)
                        continue;
                if (i == 1 && ch[1].pid == ch[0].pid) {
                        /* roles=threads: one process, reaped once. */
                        ch[1].killed = ch[0].killed;
                        ch[1].status = ch[0].status;
                        if (ch[1].fd >= 0)
                                close(ch[1].fd);
                        continue;
                }
                if (out->status < 0) {
                        kill(ch[i].pid, SIGKILL);
                        ch[i].killed = true;
                }
                while (waitpid(ch[i].pid, &ch[i].status, 0) < 0 && errno == EINTR)
                        ;
                if (ch[i].fd >= 0)
                        close(ch[i].fd);
        }
        /* A server that ended before it was ready, by a signal of its own
         * (a crash in a transport's open(), say) rather than reap's
         * SIGKILL: the signal is why. */
        if (server_early && WIFSIGNALED(ch[0].status) && WTERMSIG(ch[0].status) != SIGKILL) {
                char how[96];
                describe_exit(ch[0].status, how, sizeof how);
                snprintf(out->why, sizeof out->why, "the server %s before it was ready", how);
        }
        /* Why the cell failed, unless the time limit or an interrupt says
         * it: a side that died on its own (a crash, a signal) before it
         * reported; else the side that failed first.  Its peer only saw
         * the consequence (a closed stream, an ack nobody read) or was
         * killed by collect(). */
        for (size_t i = 0; i < 2 && out->status == 0; i++) {
                if (ch[i].pid > 0 && !ch[i].have_report && !ch[i].killed) {
                        char how[96];
                        describe_exit(ch[i].status, how, sizeof how);
                        report_fail(out, ECHILD, "the %s %s before reporting", ch[i].role, how);
                }
        }
        if (out->status == 0) {
                Sample *cli = &ch[1].s, *first = NULL;
                for (size_t i = 0; i < 2; i++)
                        if (ch[i].pid > 0 && ch[i].have_report &&
                            ch[i].s.status < 0 && (!first || ch[i].s.failed_ns < first->failed_ns))
                                first = &ch[i].s;
                if (first)
                        report_fail(out, first->status, "%s", first->why);
                if (out->status == 0)
                        *out = *cli;   /* the server's readings came in its ack */
        }
        if (t->cleanup) {
                hook_enter(runner, STAGE_CLEANUP, limit);
                t->cleanup(&ep);
                hook_leave(runner);
        }
done:
        free(ep.buf);   /* ipclab_endpoint_buffer() realloc()s it */
}

typedef void (*RepetitionFn)(Runner *runner, const Rep *rp, Sample *out);

/* The supervisor's SIGINT, which ipclab's process passes on when it is
 * interrupted (supervise): the repetition ends as an interrupted one. */
static void supervisor_interrupted(int sig)
{
        (void) sig;
        runner_interrupted = 1;
}

/* Why the supervisor ended without a report (exit STATUS, from waitpid;
 * KILLED: by the runner, past its time limit). */
static void supervisor_failed(Runner *runner, int status, bool killed, Sample *out)
{
        Stage stage = (Stage) __atomic_load_n(runner->stage, __ATOMIC_ACQUIRE);
        const char *what = stage_hook[stage < G_N_ELEMENTS(stage_hook) ? stage : STAGE_RUN];
        double limit = (double) runner->exp->timeout_ns / 1e9;
        char how[96];

        if (runner_interrupted) {
                report_fail(out, EINTR, "interrupted");
        } else if (killed || (stage != STAGE_RUN && WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)) {
                report_fail(out, ETIMEDOUT, "%s exceeded the time limit of %.3g s", what, limit);
        } else {
                describe_exit(status, how, sizeof how);
                report_fail(out, ECHILD, "%s %s", what, how);
        }
}

/* Runs FN (a repetition) in a child process of its own, the supervisor,
 * which reports its Sample into OUT: every hook of the transport runs
 * there or in the sides it forks, never in ipclab's process, so a crash
 * or a hang in one fails the cell alone (transport.h).  The supervisor
 * times its hooks itself (hook_enter); this process sleeps until its
 * report, its end, or an interrupt, which it passes on (SIGINT), and
 * kills it only when it outlives every limit it has or the grace of an
 * interrupt: so nothing of this process wakes in a window. */
static void supervise(Runner *runner, RepetitionFn fn, const Rep *rp, Sample *out)
{
        const guint64 limit = runner->exp->timeout_ns;
        int p[2], status = 0;
        Sample s;
        bool have = false, killed = false;

        if (pipe2(p, O_CLOEXEC) < 0) {
                report_fail(out, errno, "pipe: %s", g_strerror(errno));
                return;
        }
        __atomic_store_n(runner->stage, (int) STAGE_RUN, __ATOMIC_RELEASE);
        fflush(NULL);
        pid_t parent = getpid(), pid = fork();
        if (pid < 0) {
                int e = errno;
                close(p[0]);
                close(p[1]);
                report_fail(out, e, "fork: %s", g_strerror(e));
                return;
        }
        if (pid == 0) {
                struct sigaction sa = { .sa_handler = supervisor_interrupted };
                close(p[0]);
                runner_child_start(parent);
                sigaction(SIGINT, &sa, NULL);
                signal(SIGALRM, SIG_DFL);   /* a hook past its limit (hook_enter) */
                fn(runner, rp, out);
                report_write(p[1], out);
                _exit(0);
        }
        close(p[1]);

        /* prepare(), the sides, close() (within theirs) and cleanup(),
         * each within the cell's limit, and the slack. */
        guint64 now = now_ns(), end = now + 3 * limit + SUPERVISOR_SLACK_NS, grace = 0;
        sigset_t stop, old;
        sigemptyset(&stop);
        sigaddset(&stop, SIGINT);
        sigaddset(&stop, SIGTERM);
        sigprocmask(SIG_BLOCK, &stop, &old);   /* ppoll() takes them, no race */
        for (;;) {
                if (runner_interrupted && !grace) {
                        kill(pid, SIGINT);
                        grace = now + INTERRUPT_GRACE_NS;
                }
                guint64 by = grace ? MIN(grace, end) : end;
                if (now >= by) {
                        killed = true;
                        break;
                }
                struct timespec ts = { .tv_sec = (time_t) ((by - now) / 1000000000u),
                                       .tv_nsec = (long) ((by - now) % 1000000000u) };
                struct pollfd pfd = { .fd = p[0], .events = POLLIN };
                int r = ppoll(&pfd, 1, &ts, &old);
                now = now_ns();
                if (r > 0) {
                        have = ipclab_read_exact(p[0], &s, sizeof s) == 1;
                        break;
                }
                if (r < 0 && errno != EINTR) {
                        killed = true;
                        break;
                }
        }
        sigprocmask(SIG_SETMASK, &old, NULL);
        close(p[0]);
        if (!have)
                kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
        if (have)
                *out = s;
        else
                supervisor_failed(runner, status, killed, out);
}

/* What the runner sets up for a repetition in its own process: the
 * latency buffer, the bus, the CPUs, the private directory.  0, or < 0
 * with OUT failed. */
static int rep_setup(Runner *runner, Rep *rp, Sample *out)
{
        const Cell *cell = rp->cell;
        bool command = (rp->t->flags & TRANSPORT_COMMAND) != 0;
        int r;

        if (command || cell->pattern != PATTERN_ONEWAY || stamp_size(cell)) {
                size_t cap = command || (cell->count && cell->pattern != PATTERN_ONEWAY)
                             ? cell->count : MIN(LATENCY_CAP, cell->count ? cell->count : cell->duration_ns / 50 + 1);
                if (runner_latency_buffer(runner, cap) < 0) {
                        report_fail(out, ENOMEM, "latency buffer of %zu entries", cap);
                        return -ENOMEM;
                }
                rp->lat = runner->lat;
                rp->lat_cap = cap;
        }
        if (command || ((rp->t->flags & TRANSPORT_DBUS) && cell->bus != BUS_P2P)) {
                rp->bus = runner_bus(runner, cell->bus, out);
                if (!rp->bus)
                        return -EHOSTDOWN;
        }
        r = choose_cpus(cell->cpus, &rp->cpu_server, &rp->cpu_client);
        if (r < 0) {
                report_fail(out, r, "cpus=%s needs two CPUs in ipclab's affinity mask", cpus_name(cell->cpus));
                return r;
        }
        if (rp->bus && (r = pin_bus(rp->bus, cell->bus, rp->cpu_server, out)) < 0)
                return r;
        g_autofree char *dir_why = NULL;
        rp->dir = make_private_dir(&dir_why);
        if (!rp->dir) {
                report_fail(out, ENAMETOOLONG, "%s", dir_why);
                return -ENAMETOOLONG;
        }
        return 0;
}

Runner *runner_new(const Experiment *exp)
{
        Runner *r = g_new0(Runner, 1);

        r->exp = exp;
        r->shared = mmap(NULL, sizeof *r->shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (r->shared == MAP_FAILED)
                g_error("runner: cannot map %zu bytes of shared memory", sizeof *r->shared);
        r->stage = mmap(NULL, sizeof *r->stage, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (r->stage == MAP_FAILED)
                g_error("runner: cannot map %zu bytes of shared memory", sizeof *r->stage);
        return r;
}

void sample_init(Sample *s)
{
        memset(s, 0, sizeof *s);
        s->fixed_ns = s->client_on_cpu = s->server_on_cpu = s->bus_on_cpu = s->migrations = SAMPLE_NONE;
        s->placement = PLACEMENT_UNKNOWN;
}

void runner_stop_buses(Runner *runner)
{
        for (size_t i = 0; i < G_N_ELEMENTS(runner->bus); i++) {
                g_clear_pointer(&runner->bus[i], bus_stop);
                g_clear_pointer(&runner->bus_error[i], g_free);
        }
}

void runner_free(Runner *runner)
{
        if (!runner)
                return;
        runner_stop_buses(runner);
        if (runner->shared)
                munmap(runner->shared, sizeof *runner->shared);
        if (runner->stage)
                munmap(runner->stage, sizeof *runner->stage);
        if (runner->lat)
                munmap(runner->lat, runner->lat_cap * sizeof *runner->lat);
        g_free(runner);
}

int runner_run(Runner *runner, const Cell *cell, guint rep, Sample *out)
{
        const Transport *t = transport_find(cell->transport);
        Rep rp = { .t = t, .cell = cell, .cpu_server = -1, .cpu_client = -1 };

        (void) rep;
        sample_init(out);
        memset(runner->shared, 0, sizeof *runner->shared);
        runner->shared->srv_end_cpu = -1;
        runner->lat_n = 0;
        if (rep_setup(runner, &rp, out) == 0)
                supervise(runner, (t->flags & TRANSPORT_COMMAND) ? command_repetition : repetition, &rp, out);
        /* The peers only saw a closed connection; say what closed it (a
         * daemon killed mid-cell may take a moment to be seen dead). */
        for (int i = 0; out->status < 0 && rp.bus && bus_is_alive(rp.bus) && i < 10; i++)
                g_usleep(10000);
        if (out->status < 0 && rp.bus && !bus_is_alive(rp.bus)) {
                g_autofree char *why = g_strdup_printf("the %s died during the cell: %s",
                                                       bus_name(cell->bus), out->why);
                g_strlcpy(out->why, why, sizeof out->why);
        }
        if (out->status == 0 && rp.lat)
                runner->lat_n = MIN(out->lat_n, rp.lat_cap);
        if (rp.dir) {
                samples_remove_dir(rp.dir);
                g_free(rp.dir);
        }
        return 0;
}
