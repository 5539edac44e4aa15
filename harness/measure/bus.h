/* bus.h: private D-Bus buses (dbus-daemon, dbus-broker) for one run.
 *
 * A Bus listens only on a Unix socket inside its own 0700 directory,
 * accepts only EXTERNAL authentication from our uid, offers no TCP and no
 * activation, and never touches the user's session or system bus.  Whatever
 * happens to ipclab (return, crash, SIGKILL), the bus process goes away and
 * its directory is removed: a guardian process watches ipclab and cleans up.
 */
#pragma once

#include <glib.h>
#include <sys/types.h>

#include "experiment.h"

typedef struct Bus Bus;

/* NULL when a bus of KIND can be started here, else why not ("dbus-broker
 * is not installed (apt-get install dbus-broker)"). */
const char *bus_unavailable(BusKind kind);

/* The daemon's version string for meta.ini ("dbus-daemon 1.14.10"), or
 * NULL when not installed.  The caller frees it. */
char *bus_version(BusKind kind);

/* Starts a private bus of KIND (BUS_DBUS_DAEMON or BUS_DBUS_BROKER) and
 * returns once it accepts connections.  NULL with ERROR set on failure. */
Bus *bus_start(BusKind kind, GError **error);

/* The address clients connect to ("unix:path=/tmp/ipclab-bus-XXXX/socket"). */
const char *bus_get_address(const Bus *bus);

/* The process that routes messages, for CPU accounting in /proc. */
pid_t bus_get_pid(const Bus *bus);

/* TRUE while the bus process is running. */
gboolean bus_is_alive(const Bus *bus);

/* Waits up to TIMEOUT_MS for the bus process (not our child) to end;
 * TRUE when it has. */
gboolean bus_await_daemon(const Bus *bus, int timeout_ms);

/* Stops the bus (SIGTERM, then SIGKILL), waits for it and removes its
 * directory.  NULL is allowed. */
void bus_stop(Bus *bus);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(Bus, bus_stop)
