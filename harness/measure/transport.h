/* transport.h: ipclab's side of the transport ABI.
 *
 * The ops table, the endpoint and the cell every transport sees are those
 * of the installed header, include/ipclab/transport.h: the contract,
 * documented hook by hook there (what lies inside the timed window, what
 * runs in which process, what -errno means, who owns what).  ipclab's own
 * transports include that header and fill the same table a plugin fills,
 * so the ABI cannot drift from what ipclab runs.  This file adds what
 * ipclab itself needs around it: the one list of built-in transports,
 * what the catalogue of transports (define/transport-catalogue.h: the
 * Transport type, lookups, what each takes) asks of measure/, the cell a
 * transport sees made from an experiment's cell, and the short names
 * ipclab's own code has always used for the header's.
 *
 * roles=threads (TRANSPORT_THREADS only): one child is forked, and the
 * two roles run as two threads of it (runner.c; the installed header
 * says what a transport flagged so must do).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <ipclab/transport.h>

#include "experiment.h"
#include "transport-catalogue.h"

typedef IpclabEndpoint Endpoint;
typedef IpclabRole Role;

/* The header's names, as ipclab's code writes them (its flags':
 * transport-catalogue.h). */
#define ROLE_SERVER IPCLAB_ROLE_SERVER
#define ROLE_CLIENT IPCLAB_ROLE_CLIENT
#define SEND_NO_REPLY IPCLAB_SEND_NO_REPLY
#define endpoint_fail ipclab_endpoint_fail
#define endpoint_buffer ipclab_endpoint_buffer
#define io_write_all ipclab_write_all
#define io_read_exact ipclab_read_exact
#define io_close ipclab_close_fd

/* The one list of transports, in the order `ipclab list` shows them. */
#define TRANSPORTS(X) \
        X(direct) \
        X(pipe) \
        X(fifo) \
        X(unix_stream) \
        X(unix_dgram) \
        X(unix_seqpacket) \
        X(socketpair) \
        X(tcp) \
        X(udp) \
        X(mq) \
        X(sysv_msg) \
        X(shm) \
        X(eventfd_shm) \
        X(splice) \
        X(process_vm) \
        X(io_uring) \
        X(busy_ring) \
        X(memfd) \
        X(libdbus) \
        X(gdbus) \
        X(sd_bus) \
        X(qtdbus) \
        X(sdbus_cpp) \
        X(zeromq) \
        X(nng) \
        X(grpc) \
        X(fdpass) \
        X(dbus_send) \
        X(gdbus_call) \
        X(busctl_call)

/* The C++ transports (transports/qtdbus.cpp, transports/sdbus-cpp.cpp) are
 * compiled only where their libraries are (mk/harness.mk); transport.c
 * defines them otherwise, unavailable with the reason.  Both definitions
 * take their name, summary and flags from here. */
#define QTDBUS_SUMMARY "QtDBus 5 method calls: QDBusMessage, blocking calls, a driven event loop"
#define QTDBUS_FLAGS (TRANSPORT_DBUS | TRANSPORT_VALIDATES | TRANSPORT_EMPTY_OK)
#define SDBUSCPP_SUMMARY "sdbus-c++ proxy and object API (createProxy/callMethod, registerMethod)"
/* TRANSPORT_MARSHAL: sdbus-c++ takes the marshal= value its version
 * appends std::vector<uint8_t> with (its refuses() says which). */
#define SDBUSCPP_FLAGS (TRANSPORT_DBUS | TRANSPORT_MARSHAL | TRANSPORT_VALIDATES | TRANSPORT_EMPTY_OK | TRANSPORT_THREADS)

/* The messaging libraries (transports/zeromq.c, nng.c, grpc.cpp: C++,
 * left out with CXX_TRANSPORTS=no too), likewise compiled only where
 * their library is installed (build/config.mk). */
#define ZEROMQ_SUMMARY "ZeroMQ over ipc://: REQ/REP round trips, PUSH/PULL one-way (libzmq's I/O threads)"
#define ZEROMQ_FLAGS (TRANSPORT_EMPTY_OK | TRANSPORT_THREADS)
#define NNG_SUMMARY "nng over ipc://: req0/rep0 round trips, push0/pull0 one-way (nng's aio threads)"
#define NNG_FLAGS (TRANSPORT_EMPTY_OK | TRANSPORT_THREADS)
#define GRPC_SUMMARY "gRPC unary calls over a Unix socket (generic API, bytes; one-way refused)"
#define GRPC_FLAGS (TRANSPORT_EMPTY_OK | TRANSPORT_THREADS)

#define TRANSPORT_DECLARE(id) extern const Transport transport_##id;
TRANSPORTS(TRANSPORT_DECLARE)
#undef TRANSPORT_DECLARE

/* NULL-terminated array of every built-in transport, in TRANSPORTS order. */
extern const Transport *const transport_table[];

/* What the catalogue (transport-catalogue.h) asks of measure/: the list
 * above, plugins (plugin.h) and the describing hooks; what a program
 * gives transports_install() at start-up. */
extern const TransportOps transport_ops;

/* The cell a transport sees (ipclab/transport.h) made from CELL: OUT's
 * transport points into CELL. */
void transport_cell(const Cell *cell, IpclabCell *out);

/* Initialises EP for CELL (which must outlive it): fds to -1, the rest
 * empty. */
void endpoint_init(Endpoint *ep, const IpclabCell *cell);

/* The number in /proc/sys file PATH (a kernel limit), or FALLBACK where it
 * cannot be read or is not above 0. */
long transport_sysctl(const char *path, long fallback);
