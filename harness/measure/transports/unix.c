/* unix.c: AF_UNIX sockets in their four shapes.
 *
 * unix-stream     SOCK_STREAM through a listening socket DIR/stream.sock:
 *                 the server listens in open() (before it reports ready),
 *                 the client connects in open(), the server accepts at its
 *                 first recv().  End of stream: shutdown(SHUT_WR).
 * unix-seqpacket  the same with SOCK_SEQPACKET (DIR/seqpacket.sock):
 *                 connected, reliable, message boundaries kept.
 * unix-dgram      SOCK_DGRAM between two bound addresses, DIR/dgram-s
 *                 (server) and DIR/dgram-c (client); the client connects
 *                 to the server in open(), the server connects back when
 *                 the first request arrives.  End of stream: a zero-length
 *                 datagram.
 * socketpair      socketpair(AF_UNIX, SOCK_STREAM) made in prepare(); each
 *                 child keeps one end.  End of stream: shutdown(SHUT_WR).
 *
 * Stream receivers read exactly the size the runner expects; datagram and
 * seqpacket receivers take one message per recv() and report one of the
 * wrong size as an error instead of truncating it.
 *
 * Message size.  A unix datagram (seqpacket uses the same kernel path) must
 * fit the sender's send buffer (SO_SNDBUF, default net.core.wmem_default)
 * and the kernel's largest socket buffer allocation (about 4 MiB on Linux
 * 6.x: a linear part from kmalloc plus MAX_SKB_FRAGS pages).  open() raises
 * SO_SNDBUF only when the cell's messages do not fit the default, with
 * SO_SNDBUFFORCE when the process has CAP_NET_ADMIN (root) and SO_SNDBUF
 * (capped at net.core.wmem_max) otherwise.  max_size() reports the largest
 * power of two that a probe could actually send on this system, once.
 */
#include <ipclab/transport.h>
#include "transport.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* fd[CONN]: the socket that carries the messages.  fd[AUX]: the server's
 * listening socket until it accepts; for socketpair, between prepare() and
 * open(), the client's end (fd[CONN] holds the server's). */
enum { CONN, AUX };

/* Messages shorter than this still go through: the runner's ack is ~70 B. */
#define UNIX_MIN_MESSAGE 256
/* Send buffer room beyond one message: the kernel's per-skb overhead. */
#define UNIX_SNDBUF_SLACK 4096
/* Largest size max_size() probes for, and the smallest it reports. */
#define UNIX_PROBE_TOP ((size_t) 16 << 20)
#define UNIX_PROBE_BOTTOM ((size_t) 64 << 10)

typedef struct {
        int type;            /* SOCK_STREAM, SOCK_DGRAM or SOCK_SEQPACKET */
        char *path;          /* listening socket, or the server's dgram address */
        char *client_path;   /* unix-dgram: the client's address */
        bool connected[2];   /* server: accepted (stream, seqpacket) or connected back
                              * (dgram); by role, as roles=threads shares this */
} Unix;

/* ---- helpers ---- */

static int unix_address(Endpoint *ep, const char *path, struct sockaddr_un *sa, socklen_t *len)
{
        size_t n = strlen(path);

        memset(sa, 0, sizeof *sa);
        sa->sun_family = AF_UNIX;
        *len = 0;
        if (n >= sizeof sa->sun_path)
                return endpoint_fail(ep, ENAMETOOLONG, "socket path %s", path);
        memcpy(sa->sun_path, path, n + 1);
        *len = (socklen_t) (offsetof(struct sockaddr_un, sun_path) + n + 1);
        return 0;
}

/* The largest message this cell sends in either direction. */
static size_t unix_message_size(const IpclabCell *cell)
{
        return MAX((size_t) cell->size, (size_t) UNIX_MIN_MESSAGE);
}

/* Makes FD's send buffer hold one datagram of LEN bytes.  Returns 0 or
 * -errno (-EMSGSIZE when the system does not allow a buffer that large). */
static int unix_fit_sndbuf(int fd, size_t len)
{
        int cur = 0;
        socklen_t sl = sizeof cur;

        if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &cur, &sl) < 0)
                return -errno;
        if (cur > 0 && (size_t) cur >= len + UNIX_SNDBUF_SLACK)
                return 0;
        if (len > (size_t) INT_MAX / 4)
                return -EMSGSIZE;
        /* The kernel doubles the value it is given, so this leaves room
         * for about two messages in flight. */
        int want = (int) (len + UNIX_SNDBUF_SLACK);
        if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &want, sizeof want) < 0 &&
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &want, sizeof want) < 0)
                return -errno;
        sl = sizeof cur;
        if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &cur, &sl) < 0)
                return -errno;
        return (size_t) cur >= len + UNIX_SNDBUF_SLACK ? 0 : -EMSGSIZE;
}

static int unix_socket(Endpoint *ep, int type)
{
        int fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);

        if (fd < 0)
                return endpoint_fail(ep, errno, "socket(AF_UNIX)");
        if (type != SOCK_STREAM) {
                int r = unix_fit_sndbuf(fd, unix_message_size(ep->cell));
                if (r < 0) {
                        close(fd);
                        return endpoint_fail(ep, -r, "send buffer for %zu-byte messages",
                                             unix_message_size(ep->cell));
                }
        }
        return fd;
}

/* Can a datagram of LEN bytes be sent on a fresh socket pair of TYPE? */
static bool unix_probe(int type, size_t len)
{
        int sv[2];
        bool ok = false;
        void *buf;

        if (socketpair(AF_UNIX, type | SOCK_CLOEXEC, 0, sv) < 0)
                return false;
        buf = g_try_malloc0(len);
        if (buf && unix_fit_sndbuf(sv[0], len) == 0)
                ok = send(sv[0], buf, len, MSG_DONTWAIT | MSG_NOSIGNAL) == (ssize_t) len;
        g_free(buf);
        close(sv[0]);
        close(sv[1]);
        return ok;
}

static size_t unix_probe_max(int type)
{
        size_t len;

        for (len = UNIX_PROBE_TOP; len > UNIX_PROBE_BOTTOM; len /= 2)
                if (unix_probe(type, len))
                        break;
        return len;
}

static size_t unix_dgram_max_size(const IpclabCell *cell)
{
        static size_t max;

        (void) cell;
        if (!max)
                max = unix_probe_max(SOCK_DGRAM);
        return max;
}

static size_t unix_seqpacket_max_size(const IpclabCell *cell)
{
        static size_t max;

        (void) cell;
        if (!max)
                max = unix_probe_max(SOCK_SEQPACKET);
        return max;
}

/* Server side of stream and seqpacket: accepts the client once. */
static int unix_accept(Endpoint *ep)
{
        Unix *u = ep->priv;

        if (ep->role != ROLE_SERVER || (u && u->connected[ep->role]) || ep->fd[CONN] >= 0)
                return 0;
        for (;;) {
                ep->fd[CONN] = accept4(ep->fd[AUX], NULL, NULL, SOCK_CLOEXEC);
                if (ep->fd[CONN] >= 0)
                        break;
                if (errno != EINTR)
                        return endpoint_fail(ep, errno, "accept");
        }
        io_close(&ep->fd[AUX]);
        if (u)
                u->connected[ep->role] = true;
        if (u && u->type != SOCK_STREAM) {
                /* An accepted socket starts from the defaults, not from
                 * the listener's options. */
                int r = unix_fit_sndbuf(ep->fd[CONN], unix_message_size(ep->cell));
                if (r < 0)
                        return endpoint_fail(ep, -r, "send buffer for %zu-byte messages",
                                             unix_message_size(ep->cell));
        }
        return 0;
}

static int stream_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        int r = unix_accept(ep);

        (void) flags;
        if (r < 0)
                return r;
        r = io_write_all(ep->fd[CONN], data, len);
        return r < 0 ? endpoint_fail(ep, -r, "write to the socket") : 0;
}

static int stream_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        char *buf;
        int r = unix_accept(ep);

        if (r < 0)
                return r;
        buf = endpoint_buffer(ep, expect + 1);
        if (!buf)
                return endpoint_fail(ep, ENOMEM, "receive buffer of %zu bytes", expect + 1);
        r = io_read_exact(ep->fd[CONN], buf, expect);
        if (r < 0)
                return endpoint_fail(ep, -r, "read from the socket");
        if (r == 0)
                return 0;
        buf[expect] = '\0';
        *data = buf;
        *len = expect;
        return 1;
}

static int stream_send_end(Endpoint *ep)
{
        if (shutdown(ep->fd[CONN], SHUT_WR) < 0)
                return endpoint_fail(ep, errno, "shutdown");
        return 0;
}

/* One whole message per send(): datagram and seqpacket sockets never
 * send part of one. */
static int message_send(Endpoint *ep, const void *data, size_t len)
{
        ssize_t n;

        while ((n = send(ep->fd[CONN], data, len, MSG_NOSIGNAL)) < 0 && errno == EINTR)
                ;
        if (n < 0)
                return endpoint_fail(ep, errno, "send of a %zu-byte message", len);
        if ((size_t) n != len)
                return endpoint_fail(ep, EMSGSIZE, "sent %zd of %zu bytes", n, len);
        return 0;
}

/* Receives one message; 0 for a zero-length one (the end marker) or the
 * end of a connection. */
static int message_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        size_t room = MAX(expect, (size_t) UNIX_MIN_MESSAGE);
        char *buf = endpoint_buffer(ep, room + 1);
        ssize_t n;

        if (!buf)
                return endpoint_fail(ep, ENOMEM, "receive buffer of %zu bytes", room + 1);
        while ((n = recv(ep->fd[CONN], buf, room, MSG_TRUNC)) < 0 && errno == EINTR)
                ;
        if (n < 0)
                return endpoint_fail(ep, errno, "recv");
        if (n == 0)
                return 0;
        if ((size_t) n > room)
                return endpoint_fail(ep, EMSGSIZE, "a %zd-byte message arrived, %zu expected", n, expect);
        buf[n] = '\0';
        *data = buf;
        *len = (size_t) n;
        return 1;
}

static void unix_close(Endpoint *ep)
{
        io_close(&ep->fd[CONN]);
        io_close(&ep->fd[AUX]);
}

static void unix_cleanup(Endpoint *ep)
{
        Unix *u = ep->priv;

        unix_close(ep);
        if (!u)
                return;
        if (u->path)
                unlink(u->path);
        if (u->client_path)
                unlink(u->client_path);
        g_free(u->path);
        g_free(u->client_path);
        g_clear_pointer(&ep->priv, g_free);
}

/* ---- unix-stream and unix-seqpacket: a listening socket in DIR ---- */

static int listen_prepare(Endpoint *ep, const char *name, int type)
{
        Unix *u = g_new0(Unix, 1);

        ep->priv = u;
        u->type = type;
        u->path = g_build_filename(ep->dir, name, NULL);
        return 0;
}

static int listen_open(Endpoint *ep, Role role)
{
        Unix *u = ep->priv;
        struct sockaddr_un sa;
        socklen_t sl;
        int fd, r;

        ep->role = role;
        u->connected[ep->role] = false;
        r = unix_address(ep, u->path, &sa, &sl);
        if (r < 0)
                return r;
        fd = unix_socket(ep, u->type);
        if (fd < 0)
                return fd;
        if (role == ROLE_SERVER) {
                ep->fd[AUX] = fd;
                if (bind(fd, (struct sockaddr *) &sa, sl) < 0)
                        return endpoint_fail(ep, errno, "bind %s", u->path);
                if (listen(fd, 1) < 0)
                        return endpoint_fail(ep, errno, "listen");
                return 0;
        }
        ep->fd[CONN] = fd;
        if (connect(fd, (struct sockaddr *) &sa, sl) < 0)
                return endpoint_fail(ep, errno, "connect to %s", u->path);
        return 0;
}

static int unix_stream_prepare(Endpoint *ep)
{
        return listen_prepare(ep, "stream.sock", SOCK_STREAM);
}

const Transport transport_unix_stream = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "unix-stream",
        .family = "kernel",
        .summary = "AF_UNIX SOCK_STREAM through a listening socket in a private directory",
        .flags = TRANSPORT_THREADS,
        .prepare = unix_stream_prepare,
        .open = listen_open,
        .send = stream_send,
        .recv = stream_recv,
        .send_end = stream_send_end,
        .close = unix_close,
        .cleanup = unix_cleanup,
};

static int unix_seqpacket_prepare(Endpoint *ep)
{
        return listen_prepare(ep, "seqpacket.sock", SOCK_SEQPACKET);
}

static int seqpacket_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        int r = unix_accept(ep);

        (void) flags;
        if (r < 0)
                return r;
        if (len == 0)
                return endpoint_fail(ep, EINVAL, "a zero-length message would read as the end of the stream");
        return message_send(ep, data, len);
}

static int seqpacket_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        int r = unix_accept(ep);

        if (r < 0)
                return r;
        return message_recv(ep, data, len, expect);
}

const Transport transport_unix_seqpacket = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "unix-seqpacket",
        .family = "kernel",
        .summary = "AF_UNIX SOCK_SEQPACKET: connected, reliable, message boundaries kept",
        .flags = TRANSPORT_THREADS,
        .max_size = unix_seqpacket_max_size,
        .prepare = unix_seqpacket_prepare,
        .open = listen_open,
        .send = seqpacket_send,
        .recv = seqpacket_recv,
        .send_end = stream_send_end,
        .close = unix_close,
        .cleanup = unix_cleanup,
};

/* ---- unix-dgram: two bound addresses in DIR ---- */

static int unix_dgram_prepare(Endpoint *ep)
{
        Unix *u = g_new0(Unix, 1);

        ep->priv = u;
        u->type = SOCK_DGRAM;
        u->path = g_build_filename(ep->dir, "dgram-s", NULL);
        u->client_path = g_build_filename(ep->dir, "dgram-c", NULL);
        return 0;
}

static int unix_dgram_open(Endpoint *ep, Role role)
{
        Unix *u = ep->priv;
        struct sockaddr_un own, peer;
        socklen_t own_len, peer_len;
        const char *own_path = role == ROLE_SERVER ? u->path : u->client_path;
        int r;

        ep->role = role;
        u->connected[ep->role] = false;
        r = unix_address(ep, own_path, &own, &own_len);
        if (r < 0)
                return r;
        r = unix_address(ep, u->path, &peer, &peer_len);
        if (r < 0)
                return r;
        ep->fd[CONN] = unix_socket(ep, SOCK_DGRAM);
        if (ep->fd[CONN] < 0)
                return ep->fd[CONN];
        if (bind(ep->fd[CONN], (struct sockaddr *) &own, own_len) < 0)
                return endpoint_fail(ep, errno, "bind %s", own_path);
        if (role == ROLE_CLIENT &&
            connect(ep->fd[CONN], (struct sockaddr *) &peer, peer_len) < 0)
                return endpoint_fail(ep, errno, "connect to %s", u->path);
        return 0;
}

/* The server connects back to the client's address when the first request
 * arrives (the client is bound by then), so that both sockets are each
 * other's peer whatever the pattern: the kernel then bounds the datagrams in
 * flight by the sender's SO_SNDBUF, not by net.unix.max_dgram_qlen. */
static int unix_dgram_connect_back(Endpoint *ep)
{
        Unix *u = ep->priv;
        struct sockaddr_un sa;
        socklen_t sl;
        int r;

        if (ep->role != ROLE_SERVER || u->connected[ep->role])
                return 0;
        r = unix_address(ep, u->client_path, &sa, &sl);
        if (r < 0)
                return r;
        if (connect(ep->fd[CONN], (struct sockaddr *) &sa, sl) < 0)
                return endpoint_fail(ep, errno, "connect to %s", u->client_path);
        u->connected[ep->role] = true;
        return 0;
}

static int unix_dgram_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        int r = unix_dgram_connect_back(ep);

        (void) flags;
        if (r < 0)
                return r;
        if (len == 0)
                return endpoint_fail(ep, EINVAL, "a zero-length datagram would read as the end of the stream");
        return message_send(ep, data, len);
}

static int unix_dgram_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        int r = message_recv(ep, data, len, expect);

        if (r > 0) {
                int c = unix_dgram_connect_back(ep);
                if (c < 0)
                        return c;
        }
        return r;
}

/* A zero-length datagram marks the end. */
static int unix_dgram_send_end(Endpoint *ep)
{
        return message_send(ep, "", 0);
}

const Transport transport_unix_dgram = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "unix-dgram",
        .family = "kernel",
        .summary = "AF_UNIX SOCK_DGRAM between two bound addresses in a private directory",
        .flags = TRANSPORT_THREADS,
        .max_size = unix_dgram_max_size,
        .prepare = unix_dgram_prepare,
        .open = unix_dgram_open,
        .send = unix_dgram_send,
        .recv = unix_dgram_recv,
        .send_end = unix_dgram_send_end,
        .close = unix_close,
        .cleanup = unix_cleanup,
};

/* ---- socketpair: made in prepare(), inherited by both children ---- */

static int socketpair_prepare(Endpoint *ep)
{
        int sv[2];

        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
                return endpoint_fail(ep, errno, "socketpair");
        ep->fd[CONN] = sv[0];   /* the server's end */
        ep->fd[AUX] = sv[1];    /* the client's end */
        return 0;
}

static int socketpair_open(Endpoint *ep, Role role)
{
        ep->role = role;
        if (role == ROLE_SERVER) {
                io_close(&ep->fd[AUX]);
        } else {
                io_close(&ep->fd[CONN]);
                ep->fd[CONN] = ep->fd[AUX];
                ep->fd[AUX] = -1;
        }
        return 0;
}

const Transport transport_socketpair = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "socketpair",
        .family = "kernel",
        .summary = "socketpair(AF_UNIX, SOCK_STREAM) made before fork, one end per process",
        .flags = TRANSPORT_THREADS,
        .prepare = socketpair_prepare,
        .open = socketpair_open,
        .send = stream_send,
        .recv = stream_recv,
        .send_end = stream_send_end,
        .close = unix_close,
        .cleanup = unix_cleanup,
};
