/* bench-names.h: the names of the object every D-Bus transport serves
 * and calls (C and C++), in one place: the bus name the server owns, the
 * object path and the interface.  The dbus-send, gdbus and busctl
 * commands of command.c name them too. */
#pragma once

#define BENCH_NAME "org.ipclab.Bench"
#define BENCH_PATH "/org/ipclab/Bench"
#define BENCH_IFACE "org.ipclab.Bench"
