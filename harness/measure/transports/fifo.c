/* fifo.c: two named FIFOs in the repetition's private directory.
 *
 * prepare() makes DIR/c2s (requests) and DIR/s2c (replies), mode 0600;
 * each child opens its ends by path, as two unrelated programs would.
 *
 * Opening a FIFO blocks until the other end is opened too, but the server
 * opens its ends before the client exists (the runner forks the client
 * only once the server is ready).  So nobody blocks in open():
 *   server open()  c2s O_RDONLY|O_NONBLOCK (never blocks)
 *   client open()  s2c O_RDONLY|O_NONBLOCK, then c2s O_WRONLY|O_NONBLOCK
 *                  (the server's reader exists, so this succeeds)
 *   first recv()   poll() for the writer: Linux reports no POLLHUP on a
 *                  FIFO opened this way until a writer has come, so poll()
 *                  sleeps until the peer has written (or come and gone)
 *   server, then   s2c O_WRONLY|O_NONBLOCK: the client opened its reader
 *                  before its writer, so the reader is there
 * and every fd is switched back to blocking mode once connected.  The end
 * of the stream is the client closing its c2s write end: the server's
 * read() returns 0.
 *
 * What a FIFO costs beyond a pipe is the kernel's, not ours: since Linux
 * 6.15 an anonymous pipe skips the inode's timestamps, while every read
 * of a FIFO still runs file_accessed() and every write
 * sb_start_write_trylock() and file_update_time() (fs/pipe.c's
 * fifo_pipe_read/fifo_pipe_write around the same anon_pipe_read/write).
 * Profiled on 6.18 (perf, one process writing and reading 64 B): those
 * add 25 to 30 % to the VFS and pipe code both share, whether the FIFO
 * lives on ext4, tmpfs or a noatime tmpfs.  Where a system call's entry
 * is cheap, that is most of a message's cost.
 */
#include <ipclab/transport.h>
#include "transport.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

/* fd[RX]: the FIFO this side reads; fd[TX]: the one it writes. */
enum { RX, TX };

typedef struct {
        char *c2s;        /* path of the client -> server FIFO */
        char *s2c;        /* path of the server -> client FIFO */
        bool connected[2];   /* each role has seen its peer (by role: roles=threads
                              * shares this) */
} Fifo;

static int fifo_set_blocking(int fd)
{
        int fl = fcntl(fd, F_GETFL);

        if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
                return -errno;
        return 0;
}

static int fifo_prepare(Endpoint *ep)
{
        Fifo *f = g_new0(Fifo, 1);

        ep->priv = f;
        f->c2s = g_build_filename(ep->dir, "c2s", NULL);
        f->s2c = g_build_filename(ep->dir, "s2c", NULL);
        if (mkfifo(f->c2s, 0600) < 0)
                return endpoint_fail(ep, errno, "mkfifo %s", f->c2s);
        if (mkfifo(f->s2c, 0600) < 0)
                return endpoint_fail(ep, errno, "mkfifo %s", f->s2c);
        return 0;
}

static int fifo_open(Endpoint *ep, Role role)
{
        Fifo *f = ep->priv;

        ep->role = role;
        f->connected[ep->role] = false;
        if (role == ROLE_SERVER) {
                ep->fd[RX] = open(f->c2s, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
                if (ep->fd[RX] < 0)
                        return endpoint_fail(ep, errno, "open %s for reading", f->c2s);
                return 0;
        }
        ep->fd[RX] = open(f->s2c, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (ep->fd[RX] < 0)
                return endpoint_fail(ep, errno, "open %s for reading", f->s2c);
        ep->fd[TX] = open(f->c2s, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (ep->fd[TX] < 0)
                return endpoint_fail(ep, errno, "open %s for writing (is the server there?)", f->c2s);
        int r = fifo_set_blocking(ep->fd[TX]);
        if (r < 0)
                return endpoint_fail(ep, -r, "fcntl");
        return 0;
}

/* Waits for the peer's first write (or its end), then finishes opening:
 * see the comment at the top. */
static int fifo_connect(Endpoint *ep)
{
        Fifo *f = ep->priv;
        struct pollfd pfd = { .fd = ep->fd[RX], .events = POLLIN };
        int r;

        if (f->connected[ep->role])
                return 0;
        while ((r = poll(&pfd, 1, -1)) < 0 && errno == EINTR)
                ;
        if (r < 0)
                return endpoint_fail(ep, errno, "poll on the FIFO");
        r = fifo_set_blocking(ep->fd[RX]);
        if (r < 0)
                return endpoint_fail(ep, -r, "fcntl");
        if (ep->role == ROLE_SERVER) {
                ep->fd[TX] = open(f->s2c, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
                if (ep->fd[TX] < 0)
                        return endpoint_fail(ep, errno, "open %s for writing", f->s2c);
                r = fifo_set_blocking(ep->fd[TX]);
                if (r < 0)
                        return endpoint_fail(ep, -r, "fcntl");
        }
        f->connected[ep->role] = true;
        return 0;
}

static int fifo_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        /* The client's write end is open from open() on; the server's
         * comes with its peer (it always receives before it answers). */
        int r = ep->role == ROLE_SERVER ? fifo_connect(ep) : 0;

        (void) flags;
        if (r < 0)
                return r;
        r = io_write_all(ep->fd[TX], data, len);
        return r < 0 ? endpoint_fail(ep, -r, "write to the FIFO") : 0;
}

static int fifo_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        char *buf;
        int r = fifo_connect(ep);

        if (r < 0)
                return r;
        buf = endpoint_buffer(ep, expect + 1);
        if (!buf)
                return endpoint_fail(ep, ENOMEM, "receive buffer of %zu bytes", expect + 1);
        r = io_read_exact(ep->fd[RX], buf, expect);
        if (r < 0)
                return endpoint_fail(ep, -r, "read from the FIFO");
        if (r == 0)
                return 0;
        buf[expect] = '\0';
        *data = buf;
        *len = expect;
        return 1;
}

static int fifo_send_end(Endpoint *ep)
{
        io_close(&ep->fd[TX]);
        return 0;
}

static void fifo_close(Endpoint *ep)
{
        io_close(&ep->fd[RX]);
        io_close(&ep->fd[TX]);
}

static void fifo_cleanup(Endpoint *ep)
{
        Fifo *f = ep->priv;

        fifo_close(ep);
        if (!f)
                return;
        if (f->c2s)
                unlink(f->c2s);
        if (f->s2c)
                unlink(f->s2c);
        g_free(f->c2s);
        g_free(f->s2c);
        g_clear_pointer(&ep->priv, g_free);
}

const Transport transport_fifo = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "fifo",
        .family = "kernel",
        .summary = "two named FIFOs (mkfifo) in a private 0700 directory, one per direction",
        .flags = TRANSPORT_THREADS,
        .prepare = fifo_prepare,
        .open = fifo_open,
        .send = fifo_send,
        .recv = fifo_recv,
        .send_end = fifo_send_end,
        .close = fifo_close,
        .cleanup = fifo_cleanup,
};
