/* shm.c: a shared-memory ring per direction, futex wake-ups.
 *
 * prepare() creates a memfd, sizes it and maps it MAP_SHARED; both children
 * inherit the mapping through fork().  The mapping holds a header page and
 * two rings, client -> server and server -> client.  Each ring is a
 * single-producer single-consumer byte ring whose capacity is a power of
 * two (the message size doubled, between 64 KiB and 4 MiB), with two
 * free-running 32-bit counters:
 *   head  bytes the producer has published (written only by the producer)
 *   tail  bytes the consumer has released (written only by the consumer)
 * A message is a frame: an 8-byte header (length, flags) and the payload,
 * padded to 8 bytes so that a header never wraps.  A message larger than
 * the free space is streamed through the ring in pieces (the producer
 * publishes what fits and waits for room), so any size goes through.  The
 * receiver copies the payload out into its endpoint buffer, as a kernel
 * transport would.  The end of the stream is a frame with SHM_END set.
 *
 * Memory ordering (C11 atomics): the producer fills the bytes, then stores
 * head with release; the consumer loads head with acquire before reading
 * them.  The consumer stores tail with release once it has read; the
 * producer loads tail with acquire before overwriting.
 *
 * Waiting.  A side that finds the ring empty (consumer) or full (producer)
 * sleeps in FUTEX_WAIT on the counter the other side advances.  With
 * cpus=split, and only then, it first polls for up to SHM_SPIN_NS, as the
 * peer surely runs on another CPU.  Elsewhere the two may share a CPU,
 * where polling only keeps the peer from running (measured on a 2-CPU VM:
 * a 1-byte round trip, unpinned, took ~30 us with a 10 us poll and ~7 us
 * without; with cpus=split the poll brings it from ~30 us to ~2 us).
 * Lost wake-ups are excluded by a Dekker handshake: the sleeper sets its
 * `*_waiter` flag, issues a seq_cst fence, re-reads the counter and sleeps
 * only if it is unchanged (FUTEX_WAIT re-checks it atomically); the other
 * side stores the counter, issues a seq_cst fence and calls FUTEX_WAKE
 * only when it sees the flag set.  So a busy ring costs no system call.
 *
 * A peer that is gone.  There is no kernel object to report a vanished
 * peer, so close() sets a flag in the header page and wakes every sleeper,
 * and a sleeper wakes every SHM_CHECK_NS to see whether the peer process
 * has exited without closing (through a pidfd): send() and recv() then
 * fail with EPIPE instead of waiting for ever.
 *
 * busy-ring is the same ring with no kernel wake-up at all: both sides
 * poll the counters for as long as it takes, so a message costs no system
 * call on either side and the window holds only the copies in and out and
 * the cache lines moving between the CPUs.  That is sound only when each
 * side has a CPU of its own: on a shared CPU the poller keeps its peer
 * from running until the scheduler preempts it.  So busy-ring refuses
 * every cell but cpus=split, and cpus=split where this process may run on
 * fewer than two CPUs (roles=threads with cpus=split pins each thread to a
 * CPU of its own, so it runs as threads too).  A poller looks at its peer
 * every BUSY_CHECK_NS (closed, or exited: EPIPE) and gives up after
 * BUSY_MAX_NS without progress (ETIMEDOUT), so that a stopped or stuck
 * peer fails the repetition rather than spinning until the cell's timeout.
 */
#include <ipclab/transport.h>
#include "transport.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { C2S, S2C };

#define SHM_MIN_RING ((size_t) 64 << 10)
#define SHM_MAX_RING ((size_t) 4 << 20)
#define SHM_HEADER_PAGE ((size_t) 4096)
#define SHM_FRAME 8u                       /* frame header: length, flags */
#define SHM_END 1u                         /* flag: the end of the stream */
#define SHM_SPIN_NS 10000u                 /* polling before sleeping */
#define SHM_CHECK_NS 100000000L            /* a sleeper looks at its peer this often */
#define BUSY_CHECK_NS 1000000u              /* busy-ring: a poller looks at its peer this often */
#define BUSY_MAX_NS 10000000000u            /* busy-ring: no progress for this long fails */

typedef struct {
        alignas(64) _Atomic uint32_t head;   /* bytes published; producer's */
        _Atomic uint32_t head_waiter;        /* the consumer sleeps on head */
        alignas(64) _Atomic uint32_t tail;   /* bytes released; consumer's */
        _Atomic uint32_t tail_waiter;        /* the producer sleeps on tail */
} ShmRing;

/* The header page, shared by both processes.  Indexed by Role. */
typedef struct {
        ShmRing ring[2];                        /* C2S, S2C */
        alignas(64) _Atomic int32_t pid[2];     /* who opened each role */
        _Atomic uint32_t closed[2];             /* each role's close() */
} ShmShared;

_Static_assert(sizeof(ShmShared) <= SHM_HEADER_PAGE, "the shared header fits its page");
_Static_assert(sizeof(_Atomic uint32_t) == sizeof(uint32_t), "futex words are plain 32-bit words");

/* What one role changes: its rings, how it waits, its peer. */
typedef struct {
        ShmRing *tx, *rx;             /* after open(): this side's rings */
        unsigned char *txd, *rxd;
        unsigned spin_ns;             /* 0: sleep at once */
        bool busy;                    /* busy-ring: poll, never sleep */
        int peer_pidfd;
} ShmSide;

/* Each process's view (a copy after fork; with roles=threads, one for
 * both threads, each role writing only its own side[]). */
typedef struct {
        ShmShared *shared;
        size_t map_size;
        uint32_t cap;                 /* bytes per ring, a power of two */
        unsigned char *data[2];       /* C2S, S2C ring bytes */
        ShmSide side[2];              /* by Role */
} Shm;

static inline void shm_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ __volatile__("yield" ::: "memory");
#endif
}

static uint64_t shm_now_ns(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static long shm_futex(_Atomic uint32_t *word, int op, uint32_t val, const struct timespec *ts)
{
        /* Not FUTEX_PRIVATE_FLAG: the word is shared between processes. */
        return syscall(SYS_futex, (void *) word, op, val, ts, NULL, 0);
}

static size_t shm_pad(size_t len)
{
        return (len + SHM_FRAME - 1) & ~(size_t) (SHM_FRAME - 1);
}

/* The ring capacity for messages of SIZE bytes: room for two. */
static size_t shm_ring_size(guint64 size)
{
        size_t cap = SHM_MIN_RING;

        while (cap < SHM_MAX_RING && (guint64) cap < 2 * (size + SHM_FRAME))
                cap *= 2;
        return cap;
}

static void shm_copy_in(unsigned char *ring, uint32_t cap, uint32_t pos, const void *src, size_t n)
{
        size_t at = pos & (cap - 1), first = MIN(n, cap - at);

        memcpy(ring + at, src, first);
        memcpy(ring, (const unsigned char *) src + first, n - first);
}

static void shm_copy_out(void *dst, const unsigned char *ring, uint32_t cap, uint32_t pos, size_t n)
{
        size_t at = pos & (cap - 1), first = MIN(n, cap - at);

        memcpy(dst, ring + at, first);
        memcpy((unsigned char *) dst + first, ring, n - first);
}

/* Has the peer closed its end, or (when CHECK_PROCESS) exited? */
static bool shm_peer_gone(Endpoint *ep, bool check_process)
{
        Shm *s = ep->priv;
        int peer = ep->role == ROLE_SERVER ? ROLE_CLIENT : ROLE_SERVER;
        pid_t pid;

        if (atomic_load(&s->shared->closed[peer]))
                return true;
        pid = atomic_load(&s->shared->pid[peer]);
        if (!check_process || pid <= 0)
                return false;   /* the client may not exist yet */
#ifdef SYS_pidfd_open
        ShmSide *me = &s->side[ep->role];
        if (me->peer_pidfd < 0) {
                me->peer_pidfd = (int) syscall(SYS_pidfd_open, pid, 0);
                if (me->peer_pidfd < 0 && errno == ESRCH)
                        return true;
        }
        if (me->peer_pidfd >= 0) {
                struct pollfd p = { .fd = me->peer_pidfd, .events = POLLIN };
                return poll(&p, 1, 0) > 0;
        }
#endif
        return kill(pid, 0) < 0 && errno == ESRCH;
}

/* Waits until *WORD differs from OLD; WAITER is the flag that asks the
 * other side for a FUTEX_WAKE.  Returns 0, or -EPIPE when the peer is gone
 * (or another -errno from the futex). */
static int shm_wait(Endpoint *ep, _Atomic uint32_t *word, _Atomic uint32_t *waiter, uint32_t old)
{
        Shm *s = ep->priv;
        bool slept_long = false;

        unsigned spin_ns = s->side[ep->role].spin_ns;

        if (s->side[ep->role].busy) {
                uint64_t start = shm_now_ns(), checked = start;
                for (unsigned i = 1;; i++) {
                        if (atomic_load_explicit(word, memory_order_acquire) != old)
                                return 0;
                        shm_cpu_relax();
                        if (i % 256 != 0)
                                continue;
                        uint64_t now = shm_now_ns();
                        if (now - checked >= BUSY_CHECK_NS) {
                                /* A peer may publish its last message
                                 * and close between two looks. */
                                if (shm_peer_gone(ep, true))
                                        return atomic_load_explicit(word, memory_order_acquire) != old ? 0
                                                                                                   : -EPIPE;
                                checked = now;
                        }
                        if (now - start >= BUSY_MAX_NS)
                                return -ETIMEDOUT;
                }
        }
        if (spin_ns) {
                uint64_t start = shm_now_ns();
                for (unsigned i = 1;; i++) {
                        if (atomic_load_explicit(word, memory_order_acquire) != old)
                                return 0;
                        shm_cpu_relax();
                        if (i % 64 == 0 && shm_now_ns() - start > spin_ns)
                                break;
                }
        }
        for (;;) {
                atomic_store_explicit(waiter, 1, memory_order_relaxed);
                atomic_thread_fence(memory_order_seq_cst);
                if (atomic_load_explicit(word, memory_order_acquire) != old)
                        break;
                if (shm_peer_gone(ep, slept_long)) {
                        atomic_store_explicit(waiter, 0, memory_order_relaxed);
                        return -EPIPE;
                }
                struct timespec ts = { .tv_sec = 0, .tv_nsec = SHM_CHECK_NS };
                if (shm_futex(word, FUTEX_WAIT, old, &ts) < 0) {
                        if (errno == ETIMEDOUT) {
                                slept_long = true;
                        } else if (errno != EAGAIN && errno != EINTR) {
                                int err = errno;
                                atomic_store_explicit(waiter, 0, memory_order_relaxed);
                                return -err;
                        }
                }
        }
        atomic_store_explicit(waiter, 0, memory_order_relaxed);
        return 0;
}

/* Called after storing *WORD: wakes the other side if it sleeps on it. */
static void shm_wake(_Atomic uint32_t *word, _Atomic uint32_t *waiter)
{
        atomic_thread_fence(memory_order_seq_cst);
        if (atomic_load_explicit(waiter, memory_order_relaxed) &&
            atomic_exchange_explicit(waiter, 0, memory_order_relaxed))
                shm_futex(word, FUTEX_WAKE, 1, NULL);
}

static const char *shm_unavailable(void)
{
        static bool probed;
        static char why[128];

        if (!probed) {
                int fd = memfd_create("ipclab-probe", MFD_CLOEXEC);
                if (fd < 0)
                        snprintf(why, sizeof why, "memfd_create: %s", g_strerror(errno));
                else
                        close(fd);
                probed = true;
        }
        return why[0] ? why : NULL;
}

static int shm_prepare(Endpoint *ep)
{
        Shm *s = g_new0(Shm, 1);
        size_t cap = shm_ring_size(ep->cell->size);
        void *p;
        int fd;

        ep->priv = s;
        s->side[ROLE_SERVER].peer_pidfd = s->side[ROLE_CLIENT].peer_pidfd = -1;
        s->map_size = SHM_HEADER_PAGE + 2 * cap;
        fd = memfd_create("ipclab-shm", MFD_CLOEXEC);
        if (fd < 0)
                return endpoint_fail(ep, errno, "memfd_create");
        if (ftruncate(fd, (off_t) s->map_size) < 0) {
                int err = errno;
                close(fd);
                return endpoint_fail(ep, err, "ftruncate of the memfd to %zu bytes", s->map_size);
        }
        p = mmap(NULL, s->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);   /* the mapping keeps the memory */
        if (p == MAP_FAILED)
                return endpoint_fail(ep, errno, "mmap of %zu bytes", s->map_size);
        s->shared = p;   /* a fresh memfd reads as zeros: counters and flags start at 0 */
        s->cap = (uint32_t) cap;
        s->data[C2S] = (unsigned char *) p + SHM_HEADER_PAGE;
        s->data[S2C] = (unsigned char *) p + SHM_HEADER_PAGE + cap;
        return 0;
}

static int shm_open_role(Endpoint *ep, Role role)
{
        Shm *s = ep->priv;
        int out = role == ROLE_SERVER ? S2C : C2S;

        if (!s || !s->shared)
                return endpoint_fail(ep, EBADF, "shm: not prepared");
        ShmSide *me = &s->side[role];
        ep->role = role;
        me->tx = &s->shared->ring[out];
        me->txd = s->data[out];
        me->rx = &s->shared->ring[!out];
        me->rxd = s->data[!out];
        me->peer_pidfd = -1;
        /* Poll only when the peer is known to run on another CPU: on a
         * shared CPU, or wherever the scheduler puts both (cpus=none),
         * polling keeps the peer from running. */
        me->spin_ns = ep->cell->cpus == CPUS_SPLIT ? SHM_SPIN_NS : 0;
        atomic_store(&s->shared->pid[role], (int32_t) getpid());
        return 0;
}

/* Writes one frame, streaming it through the ring when it does not fit. */
static int shm_put(Endpoint *ep, const void *data, size_t len, uint32_t flags)
{
        Shm *s = ep->priv;
        ShmRing *r = s->side[ep->role].tx;
        uint32_t cap = s->cap, head, tail;
        uint32_t header[2] = { (uint32_t) len, flags };
        size_t padded = shm_pad(len), done = 0;
        int e;

        if (!r)
                return endpoint_fail(ep, EBADF, "shm: not open");
        if (len > UINT32_MAX - SHM_FRAME)
                return endpoint_fail(ep, EMSGSIZE, "shm: a %zu-byte message", len);
        head = atomic_load_explicit(&r->head, memory_order_relaxed);
        tail = atomic_load_explicit(&r->tail, memory_order_acquire);
        while (cap - (head - tail) < SHM_FRAME) {
                e = shm_wait(ep, &r->tail, &r->tail_waiter, tail);
                if (e < 0)
                        return endpoint_fail(ep, -e, "shm: waiting for room in the ring");
                tail = atomic_load_explicit(&r->tail, memory_order_acquire);
        }
        shm_copy_in(s->side[ep->role].txd, cap, head, header, sizeof header);
        head += SHM_FRAME;
        for (;;) {
                size_t n = MIN((size_t) (cap - (head - tail)), padded - done);
                if (done < len)
                        shm_copy_in(s->side[ep->role].txd, cap, head, (const unsigned char *) data + done,
                            MIN(n, len - done));
                head += (uint32_t) n;
                done += n;
                atomic_store_explicit(&r->head, head, memory_order_release);
                shm_wake(&r->head, &r->head_waiter);
                if (done == padded)
                        return 0;
                while (head - tail == cap) {
                        e = shm_wait(ep, &r->tail, &r->tail_waiter, tail);
                        if (e < 0)
                                return endpoint_fail(ep, -e, "shm: waiting for room in the ring");
                        tail = atomic_load_explicit(&r->tail, memory_order_acquire);
                }
        }
}

static int shm_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        (void) flags;
        if (len == 0)
                return endpoint_fail(ep, EINVAL, "shm: zero-length messages are not carried");
        return shm_put(ep, data, len, 0);
}

static int shm_send_end(Endpoint *ep)
{
        return shm_put(ep, NULL, 0, SHM_END);
}

static int shm_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        Shm *s = ep->priv;
        const unsigned char *rxd = s->side[ep->role].rxd;
        ShmRing *r = s->side[ep->role].rx;
        uint32_t cap = s->cap;
        uint32_t tail, head, header[2];
        size_t msg, padded, done = 0;
        char *buf;
        int e;

        (void) expect;   /* frames carry their length */
        if (!r)
                return endpoint_fail(ep, EBADF, "shm: not open");
        tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
        head = atomic_load_explicit(&r->head, memory_order_acquire);
        while (head - tail < SHM_FRAME) {
                e = shm_wait(ep, &r->head, &r->head_waiter, head);
                if (e < 0)
                        return endpoint_fail(ep, -e, "shm: waiting for a message");
                head = atomic_load_explicit(&r->head, memory_order_acquire);
        }
        shm_copy_out(header, rxd, cap, tail, sizeof header);
        tail += SHM_FRAME;
        if (header[1] & SHM_END) {
                atomic_store_explicit(&r->tail, tail, memory_order_release);
                shm_wake(&r->tail, &r->tail_waiter);
                return 0;
        }
        msg = header[0];
        padded = shm_pad(msg);
        buf = endpoint_buffer(ep, msg + 1);
        if (!buf)
                return endpoint_fail(ep, ENOMEM, "receive buffer of %zu bytes", msg + 1);
        for (;;) {
                size_t n = MIN((size_t) (head - tail), padded - done);
                if (done < msg)
                        shm_copy_out(buf + done, rxd, cap, tail, MIN(n, msg - done));
                tail += (uint32_t) n;
                done += n;
                if (done == padded)
                        break;
                /* The rest is still to come: give the producer its room. */
                atomic_store_explicit(&r->tail, tail, memory_order_release);
                shm_wake(&r->tail, &r->tail_waiter);
                while (head == tail) {
                        e = shm_wait(ep, &r->head, &r->head_waiter, head);
                        if (e < 0)
                                return endpoint_fail(ep, -e, "shm: waiting for the rest of a message");
                        head = atomic_load_explicit(&r->head, memory_order_acquire);
                }
        }
        atomic_store_explicit(&r->tail, tail, memory_order_release);
        shm_wake(&r->tail, &r->tail_waiter);
        buf[msg] = '\0';
        *data = buf;
        *len = msg;
        return 1;
}

/* Closes this role's side (the mapping stays: with roles=threads the
 * other role may still use it; cleanup() unmaps it, and a child's goes
 * with the child). */
static void shm_close(Endpoint *ep)
{
        Shm *s = ep->priv;

        if (!s)
                return;
        ShmSide *me = &s->side[ep->role];
        if (s->shared && me->tx) {
                atomic_store(&s->shared->closed[ep->role], 1);
                for (int d = C2S; d <= S2C; d++) {
                        shm_futex(&s->shared->ring[d].head, FUTEX_WAKE, INT_MAX, NULL);
                        shm_futex(&s->shared->ring[d].tail, FUTEX_WAKE, INT_MAX, NULL);
                }
        }
        me->tx = me->rx = NULL;
        me->txd = me->rxd = NULL;
        io_close(&me->peer_pidfd);
}

static void shm_cleanup(Endpoint *ep)
{
        Shm *s = ep->priv;

        shm_close(ep);
        if (s && s->shared)
                munmap(s->shared, s->map_size);
        g_clear_pointer(&ep->priv, g_free);
}

const Transport transport_shm = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "shm",
        .family = "kernel",
        .summary = "a shared-memory ring per direction (memfd, MAP_SHARED), futex wake-ups",
        .flags = TRANSPORT_THREADS,
        .unavailable = shm_unavailable,
        .prepare = shm_prepare,
        .open = shm_open_role,
        .send = shm_send,
        .recv = shm_recv,
        .send_end = shm_send_end,
        .close = shm_close,
        .cleanup = shm_cleanup,
};

/* Why busy-ring cannot run CELL: only with a CPU of its own for each side. */
static const char *busy_ring_refuses(const IpclabCell *cell)
{
        cpu_set_t set;

        if (cell->cpus != CPUS_SPLIT)
                return "busy-ring polls without a kernel wake-up, so client and server need CPUs of their own "
                       "(cpus=split): on a shared CPU the poller keeps its peer from running";
        if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) < 2)
                return "busy-ring needs client and server on CPUs of their own, and this process may run "
                       "on one CPU only";
        return NULL;
}

static int busy_ring_open(Endpoint *ep, Role role)
{
        int r = shm_open_role(ep, role);

        if (r >= 0)
                ((Shm *) ep->priv)->side[role].busy = true;
        return r;
}

const Transport transport_busy_ring = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "busy-ring",
        .family = "kernel",
        .summary = "shm's ring with both sides busy-polling, no kernel wake-up (cpus=split only)",
        .flags = TRANSPORT_THREADS,
        .unavailable = shm_unavailable,
        .refuses = busy_ring_refuses,
        .prepare = shm_prepare,
        .open = busy_ring_open,
        .send = shm_send,
        .recv = shm_recv,
        .send_end = shm_send_end,
        .close = shm_close,
        .cleanup = shm_cleanup,
};
