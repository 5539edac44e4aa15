/* libdbus.c: D-Bus method calls through libdbus-1, the reference library.
 *
 * Used the way a small C program without a main loop uses it: a private
 * connection (dbus_connection_open_private, never the shared dbus_bus_get
 * one), blocking dbus_connection_read_write() and dbus_connection_pop_message()
 * on the receiving side, dbus_connection_send_with_reply_and_block() for a
 * round trip.  Byte arrays are appended with
 * dbus_message_iter_append_fixed_array() and read with get_fixed_array();
 * per-element marshalling appends and reads them one byte at a time,
 * append-per-element appends per byte and reads the array whole.
 *
 * Wire protocol, shared with gdbus.c and sd-bus.c: object /org/ipclab/Bench,
 * interface org.ipclab.Bench, methods SendBytes(ay), SendString(s),
 * SendEmpty() and End().  Replies carry `ay` (or `s` when the cell's payload
 * is a string), or no argument at all when empty.  On a bus the server owns
 * org.ipclab.Bench; peer to peer it listens on unix:path=DIR/p2p.
 */
#include <ipclab/transport.h>
#include "transport.h"

#include <errno.h>
#include <string.h>

#ifdef IPCLAB_HAVE_LIBDBUS

#include <poll.h>

#include <dbus/dbus.h>

#include "bench-names.h"
#define MAX_WATCHES 4

typedef struct {
        DBusConnection *conn;
        DBusServer *server;             /* p2p server, until its client is in */
        DBusWatch *watch[MAX_WATCHES];  /* the server's listening watches */
        size_t n_watch;
        DBusMessage *request;           /* server: the call send() answers */
        DBusMessage *held;              /* keeps the data recv()/call() handed out */
        dbus_uint32_t pending;          /* client: the serial recv() waits for */
        const char *dest;               /* the bus name, NULL peer to peer */
} Libdbus;

static const char *libdbus_unavailable(void)
{
        return NULL;
}

/* The D-Bus specification caps arrays at 64 MiB (messages at 128 MiB). */
static size_t libdbus_max_size(const IpclabCell *cell)
{
        (void) cell;
        return (size_t) DBUS_MAXIMUM_ARRAY_LENGTH;
}

/* Sets ep->why from a DBusError, frees it and returns -EIO. */
static int fail_error(Endpoint *ep, DBusError *err, const char *what)
{
        int r = endpoint_fail(ep, 0, "%s: %s (%s)", what,
                              err->message ? err->message : "unknown error",
                              err->name ? err->name : "no error name");

        dbus_error_free(err);
        return r;
}

static void release_hold(Libdbus *p)
{
        if (p->held) {
                dbus_message_unref(p->held);
                p->held = NULL;
        }
}

/* unix:path=DIR/p2p, escaped as a D-Bus address; free with g_free. */
static char *p2p_address(const Endpoint *ep)
{
        g_autofree char *path = g_build_filename(ep->dir, "p2p", NULL);
        char *esc = dbus_address_escape_value(path);
        char *addr;

        if (!esc)
                return NULL;
        addr = g_strconcat("unix:path=", esc, NULL);
        dbus_free(esc);
        return addr;
}

static void libdbus_free(Libdbus *p)
{
        if (!p)
                return;
        release_hold(p);
        if (p->request)
                dbus_message_unref(p->request);
        if (p->conn) {
                if (dbus_connection_get_is_connected(p->conn))
                        dbus_connection_flush(p->conn);
                dbus_connection_close(p->conn);
                dbus_connection_unref(p->conn);
        }
        if (p->server) {
                dbus_server_disconnect(p->server);
                dbus_server_unref(p->server);
        }
        g_free(p);
}

/* --- peer to peer: a DBusServer driven by a minimal poll loop --------- */

static dbus_bool_t watch_add(DBusWatch *w, void *data)
{
        Libdbus *p = data;

        if (p->n_watch == MAX_WATCHES)
                return FALSE;
        p->watch[p->n_watch++] = w;
        return TRUE;
}

static void watch_remove(DBusWatch *w, void *data)
{
        Libdbus *p = data;

        for (size_t i = 0; i < p->n_watch; i++) {
                if (p->watch[i] == w) {
                        p->watch[i] = p->watch[--p->n_watch];
                        return;
                }
        }
}

static void watch_toggled(DBusWatch *w, void *data)
{
        /* Read again by server_accept() on every round. */
        (void) w;
        (void) data;
}

static void on_new_connection(DBusServer *server, DBusConnection *conn, void *data)
{
        Libdbus *p = data;

        (void) server;
        if (p->conn)
                return;   /* one client per repetition; a second one is dropped */
        p->conn = dbus_connection_ref(conn);
        dbus_connection_set_exit_on_disconnect(conn, FALSE);
}

static int server_listen(Endpoint *ep, Libdbus *p)
{
        static const char *mechanisms[] = { "EXTERNAL", NULL };
        g_autofree char *addr = p2p_address(ep);
        DBusError err;

        if (!addr)
                return endpoint_fail(ep, ENOMEM, "escaping the p2p address");
        dbus_error_init(&err);
        p->server = dbus_server_listen(addr, &err);
        if (!p->server)
                return fail_error(ep, &err, "dbus_server_listen");
        if (!dbus_server_set_auth_mechanisms(p->server, mechanisms))
                return endpoint_fail(ep, ENOMEM, "dbus_server_set_auth_mechanisms");
        dbus_server_set_new_connection_function(p->server, on_new_connection, p, NULL);
        if (!dbus_server_set_watch_functions(p->server, watch_add, watch_remove,
                                             watch_toggled, p, NULL))
                return endpoint_fail(ep, ENOMEM, "dbus_server_set_watch_functions");
        return 0;
}

/* Waits for the client to connect, then stops listening. */
static int server_accept(Endpoint *ep, Libdbus *p)
{
        while (!p->conn) {
                struct pollfd pfd[MAX_WATCHES];
                DBusWatch *w[MAX_WATCHES];
                size_t n = 0;

                for (size_t i = 0; i < p->n_watch; i++) {
                        unsigned flags = dbus_watch_get_flags(p->watch[i]);
                        if (!dbus_watch_get_enabled(p->watch[i]))
                                continue;
                        w[n] = p->watch[i];
                        pfd[n].fd = dbus_watch_get_unix_fd(w[n]);
                        pfd[n].events = ((flags & DBUS_WATCH_READABLE) ? POLLIN : 0) |
                                        ((flags & DBUS_WATCH_WRITABLE) ? POLLOUT : 0);
                        pfd[n].revents = 0;
                        n++;
                }
                if (n == 0)
                        return endpoint_fail(ep, EIO, "the p2p server stopped listening");
                if (poll(pfd, n, -1) < 0) {
                        if (errno == EINTR)
                                continue;
                        return endpoint_fail(ep, errno, "poll on the p2p server");
                }
                /* Handle one watch per round: handling may change the set. */
                for (size_t i = 0; i < n; i++) {
                        unsigned flags = 0;
                        if (pfd[i].revents & POLLIN)
                                flags |= DBUS_WATCH_READABLE;
                        if (pfd[i].revents & POLLOUT)
                                flags |= DBUS_WATCH_WRITABLE;
                        if (pfd[i].revents & POLLERR)
                                flags |= DBUS_WATCH_ERROR;
                        if (pfd[i].revents & POLLHUP)
                                flags |= DBUS_WATCH_HANGUP;
                        if (!flags)
                                continue;
                        if (!dbus_watch_handle(w[i], flags))
                                return endpoint_fail(ep, ENOMEM, "dbus_watch_handle");
                        break;
                }
        }
        dbus_server_disconnect(p->server);
        dbus_server_unref(p->server);
        p->server = NULL;
        return 0;
}

/* --- opening ---------------------------------------------------------- */

static int connect_bus(Endpoint *ep, Libdbus *p, const char *address, bool bus)
{
        DBusError err;

        dbus_error_init(&err);
        p->conn = dbus_connection_open_private(address, &err);
        if (!p->conn)
                return fail_error(ep, &err, "dbus_connection_open_private");
        dbus_connection_set_exit_on_disconnect(p->conn, FALSE);
        if (bus && !dbus_bus_register(p->conn, &err))
                return fail_error(ep, &err, "dbus_bus_register");
        return 0;
}

static int libdbus_open(Endpoint *ep, Role role)
{
        Libdbus *p = g_new0(Libdbus, 1);
        bool bus = ep->cell->bus != BUS_P2P;
        int r = 0;

        ep->role = role;
        if (bus && !ep->bus_address) {
                r = endpoint_fail(ep, EINVAL, "no bus address for bus=%s", bus_name(ep->cell->bus));
                goto out;
        }
        if (role == ROLE_SERVER) {
                if (!bus) {
                        r = server_listen(ep, p);
                        goto out;
                }
                r = connect_bus(ep, p, ep->bus_address, true);
                if (r < 0)
                        goto out;
                DBusError err;
                dbus_error_init(&err);
                int reply = dbus_bus_request_name(p->conn, BENCH_NAME, DBUS_NAME_FLAG_DO_NOT_QUEUE, &err);
                if (reply < 0) {
                        r = fail_error(ep, &err, "RequestName " BENCH_NAME);
                        goto out;
                }
                if (reply != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
                        r = endpoint_fail(ep, EADDRINUSE, "RequestName " BENCH_NAME
                                          ": not the primary owner (reply %d)", reply);
                        goto out;
                }
        } else if (bus) {
                p->dest = BENCH_NAME;
                r = connect_bus(ep, p, ep->bus_address, true);
        } else {
                g_autofree char *addr = p2p_address(ep);
                r = addr ? connect_bus(ep, p, addr, false)
                         : endpoint_fail(ep, ENOMEM, "escaping the p2p address");
        }
out:
        if (r < 0) {
                libdbus_free(p);
                return r;
        }
        ep->priv = p;
        return 0;
}

/* --- messages --------------------------------------------------------- */

/* Appends the payload: nothing when LEN is 0, else `s` for string cells
 * and `ay` otherwise (the ack of a callrate cell is a byte array). */
static int append_payload(Endpoint *ep, DBusMessage *m, const void *data, size_t len)
{
        DBusMessageIter it, sub;

        if (len == 0)
                return 0;
        dbus_message_iter_init_append(m, &it);
        if (ep->cell->payload == PAYLOAD_STRING) {
                const char *s = data;
                if (!dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &s))
                        return endpoint_fail(ep, ENOMEM, "appending a string of %zu bytes", len);
                return 0;
        }
        if (!dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, DBUS_TYPE_BYTE_AS_STRING, &sub))
                return endpoint_fail(ep, ENOMEM, "opening a byte array");
        if (marshal_appends_per_element(ep->cell->marshal)) {
                const unsigned char *b = data;
                for (size_t i = 0; i < len; i++) {
                        if (!dbus_message_iter_append_basic(&sub, DBUS_TYPE_BYTE, &b[i])) {
                                dbus_message_iter_abandon_container_if_open(&it, &sub);
                                return endpoint_fail(ep, ENOMEM, "appending byte %zu", i);
                        }
                }
        } else {
                const unsigned char *b = data;
                if (!dbus_message_iter_append_fixed_array(&sub, DBUS_TYPE_BYTE, &b, (int) len)) {
                        dbus_message_iter_abandon_container_if_open(&it, &sub);
                        return endpoint_fail(ep, ENOMEM, "appending %zu bytes", len);
                }
        }
        if (!dbus_message_iter_close_container(&it, &sub))
                return endpoint_fail(ep, ENOMEM, "closing a byte array");
        return 0;
}

/* Reads the payload of M (no argument, `ay` or `s`).  Strings and fixed
 * arrays point into M, which the caller keeps; a per-element array is
 * read byte by byte into the endpoint's buffer. */
static int read_payload(Endpoint *ep, DBusMessage *m, const void **data, size_t *len)
{
        DBusMessageIter it, sub;

        if (!dbus_message_iter_init(m, &it)) {
                *data = "";
                *len = 0;
                return 0;
        }
        int type = dbus_message_iter_get_arg_type(&it);
        if (type == DBUS_TYPE_STRING) {
                const char *s;
                dbus_message_iter_get_basic(&it, &s);
                *data = s;
                *len = strlen(s);
                return 0;
        }
        if (type != DBUS_TYPE_ARRAY || dbus_message_iter_get_element_type(&it) != DBUS_TYPE_BYTE)
                return endpoint_fail(ep, EPROTO, "unexpected message signature '%s'",
                                     dbus_message_get_signature(m));
        dbus_message_iter_recurse(&it, &sub);
        if (ep->cell->marshal != MARSHAL_PER_ELEMENT) {
                /* The fixed-array path: the bytes stay in M, no copy. */
                const unsigned char *a = NULL;
                int got = 0;
                dbus_message_iter_get_fixed_array(&sub, &a, &got);
                *data = got > 0 ? (const void *) a : "";
                *len = (size_t) got;
                return 0;
        }
        int n = dbus_message_iter_get_element_count(&it);
        unsigned char *buf = endpoint_buffer(ep, (size_t) n + 1);
        if (!buf)
                return endpoint_fail(ep, ENOMEM, "receive buffer of %d bytes", n + 1);
        int i = 0;
        while (i < n && dbus_message_iter_get_arg_type(&sub) == DBUS_TYPE_BYTE) {
                dbus_message_iter_get_basic(&sub, &buf[i++]);
                dbus_message_iter_next(&sub);
        }
        n = i;
        buf[n] = '\0';
        *data = buf;
        *len = (size_t) n;
        return 0;
}

static bool is_disconnected(DBusMessage *m)
{
        return dbus_message_is_signal(m, DBUS_INTERFACE_LOCAL, "Disconnected");
}

/* Blocks until a message is in the incoming queue and pops it. */
static int pop_message(Endpoint *ep, Libdbus *p, DBusMessage **out)
{
        for (;;) {
                DBusMessage *m = dbus_connection_pop_message(p->conn);
                if (m) {
                        if (is_disconnected(m)) {
                                dbus_message_unref(m);
                                return endpoint_fail(ep, ECONNRESET, "the peer disconnected");
                        }
                        *out = m;
                        return 0;
                }
                if (!dbus_connection_get_is_connected(p->conn))
                        return endpoint_fail(ep, ECONNRESET, "the connection closed");
                /* Its result says whether the connection is still up; what
                 * it read before a disconnect is in the queue all the same,
                 * so the next round pops that first. */
                (void) dbus_connection_read_write(p->conn, -1);
        }
}

static int send_message(Endpoint *ep, Libdbus *p, DBusMessage *m, dbus_uint32_t *serial)
{
        bool ok = dbus_connection_send(p->conn, m, serial);

        dbus_message_unref(m);
        if (!ok)
                return endpoint_fail(ep, ENOMEM, "dbus_connection_send");
        /* Write it out now: bounds the outgoing queue of a one-way stream. */
        dbus_connection_flush(p->conn);
        if (!dbus_connection_get_is_connected(p->conn))
                return endpoint_fail(ep, ECONNRESET, "the connection closed while sending");
        return 0;
}

static const char *request_member(const Endpoint *ep, size_t len)
{
        if (len == 0)
                return "SendEmpty";
        return ep->cell->payload == PAYLOAD_STRING ? "SendString" : "SendBytes";
}

static DBusMessage *new_call(Endpoint *ep, Libdbus *p, const char *member,
                             const void *data, size_t len, int *r)
{
        DBusMessage *m = dbus_message_new_method_call(p->dest, BENCH_PATH, BENCH_IFACE, member);

        if (!m) {
                *r = endpoint_fail(ep, ENOMEM, "dbus_message_new_method_call");
                return NULL;
        }
        *r = append_payload(ep, m, data, len);
        if (*r < 0) {
                dbus_message_unref(m);
                return NULL;
        }
        return m;
}

/* --- server ----------------------------------------------------------- */

static int server_recv(Endpoint *ep, Libdbus *p, const void **data, size_t *len)
{
        int r;

        if (!p->conn) {
                r = server_accept(ep, p);
                if (r < 0)
                        return r;
        }
        release_hold(p);
        if (p->request) {
                dbus_message_unref(p->request);
                p->request = NULL;
        }
        for (;;) {
                DBusMessage *m;
                r = pop_message(ep, p, &m);
                if (r < 0)
                        return r;
                if (dbus_message_get_type(m) != DBUS_MESSAGE_TYPE_METHOD_CALL ||
                    !dbus_message_has_interface(m, BENCH_IFACE)) {
                        /* NameAcquired and the like; calls to anything else
                         * are answered with an error, as a service would. */
                        if (dbus_message_get_type(m) == DBUS_MESSAGE_TYPE_METHOD_CALL &&
                            !dbus_message_get_no_reply(m)) {
                                DBusMessage *e = dbus_message_new_error(m, DBUS_ERROR_UNKNOWN_METHOD,
                                                                        "ipclab serves org.ipclab.Bench only");
                                if (e) {
                                        dbus_connection_send(p->conn, e, NULL);
                                        dbus_message_unref(e);
                                }
                        }
                        dbus_message_unref(m);
                        continue;
                }
                if (dbus_message_has_member(m, "End")) {
                        p->request = m;
                        return 0;
                }
                r = read_payload(ep, m, data, len);
                if (r < 0) {
                        dbus_message_unref(m);
                        return r;
                }
                p->held = m;
                if (!dbus_message_get_no_reply(m))
                        p->request = dbus_message_ref(m);
                return 1;
        }
}

static int server_send(Endpoint *ep, Libdbus *p, const void *data, size_t len)
{
        DBusMessage *reply;
        int r;

        if (!p->request)
                return endpoint_fail(ep, EPROTO, "no request to answer");
        reply = dbus_message_new_method_return(p->request);
        if (!reply)
                return endpoint_fail(ep, ENOMEM, "dbus_message_new_method_return");
        r = append_payload(ep, reply, data, len);
        if (r < 0) {
                dbus_message_unref(reply);
                return r;
        }
        r = send_message(ep, p, reply, NULL);
        /* DATA may point into the request: release it only now. */
        dbus_message_unref(p->request);
        p->request = NULL;
        release_hold(p);
        return r;
}

/* --- client ----------------------------------------------------------- */

static int client_send(Endpoint *ep, Libdbus *p, const char *member,
                       const void *data, size_t len, unsigned flags)
{
        int r;
        DBusMessage *m;

        if (p->pending)
                return endpoint_fail(ep, EPROTO, "the previous reply was not read");
        m = new_call(ep, p, member, data, len, &r);
        if (!m)
                return r;
        if (flags & SEND_NO_REPLY)
                dbus_message_set_no_reply(m, TRUE);
        dbus_uint32_t serial = 0;
        r = send_message(ep, p, m, &serial);
        if (r < 0)
                return r;
        if (!(flags & SEND_NO_REPLY))
                p->pending = serial;
        release_hold(p);
        return 0;
}

/* Hands out the payload of REPLY (a method return or an error). */
static int take_reply(Endpoint *ep, Libdbus *p, DBusMessage *reply, const void **data, size_t *len)
{
        if (dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_ERROR) {
                DBusError err;
                dbus_error_init(&err);
                dbus_set_error_from_message(&err, reply);
                dbus_message_unref(reply);
                return fail_error(ep, &err, "the call failed");
        }
        int r = read_payload(ep, reply, data, len);
        if (r < 0) {
                dbus_message_unref(reply);
                return r;
        }
        p->held = reply;
        return 1;
}

static int client_recv(Endpoint *ep, Libdbus *p, const void **data, size_t *len)
{
        release_hold(p);
        if (!p->pending)
                return endpoint_fail(ep, EPROTO, "no reply is due");
        for (;;) {
                DBusMessage *m;
                int r = pop_message(ep, p, &m);
                if (r < 0)
                        return r;
                int type = dbus_message_get_type(m);
                if ((type == DBUS_MESSAGE_TYPE_METHOD_RETURN || type == DBUS_MESSAGE_TYPE_ERROR) &&
                    dbus_message_get_reply_serial(m) == p->pending) {
                        p->pending = 0;
                        return take_reply(ep, p, m, data, len);
                }
                dbus_message_unref(m);   /* NameAcquired and the like */
        }
}

static int libdbus_call(Endpoint *ep, const void *data, size_t len,
                        const void **reply, size_t *reply_len, size_t expect)
{
        Libdbus *p = ep->priv;
        DBusError err;
        DBusMessage *m, *rep;
        int r;

        (void) expect;
        m = new_call(ep, p, request_member(ep, len), data, len, &r);
        if (!m)
                return r;
        release_hold(p);
        dbus_error_init(&err);
        rep = dbus_connection_send_with_reply_and_block(p->conn, m, DBUS_TIMEOUT_INFINITE, &err);
        dbus_message_unref(m);
        if (!rep)
                return fail_error(ep, &err, "the call failed");
        return take_reply(ep, p, rep, reply, reply_len);
}

/* --- the ops ---------------------------------------------------------- */

static int libdbus_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        Libdbus *p = ep->priv;

        if (ep->role == ROLE_SERVER)
                return server_send(ep, p, data, len);
        return client_send(ep, p, request_member(ep, len), data, len, flags);
}

static int libdbus_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        Libdbus *p = ep->priv;

        (void) expect;
        if (ep->role == ROLE_SERVER)
                return server_recv(ep, p, data, len);
        return client_recv(ep, p, data, len);
}

static int libdbus_send_end(Endpoint *ep)
{
        return client_send(ep, ep->priv, "End", NULL, 0, 0);
}

static void libdbus_close(Endpoint *ep)
{
        libdbus_free(ep->priv);
        ep->priv = NULL;
}

const Transport transport_libdbus = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "libdbus",
        .family = "dbus",
        .summary = "libdbus-1 method calls, blocking, no main loop",
        .flags = TRANSPORT_DBUS | TRANSPORT_MARSHAL | TRANSPORT_VALIDATES | TRANSPORT_EMPTY_OK | TRANSPORT_THREADS,
        .unavailable = libdbus_unavailable,
        .max_size = libdbus_max_size,
        .open = libdbus_open,
        .send = libdbus_send,
        .recv = libdbus_recv,
        .send_end = libdbus_send_end,
        .call = libdbus_call,
        .close = libdbus_close,
};

#else /* !IPCLAB_HAVE_LIBDBUS */

static const char *libdbus_unavailable(void)
{
        return "built without libdbus-1";
}

static int libdbus_open(Endpoint *ep, Role role)
{
        (void) role;
        return endpoint_fail(ep, ENOTSUP, "built without libdbus-1");
}

const Transport transport_libdbus = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "libdbus",
        .family = "dbus",
        .summary = "libdbus-1 method calls, blocking, no main loop",
        .flags = TRANSPORT_DBUS | TRANSPORT_MARSHAL | TRANSPORT_VALIDATES | TRANSPORT_EMPTY_OK,
        .unavailable = libdbus_unavailable,
        .open = libdbus_open,
};

#endif /* IPCLAB_HAVE_LIBDBUS */
