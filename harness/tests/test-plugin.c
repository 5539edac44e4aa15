/* test-plugin.c: the transport ABI of ipclab/transport.h held against its
 * version.
 *
 * Every version of the ABI has its layout recorded here: each field of
 * IpclabTransport, IpclabCell and IpclabEndpoint with its offset and size
 * (LP64: x86_64, aarch64, riscv64, ppc64le, s390x), and every constant a
 * plugin compiles in.  The header as it is must match the layout recorded
 * for the version it declares: a field moved, resized, inserted or
 * renamed (which does not compile), a constant changed, without a new
 * version, fails here.  A new version needs its layout added below (and
 * the minor's descriptor size in plugin.c), so the change is made on
 * purpose.  The fields of each struct must fill it: no padding hole where
 * a new field could hide.  ipclab's own transports carry the header of
 * the version they were compiled with.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <glib.h>

#include "transport.h"

typedef struct {
        const char *name;
        size_t offset, size;
} Field;

typedef struct {
        const char *name;
        long long value;
} Constant;

typedef struct {
        unsigned major, minor;
        const Field *transport, *cell, *endpoint;
        size_t transport_size, cell_size, endpoint_size;
        const Constant *constants;
} Layout;

/* ---- ABI 1.0 ---- */

static const Field transport_1_0[] = {
        { "abi_major", 0, 4 }, { "abi_minor", 4, 4 }, { "struct_size", 8, 4 }, { "flags", 12, 4 },
        { "name", 16, 8 }, { "family", 24, 8 }, { "summary", 32, 8 }, { "version", 40, 8 },
        { "unavailable", 48, 8 }, { "max_size", 56, 8 }, { "refuses", 64, 8 }, { "prepare", 72, 8 },
        { "open", 80, 8 }, { "send", 88, 8 }, { "recv", 96, 8 }, { "send_end", 104, 8 },
        { "call", 112, 8 }, { "close", 120, 8 }, { "cleanup", 128, 8 }, { "command", 136, 8 },
        { "libraries", 144, 8 }, { NULL, 0, 0 },
};

static const Field cell_1_0[] = {
        { "struct_size", 0, 4 }, { "index", 4, 4 }, { "transport", 8, 8 }, { "size", 16, 8 },
        { "count", 24, 8 }, { "duration_ns", 32, 8 }, { "payload", 40, 4 }, { "pattern", 44, 4 },
        { "reply", 48, 4 }, { "marshal", 52, 4 }, { "bus", 56, 4 }, { "cpus", 60, 4 }, { NULL, 0, 0 },
};

static const Field endpoint_1_0[] = {
        { "cell", 0, 8 }, { "dir", 8, 8 }, { "bus_address", 16, 8 }, { "priv", 24, 8 }, { "buf", 32, 8 },
        { "buf_size", 40, 8 }, { "role", 48, 4 }, { "bus_pid", 52, 4 }, { "fd", 56, 16 }, { "why", 72, 256 },
        { NULL, 0, 0 },
};

static const Constant constants_1_0[] = {
        { "IPCLAB_TRANSPORT_ACK_MAX", 128 }, { "IPCLAB_TRANSPORT_NAME_MAX", 32 },
        { "IPCLAB_PAYLOAD_BYTES", 0 }, { "IPCLAB_PAYLOAD_STRING", 1 }, { "IPCLAB_PAYLOAD_NONE", 2 },
        { "IPCLAB_PATTERN_ONEWAY", 0 }, { "IPCLAB_PATTERN_ROUNDTRIP", 1 }, { "IPCLAB_PATTERN_CALLRATE", 2 },
        { "IPCLAB_REPLY_ECHO", 0 }, { "IPCLAB_REPLY_EMPTY", 1 }, { "IPCLAB_REPLY_SHORT", 2 },
        { "IPCLAB_MARSHAL_ARRAY", 0 }, { "IPCLAB_MARSHAL_PER_ELEMENT", 1 },
        { "IPCLAB_MARSHAL_APPEND_PER_ELEMENT", 2 }, { "IPCLAB_MARSHAL_COPY", 3 },
        { "IPCLAB_BUS_NONE", 0 }, { "IPCLAB_BUS_DBUS_DAEMON", 1 }, { "IPCLAB_BUS_DBUS_BROKER", 2 },
        { "IPCLAB_BUS_P2P", 3 }, { "IPCLAB_CPUS_NONE", 0 }, { "IPCLAB_CPUS_SAME", 1 }, { "IPCLAB_CPUS_SPLIT", 2 },
        { "IPCLAB_ROLE_SERVER", 0 }, { "IPCLAB_ROLE_CLIENT", 1 },
        { "IPCLAB_TRANSPORT_INPROCESS", 1 }, { "IPCLAB_TRANSPORT_DBUS", 2 }, { "IPCLAB_TRANSPORT_MARSHAL", 4 },
        { "IPCLAB_TRANSPORT_VALIDATES", 8 }, { "IPCLAB_TRANSPORT_EMPTY_OK", 16 },
        { "IPCLAB_TRANSPORT_COMMAND", 32 }, { "IPCLAB_TRANSPORT_COPY_STRING", 64 },
        { "IPCLAB_TRANSPORT_SHORT_REPLY", 128 }, { "IPCLAB_TRANSPORT_FLAGS_KNOWN", 0xff },
        { "IPCLAB_SEND_NO_REPLY", 1 }, { NULL, 0 },
};

static const Layout layouts[] = {
        { 1, 0, transport_1_0, cell_1_0, endpoint_1_0, 152, 64, 328, constants_1_0 },
};

/* ---- the header as compiled ---- */

#define F(type, field) { #field, offsetof(type, field), sizeof(((type *) 0)->field) }

static const Field transport_now[] = {
        F(IpclabTransport, abi_major), F(IpclabTransport, abi_minor), F(IpclabTransport, struct_size),
        F(IpclabTransport, flags), F(IpclabTransport, name), F(IpclabTransport, family),
        F(IpclabTransport, summary), F(IpclabTransport, version), F(IpclabTransport, unavailable),
        F(IpclabTransport, max_size), F(IpclabTransport, refuses), F(IpclabTransport, prepare),
        F(IpclabTransport, open), F(IpclabTransport, send), F(IpclabTransport, recv),
        F(IpclabTransport, send_end), F(IpclabTransport, call), F(IpclabTransport, close),
        F(IpclabTransport, cleanup), F(IpclabTransport, command), F(IpclabTransport, libraries),
        { NULL, 0, 0 },
};

static const Field cell_now[] = {
        F(IpclabCell, struct_size), F(IpclabCell, index), F(IpclabCell, transport), F(IpclabCell, size),
        F(IpclabCell, count), F(IpclabCell, duration_ns), F(IpclabCell, payload), F(IpclabCell, pattern),
        F(IpclabCell, reply), F(IpclabCell, marshal), F(IpclabCell, bus), F(IpclabCell, cpus),
        { NULL, 0, 0 },
};

static const Field endpoint_now[] = {
        F(IpclabEndpoint, cell), F(IpclabEndpoint, dir), F(IpclabEndpoint, bus_address),
        F(IpclabEndpoint, priv), F(IpclabEndpoint, buf), F(IpclabEndpoint, buf_size),
        F(IpclabEndpoint, role), F(IpclabEndpoint, bus_pid), F(IpclabEndpoint, fd), F(IpclabEndpoint, why),
        { NULL, 0, 0 },
};

#define C(name) { #name, (long long) (name) }

static const Constant constants_now[] = {
        C(IPCLAB_TRANSPORT_ACK_MAX), C(IPCLAB_TRANSPORT_NAME_MAX),
        C(IPCLAB_PAYLOAD_BYTES), C(IPCLAB_PAYLOAD_STRING), C(IPCLAB_PAYLOAD_NONE),
        C(IPCLAB_PATTERN_ONEWAY), C(IPCLAB_PATTERN_ROUNDTRIP), C(IPCLAB_PATTERN_CALLRATE),
        C(IPCLAB_REPLY_ECHO), C(IPCLAB_REPLY_EMPTY), C(IPCLAB_REPLY_SHORT),
        C(IPCLAB_MARSHAL_ARRAY), C(IPCLAB_MARSHAL_PER_ELEMENT),
        C(IPCLAB_MARSHAL_APPEND_PER_ELEMENT), C(IPCLAB_MARSHAL_COPY),
        C(IPCLAB_BUS_NONE), C(IPCLAB_BUS_DBUS_DAEMON), C(IPCLAB_BUS_DBUS_BROKER),
        C(IPCLAB_BUS_P2P), C(IPCLAB_CPUS_NONE), C(IPCLAB_CPUS_SAME), C(IPCLAB_CPUS_SPLIT),
        C(IPCLAB_ROLE_SERVER), C(IPCLAB_ROLE_CLIENT),
        C(IPCLAB_TRANSPORT_INPROCESS), C(IPCLAB_TRANSPORT_DBUS), C(IPCLAB_TRANSPORT_MARSHAL),
        C(IPCLAB_TRANSPORT_VALIDATES), C(IPCLAB_TRANSPORT_EMPTY_OK),
        C(IPCLAB_TRANSPORT_COMMAND), C(IPCLAB_TRANSPORT_COPY_STRING),
        C(IPCLAB_TRANSPORT_SHORT_REPLY), C(IPCLAB_TRANSPORT_FLAGS_KNOWN),
        C(IPCLAB_SEND_NO_REPLY), { NULL, 0 },
};

static const Layout *recorded(void)
{
        for (size_t i = 0; i < G_N_ELEMENTS(layouts); i++)
                if (layouts[i].major == IPCLAB_TRANSPORT_ABI_MAJOR && layouts[i].minor == IPCLAB_TRANSPORT_ABI_MINOR)
                        return &layouts[i];
        return NULL;
}

/* Every field of NOW where WANT has it, WANT's fields all there, and the
 * fields filling SIZE bytes with no hole. */
static void compare_fields(const char *what, const Field *want, const Field *now, size_t size, size_t want_size)
{
        size_t covered = 0, n_want = 0, n_now = 0;

        for (; want[n_want].name; n_want++)
                ;
        for (; now[n_now].name; n_now++) {
                const Field *f = &now[n_now];
                covered += f->size;
                if (n_now >= n_want || strcmp(want[n_now].name, f->name) != 0) {
                        g_test_fail_printf("%s.%s (offset %zu) is not where ABI %d.%d has it: a new field "
                                           "needs a new ABI version", what, f->name, f->offset,
                                           IPCLAB_TRANSPORT_ABI_MAJOR, IPCLAB_TRANSPORT_ABI_MINOR);
                        continue;
                }
                if (want[n_now].offset != f->offset || want[n_now].size != f->size)
                        g_test_fail_printf("%s.%s: offset %zu, size %zu; ABI %d.%d has offset %zu, size %zu",
                                           what, f->name, f->offset, f->size, IPCLAB_TRANSPORT_ABI_MAJOR,
                                           IPCLAB_TRANSPORT_ABI_MINOR, want[n_now].offset, want[n_now].size);
        }
        if (n_now != n_want)
                g_test_fail_printf("%s has %zu fields, ABI %d.%d has %zu", what, n_now,
                                   IPCLAB_TRANSPORT_ABI_MAJOR, IPCLAB_TRANSPORT_ABI_MINOR, n_want);
        if (size != want_size)
                g_test_fail_printf("sizeof(%s) is %zu, ABI %d.%d has %zu", what, size,
                                   IPCLAB_TRANSPORT_ABI_MAJOR, IPCLAB_TRANSPORT_ABI_MINOR, want_size);
        if (covered != size)
                g_test_fail_printf("the fields of %s cover %zu of its %zu bytes: a hole where a field could "
                                   "hide; make the padding a field", what, covered, size);
}

static void test_layout(void)
{
        const Layout *l = recorded();

        if (sizeof(void *) != 8 || sizeof(long) != 8) {
                g_test_skip("the layouts are recorded for LP64");
                return;
        }
        if (!l) {
                g_test_fail_printf("ABI %d.%d has no layout recorded in test-plugin.c: record it (and its "
                                   "descriptor size in plugin.c)", IPCLAB_TRANSPORT_ABI_MAJOR,
                                   IPCLAB_TRANSPORT_ABI_MINOR);
                return;
        }
        compare_fields("IpclabTransport", l->transport, transport_now, sizeof(IpclabTransport), l->transport_size);
        compare_fields("IpclabCell", l->cell, cell_now, sizeof(IpclabCell), l->cell_size);
        compare_fields("IpclabEndpoint", l->endpoint, endpoint_now, sizeof(IpclabEndpoint), l->endpoint_size);
        for (size_t i = 0; constants_now[i].name; i++) {
                const Constant *w = &l->constants[i];
                if (!w->name || strcmp(w->name, constants_now[i].name) != 0 || w->value != constants_now[i].value)
                        g_test_fail_printf("%s is %lld; ABI %d.%d has %s = %lld", constants_now[i].name,
                                           constants_now[i].value, l->major, l->minor,
                                           w->name ? w->name : "nothing", w->name ? w->value : 0);
        }
}

/* ipclab's own transports are descriptors of this version. */
static void test_builtins_versioned(void)
{
        for (size_t i = 0; transport_table[i]; i++) {
                const Transport *t = transport_table[i];
                if (t->abi_major != IPCLAB_TRANSPORT_ABI_MAJOR || t->abi_minor != IPCLAB_TRANSPORT_ABI_MINOR ||
                    t->struct_size != sizeof(IpclabTransport))
                        g_test_fail_printf("%s: ABI %u.%u, %u bytes: not IPCLAB_TRANSPORT_HEADER's", t->name,
                                           t->abi_major, t->abi_minor, t->struct_size);
        }
}

int main(int argc, char **argv)
{
        g_test_init(&argc, &argv, NULL);
        g_test_add_func("/plugin/abi-layout", test_layout);
        g_test_add_func("/plugin/builtins-versioned", test_builtins_versioned);
        return g_test_run();
}
