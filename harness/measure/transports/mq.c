/* mq.c: two POSIX message queues, one per direction.
 *
 * prepare() creates /ipclab-<pid>-<random>-c2s and -s2c (O_EXCL, mode 0600)
 * and closes its own descriptors; each child opens its two ends by name;
 * the client, which opens last, unlinks both names at once (cleanup()
 * unlinks them too, for a run that failed before that).  A message is one mq_send(); the end of
 * the stream is a zero-length message.  Linux makes every message queue
 * descriptor close-on-exec.
 *
 * Limits.  mq_msgsize (the largest message) may not exceed
 * fs.mqueue.msgsize_max (8 KiB by default) unless the process has
 * CAP_SYS_RESOURCE, which lifts it to the kernel's hard limit
 * (HARD_MSGSIZEMAX, 16 MiB); mq_maxmsg (the queue depth) likewise obeys
 * fs.mqueue.msg_max (10).  The memory a user's queues may hold
 * (mq_maxmsg * (mq_msgsize + bookkeeping), for both queues) is bounded by
 * RLIMIT_MSGQUEUE (default 800 KiB), which prepare() raises towards its hard
 * limit if it must (beyond it with CAP_SYS_RESOURCE) and otherwise meets by
 * making the queues shallower, down to one message.  Depth: 10 messages,
 * the kernel's default for mq_open() without attributes, unless those
 * limits say less.  Running as root is not enough: containers and some VMs
 * withhold CAP_SYS_RESOURCE (the VM ipclab was written in does, so mq stops
 * at 8 KiB there); max_size() asks the kernel which case holds.
 */
#include <ipclab/transport.h>
#include "transport.h"

#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* fd[RX]: the queue this side reads; fd[TX]: the one it writes. */
enum { RX, TX };
enum { C2S, S2C };

#define MQ_DEPTH 10                        /* messages per queue at most */
#define MQ_MIN_MESSAGE 128                 /* room for the runner's ~70-byte ack */
#define MQ_HARD_MSGSIZEMAX ((size_t) 16 << 20)   /* the kernel's HARD_MSGSIZEMAX */
#define MQ_OVERHEAD 128                    /* kernel bookkeeping per message, generously */

typedef struct {
        char name[2][64];   /* C2S, S2C */
        bool created[2];
        long msgsize;       /* mq_msgsize of both queues */
        long maxmsg;        /* mq_maxmsg of both queues */
} Mq;

/* May this process exceed fs.mqueue.msgsize_max and msg_max?  The kernel
 * allows it with CAP_SYS_RESOURCE in the initial user namespace, which
 * /proc/self/status cannot tell inside a user-namespaced container, so ask
 * the kernel: a queue of HARD_MSGSIZEMAX bytes is refused with EINVAL
 * without the capability, and at most with EMFILE (RLIMIT_MSGQUEUE) with
 * it.  Nothing is allocated for a queue's messages until they are sent. */
static bool mq_beyond_sysctl(void)
{
        static int known = -1;

        if (known < 0) {
                char name[64];
                struct mq_attr attr = { .mq_maxmsg = 1, .mq_msgsize = (long) MQ_HARD_MSGSIZEMAX };
                snprintf(name, sizeof name, "/ipclab-%d-probe-hard", (int) getpid());
                mqd_t q = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, &attr);
                if (q != (mqd_t) -1) {
                        mq_close(q);
                        mq_unlink(name);
                }
                known = q != (mqd_t) -1 || errno == EMFILE;
        }
        return known;
}

static const char *mq_unavailable(void)
{
        static bool probed;
        static char why[128];

        if (!probed) {
                char name[64];
                struct mq_attr attr = { .mq_maxmsg = 1, .mq_msgsize = MQ_MIN_MESSAGE };
                snprintf(name, sizeof name, "/ipclab-%d-probe", (int) getpid());
                mqd_t q = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, &attr);
                if (q == (mqd_t) -1) {
                        if (errno == ENOSYS)
                                snprintf(why, sizeof why, "the kernel has no POSIX message queues (CONFIG_POSIX_MQUEUE)");
                        else
                                snprintf(why, sizeof why, "mq_open: %s", g_strerror(errno));
                } else {
                        mq_close(q);
                        mq_unlink(name);
                }
                probed = true;
        }
        return why[0] ? why : NULL;
}

static size_t mq_max_size(const IpclabCell *cell)
{
        struct rlimit rl;
        size_t max;

        (void) cell;
        if (mq_beyond_sysctl())
                return MQ_HARD_MSGSIZEMAX;
        max = (size_t) transport_sysctl("/proc/sys/fs/mqueue/msgsize_max", 8192);
        /* Two queues of one message each must fit the hard RLIMIT_MSGQUEUE. */
        if (getrlimit(RLIMIT_MSGQUEUE, &rl) == 0 && rl.rlim_max != RLIM_INFINITY &&
            rl.rlim_max / 2 < max + MQ_OVERHEAD)
                max = rl.rlim_max / 2 > MQ_OVERHEAD ? rl.rlim_max / 2 - MQ_OVERHEAD : 1;
        return max;
}

/* Raises the soft RLIMIT_MSGQUEUE by what two queues of ATTR need. */
static void mq_raise_rlimit(const struct mq_attr *attr)
{
        struct rlimit rl;
        rlim_t need = 2 * (rlim_t) attr->mq_maxmsg * ((rlim_t) attr->mq_msgsize + MQ_OVERHEAD);

        if (getrlimit(RLIMIT_MSGQUEUE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
                return;
        if (rl.rlim_cur + need < rl.rlim_cur)
                return;
        need += rl.rlim_cur;
        if (rl.rlim_max != RLIM_INFINITY && need > rl.rlim_max) {
                if (!mq_beyond_sysctl())
                        need = rl.rlim_max;
                else
                        rl.rlim_max = need;
        }
        rl.rlim_cur = need;
        setrlimit(RLIMIT_MSGQUEUE, &rl);
}

static int mq_create(Mq *m, int dir, struct mq_attr *attr)
{
        mqd_t q = mq_open(m->name[dir], O_RDWR | O_CREAT | O_EXCL, 0600, attr);

        if (q == (mqd_t) -1)
                return -errno;
        m->created[dir] = true;
        mq_close(q);
        return 0;
}

static int mq_prepare(Endpoint *ep)
{
        Mq *m = g_new0(Mq, 1);
        guint32 tag = g_random_int();
        bool raised = false;

        ep->priv = m;
        snprintf(m->name[C2S], sizeof m->name[C2S], "/ipclab-%d-%08x-c2s", (int) getpid(), tag);
        snprintf(m->name[S2C], sizeof m->name[S2C], "/ipclab-%d-%08x-s2c", (int) getpid(), tag);

        struct mq_attr attr = {
                .mq_maxmsg = MQ_DEPTH,
                .mq_msgsize = (long) MAX(ep->cell->size, (guint64) MQ_MIN_MESSAGE),
        };
        if (!mq_beyond_sysctl())
                attr.mq_maxmsg = MIN(attr.mq_maxmsg, transport_sysctl("/proc/sys/fs/mqueue/msg_max", MQ_DEPTH));
        for (;;) {
                int r = mq_create(m, C2S, &attr);
                if (r == 0) {
                        r = mq_create(m, S2C, &attr);
                        if (r == 0)
                                break;
                        mq_unlink(m->name[C2S]);
                        m->created[C2S] = false;
                }
                /* EMFILE: RLIMIT_MSGQUEUE (or the fd table) is exhausted. */
                if (r == -EMFILE && !raised) {
                        mq_raise_rlimit(&attr);
                        raised = true;
                        continue;
                }
                if (r == -EMFILE && attr.mq_maxmsg > 1) {
                        attr.mq_maxmsg /= 2;
                        continue;
                }
                if (r == -EINVAL)
                        return endpoint_fail(ep, EINVAL, "mq_open %s with mq_maxmsg=%ld mq_msgsize=%ld "
                                             "(see fs.mqueue.msgsize_max and msg_max)",
                                             m->name[C2S], attr.mq_maxmsg, attr.mq_msgsize);
                return endpoint_fail(ep, -r, "mq_open %s with mq_maxmsg=%ld mq_msgsize=%ld",
                                     m->name[C2S], attr.mq_maxmsg, attr.mq_msgsize);
        }
        m->msgsize = attr.mq_msgsize;
        m->maxmsg = attr.mq_maxmsg;
        return 0;
}

static int mq_open_end(Endpoint *ep, int slot, int dir, int flags)
{
        Mq *m = ep->priv;
        mqd_t q = mq_open(m->name[dir], flags);

        if (q == (mqd_t) -1)
                return endpoint_fail(ep, errno, "mq_open %s", m->name[dir]);
        ep->fd[slot] = (int) q;
        return 0;
}

static int mq_open_role(Endpoint *ep, Role role)
{
        Mq *m = ep->priv;
        int r;

        ep->role = role;
        r = mq_open_end(ep, RX, role == ROLE_SERVER ? C2S : S2C, O_RDONLY);
        if (r == 0)
                r = mq_open_end(ep, TX, role == ROLE_SERVER ? S2C : C2S, O_WRONLY);
        /* The client opens last: once it has both ends the names are no
         * longer needed, and unlinking them now leaves nothing behind in
         * the system-wide namespace even if the whole run is killed. */
        if (r == 0 && role == ROLE_CLIENT)
                for (int d = C2S; d <= S2C; d++)
                        mq_unlink(m->name[d]);
        return r;
}

static int mq_put(Endpoint *ep, const void *data, size_t len)
{
        while (mq_send((mqd_t) ep->fd[TX], data, len, 0) < 0) {
                if (errno != EINTR)
                        return endpoint_fail(ep, errno, "mq_send of %zu bytes", len);
        }
        return 0;
}

static int mq_send_msg(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        (void) flags;
        if (len == 0)
                return endpoint_fail(ep, EINVAL, "a zero-length message would read as the end of the stream");
        return mq_put(ep, data, len);
}

static int mq_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        Mq *m = ep->priv;
        char *buf = endpoint_buffer(ep, (size_t) m->msgsize + 1);
        ssize_t n;

        (void) expect;
        if (!buf)
                return endpoint_fail(ep, ENOMEM, "receive buffer of %ld bytes", m->msgsize + 1);
        while ((n = mq_receive((mqd_t) ep->fd[RX], buf, (size_t) m->msgsize, NULL)) < 0)
                if (errno != EINTR)
                        return endpoint_fail(ep, errno, "mq_receive");
        if (n == 0)
                return 0;
        buf[n] = '\0';
        *data = buf;
        *len = (size_t) n;
        return 1;
}

/* A zero-length message marks the end. */
static int mq_send_end(Endpoint *ep)
{
        return mq_put(ep, "", 0);
}

static void mq_close_role(Endpoint *ep)
{
        for (int i = RX; i <= TX; i++) {
                if (ep->fd[i] >= 0)
                        mq_close((mqd_t) ep->fd[i]);
                ep->fd[i] = -1;
        }
}

static void mq_cleanup(Endpoint *ep)
{
        Mq *m = ep->priv;

        mq_close_role(ep);
        if (!m)
                return;
        for (int d = C2S; d <= S2C; d++)
                if (m->created[d])
                        mq_unlink(m->name[d]);
        g_clear_pointer(&ep->priv, g_free);
}

const Transport transport_mq = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "mq",
        .family = "kernel",
        .summary = "two POSIX message queues (mq_open), one per direction",
        .flags = TRANSPORT_THREADS,
        .unavailable = mq_unavailable,
        .max_size = mq_max_size,
        .prepare = mq_prepare,
        .open = mq_open_role,
        .send = mq_send_msg,
        .recv = mq_recv,
        .send_end = mq_send_end,
        .close = mq_close_role,
        .cleanup = mq_cleanup,
};
