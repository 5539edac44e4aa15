/* pipe-packet.c: a transport of this study's own, and the place to start
 * yours.  Two pipes in packet mode, one per direction: pipe2(O_DIRECT)
 * (Linux 3.4) makes every write(2) one message and every read(2) take one
 * whole message, up to PIPE_BUF (4096) bytes: message boundaries without
 * a socket, a kernel path ipclab does not ship.  Beside ipclab's `pipe`
 * (the same pipes as a byte stream) it shows what packets cost.
 *
 * Built by `make` into transports/pipe-packet.so (the rule in this study's
 * Makefile: cc -shared -fPIC $(pkg-config --cflags ipclab)), named in an
 * experiment file as transport=pipe-packet.  ipclab/transport.h (in
 * `pkg-config --variable=includedir ipclab`) is the contract: which
 * process calls each hook, what lies inside the timed window, what a
 * negative errno means, who owns what.  A new transport is this file with
 * its name and hooks changed: copy it to transports/NAME.c.
 */
#define _GNU_SOURCE   /* pipe2, O_DIRECT */
#include <ipclab/transport.h>

#include <fcntl.h>
#include <limits.h>

/* ep->fd[]: client to server (read, write), server to client (read, write). */
enum { C2S_R, C2S_W, S2C_R, S2C_W };

/* Describing hooks: called outside any measurement. */

/* Can this machine run it?  Older kernels refuse O_DIRECT on a pipe. */
static const char *packet_unavailable(void)
{
        int fd[2];

        if (pipe2(fd, O_CLOEXEC | O_DIRECT) < 0)
                return errno == EINVAL ? "pipe2(O_DIRECT) is refused: packet-mode pipes need Linux 3.4"
                                       : "pipe2(O_DIRECT) fails here";
        close(fd[0]);
        close(fd[1]);
        return NULL;
}

/* A packet is at most PIPE_BUF bytes: larger cells are left out, with
 * this limit named (`ipclab check` lists them). */
static size_t packet_max_size(const IpclabCell *cell)
{
        (void) cell;
        return PIPE_BUF;
}

/* Measuring hooks. */

/* In the process that forks both sides: what they share. */
static int packet_prepare(IpclabEndpoint *ep)
{
        if (pipe2(&ep->fd[C2S_R], O_CLOEXEC | O_DIRECT) < 0 || pipe2(&ep->fd[S2C_R], O_CLOEXEC | O_DIRECT) < 0)
                return ipclab_endpoint_fail(ep, errno, "pipe2(O_DIRECT)");
        return 0;
}

/* In each side's process: keep its two ends. */
static int packet_open(IpclabEndpoint *ep, IpclabRole role)
{
        ep->role = role;
        ipclab_close_fd(&ep->fd[role == IPCLAB_ROLE_SERVER ? C2S_W : C2S_R]);
        ipclab_close_fd(&ep->fd[role == IPCLAB_ROLE_SERVER ? S2C_R : S2C_W]);
        return 0;
}

/* In the window: one write, one packet (atomic up to PIPE_BUF). */
static int packet_send(IpclabEndpoint *ep, const void *data, size_t len, unsigned flags)
{
        int fd = ep->fd[ep->role == IPCLAB_ROLE_CLIENT ? C2S_W : S2C_W];
        ssize_t n;

        (void) flags;   /* one-way or not, a packet is a packet */
        do
                n = write(fd, data, len);
        while (n < 0 && errno == EINTR);
        if (n != (ssize_t) len)
                return ipclab_endpoint_fail(ep, n < 0 ? errno : EPROTO, "write of a %zu-byte packet", len);
        return 0;
}

/* In the window: one read, one packet, into a buffer made once (one byte
 * more than a packet, for the NUL a string payload needs after it). */
static int packet_recv(IpclabEndpoint *ep, const void **data, size_t *len, size_t expect)
{
        int fd = ep->fd[ep->role == IPCLAB_ROLE_CLIENT ? S2C_R : C2S_R];
        char *buf = ipclab_endpoint_buffer(ep, PIPE_BUF + 1);
        ssize_t n;

        (void) expect;   /* a packet says its own size */
        if (!buf)
                return ipclab_endpoint_fail(ep, ENOMEM, "a packet's buffer");
        do
                n = read(fd, buf, PIPE_BUF);
        while (n < 0 && errno == EINTR);
        if (n < 0)
                return ipclab_endpoint_fail(ep, errno, "read");
        if (n == 0)
                return 0;   /* the client closed its end: the end of the stream */
        buf[n] = '\0';
        *data = buf;
        *len = (size_t) n;
        return 1;
}

/* The client's end of the stream: its write end closed, the server's
 * read() returns 0 once every packet before it has been read. */
static int packet_send_end(IpclabEndpoint *ep)
{
        ipclab_close_fd(&ep->fd[C2S_W]);
        return 0;
}

/* Each process's ends; also cleanup(), for the forking process's. */
static void packet_close(IpclabEndpoint *ep)
{
        for (int i = 0; i < 4; i++)
                ipclab_close_fd(&ep->fd[i]);
}

IPCLAB_TRANSPORT_EXPORT const IpclabTransport ipclab_transport_v1 = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "pipe-packet",   /* the file is named after it: pipe-packet.so */
        .family = "kernel",
        .summary = "two pipes in packet mode (pipe2 O_DIRECT): a message per write, at most PIPE_BUF",
        .version = "1.0",        /* yours: meta.ini records it, a new one measures again */
        .unavailable = packet_unavailable,
        .max_size = packet_max_size,
        .prepare = packet_prepare,
        .open = packet_open,
        .send = packet_send,
        .recv = packet_recv,
        .send_end = packet_send_end,
        .close = packet_close,
        .cleanup = packet_close,
};
