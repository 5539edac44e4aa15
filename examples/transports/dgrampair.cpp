/* dgrampair.cpp: a transport in C++, against the same C header as every
 * other: socketpair(AF_UNIX, SOCK_DGRAM), made before the fork.  ipclab's
 * unix-dgram binds two addresses in a directory; this pair has none, and
 * each datagram is one message.  A datagram socket has no end of stream
 * (shutdown() does not reach the peer), so send_end() sends an empty
 * datagram, which ipclab never sends otherwise (no
 * IPCLAB_TRANSPORT_EMPTY_OK).
 *
 * Build: c++ -std=c++17 -shared -fPIC $(pkg-config --cflags ipclab)
 * -o dgrampair.so dgrampair.cpp (a study's Makefile has the rule).
 *
 * C++ needs nothing more than C: the hooks are plain functions (no
 * exception may leave one: they are called from C), and the descriptor,
 * which C++17 cannot fill with designated initializers, is filled field
 * by field from ipclab_transport_init()'s zeroed header.
 */
#include <ipclab/transport.h>

#include <cerrno>
#include <sys/socket.h>

namespace {

constexpr size_t kMaxDatagram = 65536;

int fd_of(const IpclabEndpoint *ep)
{
        return ep->fd[ep->role == IPCLAB_ROLE_SERVER ? 0 : 1];
}

int dp_prepare(IpclabEndpoint *ep)
{
        if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, ep->fd) < 0)
                return ipclab_endpoint_fail(ep, errno, "socketpair");
        return 0;
}

int dp_open(IpclabEndpoint *ep, IpclabRole role)
{
        ep->role = role;
        ipclab_close_fd(&ep->fd[role == IPCLAB_ROLE_SERVER ? 1 : 0]);
        return 0;
}

int dp_send(IpclabEndpoint *ep, const void *data, size_t len, unsigned flags)
{
        static_cast<void>(flags);
        ssize_t n = send(fd_of(ep), data, len, MSG_NOSIGNAL);
        return n != static_cast<ssize_t>(len) ? ipclab_endpoint_fail(ep, errno, "send") : 0;
}

int dp_recv(IpclabEndpoint *ep, const void **data, size_t *len, size_t expect)
{
        size_t room = expect > IPCLAB_TRANSPORT_ACK_MAX ? expect : IPCLAB_TRANSPORT_ACK_MAX;
        char *buf = static_cast<char *>(ipclab_endpoint_buffer(ep, room + 1));
        ssize_t n = buf ? recv(fd_of(ep), buf, room, 0) : -1;
        if (n < 0)
                return ipclab_endpoint_fail(ep, buf ? errno : ENOMEM, "recv");
        buf[n] = '\0';
        *data = buf;
        *len = static_cast<size_t>(n);
        return n > 0;   /* 0: the empty datagram of send_end() */
}

int dp_send_end(IpclabEndpoint *ep)
{
        return send(fd_of(ep), "", 0, MSG_NOSIGNAL) < 0 ? -errno : 0;
}

void dp_close(IpclabEndpoint *ep)
{
        ipclab_close_fd(&ep->fd[0]);
        ipclab_close_fd(&ep->fd[1]);
}

size_t dp_max_size(const IpclabCell *cell)
{
        static_cast<void>(cell);
        return kMaxDatagram;
}

IpclabTransport descriptor()
{
        IpclabTransport t;
        ipclab_transport_init(&t);
        t.name = "dgrampair";
        t.family = "kernel";
        t.version = "1.0";
        t.summary = "socketpair(AF_UNIX, SOCK_DGRAM), made before the fork (a C++ plugin)";
        t.max_size = dp_max_size;
        t.prepare = dp_prepare;
        t.open = dp_open;
        t.send = dp_send;
        t.recv = dp_recv;
        t.send_end = dp_send_end;
        t.close = dp_close;
        t.cleanup = dp_close;
        return t;
}

} // namespace

IPCLAB_TRANSPORT_EXPORT const IpclabTransport ipclab_transport_v1 = descriptor();
