/* zeromq.c: ZeroMQ (libzmq) as an ipclab transport: a pair of ZMQ_PAIR
 * sockets over ipc:// (a Unix socket in the repetition's private
 * directory), the server bound, the client connected.  Every message is
 * one zmq_send(), received with zmq_recv() into a buffer made once; the
 * path goes through libzmq's I/O thread on each side, which is what
 * ZeroMQ costs beside a plain socket and beside D-Bus.  ZeroMQ has no end
 * of stream: the client's send_end() sends an empty message, which
 * ipclab never sends otherwise (no IPCLAB_TRANSPORT_EMPTY_OK).
 *
 * Build: cc -shared -fPIC $(pkg-config --cflags ipclab libzmq) -o zeromq.so
 * zeromq.c $(pkg-config --libs libzmq) (Debian: libzmq3-dev).
 */
#include <ipclab/transport.h>

#include <zmq.h>

typedef struct {
        void *ctx;
        void *sock;
} Zmq;

static const char *zeromq_unavailable(void)
{
        return zmq_has("ipc") ? NULL : "this libzmq has no ipc:// transport";
}

static const char *zeromq_libraries(void)
{
        static char text[64];
        int major, minor, patch;

        zmq_version(&major, &minor, &patch);
        snprintf(text, sizeof text, "libzmq %d.%d.%d", major, minor, patch);
        return text;
}

/* Fails EP with WHAT and ZeroMQ's reason. */
static int zeromq_fail(IpclabEndpoint *ep, const char *what)
{
        int err = zmq_errno();

        ipclab_endpoint_fail(ep, 0, "%s: %s", what, zmq_strerror(err));
        return -(err > 0 ? err : EIO);
}

/* In each side's process (libzmq starts threads: never before the fork). */
static int zeromq_open(IpclabEndpoint *ep, IpclabRole role)
{
        char endpoint[300];
        Zmq *z = calloc(1, sizeof *z);
        int linger = 1000;   /* close() waits at most 1 s for the ack to leave */

        ep->role = role;
        if (!z)
                return ipclab_endpoint_fail(ep, ENOMEM, "zeromq state");
        ep->priv = z;
        snprintf(endpoint, sizeof endpoint, "ipc://%s/zmq", ep->dir);
        z->ctx = zmq_ctx_new();
        z->sock = z->ctx ? zmq_socket(z->ctx, ZMQ_PAIR) : NULL;
        if (!z->sock)
                return zeromq_fail(ep, "zmq_socket");
        if (zmq_setsockopt(z->sock, ZMQ_LINGER, &linger, sizeof linger) < 0)
                return zeromq_fail(ep, "ZMQ_LINGER");
        if (role == IPCLAB_ROLE_SERVER ? zmq_bind(z->sock, endpoint) < 0 : zmq_connect(z->sock, endpoint) < 0)
                return zeromq_fail(ep, role == IPCLAB_ROLE_SERVER ? "zmq_bind" : "zmq_connect");
        return 0;
}

static int zeromq_send(IpclabEndpoint *ep, const void *data, size_t len, unsigned flags)
{
        Zmq *z = ep->priv;

        (void) flags;
        while (zmq_send(z->sock, data, len, 0) < 0)
                if (zmq_errno() != EINTR)
                        return zeromq_fail(ep, "zmq_send");
        return 0;
}

static int zeromq_recv(IpclabEndpoint *ep, const void **data, size_t *len, size_t expect)
{
        Zmq *z = ep->priv;
        size_t room = expect > IPCLAB_TRANSPORT_ACK_MAX ? expect : IPCLAB_TRANSPORT_ACK_MAX;
        char *buf = ipclab_endpoint_buffer(ep, room + 1);
        int n;

        if (!buf)
                return ipclab_endpoint_fail(ep, ENOMEM, "receive buffer");
        while ((n = zmq_recv(z->sock, buf, room, 0)) < 0)
                if (zmq_errno() != EINTR)
                        return zeromq_fail(ep, "zmq_recv");
        if (n == 0)
                return 0;   /* the client's empty message: the end of the stream */
        if ((size_t) n > room)
                return ipclab_endpoint_fail(ep, EMSGSIZE, "a message of %d bytes, %zu expected", n, expect);
        buf[n] = '\0';
        *data = buf;
        *len = (size_t) n;
        return 1;
}

static int zeromq_send_end(IpclabEndpoint *ep)
{
        return zeromq_send(ep, "", 0, 0);
}

static void zeromq_close(IpclabEndpoint *ep)
{
        Zmq *z = ep->priv;

        if (!z)
                return;
        if (z->sock)
                zmq_close(z->sock);
        if (z->ctx)
                zmq_ctx_term(z->ctx);
        free(z);
        ep->priv = NULL;
}

IPCLAB_TRANSPORT_EXPORT const IpclabTransport ipclab_transport_v1 = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "zeromq",
        .family = "library",
        .summary = "ZeroMQ ZMQ_PAIR sockets over ipc://, zmq_send/zmq_recv through libzmq's I/O threads",
        .version = "1.0",
        .unavailable = zeromq_unavailable,
        .libraries = zeromq_libraries,
        .open = zeromq_open,
        .send = zeromq_send,
        .recv = zeromq_recv,
        .send_end = zeromq_send_end,
        .close = zeromq_close,
};
