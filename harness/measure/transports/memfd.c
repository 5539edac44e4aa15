/* memfd.c: a new memfd per message, sealed and handed over with
 * SCM_RIGHTS on a Unix seqpacket socketpair.
 *
 * The way a compositor or a sandbox hands a buffer to another process:
 * send() creates a memfd, writes the message into it, seals it (no write,
 * no resize: the receiver may trust what it reads), and sends its fd with
 * the message's length in one sendmsg(); then closes its own fd.  recv()
 * takes the fd with recvmsg() (MSG_CMSG_CLOEXEC), reads the message out
 * with pread() into the endpoint's buffer and closes the fd, which frees
 * the memfd.  prepare() makes the socketpair before the fork (fd[0] the
 * server's end, fd[1] the client's); the end of the stream is the
 * client's shutdown(SHUT_WR).
 *
 * What lies in the timed window, per message: memfd_create(), the write()
 * (a copy into the memfd's pages, allocating them), the seals (fcntl),
 * sendmsg() with the fd and recvmsg() (the fd installed in the receiver),
 * the pread() (a copy out), both close()s (the memfd and its pages freed)
 * and the wake-up.  The receiver copies rather than maps: a mapping would
 * add mmap(), page faults and munmap() per message, and ipclab checks the
 * bytes either way.
 */
#include <ipclab/transport.h>
#include "transport.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#define MEMFD_SEALS (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL)

/* shm.c probes memfd_create, which sealing came with (Linux 3.17). */
static const char *memfd_unavailable(void)
{
        return transport_shm.unavailable();
}

static int memfd_prepare(Endpoint *ep)
{
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, &ep->fd[0]) < 0)
                return endpoint_fail(ep, errno, "socketpair");
        return 0;
}

static int memfd_open(Endpoint *ep, Role role)
{
        ep->role = role;
        io_close(&ep->fd[role == ROLE_SERVER ? 1 : 0]);
        return 0;
}

static int memfd_sock(const Endpoint *ep)
{
        return ep->fd[ep->role == ROLE_SERVER ? 0 : 1];
}

static int memfd_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        uint64_t n = len;
        struct iovec iov = { &n, sizeof n };
        union {
                char buf[CMSG_SPACE(sizeof(int))];
                struct cmsghdr align;
        } ctl;
        struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
                              .msg_controllen = sizeof ctl.buf };
        int fd, r;

        (void) flags;
        memset(&ctl, 0, sizeof ctl);
        fd = memfd_create("ipclab-msg", MFD_CLOEXEC | MFD_ALLOW_SEALING);
        if (fd < 0)
                return endpoint_fail(ep, errno, "memfd_create");
        if ((r = io_write_all(fd, data, len)) < 0) {
                close(fd);
                return endpoint_fail(ep, -r, "write of %zu bytes into the memfd", len);
        }
        if (fcntl(fd, F_ADD_SEALS, MEMFD_SEALS) < 0) {
                int err = errno;
                close(fd);
                return endpoint_fail(ep, err, "sealing the memfd");
        }
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof fd);
        ssize_t sent;
        while ((sent = sendmsg(memfd_sock(ep), &msg, MSG_NOSIGNAL)) < 0 && errno == EINTR)
                ;
        int err = errno;
        close(fd);
        if (sent < 0)
                return endpoint_fail(ep, err, "sendmsg of the memfd");
        if (sent != (ssize_t) sizeof n)
                return endpoint_fail(ep, EPROTO, "sendmsg sent %zd bytes of %zu", sent, sizeof n);
        return 0;
}

static int memfd_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        uint64_t n = 0;
        struct iovec iov = { &n, sizeof n };
        union {
                char buf[CMSG_SPACE(sizeof(int))];
                struct cmsghdr align;
        } ctl;
        struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
                              .msg_controllen = sizeof ctl.buf };
        ssize_t got;
        int fd = -1;

        (void) expect;
        while ((got = recvmsg(memfd_sock(ep), &msg, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
                ;
        if (got < 0)
                return endpoint_fail(ep, errno, "recvmsg");
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
                if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int)))
                        memcpy(&fd, CMSG_DATA(c), sizeof fd);
        if (got == 0 && fd < 0)
                return 0;
        if (fd < 0 || got != (ssize_t) sizeof n || (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
                io_close(&fd);
                return endpoint_fail(ep, EPROTO, "a message without its memfd or length (%zd bytes)", got);
        }
        char *buf = endpoint_buffer(ep, (size_t) n + 1);
        if (!buf) {
                close(fd);
                return endpoint_fail(ep, ENOMEM, "a receive buffer of %" G_GUINT64_FORMAT " bytes", (guint64) n + 1);
        }
        size_t done = 0;
        while (done < n) {
                ssize_t r = pread(fd, buf + done, (size_t) n - done, (off_t) done);
                if (r < 0 && errno == EINTR)
                        continue;
                if (r <= 0) {
                        int err = r < 0 ? errno : EPROTO;
                        close(fd);
                        return endpoint_fail(ep, err, "pread of the memfd (%zu of %" G_GUINT64_FORMAT " bytes)",
                                             done, (guint64) n);
                }
                done += (size_t) r;
        }
        close(fd);
        buf[n] = '\0';
        *data = buf;
        *len = (size_t) n;
        return 1;
}

static int memfd_send_end(Endpoint *ep)
{
        if (shutdown(memfd_sock(ep), SHUT_WR) < 0)
                return endpoint_fail(ep, errno, "shutdown");
        return 0;
}

static void memfd_close(Endpoint *ep)
{
        io_close(&ep->fd[0]);
        io_close(&ep->fd[1]);
}

const Transport transport_memfd = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "memfd",
        .family = "kernel",
        .summary = "a sealed memfd per message, its fd handed over with SCM_RIGHTS on a seqpacket socketpair",
        .flags = TRANSPORT_THREADS,
        .unavailable = memfd_unavailable,
        .prepare = memfd_prepare,
        .open = memfd_open,
        .send = memfd_send,
        .recv = memfd_recv,
        .send_end = memfd_send_end,
        .close = memfd_close,
        .cleanup = memfd_close,
};
