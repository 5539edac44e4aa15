/* transport.h: the ops table every transport implements.
 *
 * A measurement has two roles.  The client sends requests; the server
 * receives them and, for round trips, answers.  The runner (runner.c) owns
 * the patterns: it calls these ops in loops and never knows how the bytes
 * travel.  A transport never prints; every op returns >= 0 on success or a
 * negative errno, and may leave a human-readable reason in ep->why.
 *
 * Life cycle of one repetition:
 *   parent:  prepare()                    create kernel objects, paths
 *   fork server child: open(SERVER) ... serve loop ... close()
 *   fork client child: open(CLIENT) ... pattern loop ... close()
 *   parent:  close()                      drop the parent's copies of what
 *                                         prepare() made (so that an end of
 *                                         stream is seen), right after forking
 *   parent:  cleanup()                    remove what prepare() made
 * A transport flagged TRANSPORT_INPROCESS runs both roles in one process:
 * open(SERVER) then open(CLIENT) on the same endpoint, no fork.
 *
 * roles=threads (TRANSPORT_THREADS only): one child is forked, and the
 * two roles run as two threads of it.  Each thread gets an Endpoint of
 * its own, a copy of the prepared one in which every fd of ep->fd[] is a
 * duplicate (so each role closes its own, as after fork), but ep->priv
 * is the same pointer for both: a transport flagged TRANSPORT_THREADS
 * keeps what open() and the ops change per role (indexed by ep->role, or
 * in ep->fd[]), and its close() releases only what that role made.
 *
 * Messages.  The client's send() carries one request of the cell's size.
 * The server's recv() returns it; recv() returns 0 (and no message) when
 * the client has called send_end(): the end of the stream.  The server then
 * answers with one final message (the ack) that the client reads with
 * recv().  Round trips: the server answers each request with send(); the
 * client reads it with recv(), or does both with call() when the transport
 * has one.  Stream transports rely on the receiver knowing the size it
 * expects: recv()'s `expect` argument.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "experiment.h"

typedef enum {
        ROLE_SERVER,
        ROLE_CLIENT,
} Role;

/* Transport flags. */
enum {
        TRANSPORT_INPROCESS = 1 << 0,   /* no fork: both roles in one process */
        TRANSPORT_DBUS = 1 << 1,        /* takes the bus= axis */
        TRANSPORT_MARSHAL = 1 << 2,     /* takes marshal=per-element and append-per-element */
        TRANSPORT_VALIDATES = 1 << 3,   /* validates string payloads itself */
        TRANSPORT_EMPTY_OK = 1 << 4,    /* can carry a message with no payload */
        TRANSPORT_COMMAND = 1 << 5,     /* a whole command, run by hyperfine */
        TRANSPORT_COPY_STRING = 1 << 6, /* takes marshal=copy: its own string path borrows */
        TRANSPORT_SHORT_REPLY = 1 << 7, /* takes reply=short */
        TRANSPORT_THREADS = 1 << 8,     /* takes roles=threads (see above) */
};

/* send() flags. */
enum {
        SEND_NO_REPLY = 1 << 0,   /* a one-way message: no answer will come */
};

typedef struct Endpoint {
        const Cell *cell;
        Role role;
        char *dir;               /* private 0700 directory for this repetition */
        const char *bus_address; /* D-Bus: the private bus, NULL for p2p */
        pid_t bus_pid;           /* D-Bus: the bus daemon, 0 for p2p */
        int fd[4];               /* transport-defined; -1 when unused */
        void *priv;              /* transport-defined state */
        void *buf;               /* endpoint_buffer(): freed by the runner */
        size_t buf_size;
        char why[256];           /* reason for the last failure, or "" */
} Endpoint;

typedef struct Transport {
        const char *name;
        const char *family;       /* "kernel", "dbus", "harness" */
        const char *summary;      /* one line for `ipclab list` */
        unsigned flags;

        /* NULL when the transport can run here, else why not. */
        const char *(*unavailable)(void);
        /* Largest payload the transport carries on this system; 0: no limit. */
        size_t (*max_size)(const Cell *cell);
        /* Optional: why the transport cannot do CELL (a bus, or a marshal=
         * value its library does not offer), or NULL when it can.  The cell
         * is left out with the reason, as `ipclab check` lists. */
        const char *(*refuses)(const Cell *cell);

        int (*prepare)(Endpoint *ep);
        int (*open)(Endpoint *ep, Role role);
        /* Sends one message of LEN bytes (DATA is NUL-terminated for string
         * payloads, one byte past LEN).  Returns 0 or -errno. */
        int (*send)(Endpoint *ep, const void *data, size_t len, unsigned flags);
        /* Receives the next message; *DATA stays valid until the next op on
         * EP; for string payloads it is followed by a NUL byte (data[len] ==
         * 0), byte arrays may point into the library's message.  Returns 1 with *DATA and *LEN set, 0 at the end of the stream, or
         * -errno.  EXPECT is the size the runner expects (streams need it). */
        int (*recv)(Endpoint *ep, const void **data, size_t *len, size_t expect);
        /* Marks the end of the client's stream; the server's recv() returns 0. */
        int (*send_end)(Endpoint *ep);
        /* Optional: one request and its reply, as the library does best. */
        int (*call)(Endpoint *ep, const void *data, size_t len,
                    const void **reply, size_t *reply_len, size_t expect);
        void (*close)(Endpoint *ep);
        void (*cleanup)(Endpoint *ep);

        /* TRANSPORT_COMMAND only: the command line that makes one call
         * carrying PAYLOAD (letters) to ipclab's server at ADDRESS. */
        char *(*command)(const char *address, const char *payload);
} Transport;

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
        X(libdbus) \
        X(gdbus) \
        X(sd_bus) \
        X(qtdbus) \
        X(sdbus_cpp) \
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

#define TRANSPORT_DECLARE(id) extern const Transport transport_##id;
TRANSPORTS(TRANSPORT_DECLARE)
#undef TRANSPORT_DECLARE

/* NULL-terminated array of every transport, in TRANSPORTS order. */
extern const Transport *const transport_table[];

/* Looks a transport up by its experiment-file name ("unix-stream"): the
 * table first, then the extra transports. */
const Transport *transport_find(const char *name);

/* Adds a transport that is not in the table, for tests (fault injection
 * wrappers).  At most 16; the pointer must stay valid. */
void transport_add_extra(const Transport *t);

/* Initialises EP for CELL: fds to -1, the rest empty. */
void endpoint_init(Endpoint *ep, const Cell *cell);

/* Sets ep->why from a printf format and returns -ERR (ERR > 0), so that a
 * transport can write `return endpoint_fail(ep, EIO, "short read");`. */
int endpoint_fail(Endpoint *ep, int err, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* Helpers for fd-based transports. */
/* Writes all LEN bytes; returns 0 or -errno (EPIPE when the peer is gone). */
int io_write_all(int fd, const void *buf, size_t len);
/* Reads exactly LEN bytes; returns 1, 0 at end of file before any byte, or
 * -errno (-EPROTO on a short read). */
int io_read_exact(int fd, void *buf, size_t len);
/* Closes *FD if open and sets it to -1. */
void io_close(int *fd);

/* The number in /proc/sys file PATH (a kernel limit), or FALLBACK where it
 * cannot be read or is not above 0. */
long transport_sysctl(const char *path, long fallback);

/* A per-endpoint receive buffer that grows to the largest message. */
void *endpoint_buffer(Endpoint *ep, size_t len);
