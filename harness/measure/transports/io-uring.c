/* io-uring.c: a Unix stream socketpair whose sends and receives are
 * io_uring submissions (liburing), one message at a time.
 *
 * prepare() makes the socketpair before the fork (fd[0] the server's end,
 * fd[1] the client's); each role, in open(), closes the other's end and
 * sets up a ring of its own (io_uring_queue_init, no SQPOLL: no kernel
 * thread polls for it).  send() queues one IORING_OP_SEND of what is left
 * of the message and waits for its completion in the same
 * io_uring_enter() (io_uring_submit_and_wait); recv() does the same with
 * IORING_OP_RECV into the endpoint's buffer, until the expected size has
 * arrived.  So each message costs each side at least one io_uring_enter()
 * where a plain socket costs one send() or recv(): the question this
 * transport answers is what io_uring's submission and completion add or
 * save for one message at a time, not what batching would gain.  A receive
 * that finds nothing queued is parked by the kernel (a poll on the socket)
 * and completed by task work when data arrives; the completion wakes the
 * waiting io_uring_enter().
 *
 * What lies in the timed window, per message: the io_uring_enter() calls
 * (submission, the send or receive, the wait for the completion), the
 * reads of the completion queue, and the wake-ups.  The rings' setup and
 * teardown (open(), close()) and the end of the stream (shutdown(), a
 * plain system call) lie outside.
 *
 * The liburing version recorded (libraries(), meta.ini) is the one the
 * harness was built against (pkg-config liburing): liburing 2.3 has no call
 * that reports its version at run time.
 */
#include <ipclab/transport.h>
#include "transport.h"

#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef IPCLAB_LIBURING_VERSION
#define IPCLAB_LIBURING_VERSION "unknown"
#endif

#define URING_ENTRIES 8

/* Each role's ring (indexed by role: roles=threads shares ep->priv). */
typedef struct {
        struct io_uring ring[2];
        bool ready[2];
} Uring;

static const char *uring_unavailable(void)
{
        static bool probed;
        static char why[160];

        if (!probed) {
                struct io_uring ring;
                int r = io_uring_queue_init(URING_ENTRIES, &ring, 0);
                if (r < 0)
                        snprintf(why, sizeof why, r == -ENOSYS ? "the kernel has no io_uring (CONFIG_IO_URING)"
                                 : r == -EPERM ? "io_uring_setup is not permitted here "
                                   "(kernel.io_uring_disabled, or a seccomp filter)"
                                 : "io_uring_queue_init: %s", g_strerror(-r));
                else
                        io_uring_queue_exit(&ring);
                probed = true;
        }
        return why[0] ? why : NULL;
}

static const char *uring_libraries(void)
{
        return "liburing " IPCLAB_LIBURING_VERSION;
}

static int uring_prepare(Endpoint *ep)
{
        ep->priv = g_new0(Uring, 1);
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, &ep->fd[0]) < 0)
                return endpoint_fail(ep, errno, "socketpair");
        return 0;
}

static int uring_open(Endpoint *ep, Role role)
{
        Uring *u = ep->priv;

        ep->role = role;
        io_close(&ep->fd[role == ROLE_SERVER ? 1 : 0]);
        int r = io_uring_queue_init(URING_ENTRIES, &u->ring[role], 0);
        if (r < 0)
                return endpoint_fail(ep, -r, "io_uring_queue_init");
        u->ready[role] = true;
        return 0;
}

static int uring_fd(const Endpoint *ep)
{
        return ep->fd[ep->role == ROLE_SERVER ? 0 : 1];
}

/* Submits the one request just prepared and waits for its completion:
 * its result (bytes, or -errno). */
static int uring_run(Endpoint *ep, struct io_uring *ring)
{
        struct io_uring_cqe *cqe;
        int r;

        do
                r = io_uring_submit_and_wait(ring, 1);
        while (r == -EINTR);
        if (r < 0)
                return r;
        do
                r = io_uring_wait_cqe(ring, &cqe);
        while (r == -EINTR);
        if (r < 0)
                return r;
        r = cqe->res;
        io_uring_cqe_seen(ring, cqe);
        (void) ep;
        return r;
}

static int uring_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        struct io_uring *ring = &((Uring *) ep->priv)->ring[ep->role];
        size_t done = 0;

        (void) flags;
        while (done < len) {
                struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
                if (!sqe)
                        return endpoint_fail(ep, EBUSY, "no free submission queue entry");
                io_uring_prep_send(sqe, uring_fd(ep), (const char *) data + done, len - done, MSG_NOSIGNAL);
                int r = uring_run(ep, ring);
                if (r == -EINTR || r == -EAGAIN)
                        continue;
                if (r < 0)
                        return endpoint_fail(ep, -r, "io_uring send of %zu bytes", len - done);
                if (r == 0)
                        return endpoint_fail(ep, EPIPE, "io_uring send: nothing sent");
                done += (size_t) r;
        }
        return 0;
}

static int uring_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        struct io_uring *ring = &((Uring *) ep->priv)->ring[ep->role];
        char *buf = endpoint_buffer(ep, expect + 1);
        size_t got = 0;

        if (!buf)
                return endpoint_fail(ep, ENOMEM, "a receive buffer of %zu bytes", expect + 1);
        while (got < expect) {
                struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
                if (!sqe)
                        return endpoint_fail(ep, EBUSY, "no free submission queue entry");
                io_uring_prep_recv(sqe, uring_fd(ep), buf + got, expect - got, 0);
                int r = uring_run(ep, ring);
                if (r == -EINTR || r == -EAGAIN)
                        continue;
                if (r < 0)
                        return endpoint_fail(ep, -r, "io_uring recv");
                if (r == 0) {
                        if (got == 0)
                                return 0;
                        return endpoint_fail(ep, EPROTO, "the stream ended %zu bytes into a message of %zu",
                                             got, expect);
                }
                got += (size_t) r;
        }
        buf[expect] = '\0';
        *data = buf;
        *len = expect;
        return 1;
}

static int uring_send_end(Endpoint *ep)
{
        if (shutdown(uring_fd(ep), SHUT_WR) < 0)
                return endpoint_fail(ep, errno, "shutdown");
        return 0;
}

static void uring_close(Endpoint *ep)
{
        Uring *u = ep->priv;

        if (u && u->ready[ep->role]) {
                io_uring_queue_exit(&u->ring[ep->role]);
                u->ready[ep->role] = false;
        }
        io_close(&ep->fd[0]);
        io_close(&ep->fd[1]);
}

static void uring_cleanup(Endpoint *ep)
{
        uring_close(ep);
        g_clear_pointer(&ep->priv, g_free);
}

const Transport transport_io_uring = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "io-uring",
        .family = "kernel",
        .summary = "a Unix stream socketpair, each send and receive an io_uring submission (liburing)",
        .flags = TRANSPORT_THREADS,
        .unavailable = uring_unavailable,
        .libraries = uring_libraries,
        .prepare = uring_prepare,
        .open = uring_open,
        .send = uring_send,
        .recv = uring_recv,
        .send_end = uring_send_end,
        .close = uring_close,
        .cleanup = uring_cleanup,
};
