/* test-spawn.c: starting a child and waiting for it (spawn.h), with real
 * processes: a command's output and exit, a forked function (SpawnOpts.run)
 * in a process group of its own, spawn_watch()'s answers (a readable
 * descriptor before an exit, the exit, a deadline), spawn_watch_signals()
 * woken by a signal the caller blocks, and spawn_end() on a stopped child.  Every wait is for an event; the deadlines given are
 * ones already past or the only way the call can return. */
#include <errno.h>
#include <glib.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn.h"

static void test_command(void)
{
        const char *const echo[] = { "printf", "%s", "hello", NULL };
        const char *const fail[] = { "false", NULL };
        const char *const none[] = { "ipclab-no-such-program", NULL };
        g_autofree char *out = NULL;

        g_assert_cmpint(spawn_command(echo, 60000, NULL, NULL, &out), ==, 0);
        g_assert_cmpstr(out, ==, "hello");
        g_clear_pointer(&out, g_free);
        g_assert_cmpint(spawn_command(fail, 60000, NULL, NULL, &out), ==, -EIO);
        g_assert_null(out);
        g_assert_cmpint(spawn_command(none, 60000, NULL, NULL, &out), ==, -ENOENT);
}

static int stop_now(void *data)
{
        (void) data;
        return -ECANCELED;
}

static void test_command_check(void)
{
        const char *const cat[] = { "cat", NULL };
        g_autofree char *out = NULL;

        /* Checked before the start: nothing runs. */
        g_assert_cmpint(spawn_command(cat, 60000, stop_now, NULL, &out), ==, -ECANCELED);
}

typedef struct {
        int fd;   /* the write end of a pipe, or -1 */
} RunData;

/* SpawnOpts.run: says its process group on FD, then waits to be ended. */
static int run_report_group(void *data)
{
        const RunData *d = data;
        char line[32];
        int n = g_snprintf(line, sizeof line, "%ld\n", (long) getpgid(0));

        if (write(d->fd, line, (size_t) n) != n)
                return 2;
        for (;;)
                pause();
}

static int run_exit_7(void *data)
{
        (void) data;
        return 7;
}

static void test_run(void)
{
        SpawnOpts o = { .in_fd = -1, .out_fd = -1, .err_fd = -1, .run = run_exit_7 };
        SpawnChild c;
        int status = 0;

        g_assert_cmpint(spawn_start(&o, &c), ==, 0);
        g_assert_cmpint(spawn_wait(&c, 0, 0, NULL, NULL, NULL, &status), ==, 0);
        g_assert_true(WIFEXITED(status));
        g_assert_cmpint(WEXITSTATUS(status), ==, 7);
        g_assert_cmpint(c.pid, ==, -1);
}

static void test_run_group_watch(void)
{
        int p[2];
        g_assert_cmpint(pipe2(p, O_CLOEXEC), ==, 0);
        RunData d = { .fd = p[1] };
        SpawnOpts o = { .in_fd = -1, .out_fd = -1, .err_fd = -1, .new_group = true, .run = run_report_group,
                        .data = &d };
        SpawnChild c;
        char line[32] = { 0 };
        int status = 0;

        g_assert_cmpint(spawn_start(&o, &c), ==, 0);
        close(p[1]);
        /* Its line first (the descriptor is index 0), then it lives on: a
         * deadline already past is all that ends the next watch. */
        g_assert_cmpint(spawn_watch(&c, &p[0], 1, 0, NULL, NULL), ==, 0);
        g_assert_cmpint(read(p[0], line, sizeof line - 1), >, 0);
        g_assert_cmpint(atol(line), ==, c.pid);
        g_assert_cmpint(spawn_watch(&c, NULL, 0, g_get_monotonic_time(), NULL, NULL), ==, -ETIMEDOUT);
        g_assert_cmpint(spawn_watch(&c, NULL, 0, 0, stop_now, NULL), ==, -ECANCELED);

        /* Its exit, seen and left waitable. */
        g_assert_cmpint(kill(c.pid, SIGUSR1), ==, 0);
        g_assert_cmpint(spawn_watch(&c, NULL, 0, 0, NULL, NULL), ==, -ECHILD);
        g_assert_cmpint(spawn_wait(&c, 0, 0, NULL, NULL, NULL, &status), ==, 0);
        g_assert_true(WIFSIGNALED(status));
        g_assert_cmpint(WTERMSIG(status), ==, SIGUSR1);
        close(p[0]);
}

static void test_end_stopped(void)
{
        const char *const cat[] = { "cat", NULL };
        SpawnOpts o = { .argv = cat, .in_fd = SPAWN_INHERIT, .out_fd = -1, .err_fd = -1, .new_group = true };
        SpawnChild c;
        int in[2], status = 0;
        siginfo_t si = { 0 };

        g_assert_cmpint(pipe2(in, O_CLOEXEC), ==, 0);
        o.in_fd = in[0];
        g_assert_cmpint(spawn_start(&o, &c), ==, 0);
        close(in[0]);
        g_assert_cmpint(kill(c.pid, SIGSTOP), ==, 0);
        g_assert_cmpint(waitid(P_PID, (id_t) c.pid, &si, WSTOPPED | WNOWAIT), ==, 0);
        /* A stopped child ignores SIGTERM until the grace is over; SIGKILL
         * ends it, and spawn_end() reaps it. */
        spawn_end(&c, 1, &status);
        g_assert_true(WIFSIGNALED(status));
        g_assert_cmpint(WTERMSIG(status), ==, SIGKILL);
        g_assert_cmpint(c.pid, ==, -1);
        g_assert_cmpint(c.pidfd, ==, -1);
        close(in[1]);
}

static volatile sig_atomic_t woken;

static void on_usr1(int sig)
{
        (void) sig;
        woken = 1;
}

/* SpawnCheck: counts its calls in *DATA; stops once SIGUSR1 came. */
static int stop_woken(void *data)
{
        ++*(int *) data;
        return woken ? -EINTR : 0;
}

static void test_watch_signals(void)
{
        struct sigaction sa = { .sa_handler = on_usr1 }, old_sa;
        sigset_t usr1, mask;
        int calls = 0;

        sigemptyset(&usr1);
        sigaddset(&usr1, SIGUSR1);
        g_assert_cmpint(sigaction(SIGUSR1, &sa, &old_sa), ==, 0);
        g_assert_cmpint(sigprocmask(SIG_BLOCK, &usr1, NULL), ==, 0);

        /* Nothing but the deadline: the check looks first and once the
         * wait is over, never on a tick of its own. */
        woken = 0;
        g_assert_cmpint(spawn_watch_signals(NULL, NULL, 0, g_get_monotonic_time() + 300000, &usr1, stop_woken,
                                            &calls), ==, -ETIMEDOUT);
        g_assert_cmpint(calls, <=, 2);

        /* A signal that came while the caller blocked it (as it would
         * between a look and the wait) ends the wait at once: the deadline
         * is only there for a broken one. */
        calls = 0;
        g_assert_cmpint(raise(SIGUSR1), ==, 0);
        g_assert_false(woken);
        g_assert_cmpint(spawn_watch_signals(NULL, NULL, 0, g_get_monotonic_time() + 30 * G_USEC_PER_SEC, &usr1,
                                            stop_woken, &calls), ==, -EINTR);
        g_assert_true(woken);

        /* And the caller's mask is as it was. */
        g_assert_cmpint(sigprocmask(SIG_SETMASK, NULL, &mask), ==, 0);
        g_assert_cmpint(sigismember(&mask, SIGUSR1), ==, 1);
        g_assert_cmpint(sigprocmask(SIG_UNBLOCK, &usr1, NULL), ==, 0);
        g_assert_cmpint(sigaction(SIGUSR1, &old_sa, NULL), ==, 0);
}

int main(int argc, char **argv)
{
        g_test_init(&argc, &argv, NULL);
        g_test_add_func("/spawn/command", test_command);
        g_test_add_func("/spawn/command-check", test_command_check);
        g_test_add_func("/spawn/run", test_run);
        g_test_add_func("/spawn/run-group-watch", test_run_group_watch);
        g_test_add_func("/spawn/end-stopped", test_end_stopped);
        g_test_add_func("/spawn/watch-signals", test_watch_signals);
        return g_test_run();
}
