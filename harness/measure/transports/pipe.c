/* pipe.c: two anonymous pipes, one per direction, made before fork. */
#include <ipclab/transport.h>
#include "transport.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/* fd[0], fd[1]: client -> server (read, write); fd[2], fd[3]: back. */
enum { C2S_R, C2S_W, S2C_R, S2C_W };

static int pipe_prepare(Endpoint *ep)
{
        if (pipe2(&ep->fd[C2S_R], O_CLOEXEC) < 0)
                return endpoint_fail(ep, errno, "pipe2");
        if (pipe2(&ep->fd[S2C_R], O_CLOEXEC) < 0)
                return endpoint_fail(ep, errno, "pipe2");
        return 0;
}

static int pipe_open(Endpoint *ep, Role role)
{
        ep->role = role;
        if (role == ROLE_SERVER) {
                io_close(&ep->fd[C2S_W]);
                io_close(&ep->fd[S2C_R]);
        } else {
                io_close(&ep->fd[C2S_R]);
                io_close(&ep->fd[S2C_W]);
        }
        return 0;
}

static int pipe_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        int fd = ep->fd[ep->role == ROLE_CLIENT ? C2S_W : S2C_W];
        int r = io_write_all(fd, data, len);

        (void) flags;
        return r < 0 ? endpoint_fail(ep, -r, "pipe write") : 0;
}

static int pipe_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        int fd = ep->fd[ep->role == ROLE_CLIENT ? S2C_R : C2S_R];
        char *buf = endpoint_buffer(ep, expect + 1);
        int r;

        if (!buf)
                return endpoint_fail(ep, ENOMEM, "pipe buffer");
        r = io_read_exact(fd, buf, expect);
        if (r < 0)
                return endpoint_fail(ep, -r, "pipe read");
        if (r == 0)
                return 0;
        buf[expect] = '\0';
        *data = buf;
        *len = expect;
        return 1;
}

static int pipe_send_end(Endpoint *ep)
{
        io_close(&ep->fd[C2S_W]);
        return 0;
}

static void pipe_close(Endpoint *ep)
{
        for (size_t i = 0; i < 4; i++)
                io_close(&ep->fd[i]);
}

const Transport transport_pipe = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "pipe",
        .family = "kernel",
        .summary = "two anonymous pipes, one per direction",
        .flags = TRANSPORT_THREADS,
        .prepare = pipe_prepare,
        .open = pipe_open,
        .send = pipe_send,
        .recv = pipe_recv,
        .send_end = pipe_send_end,
        .close = pipe_close,
        .cleanup = pipe_close,
};
