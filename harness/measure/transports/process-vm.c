/* process-vm.c: cross-memory attach.  The sender writes each message
 * straight into the receiver's memory with process_vm_writev(2), then
 * tells it so over a pipe.
 *
 * The two pipes, one per direction, are pipe.c's (its prepare, open,
 * send_end and close); they carry only 8-byte control records.  Each role
 * maps a receive buffer in open() and sends a hello (its pid, the
 * buffer's address and size) to the other: the server's is in the pipe
 * before the client opens, the client's is read by the server's first
 * recv().  A message is one process_vm_writev() from the sender's memory
 * into the receiver's buffer (one copy, by the kernel, page by page
 * through the receiver's page tables) and a record with its length; the
 * receiver read()s the record and finds the bytes already in its buffer.
 * What lies in the timed window, per message: the process_vm_writev(), the
 * record's write() and read(), the wake-up, and for one-way messages the
 * credit below.
 *
 * The receiver's buffer may be overwritten only once ipclab is done with
 * the message in it.  An answered message (a request, a reply, the ack)
 * needs nothing more: the answer comes after the receiver is done, and
 * the next message after the answer.  A one-way message is flagged, and
 * the receiver returns a credit record (over the other pipe) at its next
 * recv(), by when ipclab is done with it; the sender reads that credit
 * before it writes the next message.  So one-way windows hold one more
 * write() and read() per message than a plain pipe's.
 *
 * Permission.  process_vm_writev() needs the permission ptrace(2) would
 * (PTRACE_MODE_ATTACH_REALCREDS) over the receiver.  Both roles are
 * ipclab's children, siblings, of one user; under Yama's
 * kernel.yama.ptrace_scope 1 (descendants only) or 2 (CAP_SYS_PTRACE
 * only) a sibling may not attach unless the process has CAP_SYS_PTRACE,
 * and under 3 nobody may: unavailable() says which, and prepare() checks
 * it again.  Neither side loosens it (PR_SET_PTRACER would have to name a
 * pid the server learns only after the client's first write).
 */
#include <ipclab/transport.h>
#include "transport.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

/* pipe.c's layout of ep->fd[]: client -> server (read, write), back. */
#define PVM_FD_TX(role) ((role) == ROLE_CLIENT ? 1 : 3)
#define PVM_FD_RX(role) ((role) == ROLE_CLIENT ? 2 : 0)

#define PVM_MIN_MESSAGE 128                 /* room for the runner's ~70-byte ack */
#define PVM_ANSWER_ME ((uint64_t) 1 << 63)   /* record flag: a one-way message, credit me */
#define PVM_CREDIT ((uint64_t) 1 << 62)      /* record: your last one-way message is read */
#define PVM_LEN_MASK (PVM_CREDIT - 1)
#define CAP_SYS_PTRACE_BIT 19

/* What a role tells the other in open(). */
typedef struct {
        uint64_t pid, addr, size;
} PvmHello;

/* One role's state (indexed by role: roles=threads shares ep->priv). */
typedef struct {
        unsigned char *buf;       /* the receive buffer, size + 1 for a NUL */
        size_t size;
        PvmHello peer;
        bool have_peer;
        bool owe_credit;          /* the last message received was one-way */
        bool need_credit;         /* the last message sent was one-way */
} PvmSide;

typedef struct {
        PvmSide side[2];
} Pvm;

/* Why Yama forbids one sibling to write into another here, or NULL. */
static const char *pvm_ptrace_refused(void)
{
        static char why[256];
        g_autofree char *scope = NULL, *status = NULL;
        guint64 caps = 0;

        if (!g_file_get_contents("/proc/sys/kernel/yama/ptrace_scope", &scope, NULL, NULL))
                return NULL;   /* no Yama: same-user processes may */
        long s = strtol(scope, NULL, 10);
        if (s <= 0)
                return NULL;
        if (s >= 3) {
                snprintf(why, sizeof why, "kernel.yama.ptrace_scope=%ld: no process may attach to another, "
                         "so process_vm_writev is refused", s);
                return why;
        }
        const char *cap = g_file_get_contents("/proc/self/status", &status, NULL, NULL)
                          ? strstr(status, "\nCapEff:") : NULL;
        if (cap)
                caps = g_ascii_strtoull(cap + 8, NULL, 16);
        if (caps & ((guint64) 1 << CAP_SYS_PTRACE_BIT))
                return NULL;
        snprintf(why, sizeof why, "kernel.yama.ptrace_scope=%ld lets a process attach only %s, and the client "
                 "and server are siblings without CAP_SYS_PTRACE (run as root, or set the scope to 0)", s,
                 s == 1 ? "to its descendants" : "with CAP_SYS_PTRACE");
        return why;
}

static const char *pvm_unavailable(void)
{
        static bool probed;
        static char why[256];

        if (!probed) {
                char a = 1, b = 0;
                struct iovec local = { &b, 1 }, remote = { &a, 1 };
                const char *yama = pvm_ptrace_refused();
                if (yama)
                        snprintf(why, sizeof why, "%s", yama);
                else if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) != 1)
                        snprintf(why, sizeof why, errno == ENOSYS
                                 ? "the kernel has no cross-memory attach (CONFIG_CROSS_MEMORY_ATTACH)"
                                 : "process_vm_readv: %s", g_strerror(errno));
                probed = true;
        }
        return why[0] ? why : NULL;
}

static int pvm_prepare(Endpoint *ep)
{
        const char *no = pvm_ptrace_refused();

        ep->priv = g_new0(Pvm, 1);
        if (no)
                return endpoint_fail(ep, EPERM, "%s", no);
        return transport_pipe.prepare(ep);
}

static int pvm_write_record(Endpoint *ep, const void *rec, size_t len)
{
        int r = io_write_all(ep->fd[PVM_FD_TX(ep->role)], rec, len);

        return r < 0 ? endpoint_fail(ep, -r, "control pipe write") : 0;
}

/* Reads a record of LEN bytes: 1, 0 at the end of the stream, or -errno. */
static int pvm_read_record(Endpoint *ep, void *rec, size_t len)
{
        int r = io_read_exact(ep->fd[PVM_FD_RX(ep->role)], rec, len);

        return r < 0 ? endpoint_fail(ep, -r, "control pipe read") : r;
}

static int pvm_read_hello(Endpoint *ep, PvmSide *me)
{
        int r = pvm_read_record(ep, &me->peer, sizeof me->peer);

        if (r == 0)
                return endpoint_fail(ep, EPIPE, "the peer closed before its hello");
        if (r < 0)
                return r;
        me->have_peer = true;
        return 0;
}

static int pvm_open(Endpoint *ep, Role role)
{
        PvmSide *me = &((Pvm *) ep->priv)->side[role];
        int r = transport_pipe.open(ep, role);

        if (r < 0)
                return r;
        me->size = MAX((size_t) ep->cell->size, (size_t) PVM_MIN_MESSAGE);
        me->buf = mmap(NULL, me->size + 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (me->buf == MAP_FAILED) {
                me->buf = NULL;
                return endpoint_fail(ep, errno, "mmap of a receive buffer of %zu bytes", me->size + 1);
        }
        /* Touched now, so that the peer's first write finds it mapped. */
        memset(me->buf, 0, me->size + 1);
        if (role == ROLE_CLIENT && (r = pvm_read_hello(ep, me)) < 0)
                return r;
        PvmHello hello = { (uint64_t) getpid(), (uint64_t) (uintptr_t) me->buf, me->size };
        return pvm_write_record(ep, &hello, sizeof hello);
}

/* Writes LEN bytes at DATA into the peer's buffer. */
static int pvm_put(Endpoint *ep, PvmSide *me, const void *data, size_t len)
{
        size_t done = 0;

        if (len > me->peer.size)
                return endpoint_fail(ep, EMSGSIZE, "a message of %zu bytes, the peer's buffer holds %" PRIu64,
                                     len, me->peer.size);
        while (done < len) {
                struct iovec local = { (char *) data + done, len - done };
                struct iovec remote = { (void *) (uintptr_t) (me->peer.addr + done), len - done };
                ssize_t n = process_vm_writev((pid_t) me->peer.pid, &local, 1, &remote, 1, 0);
                if (n < 0)
                        return endpoint_fail(ep, errno, "process_vm_writev of %zu bytes to pid %" PRIu64,
                                             len - done, me->peer.pid);
                if (n == 0)
                        return endpoint_fail(ep, EIO, "process_vm_writev wrote nothing");
                done += (size_t) n;
        }
        return 0;
}

static int pvm_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        PvmSide *me = &((Pvm *) ep->priv)->side[ep->role];
        uint64_t rec = len;
        int r;

        if (!me->have_peer)
                return endpoint_fail(ep, EPROTO, "a send before the peer's hello");
        while (me->need_credit) {
                r = pvm_read_record(ep, &rec, sizeof rec);
                if (r <= 0)
                        return r < 0 ? r : endpoint_fail(ep, EPIPE, "the peer closed before its credit");
                if (rec != PVM_CREDIT)
                        return endpoint_fail(ep, EPROTO, "a record of %#" PRIx64 " where a credit was due", rec);
                me->need_credit = false;
        }
        if ((r = pvm_put(ep, me, data, len)) < 0)
                return r;
        me->need_credit = (flags & IPCLAB_SEND_NO_REPLY) != 0;
        rec = len | (me->need_credit ? PVM_ANSWER_ME : 0);
        return pvm_write_record(ep, &rec, sizeof rec);
}

static int pvm_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        PvmSide *me = &((Pvm *) ep->priv)->side[ep->role];
        uint64_t rec;
        int r;

        (void) expect;
        if (!me->have_peer && (r = pvm_read_hello(ep, me)) < 0)
                return r;
        if (me->owe_credit) {
                rec = PVM_CREDIT;
                if ((r = pvm_write_record(ep, &rec, sizeof rec)) < 0)
                        return r;
                me->owe_credit = false;
        }
        for (;;) {
                r = pvm_read_record(ep, &rec, sizeof rec);
                if (r <= 0)
                        return r;
                if (rec != PVM_CREDIT)
                        break;
                me->need_credit = false;
        }
        size_t n = (size_t) (rec & PVM_LEN_MASK);
        if (n > me->size)
                return endpoint_fail(ep, EPROTO, "a record says %zu bytes, the buffer holds %zu", n, me->size);
        me->owe_credit = (rec & PVM_ANSWER_ME) != 0;
        me->buf[n] = '\0';
        *data = me->buf;
        *len = n;
        return 1;
}

static int pvm_send_end(Endpoint *ep)
{
        return transport_pipe.send_end(ep);
}

static void pvm_close(Endpoint *ep)
{
        Pvm *p = ep->priv;

        transport_pipe.close(ep);
        if (p && p->side[ep->role].buf) {
                munmap(p->side[ep->role].buf, p->side[ep->role].size + 1);
                p->side[ep->role].buf = NULL;
        }
}

static void pvm_cleanup(Endpoint *ep)
{
        transport_pipe.cleanup(ep);
        g_clear_pointer(&ep->priv, g_free);
}

const Transport transport_process_vm = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "process-vm",
        .family = "kernel",
        .summary = "cross-memory attach: process_vm_writev into the peer's buffer, a pipe for the wake-up",
        .flags = TRANSPORT_THREADS,
        .unavailable = pvm_unavailable,
        .prepare = pvm_prepare,
        .open = pvm_open,
        .send = pvm_send,
        .recv = pvm_recv,
        .send_end = pvm_send_end,
        .close = pvm_close,
        .cleanup = pvm_cleanup,
};
