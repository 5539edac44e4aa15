/* bus-internal.h: what bus.c (starting, watching and stopping a private bus)
 * and bus-guardian.c (the guardian process that runs its daemon) share. */
#pragma once

#include "bus.h"
#include "spawn.h"
#include "meta.h"
#include "samples.h"

#include <dbus/dbus.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BUS_START_TIMEOUT_MS 10000    /* daemon ready, or a clear error */
#define BUS_PARENT_TIMEOUT_MS 15000   /* outer bound on the guardian's report */
#define BUS_TERM_TIMEOUT_MS 2000      /* SIGTERM, then SIGKILL */
#define BUS_STOP_TIMEOUT_MS 5000      /* guardian must be done by then */

#define BUS_MESSAGE_MAX "134217728"   /* 128 MiB: the D-Bus maximum */
#define BUS_QUEUE_MAX "1073741824"    /* 1 GiB queued per connection */

/* What dbus-broker may account per user (all our peers share one uid). */
#define BROKER_MAX_BYTES "1073741824"
#define BROKER_MAX_FDS "4096"
#define BROKER_MAX_MATCHES "65536"
#define BROKER_MAX_OBJECTS "16777216"

/* The policy variant of org.bus1.DBus.Broker.AddListener (dbus-broker 33):
 * per-uid batches, uid-range/gid batches, SELinux names, AppArmor, type. */
#define BROKER_BATCH_T "(bta(btbs)a(btssssuutt)a(btssssuutt))"
#define BROKER_POLICY_T "(a(u" BROKER_BATCH_T ")a(buu" BROKER_BATCH_T ")a(ss)bs)"

struct Bus {
        BusKind kind;
        char *dir;
        char *address;
        SpawnChild guardian;   /* .pid -1: none, or reaped */
        pid_t daemon;
        int daemon_pidfd;
        int control;   /* our end of the socketpair with the guardian */
};

/* Everything the guardian needs; filled by bus_start() before the fork. */
typedef struct {
        BusKind kind;
        const char *program;
        const char *dir;
        const char *config;       /* dbus-daemon: configuration file */
        const char *machine_id;   /* dbus-broker: --machine-id */
        pid_t ipclab;
        int control;              /* guardian's end of the socketpair */
        int listen_fd;            /* dbus-broker: the bus socket, listening */
        int log_fd;               /* daemon's stdout and stderr */
        /* set by the guardian */
        pid_t self;
        int ipclab_pidfd;
        int signal_fd;
        SpawnChild daemon;        /* .pid -1: none, or reaped */
        DBusConnection *controller;
} Guardian;

/* bus.c */
gint64 bus_deadline(int timeout_ms);
int bus_remaining_ms(gint64 deadline);
char *bus_unix_address(const char *path);
int bus_unix_listen(const char *path, int flags);

/* bus-guardian.c: the guardian's whole life, in the child bus_start()
 * forks (SpawnOpts.run; GUARDIAN is a Guardian); it never returns. */
_Noreturn int bus_guardian_main(void *guardian);
