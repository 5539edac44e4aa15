/* gdbus-link.c: the GDBus connection that gdbus.c and fdpass.c share
 * (gdbus-link.h). */
#include <ipclab/transport.h>
#include "transport.h"

#ifdef IPCLAB_HAVE_GIO

#include <errno.h>

#include "bench-names.h"
#include "gdbus-link.h"

void gdbus_link_init(GdbusLink *l, const GDBusInterfaceVTable *vtable, gpointer user)
{
        l->vtable = vtable;
        l->user = user;
        l->ctx = g_main_context_new();
        g_main_context_push_thread_default(l->ctx);
}

int gdbus_link_fail(Endpoint *ep, const GError *e, const char *what)
{
        return endpoint_fail(ep, 0, "%s: %s", what, e ? e->message : "unknown error");
}

char *gdbus_link_p2p_address(const Endpoint *ep)
{
        g_autofree char *path = g_build_filename(ep->dir, "p2p", NULL);
        g_autofree char *esc = g_dbus_address_escape_value(path);

        return g_strconcat("unix:path=", esc, NULL);
}

static int gdbus_link_node(Endpoint *ep, GdbusLink *l, const char *xml)
{
        g_autoptr(GError) e = NULL;

        l->node = g_dbus_node_info_new_for_xml(xml, &e);
        return l->node ? 0 : gdbus_link_fail(ep, e, "introspection data");
}

static void on_closed(GDBusConnection *conn, gboolean remote, GError *error, gpointer data)
{
        GdbusLink *l = data;

        (void) conn;
        (void) remote;
        (void) error;
        l->closed = true;
}

static guint register_object(GdbusLink *l, GDBusConnection *conn, GError **error)
{
        return g_dbus_connection_register_object(conn, BENCH_PATH, l->node->interfaces[0], l->vtable,
                                                 l->user, NULL, error);
}

static gboolean on_new_connection(GDBusServer *server, GDBusConnection *conn, gpointer data)
{
        GdbusLink *l = data;
        g_autoptr(GError) e = NULL;

        (void) server;
        if (l->conn)
                return FALSE;   /* one client per repetition */
        l->reg_id = register_object(l, conn, &e);
        if (!l->reg_id) {
                g_free(l->accept_error);
                l->accept_error = g_strdup(e->message);
                return FALSE;
        }
        l->conn = g_object_ref(conn);
        l->closed_id = g_signal_connect(conn, "closed", G_CALLBACK(on_closed), l);
        return TRUE;
}

static int gdbus_link_listen(Endpoint *ep, GdbusLink *l)
{
        g_autofree char *guid = g_dbus_generate_guid();
        g_autofree char *addr = gdbus_link_p2p_address(ep);
        g_autoptr(GError) e = NULL;
        GDBusServerFlags flags = G_DBUS_SERVER_FLAGS_NONE;

#if GLIB_CHECK_VERSION(2, 68, 0)
        flags |= G_DBUS_SERVER_FLAGS_AUTHENTICATION_REQUIRE_SAME_USER;
#endif
        l->server = g_dbus_server_new_sync(addr, flags, guid, NULL, NULL, &e);
        if (!l->server)
                return gdbus_link_fail(ep, e, "g_dbus_server_new_sync");
        g_signal_connect(l->server, "new-connection", G_CALLBACK(on_new_connection), l);
        g_dbus_server_start(l->server);
        return 0;
}

static int gdbus_link_connect(Endpoint *ep, GdbusLink *l, const char *address, bool bus)
{
        g_autoptr(GError) e = NULL;
        GDBusConnectionFlags flags = G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT;

        if (bus)
                flags |= G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION;
        l->conn = g_dbus_connection_new_for_address_sync(address, flags, NULL, NULL, &e);
        if (!l->conn)
                return endpoint_fail(ep, 0, "connecting to %s: %s", address, e->message);
        g_dbus_connection_set_exit_on_close(l->conn, FALSE);
        l->closed_id = g_signal_connect(l->conn, "closed", G_CALLBACK(on_closed), l);
        return 0;
}

static int gdbus_link_serve_on_bus(Endpoint *ep, GdbusLink *l)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(GVariant) ret = NULL;
        guint32 reply = 0;

        l->reg_id = register_object(l, l->conn, &e);
        if (!l->reg_id)
                return gdbus_link_fail(ep, e, "g_dbus_connection_register_object");
        ret = g_dbus_connection_call_sync(l->conn, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                          "org.freedesktop.DBus", "RequestName",
                                          g_variant_new("(su)", BENCH_NAME,
                                                        (guint32) G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE),
                                          G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, &e);
        if (!ret)
                return gdbus_link_fail(ep, e, "RequestName " BENCH_NAME);
        g_variant_get(ret, "(u)", &reply);
        if (reply != 1)   /* DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER */
                return endpoint_fail(ep, EADDRINUSE, "RequestName " BENCH_NAME
                                     ": not the primary owner (reply %u)", reply);
        return 0;
}

int gdbus_link_open(Endpoint *ep, GdbusLink *l, Role role, const char *xml)
{
        bool bus = ep->cell->bus != BUS_P2P;
        int r;

        if (bus && !ep->bus_address)
                return endpoint_fail(ep, EINVAL, "no bus address for bus=%s", bus_name(ep->cell->bus));
        if (role == ROLE_CLIENT) {
                g_autofree char *addr = bus ? NULL : gdbus_link_p2p_address(ep);
                return gdbus_link_connect(ep, l, bus ? ep->bus_address : addr, bus);
        }
        r = gdbus_link_node(ep, l, xml);
        if (r < 0)
                return r;
        if (!bus)
                return gdbus_link_listen(ep, l);
        r = gdbus_link_connect(ep, l, ep->bus_address, true);
        return r < 0 ? r : gdbus_link_serve_on_bus(ep, l);
}

static void stop_listening(GdbusLink *l)
{
        g_signal_handlers_disconnect_by_data(l->server, l);
        g_dbus_server_stop(l->server);
}

int gdbus_link_iterate(Endpoint *ep, GdbusLink *l, const char *closed_why)
{
        if (l->accept_error)
                return endpoint_fail(ep, ECONNREFUSED, "accepting the p2p client: %s", l->accept_error);
        if (l->closed)
                return endpoint_fail(ep, ECONNRESET, "%s", closed_why);
        g_main_context_iteration(l->ctx, TRUE);
        if (l->server && l->conn) {   /* the client is in */
                stop_listening(l);
                g_clear_object(&l->server);
        }
        return 0;
}

void gdbus_link_shut(GdbusLink *l)
{
        if (l->conn) {
                if (l->reg_id)
                        g_dbus_connection_unregister_object(l->conn, l->reg_id);
                if (l->closed_id)
                        g_signal_handler_disconnect(l->conn, l->closed_id);
                if (!g_dbus_connection_is_closed(l->conn)) {
                        g_dbus_connection_flush_sync(l->conn, NULL, NULL);
                        g_dbus_connection_close_sync(l->conn, NULL, NULL);
                }
        }
        if (l->server)
                stop_listening(l);
        if (l->ctx) {
                /* Let callbacks already scheduled in our context finish. */
                for (int i = 0; i < 1000 && g_main_context_iteration(l->ctx, FALSE); i++)
                        ;
        }
}

void gdbus_link_clear(GdbusLink *l)
{
        g_clear_object(&l->conn);
        g_clear_object(&l->server);
        g_clear_pointer(&l->node, g_dbus_node_info_unref);
        if (l->ctx) {
                g_main_context_pop_thread_default(l->ctx);
                g_clear_pointer(&l->ctx, g_main_context_unref);
        }
        g_clear_pointer(&l->accept_error, g_free);
}

#endif /* IPCLAB_HAVE_GIO */
