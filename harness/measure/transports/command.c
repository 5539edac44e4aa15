/* command.c: whole commands as transports, timed by hyperfine.
 *
 * What does one D-Bus call cost a shell script?  These "transports" are
 * command-line tools making one call to the method ipclab serves on its
 * private bus (org.ipclab.Bench.SendString on /org/ipclab/Bench).  They are
 * not run by the message loop: an experiment with runner=hyperfine hands
 * each command to hyperfine, which starts it count times, and the runner
 * turns hyperfine's JSON export into one row per repetition (see
 * runner.c).  The command line is built from a fixed template with the
 * bus address and a payload of letters: no value from an experiment file
 * reaches it, and hyperfine runs it without a shell (-N).
 */
#include <ipclab/transport.h>
#include "transport.h"
#include "bench-names.h"

#include <errno.h>

static const char *need(const char *tool, const char *package)
{
        static char why[2][128];
        static int slot;
        g_autofree char *path = g_find_program_in_path(tool);
        g_autofree char *hf = g_find_program_in_path("hyperfine");

        if (!hf)
                return "hyperfine is not installed (apt-get install hyperfine)";
        if (path)
                return NULL;
        slot ^= 1;
        g_snprintf(why[slot], sizeof why[slot], "%s is not installed (apt-get install %s)", tool, package);
        return why[slot];
}

static const char *dbus_send_unavailable(void) { return need("dbus-send", "dbus"); }
static const char *gdbus_call_unavailable(void) { return need("gdbus", "libglib2.0-bin"); }
static const char *busctl_call_unavailable(void) { return need("busctl", "systemd"); }

/* dbus-send's --address= makes a peer connection that never says Hello
 * to the bus: it finds the private bus through DBUS_SESSION_BUS_ADDRESS,
 * which the runner sets for every command. */
static char *dbus_send_command(const char *address, const char *payload)
{
        (void) address;
        return g_strdup_printf("dbus-send --session --print-reply --dest=" BENCH_NAME " "
                               BENCH_PATH " " BENCH_IFACE ".SendString string:%s", payload);
}

static char *gdbus_call_command(const char *address, const char *payload)
{
        return g_strdup_printf("gdbus call --address %s --dest " BENCH_NAME " --object-path "
                               BENCH_PATH " --method " BENCH_IFACE ".SendString %s",
                               address, payload);
}

static char *busctl_call_command(const char *address, const char *payload)
{
        return g_strdup_printf("busctl --address=%s call " BENCH_NAME " " BENCH_PATH " "
                               BENCH_IFACE " SendString s %s", address, payload);
}

#define COMMAND_TRANSPORT(id, tool, what) \
        const Transport transport_##id = { \
                IPCLAB_TRANSPORT_HEADER, \
                .name = tool, \
                .family = "command", \
                .summary = what, \
                .flags = TRANSPORT_DBUS | TRANSPORT_COMMAND, \
                .unavailable = id##_unavailable, \
                .command = id##_command, \
        };

COMMAND_TRANSPORT(dbus_send, "dbus-send", "one `dbus-send --print-reply` call per run, timed by hyperfine")
COMMAND_TRANSPORT(gdbus_call, "gdbus-call", "one `gdbus call` per run, timed by hyperfine")
COMMAND_TRANSPORT(busctl_call, "busctl-call", "one `busctl call` per run, timed by hyperfine")
