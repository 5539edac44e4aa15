/* gdbus-strings.c: seed 001's workload (glib-kdbus-benchmark), in GDBus.
 *
 * The server owns a well-known name, exports one object whose
 * introspection data declares a method taking `s` and returning `s`, and
 * answers every call with the string "OK".  The client builds, for each
 * SIZE, a string of SIZE 'a' characters in a malloc()ed buffer filled one
 * character at a time and NUL-terminated, and calls the method COUNT
 * times with g_variant_new("(s)", buffer) (which copies and validates the
 * string every call), summing each call's duration from just before the
 * variant is built to just after the reply is in.  Both use the bus given
 * by --address, never the session bus.
 *
 *   gdbus-strings --address=A --server
 *           serves until killed; prints "ready" once it owns the name
 *   gdbus-strings --address=A --client --size=S [--count=N] [--warmup=N] [--bus-pid=PID]
 *           prints one line of key=value pairs per size: the sum of the
 *           per-call durations, the loop's wall time, and (with --bus-pid)
 *           the bus daemon's CPU over the timed loop from its process CPU
 *           clock.  --size may be given several times.
 */
#include <gio/gio.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PEER_NAME "org.ipclab.PeerStrings"
#define PEER_PATH "/org/ipclab/PeerStrings"
#define PEER_IFACE "org.ipclab.PeerStrings"
#define PEER_METHOD "Hello"

static const char introspection[] =
        "<node>"
        "  <interface name='" PEER_IFACE "'>"
        "    <method name='" PEER_METHOD "'>"
        "      <arg type='s' name='text' direction='in'/>"
        "      <arg type='s' name='answer' direction='out'/>"
        "    </method>"
        "  </interface>"
        "</node>";

static guint64 clock_ns(clockid_t id)
{
        struct timespec ts;

        if (clock_gettime(id, &ts) != 0)
                return 0;
        return (guint64) ts.tv_sec * 1000000000u + (guint64) ts.tv_nsec;
}

static void on_call(GDBusConnection *conn, const char *sender, const char *path,
                    const char *iface, const char *method, GVariant *params,
                    GDBusMethodInvocation *invocation, gpointer data)
{
        (void) conn; (void) sender; (void) path; (void) iface; (void) method;
        (void) params; (void) data;
        g_dbus_method_invocation_return_value(invocation, g_variant_new("(s)", "OK"));
}

static const GDBusInterfaceVTable vtable = { .method_call = on_call };

static void on_name_acquired(GDBusConnection *conn, const char *name, gpointer data)
{
        (void) conn; (void) name; (void) data;
        printf("ready\n");
        fflush(stdout);
}

static void on_name_lost(GDBusConnection *conn, const char *name, gpointer data)
{
        (void) conn; (void) data;
        fprintf(stderr, "gdbus-strings: lost or could not own %s\n", name);
        exit(1);
}

static int serve(GDBusConnection *conn)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(GDBusNodeInfo) info = g_dbus_node_info_new_for_xml(introspection, &e);

        if (!info ||
            !g_dbus_connection_register_object(conn, PEER_PATH, info->interfaces[0], &vtable,
                                               NULL, NULL, &e)) {
                fprintf(stderr, "gdbus-strings: %s\n", e->message);
                return 1;
        }
        g_bus_own_name_on_connection(conn, PEER_NAME, G_BUS_NAME_OWNER_FLAGS_NONE,
                                     on_name_acquired, on_name_lost, NULL, NULL);
        g_autoptr(GMainLoop) loop = g_main_loop_new(NULL, FALSE);
        g_main_loop_run(loop);
        return 0;
}

/* One size: WARMUP untimed calls, then COUNT timed ones. */
static int call_size(GDBusConnection *conn, guint64 size, guint64 count, guint64 warmup,
                     gint64 bus_pid)
{
        clockid_t bus_clock;
        gboolean have_bus = bus_pid > 0 && clock_getcpuclockid((pid_t) bus_pid, &bus_clock) == 0;
        char *buf = malloc(size + 1);
        guint64 sum = 0, bus0 = 0, bus1 = 0, wall0 = 0, wall1;

        if (!buf) {
                fprintf(stderr, "gdbus-strings: no memory for %" PRIu64 " bytes\n", size);
                return 1;
        }
        for (guint64 k = 0; k < size; k++)
                buf[k] = 'a';
        buf[size] = '\0';

        for (guint64 i = 0; i < warmup + count; i++) {
                g_autoptr(GError) e = NULL;

                if (i == warmup) {
                        bus0 = have_bus ? clock_ns(bus_clock) : 0;
                        wall0 = clock_ns(CLOCK_MONOTONIC);
                }
                guint64 t0 = clock_ns(CLOCK_MONOTONIC);
                GVariant *reply = g_dbus_connection_call_sync(conn, PEER_NAME, PEER_PATH, PEER_IFACE,
                                                              PEER_METHOD, g_variant_new("(s)", buf),
                                                              NULL, G_DBUS_CALL_FLAGS_NONE, -1,
                                                              NULL, &e);
                if (!reply) {
                        fprintf(stderr, "gdbus-strings: call: %s\n", e->message);
                        free(buf);
                        return 1;
                }
                g_variant_unref(reply);
                if (i >= warmup)
                        sum += clock_ns(CLOCK_MONOTONIC) - t0;
        }
        wall1 = clock_ns(CLOCK_MONOTONIC);
        bus1 = have_bus ? clock_ns(bus_clock) : 0;
        free(buf);
        printf("size_B=%" PRIu64 " calls=%" PRIu64 " sum_ns=%" PRIu64 " wall_ns=%" PRIu64
               " bus_cpu_ns=%" PRIu64 "\n", size, count, sum, wall1 - wall0, bus1 - bus0);
        fflush(stdout);
        return 0;
}

static gboolean parse_u64(const char *text, guint64 *out)
{
        char *end = NULL;

        errno = 0;
        guint64 v = g_ascii_strtoull(text, &end, 10);
        if (errno || end == text || *end || text[0] == '-')
                return FALSE;
        *out = v;
        return TRUE;
}

static int usage(const char *why)
{
        fprintf(stderr, "gdbus-strings: %s\n"
                "usage: gdbus-strings --address=ADDR --server\n"
                "       gdbus-strings --address=ADDR --client --size=BYTES... [--count=N] [--warmup=N] [--bus-pid=PID]\n",
                why);
        return 2;
}

int main(int argc, char **argv)
{
        const char *address = NULL;
        gboolean server = FALSE, client = FALSE;
        guint64 count = 1000, warmup = 20, bus_pid = 0, v;
        g_autoptr(GArray) sizes = g_array_new(FALSE, FALSE, sizeof(guint64));

        for (int i = 1; i < argc; i++) {
                const char *a = argv[i];

                if (!strcmp(a, "--server"))
                        server = TRUE;
                else if (!strcmp(a, "--client"))
                        client = TRUE;
                else if (g_str_has_prefix(a, "--address="))
                        address = a + strlen("--address=");
                else if (g_str_has_prefix(a, "--size=") && parse_u64(a + strlen("--size="), &v) && v > 0)
                        g_array_append_val(sizes, v);
                else if (g_str_has_prefix(a, "--count=") && parse_u64(a + strlen("--count="), &v) && v > 0)
                        count = v;
                else if (g_str_has_prefix(a, "--warmup=") && parse_u64(a + strlen("--warmup="), &v))
                        warmup = v;
                else if (g_str_has_prefix(a, "--bus-pid=") && parse_u64(a + strlen("--bus-pid="), &v))
                        bus_pid = v;
                else
                        return usage(a);
        }
        if (!address || server == client)
                return usage("--address and one of --server or --client are required");
        if (client && sizes->len == 0)
                return usage("--client needs at least one --size");

        g_autoptr(GError) e = NULL;
        g_autoptr(GDBusConnection) conn = g_dbus_connection_new_for_address_sync(
                address, G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION, NULL, NULL, &e);
        if (!conn) {
                fprintf(stderr, "gdbus-strings: %s: %s\n", address, e->message);
                return 1;
        }
        if (server)
                return serve(conn);
        for (guint i = 0; i < sizes->len; i++)
                if (call_size(conn, g_array_index(sizes, guint64, i), count, warmup, (gint64) bus_pid))
                        return 1;
        return 0;
}
