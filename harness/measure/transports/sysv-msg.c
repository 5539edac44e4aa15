/* sysv-msg.c: two System V message queues (msgget/msgsnd/msgrcv), one per
 * direction.
 *
 * prepare() creates both with IPC_PRIVATE (mode 0600) before the runner
 * forks, so both roles inherit their ids and no key is ever guessed or
 * shared with another program; cleanup() removes them (IPC_RMID), which
 * also wakes a role still blocked in msgrcv() with EIDRM.  A System V
 * queue has no name to unlink early, so a run killed outright (SIGKILL of
 * ipclab itself) leaves its two queues behind until `ipcrm`; a failed cell
 * or a killed child does not, as the runner still cleans up.
 *
 * A message is one msgsnd() of type 1; the end of the stream is a
 * zero-length message.  Limits: a message may not exceed kernel.msgmax
 * (8 KiB by default), whatever the privileges, nor a queue hold more than
 * kernel.msgmnb bytes (16 KiB); max_size() is the smaller.
 */
#include "transport.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>

enum { C2S, S2C };

#define SYSV_MIN_MESSAGE 128   /* room for the runner's ~70-byte ack */

typedef struct {
        int id[2];            /* C2S, S2C: msgget ids, -1 when not made */
        size_t msgsize;       /* the largest message either role sends */
} SysvMsg;

/* The buffer msgsnd() and msgrcv() take: the type, then the bytes. */
typedef struct {
        long mtype;
        char mtext[];
} SysvBuf;

static const char *sysv_msg_unavailable(void)
{
        static bool probed;
        static char why[128];

        if (!probed) {
                int id = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
                if (id < 0)
                        snprintf(why, sizeof why, errno == ENOSYS
                                 ? "the kernel has no System V message queues (CONFIG_SYSVIPC)"
                                 : "msgget: %s", g_strerror(errno));
                else
                        msgctl(id, IPC_RMID, NULL);
                probed = true;
        }
        return why[0] ? why : NULL;
}

static size_t sysv_msg_max_size(const IpclabCell *cell)
{
        (void) cell;
        return (size_t) MIN(transport_sysctl("/proc/sys/kernel/msgmax", 8192),
                            transport_sysctl("/proc/sys/kernel/msgmnb", 16384));
}

static int sysv_msg_prepare(Endpoint *ep)
{
        SysvMsg *m = g_new0(SysvMsg, 1);

        ep->priv = m;
        m->id[C2S] = m->id[S2C] = -1;
        m->msgsize = MAX((size_t) ep->cell->size, (size_t) SYSV_MIN_MESSAGE);
        for (int d = C2S; d <= S2C; d++) {
                m->id[d] = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
                if (m->id[d] < 0)
                        return endpoint_fail(ep, errno, "msgget");
        }
        return 0;
}

static int sysv_msg_open(Endpoint *ep, Role role)
{
        ep->role = role;
        return 0;
}

/* The queue this role writes (TX) or reads. */
static int sysv_queue(const Endpoint *ep, bool tx)
{
        const SysvMsg *m = ep->priv;

        return m->id[(ep->role == ROLE_CLIENT) == tx ? C2S : S2C];
}

/* This role's message buffer, room for the largest message. */
static SysvBuf *sysv_buffer(Endpoint *ep)
{
        const SysvMsg *m = ep->priv;

        return endpoint_buffer(ep, sizeof(SysvBuf) + m->msgsize + 1);
}

static int sysv_put(Endpoint *ep, const void *data, size_t len)
{
        SysvBuf *b = sysv_buffer(ep);

        if (!b)
                return endpoint_fail(ep, ENOMEM, "a message buffer of %zu bytes", len);
        if (len > ((SysvMsg *) ep->priv)->msgsize)
                return endpoint_fail(ep, EMSGSIZE, "a message of %zu bytes", len);
        /* An echo is sent from the buffer it was received in. */
        if (data != b->mtext)
                memcpy(b->mtext, data, len);
        b->mtype = 1;
        while (msgsnd(sysv_queue(ep, true), b, len, 0) < 0)
                if (errno != EINTR)
                        return endpoint_fail(ep, errno, "msgsnd of %zu bytes", len);
        return 0;
}

static int sysv_msg_send(Endpoint *ep, const void *data, size_t len, unsigned flags)
{
        (void) flags;
        if (len == 0)
                return endpoint_fail(ep, EINVAL, "a zero-length message would read as the end of the stream");
        return sysv_put(ep, data, len);
}

static int sysv_msg_send_end(Endpoint *ep)
{
        return sysv_put(ep, "", 0);
}

static int sysv_msg_recv(Endpoint *ep, const void **data, size_t *len, size_t expect)
{
        SysvBuf *b = sysv_buffer(ep);
        ssize_t n;

        (void) expect;
        if (!b)
                return endpoint_fail(ep, ENOMEM, "a receive buffer");
        while ((n = msgrcv(sysv_queue(ep, false), b, ((SysvMsg *) ep->priv)->msgsize, 0, 0)) < 0)
                if (errno != EINTR)
                        return endpoint_fail(ep, errno, "msgrcv");
        if (n == 0)
                return 0;
        b->mtext[n] = '\0';
        *data = b->mtext;
        *len = (size_t) n;
        return 1;
}

static void sysv_msg_cleanup(Endpoint *ep)
{
        SysvMsg *m = ep->priv;

        if (!m)
                return;
        for (int d = C2S; d <= S2C; d++)
                if (m->id[d] >= 0)
                        msgctl(m->id[d], IPC_RMID, NULL);
        g_clear_pointer(&ep->priv, g_free);
}

const Transport transport_sysv_msg = {
        IPCLAB_TRANSPORT_HEADER,
        .name = "sysv-msg",
        .family = "kernel",
        .summary = "two System V message queues (msgget IPC_PRIVATE, msgsnd/msgrcv), one per direction",
        .flags = TRANSPORT_THREADS,
        .unavailable = sysv_msg_unavailable,
        .max_size = sysv_msg_max_size,
        .prepare = sysv_msg_prepare,
        .open = sysv_msg_open,
        .send = sysv_msg_send,
        .recv = sysv_msg_recv,
        .send_end = sysv_msg_send_end,
        .cleanup = sysv_msg_cleanup,
};
