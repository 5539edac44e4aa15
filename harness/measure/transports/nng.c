/* nng.c: nng (nanomsg-next-generation) sockets over ipc://, as an
 * application uses them.
 *
 * Endpoints: Unix sockets that nng makes in the repetition's private
 * directory (ipc://DIR/req, ipc://DIR/back), the server listening in its
 * open(), the client dialling in its own (nng starts its threads there,
 * never before a fork).  Round trips (roundtrip, callrate): req0 on the
 * client, rep0 on the server.  One-way: push0 from the client to pull0 on
 * the server, and a second pair the other way for what the server sends
 * back (the answers to the runner's warm-up round trips and the ack).
 *
 * Payloads: a message is an nng_msg of the payload and one trailing byte
 * of ours, 0 for a payload and 1 for the client's end of stream (nng has
 * none, and carries messages of 0 bytes, which the runner sends: callrate,
 * reply=empty).  The sender allocates the message and copies the payload
 * into it, what nng_send() would do; the receiver hands out the received
 * message's body without copying it, the trailing byte overwritten with
 * the NUL a string payload needs, and frees it at its next hook.  nng's
 * limit on a received message (NNG_OPT_RECVMAXSZ) is set to none,
 * whatever a build's default, and req0 never resends a request (its
 * resend timer, 60 s by default, would duplicate one in a loaded run).
 *
 * The ack: nng_close() drops what is still queued, so the server's
 * close() first waits, at most 1 s, for the client to hang up (which it
 * does once it has read the ack), as ZeroMQ's linger does.
 */
#include "transport.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nng/nng.h>
#include <nng/protocol/pipeline0/pull.h>
#include <nng/protocol/pipeline0/push.h>
#include <nng/protocol/reqrep0/rep.h>
#include <nng/protocol/reqrep0/req.h>

/* The trailing byte: what the message is. */
enum { NNGT_PAYLOAD = 0, NNGT_END = 1 };

typedef struct {
        nng_socket out;        /* what this side sends on */
        nng_socket in;         /* what it receives on: the same req0/rep0 socket for round trips */
        bool have_out, have_in;
        nng_msg *held;         /* the message recv() handed out last */
        pthread_mutex_t lock;
        pthread_cond_t gone;
        int pipes;             /* the server: connections on OUT */
} Nngt;

static const char *nngt_libraries(void)
{
        static char text[64];

        snprintf(text, sizeof text, "nng %s", nng_version());
        return text;
}

/* Fails EP with WHAT and nng's reason RV. */
static int nngt_fail(Endpoint *ep, const char *what, int rv)
{
        endpoint_fail(ep, 0, "%s: %s", what, nng_strerror(rv));
        return rv == NNG_ENOMEM ? -ENOMEM : rv == NNG_ECLOSED || rv == NNG_ECONNSHUT ? -EPIPE : -EPROTO;
}

/* Counts the server's connections on its sending socket. */
static void nngt_pipe_event(nng_pipe pipe, nng_pipe_ev ev, void *arg)
{
        Nngt *n = arg;

        (void) pipe;
        pthread_mutex_lock(&n->lock);
        n->pipes += ev == NNG_PIPE_EV_ADD_POST ? 1 : -1;
        pthread_cond_broadcast(&n->gone);
        pthread_mutex_unlock(&n->lock);
}

/* *S, opened by OPEN, listening (SERVER) or dialled to ipc://DIR/NAME. */
static int nngt_endpoint(Endpoint *ep, Nngt *n, int (*open)(nng_socket *), const char *name, bool server,
                        nng_socket *s, bool *have)
{
        char where[300];
        int rv;

        if ((rv = open(s)) != 0)
                return nngt_fail(ep, "opening a socket", rv);
        *have = true;
        if ((rv = nng_socket_set_size(*s, NNG_OPT_RECVMAXSZ, 0)) != 0)
                return nngt_fail(ep, NNG_OPT_RECVMAXSZ, rv);
        if (open == nng_req0_open &&
            (rv = nng_socket_set_ms(*s, NNG_OPT_REQ_RESENDTIME, NNG_DURATION_INFINITE)) != 0)
                return nngt_fail(ep, NNG_OPT_REQ_RESENDTIME, rv);
        if (server && s == &n->out &&
            ((rv = nng_pipe_notify(*s, NNG_PIPE_EV_ADD_POST, nngt_pipe_event, n)) != 0 ||
             (rv = nng_pipe_notify(*s, NNG_PIPE_EV_REM_POST, nngt_pipe_event, n)) != 0))
                return nngt_fail(ep, "nng_pipe_notify", rv);
        if (snprintf(where, sizeof where, "ipc://%s/%s", ep->dir, name) >= (int) sizeof where)
                return endpoint_fail(ep, ENAMETOOLONG, "ipc://%s/%s", ep->dir, name);
        if ((rv = server ? nng_listen(*s, where, NULL, 0) : nng_dial(*s, where, NULL, 0)) != 0)
                return nngt_fail(ep, server ? "nng_listen" : "nng_dial", rv);
        return 0;
}

static int nngt_open(Endpoint *ep, Role role)
{
        bool server = role == ROLE_SERVER;
        Nngt *n = calloc(1, sizeof *n);
        int r;

        ep->role = role;
        if (!n)
                return endpoint_fail(ep, ENOMEM, "nng state");
        pthread_mutex_init(&n->lock, NULL);
        pthread_cond_init(&n->gone, NULL);
        ep->priv = n;
        if (ep->cell->pattern != IPCLAB_PATTERN_ONEWAY) {
                r = nngt_endpoint(ep, n, server ? nng_rep0_open : nng_req0_open, "req", server, &n->out, &n->have_out);
                n->in = n->out;
                return r;
        }
        if ((r = nngt_endpoint(ep, n, server ? nng_pull0_open : nng_push0_open, "req", server,
                              server ? &n->in : &n->out, server ? &n->have_in : &n->have_out)) < 0)
                return r;
        return nngt_endpoint(ep, n, server ? nng_push0_open : nng_pull0_open, "back", server,
                            server ? &n->out : &n->in, server ? &n->have_out : &n->have_in);
}

/* Sends LEN bytes at DATA and the trailing byte KIND. */
static int nngt_send_kind(Endpoint *ep, const void *data, size_t len, unsigned char kind)
{
        Nngt *n = ep->priv;
        nng_msg *m;
        int rv;

        if ((rv = nng_msg_alloc(&m, len + 1)) != 0)
                return nngt_fail(ep, "nng_msg_alloc", rv);
        unsigned char *body = nng_msg_body(m);
        if (len)
                memcpy(body, data, len);
        body[len] = kind;
        if ((rv = nng_sendmsg(n->out, m, 0)) != 0) {
                nng_msg_free(m);
                return nngt_fail(ep, "nng_sendmsg", rv);
        }
        return 0;
}

static int nngt_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        (void) flags;
        return nngt_send_kind(ep, data, len, NNGT_PAYLOAD);
}

static int nngt_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        Nngt *n = ep->priv;
        int rv;

        (void) expect;
        if (n->held) {
                nng_msg_free(n->held);
                n->held = NULL;
        }
        if ((rv = nng_recvmsg(n->in, &n->held, 0)) != 0)
                return nngt_fail(ep, "nng_recvmsg", rv);
        size_t got = nng_msg_len(n->held);
        unsigned char *body = nng_msg_body(n->held);
        if (got == 0 || body[got - 1] > NNGT_END)
                return endpoint_fail(ep, EPROTO, "a message of %zu bytes without ipclab's trailing byte", got);
        if (body[got - 1] == NNGT_END)
                return 0;
        body[got - 1] = '\0';
        *data = body;
        *len = got - 1;
        return 1;
}

static int nngt_send_end(Endpoint *ep)
{
        return nngt_send_kind(ep, NULL, 0, NNGT_END);
}

static void nngt_close(Endpoint *ep)
{
        Nngt *n = ep->priv;

        if (!n)
                return;
        if (n->held)
                nng_msg_free(n->held);
        if (ep->role == ROLE_SERVER && n->have_out) {
                struct timespec until;
                clock_gettime(CLOCK_REALTIME, &until);
                until.tv_sec += 1;
                pthread_mutex_lock(&n->lock);
                while (n->pipes > 0 && pthread_cond_timedwait(&n->gone, &n->lock, &until) == 0)
                        ;
                pthread_mutex_unlock(&n->lock);
        }
        if (n->have_in && (!n->have_out || n->in.id != n->out.id))
                nng_close(n->in);
        if (n->have_out)
                nng_close(n->out);
        pthread_cond_destroy(&n->gone);
        pthread_mutex_destroy(&n->lock);
        free(n);
        ep->priv = NULL;
}

const Transport transport_nng = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "nng",
        .family = "library",
        .summary = NNG_SUMMARY,
        .flags = NNG_FLAGS,
        .libraries = nngt_libraries,
        .open = nngt_open,
        .send = nngt_send,
        .recv = nngt_recv,
        .send_end = nngt_send_end,
        .close = nngt_close,
};
