/* sd-bus.c: D-Bus method calls through sd-bus (libsystemd).
 *
 * Used as a systemd service would use it: the server registers a vtable
 * for org.ipclab.Bench (the method handlers queue the calls) and drives
 * the connection with sd_bus_process()/sd_bus_wait(); a client round trip
 * is sd_bus_call().  Peer to peer, the server listens on DIR/p2p itself and
 * turns the accepted socket into a server-side bus (sd_bus_set_server) in
 * its first recv().
 *
 * Byte arrays go through sd_bus_message_append_array() and
 * sd_bus_message_read_array(); per-element marshalling appends and reads
 * the `ay` with sd_bus_message_append_basic()/read_basic() per byte;
 * append-per-element appends per byte, as seed 004 found sdbus-c++ did,
 * and reads the array whole with sd_bus_message_read_array() (004's server
 * never read it).  The wire protocol is the one libdbus.c describes.
 */
#include <ipclab/transport.h>
#include "transport.h"

#include <errno.h>
#include <string.h>

#ifdef IPCLAB_HAVE_SDBUS

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <systemd/sd-bus.h>
#include <systemd/sd-id128.h>

#include "bench-names.h"

typedef struct {
        sd_bus *bus;
        sd_bus_slot *slot;
        sd_bus_vtable vtable[6];        /* built for the cell: see add_object() */
        int listen_fd;                  /* p2p server, until its client is in */
        GQueue calls;                   /* sd_bus_message *, not yet taken */
        sd_bus_message *request;        /* server: the call send() answers */
        sd_bus_message *held;           /* keeps the data handed out alive */
        uint64_t pending;               /* client: the cookie recv() waits for */
        const char *dest;               /* the bus name, NULL peer to peer */
} Sdbus;

static const char *sdbus_unavailable(void)
{
        return NULL;
}

/* The D-Bus specification caps arrays at 64 MiB (messages at 128 MiB). */
static size_t sdbus_max_size(const IpclabCell *cell)
{
        (void) cell;
        return (size_t) 64 << 20;
}

static int fail_errno(Endpoint *ep, int r, const char *what)
{
        return endpoint_fail(ep, r < 0 ? -r : EIO, "%s", what);
}

static void release_hold(Sdbus *p)
{
        p->held = sd_bus_message_unref(p->held);
}

static void sdbus_free(Sdbus *p)
{
        if (!p)
                return;
        release_hold(p);
        p->request = sd_bus_message_unref(p->request);
        sd_bus_message *m;
        while ((m = g_queue_pop_head(&p->calls)))
                sd_bus_message_unref(m);
        p->slot = sd_bus_slot_unref(p->slot);
        /* Flushes what is queued (the ack), closes, drops the reference. */
        p->bus = sd_bus_flush_close_unref(p->bus);
        if (p->listen_fd >= 0)
                close(p->listen_fd);
        g_free(p);
}

/* --- server side ------------------------------------------------------- */

static int on_call(sd_bus_message *m, void *data, sd_bus_error *error)
{
        Sdbus *p = data;

        (void) error;
        g_queue_push_tail(&p->calls, sd_bus_message_ref(m));
        return 1;   /* answered later, by send() */
}

/* The reply signatures, as the runner answers for CELL: an echo carries
 * the payload back, an empty reply (reply=empty, callrate) nothing; the
 * ack to End is text, `s` for string cells and `ay` otherwise.  sd-bus
 * checks every reply against the signature its vtable declares. */
static const char *reply_signature(const IpclabCell *cell)
{
        if (cell->pattern == PATTERN_CALLRATE || cell->reply == REPLY_EMPTY)
                return "";
        return cell->payload == PAYLOAD_STRING ? "s" : "ay";
}

static const char *ack_signature(const IpclabCell *cell)
{
        return cell->payload == PAYLOAD_STRING ? "s" : "ay";
}

static int add_object(Endpoint *ep, Sdbus *p)
{
        const char *reply = reply_signature(ep->cell), *ack = ack_signature(ep->cell);
        /* Unprivileged: any caller may call them.  Without the flag, sd-bus
         * asks the bus for every caller's uid (GetConnectionUnixUser) before
         * every call on a connection it does not trust: an extra round
         * trip through the daemon per call that an application marking its
         * methods (or sdbus-c++, which trusts its connections) never makes,
         * and that cost the daemon 14-20 us a call (issue 9). */
        const sd_bus_vtable vtable[] = {
                SD_BUS_VTABLE_START(0),
                SD_BUS_METHOD("SendBytes", "ay", reply, on_call, SD_BUS_VTABLE_UNPRIVILEGED),
                SD_BUS_METHOD("SendString", "s", reply, on_call, SD_BUS_VTABLE_UNPRIVILEGED),
                SD_BUS_METHOD("SendEmpty", "", reply, on_call, SD_BUS_VTABLE_UNPRIVILEGED),
                SD_BUS_METHOD("End", "", ack, on_call, SD_BUS_VTABLE_UNPRIVILEGED),
                SD_BUS_VTABLE_END
        };
        G_STATIC_ASSERT(sizeof vtable == sizeof p->vtable);

        memcpy(p->vtable, vtable, sizeof vtable);
        int r = sd_bus_add_object_vtable(p->bus, &p->slot, BENCH_PATH, BENCH_IFACE, p->vtable, p);
        return r < 0 ? fail_errno(ep, r, "sd_bus_add_object_vtable") : 0;
}

static int server_listen(Endpoint *ep, Sdbus *p)
{
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        g_autofree char *path = g_build_filename(ep->dir, "p2p", NULL);

        if (strlen(path) >= sizeof sa.sun_path)
                return endpoint_fail(ep, ENAMETOOLONG, "p2p socket path %s", path);
        memcpy(sa.sun_path, path, strlen(path) + 1);
        p->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (p->listen_fd < 0)
                return endpoint_fail(ep, errno, "socket");
        if (bind(p->listen_fd, (struct sockaddr *) &sa, sizeof sa) < 0)
                return endpoint_fail(ep, errno, "bind %s", path);
        if (listen(p->listen_fd, 4) < 0)
                return endpoint_fail(ep, errno, "listen %s", path);
        return 0;
}

/* Accepts the client and makes the socket a server-side bus connection. */
static int server_accept(Endpoint *ep, Sdbus *p)
{
        sd_id128_t id;
        int fd, r;

        do
                fd = accept4(p->listen_fd, NULL, NULL, SOCK_CLOEXEC);
        while (fd < 0 && errno == EINTR);
        if (fd < 0)
                return endpoint_fail(ep, errno, "accept");
        close(p->listen_fd);
        p->listen_fd = -1;
        r = sd_bus_new(&p->bus);
        if (r < 0) {
                close(fd);
                return fail_errno(ep, r, "sd_bus_new");
        }
        r = sd_bus_set_fd(p->bus, fd, fd);
        if (r < 0) {
                close(fd);
                return fail_errno(ep, r, "sd_bus_set_fd");
        }
        r = sd_id128_randomize(&id);
        if (r < 0)
                return fail_errno(ep, r, "sd_id128_randomize");
        r = sd_bus_set_server(p->bus, 1, id);
        if (r < 0)
                return fail_errno(ep, r, "sd_bus_set_server");
        r = add_object(ep, p);
        if (r < 0)
                return r;
        r = sd_bus_start(p->bus);
        return r < 0 ? fail_errno(ep, r, "sd_bus_start (p2p server)") : 0;
}

/* D-Bus address escaping: bytes outside [-0-9A-Za-z_/.\*] become %XX. */
static char *address_escape(const char *s)
{
        GString *out = g_string_new(NULL);

        for (const unsigned char *c = (const unsigned char *) s; *c; c++) {
                if (g_ascii_isalnum(*c) || strchr("-_/.\\*", *c))
                        g_string_append_c(out, (char) *c);
                else
                        g_string_append_printf(out, "%%%02x", *c);
        }
        return g_string_free(out, FALSE);
}

static int connect_to(Endpoint *ep, Sdbus *p, const char *address, bool bus)
{
        int r = sd_bus_new(&p->bus);

        if (r < 0)
                return fail_errno(ep, r, "sd_bus_new");
        r = sd_bus_set_address(p->bus, address);
        if (r < 0)
                return fail_errno(ep, r, "sd_bus_set_address");
        if (bus) {
                r = sd_bus_set_bus_client(p->bus, 1);
                if (r < 0)
                        return fail_errno(ep, r, "sd_bus_set_bus_client");
        }
        r = sd_bus_start(p->bus);
        return r < 0 ? endpoint_fail(ep, -r, "sd_bus_start on %s", address) : 0;
}

static int sdbus_open(Endpoint *ep, Role role)
{
        Sdbus *p = g_new0(Sdbus, 1);
        bool bus = ep->cell->bus != BUS_P2P;
        int r = 0;

        ep->role = role;
        p->listen_fd = -1;
        g_queue_init(&p->calls);
        if (bus && !ep->bus_address) {
                r = endpoint_fail(ep, EINVAL, "no bus address for bus=%s", bus_name(ep->cell->bus));
                goto out;
        }
        if (role == ROLE_SERVER) {
                if (!bus) {
                        r = server_listen(ep, p);
                        goto out;
                }
                r = connect_to(ep, p, ep->bus_address, true);
                if (r < 0)
                        goto out;
                r = add_object(ep, p);
                if (r < 0)
                        goto out;
                /* Without SD_BUS_NAME_QUEUE: DBUS_NAME_FLAG_DO_NOT_QUEUE;
                 * anything but primary ownership is an error. */
                r = sd_bus_request_name(p->bus, BENCH_NAME, 0);
                if (r == -EEXIST)
                        r = endpoint_fail(ep, EADDRINUSE, "RequestName " BENCH_NAME
                                          ": not the primary owner (another connection has it)");
                else if (r < 0)
                        r = fail_errno(ep, r, "RequestName " BENCH_NAME);
        } else if (bus) {
                p->dest = BENCH_NAME;
                r = connect_to(ep, p, ep->bus_address, true);
        } else {
                g_autofree char *path = g_build_filename(ep->dir, "p2p", NULL);
                g_autofree char *esc = address_escape(path);
                g_autofree char *addr = g_strconcat("unix:path=", esc, NULL);
                r = connect_to(ep, p, addr, false);
        }
out:
        if (r < 0) {
                sdbus_free(p);
                return r;
        }
        ep->priv = p;
        return 0;
}

/* --- payloads --------------------------------------------------------- */

/* Appends the payload: nothing when LEN is 0, else `s` for string cells
 * and `ay` otherwise. */
static int append_payload(Endpoint *ep, sd_bus_message *m, const void *data, size_t len)
{
        int r;

        if (len == 0)
                return 0;
        if (ep->cell->payload == PAYLOAD_STRING) {
                r = sd_bus_message_append_basic(m, 's', data);
                return r < 0 ? fail_errno(ep, r, "appending a string") : 0;
        }
        if (!marshal_appends_per_element(ep->cell->marshal)) {
                r = sd_bus_message_append_array(m, 'y', data, len);
                return r < 0 ? fail_errno(ep, r, "sd_bus_message_append_array") : 0;
        }
        const uint8_t *b = data;
        r = sd_bus_message_open_container(m, 'a', "y");
        if (r < 0)
                return fail_errno(ep, r, "opening a byte array");
        for (size_t i = 0; i < len; i++) {
                r = sd_bus_message_append_basic(m, 'y', &b[i]);
                if (r < 0)
                        return fail_errno(ep, r, "appending a byte");
        }
        r = sd_bus_message_close_container(m);
        return r < 0 ? fail_errno(ep, r, "closing a byte array") : 0;
}

/* Reads the payload of M (no argument, `ay` or `s`).  A string points into
 * M, which the caller keeps; a byte array is copied into the endpoint's
 * buffer, because the contract wants a NUL after it.  EXPECT sizes the
 * buffer for per-element reading. */
static int read_payload(Endpoint *ep, sd_bus_message *m, const void **data, size_t *len, size_t expect)
{
        const char *contents = NULL;
        char type = 0;
        int r = sd_bus_message_peek_type(m, &type, &contents);

        if (r < 0)
                return fail_errno(ep, r, "sd_bus_message_peek_type");
        if (r == 0) {
                *data = "";
                *len = 0;
                return 0;
        }
        if (type == 's') {
                const char *s;
                r = sd_bus_message_read_basic(m, 's', &s);
                if (r < 0)
                        return fail_errno(ep, r, "reading a string");
                *data = s;
                *len = strlen(s);
                return 0;
        }
        if (type != 'a' || !contents || strcmp(contents, "y") != 0)
                return endpoint_fail(ep, EPROTO, "unexpected message signature '%s'",
                                     sd_bus_message_get_signature(m, true));
        uint8_t *buf;
        size_t n = 0;
        if (ep->cell->marshal != MARSHAL_PER_ELEMENT) {
                const void *a = NULL;
                r = sd_bus_message_read_array(m, 'y', &a, &n);
                if (r < 0)
                        return fail_errno(ep, r, "sd_bus_message_read_array");
                /* The fixed-array path: the bytes stay in M, no copy. */
                *data = n > 0 ? a : "";
                *len = n;
                return 0;
        } else {
                size_t cap = MAX(expect, (size_t) 64);
                buf = endpoint_buffer(ep, cap + 1);
                if (!buf)
                        return endpoint_fail(ep, ENOMEM, "receive buffer of %zu bytes", cap + 1);
                r = sd_bus_message_enter_container(m, 'a', "y");
                if (r < 0)
                        return fail_errno(ep, r, "entering a byte array");
                for (;;) {
                        uint8_t b;
                        r = sd_bus_message_read_basic(m, 'y', &b);
                        if (r < 0)
                                return fail_errno(ep, r, "reading a byte");
                        if (r == 0)
                                break;
                        if (n == cap) {
                                cap *= 2;
                                buf = endpoint_buffer(ep, cap + 1);
                                if (!buf)
                                        return endpoint_fail(ep, ENOMEM, "receive buffer of %zu bytes", cap + 1);
                        }
                        buf[n++] = b;
                }
                r = sd_bus_message_exit_container(m);
                if (r < 0)
                        return fail_errno(ep, r, "leaving a byte array");
        }
        buf[n] = '\0';
        *data = buf;
        *len = n;
        return 0;
}

static const char *request_member(const Endpoint *ep, size_t len)
{
        if (len == 0)
                return "SendEmpty";
        return ep->cell->payload == PAYLOAD_STRING ? "SendString" : "SendBytes";
}

/* Sends M; writes it out at once, which also bounds the outgoing queue of
 * a one-way stream (sd_bus_flush returns at once when nothing is queued). */
static int send_message(Endpoint *ep, Sdbus *p, sd_bus_message *m, uint64_t *cookie)
{
        int r = sd_bus_send(p->bus, m, cookie);

        if (r < 0)
                return fail_errno(ep, r, "sd_bus_send");
        r = sd_bus_flush(p->bus);
        return r < 0 ? fail_errno(ep, r, "sd_bus_flush") : 0;
}

/* --- server ----------------------------------------------------------- */

static int server_recv(Endpoint *ep, Sdbus *p, const void **data, size_t *len, size_t expect)
{
        sd_bus_message *m;
        int r;

        if (!p->bus) {
                r = server_accept(ep, p);
                if (r < 0)
                        return r;
        }
        release_hold(p);
        p->request = sd_bus_message_unref(p->request);
        while (!(m = g_queue_pop_head(&p->calls))) {
                r = sd_bus_process(p->bus, NULL);
                if (r < 0)
                        return fail_errno(ep, r, "sd_bus_process");
                if (r > 0)
                        continue;
                r = sd_bus_wait(p->bus, UINT64_MAX);
                if (r < 0 && r != -EINTR)
                        return fail_errno(ep, r, "sd_bus_wait");
        }
        if (sd_bus_message_is_method_call(m, BENCH_IFACE, "End")) {
                p->request = m;
                return 0;
        }
        r = sd_bus_message_rewind(m, true);
        if (r >= 0)
                r = read_payload(ep, m, data, len, expect);
        else
                r = fail_errno(ep, r, "sd_bus_message_rewind");
        if (r < 0) {
                sd_bus_message_unref(m);
                return r;
        }
        p->held = m;
        if (sd_bus_message_get_expect_reply(m) > 0)
                p->request = sd_bus_message_ref(m);
        return 1;
}

static int server_send(Endpoint *ep, Sdbus *p, const void *data, size_t len)
{
        sd_bus_message *reply = NULL;
        int r;

        if (!p->request)
                return endpoint_fail(ep, EPROTO, "no request to answer");
        r = sd_bus_message_new_method_return(p->request, &reply);
        if (r < 0)
                return fail_errno(ep, r, "sd_bus_message_new_method_return");
        r = append_payload(ep, reply, data, len);
        if (r >= 0)
                r = send_message(ep, p, reply, NULL);
        sd_bus_message_unref(reply);
        /* DATA may point into the request: release it only now. */
        p->request = sd_bus_message_unref(p->request);
        release_hold(p);
        return r;
}

/* --- client ----------------------------------------------------------- */

static int new_call(Endpoint *ep, Sdbus *p, const char *member, const void *data, size_t len,
                    sd_bus_message **out)
{
        sd_bus_message *m = NULL;
        int r = sd_bus_message_new_method_call(p->bus, &m, p->dest, BENCH_PATH, BENCH_IFACE, member);

        if (r < 0)
                return fail_errno(ep, r, "sd_bus_message_new_method_call");
        r = append_payload(ep, m, data, len);
        if (r < 0) {
                sd_bus_message_unref(m);
                return r;
        }
        *out = m;
        return 0;
}

static int client_send(Endpoint *ep, Sdbus *p, const char *member,
                       const void *data, size_t len, unsigned flags)
{
        sd_bus_message *m = NULL;
        uint64_t cookie = 0;
        int r;

        if (p->pending)
                return endpoint_fail(ep, EPROTO, "the previous reply was not read");
        r = new_call(ep, p, member, data, len, &m);
        if (r < 0)
                return r;
        if (flags & SEND_NO_REPLY) {
                r = sd_bus_message_set_expect_reply(m, 0);
                if (r < 0) {
                        sd_bus_message_unref(m);
                        return fail_errno(ep, r, "sd_bus_message_set_expect_reply");
                }
        }
        r = send_message(ep, p, m, &cookie);
        sd_bus_message_unref(m);
        if (r < 0)
                return r;
        if (!(flags & SEND_NO_REPLY))
                p->pending = cookie;
        release_hold(p);
        return 0;
}

/* Hands out the payload of REPLY (a method return or an error). */
static int take_reply(Endpoint *ep, Sdbus *p, sd_bus_message *reply, const void **data, size_t *len,
                      size_t expect)
{
        if (sd_bus_message_is_method_error(reply, NULL)) {
                const sd_bus_error *e = sd_bus_message_get_error(reply);
                int r = endpoint_fail(ep, 0, "the call failed: %s (%s)",
                                      e && e->message ? e->message : "no message",
                                      e && e->name ? e->name : "no error name");
                sd_bus_message_unref(reply);
                return r;
        }
        int r = read_payload(ep, reply, data, len, expect);
        if (r < 0) {
                sd_bus_message_unref(reply);
                return r;
        }
        p->held = reply;
        return 1;
}

static int client_recv(Endpoint *ep, Sdbus *p, const void **data, size_t *len, size_t expect)
{
        release_hold(p);
        if (!p->pending)
                return endpoint_fail(ep, EPROTO, "no reply is due");
        for (;;) {
                sd_bus_message *m = NULL;
                int r = sd_bus_process(p->bus, &m);
                if (r < 0)
                        return fail_errno(ep, r, "sd_bus_process");
                if (m) {
                        uint64_t cookie = 0;
                        if (sd_bus_message_get_reply_cookie(m, &cookie) >= 0 && cookie == p->pending) {
                                p->pending = 0;
                                return take_reply(ep, p, m, data, len, expect);
                        }
                        if (sd_bus_message_is_signal(m, "org.freedesktop.DBus.Local", "Disconnected")) {
                                sd_bus_message_unref(m);
                                return endpoint_fail(ep, ECONNRESET, "the peer disconnected");
                        }
                        sd_bus_message_unref(m);   /* NameAcquired and the like */
                        continue;
                }
                if (r > 0)
                        continue;
                r = sd_bus_wait(p->bus, UINT64_MAX);
                if (r < 0 && r != -EINTR)
                        return fail_errno(ep, r, "sd_bus_wait");
        }
}

static int sdbus_call(Endpoint *ep, const void *data, size_t len,
                      const void **reply, size_t *reply_len, size_t expect)
{
        Sdbus *p = ep->priv;
        sd_bus_error error = SD_BUS_ERROR_NULL;
        sd_bus_message *m = NULL, *rep = NULL;
        int r = new_call(ep, p, request_member(ep, len), data, len, &m);

        if (r < 0)
                return r;
        release_hold(p);
        /* UINT64_MAX: no timeout; the runner enforces its own limit. */
        r = sd_bus_call(p->bus, m, UINT64_MAX, &error, &rep);
        sd_bus_message_unref(m);
        if (r < 0) {
                r = endpoint_fail(ep, 0, "the call failed: %s (%s)",
                                  error.message ? error.message : g_strerror(-r),
                                  error.name ? error.name : "no error name");
                sd_bus_error_free(&error);
                return r;
        }
        return take_reply(ep, p, rep, reply, reply_len, expect);
}

/* --- the ops ---------------------------------------------------------- */

static int sdbus_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        Sdbus *p = ep->priv;

        if (ep->role == ROLE_SERVER)
                return server_send(ep, p, data, len);
        return client_send(ep, p, request_member(ep, len), data, len, flags);
}

static int sdbus_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        Sdbus *p = ep->priv;

        if (ep->role == ROLE_SERVER)
                return server_recv(ep, p, data, len, expect);
        return client_recv(ep, p, data, len, expect);
}

static int sdbus_send_end(Endpoint *ep)
{
        return client_send(ep, ep->priv, "End", NULL, 0, 0);
}

static void sdbus_close(Endpoint *ep)
{
        sdbus_free(ep->priv);
        ep->priv = NULL;
}

const Transport transport_sd_bus = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "sd-bus",
        .family = "dbus",
        .summary = "sd-bus (libsystemd) method calls: vtable, sd_bus_process/sd_bus_call",
        .flags = TRANSPORT_DBUS | TRANSPORT_MARSHAL | TRANSPORT_VALIDATES | TRANSPORT_EMPTY_OK | TRANSPORT_THREADS,
        .unavailable = sdbus_unavailable,
        .max_size = sdbus_max_size,
        .open = sdbus_open,
        .send = sdbus_send,
        .recv = sdbus_recv,
        .send_end = sdbus_send_end,
        .call = sdbus_call,
        .close = sdbus_close,
};

#else /* !IPCLAB_HAVE_SDBUS */

static const char *sdbus_unavailable(void)
{
        return "built without libsystemd";
}

static int sdbus_open(Endpoint *ep, Role role)
{
        (void) role;
        return endpoint_fail(ep, ENOTSUP, "built without libsystemd");
}

const Transport transport_sd_bus = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "sd-bus",
        .family = "dbus",
        .summary = "sd-bus (libsystemd) method calls: vtable, sd_bus_process/sd_bus_call",
        .flags = TRANSPORT_DBUS | TRANSPORT_MARSHAL | TRANSPORT_VALIDATES | TRANSPORT_EMPTY_OK,
        .unavailable = sdbus_unavailable,
        .open = sdbus_open,
};

#endif /* IPCLAB_HAVE_SDBUS */
