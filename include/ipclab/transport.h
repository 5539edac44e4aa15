/* ipclab/transport.h: the transport ABI of ipclab, version 1.2.
 *
 * A transport moves ipclab's messages from a client to a server and back:
 * a pipe, a socket, a D-Bus library, your own IPC.  ipclab owns everything
 * else: the processes, the CPUs they run on, the clocks, the warm-up, the
 * timed window, the latencies, the checks of every message and the files
 * that come out.  A transport is a table of functions (IpclabTransport,
 * below) that ipclab calls in loops; it never knows what is timed.
 *
 * ipclab's own transports are written against this header, exactly as a
 * plugin is: the table a plugin fills is the table ipclab runs.  A plugin
 * is a shared object that exports one symbol,
 *
 *     IPCLAB_TRANSPORT_EXPORT const IpclabTransport ipclab_transport_v1 = {
 *             IPCLAB_TRANSPORT_HEADER,
 *             .name = "mine", .family = "library", .summary = "...",
 *             .version = "1.0", .open = ..., .send = ..., .recv = ...,
 *             .send_end = ...,
 *     };
 *
 * built with `cc -shared -fPIC $(pkg-config --cflags ipclab) -o mine.so
 * mine.c` and named in an experiment file as `transport=mine` (found as
 * mine.so in the study's transports/ directory, in a directory of
 * IPCLAB_PLUGIN_PATH, or in `pkg-config --variable=plugindir ipclab`) or
 * as `transport=plugin:transports/mine.so` (relative to the study's top
 * directory, the one above experiments/).  The header needs nothing but
 * the C library: a plugin links nothing of ipclab's, and C++ (or anything
 * that can export a C struct) implements it as well as C.
 *
 * Versions.  IPCLAB_TRANSPORT_ABI_MAJOR changes when a field moves or
 * changes meaning; the symbol's name carries it (ipclab_transport_v1), and
 * ipclab loads only its own major.  IPCLAB_TRANSPORT_ABI_MINOR grows when
 * a field, a flag or an axis value is added at the end of a struct: a
 * plugin built for minor N runs on every ipclab of the same major whose
 * minor is N or more (ipclab fills the structs it hands over completely,
 * and reads of the plugin's table only what minor N had; an axis value
 * added after N is never given to it).  ipclab refuses, before anything
 * is measured, a plugin of another major, of a newer minor, whose
 * struct_size is not that of its minor, that lacks a mandatory hook, sets
 * a flag ipclab does not know, whose name is not a valid transport name
 * or is taken (by a transport of ipclab's or another plugin), or that was
 * asked for by another name.
 *
 * Processes.  One repetition of one cell, in a process ipclab forks for
 * it (the supervisor, "the forking process" below):
 *
 *   prepare()             in the supervisor: create what both sides share
 *                         (a pipe, a path in ep->dir)
 *   server:  open(SERVER) in a child process of its own; then ipclab
 *                         waits for it to be ready, so a server listens
 *                         (or binds) in open()
 *   client:  open(CLIENT) in another child, once the server is ready
 *   close()               in the supervisor, right after both forks: drop
 *                         its copies of what prepare() made, so that an
 *                         end of stream can be seen
 *   ... messages ...      in the two children; each calls close() at its end
 *   cleanup()             in the supervisor, after both children have
 *                         ended (or were killed): remove what prepare() made
 *   (command()            IPCLAB_TRANSPORT_COMMAND: in the supervisor)
 *
 * No measuring hook runs in ipclab's own process, so a crash or a hang in
 * one fails that repetition alone, and ipclab goes on with the next: a
 * crash in the supervisor's prepare(), close(), cleanup() or command()
 * with the hook and the signal named ("prepare() killed by signal 11
 * (Segmentation fault)"; both children are then killed, and ep->dir is
 * removed, but what cleanup() would have removed elsewhere stays: keep it
 * in ep->dir), a crash in a child (the server's or client's open(),
 * send(), recv(), send_end(), close()) with the side and the signal
 * named.  A hang in prepare() or cleanup() is ended when the cell's
 * timeout= is up, counted from the hook's call; one in the supervisor's
 * close() or command() or in a child, when the repetition's timeout= is
 * up (counted from the end of prepare()).  The supervisor sits outside the timed
 * window, as ipclab did: it waits while the children measure.  The
 * describing hooks (unavailable, max_size, refuses, libraries) are called
 * by ipclab outside any measurement, for a plugin each in a short-lived
 * process of its own: a crash there refuses the plugin (exit 2) naming
 * the hook.
 * IPCLAB_TRANSPORT_INPROCESS puts both roles in one process: open(SERVER)
 * then open(CLIENT) on the same endpoint, no fork, no close() between.
 * Threads: start them in open(), never in prepare() (a process that has
 * threads must not fork).  roles=threads (only with
 * IPCLAB_TRANSPORT_THREADS; a transport without it is refused the value,
 * with the reason its refuses() gives for a cell whose roles is
 * IPCLAB_ROLES_THREADS (ABI 1.2), else a general one) forks one child in
 * which the two roles run as
 * two threads: each thread gets an endpoint of its own, a copy of the
 * prepared one in which every fd of ep->fd[] is a duplicate (so each role
 * closes its own, as after fork), but ep->priv is the same pointer for
 * both; a transport flagged so keeps what open() and the ops change per
 * role (indexed by ep->role, or in ep->fd[]), and its close() releases
 * only what that role made.  A transport never prints, never calls exit(),
 * never installs a signal handler and never changes the CPU affinity:
 * ipclab pins both sides as the cell's cpus= says.
 *
 * Messages.  The client sends requests of the cell's size (callrate: no
 * payload, or one byte without IPCLAB_TRANSPORT_EMPTY_OK).  The server's
 * recv() returns each.  Round trips: the server answers each with send()
 * (the payload echoed, or an empty reply: the cell's reply=), and the
 * client reads the answer with recv(), or does both with call().  One-way:
 * no answer (send() gets IPCLAB_SEND_NO_REPLY).  At the end the client
 * calls send_end(); the server's recv() returns 0; the server sends one
 * final message of at most IPCLAB_TRANSPORT_ACK_MAX bytes (ipclab's ack:
 * counts, a checksum and the server's clocks), whatever the cell's size,
 * which the client reads with recv().  A stream transport frames nothing:
 * recv() gets the size ipclab expects (`expect`), which is always the
 * size that was sent.
 *
 * The timed window.  Before it, the client exchanges `warmup=` round trips
 * and two windows of one message through the same hooks; then ipclab
 * reads the clocks and the window opens.  Inside lie the timed calls of
 * send(), recv() and call() on both sides, and ipclab's clock reads;
 * open(), close(), prepare(), cleanup(), send_end() and the ack lie
 * outside it.  So in send(), recv() and call(): no allocation per message
 * once warmed up (receive into ipclab_endpoint_buffer(), which grows to
 * the largest message once, or into buffers made in open()), no logging,
 * no system call that is not part of the path being measured.  What a
 * library does per message is what is measured; the glue should add
 * nothing to it.
 *
 * Errors.  Every hook that returns int returns >= 0 on success or a
 * negative errno (-EPIPE, -EPROTO, ...) on failure, with a reason for a
 * person in ep->why (ipclab_endpoint_fail() does both).  A failure fails
 * the repetition: it is recorded with the reason, its cell's other
 * repetitions and the other cells still run.  There is no retry: -EAGAIN
 * and -EINTR are failures like any other, so a hook loops over EINTR and
 * short writes itself (ipclab_write_all() and ipclab_read_exact() do).
 *
 * Ownership.  ipclab owns the endpoint and everything it points to but
 * ep->priv: the cell (valid for the repetition), ep->dir (a private 0700
 * directory for this repetition, removed with what is in it afterwards),
 * ep->bus_address, and ep->buf (grown by ipclab_endpoint_buffer(),
 * released by ipclab with free()).  ep->priv and the fds in ep->fd are the
 * transport's: set in prepare() they are inherited by both children (each
 * process owns its copy: close() releases this process's, cleanup() the
 * forking process's); set in open() they are that process's alone.
 * Strings a hook returns (unavailable, refuses, libraries) are static or
 * live as long as the object: ipclab never frees them.
 */
#ifndef IPCLAB_TRANSPORT_H
#define IPCLAB_TRANSPORT_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IPCLAB_TRANSPORT_ABI_MAJOR 1
#define IPCLAB_TRANSPORT_ABI_MINOR 2
/* The one symbol a plugin exports: an IpclabTransport. */
#define IPCLAB_TRANSPORT_SYMBOL "ipclab_transport_v1"
/* The server's final message, the ack, is at most this many bytes: a
 * transport carries it whatever the cell's size. */
#define IPCLAB_TRANSPORT_ACK_MAX 128
/* The longest transport name. */
#define IPCLAB_TRANSPORT_NAME_MAX 32

/* ---- the cell: what one measurement asks for ---- */

/* The values of the cell's axes, as experiment files name them.  Numbers
 * are fixed: new values are only ever added at the end. */
enum {
        IPCLAB_PAYLOAD_BYTES = 0,     /* payload=bytes: any byte values */
        IPCLAB_PAYLOAD_STRING = 1,    /* payload=string: letters (valid UTF-8);
                                       * DATA[len] is a NUL byte */
        IPCLAB_PAYLOAD_NONE = 2,      /* pattern=callrate: no payload */
};
enum {
        IPCLAB_PATTERN_ONEWAY = 0,    /* requests only, then the ack */
        IPCLAB_PATTERN_ROUNDTRIP = 1, /* a reply to every request */
        IPCLAB_PATTERN_CALLRATE = 2,  /* round trips with no payload */
};
enum {
        IPCLAB_REPLY_ECHO = 0,        /* the reply carries the request back */
        IPCLAB_REPLY_EMPTY = 1,       /* the smallest reply: 0 bytes (1 without EMPTY_OK) */
        IPCLAB_REPLY_SHORT = 2,       /* the string "OK", added and checked by the
                                       * transport (IPCLAB_TRANSPORT_SHORT_REPLY) */
};
enum {
        IPCLAB_MARSHAL_ARRAY = 0,     /* the payload as one piece */
        IPCLAB_MARSHAL_PER_ELEMENT = 1,        /* appended and read one byte at a time */
        IPCLAB_MARSHAL_APPEND_PER_ELEMENT = 2, /* appended per byte, read whole */
        IPCLAB_MARSHAL_COPY = 3,      /* strings built as an application builds them */
};
enum {
        IPCLAB_BUS_NONE = 0,          /* not a D-Bus transport */
        IPCLAB_BUS_DBUS_DAEMON = 1,
        IPCLAB_BUS_DBUS_BROKER = 2,
        IPCLAB_BUS_P2P = 3,           /* D-Bus peer to peer: no bus */
};
enum {
        IPCLAB_CPUS_NONE = 0,         /* unpinned */
        IPCLAB_CPUS_SAME = 1,         /* both sides on one CPU */
        IPCLAB_CPUS_SPLIT = 2,        /* on two CPUs */
};
/* (ABI 1.2) */
enum {
        IPCLAB_ROLES_PROCESSES = 0,   /* client and server in two processes */
        IPCLAB_ROLES_THREADS = 1,     /* as two threads of one process ("Threads" above) */
};

/* One point of the experiment's matrix.  ipclab fills it; a transport
 * reads it (ep->cell, and the argument of max_size() and refuses()). */
typedef struct IpclabCell {
        uint32_t struct_size;     /* sizeof(IpclabCell) as ipclab filled it */
        uint32_t index;           /* the cell's position in the experiment */
        const char *transport;    /* the transport's name */
        uint64_t size;            /* payload bytes per message (0: callrate) */
        uint64_t count;           /* messages in the window, or 0 with duration_ns */
        uint64_t duration_ns;     /* the window's time box, or 0 with count */
        uint32_t payload;         /* IPCLAB_PAYLOAD_* */
        uint32_t pattern;         /* IPCLAB_PATTERN_* */
        uint32_t reply;           /* IPCLAB_REPLY_* (echo for one-way) */
        uint32_t marshal;         /* IPCLAB_MARSHAL_* */
        uint32_t bus;             /* IPCLAB_BUS_*: NONE unless IPCLAB_TRANSPORT_DBUS */
        uint32_t cpus;            /* IPCLAB_CPUS_*: ipclab has pinned both sides */
        /* ABI 1.2.  A plugin built for 1.0 or 1.1 reads only the fields
         * above (ipclab fills the whole struct; struct_size says how much). */
        uint32_t roles;           /* IPCLAB_ROLES_*: refuses() sees THREADS also
                                   * without IPCLAB_TRANSPORT_THREADS, to say why */
        uint32_t reserved;        /* 0: the padding, as a field */
} IpclabCell;

/* ---- the endpoint: one side of one repetition ---- */

typedef enum {
        IPCLAB_ROLE_SERVER = 0,
        IPCLAB_ROLE_CLIENT = 1,
} IpclabRole;

/* No field leaves a hole before the next (test-plugin checks that the
 * fields fill the struct), so that a field added later cannot hide in
 * padding. */
typedef struct IpclabEndpoint {
        const IpclabCell *cell;
        char *dir;                /* private 0700 directory for this repetition */
        const char *bus_address;  /* D-Bus: the private bus, NULL for p2p */
        void *priv;               /* the transport's state */
        void *buf;                /* ipclab_endpoint_buffer(); freed by ipclab */
        size_t buf_size;
        IpclabRole role;          /* set by the transport in open() */
        pid_t bus_pid;            /* D-Bus: the bus daemon, 0 for p2p */
        int fd[4];                /* the transport's; -1 when unused */
        char why[256];            /* the reason for the last failure, or "" */
} IpclabEndpoint;

/* ---- the transport ---- */

/* Flags: what the transport is and which axis values it takes. */
enum {
        IPCLAB_TRANSPORT_INPROCESS = 1 << 0,   /* both roles in one process, no fork */
        IPCLAB_TRANSPORT_DBUS = 1 << 1,        /* takes bus=dbus-daemon, dbus-broker, p2p;
                                                * ipclab starts the bus */
        IPCLAB_TRANSPORT_MARSHAL = 1 << 2,     /* takes marshal=per-element and
                                                * append-per-element (byte payloads) */
        IPCLAB_TRANSPORT_VALIDATES = 1 << 3,   /* validates string payloads itself (else
                                                * ipclab checks their UTF-8, in the window) */
        IPCLAB_TRANSPORT_EMPTY_OK = 1 << 4,    /* carries a message of 0 bytes */
        IPCLAB_TRANSPORT_COMMAND = 1 << 5,     /* a whole command run by hyperfine per
                                                * call (runner=hyperfine): only command()
                                                * is called, against ipclab's libdbus server */
        IPCLAB_TRANSPORT_COPY_STRING = 1 << 6, /* takes marshal=copy (string payloads) */
        IPCLAB_TRANSPORT_SHORT_REPLY = 1 << 7, /* takes reply=short */
        IPCLAB_TRANSPORT_THREADS = 1 << 8,     /* takes roles=threads: see "Threads" above
                                                * (ABI 1.1) */
};
/* Every flag this header defines; ipclab refuses a plugin with another. */
#define IPCLAB_TRANSPORT_FLAGS_KNOWN 0x1ffu

/* send() flags. */
enum {
        IPCLAB_SEND_NO_REPLY = 1 << 0,   /* a one-way message: no answer will come */
};

/* The descriptor.  Mandatory: name, family, summary, version (plugins;
 * ipclab's own transports carry ipclab's version), open, send, recv,
 * send_end; or, for IPCLAB_TRANSPORT_COMMAND, name, family, summary,
 * version and command.  Every other hook may be NULL. */
typedef struct IpclabTransport {
        uint32_t abi_major;       /* IPCLAB_TRANSPORT_ABI_MAJOR     } IPCLAB_TRANSPORT_HEADER */
        uint32_t abi_minor;       /* IPCLAB_TRANSPORT_ABI_MINOR     } fills these three */
        uint32_t struct_size;     /* sizeof(IpclabTransport)        } */
        uint32_t flags;           /* IPCLAB_TRANSPORT_* */
        const char *name;         /* as experiment files name it: letters, digits,
                                   * '-', '_', '+', '.'; at most IPCLAB_TRANSPORT_NAME_MAX */
        const char *family;       /* one word for `ipclab list`: "kernel", "dbus", "library" */
        const char *summary;      /* one line for `ipclab list` */
        const char *version;      /* the plugin's own version, recorded in meta.ini */

        /* Describing hooks: outside any measurement, cheap, no side effects. */

        /* NULL when the transport can run on this machine, else why not
         * ("needs kernel 5.6", "libfoo is not installed"): its cells are
         * then left out with the reason, and `ipclab list` shows it. */
        const char *(*unavailable)(void);
        /* The largest payload it carries here, in bytes; 0: no limit.
         * Larger cells are left out, with the limit named. */
        size_t (*max_size)(const IpclabCell *cell);
        /* Why it cannot do CELL (a value of an axis its flags admit but it
         * does not do), or NULL when it can: the cell is left out with the
         * reason, which `ipclab check` lists. */
        const char *(*refuses)(const IpclabCell *cell);

        /* Measuring hooks (see the top of the file for the processes). */

        /* Creates what both sides share, in the supervisor (see the top of
         * the file); ep->dir exists.  0 or -errno. */
        int (*prepare)(IpclabEndpoint *ep);
        /* Takes ROLE (sets ep->role) and connects; a server is ready to be
         * connected to when it returns.  0 or -errno. */
        int (*open)(IpclabEndpoint *ep, IpclabRole role);
        /* Sends one message of LEN bytes at DATA (a string payload has a NUL
         * at DATA[LEN], not sent).  FLAGS: IPCLAB_SEND_NO_REPLY.  DATA
         * belongs to ipclab and changes after the call returns (or is
         * ep->buf, for an echo).  0 or -errno.  In the window. */
        int (*send)(IpclabEndpoint *ep, const void *data, size_t len, unsigned flags);
        /* Receives the next message: 1 with *DATA and *LEN set (*DATA valid
         * until the next hook called on EP; for a string payload DATA[LEN]
         * must be a NUL byte: receive into a buffer one byte larger), 0 at
         * the end of the stream (the server, after the client's send_end()),
         * or -errno.  EXPECT is the size that was sent.  In the window. */
        int (*recv)(IpclabEndpoint *ep, const void **data, size_t *len, size_t expect);
        /* The client's end of the stream: the server's next recv() returns 0
         * (after every message sent before it).  0 or -errno. */
        int (*send_end)(IpclabEndpoint *ep);
        /* Optional: one request and its reply, as the mechanism does it best
         * (a method call); else ipclab calls send() then recv().  1 with
         * *REPLY and *REPLY_LEN set (as recv()), or -errno.  In the window. */
        int (*call)(IpclabEndpoint *ep, const void *data, size_t len,
                    const void **reply, size_t *reply_len, size_t expect);
        /* Releases this process's part of EP (each child at its end, the
         * supervisor right after forking both).  May be called on an
         * endpoint whose open() failed or never ran. */
        void (*close)(IpclabEndpoint *ep);
        /* Removes what prepare() made, in the supervisor. */
        void (*cleanup)(IpclabEndpoint *ep);

        /* IPCLAB_TRANSPORT_COMMAND only: the command line (split at blanks,
         * no shell) that makes one call carrying PAYLOAD (letters) to
         * ipclab's libdbus server at ADDRESS; malloc()ed, ipclab free()s it. */
        char *(*command)(const char *address, const char *payload);

        /* Optional, describing: the versions of the libraries it uses, as
         * they report themselves at run time ("libzmq 4.3.4"; several
         * separated by "; "), recorded in meta.ini beside the libraries
         * the object links (which ipclab reads itself). */
        const char *(*libraries)(void);
} IpclabTransport;

/* The start of every descriptor. */
#define IPCLAB_TRANSPORT_HEADER \
        .abi_major = IPCLAB_TRANSPORT_ABI_MAJOR, .abi_minor = IPCLAB_TRANSPORT_ABI_MINOR, \
        .struct_size = (uint32_t) sizeof(IpclabTransport)

/* The same for C++, where designated initializers must name every field
 * (g++) or are C++20: a zeroed descriptor with IPCLAB_TRANSPORT_HEADER's
 * fields set, to fill field by field in a function whose result
 * initializes ipclab_transport_v1 (ipclab reads it after the object's
 * constructors have run). */
static inline void ipclab_transport_init(IpclabTransport *t)
{
        memset(t, 0, sizeof *t);
        t->abi_major = IPCLAB_TRANSPORT_ABI_MAJOR;
        t->abi_minor = IPCLAB_TRANSPORT_ABI_MINOR;
        t->struct_size = (uint32_t) sizeof(IpclabTransport);
}

/* What a plugin's descriptor is declared with: exported, C linkage. */
#ifdef __cplusplus
#define IPCLAB_TRANSPORT_EXPORT extern "C" __attribute__((visibility("default")))
#else
#define IPCLAB_TRANSPORT_EXPORT __attribute__((visibility("default")))
#endif

/* The symbol a plugin defines (declared here so that its type is checked). */
extern const IpclabTransport ipclab_transport_v1;

/* ---- helpers: static inline, so that a plugin links nothing of ipclab ---- */

/* Sets ep->why from a printf format, followed by ": strerror(ERR)" when
 * ERR > 0, and returns -ERR (-EIO when ERR <= 0): a hook writes
 * `return ipclab_endpoint_fail(ep, errno, "connect %s", path);`. */
static inline int ipclab_endpoint_fail(IpclabEndpoint *ep, int err, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
static inline int ipclab_endpoint_fail(IpclabEndpoint *ep, int err, const char *fmt, ...)
{
        va_list ap;
        size_t n;

        va_start(ap, fmt);
        vsnprintf(ep->why, sizeof ep->why, fmt, ap);
        va_end(ap);
        n = strlen(ep->why);
        if (err > 0)
                snprintf(ep->why + n, sizeof ep->why - n, ": %s", strerror(err));
        return err > 0 ? -err : -EIO;
}

/* A receive buffer of at least LEN bytes that grows to the largest message
 * and is then reused (ep->buf); NULL when out of memory. */
static inline void *ipclab_endpoint_buffer(IpclabEndpoint *ep, size_t len)
{
        if (len > ep->buf_size || !ep->buf) {
                void *p = realloc(ep->buf, len ? len : 1);
                if (!p)
                        return NULL;
                ep->buf = p;
                ep->buf_size = len ? len : 1;
        }
        return ep->buf;
}

/* Writes all LEN bytes of BUF to FD, over EINTR and short writes: 0 or
 * -errno (-EPIPE when the peer is gone). */
static inline int ipclab_write_all(int fd, const void *buf, size_t len)
{
        const char *p = (const char *) buf;

        while (len > 0) {
                ssize_t n = write(fd, p, len);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                p += n;
                len -= (size_t) n;
        }
        return 0;
}

/* Reads exactly LEN bytes from FD into BUF: 1, 0 at end of file before any
 * byte, or -errno (-EPROTO at end of file after some). */
static inline int ipclab_read_exact(int fd, void *buf, size_t len)
{
        char *p = (char *) buf;
        size_t got = 0;

        while (got < len) {
                ssize_t n = read(fd, p + got, len - got);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                if (n == 0)
                        return got == 0 ? 0 : -EPROTO;
                got += (size_t) n;
        }
        return 1;
}

/* Closes *FD if it is open and sets it to -1. */
static inline void ipclab_close_fd(int *fd)
{
        if (*fd >= 0) {
                close(*fd);
                *fd = -1;
        }
}

#ifdef __cplusplus
}
#endif

#endif /* IPCLAB_TRANSPORT_H */
