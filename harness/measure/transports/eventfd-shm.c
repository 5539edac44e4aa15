/* eventfd-shm.c: shared memory, one message slot per direction, each
 * signalled by eventfds.
 *
 * prepare() maps one shared anonymous region (inherited across fork) with
 * a slot per direction, and makes two eventfds per direction: FULL (a
 * message is in the slot) and EMPTY (the slot may be written; 1 at the
 * start).  send() reads EMPTY (waiting until the peer has taken the last
 * message), copies the message in, writes FULL; recv() reads FULL, copies
 * the message out, writes EMPTY.  One message in flight per direction, the
 * way ipc-bench's eventfd test hands them over.  A zero-length message is
 * the end of the stream.  A peer that dies leaves the other waiting until
 * the cell's time limit fails it.
 */
#include "transport.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

enum { C2S, S2C };
/* fd[]: FULL and EMPTY of C2S, then of S2C. */
#define EFD_FULL(d) (2 * (d))
#define EFD_EMPTY(d) (2 * (d) + 1)

#define EFD_MIN_MESSAGE 128   /* room for the runner's ~70-byte ack */

typedef struct {
        unsigned char *map;    /* both slots */
        size_t map_size, slot; /* bytes per slot: the length, then the message */
} EfdShm;

static size_t efd_slot_of(const EfdShm *e, int d)
{
        return (size_t) d * e->slot;
}

static int efd_prepare(Endpoint *ep)
{
        EfdShm *e = g_new0(EfdShm, 1);

        ep->priv = e;
        e->slot = sizeof(uint64_t) + MAX((size_t) ep->cell->size, (size_t) EFD_MIN_MESSAGE);
        e->map_size = 2 * e->slot;
        e->map = mmap(NULL, e->map_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (e->map == MAP_FAILED) {
                e->map = NULL;
                return endpoint_fail(ep, errno, "mmap of %zu bytes", e->map_size);
        }
        for (int d = C2S; d <= S2C; d++) {
                ep->fd[EFD_FULL(d)] = eventfd(0, EFD_CLOEXEC);
                ep->fd[EFD_EMPTY(d)] = eventfd(1, EFD_CLOEXEC);
                if (ep->fd[EFD_FULL(d)] < 0 || ep->fd[EFD_EMPTY(d)] < 0)
                        return endpoint_fail(ep, errno, "eventfd");
        }
        return 0;
}

static int efd_open(Endpoint *ep, Role role)
{
        ep->role = role;
        return 0;
}

/* Waits for FD's count, and takes it. */
static int efd_wait(Endpoint *ep, int fd)
{
        uint64_t v;

        while (read(fd, &v, sizeof v) != (ssize_t) sizeof v)
                if (errno != EINTR)
                        return endpoint_fail(ep, errno, "eventfd read");
        return 0;
}

static int efd_signal(Endpoint *ep, int fd)
{
        uint64_t one = 1;

        while (write(fd, &one, sizeof one) != (ssize_t) sizeof one)
                if (errno != EINTR)
                        return endpoint_fail(ep, errno, "eventfd write");
        return 0;
}

static int efd_put(Endpoint *ep, const void *data, size_t len)
{
        EfdShm *e = ep->priv;
        int d = ep->role == ROLE_CLIENT ? C2S : S2C;
        unsigned char *slot = e->map + efd_slot_of(e, d);
        uint64_t n = len;

        if (len > e->slot - sizeof n)
                return endpoint_fail(ep, EMSGSIZE, "a message of %zu bytes", len);
        int r = efd_wait(ep, ep->fd[EFD_EMPTY(d)]);
        if (r < 0)
                return r;
        memcpy(slot, &n, sizeof n);
        memcpy(slot + sizeof n, data, len);
        return efd_signal(ep, ep->fd[EFD_FULL(d)]);
}

static int efd_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        (void) flags;
        if (len == 0)
                return endpoint_fail(ep, EINVAL, "a zero-length message would read as the end of the stream");
        return efd_put(ep, data, len);
}

static int efd_send_end(Endpoint *ep)
{
        return efd_put(ep, "", 0);
}

static int efd_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        EfdShm *e = ep->priv;
        int d = ep->role == ROLE_CLIENT ? S2C : C2S;
        const unsigned char *slot = e->map + efd_slot_of(e, d);
        char *buf = endpoint_buffer(ep, e->slot);
        uint64_t n;

        (void) expect;
        if (!buf)
                return endpoint_fail(ep, ENOMEM, "a receive buffer of %zu bytes", e->slot);
        int r = efd_wait(ep, ep->fd[EFD_FULL(d)]);
        if (r < 0)
                return r;
        memcpy(&n, slot, sizeof n);
        if (n > e->slot - sizeof n)
                return endpoint_fail(ep, EPROTO, "a slot says %" G_GUINT64_FORMAT " bytes", (guint64) n);
        memcpy(buf, slot + sizeof n, n);
        buf[n] = '\0';
        r = efd_signal(ep, ep->fd[EFD_EMPTY(d)]);
        if (r < 0 || n == 0)
                return r;
        *data = buf;
        *len = n;
        return 1;
}

static void efd_close(Endpoint *ep)
{
        for (size_t i = 0; i < 4; i++)
                io_close(&ep->fd[i]);
}

static void efd_cleanup(Endpoint *ep)
{
        EfdShm *e = ep->priv;

        efd_close(ep);
        if (e && e->map)
                munmap(e->map, e->map_size);
        g_clear_pointer(&ep->priv, g_free);
}

const Transport transport_eventfd_shm = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "eventfd-shm",
        .family = "kernel",
        .summary = "shared memory, one message slot per direction, handed over by eventfd reads and writes",
        .flags = TRANSPORT_THREADS,
        .prepare = efd_prepare,
        .open = efd_open,
        .send = efd_send,
        .recv = efd_recv,
        .send_end = efd_send_end,
        .close = efd_close,
        .cleanup = efd_cleanup,
};
