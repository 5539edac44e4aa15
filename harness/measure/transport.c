/* transport.c: the transport table, what the catalogue of transports
 * asks of measure/ (transport-catalogue.h), and what ipclab's code needs
 * around the ABI of ipclab/transport.h. */
#include "transport.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"

/* The axis values of the ABI are experiment.h's, number for number: a
 * transport compares ep->cell->payload with either. */
#define SAME(a, b) ((int) (a) == (int) (b))
_Static_assert(SAME(IPCLAB_PAYLOAD_BYTES, PAYLOAD_BYTES) && SAME(IPCLAB_PAYLOAD_STRING, PAYLOAD_STRING) &&
               SAME(IPCLAB_PAYLOAD_NONE, PAYLOAD_NONE), "payload values");
_Static_assert(SAME(IPCLAB_PATTERN_ONEWAY, PATTERN_ONEWAY) && SAME(IPCLAB_PATTERN_ROUNDTRIP, PATTERN_ROUNDTRIP) &&
               SAME(IPCLAB_PATTERN_CALLRATE, PATTERN_CALLRATE), "pattern values");
_Static_assert(SAME(IPCLAB_REPLY_ECHO, REPLY_ECHO) && SAME(IPCLAB_REPLY_EMPTY, REPLY_EMPTY) &&
               SAME(IPCLAB_REPLY_SHORT, REPLY_SHORT), "reply values");
_Static_assert(SAME(IPCLAB_MARSHAL_ARRAY, MARSHAL_ARRAY) && SAME(IPCLAB_MARSHAL_PER_ELEMENT, MARSHAL_PER_ELEMENT) &&
               SAME(IPCLAB_MARSHAL_APPEND_PER_ELEMENT, MARSHAL_APPEND_PER_ELEMENT) &&
               SAME(IPCLAB_MARSHAL_COPY, MARSHAL_COPY), "marshal values");
_Static_assert(SAME(IPCLAB_BUS_NONE, BUS_NONE) && SAME(IPCLAB_BUS_DBUS_DAEMON, BUS_DBUS_DAEMON) &&
               SAME(IPCLAB_BUS_DBUS_BROKER, BUS_DBUS_BROKER) && SAME(IPCLAB_BUS_P2P, BUS_P2P), "bus values");
_Static_assert(SAME(IPCLAB_CPUS_NONE, CPUS_NONE) && SAME(IPCLAB_CPUS_SAME, CPUS_SAME) &&
               SAME(IPCLAB_CPUS_SPLIT, CPUS_SPLIT), "cpus values");
_Static_assert(SAME(IPCLAB_ROLES_PROCESSES, ROLES_PROCESSES) && SAME(IPCLAB_ROLES_THREADS, ROLES_THREADS),
               "roles values");
#undef SAME

/* The transports built only where their library is (the C++ ones and the
 * messaging libraries, see transport.h), where they were not built:
 * listed, unavailable with the reason.  Weak: the definitions in
 * qtdbus.cpp, sdbus-cpp.cpp, zeromq.c ... take their place wherever those
 * are linked in, so no build (the fuzzers' included) has to say which it
 * compiled. */
static int not_built_open(Endpoint *ep, Role role)
{
        (void) role;
        return endpoint_fail(ep, ENOTSUP, "%s", transport_unavailable(transport_find(ep->cell->transport)));
}

static int not_built_io(Endpoint *ep)
{
        return endpoint_fail(ep, ENOTSUP, "not built");
}

static int not_built_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        (void) data, (void) len, (void) flags;
        return not_built_io(ep);
}

static int not_built_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        (void) data, (void) len, (void) expect;
        return not_built_io(ep);
}

#define NOT_BUILT(id, NAME, FAMILY, SUMMARY, FLAGS, WHY) \
        static const char *id##_unavailable(void) { return WHY; } \
        __attribute__((weak)) const Transport transport_##id = { \
                IPCLAB_TRANSPORT_HEADER, \
                .name = NAME, .family = FAMILY, .summary = SUMMARY, .flags = FLAGS, \
                .unavailable = id##_unavailable, .open = not_built_open, .send = not_built_send, \
                .recv = not_built_recv, .send_end = not_built_io };

NOT_BUILT(qtdbus, "qtdbus", "dbus", QTDBUS_SUMMARY, QTDBUS_FLAGS,
          "built without QtDBus 5 (Qt5DBus, qtbase5-dev; or CXX_TRANSPORTS=no)")
NOT_BUILT(sdbus_cpp, "sdbus-c++", "dbus", SDBUSCPP_SUMMARY, SDBUSCPP_FLAGS,
          "built without sdbus-c++ (libsdbus-c++-dev; or CXX_TRANSPORTS=no)")
NOT_BUILT(zeromq, "zeromq", "library", ZEROMQ_SUMMARY, ZEROMQ_FLAGS, "built without libzmq (libzmq3-dev)")
NOT_BUILT(nng, "nng", "library", NNG_SUMMARY, NNG_FLAGS, "built without nng (libnng-dev)")
NOT_BUILT(grpc, "grpc", "library", GRPC_SUMMARY, GRPC_FLAGS,
          "built without gRPC C++ (libgrpc++-dev; or CXX_TRANSPORTS=no)")

#define TRANSPORT_ENTRY(id) &transport_##id,
const Transport *const transport_table[] = {
        TRANSPORTS(TRANSPORT_ENTRY)
        NULL,
};
#undef TRANSPORT_ENTRY

void transport_cell(const Cell *cell, IpclabCell *out)
{
        *out = (IpclabCell) {
                .struct_size = sizeof *out,
                .index = cell->index,
                .transport = cell->transport,
                .size = cell->size,
                .count = cell->count,
                .duration_ns = cell->duration_ns,
                .payload = cell->payload,
                .pattern = cell->pattern,
                .reply = cell->reply,
                .marshal = cell->marshal,
                .bus = cell->bus,
                .cpus = cell->cpus,
                .roles = cell->roles,
        };
}

/* The catalogue's questions (transport-catalogue.h) that need plugins or
 * a transport's describing hooks: a plugin's hooks each in a process of
 * its own (plugin.h). */
static const char *catalogue_unavailable(const Transport *t)
{
        const char *why;

        if (plugin_of(t, &why))
                return why;
        return t->unavailable ? t->unavailable() : NULL;
}

static size_t catalogue_max_size(const Transport *t, const Cell *cell)
{
        IpclabCell c;

        transport_cell(cell, &c);
        return plugin_of(t, NULL) ? plugin_max_size(t, &c) : t->max_size(&c);
}

static const char *catalogue_refuses(const Transport *t, const Cell *cell)
{
        IpclabCell c;

        transport_cell(cell, &c);
        return plugin_of(t, NULL) ? plugin_refuses(t, &c) : t->refuses(&c);
}

const TransportOps transport_ops = {
        .builtin = transport_table,
        .unavailable = catalogue_unavailable,
        .max_size = catalogue_max_size,
        .refuses = catalogue_refuses,
        .resolve = plugin_resolve,
        .failure = plugin_failure,
        .identity = plugin_identity,
};

void endpoint_init(Endpoint *ep, const IpclabCell *cell)
{
        memset(ep, 0, sizeof *ep);
        ep->cell = cell;
        for (size_t i = 0; i < G_N_ELEMENTS(ep->fd); i++)
                ep->fd[i] = -1;
}

long transport_sysctl(const char *path, long fallback)
{
        g_autofree char *text = NULL;

        if (!g_file_get_contents(path, &text, NULL, NULL))
                return fallback;
        long v = strtol(text, NULL, 10);
        return v > 0 ? v : fallback;
}
