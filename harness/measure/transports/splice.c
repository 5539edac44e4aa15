/* splice.c: pipe's two anonymous pipes, the sender putting its pages into
 * the pipe with vmsplice(2) instead of copying them with write(2).
 *
 * The pipes, their ends and the receiving side are pipe.c's (its prepare,
 * open, recv, send_end and close); only send() differs.  write() copies
 * the message into pages of the pipe and read() copies it out again: two
 * copies.  vmsplice() takes references to the sender's own pages (one pipe
 * buffer per page touched, the message's bytes in place) and read() copies
 * out of those: one copy, and the pinning of the sender's pages instead of
 * the first.  The receiver read()s: splicing into a second pipe would only
 * move the page references again, and the bytes still have to reach the
 * receiver's memory, where ipclab checks them, by a copy.  A message
 * larger than the pipe (64 KiB by default) goes in several vmsplice()s,
 * each waiting for the reader to make room.
 *
 * What lies in the timed window, per message: the sender's vmsplice()
 * calls (pinning its pages, one pipe buffer per page), the receiver's
 * read() calls (one copy out of those pages) and the wake-ups between
 * them; for one-way messages also the copy into the send ring below.
 *
 * The pages a pipe refers to must not change until the reader has copied
 * them out, and ipclab reuses the buffer it hands to send() as soon as
 * send() returns.  A message that will be answered (a round trip's
 * request, a reply, the ack) is spliced from ipclab's buffer as it is:
 * the answer proves it read, and ipclab changes that buffer only after the
 * answer.  A one-way message (IPCLAB_SEND_NO_REPLY) is first copied into a
 * ring of page-aligned send buffers, one more than the pipe has buffers
 * (F_GETPIPE_SZ over the page size): every message takes at least one pipe
 * buffer, so when a message is written, the one that last used its ring
 * buffer has been read out whole.  That copy is the price of ipclab's
 * buffer rule, and one-way cells pay it in their window; an application
 * producing into buffers it then leaves alone would not.
 *
 * SPLICE_F_GIFT is given for the ring's buffers only: they are page
 * aligned and whole pages, and unchanged until read, which is the promise
 * the flag makes.  The kernel (6.x) marks the pipe buffers "gift", which
 * only matters to a consumer that tries to steal the page (a splice into
 * a FUSE device with SPLICE_F_MOVE), and a page still mapped by the
 * sender is never stolen; read() copies in every case.  ipclab's own
 * buffers are neither page aligned nor left alone, so they are spliced
 * without it.
 */
#include <ipclab/transport.h>
#include "transport.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

/* pipe.c's layout of ep->fd[]: the client writes fd[1], the server fd[3]. */
#define SPLICE_FD_TX(role) ((role) == ROLE_CLIENT ? 1 : 3)

#define SPLICE_MIN_MESSAGE 128   /* room for the runner's ~70-byte ack */

/* One role's ring of send buffers (one-way messages). */
typedef struct {
        unsigned char *map;
        size_t map_size, slot;   /* bytes per buffer, whole pages */
        size_t slots, next;
} SpliceRing;

/* Indexed by role: with roles=threads both roles share ep->priv. */
typedef struct {
        SpliceRing ring[2];
} Splice;

static int splice_prepare(Endpoint *ep)
{
        ep->priv = g_new0(Splice, 1);
        return transport_pipe.prepare(ep);
}

static int splice_open(Endpoint *ep, Role role)
{
        int r = transport_pipe.open(ep, role);
        SpliceRing *g = &((Splice *) ep->priv)->ring[role];
        long page = sysconf(_SC_PAGESIZE);
        int pipe_size;

        if (r < 0)
                return r;
        pipe_size = fcntl(ep->fd[SPLICE_FD_TX(role)], F_GETPIPE_SZ);
        if (pipe_size < 0)
                return endpoint_fail(ep, errno, "F_GETPIPE_SZ");
        g->slots = (size_t) pipe_size / (size_t) page + 1;
        g->slot = (MAX((size_t) ep->cell->size, (size_t) SPLICE_MIN_MESSAGE) + (size_t) page - 1) &
                  ~((size_t) page - 1);
        g->map_size = g->slots * g->slot;
        g->map = mmap(NULL, g->map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (g->map == MAP_FAILED) {
                g->map = NULL;
                return endpoint_fail(ep, errno, "mmap of a send ring of %zu bytes", g->map_size);
        }
        return 0;
}

static int splice_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        SpliceRing *g = &((Splice *) ep->priv)->ring[ep->role];
        struct iovec iov = { .iov_base = (void *) data, .iov_len = len };
        unsigned gift = 0;

        if (flags & IPCLAB_SEND_NO_REPLY) {
                if (len > g->slot)
                        return endpoint_fail(ep, EMSGSIZE, "a message of %zu bytes", len);
                iov.iov_base = g->map + g->next * g->slot;
                g->next = (g->next + 1) % g->slots;
                memcpy(iov.iov_base, data, len);
                gift = SPLICE_F_GIFT;
        }
        while (iov.iov_len > 0) {
                ssize_t n = vmsplice(ep->fd[SPLICE_FD_TX(ep->role)], &iov, 1, gift);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return endpoint_fail(ep, errno, "vmsplice of %zu bytes", iov.iov_len);
                }
                iov.iov_base = (char *) iov.iov_base + n;
                iov.iov_len -= (size_t) n;
        }
        return 0;
}

static int splice_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        return transport_pipe.recv(ep, data, len, expect);
}

static int splice_send_end(Endpoint *ep)
{
        return transport_pipe.send_end(ep);
}

static void splice_close(Endpoint *ep)
{
        Splice *s = ep->priv;

        transport_pipe.close(ep);
        if (s && s->ring[ep->role].map) {
                munmap(s->ring[ep->role].map, s->ring[ep->role].map_size);
                s->ring[ep->role].map = NULL;
        }
}

static void splice_cleanup(Endpoint *ep)
{
        transport_pipe.cleanup(ep);
        g_clear_pointer(&ep->priv, g_free);
}

const Transport transport_splice = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "splice",
        .family = "kernel",
        .summary = "two anonymous pipes, the sender's pages put in with vmsplice, the receiver reading",
        .flags = TRANSPORT_THREADS,
        .prepare = splice_prepare,
        .open = splice_open,
        .send = splice_send,
        .recv = splice_recv,
        .send_end = splice_send_end,
        .close = splice_close,
        .cleanup = splice_cleanup,
};
