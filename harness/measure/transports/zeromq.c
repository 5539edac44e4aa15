/* zeromq.c: ZeroMQ (libzmq) sockets over ipc://, as an application uses
 * them.
 *
 * Endpoints: Unix sockets that libzmq makes in the repetition's private
 * directory (ipc://DIR/req, ipc://DIR/back), the server bound in its
 * open(), the client connected in its own; each side's context and
 * sockets are made in its open(), in its own process or thread (libzmq
 * starts its I/O thread there, never before a fork).
 *
 * Round trips (roundtrip, callrate): one ZMQ_REQ socket on the client and
 * one ZMQ_REP on the server, every request answered, which REQ/REP
 * enforces.  One-way: ZMQ_PUSH from the client to a ZMQ_PULL on the
 * server, and a second pair the other way (PUSH on the server, PULL on the
 * client) for what the server sends back: the answers to the runner's
 * warm-up round trips and the ack.  Every message is one zmq_send() (which
 * copies the payload into a libzmq message) and one zmq_recv() into a
 * buffer made once; the path goes through libzmq's I/O thread on each
 * side, which is what ZeroMQ costs beside a plain Unix socket.
 *
 * ZeroMQ has no end of stream and carries messages of 0 bytes (which the
 * runner sends: callrate, reply=empty): the client's send_end() sends a
 * two-part message of two empty parts, which no payload ever is; only an
 * empty part is looked at for a second one (ZMQ_RCVMORE).
 */
#include "transport.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <zmq.h>

typedef struct {
        void *ctx;
        void *out;   /* what this side sends on */
        void *in;    /* what it receives on: the same REQ/REP socket for round trips */
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
static int zeromq_fail(Endpoint *ep, const char *what)
{
        int err = zmq_errno();

        endpoint_fail(ep, 0, "%s: %s", what, zmq_strerror(err));
        return -(err > 0 ? err : EIO);
}

/* A socket of TYPE, bound (BIND) or connected to ipc://DIR/NAME. */
static int zeromq_socket(Endpoint *ep, Zmq *z, int type, const char *name, bool bind, void **out)
{
        char where[300];
        /* close() waits at most 1 s for what is still queued (the ack) */
        int linger = 1000;
        void *s = zmq_socket(z->ctx, type);

        if (!s)
                return zeromq_fail(ep, "zmq_socket");
        *out = s;
        if (zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger) < 0)
                return zeromq_fail(ep, "ZMQ_LINGER");
        if (snprintf(where, sizeof where, "ipc://%s/%s", ep->dir, name) >= (int) sizeof where)
                return endpoint_fail(ep, ENAMETOOLONG, "ipc://%s/%s", ep->dir, name);
        if (bind ? zmq_bind(s, where) < 0 : zmq_connect(s, where) < 0)
                return zeromq_fail(ep, bind ? "zmq_bind" : "zmq_connect");
        return 0;
}

static int zeromq_open(Endpoint *ep, Role role)
{
        bool server = role == ROLE_SERVER;
        Zmq *z = calloc(1, sizeof *z);
        int r;

        ep->role = role;
        if (!z)
                return endpoint_fail(ep, ENOMEM, "zeromq state");
        ep->priv = z;
        if (!(z->ctx = zmq_ctx_new()))
                return zeromq_fail(ep, "zmq_ctx_new");
        if (ep->cell->pattern != IPCLAB_PATTERN_ONEWAY) {
                r = zeromq_socket(ep, z, server ? ZMQ_REP : ZMQ_REQ, "req", server, &z->out);
                z->in = z->out;
                return r;
        }
        r = zeromq_socket(ep, z, server ? ZMQ_PULL : ZMQ_PUSH, "req", server, server ? &z->in : &z->out);
        if (r < 0)
                return r;
        return zeromq_socket(ep, z, server ? ZMQ_PUSH : ZMQ_PULL, "back", server, server ? &z->out : &z->in);
}

static int zeromq_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        Zmq *z = ep->priv;

        (void) flags;
        while (zmq_send(z->out, data, len, 0) < 0)
                if (zmq_errno() != EINTR)
                        return zeromq_fail(ep, "zmq_send");
        return 0;
}

/* Whether the part just received on SOCK has another after it. */
static int zeromq_more(Endpoint *ep, void *sock)
{
        int more = 0;
        size_t size = sizeof more;

        if (zmq_getsockopt(sock, ZMQ_RCVMORE, &more, &size) < 0)
                return zeromq_fail(ep, "ZMQ_RCVMORE");
        return more != 0;
}

static int zeromq_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        Zmq *z = ep->priv;
        size_t room = expect > IPCLAB_TRANSPORT_ACK_MAX ? expect : IPCLAB_TRANSPORT_ACK_MAX;
        char *buf = endpoint_buffer(ep, room + 1);
        char end;
        int n, more;

        if (!buf)
                return endpoint_fail(ep, ENOMEM, "a receive buffer of %zu bytes", room + 1);
        while ((n = zmq_recv(z->in, buf, room, 0)) < 0)
                if (zmq_errno() != EINTR)
                        return zeromq_fail(ep, "zmq_recv");
        if ((size_t) n > room)
                return endpoint_fail(ep, EMSGSIZE, "a message of %d bytes, %zu expected", n, expect);
        if (n == 0 && (more = zeromq_more(ep, z->in)) != 0) {
                if (more < 0)
                        return more;
                /* the end of the stream: its second, empty part */
                while (zmq_recv(z->in, &end, sizeof end, 0) < 0)
                        if (zmq_errno() != EINTR)
                                return zeromq_fail(ep, "zmq_recv");
                return 0;
        }
        buf[n] = '\0';
        *data = buf;
        *len = (size_t) n;
        return 1;
}

static int zeromq_send_end(Endpoint *ep)
{
        Zmq *z = ep->priv;

        while (zmq_send(z->out, "", 0, ZMQ_SNDMORE) < 0)
                if (zmq_errno() != EINTR)
                        return zeromq_fail(ep, "zmq_send");
        return zeromq_send(ep, "", 0, 0);
}

static void zeromq_close(Endpoint *ep)
{
        Zmq *z = ep->priv;

        if (!z)
                return;
        if (z->in && z->in != z->out)
                zmq_close(z->in);
        if (z->out)
                zmq_close(z->out);
        if (z->ctx)
                zmq_ctx_term(z->ctx);
        free(z);
        ep->priv = NULL;
}

const Transport transport_zeromq = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "zeromq",
        .family = "library",
        .summary = ZEROMQ_SUMMARY,
        .flags = ZEROMQ_FLAGS,
        .unavailable = zeromq_unavailable,
        .libraries = zeromq_libraries,
        .open = zeromq_open,
        .send = zeromq_send,
        .recv = zeromq_recv,
        .send_end = zeromq_send_end,
        .close = zeromq_close,
};
