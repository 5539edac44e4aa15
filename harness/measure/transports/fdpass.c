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

#include "bench-names.h"
#include "gdbus-link.h"


enum { CHANNEL };   /* ep->fd[CHANNEL]: our end of the socketpair */

typedef struct {
        GdbusLink l;                    /* the D-Bus side (gdbus-link.h) */
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

static void fdpass_free(Fdpass *p)
{
        if (!p)
                return;
        g_clear_object(&p->open_call);
        gdbus_link_shut(&p->l);
        g_clear_object(&p->open_call);   /* in case one arrived meanwhile */
        gdbus_link_clear(&p->l);
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
        int r = can_pass_fds(ep, p->l.conn);

        if (r < 0)
                return r;
        ret = g_dbus_connection_call_with_unix_fd_list_sync(p->l.conn, dest, BENCH_PATH, BENCH_IFACE,
                                                            "OpenChannel", NULL, G_VARIANT_TYPE("(h)"),
                                                            G_DBUS_CALL_FLAGS_NONE, -1, NULL, &fds,
                                                            NULL, &e);
        if (!ret)
                return gdbus_link_fail(ep, e, "OpenChannel");
        g_variant_get(ret, "(h)", &idx);
        if (!fds || idx < 0 || idx >= g_unix_fd_list_get_length(fds))
                return endpoint_fail(ep, EPROTO, "OpenChannel returned no file descriptor");
        ep->fd[CHANNEL] = g_unix_fd_list_get(fds, idx, &e);   /* a close-on-exec dup */
        if (ep->fd[CHANNEL] < 0)
                return gdbus_link_fail(ep, e, "g_unix_fd_list_get");
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
                r = gdbus_link_iterate(ep, &p->l, "the connection closed before OpenChannel");
                if (r < 0)
                        return r;
        }
        GDBusMethodInvocation *inv = g_steal_pointer(&p->open_call);
        r = can_pass_fds(ep, p->l.conn);
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
                r = gdbus_link_fail(ep, e, "g_unix_fd_list_append");
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
        int r;

        ep->role = role;
        gdbus_link_init(&p->l, &bench_vtable, p);
        r = gdbus_link_open(ep, &p->l, role, bench_xml);
        if (r >= 0 && role == ROLE_CLIENT)
                r = open_channel(ep, p, ep->cell->bus != BUS_P2P ? BENCH_NAME : NULL);
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
