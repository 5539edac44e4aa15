/* fdpass.c: D-Bus sets up a private channel, the payload bypasses D-Bus.
 *
 * The pattern a maintainer recommends in seed 004: the client calls
 * OpenChannel() on org.ipclab.Bench (through the bus, or peer to peer);
 * the server makes a socketpair(AF_UNIX, SOCK_STREAM) and returns one end
 * as a `h` (Unix fd passing).  From then on requests, replies, the end of
 * the stream (shutdown(SHUT_WR)) and the ack are plain bytes on that
 * socket: the receiver reads exactly the size it expects.  An empty
 * message (callrate) travels as one byte that the receiver drops, since a
 * byte stream cannot carry a message of no bytes.
 *
 * The D-Bus side uses GDBus, which every build has.  The client makes the
 * call in open(); the server, whose open() returns before the client
 * exists, answers it in its first recv().  Either way the exchange happens
 * before the runner's clock starts, so only the channel is measured.
 */
#include <ipclab/transport.h>
#include "transport.h"

#include <errno.h>
#include <string.h>

#ifdef IPCLAB_HAVE_GIO

#include <sys/socket.h>
#include <unistd.h>

#include <gio/gio.h>
#include <gio/gunixfdlist.h>

#define BENCH_NAME "org.ipclab.Bench"
#define BENCH_PATH "/org/ipclab/Bench"
#define BENCH_IFACE "org.ipclab.Bench"

enum { CHANNEL };   /* ep->fd[CHANNEL]: our end of the socketpair */

typedef struct {
        GMainContext *ctx;              /* ours, the thread default while open */
        GDBusConnection *conn;
        GDBusServer *server;            /* p2p server, until its client is in */
        GDBusNodeInfo *node;
        guint reg_id;
        gulong closed_id;
        bool closed;
        char *accept_error;             /* p2p: why the client was refused */
        GDBusMethodInvocation *open_call;  /* server: OpenChannel, once in */
} Fdpass;

static const char bench_xml[] =
        "<node>"
        "  <interface name='" BENCH_IFACE "'>"
        "    <method name='OpenChannel'><arg name='channel' type='h' direction='out'/></method>"
        "  </interface>"
        "</node>";

static const char *fdpass_unavailable(void)
{
        return NULL;
}

static int fail_gerror(Endpoint *ep, const GError *e, const char *what)
{
        return endpoint_fail(ep, 0, "%s: %s", what, e ? e->message : "unknown error");
}

static char *p2p_address(const Endpoint *ep)
{
        g_autofree char *path = g_build_filename(ep->dir, "p2p", NULL);
        g_autofree char *esc = g_dbus_address_escape_value(path);

        return g_strconcat("unix:path=", esc, NULL);
}

static void fdpass_free(Fdpass *p)
{
        if (!p)
                return;
        g_clear_object(&p->open_call);
        if (p->conn) {
                if (p->reg_id)
                        g_dbus_connection_unregister_object(p->conn, p->reg_id);
                if (p->closed_id)
                        g_signal_handler_disconnect(p->conn, p->closed_id);
                if (!g_dbus_connection_is_closed(p->conn)) {
                        g_dbus_connection_flush_sync(p->conn, NULL, NULL);
                        g_dbus_connection_close_sync(p->conn, NULL, NULL);
                }
        }
        if (p->server) {
                g_signal_handlers_disconnect_by_data(p->server, p);
                g_dbus_server_stop(p->server);
        }
        if (p->ctx) {
                for (int i = 0; i < 1000 && g_main_context_iteration(p->ctx, FALSE); i++)
                        ;
        }
        g_clear_object(&p->open_call);   /* in case one arrived meanwhile */
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

/* --- the D-Bus side ----------------------------------------------------- */

static void on_method_call(GDBusConnection *conn, const char *sender, const char *path,
                           const char *iface, const char *method, GVariant *params,
                           GDBusMethodInvocation *inv, gpointer data)
{
        Fdpass *p = data;

        (void) conn;
        (void) sender;
        (void) path;
        (void) iface;
        (void) method;
        (void) params;
        if (p->open_call) {
                g_dbus_method_invocation_return_error_literal(inv, G_DBUS_ERROR, G_DBUS_ERROR_LIMITS_EXCEEDED,
                                                              "one channel per connection");
                return;
        }
        p->open_call = inv;
}

static const GDBusInterfaceVTable bench_vtable = {
        .method_call = on_method_call,
};

static void on_closed(GDBusConnection *conn, gboolean remote, GError *error, gpointer data)
{
        Fdpass *p = data;

        (void) conn;
        (void) remote;
        (void) error;
        p->closed = true;
}

static guint register_object(Fdpass *p, GDBusConnection *conn, GError **error)
{
        return g_dbus_connection_register_object(conn, BENCH_PATH, p->node->interfaces[0],
                                                 &bench_vtable, p, NULL, error);
}

static gboolean on_new_connection(GDBusServer *server, GDBusConnection *conn, gpointer data)
{
        Fdpass *p = data;
        g_autoptr(GError) e = NULL;

        (void) server;
        if (p->conn)
                return FALSE;
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

static int server_listen(Endpoint *ep, Fdpass *p)
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

static int connect_to(Endpoint *ep, Fdpass *p, const char *address, bool bus)
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

static int request_name(Endpoint *ep, Fdpass *p)
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

static int can_pass_fds(Endpoint *ep, GDBusConnection *conn)
{
        if (g_dbus_connection_get_capabilities(conn) & G_DBUS_CAPABILITY_FLAGS_UNIX_FD_PASSING)
                return 0;
        return endpoint_fail(ep, ENOTSUP, "the D-Bus connection cannot pass file descriptors");
}

/* Client: OpenChannel() and keep the descriptor it returns. */
static int open_channel(Endpoint *ep, Fdpass *p, const char *dest)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(GVariant) ret = NULL;
        g_autoptr(GUnixFDList) fds = NULL;
        gint32 idx = -1;
        int r = can_pass_fds(ep, p->conn);

        if (r < 0)
                return r;
        ret = g_dbus_connection_call_with_unix_fd_list_sync(p->conn, dest, BENCH_PATH, BENCH_IFACE,
                                                            "OpenChannel", NULL, G_VARIANT_TYPE("(h)"),
                                                            G_DBUS_CALL_FLAGS_NONE, -1, NULL, &fds,
                                                            NULL, &e);
        if (!ret)
                return fail_gerror(ep, e, "OpenChannel");
        g_variant_get(ret, "(h)", &idx);
        if (!fds || idx < 0 || idx >= g_unix_fd_list_get_length(fds))
                return endpoint_fail(ep, EPROTO, "OpenChannel returned no file descriptor");
        ep->fd[CHANNEL] = g_unix_fd_list_get(fds, idx, &e);   /* a close-on-exec dup */
        if (ep->fd[CHANNEL] < 0)
                return fail_gerror(ep, e, "g_unix_fd_list_get");
        return 0;
}

/* Server: waits for OpenChannel() and answers it with one end of a new
 * socketpair. */
static int serve_channel(Endpoint *ep, Fdpass *p)
{
        g_autoptr(GUnixFDList) fds = NULL;
        g_autoptr(GError) e = NULL;
        int sv[2], r;

        while (!p->open_call) {
                if (p->accept_error)
                        return endpoint_fail(ep, ECONNREFUSED, "accepting the p2p client: %s",
                                             p->accept_error);
                if (p->closed)
                        return endpoint_fail(ep, ECONNRESET, "the connection closed before OpenChannel");
                g_main_context_iteration(p->ctx, TRUE);
                if (p->server && p->conn) {
                        g_dbus_server_stop(p->server);
                        g_signal_handlers_disconnect_by_data(p->server, p);
                        g_clear_object(&p->server);
                }
        }
        GDBusMethodInvocation *inv = g_steal_pointer(&p->open_call);
        r = can_pass_fds(ep, p->conn);
        if (r < 0) {
                g_dbus_method_invocation_return_error_literal(inv, G_DBUS_ERROR, G_DBUS_ERROR_NOT_SUPPORTED,
                                                              "this connection cannot pass file descriptors");
                return r;
        }
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
                r = endpoint_fail(ep, errno, "socketpair");
                g_dbus_method_invocation_return_error_literal(inv, G_DBUS_ERROR, G_DBUS_ERROR_FAILED,
                                                              ep->why);
                return r;
        }
        fds = g_unix_fd_list_new();
        gint idx = g_unix_fd_list_append(fds, sv[1], &e);   /* duplicates sv[1] */
        close(sv[1]);
        if (idx < 0) {
                close(sv[0]);
                r = fail_gerror(ep, e, "g_unix_fd_list_append");
                g_dbus_method_invocation_return_error_literal(inv, G_DBUS_ERROR, G_DBUS_ERROR_FAILED,
                                                              ep->why);
                return r;
        }
        g_dbus_method_invocation_return_value_with_unix_fd_list(inv, g_variant_new("(h)", idx), fds);
        ep->fd[CHANNEL] = sv[0];
        return 0;
}

static int fdpass_open(Endpoint *ep, Role role)
{
        Fdpass *p = g_new0(Fdpass, 1);
        bool bus = ep->cell->bus != BUS_P2P;
        int r = 0;

        ep->role = role;
        p->ctx = g_main_context_new();
        g_main_context_push_thread_default(p->ctx);
        if (bus && !ep->bus_address) {
                r = endpoint_fail(ep, EINVAL, "no bus address for bus=%s", bus_name(ep->cell->bus));
                goto out;
        }
        if (role == ROLE_SERVER) {
                g_autoptr(GError) e = NULL;
                p->node = g_dbus_node_info_new_for_xml(bench_xml, &e);
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
        } else {
                g_autofree char *addr = bus ? NULL : p2p_address(ep);
                r = connect_to(ep, p, bus ? ep->bus_address : addr, bus);
                if (r >= 0)
                        r = open_channel(ep, p, bus ? BENCH_NAME : NULL);
        }
out:
        if (r < 0) {
                io_close(&ep->fd[CHANNEL]);
                fdpass_free(p);
                return r;
        }
        ep->priv = p;
        return 0;
}

/* --- the channel -------------------------------------------------------- */

static const char empty_token = '\0';

static int fdpass_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        int r;

        (void) flags;
        if (ep->fd[CHANNEL] < 0)
                return endpoint_fail(ep, ENOTCONN, "no channel yet");
        if (len == 0)
                r = io_write_all(ep->fd[CHANNEL], &empty_token, 1);
        else
                r = io_write_all(ep->fd[CHANNEL], data, len);
        return r < 0 ? endpoint_fail(ep, -r, "write to the channel") : 0;
}

static int fdpass_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        size_t want = expect ? expect : 1;
        char *buf;
        int r;

        if (ep->fd[CHANNEL] < 0) {
                if (ep->role != ROLE_SERVER)
                        return endpoint_fail(ep, ENOTCONN, "no channel");
                r = serve_channel(ep, ep->priv);
                if (r < 0)
                        return r;
        }
        buf = endpoint_buffer(ep, want + 1);
        if (!buf)
                return endpoint_fail(ep, ENOMEM, "receive buffer of %zu bytes", want + 1);
        r = io_read_exact(ep->fd[CHANNEL], buf, want);
        if (r < 0)
                return endpoint_fail(ep, -r, "read from the channel");
        if (r == 0)
                return 0;
        buf[expect] = '\0';
        *data = buf;
        *len = expect;
        return 1;
}

static int fdpass_send_end(Endpoint *ep)
{
        if (shutdown(ep->fd[CHANNEL], SHUT_WR) < 0)
                return endpoint_fail(ep, errno, "shutdown of the channel");
        return 0;
}

static void fdpass_close(Endpoint *ep)
{
        io_close(&ep->fd[CHANNEL]);
        fdpass_free(ep->priv);
        ep->priv = NULL;
}

const Transport transport_fdpass = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "fdpass",
        .family = "dbus",
        .summary = "a socketpair passed over D-Bus (OpenChannel -> h), then plain bytes",
        .flags = TRANSPORT_DBUS | TRANSPORT_EMPTY_OK | TRANSPORT_THREADS,
        .unavailable = fdpass_unavailable,
        .open = fdpass_open,
        .send = fdpass_send,
        .recv = fdpass_recv,
        .send_end = fdpass_send_end,
        .close = fdpass_close,
};

#else /* !IPCLAB_HAVE_GIO */

static const char *fdpass_unavailable(void)
{
        return "built without gio-2.0";
}

static int fdpass_open(Endpoint *ep, Role role)
{
        (void) role;
        return endpoint_fail(ep, ENOTSUP, "built without gio-2.0");
}

const Transport transport_fdpass = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "fdpass",
        .family = "dbus",
        .summary = "a socketpair passed over D-Bus (OpenChannel -> h), then plain bytes",
        .flags = TRANSPORT_DBUS | TRANSPORT_EMPTY_OK,
        .unavailable = fdpass_unavailable,
        .open = fdpass_open,
};

#endif /* IPCLAB_HAVE_GIO */
