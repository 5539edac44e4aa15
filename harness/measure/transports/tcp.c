/* tcp.c: one TCP connection over the loopback interface.
 *
 * prepare() binds a listening socket to 127.0.0.1 on a port the kernel
 * chooses (port 0) and keeps it, so the port is known before either child
 * exists.  The server child keeps the listener and accepts at its first
 * recv(); the client child closes its copy and connects.  Both ends set
 * TCP_NODELAY: every message leaves at once, as a request/response protocol
 * would configure it.  The receiver reads exactly the expected size; the
 * end of the stream is shutdown(SHUT_WR).  Only loopback is ever used.
 */
#include <ipclab/transport.h>
#include "transport.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* fd[CONN]: the connection; fd[LISTEN]: the listening socket. */
enum { CONN, LISTEN };

typedef struct {
        struct sockaddr_in addr;   /* where the listener is */
} Tcp;

static int tcp_nodelay(Endpoint *ep, int fd)
{
        int one = 1;

        if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) < 0)
                return endpoint_fail(ep, errno, "TCP_NODELAY");
        return 0;
}

/* Binds and listens on 127.0.0.1, port chosen by the kernel. */
static int tcp_listen(struct sockaddr_in *addr)
{
        socklen_t sl = sizeof *addr;
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

        if (fd < 0)
                return -errno;
        memset(addr, 0, sizeof *addr);
        addr->sin_family = AF_INET;
        addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr->sin_port = 0;
        if (bind(fd, (struct sockaddr *) addr, sizeof *addr) < 0 || listen(fd, 1) < 0 ||
            getsockname(fd, (struct sockaddr *) addr, &sl) < 0) {
                int err = errno;
                close(fd);
                return -err;
        }
        return fd;
}

static const char *tcp_unavailable(void)
{
        static bool probed;
        static char why[128];
        struct sockaddr_in addr;

        if (!probed) {
                int fd = tcp_listen(&addr);
                if (fd < 0)
                        snprintf(why, sizeof why, "cannot listen on 127.0.0.1: %s", g_strerror(-fd));
                else
                        close(fd);
                probed = true;
        }
        return why[0] ? why : NULL;
}

static int tcp_prepare(Endpoint *ep)
{
        Tcp *t = g_new0(Tcp, 1);
        int fd;

        ep->priv = t;
        fd = tcp_listen(&t->addr);
        if (fd < 0)
                return endpoint_fail(ep, -fd, "listen on 127.0.0.1");
        ep->fd[LISTEN] = fd;
        return 0;
}

static int tcp_open(Endpoint *ep, Role role)
{
        Tcp *t = ep->priv;
        int fd;

        ep->role = role;
        if (role == ROLE_SERVER)
                return 0;   /* accepts at the first recv() */
        io_close(&ep->fd[LISTEN]);
        fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0)
                return endpoint_fail(ep, errno, "socket(AF_INET)");
        ep->fd[CONN] = fd;
        int r = tcp_nodelay(ep, fd);
        if (r < 0)
                return r;
        if (connect(fd, (struct sockaddr *) &t->addr, sizeof t->addr) < 0)
                return endpoint_fail(ep, errno, "connect to 127.0.0.1:%u", ntohs(t->addr.sin_port));
        return 0;
}

static int tcp_accept(Endpoint *ep)
{
        if (ep->role != ROLE_SERVER || ep->fd[CONN] >= 0)
                return 0;
        for (;;) {
                ep->fd[CONN] = accept4(ep->fd[LISTEN], NULL, NULL, SOCK_CLOEXEC);
                if (ep->fd[CONN] >= 0)
                        break;
                if (errno != EINTR)
                        return endpoint_fail(ep, errno, "accept");
        }
        io_close(&ep->fd[LISTEN]);
        return tcp_nodelay(ep, ep->fd[CONN]);
}

static int tcp_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        int r = tcp_accept(ep);

        (void) flags;
        if (r < 0)
                return r;
        r = io_write_all(ep->fd[CONN], data, len);
        return r < 0 ? endpoint_fail(ep, -r, "write to the TCP connection") : 0;
}

static int tcp_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        char *buf;
        int r = tcp_accept(ep);

        if (r < 0)
                return r;
        buf = endpoint_buffer(ep, expect + 1);
        if (!buf)
                return endpoint_fail(ep, ENOMEM, "receive buffer of %zu bytes", expect + 1);
        r = io_read_exact(ep->fd[CONN], buf, expect);
        if (r < 0)
                return endpoint_fail(ep, -r, "read from the TCP connection");
        if (r == 0)
                return 0;
        buf[expect] = '\0';
        *data = buf;
        *len = expect;
        return 1;
}

static int tcp_send_end(Endpoint *ep)
{
        if (shutdown(ep->fd[CONN], SHUT_WR) < 0)
                return endpoint_fail(ep, errno, "shutdown");
        return 0;
}

static void tcp_close(Endpoint *ep)
{
        io_close(&ep->fd[CONN]);
        io_close(&ep->fd[LISTEN]);
}

static void tcp_cleanup(Endpoint *ep)
{
        tcp_close(ep);
        g_clear_pointer(&ep->priv, g_free);
}

const Transport transport_tcp = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "tcp",
        .family = "kernel",
        .summary = "one TCP connection over loopback (127.0.0.1), TCP_NODELAY on both ends",
        .flags = TRANSPORT_THREADS,
        .unavailable = tcp_unavailable,
        .prepare = tcp_prepare,
        .open = tcp_open,
        .send = tcp_send,
        .recv = tcp_recv,
        .send_end = tcp_send_end,
        .close = tcp_close,
        .cleanup = tcp_cleanup,
};
