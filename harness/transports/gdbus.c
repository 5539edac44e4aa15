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
#include "transport.h"

#include <errno.h>
#include <string.h>

#ifdef IPCLAB_HAVE_GIO

#include <gio/gio.h>

#define BENCH_NAME "org.ipclab.Bench"
#define BENCH_PATH "/org/ipclab/Bench"
#define BENCH_IFACE "org.ipclab.Bench"
/* A one-way stream is flushed when this much is queued in the worker. */
#define FLUSH_BYTES (4u << 20)
#define MESSAGE_OVERHEAD 256u

typedef struct {
        GMainContext *ctx;              /* ours, the thread default while open */
        GDBusConnection *conn;
        GDBusServer *server;            /* p2p server, until its client is in */
        GDBusNodeInfo *node;            /* the server's introspection data */
        guint reg_id;
        gulong closed_id;
        bool closed;
        char *accept_error;             /* p2p: why the client was refused */
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
static const char *reply_signature(const Cell *cell)
{
        if (cell->pattern == PATTERN_CALLRATE || cell->reply == REPLY_EMPTY)
                return "";
        if (cell->reply == REPLY_SHORT)
                return "s";
        return cell->payload == PAYLOAD_STRING ? "s" : "ay";
}

static const char *ack_signature(const Cell *cell)
{
        return cell->payload == PAYLOAD_STRING ? "s" : "ay";
}

/* Introspection data for CELL's server. */
static char *bench_xml(const Cell *cell)
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
static size_t gdbus_max_size(const Cell *cell)
{
        (void) cell;
        return (size_t) 64 << 20;
}

static int fail_gerror(Endpoint *ep, const GError *e, const char *what)
{
        return endpoint_fail(ep, 0, "%s: %s", what, e ? e->message : "unknown error");
}

static void release_hold(Gdbus *p)
{
        g_clear_pointer(&p->held, g_variant_unref);
}

/* unix:path=DIR/p2p, escaped as a D-Bus address. */
static char *p2p_address(const Endpoint *ep)
{
        g_autofree char *path = g_build_filename(ep->dir, "p2p", NULL);
        g_autofree char *esc = g_dbus_address_escape_value(path);

        return g_strconcat("unix:path=", esc, NULL);
}

static void gdbus_free(Gdbus *p)
{
        if (!p)
                return;
        release_hold(p);
        g_clear_object(&p->request);
        if (p->conn) {
                if (p->reg_id)
                        g_dbus_connection_unregister_object(p->conn, p->reg_id);
                if (p->closed_id)
                        g_signal_handler_disconnect(p->conn, p->closed_id);
                if (!g_dbus_connection_is_closed(p->conn)) {
                        /* The last reply (the ack) must leave before we do. */
                        g_dbus_connection_flush_sync(p->conn, NULL, NULL);
                        g_dbus_connection_close_sync(p->conn, NULL, NULL);
                }
        }
        if (p->server) {
                g_signal_handlers_disconnect_by_data(p->server, p);
                g_dbus_server_stop(p->server);
        }
        if (p->ctx) {
                /* Let callbacks already scheduled in our context finish. */
                for (int i = 0; i < 1000 && g_main_context_iteration(p->ctx, FALSE); i++)
                        ;
        }
        g_queue_clear_full(&p->calls, g_object_unref);
        g_clear_object(&p->reply);
        g_clear_error(&p->reply_error);
        g_clear_object(&p->conn);
        g_clear_object(&p->server);
        g_clear_pointer(&p->node, g_dbus_node_info_unref);
        if (p->ctx) {
                g_main_context_pop_thread_default(p->ctx);
                g_main_context_unref(p->ctx);
        }
        g_free(p->accept_error);
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

static void on_closed(GDBusConnection *conn, gboolean remote, GError *error, gpointer data)
{
        Gdbus *p = data;

        (void) conn;
        (void) remote;
        (void) error;
        p->closed = true;
}

static guint register_object(Gdbus *p, GDBusConnection *conn, GError **error)
{
        return g_dbus_connection_register_object(conn, BENCH_PATH, p->node->interfaces[0],
                                                 &bench_vtable, p, NULL, error);
}

static gboolean on_new_connection(GDBusServer *server, GDBusConnection *conn, gpointer data)
{
        Gdbus *p = data;
        g_autoptr(GError) e = NULL;

        (void) server;
        if (p->conn)
                return FALSE;   /* one client per repetition */
        p->reg_id = register_object(p, conn, &e);
        if (!p->reg_id) {
                g_free(p->accept_error);
                p->accept_error = g_strdup(e->message);
                return FALSE;
        }
        p->conn = g_object_ref(conn);
        p->closed_id = g_signal_connect(conn, "closed", G_CALLBACK(on_closed), p);
        return TRUE;
}

static int server_listen(Endpoint *ep, Gdbus *p)
{
        g_autofree char *guid = g_dbus_generate_guid();
        g_autofree char *addr = p2p_address(ep);
        g_autoptr(GError) e = NULL;
        GDBusServerFlags flags = G_DBUS_SERVER_FLAGS_NONE;

#if GLIB_CHECK_VERSION(2, 68, 0)
        flags |= G_DBUS_SERVER_FLAGS_AUTHENTICATION_REQUIRE_SAME_USER;
#endif
        p->server = g_dbus_server_new_sync(addr, flags, guid, NULL, NULL, &e);
        if (!p->server)
                return fail_gerror(ep, e, "g_dbus_server_new_sync");
        g_signal_connect(p->server, "new-connection", G_CALLBACK(on_new_connection), p);
        g_dbus_server_start(p->server);
        return 0;
}

static int connect_to(Endpoint *ep, Gdbus *p, const char *address, bool bus)
{
        g_autoptr(GError) e = NULL;
        GDBusConnectionFlags flags = G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT;

        if (bus)
                flags |= G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION;
        p->conn = g_dbus_connection_new_for_address_sync(address, flags, NULL, NULL, &e);
        if (!p->conn)
                return endpoint_fail(ep, 0, "connecting to %s: %s", address, e->message);
        g_dbus_connection_set_exit_on_close(p->conn, FALSE);
        p->closed_id = g_signal_connect(p->conn, "closed", G_CALLBACK(on_closed), p);
        return 0;
}

static int request_name(Endpoint *ep, Gdbus *p)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(GVariant) ret = NULL;
        guint32 reply = 0;

        ret = g_dbus_connection_call_sync(p->conn, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                          "org.freedesktop.DBus", "RequestName",
                                          g_variant_new("(su)", BENCH_NAME,
                                                        (guint32) G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE),
                                          G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, &e);
        if (!ret)
                return fail_gerror(ep, e, "RequestName " BENCH_NAME);
        g_variant_get(ret, "(u)", &reply);
        if (reply != 1)   /* DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER */
                return endpoint_fail(ep, EADDRINUSE, "RequestName " BENCH_NAME
                                     ": not the primary owner (reply %u)", reply);
        return 0;
}

static int gdbus_open(Endpoint *ep, Role role)
{
        Gdbus *p = g_new0(Gdbus, 1);
        bool bus = ep->cell->bus != BUS_P2P;
        int r = 0;

        ep->role = role;
        g_queue_init(&p->calls);
        /* GDBus prints sent messages afterwards under G_DBUS_DEBUG=message:
         * then the variants must own their data. */
        p->borrow = g_getenv("G_DBUS_DEBUG") == NULL;
        p->ctx = g_main_context_new();
        g_main_context_push_thread_default(p->ctx);
        if (bus && !ep->bus_address) {
                r = endpoint_fail(ep, EINVAL, "no bus address for bus=%s", bus_name(ep->cell->bus));
                goto out;
        }
        if (role == ROLE_SERVER) {
                g_autoptr(GError) e = NULL;
                g_autofree char *xml = bench_xml(ep->cell);
                p->node = g_dbus_node_info_new_for_xml(xml, &e);
                if (!p->node) {
                        r = fail_gerror(ep, e, "introspection data");
                        goto out;
                }
                if (!bus) {
                        r = server_listen(ep, p);
                        goto out;
                }
                r = connect_to(ep, p, ep->bus_address, true);
                if (r < 0)
                        goto out;
                p->reg_id = register_object(p, p->conn, &e);
                if (!p->reg_id) {
                        r = fail_gerror(ep, e, "g_dbus_connection_register_object");
                        goto out;
                }
                r = request_name(ep, p);
        } else if (bus) {
                p->dest = BENCH_NAME;
                r = connect_to(ep, p, ep->bus_address, true);
        } else {
                g_autofree char *addr = p2p_address(ep);
                r = connect_to(ep, p, addr, false);
        }
out:
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
                if (p->accept_error)
                        return endpoint_fail(ep, ECONNREFUSED, "accepting the p2p client: %s",
                                             p->accept_error);
                if (p->closed)
                        return endpoint_fail(ep, ECONNRESET, "the connection closed");
                g_main_context_iteration(p->ctx, TRUE);
                if (p->server && p->conn) {
                        g_dbus_server_stop(p->server);   /* the client is in */
                        g_signal_handlers_disconnect_by_data(p->server, p);
                        g_clear_object(&p->server);
                }
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
                if (!g_dbus_connection_send_message(p->conn, m, G_DBUS_SEND_MESSAGE_FLAGS_NONE, NULL, &e))
                        return fail_gerror(ep, e, "g_dbus_connection_send_message");
                /* The worker's queue is unbounded: keep a one-way stream
                 * from outrunning the socket by more than FLUSH_BYTES. */
                p->unflushed += len + MESSAGE_OVERHEAD;
                if (p->unflushed >= FLUSH_BYTES) {
                        p->unflushed = 0;
                        if (!g_dbus_connection_flush_sync(p->conn, NULL, &e))
                                return fail_gerror(ep, e, "g_dbus_connection_flush_sync");
                }
        } else {
                p->waiting = true;
                p->short_due = ep->cell->reply == REPLY_SHORT && strcmp(member, "End") != 0;
                p->unflushed = 0;
                g_dbus_connection_send_message_with_reply(p->conn, m, G_DBUS_SEND_MESSAGE_FLAGS_NONE,
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
                g_main_context_iteration(p->ctx, TRUE);
        if (p->reply_error) {
                int r = fail_gerror(ep, p->reply_error, "the call failed");
                g_clear_error(&p->reply_error);
                return r;
        }
        reply = g_steal_pointer(&p->reply);
        if (g_dbus_message_to_gerror(reply, &e))
                return fail_gerror(ep, e, "the call failed");
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
        ret = g_dbus_connection_call_sync(p->conn, p->dest, BENCH_PATH, BENCH_IFACE,
                                          request_member(ep, len), make_body(ep, p, data, len),
                                          NULL, G_DBUS_CALL_FLAGS_NONE, G_MAXINT, NULL, &e);
        release_hold(p);
        if (!ret)
                return fail_gerror(ep, e, "the call failed");
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

/* roles=threads is refused: GDBus does the socket I/O of every
 * connection of a process in one worker thread, which two roles in one
 * process would share; neither role's thread CPU clock would hold it. */
static const char *gdbus_refuses(const Cell *cell)
{
        return cell->roles == ROLES_THREADS
               ? "roles=threads: GDBus does every connection's I/O in one worker thread per process, "
                 "which the two roles would share (and neither role's thread CPU clock holds)"
               : NULL;
}

const Transport transport_gdbus = {
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
        .name = "gdbus",
        .family = "dbus",
        .summary = "GDBus (GIO) method calls: worker thread plus a GMainContext",
        .flags = TRANSPORT_DBUS | TRANSPORT_MARSHAL | TRANSPORT_VALIDATES | TRANSPORT_EMPTY_OK |
                 TRANSPORT_COPY_STRING | TRANSPORT_SHORT_REPLY,
        .unavailable = gdbus_unavailable,
        .open = gdbus_open,
};

#endif /* IPCLAB_HAVE_GIO */
