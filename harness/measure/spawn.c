/* spawn.c: start a child, wait for it with a deadline (spawn.h). */
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SPAWN_TEXT_MAX 65536
#define SPAWN_TICK_MS 100

/* In the child: FD onto TARGET (FD -1: /dev/null; SPAWN_INHERIT: as it is). */
static int child_fd(int fd, int target, int null)
{
        if (fd == SPAWN_INHERIT)
                return 0;
        return dup2(fd < 0 ? null : fd, target) < 0 ? -1 : 0;
}

static void close_pair(int p[2])
{
        for (int i = 0; i < 2; i++)
                if (p[i] >= 0)
                        close(p[i]);
}

int spawn_start(const SpawnOpts *o, SpawnChild *c)
{
        const char *argv0 = o->argv[0];
        g_autofree char *program = strchr(argv0, '/') ? g_strdup(argv0) : g_find_program_in_path(argv0);
        int p[2] = { -1, -1 }, q[2] = { -1, -1 };

        *c = (SpawnChild) { .pid = -1, .pidfd = -1, .out = -1, .err = -1, .group = o->new_group };
        if (!program)
                return -ENOENT;
        int null = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (null < 0 || (o->out_fd == SPAWN_PIPE && pipe2(p, O_CLOEXEC) < 0) ||
            (o->err_fd == SPAWN_PIPE && pipe2(q, O_CLOEXEC) < 0)) {
                int e = -errno;
                close_pair(p);
                close_pair(q);
                if (null >= 0)
                        close(null);
                return e;
        }
        int out = o->out_fd == SPAWN_PIPE ? p[1] : o->out_fd;
        int err = o->err_fd == SPAWN_PIPE ? q[1] : o->err_fd;
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
                if (o->new_group)
                        setpgid(0, 0);
                if (child_fd(o->in_fd, STDIN_FILENO, null) < 0 || child_fd(out, STDOUT_FILENO, null) < 0 ||
                    child_fd(err, STDERR_FILENO, null) < 0)
                        _exit(127);
                if (o->setup)
                        o->setup(o->data);
                execv(program, (char *const *) o->argv);
                dprintf(STDERR_FILENO, "cannot execute %s: %s\n", program, strerror(errno));
                _exit(127);
        }
        int e = pid < 0 ? -errno : 0;
        close(null);
        if (pid < 0) {
                close_pair(p);
                close_pair(q);
                return e;
        }
        if (p[1] >= 0)
                close(p[1]);
        if (q[1] >= 0)
                close(q[1]);
        if (o->new_group)
                setpgid(pid, pid);
        c->pid = pid;
        c->out = p[0];
        c->err = q[0];
        c->pidfd = (int) syscall(SYS_pidfd_open, pid, 0);
        return 0;
}

static void signal_child(const SpawnChild *c, int sig)
{
        if (c->group)
                kill(-c->pid, sig);
        kill(c->pid, sig);
}

static void close_fds(SpawnChild *c)
{
        if (c->out >= 0)
                close(c->out);
        if (c->pidfd >= 0)
                close(c->pidfd);
        c->out = c->pidfd = -1;
}

/* Ends C: SIGTERM, then SIGKILL GRACE_MS later (SIGKILL ends a stopped
 * process too); reaps it. */
static void end_child(SpawnChild *c, guint grace_ms, int *status)
{
        if (grace_ms > 0) {
                signal_child(c, SIGTERM);
                gint64 until = g_get_monotonic_time() + (gint64) grace_ms * 1000;
                while (g_get_monotonic_time() < until) {
                        pid_t w = waitpid(c->pid, status, WNOHANG);
                        if (w == c->pid || (w < 0 && errno != EINTR))
                                goto done;
                        if (c->pidfd >= 0) {
                                struct pollfd p = { .fd = c->pidfd, .events = POLLIN };
                                (void) poll(&p, 1, SPAWN_TICK_MS);
                        } else {
                                g_usleep(10000);
                        }
                }
        }
        signal_child(c, SIGKILL);
        while (waitpid(c->pid, status, 0) < 0 && errno == EINTR)
                ;
done:
        if (c->group)
                kill(-c->pid, SIGKILL);   /* what it started goes with it */
        close_fds(c);
}

/* Reads what is there on C->out into TEXT; closes it at its end. */
static int read_out(SpawnChild *c, GString *text)
{
        char buf[4096];
        ssize_t k = read(c->out, buf, sizeof buf);
        if (k < 0)
                return errno == EINTR || errno == EAGAIN ? 0 : -errno;
        if (k == 0) {
                close(c->out);
                c->out = -1;
                return 0;
        }
        if (text->len < SPAWN_TEXT_MAX)
                g_string_append_len(text, buf, MIN((gsize) k, SPAWN_TEXT_MAX - text->len));
        return 0;
}

int spawn_wait(SpawnChild *c, gint64 deadline_us, guint grace_ms, GString *text, SpawnCheck check,
               void *data, int *status)
{
        int r = 0;

        *status = 0;
        if (!text && c->out >= 0) {
                close(c->out);
                c->out = -1;
        }
        for (;;) {
                if (c->out < 0) {
                        pid_t w = waitpid(c->pid, status, WNOHANG);
                        if (w == c->pid) {
                                close_fds(c);
                                return 0;
                        }
                        if (w < 0 && errno != EINTR) {
                                r = -errno;
                                break;
                        }
                }
                if (check && (r = check(data)) < 0)
                        break;
                gint64 now = g_get_monotonic_time();
                if (deadline_us > 0 && now >= deadline_us) {
                        r = -ETIMEDOUT;
                        break;
                }
                gint64 left_ms = deadline_us > 0 ? (deadline_us - now) / 1000 + 1 : SPAWN_TICK_MS;
                struct pollfd p = { .fd = c->out >= 0 ? c->out : c->pidfd, .events = POLLIN };
                if (p.fd < 0) {
                        g_usleep(MIN(left_ms, 10) * 1000);
                        continue;
                }
                int n = poll(&p, 1, (int) MIN(left_ms, SPAWN_TICK_MS));
                if (n < 0 && errno != EINTR) {
                        r = -errno;
                        break;
                }
                if (n > 0 && c->out >= 0 && (r = read_out(c, text)) < 0)
                        break;
        }
        end_child(c, grace_ms, status);
        return r;
}
