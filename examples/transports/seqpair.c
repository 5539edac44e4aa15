/* seqpair.c: a whole transport: socketpair(AF_UNIX, SOCK_SEQPACKET). */
#include <ipclab/transport.h>
#include <sys/socket.h>

static int sp_prepare(IpclabEndpoint *ep)   /* before the fork: both ends */
{
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ep->fd) < 0)
                return ipclab_endpoint_fail(ep, errno, "socketpair");
        return 0;
}

static int sp_open(IpclabEndpoint *ep, IpclabRole role)   /* the server keeps fd[0] */
{
        ep->role = role;
        ipclab_close_fd(&ep->fd[role == IPCLAB_ROLE_SERVER ? 1 : 0]);
        return 0;
}

static int sp_send(IpclabEndpoint *ep, const void *data, size_t len, unsigned flags)
{
        (void) flags;   /* IPCLAB_SEND_NO_REPLY: nothing to do differently */
        ssize_t n = send(ep->fd[ep->role], data, len, MSG_NOSIGNAL);
        return n != (ssize_t) len ? ipclab_endpoint_fail(ep, errno, "send") : 0;
}

static int sp_recv(IpclabEndpoint *ep, const void **data, size_t *len, size_t expect)
{
        size_t room = expect > IPCLAB_TRANSPORT_ACK_MAX ? expect : IPCLAB_TRANSPORT_ACK_MAX;
        char *buf = ipclab_endpoint_buffer(ep, room + 1);
        ssize_t n = buf ? recv(ep->fd[ep->role], buf, room, 0) : -1;
        if (n < 0)
                return ipclab_endpoint_fail(ep, buf ? errno : ENOMEM, "recv");
        buf[n] = '\0';
        *data = buf;
        *len = (size_t) n;
        return n > 0;   /* 0: the peer shut down (ipclab never sends 0 bytes here) */
}

static int sp_send_end(IpclabEndpoint *ep) { return shutdown(ep->fd[ep->role], SHUT_WR) < 0 ? -errno : 0; }
static void sp_close(IpclabEndpoint *ep) { ipclab_close_fd(&ep->fd[0]); ipclab_close_fd(&ep->fd[1]); }
static size_t sp_max_size(const IpclabCell *cell) { (void) cell; return 65536; }

IPCLAB_TRANSPORT_EXPORT const IpclabTransport ipclab_transport_v1 = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "seqpair", .family = "kernel", .version = "1.0",
        .summary = "socketpair(AF_UNIX, SOCK_SEQPACKET), made before the fork",
        .max_size = sp_max_size, .prepare = sp_prepare, .open = sp_open, .send = sp_send,
        .recv = sp_recv, .send_end = sp_send_end, .close = sp_close, .cleanup = sp_close,
};
