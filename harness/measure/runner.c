/* runner.c: fork client and server, pin CPUs, warm up, time, collect.
 *
 * This file holds the repetition's orchestration (the supervisor, runner_run);
 * runner-window.c the timed loop on both sides, runner-fork.c the processes,
 * threads and pinning, runner-command.c runner=hyperfine cells.
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
 *            (runner_hook_enter) and with its name where the runner reads it
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
 * runner_collect(), as ipclab's process did before it ran the hooks elsewhere)
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
#include "runner-internal.h"

/* Makes RUNNER's latency buffer hold N entries: a shared mapping, so that
 * the client child's latencies are the parent's to keep. */
int runner_latency_buffer(Runner *runner, size_t n)
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

static const char *const stage_hook[] = {
        [STAGE_RUN] = "the repetition's supervisor",
        [STAGE_PREPARE] = "prepare()",
        [STAGE_CLOSE] = "close() in the forking process",
        [STAGE_CLEANUP] = "cleanup()",
        [STAGE_COMMAND] = "command()",
};

/* The supervisor calls hook STAGE, which must return within LIMIT_NS
 * (at least 1 us): else SIGALRM, whose default action ends the
 * supervisor (supervise), which the runner reports as the hook's time
 * limit.  The stage goes into the page the runner reads (Runner.stage). */
void runner_hook_enter(Runner *runner, Stage stage, guint64 limit_ns)
{
        struct itimerval it = { .it_value = { .tv_sec = (time_t) (limit_ns / 1000000000u),
                                              .tv_usec = (suseconds_t) MAX(limit_ns % 1000000000u / 1000, 1) } };

        __atomic_store_n(runner->stage, (int) stage, __ATOMIC_RELEASE);
        setitimer(ITIMER_REAL, &it, NULL);
}

/* The hook has returned: back in ipclab's code. */
void runner_hook_leave(Runner *runner)
{
        struct itimerval off = { { 0, 0 }, { 0, 0 } };

        setitimer(ITIMER_REAL, &off, NULL);
        __atomic_store_n(runner->stage, (int) STAGE_RUN, __ATOMIC_RELEASE);
}

/* The time left until DEADLINE, for a hook that must end by then. */
guint64 runner_time_left(guint64 deadline)
{
        guint64 now = runner_now_ns();

        return deadline > now ? deadline - now : 0;
}

/* ---- the supervisor: the transport's hooks out of ipclab's own process ---- */

/* Starts the server of repetition RP (both sides in one process for
 * roles=threads) into CH and waits until it is ready, by DEADLINE.  FALSE
 * with OUT failed when it is not; *SERVER_EARLY when it ended before it
 * was ready, for no reason it reported. */
static bool rep_start_server(Ctx *c, Child ch[2], const Rep *rp, guint64 deadline, Sample *out,
                             bool *server_early)
{
        bool threads = rp->cell->roles == ROLES_THREADS;
        int r = runner_spawn(c, ch, threads ? SPAWN_PAIR : SPAWN_SERVER, rp->cpu_server, rp->cpu_client);

        if (r < 0) {
                runner_report_fail(out, r, "fork: %s", g_strerror(-r));
                return false;
        }
        if (runner_wait_ready(&ch[0], deadline))
                return true;
        runner_collect(&ch[0], 1, MIN(deadline, runner_now_ns() + 1000000000u));
        if (ch[0].have_report && ch[0].s.status < 0)
                runner_report_fail(out, ch[0].s.status, "%s", ch[0].s.why);
        else if (spawn_interrupted)
                runner_report_fail(out, EINTR, "interrupted");
        else if (runner_now_ns() >= deadline)
                runner_report_fail(out, ETIMEDOUT, "the server did not become ready within the time limit");
        else {
                runner_report_fail(out, EIO, "the server ended before it was ready");
                *server_early = true;
        }
        return false;
}

/* Reaps the sides of a repetition (killed first when OUT has failed). */
static void rep_reap(Child ch[2], const Sample *out)
{
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
                if (out->status < 0)
                        ch[i].killed = true;
                runner_reap(ch[i].pid, out->status < 0, &ch[i].status);
                if (ch[i].fd >= 0)
                        close(ch[i].fd);
        }
}

/* OUT, the sample of a repetition whose sides CH are reaped: the client's,
 * or why it failed (SERVER_EARLY: as rep_start_server() says). */
static void rep_verdict(Child ch[2], bool server_early, Sample *out)
{
        /* A server that ended before it was ready, by a signal of its own
         * (a crash in a transport's open(), say) rather than reap's
         * SIGKILL: the signal is why. */
        if (server_early && WIFSIGNALED(ch[0].status) && WTERMSIG(ch[0].status) != SIGKILL) {
                char how[96];
                runner_describe_exit(ch[0].status, how, sizeof how);
                snprintf(out->why, sizeof out->why, "the server %s before it was ready", how);
        }
        /* Why the cell failed, unless the time limit or an interrupt says
         * it: a side that died on its own (a crash, a signal) before it
         * reported; else the side that failed first.  Its peer only saw
         * the consequence (a closed stream, an ack nobody read) or was
         * killed by runner_collect(). */
        for (size_t i = 0; i < 2 && out->status == 0; i++) {
                if (ch[i].pid > 0 && !ch[i].have_report && !ch[i].killed) {
                        char how[96];
                        runner_describe_exit(ch[i].status, how, sizeof how);
                        runner_report_fail(out, ECHILD, "the %s %s before reporting", ch[i].role, how);
                }
        }
        if (out->status == 0) {
                Sample *cli = &ch[1].s, *first = NULL;
                for (size_t i = 0; i < 2; i++)
                        if (ch[i].pid > 0 && ch[i].have_report &&
                            ch[i].s.status < 0 && (!first || ch[i].s.failed_ns < first->failed_ns))
                                first = &ch[i].s;
                if (first)
                        runner_report_fail(out, first->status, "%s", first->why);
                if (out->status == 0)
                        *out = *cli;   /* the server's readings came in its ack */
        }
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
        c.req_size = runner_request_size(t, cell);
        c.rep_size = runner_reply_size(t, cell);
        c.untimed = runner->exp->warmup + FIXED_WINDOWS;
        c.srv_last = cell->count ? c.untimed + cell->count : 0;
        c.stamp_len = runner_stamp_size(cell);
        if (rp->bus) {
                ep.bus_address = bus_get_address(rp->bus);
                ep.bus_pid = bus_get_pid(rp->bus);
        }
        ep.dir = rp->dir;
        runner_hook_enter(runner, STAGE_PREPARE, limit);
        r = t->prepare ? t->prepare(&ep) : 0;
        runner_hook_leave(runner);
        if (r < 0) {
                runner_report_fail(out, r, "prepare: %s", ep.why);
                goto done;
        }

        guint64 deadline = runner_now_ns() + limit;
        if (!inproc && !rep_start_server(&c, ch, rp, deadline, out, &server_early))
                goto reap;
        c.srv_pid = inproc || threads ? 0 : ch[0].pid;
        r = threads ? 0 : runner_spawn(&c, &ch[1], SPAWN_CLIENT, rp->cpu_client, -1);
        if (r < 0) {
                runner_report_fail(out, r, "fork: %s", g_strerror(-r));
                goto reap;
        }
        /* The children hold their ends now; the parent's copies would keep
         * a stream from ever ending.  It must return by the cell's
         * deadline. */
        if (!inproc && t->close) {
                runner_hook_enter(runner, STAGE_CLOSE, runner_time_left(deadline));
                t->close(&ep);
                runner_hook_leave(runner);
        }
        if (!runner_collect(ch, 2, deadline)) {
                if (spawn_interrupted)
                        runner_report_fail(out, EINTR, "interrupted");
                else
                        runner_report_fail(out, ETIMEDOUT, "exceeded the time limit of %.3g s", (double) limit / 1e9);
        }

reap:
        rep_reap(ch, out);
        rep_verdict(ch, server_early, out);
        if (t->cleanup) {
                runner_hook_enter(runner, STAGE_CLEANUP, limit);
                t->cleanup(&ep);
                runner_hook_leave(runner);
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
        spawn_interrupted = 1;
}

/* Why the supervisor ended without a report (exit STATUS, from waitpid;
 * KILLED: by the runner, past its time limit). */
static void supervisor_failed(Runner *runner, int status, bool killed, Sample *out)
{
        Stage stage = (Stage) __atomic_load_n(runner->stage, __ATOMIC_ACQUIRE);
        const char *what = stage_hook[stage < G_N_ELEMENTS(stage_hook) ? stage : STAGE_RUN];
        double limit = (double) runner->exp->timeout_ns / 1e9;
        char how[96];

        if (spawn_interrupted) {
                runner_report_fail(out, EINTR, "interrupted");
        } else if (killed || (stage != STAGE_RUN && WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)) {
                runner_report_fail(out, ETIMEDOUT, "%s exceeded the time limit of %.3g s", what, limit);
        } else {
                runner_describe_exit(status, how, sizeof how);
                runner_report_fail(out, ECHILD, "%s %s", what, how);
        }
}

/* What the supervisor runs (SpawnOpts.run). */
typedef struct {
        Runner *runner;
        RepetitionFn fn;
        const Rep *rp;
        Sample *out;
        pid_t parent;
        int report[2];   /* its pipe: the supervisor writes [1] */
} Supervisor;

static int supervisor_run(void *data)
{
        Supervisor *sv = data;
        struct sigaction sa = { .sa_handler = supervisor_interrupted };

        close(sv->report[0]);
        spawn_child_start(sv->parent);
        sigaction(SIGINT, &sa, NULL);
        signal(SIGALRM, SIG_DFL);   /* a hook past its limit (runner_hook_enter) */
        sv->fn(sv->runner, sv->rp, sv->out);
        runner_report_write(sv->report[1], sv->out);
        return 0;
}

/* SpawnCheck: stop when an interrupt came that is not passed on yet
 * (*DATA, the end of its grace, is still 0). */
static int supervisor_stop(void *data)
{
        return spawn_interrupted && !*(const guint64 *) data ? -EINTR : 0;
}

/* Runs FN (a repetition) in a child process of its own, the supervisor,
 * which reports its Sample into OUT: every hook of the transport runs
 * there or in the sides it forks, never in ipclab's process, so a crash
 * or a hang in one fails the cell alone (transport.h).  The supervisor
 * times its hooks itself (runner_hook_enter); this process sleeps until its
 * report, its end, or an interrupt, which it passes on (SIGINT), and
 * kills it only when it outlives every limit it has or the grace of an
 * interrupt: so nothing of this process wakes in a window. */
static void supervise(Runner *runner, RepetitionFn fn, const Rep *rp, Sample *out)
{
        const guint64 limit = runner->exp->timeout_ns;
        Supervisor sv = { .runner = runner, .fn = fn, .rp = rp, .out = out, .parent = getpid() };
        SpawnOpts o = { .in_fd = SPAWN_INHERIT, .out_fd = SPAWN_INHERIT, .err_fd = SPAWN_INHERIT,
                        .run = supervisor_run, .data = &sv };
        SpawnChild c;
        int status = 0;
        Sample s;
        bool have = false, killed = false;

        if (pipe2(sv.report, O_CLOEXEC) < 0) {
                runner_report_fail(out, errno, "pipe: %s", g_strerror(errno));
                return;
        }
        __atomic_store_n(runner->stage, (int) STAGE_RUN, __ATOMIC_RELEASE);
        int r = spawn_start(&o, &c);
        close(sv.report[1]);
        if (r < 0) {
                close(sv.report[0]);
                runner_report_fail(out, -r, "fork: %s", g_strerror(-r));
                return;
        }

        /* prepare(), the sides, close() (within theirs) and cleanup(),
         * each within the cell's limit, and the slack.  Only the report,
         * its deadline and SIGINT or SIGTERM wake this process. */
        guint64 end = runner_now_ns() + 3 * limit + SUPERVISOR_SLACK_NS, grace = 0;
        sigset_t stop;
        spawn_stop_signals(&stop);
        for (;;) {
                guint64 now = runner_now_ns();
                if (spawn_interrupted && !grace) {
                        kill(c.pid, SIGINT);
                        grace = now + INTERRUPT_GRACE_NS;
                }
                guint64 by = grace ? MIN(grace, end) : end;
                if (now >= by) {
                        killed = true;
                        break;
                }
                r = spawn_watch_signals(NULL, &sv.report[0], 1, runner_deadline_us(by), &stop, supervisor_stop,
                                        &grace);
                if (r == 0) {
                        have = ipclab_read_exact(sv.report[0], &s, sizeof s) == 1;
                        break;
                }
                if (r != -EINTR && r != -ETIMEDOUT) {
                        killed = true;
                        break;
                }
        }
        close(sv.report[0]);
        if (have)
                spawn_wait(&c, 0, 0, NULL, NULL, NULL, &status);
        else
                spawn_end(&c, 0, &status);
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

        if (command || cell->pattern != PATTERN_ONEWAY || runner_stamp_size(cell)) {
                size_t cap = command || (cell->count && cell->pattern != PATTERN_ONEWAY)
                             ? cell->count : MIN(LATENCY_CAP, cell->count ? cell->count : cell->duration_ns / 50 + 1);
                if (runner_latency_buffer(runner, cap) < 0) {
                        runner_report_fail(out, ENOMEM, "latency buffer of %zu entries", cap);
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
        r = runner_choose_cpus(cell->cpus, &rp->cpu_server, &rp->cpu_client);
        if (r < 0) {
                runner_report_fail(out, r, "cpus=%s needs two CPUs in ipclab's affinity mask", cpus_name(cell->cpus));
                return r;
        }
        if (rp->bus && (r = runner_pin_bus(rp->bus, cell->bus, rp->cpu_server, out)) < 0)
                return r;
        g_autofree char *dir_why = NULL;
        rp->dir = runner_make_private_dir(&dir_why);
        if (!rp->dir) {
                runner_report_fail(out, ENAMETOOLONG, "%s", dir_why);
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
                supervise(runner, (t->flags & TRANSPORT_COMMAND) ? runner_command_repetition : repetition, &rp, out);
        /* The peers only saw a closed connection; say what closed it (a
         * daemon killed mid-cell may take a moment to be seen dead). */
        if (out->status < 0 && rp.bus && bus_is_alive(rp.bus))
                bus_await_daemon(rp.bus, 100);
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
