/* faulty.c: plugins that go wrong, one way each, for test-plugin.sh and
 * test-plugin.c.  Built once per fault with -DFAULT_<KIND> into
 * faulty-<kind>.so (mk/plugins.mk), the transport named "faulty-<kind>"
 * (-DNAME); without a fault it is a sound transport over two pipes.
 *
 * Refused when loaded:  FAULT_ABI (major 2), FAULT_MINOR (a minor newer
 * than ipclab's), FAULT_SIZE (a descriptor of the wrong size), FAULT_FLAGS
 * (a flag no ABI has), FAULT_OLD_THREADS (built for ABI 1.0, it sets
 * IPCLAB_TRANSPORT_THREADS, which 1.1 added), FAULT_NO_SEND (no send()),
 * FAULT_NO_VERSION, FAULT_DUP (named "pipe", one of ipclab's own),
 * FAULT_UNDEFINED (needs a symbol nothing defines: dlopen fails),
 * FAULT_NO_SYMBOL (exports ipclab_transport_v2, not v1),
 * FAULT_CRASH_UNAVAILABLE, FAULT_CRASH_REFUSES.
 * Fail a cell:  FAULT_CRASH_OPEN (the server, in open()), FAULT_CRASH_SEND
 * (the client, after some messages), FAULT_CRASH_PREPARE,
 * FAULT_CRASH_CLEANUP and FAULT_CRASH_CLOSE (in the process that forks
 * both sides: its close() only), FAULT_HANG_RECV (the server stops
 * reading), FAULT_HANG_PREPARE and FAULT_HANG_CLEANUP (the cell's timeout
 * ends each),
 * FAULT_OVERFLOW (the server writes one byte past its buffer: only an
 * AddressSanitizer build sees it).
 */
#define _GNU_SOURCE   /* pipe2 */
#include <ipclab/transport.h>

#include <fcntl.h>
#include <signal.h>

#ifndef NAME
#define NAME "faulty"
#endif

/* fd[0], fd[1]: client to server (read, write); fd[2], fd[3]: back. */
enum { C2S_R, C2S_W, S2C_R, S2C_W };

static unsigned sends;
/* open() ran in this process: a side's, not the forking process's. */
static int opened;

#ifdef FAULT_UNDEFINED
void ipclab_test_nothing_defines_this(void);
#endif

/* A crash no handler catches (not even AddressSanitizer's, in its build). */
__attribute__((unused)) static void crash(void)
{
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
}

/* A hook that never returns. */
__attribute__((unused)) static void hang(void)
{
        for (;;)
                pause();
}

static int faulty_prepare(IpclabEndpoint *ep)
{
#ifdef FAULT_CRASH_PREPARE
        crash();
#endif
#ifdef FAULT_HANG_PREPARE
        hang();
#endif
#ifdef FAULT_UNDEFINED
        ipclab_test_nothing_defines_this();
#endif
        if (pipe2(&ep->fd[C2S_R], O_CLOEXEC) < 0 || pipe2(&ep->fd[S2C_R], O_CLOEXEC) < 0)
                return ipclab_endpoint_fail(ep, errno, "pipe2");
        return 0;
}

static int faulty_open(IpclabEndpoint *ep, IpclabRole role)
{
        ep->role = role;
        opened = 1;
#ifdef FAULT_CRASH_OPEN
        if (role == IPCLAB_ROLE_SERVER)
                crash();
#endif
        ipclab_close_fd(&ep->fd[role == IPCLAB_ROLE_SERVER ? C2S_W : C2S_R]);
        ipclab_close_fd(&ep->fd[role == IPCLAB_ROLE_SERVER ? S2C_R : S2C_W]);
        return 0;
}

__attribute__((unused)) static int faulty_send(IpclabEndpoint *ep, const void *data, size_t len, unsigned flags)
{
        (void) flags;
#ifdef FAULT_CRASH_SEND
        if (ep->role == IPCLAB_ROLE_CLIENT && ++sends == 20)
                crash();
#endif
        (void) sends;
        int r = ipclab_write_all(ep->fd[ep->role == IPCLAB_ROLE_CLIENT ? C2S_W : S2C_W], data, len);
        return r < 0 ? ipclab_endpoint_fail(ep, -r, "write") : 0;
}

static int faulty_recv(IpclabEndpoint *ep, const void **data, size_t *len, size_t expect)
{
        char *buf = ipclab_endpoint_buffer(ep, expect + 1);

#ifdef FAULT_HANG_RECV
        if (ep->role == IPCLAB_ROLE_SERVER)
                hang();
#endif
        if (!buf)
                return ipclab_endpoint_fail(ep, ENOMEM, "buffer");
        int r = ipclab_read_exact(ep->fd[ep->role == IPCLAB_ROLE_CLIENT ? S2C_R : C2S_R], buf, expect);
        if (r <= 0)
                return r < 0 ? ipclab_endpoint_fail(ep, -r, "read") : 0;
#ifdef FAULT_OVERFLOW
        if (ep->role == IPCLAB_ROLE_SERVER)
                buf[ep->buf_size] = 'x';   /* one byte past the buffer */
#endif
        buf[expect] = '\0';
        *data = buf;
        *len = expect;
        return 1;
}

static int faulty_send_end(IpclabEndpoint *ep)
{
        ipclab_close_fd(&ep->fd[C2S_W]);
        return 0;
}

static void faulty_close(IpclabEndpoint *ep)
{
#ifdef FAULT_CRASH_CLOSE
        if (!opened)
                crash();
#endif
        (void) opened;
        for (size_t i = 0; i < 4; i++)
                ipclab_close_fd(&ep->fd[i]);
}

static void faulty_cleanup(IpclabEndpoint *ep)
{
#ifdef FAULT_CRASH_CLEANUP
        crash();
#endif
#ifdef FAULT_HANG_CLEANUP
        hang();
#endif
        faulty_close(ep);
}

static const char *faulty_unavailable(void)
{
#ifdef FAULT_CRASH_UNAVAILABLE
        crash();
#endif
        return NULL;
}

static const char *faulty_refuses(const IpclabCell *cell)
{
#ifdef FAULT_CRASH_REFUSES
        if (cell->size > 100)
                crash();
#endif
        return cell->size > (1u << 20) ? "at most 1 MiB (a test's limit)" : NULL;
}

/* FAULT_NO_SYMBOL: the descriptor under another major's name. */
#ifdef FAULT_NO_SYMBOL
#define SYMBOL ipclab_transport_v2
#else
#define SYMBOL ipclab_transport_v1
#endif

IPCLAB_TRANSPORT_EXPORT const IpclabTransport SYMBOL = {
#if defined FAULT_ABI
        .abi_major = 2, .abi_minor = 0, .struct_size = sizeof(IpclabTransport),
#elif defined FAULT_MINOR
        .abi_major = IPCLAB_TRANSPORT_ABI_MAJOR, .abi_minor = 9, .struct_size = sizeof(IpclabTransport),
#elif defined FAULT_OLD_THREADS
        .abi_major = IPCLAB_TRANSPORT_ABI_MAJOR, .abi_minor = 0, .struct_size = sizeof(IpclabTransport),
        .flags = IPCLAB_TRANSPORT_THREADS,
#elif defined FAULT_SIZE
        .abi_major = IPCLAB_TRANSPORT_ABI_MAJOR, .abi_minor = IPCLAB_TRANSPORT_ABI_MINOR, .struct_size = 64,
#else
        IPCLAB_TRANSPORT_HEADER,
#endif
#ifdef FAULT_FLAGS
        .flags = 1u << 30,
#endif
#ifdef FAULT_DUP
        .name = "pipe",
#else
        .name = NAME,
#endif
        .family = "test",
        .summary = "a plugin that goes wrong (test-plugin)",
#ifndef FAULT_NO_VERSION
        .version = "0.1",
#endif
        .unavailable = faulty_unavailable,
        .refuses = faulty_refuses,
        .prepare = faulty_prepare,
        .open = faulty_open,
#ifndef FAULT_NO_SEND
        .send = faulty_send,
#endif
        .recv = faulty_recv,
        .send_end = faulty_send_end,
        .close = faulty_close,
        .cleanup = faulty_cleanup,
};
