/* runner-window.c: the timed loop on both sides: clocks, payloads and their
 * stamps, the server's step, the client's windows (the top of runner.c
 * describes the window). */
#include "runner-internal.h"

/* Clock CLK in ns; 0 if it cannot be read. */
static guint64 clock_ns(clockid_t clk)
{
        struct timespec ts;

        if (clock_gettime(clk, &ts) != 0)
                return 0;
        return (guint64) ts.tv_sec * 1000000000u + (guint64) ts.tv_nsec;
}

guint64 runner_now_ns(void)
{
        return clock_ns(CLOCK_MONOTONIC);
}

/* CPU time process PID (every thread) has used, in ns, from its CPU clock;
 * 0 if unknown or PID <= 0. */
guint64 runner_proc_cpu_ns(pid_t pid)
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

/* The request size on the wire: callrate carries no payload, which a
 * transport that cannot send empty messages replaces with one byte. */
size_t runner_request_size(const Transport *t, const Cell *cell)
{
        if (cell->pattern == PATTERN_CALLRATE)
                return (t->flags & TRANSPORT_EMPTY_OK) ? 0 : 1;
        return cell->size;
}

size_t runner_reply_size(const Transport *t, const Cell *cell)
{
        if (cell->reply == REPLY_ECHO && cell->pattern != PATTERN_CALLRATE)
                return cell->size;
        return (t->flags & TRANSPORT_EMPTY_OK) ? 0 : 1;
}

static const char empty_reply[] = "a";

/* Fills a payload: letters for strings (valid UTF-8 text, as 000 used),
 * a byte pattern covering all 256 values for byte arrays. */
void runner_payload_fill(char *buf, size_t len, PayloadType type)
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
size_t runner_stamp_size(const Cell *cell)
{
        size_t need = cell->payload == PAYLOAD_STRING ? 16 : 8;

        return cell->pattern == PATTERN_ONEWAY && cell->size >= need ? need : 0;
}

static const char hex_digits[] = "0123456789abcdef";

/* Writes send time T into the first LEN (runner_stamp_size) bytes of BUF. */
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

void runner_report_fail(Sample *s, int err, const char *fmt, ...)
{
        va_list ap;

        if (s->status < 0)
                return;  /* keep the first reason */
        s->status = err > 0 ? -err : (err < 0 ? err : -EIO);
        s->failed_ns = runner_now_ns();
        va_start(ap, fmt);
        vsnprintf(s->why, sizeof s->why, fmt, ap);
        va_end(ap);
}

/* The CPU time of the side C runs, in ns: its process's (every thread),
 * or with roles=threads its own thread's.  Exact, not tick-sampled. */
static guint64 side_cpu_ns(const Ctx *c)
{
        return clock_ns(c->pair ? CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID);
}

/* The server's CPU time, read by the client: the server process's, or
 * with roles=threads the server thread's; 0 in process. */
guint64 runner_server_cpu_ns(const Ctx *c)
{
        if (c->pair)
                return c->pair->srv_clk_ok ? clock_ns(c->pair->srv_clk) : 0;
        return runner_proc_cpu_ns(c->srv_pid);
}

/* Where a one-way window closes (see the top of runner.c): the server's
 * CPU clock, then, when LAST says this was the last timed message, the
 * clock that closes it, then the bus's CPU clock; then (outside) the CPU
 * the server is on, a read of the rseq area. */
static void server_window_end(Ctx *c, bool last)
{
        c->srv_cpu1 = side_cpu_ns(c);
        if (last)
                c->srv_end_ns = runner_now_ns();
        c->srv_bus1 = runner_proc_cpu_ns(c->ep->bus_pid);
        if (!(c->t->flags & TRANSPORT_INPROCESS))
                c->sh->srv_end_cpu = sched_getcpu();
}

/* The end of the fixed window's one-way message: read as the main
 * window's end is (a CPU clock, then the clock). */
static void server_fixed_end(Ctx *c)
{
        (void) side_cpu_ns(c);
        c->sh->fixed_end_ns = runner_now_ns();
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
int runner_server_step(Ctx *c, Sample *s)
{
        const void *data;
        size_t len;
        bool oneway = c->cell->pattern == PATTERN_ONEWAY;
        int r = c->t->recv(c->ep, &data, &len, c->req_size);
        /* The receipt, where a window may end on it: a stamped message, any
         * one-way message of a duration-boxed cell. */
        guint64 got = r > 0 && (c->stamp_len || (oneway && !c->srv_last)) ? runner_now_ns() : 0;

        if (r < 0) {
                runner_report_fail(s, r, "server receive: %s", c->ep->why);
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
                        runner_report_fail(s, r, "server ack: %s", c->ep->why);
                        return r;
                }
                c->srv_done = true;
                return 0;
        }
        if (len != c->req_size) {
                runner_report_fail(s, EPROTO, "message %" PRIu64 ": %zu bytes arrived, %zu were sent",
                            c->srv_messages, len, c->req_size);
                return -EPROTO;
        }
        if (c->cell->payload == PAYLOAD_STRING && !(c->t->flags & TRANSPORT_VALIDATES) &&
            !g_utf8_validate_len(data, len, NULL)) {
                runner_report_fail(s, EILSEQ, "message %" PRIu64 ": string payload is not valid UTF-8",
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
                        runner_report_fail(s, EPROTO, "message %" PRIu64 ": its first %zu bytes are not a send time "
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
                        runner_report_fail(s, r, "server reply: %s", c->ep->why);
                        return r;
                }
        }
        if (oneway && c->srv_messages == c->srv_last)
                server_window_end(c, true);
        return 1;
}

/* runner_server_step() inside the client's process, for TRANSPORT_INPROCESS. */
static int server_step_inline(Ctx *c, Sample *s)
{
        c->ep->role = ROLE_SERVER;
        int r = runner_server_step(c, s);
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
                runner_report_fail(s, r, "round trip: %s", c->ep->why);
                return r;
        }
        if (r == 0) {
                runner_report_fail(s, EPIPE, "round trip: the server closed the stream");
                return -EPIPE;
        }
        if (len != c->rep_size) {
                runner_report_fail(s, EPROTO, "reply of %zu bytes, %zu expected", len, c->rep_size);
                return -EPROTO;
        }
        if (c->exp->verify && c->rep_size == c->req_size && memcmp(reply, buf, len) != 0) {
                runner_report_fail(s, EBADMSG, "the echoed payload differs from the request");
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
                runner_report_fail(s, r, "end of stream: %s", c->ep->why);
                return r;
        }
        r = c->t->recv(c->ep, &ack, &len, ACK_LEN);
        if (r <= 0) {
                runner_report_fail(s, r < 0 ? r : -EPIPE, "reading the server's ack: %s",
                            r < 0 ? c->ep->why : "end of stream");
                return r < 0 ? r : -EPIPE;
        }
        guint64 got = 0, got_bytes = 0, got_sum = 0;
        char text[ACK_LEN + 1];
        memcpy(text, ack, MIN(len, (size_t) ACK_LEN));
        text[MIN(len, (size_t) ACK_LEN)] = '\0';
        if (len != ACK_LEN ||
            sscanf(text, ACK_SCAN, &got, &got_bytes, &got_sum, &w->end_ns, &w->cpu_ns, &w->bus_cpu_ns) != 6) {
                runner_report_fail(s, EPROTO, "malformed ack from the server");
                return -EPROTO;
        }
        if (got != sent || got_bytes != sent_bytes) {
                runner_report_fail(s, EPROTO, "the server received %" PRIu64 " messages (%" PRIu64
                            " bytes); %" PRIu64 " (%" PRIu64 " bytes) were sent",
                            got, got_bytes, sent, sent_bytes);
                return -EPROTO;
        }
        if (c->exp->verify && got_sum != checksum) {
                runner_report_fail(s, EBADMSG, "payload checksum mismatch: %016" PRIx64 " received, %016"
                            PRIx64 " sent", got_sum, checksum);
                return -EBADMSG;
        }
        return 0;
}

/* Sorts the N latencies of LAT in place and puts their percentiles into S. */
void runner_sample_latencies(Sample *s, guint64 *lat, size_t n)
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

/* One timed window on the client's side (see the top of runner.c). */
typedef struct {
        guint64 t0, t1;           /* its start and the client's end */
        guint64 cpu0, cpu1;       /* the client's CPU clock */
        guint64 srv0, srv1;       /* the server's, read by the client */
        guint64 bus0, bus1;       /* the bus daemon's */
        guint64 n;                /* messages sent */
        int end_cpu;              /* sched_getcpu() after the client's end */
} Window;

/* Runs one window of COUNT messages, or of DURATION ns when COUNT is 0,
 * with the clock and CPU-clock reads the top of runner.c describes.  The
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

        w->bus0 = runner_proc_cpu_ns(c->ep->bus_pid);
        w->t0 = runner_now_ns();
        if (!fixed)
                c->sh->t0 = w->t0;   /* the server's deadline, duration-boxed one-way */
        w->cpu0 = side_cpu_ns(c);
        w->srv0 = runner_server_cpu_ns(c);
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
                                ts = runner_now_ns();
                                stamp_write(buf, stamp, ts);
                        }
                        int r = c->t->send(c->ep, buf, size, flags);
                        if (r >= 0 && (c->t->flags & TRANSPORT_INPROCESS))
                                r = server_step_inline(c, s);
                        if (r < 0) {
                                runner_report_fail(s, r, "send: %s", c->ep->why);
                                return r;
                        }
                        n++;
                        if (deadline)
                                t1 = stamp ? ts : runner_now_ns();
                } else {
                        guint64 ts = t1;
                        if (client_roundtrip(c, buf, s) < 0)
                                return -EIO;
                        t1 = runner_now_ns();
                        if (n < cap)
                                lat[n] = t1 - ts;
                        n++;
                }
        }
        w->cpu1 = side_cpu_ns(c);
        /* One-way to another process, the window closes at the server; an
         * in-process server has handled every message by now. */
        if (!oneway || (c->t->flags & TRANSPORT_INPROCESS)) {
                w->srv1 = runner_server_cpu_ns(c);
                w->t1 = runner_now_ns();
                w->bus1 = runner_proc_cpu_ns(c->ep->bus_pid);
        } else {
                w->t1 = runner_now_ns();   /* the last send has returned */
        }
        w->end_cpu = sched_getcpu();
        w->n = n;
        if (fixed && oneway) {
                /* The server's answer: after its receipt, outside. */
                const void *reply;
                size_t len;
                int r = c->t->recv(c->ep, &reply, &len, c->rep_size);
                if (r <= 0) {
                        runner_report_fail(s, r < 0 ? r : -EPIPE, "the reply to the fixed window's message: %s",
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

void runner_client_run(Ctx *c, Sample *s)
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
                runner_report_fail(s, ENOMEM, "payload of %zu bytes", size);
                return;
        }
        runner_payload_fill(buf, size, cell->payload);
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
                        runner_report_fail(s, EPROTO, "the server's end of the window precedes its start");
                        return;
                }
                if (cell->duration_ns) {
                        /* The last receipt by t0 + duration (runner_server_step). */
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
                runner_sample_latencies(s, c->lat, MIN(n, c->lat_cap));
}
