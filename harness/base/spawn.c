/* spawn.c: start a child, wait for it with a deadline (spawn.h). */
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SPAWN_TEXT_MAX 65536
#define SPAWN_TICK_MS 100   /* SpawnCheck: at least this often */
#define SPAWN_POLL_MS 10    /* without a pidfd: looks for the exit this often */

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

/* In the child: closes the descriptors spawn_start() made for the
 * parent's side (when the child runs a function, no exec does it). */
static void child_close(int fd)
{
        if (fd > STDERR_FILENO)
                close(fd);
}

void spawn_adopt(pid_t pid, int out, bool group, SpawnChild *c)
{
        *c = (SpawnChild) { .pid = pid, .pidfd = (int) syscall(SYS_pidfd_open, pid, 0), .out = out, .err = -1,
                            .group = group };
}

int spawn_start(const SpawnOpts *o, SpawnChild *c)
{
        g_autofree char *program = NULL;
        int p[2] = { -1, -1 }, q[2] = { -1, -1 };

        *c = (SpawnChild) { .pid = -1, .pidfd = -1, .out = -1, .err = -1, .group = o->new_group };
        if (o->argv) {
                const char *argv0 = o->argv[0];
                program = strchr(argv0, '/') ? g_strdup(argv0) : g_find_program_in_path(argv0);
                if (!program)
                        return -ENOENT;
        }
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
                child_close(null);
                for (int i = 0; i < 2; i++) {
                        child_close(p[i]);
                        child_close(q[i]);
                }
                if (o->setup)
                        o->setup(o->data);
                if (!program)
                        _exit(o->run ? o->run(o->data) : 127);
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
        spawn_adopt(pid, p[0], o->new_group, c);
        c->err = q[0];
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

/* Reaps C into *STATUS (it has exited, or will at once); -errno when it
 * cannot (-ECHILD: somebody else reaped it). */
static int reap(SpawnChild *c, int *status)
{
        while (waitpid(c->pid, status, 0) < 0)
                if (errno != EINTR)
                        return -errno;
        c->pid = -1;
        return 0;
}

void spawn_end(SpawnChild *c, guint grace_ms, int *status)
{
        pid_t pid = c->pid;

        *status = 0;
        if (pid <= 0) {
                close_fds(c);
                return;
        }
        if (grace_ms > 0) {
                signal_child(c, SIGTERM);
                gint64 until = g_get_monotonic_time() + (gint64) grace_ms * 1000;
                if (spawn_watch(c, NULL, 0, until, NULL, NULL) == -ECHILD) {
                        (void) reap(c, status);
                        goto done;
                }
        }
        signal_child(c, SIGKILL);
        (void) reap(c, status);
done:
        if (c->group)
                kill(-pid, SIGKILL);   /* what it started goes with it */
        close_fds(c);
}

/* Has C's child exited?  POLLED: its pidfd was readable.  It stays
 * waitable.  Somebody else reaping it counts as an exit. */
static bool exited(const SpawnChild *c, bool polled)
{
        if (c->pidfd >= 0)
                return polled;
        siginfo_t si = { 0 };
        if (waitid(P_PID, (id_t) c->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
                return errno == ECHILD;
        return si.si_pid == c->pid;
}

/* US (-1: no limit) at most LIMIT. */
static gint64 at_most(gint64 us, gint64 limit)
{
        return us < 0 ? limit : MIN(us, limit);
}

int spawn_watch(const SpawnChild *c, const int *fds, size_t n, gint64 deadline_us, SpawnCheck check, void *data)
{
        return spawn_watch_signals(c, fds, n, deadline_us, NULL, check, data);
}

int spawn_watch_signals(const SpawnChild *c, const int *fds, size_t n, gint64 deadline_us, const sigset_t *wake,
                        SpawnCheck check, void *data)
{
        struct pollfd p[n + 1];
        sigset_t old, during;
        gint64 wait_us = 0;   /* a first look without waiting */
        int r;

        /* WAKE blocked but in the wait itself, even where the caller
         * blocks them. */
        if (wake) {
                int e = pthread_sigmask(SIG_BLOCK, wake, &old);
                if (e)
                        return -e;
                during = old;
                for (int sig = 1; sig < NSIG; sig++)
                        if (sigismember(wake, sig) == 1)
                                sigdelset(&during, sig);
        }
        for (size_t i = 0; i < n; i++)
                p[i] = (struct pollfd) { .fd = fds[i], .events = POLLIN };
        p[n] = (struct pollfd) { .fd = c ? c->pidfd : -1, .events = POLLIN };
        for (;;) {
                struct timespec ts = { .tv_sec = (time_t) (wait_us / G_USEC_PER_SEC),
                                       .tv_nsec = (long) (wait_us % G_USEC_PER_SEC) * 1000 };
                int k = ppoll(p, n + 1, wait_us < 0 ? NULL : &ts, wake ? &during : NULL);
                if (k < 0 && errno != EINTR) {
                        r = -errno;
                        break;
                }
                r = -1;
                for (size_t i = 0; k > 0 && i < n && r < 0; i++)
                        if (p[i].fd >= 0 && p[i].revents)
                                r = (int) i;
                if (r >= 0)
                        break;
                if (c && exited(c, k > 0 && p[n].revents)) {
                        r = -ECHILD;
                        break;
                }
                r = check ? check(data) : 0;
                if (r < 0)
                        break;
                gint64 now = g_get_monotonic_time();
                if (deadline_us > 0 && now >= deadline_us) {
                        r = -ETIMEDOUT;
                        break;
                }
                wait_us = deadline_us > 0 ? deadline_us - now : -1;
                if (check && !wake)
                        wait_us = at_most(wait_us, SPAWN_TICK_MS * 1000);
                if (c && c->pidfd < 0)
                        wait_us = at_most(wait_us, SPAWN_POLL_MS * 1000);
        }
        if (wake)
                pthread_sigmask(SIG_SETMASK, &old, NULL);
        return r;
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
        int r;

        *status = 0;
        if (!text && c->out >= 0) {
                close(c->out);
                c->out = -1;
        }
        for (;;) {
                /* Its output to its end first, then its exit. */
                bool reading = c->out >= 0;
                r = spawn_watch(reading ? NULL : c, &c->out, reading, deadline_us, check, data);
                if (r == 0 && (r = read_out(c, text)) == 0)
                        continue;
                if (r == -ECHILD) {
                        r = reap(c, status);
                        close_fds(c);
                        return r;
                }
                break;
        }
        spawn_end(c, grace_ms, status);
        return r;
}

int spawn_command(const char *const *argv, guint timeout_ms, SpawnCheck check, void *data, char **out)
{
        g_autoptr(GString) text = g_string_new(NULL);
        SpawnOpts o = { .argv = argv, .in_fd = -1, .out_fd = SPAWN_PIPE, .err_fd = -1, .new_group = true };
        SpawnChild c;
        int status = 0;

        *out = NULL;
        int r = check ? check(data) : 0;
        if (r < 0)
                return r;
        r = spawn_start(&o, &c);
        if (r < 0)
                return r;
        gint64 deadline = g_get_monotonic_time() + (gint64) timeout_ms * 1000;
        r = spawn_wait(&c, deadline, 0, text, check, data, &status);
        if (r < 0)
                return r;
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                return -EIO;
        *out = g_string_free(g_steal_pointer(&text), FALSE);
        return 0;
}

volatile sig_atomic_t spawn_interrupted;

int spawn_stop_check(void *data)
{
        (void) data;
        return spawn_interrupted ? -EINTR : 0;
}

void spawn_stop_signals(sigset_t *set)
{
        sigemptyset(set);
        sigaddset(set, SIGINT);
        sigaddset(set, SIGTERM);
}

int spawn_helper(const char *const *argv, guint timeout_ms, char **out)
{
        return spawn_command(argv, timeout_ms, spawn_stop_check, NULL, out);
}

int spawn_helper_output(pid_t pid, int fd, guint timeout_ms, GString *text, int *status)
{
        SpawnChild c;
        spawn_adopt(pid, fd, true, &c);
        gint64 deadline = g_get_monotonic_time() + (gint64) timeout_ms * 1000;

        return spawn_wait(&c, deadline, 0, text, spawn_stop_check, NULL, status);
}

void spawn_child_start(pid_t parent)
{
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
                _exit(127);
        signal(SIGPIPE, SIG_IGN);
}
