/* gdbus.c: D-Bus method calls through GDBus (GLib's GIO).
 *
 * GDBus does its socket I/O in its own worker thread and hands messages to
 * the GMainContext that was the thread default when a handler was set up.
 * Each endpoint has a context of its own, pushed as thread default for its
 * lifetime.  The server registers an object whose introspection data is
 * made for the cell (the out-arguments are the replies the runner will
 * send); method calls queue up in its handler, a blocking recv() iterates
 * the context until one is there, and send() answers it with
 * g_dbus_method_invocation_return_value().  A client round trip is
 * g_dbus_connection_call_sync(); a send() that expects a reply uses
 * g_dbus_connection_send_message_with_reply() and recv() iterates until
 * its callback ran.  The worker's outgoing queue has no bound, so a
 * one-way stream is flushed every FLUSH_BYTES.
 *
 * Copies are avoided where the API allows: outgoing byte arrays and strings
 * are variants over the caller's buffer (g_variant_new_from_data), which
 * GDBus serialises before the send returns (it looks at the body again
 * only to print it under G_DBUS_DEBUG=message; then the variants copy);
 * received byte arrays are read with g_variant_get_fixed_array().  This
 * borrowing is a best case: an application writes g_variant_new("(s)",
 * str), which copies the text and validates it as UTF-8; marshal=copy
 * builds strings that way, as seed 001's client did, and reply=short
 * answers with the string REPLY_SHORT_TEXT, as its server did.
 * Per-element marshalling (per-element, append-per-element) builds the
 * `ay` with a GVariantBuilder, one byte at a time; per-element reads it
 * back with a GVariantIter, append-per-element as one fixed array.
 *
 * The wire protocol is the one libdbus.c describes.
 */
#include <ipclab/transport.h>
#include "transport.h"

#include <errno.h>
#include <string.h>

/* roles=threads: refused (no TRANSPORT_THREADS), with GDBus's reason. */
static const char *gdbus_refuses(const IpclabCell *cell)
{
        if (cell->roles == IPCLAB_ROLES_THREADS)
                return "roles=threads: GDBus does every connection's I/O in one worker thread per process, "
                       "which the two roles would share (and neither role's thread CPU clock holds)";
        return NULL;
}

#ifdef IPCLAB_HAVE_GIO

#include <gio/gio.h>

#include "bench-names.h"
#include "gdbus-link.h"

/* A one-way stream is flushed when this much is queued in the worker. */
#define FLUSH_BYTES (4u << 20)
#define MESSAGE_OVERHEAD 256u

typedef struct {
        GdbusLink l;                    /* the connection (gdbus-link.h) */
        GQueue calls;                   /* GDBusMethodInvocation *, not yet taken */
        GDBusMethodInvocation *request; /* server: the call send() answers */
        GVariant *held;                 /* keeps a string handed out alive */
        bool waiting;                   /* client: a reply is due */
        bool short_due;                 /* client: it is REPLY_SHORT_TEXT (reply=short) */
        GDBusMessage *reply;            /* client: the reply, once in */
        GError *reply_error;
        gsize unflushed;                /* client: one-way bytes since a flush */
        bool borrow;                    /* outgoing variants borrow the caller's data */
        const char *dest;               /* the bus name, NULL peer to peer */
} Gdbus;

/* The reply signatures, as the runner answers for CELL: an echo carries
 * the payload back, an empty reply (reply=empty, callrate) nothing, a
 * short one (reply=short) the string REPLY_SHORT_TEXT; the
 * ack to End is text, `s` for string cells and `ay` otherwise.  They are
 * declared as out-arguments, which g_dbus_method_invocation_return_value()
 * checks. */
static const char *reply_signature(const IpclabCell *cell)
{
        if (cell->pattern == PATTERN_CALLRATE || cell->reply == REPLY_EMPTY)
                return "";
        if (cell->reply == REPLY_SHORT)
                return "s";
        return cell->payload == PAYLOAD_STRING ? "s" : "ay";
}

static const char *ack_signature(const IpclabCell *cell)
{
        return cell->payload == PAYLOAD_STRING ? "s" : "ay";
}

/* Introspection data for CELL's server. */
static char *bench_xml(const IpclabCell *cell)
{
        const char *reply = reply_signature(cell);
        g_autofree char *out = *reply
                ? g_strdup_printf("<arg name='payload' type='%s' direction='out'/>", reply)
                : g_strdup("");

        return g_strdup_printf(
                "<node>"
                "  <interface name='" BENCH_IFACE "'>"
                "    <method name='SendBytes'><arg name='payload' type='ay' direction='in'/>%s</method>"
                "    <method name='SendString'><arg name='payload' type='s' direction='in'/>%s</method>"
                "    <method name='SendEmpty'>%s</method>"
                "    <method name='End'><arg name='ack' type='%s' direction='out'/></method>"
                "  </interface>"
                "</node>", out, out, out, ack_signature(cell));
}

static const char *gdbus_unavailable(void)
{
        return NULL;
}

/* The D-Bus specification caps arrays at 64 MiB (messages at 128 MiB). */
static size_t gdbus_max_size(const IpclabCell *cell)
{
        (void) cell;
        return (size_t) 64 << 20;
}

static void release_hold(Gdbus *p)
{
        g_clear_pointer(&p->held, g_variant_unref);
}

static void gdbus_free(Gdbus *p)
{
        if (!p)
                return;
        release_hold(p);
        g_clear_object(&p->request);
        gdbus_link_shut(&p->l);
        g_queue_clear_full(&p->calls, g_object_unref);
        g_clear_object(&p->reply);
        g_clear_error(&p->reply_error);
        gdbus_link_clear(&p->l);
        g_free(p);
}

/* --- server side: the object and the p2p listener ---------------------- */

static void on_method_call(GDBusConnection *conn, const char *sender, const char *path,
                           const char *iface, const char *method, GVariant *params,
                           GDBusMethodInvocation *inv, gpointer data)
{
        Gdbus *p = data;

        (void) conn;
        (void) sender;
        (void) path;
        (void) iface;
        (void) method;
        (void) params;
        g_queue_push_tail(&p->calls, inv);   /* we own INV until we answer */
}

static const GDBusInterfaceVTable bench_vtable = {
        .method_call = on_method_call,
};

static int gdbus_open(Endpoint *ep, Role role)
{
        Gdbus *p = g_new0(Gdbus, 1);
        g_autofree char *xml = role == ROLE_SERVER ? bench_xml(ep->cell) : NULL;
        int r;

        ep->role = role;
        g_queue_init(&p->calls);
        /* GDBus prints sent messages afterwards under G_DBUS_DEBUG=message:
         * then the variants must own their data. */
        p->borrow = g_getenv("G_DBUS_DEBUG") == NULL;
        if (role == ROLE_CLIENT && ep->cell->bus != BUS_P2P)
                p->dest = BENCH_NAME;
        gdbus_link_init(&p->l, &bench_vtable, p);
        r = gdbus_link_open(ep, &p->l, role, xml);
        if (r < 0) {
                gdbus_free(p);
                return r;
        }
        ep->priv = p;
        return 0;
}

/* --- payloads --------------------------------------------------------- */

/* The message body for a payload: NULL when LEN is 0, else a 1-tuple of
 * `s` for string cells and `ay` otherwise. */
static GVariant *make_body(const Endpoint *ep, const Gdbus *p, const void *data, size_t len)
{
        GVariant *v;

        if (len == 0)
                return NULL;
        if (ep->cell->payload == PAYLOAD_STRING && ep->cell->marshal == MARSHAL_COPY)
                return g_variant_new("(s)", (const char *) data);   /* copies, validates */
        if (ep->cell->payload == PAYLOAD_STRING) {
                /* A serialised `s` is the text and its NUL: DATA as it is. */
                v = p->borrow ? g_variant_new_from_data(G_VARIANT_TYPE_STRING, data, len + 1,
                                                        FALSE, NULL, NULL)
                              : g_variant_new_string(data);
        } else if (marshal_appends_per_element(ep->cell->marshal)) {
                const guint8 *b = data;
                GVariantBuilder builder;
                g_variant_builder_init(&builder, G_VARIANT_TYPE_BYTESTRING);
                for (size_t i = 0; i < len; i++)
                        g_variant_builder_add_value(&builder, g_variant_new_byte(b[i]));
                v = g_variant_builder_end(&builder);
        } else {
                v = p->borrow ? g_variant_new_from_data(G_VARIANT_TYPE_BYTESTRING, data, len,
                                                        TRUE, NULL, NULL)
                              : g_variant_new_fixed_array(G_VARIANT_TYPE_BYTE, data, len, 1);
        }
        return g_variant_new_tuple(&v, 1);
}

/* Reads the payload of BODY (NULL, `()`, `(ay)` or `(s)`).  A string or a
 * fixed array points into the variant, kept in p->held; a per-element
 * array is read byte by byte into the endpoint's buffer. */
static int read_payload(Endpoint *ep, Gdbus *p, GVariant *body, const void **data, size_t *len)
{
        if (!body || g_variant_n_children(body) == 0) {
                *data = "";
                *len = 0;
                return 0;
        }
        g_autoptr(GVariant) child = g_variant_get_child_value(body, 0);
        if (g_variant_is_of_type(child, G_VARIANT_TYPE_STRING)) {
                gsize n;
                const char *s = g_variant_get_string(child, &n);
                p->held = g_steal_pointer(&child);
                *data = s;
                *len = n;
                return 0;
        }
        if (!g_variant_is_of_type(child, G_VARIANT_TYPE_BYTESTRING))
                return endpoint_fail(ep, EPROTO, "unexpected message signature '%s'",
                                     g_variant_get_type_string(body));
        if (ep->cell->marshal != MARSHAL_PER_ELEMENT) {
                /* The fixed-array path: the bytes stay in the variant, kept
                 * in p->held until the next operation; no copy. */
                gsize got = 0;
                const guint8 *a = g_variant_get_fixed_array(child, &got, 1);
                p->held = g_steal_pointer(&child);
                *data = got > 0 ? (const void *) a : "";
                *len = got;
                return 0;
        }
        gsize n = g_variant_n_children(child);
        guint8 *buf = endpoint_buffer(ep, n + 1);
        if (!buf)
                return endpoint_fail(ep, ENOMEM, "receive buffer of %zu bytes", n + 1);
        GVariantIter it;
        GVariant *b;
        gsize i = 0;
        g_variant_iter_init(&it, child);
        while (i < n && (b = g_variant_iter_next_value(&it))) {
                buf[i++] = g_variant_get_byte(b);
                g_variant_unref(b);
        }
        n = i;
        buf[n] = '\0';
        *data = buf;
        *len = n;
        return 0;
}

/* Takes the reply to a reply=short call: BODY must be the string
 * REPLY_SHORT_TEXT, which the runner sees as an empty reply. */
static int read_short_reply(Endpoint *ep, GVariant *body, const void **data, size_t *len)
{
        const char *s = NULL;

        if (!body || !g_variant_is_of_type(body, G_VARIANT_TYPE("(s)")))
                return endpoint_fail(ep, EPROTO, "reply=short: a reply of type '%s', not (s)",
                                     body ? g_variant_get_type_string(body) : "()");
        g_variant_get(body, "(&s)", &s);
        if (strcmp(s, REPLY_SHORT_TEXT) != 0)
                return endpoint_fail(ep, EPROTO, "reply=short: '%.16s' instead of '" REPLY_SHORT_TEXT "'", s);
        *data = "";
        *len = 0;
        return 0;
}

static const char *request_member(const Endpoint *ep, size_t len)
{
        if (len == 0)
                return "SendEmpty";
        return ep->cell->payload == PAYLOAD_STRING ? "SendString" : "SendBytes";
}

/* --- server ----------------------------------------------------------- */

static int server_recv(Endpoint *ep, Gdbus *p, const void **data, size_t *len)
{
        GDBusMethodInvocation *inv;
        int r;

        release_hold(p);
        g_clear_object(&p->request);
        while (!(inv = g_queue_pop_head(&p->calls))) {
                r = gdbus_link_iterate(ep, &p->l, "the connection closed");
                if (r < 0)
                        return r;
        }
        if (!strcmp(g_dbus_method_invocation_get_method_name(inv), "End")) {
                p->request = inv;
                return 0;
        }
        r = read_payload(ep, p, g_dbus_method_invocation_get_parameters(inv), data, len);
        if (r < 0 || (g_dbus_message_get_flags(g_dbus_method_invocation_get_message(inv)) &
                      G_DBUS_MESSAGE_FLAGS_NO_REPLY_EXPECTED))
                g_object_unref(inv);   /* one-way: nothing to answer */
        else
                p->request = inv;
        return r < 0 ? r : 1;
}

/* Answers the current request.  The reply must have the signature the
 * introspection data declares; GDBus would print a warning otherwise, so
 * a mismatch is caught here first. */
static int server_send(Endpoint *ep, Gdbus *p, const void *data, size_t len)
{
        const GDBusMethodInfo *mi;
        g_autofree char *want = NULL;
        GVariant *body;

        if (!p->request)
                return endpoint_fail(ep, EPROTO, "no request to answer");
        mi = g_dbus_method_invocation_get_method_info(p->request);
        want = g_strdup_printf("(%s)", mi && mi->out_args && mi->out_args[0] ? mi->out_args[0]->signature : "");
        if (ep->cell->reply == REPLY_SHORT && len == 0 &&
            strcmp(g_dbus_method_invocation_get_method_name(p->request), "End") != 0)
                body = g_variant_new("(s)", REPLY_SHORT_TEXT);   /* as seed 001's server */
        else
                body = make_body(ep, p, data, len);
        if (body)
                g_variant_ref_sink(body);
        if (strcmp(body ? g_variant_get_type_string(body) : "()", want) != 0) {
                g_clear_pointer(&body, g_variant_unref);
                return endpoint_fail(ep, EPROTO, "a reply of %zu bytes does not fit the declared "
                                     "signature '%s'", len, want);
        }
        /* Takes the invocation; serialises BODY before it returns, so DATA
         * (which may point into the request) is released only now. */
        g_dbus_method_invocation_return_value(g_steal_pointer(&p->request), body);
        g_clear_pointer(&body, g_variant_unref);
        release_hold(p);
        return 0;
}

/* --- client ----------------------------------------------------------- */

static void on_reply(GObject *src, GAsyncResult *res, gpointer data)
{
        Gdbus *p = data;

        p->reply = g_dbus_connection_send_message_with_reply_finish(G_DBUS_CONNECTION(src), res,
                                                                    &p->reply_error);
        p->waiting = false;
}

static int client_send(Endpoint *ep, Gdbus *p, const char *member,
                       const void *data, size_t len, unsigned flags)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(GDBusMessage) m = NULL;
        GVariant *body;

        if (p->waiting || p->reply || p->reply_error)
                return endpoint_fail(ep, EPROTO, "the previous reply was not read");
        m = g_dbus_message_new_method_call(p->dest, BENCH_PATH, BENCH_IFACE, member);
        body = make_body(ep, p, data, len);
        if (body)
                g_dbus_message_set_body(m, body);
        if (flags & SEND_NO_REPLY) {
                g_dbus_message_set_flags(m, G_DBUS_MESSAGE_FLAGS_NO_REPLY_EXPECTED);
                if (!g_dbus_connection_send_message(p->l.conn, m, G_DBUS_SEND_MESSAGE_FLAGS_NONE, NULL, &e))
                        return gdbus_link_fail(ep, e, "g_dbus_connection_send_message");
                /* The worker's queue is unbounded: keep a one-way stream
                 * from outrunning the socket by more than FLUSH_BYTES. */
                p->unflushed += len + MESSAGE_OVERHEAD;
                if (p->unflushed >= FLUSH_BYTES) {
                        p->unflushed = 0;
                        if (!g_dbus_connection_flush_sync(p->l.conn, NULL, &e))
                                return gdbus_link_fail(ep, e, "g_dbus_connection_flush_sync");
                }
        } else {
                p->waiting = true;
                p->short_due = ep->cell->reply == REPLY_SHORT && strcmp(member, "End") != 0;
                p->unflushed = 0;
                g_dbus_connection_send_message_with_reply(p->l.conn, m, G_DBUS_SEND_MESSAGE_FLAGS_NONE,
                                                          G_MAXINT, NULL, NULL, on_reply, p);
        }
        release_hold(p);
        return 0;
}

static int client_recv(Endpoint *ep, Gdbus *p, const void **data, size_t *len)
{
        g_autoptr(GDBusMessage) reply = NULL;
        g_autoptr(GError) e = NULL;

        release_hold(p);
        if (!p->waiting && !p->reply && !p->reply_error)
                return endpoint_fail(ep, EPROTO, "no reply is due");
        while (p->waiting)
                g_main_context_iteration(p->l.ctx, TRUE);
        if (p->reply_error) {
                int r = gdbus_link_fail(ep, p->reply_error, "the call failed");
                g_clear_error(&p->reply_error);
                return r;
        }
        reply = g_steal_pointer(&p->reply);
        if (g_dbus_message_to_gerror(reply, &e))
                return gdbus_link_fail(ep, e, "the call failed");
        GVariant *body = g_dbus_message_get_body(reply);
        int r = p->short_due ? read_short_reply(ep, body, data, len) : read_payload(ep, p, body, data, len);
        p->short_due = false;
        return r < 0 ? r : 1;
}

static int gdbus_call(Endpoint *ep, const void *data, size_t len,
                      const void **reply, size_t *reply_len, size_t expect)
{
        Gdbus *p = ep->priv;
        g_autoptr(GError) e = NULL;
        g_autoptr(GVariant) ret = NULL;

        (void) expect;
        ret = g_dbus_connection_call_sync(p->l.conn, p->dest, BENCH_PATH, BENCH_IFACE,
                                          request_member(ep, len), make_body(ep, p, data, len),
                                          NULL, G_DBUS_CALL_FLAGS_NONE, G_MAXINT, NULL, &e);
        release_hold(p);
        if (!ret)
                return gdbus_link_fail(ep, e, "the call failed");
        int r = ep->cell->reply == REPLY_SHORT ? read_short_reply(ep, ret, reply, reply_len)
                                               : read_payload(ep, p, ret, reply, reply_len);
        return r < 0 ? r : 1;
}

/* --- the ops ---------------------------------------------------------- */

static int gdbus_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        Gdbus *p = ep->priv;

        if (ep->role == ROLE_SERVER)
                return server_send(ep, p, data, len);
        return client_send(ep, p, request_member(ep, len), data, len, flags);
}

static int gdbus_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        Gdbus *p = ep->priv;

        (void) expect;
        if (ep->role == ROLE_SERVER)
                return server_recv(ep, p, data, len);
        return client_recv(ep, p, data, len);
}

static int gdbus_send_end(Endpoint *ep)
{
        return client_send(ep, ep->priv, "End", NULL, 0, 0);
}

static void gdbus_close(Endpoint *ep)
{
        gdbus_free(ep->priv);
        ep->priv = NULL;
}

const Transport transport_gdbus = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "gdbus",
        .family = "dbus",
        .summary = "GDBus (GIO) method calls: worker thread plus a GMainContext",
        .flags = TRANSPORT_DBUS | TRANSPORT_MARSHAL | TRANSPORT_VALIDATES | TRANSPORT_EMPTY_OK |
                 TRANSPORT_COPY_STRING | TRANSPORT_SHORT_REPLY,
        .unavailable = gdbus_unavailable,
        .max_size = gdbus_max_size,
        .refuses = gdbus_refuses,
        .open = gdbus_open,
        .send = gdbus_send,
        .recv = gdbus_recv,
        .send_end = gdbus_send_end,
        .call = gdbus_call,
        .close = gdbus_close,
};

#else /* !IPCLAB_HAVE_GIO */

static const char *gdbus_unavailable(void)
{
        return "built without gio-2.0";
}

static int gdbus_open(Endpoint *ep, Role role)
{
        (void) role;
        return endpoint_fail(ep, ENOTSUP, "built without gio-2.0");
}

const Transport transport_gdbus = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "gdbus",
        .family = "dbus",
        .summary = "GDBus (GIO) method calls: worker thread plus a GMainContext",
        .flags = TRANSPORT_DBUS | TRANSPORT_MARSHAL | TRANSPORT_VALIDATES | TRANSPORT_EMPTY_OK |
                 TRANSPORT_COPY_STRING | TRANSPORT_SHORT_REPLY,
        .unavailable = gdbus_unavailable,
        .refuses = gdbus_refuses,
        .open = gdbus_open,
};

#endif /* IPCLAB_HAVE_GIO */
