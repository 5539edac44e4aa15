/* udp.c: UDP datagrams over the loopback interface.
 *
 * prepare() binds two datagram sockets to 127.0.0.1 on ports the kernel
 * chooses and connects each to the other, before either child exists; the
 * server keeps the first, the client the second.  A message is one
 * datagram; the end of the stream is a zero-length one.  Only loopback is
 * ever used.
 *
 * Loss.  UDP may drop a datagram where the receiver's buffer is full (a
 * one-way stream faster than the server reads), and the sender is not
 * told.  The policy: a lost datagram fails the repetition, it never
 * shortens it.  Each socket counts what it dropped (SO_RXQ_OVFL, handed
 * over with every datagram received): recv() fails with the count as
 * soon as it is above 0.  A lost end of the stream leaves the server
 * waiting, and the cell's time limit fails it.  To make loss rare, each
 * receive buffer is made as large as the kernel allows (SO_RCVBUFFORCE
 * where the process may, else SO_RCVBUF up to net.core.rmem_max).
 */
#include "transport.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* fd[SELF]: this role's socket; before open(), fd[PEER] holds the other's. */
enum { SELF, PEER };

#define UDP_MAX ((size_t) 65507)        /* the largest IPv4 UDP payload */
#define UDP_RCVBUF (8 << 20)            /* the receive buffer asked for */

static int udp_socket(struct sockaddr_in *addr)
{
        socklen_t sl = sizeof *addr;
        int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        int one = 1, size = UDP_RCVBUF;

        if (fd < 0)
                return -errno;
        memset(addr, 0, sizeof *addr);
        addr->sin_family = AF_INET;
        addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size) < 0)
                (void) setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
        if (setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof one) < 0 ||
            bind(fd, (struct sockaddr *) addr, sizeof *addr) < 0 ||
            getsockname(fd, (struct sockaddr *) addr, &sl) < 0) {
                int err = errno;
                close(fd);
                return -err;
        }
        return fd;
}

static const char *udp_unavailable(void)
{
        static bool probed;
        static char why[128];
        struct sockaddr_in addr;

        if (!probed) {
                int fd = udp_socket(&addr);
                if (fd < 0)
                        snprintf(why, sizeof why, "cannot bind a UDP socket to 127.0.0.1: %s", g_strerror(-fd));
                else
                        close(fd);
                probed = true;
        }
        return why[0] ? why : NULL;
}

static size_t udp_max_size(const IpclabCell *cell)
{
        (void) cell;
        return UDP_MAX;
}

static int udp_prepare(Endpoint *ep)
{
        struct sockaddr_in a[2];

        for (int i = SELF; i <= PEER; i++) {
                ep->fd[i] = udp_socket(&a[i]);
                if (ep->fd[i] < 0) {
                        int err = -ep->fd[i];
                        ep->fd[i] = -1;
                        return endpoint_fail(ep, err, "a UDP socket on 127.0.0.1");
                }
        }
        for (int i = SELF; i <= PEER; i++)
                if (connect(ep->fd[i], (struct sockaddr *) &a[!i], sizeof a[!i]) < 0)
                        return endpoint_fail(ep, errno, "connect to 127.0.0.1:%d", ntohs(a[!i].sin_port));
        return 0;
}

/* The server keeps the first socket, the client the second. */
static int udp_open(Endpoint *ep, Role role)
{
        ep->role = role;
        if (role == ROLE_SERVER) {
                io_close(&ep->fd[PEER]);
        } else {
                io_close(&ep->fd[SELF]);
                ep->fd[SELF] = ep->fd[PEER];
                ep->fd[PEER] = -1;
        }
        return 0;
}

static int udp_put(Endpoint *ep, const void *data, size_t len)
{
        ssize_t n;

        while ((n = send(ep->fd[SELF], data, len, 0)) < 0)
                if (errno != EINTR)
                        return endpoint_fail(ep, errno, "send of a %zu-byte datagram", len);
        if ((size_t) n != len)
                return endpoint_fail(ep, EPROTO, "sent %zd of a %zu-byte datagram", n, len);
        return 0;
}

static int udp_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        (void) flags;
        if (len == 0)
                return endpoint_fail(ep, EINVAL, "a zero-length datagram would read as the end of the stream");
        return udp_put(ep, data, len);
}

/* A zero-length datagram marks the end. */
static int udp_send_end(Endpoint *ep)
{
        return udp_put(ep, "", 0);
}

static int udp_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        char *buf = endpoint_buffer(ep, UDP_MAX + 1);
        union {
                char space[CMSG_SPACE(sizeof(uint32_t))];
                struct cmsghdr align;
        } control;
        struct iovec iov = { .iov_base = buf, .iov_len = UDP_MAX };
        struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
        ssize_t n;

        (void) expect;
        if (!buf)
                return endpoint_fail(ep, ENOMEM, "a receive buffer of %zu bytes", UDP_MAX + 1);
        do {
                msg.msg_control = control.space;
                msg.msg_controllen = sizeof control.space;
                n = recvmsg(ep->fd[SELF], &msg, 0);
        } while (n < 0 && errno == EINTR);
        if (n < 0)
                return endpoint_fail(ep, errno, "recvmsg");
        if (msg.msg_flags & MSG_TRUNC)
                return endpoint_fail(ep, EMSGSIZE, "a datagram longer than %zu bytes", UDP_MAX);
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
                uint32_t dropped;
                if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SO_RXQ_OVFL)
                        continue;
                memcpy(&dropped, CMSG_DATA(c), sizeof dropped);
                if (dropped)
                        return endpoint_fail(ep, EPROTO, "%u datagram%s lost (the receive buffer was full): "
                                             "a lost datagram fails the repetition", dropped,
                                             dropped == 1 ? "" : "s");
        }
        if (n == 0)
                return 0;
        buf[n] = '\0';
        *data = buf;
        *len = (size_t) n;
        return 1;
}

static void udp_close(Endpoint *ep)
{
        io_close(&ep->fd[SELF]);
        io_close(&ep->fd[PEER]);
}

const Transport transport_udp = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "udp",
        .family = "kernel",
        .summary = "UDP datagrams over loopback (127.0.0.1); a lost datagram fails the repetition",
        .flags = TRANSPORT_THREADS,
        .unavailable = udp_unavailable,
        .max_size = udp_max_size,
        .prepare = udp_prepare,
        .open = udp_open,
        .send = udp_send,
        .recv = udp_recv,
        .send_end = udp_send_end,
        .close = udp_close,
        .cleanup = udp_close,
};
