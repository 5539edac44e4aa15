/* direct.c: an in-process "transport" that hands the payload over by
 * pointer.  It measures what the harness itself costs per message, the
 * floor under every other transport (fio's null engine plays this part). */
#include <ipclab/transport.h>
#include "transport.h"

#include <errno.h>

typedef struct {
        const void *data;     /* the message in flight, or NULL */
        size_t len;
        bool end;             /* the client called send_end() */
} DirectSlot;

typedef struct {
        DirectSlot to_server;
        DirectSlot to_client;
} Direct;

static int direct_prepare(Endpoint *ep)
{
        ep->priv = g_new0(Direct, 1);
        return 0;
}

static int direct_open(Endpoint *ep, Role role)
{
        ep->role = role;
        return 0;
}

static int direct_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        Direct *d = ep->priv;
        DirectSlot *s = ep->role == ROLE_CLIENT ? &d->to_server : &d->to_client;

        (void) flags;
        if (s->data)
                return endpoint_fail(ep, EAGAIN, "direct: a message is already in flight");
        s->data = data;
        s->len = len;
        return 0;
}

static int direct_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        Direct *d = ep->priv;
        DirectSlot *s = ep->role == ROLE_CLIENT ? &d->to_client : &d->to_server;

        (void) expect;
        if (s->end && !s->data) {
                s->end = false;
                return 0;
        }
        if (!s->data)
                return endpoint_fail(ep, EAGAIN, "direct: no message to receive");
        *data = s->data;
        *len = s->len;
        s->data = NULL;
        return 1;
}

static int direct_send_end(Endpoint *ep)
{
        Direct *d = ep->priv;

        d->to_server.end = true;
        return 0;
}

static void direct_cleanup(Endpoint *ep)
{
        g_clear_pointer(&ep->priv, g_free);
}

const Transport transport_direct = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "direct",
        .family = "harness",
        .summary = "in-process hand-over by pointer: the harness's own cost per message",
        .flags = TRANSPORT_INPROCESS | TRANSPORT_EMPTY_OK,
        .prepare = direct_prepare,
        .open = direct_open,
        .send = direct_send,
        .recv = direct_recv,
        .send_end = direct_send_end,
        .cleanup = direct_cleanup,
};
