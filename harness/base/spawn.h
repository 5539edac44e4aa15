/* spawn.h: the one way ipclab starts a child it waits for with a
 * deadline: a helper command (spawn_helper: meta.c, bus.c, the plugins'
 * provenance, ssh and Slurm's tools; spawn_command: history.c), the
 * runner's supervisor (runner.c), the waits for its sides' reports
 * (runner-fork.c), hyperfine (runner-command.c), a container or VM
 * (place/env/env.c), ssh and Slurm's tools (place/tool.c), a bus
 * guardian and its daemon (bus.c, bus-guardian.c).
 *
 * spawn_start() forks and execs ARGV with the descriptors given (never a
 * shell), or runs a function in the forked child instead; in a process
 * group of its own when asked; the parent never waits for the exec (a
 * child stopped before it would hold us for good); a failed exec says why
 * on the child's stderr and exits 127.
 * spawn_watch() waits until a descriptor is readable, the child exits, a
 * deadline passes or a check says stop, and leaves the child as it is.
 * spawn_wait() waits for the exit, reading the child's output meanwhile
 * when asked, until a deadline or until a check says stop; then it ends
 * the child (and its group) as spawn_end() does: SIGTERM, SIGKILL
 * GRACE_MS later (at once when 0), and reaps it.  spawn_interrupted is
 * the one flag a SIGINT or SIGTERM sets, and spawn_stop_check() the one
 * check that stops a wait at it.  Nothing here prints.
 */
#pragma once

#include <glib.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

/* For SpawnOpts.out_fd and err_fd: a new pipe, its read end in
 * SpawnChild.out or err. */
#define SPAWN_PIPE (-2)
/* For any of them: the parent's own, inherited. */
#define SPAWN_INHERIT (-3)

typedef struct {
        const char *const *argv;    /* argv[0] is looked up in PATH unless it has a '/' */
        int in_fd, out_fd, err_fd;  /* the child's 0, 1, 2; -1: /dev/null; SPAWN_PIPE, SPAWN_INHERIT */
        bool new_group;             /* a process group of its own, ended as one */
        /* In the child, after the descriptors are in place and before
         * exec (pinning, environment, signal mask); may be NULL. */
        void (*setup)(void *data);
        /* Instead of an exec (ARGV is then NULL): the child's whole work,
         * run after SETUP; the child exits with what it returns.  It holds
         * every descriptor the parent had (no exec closes the O_CLOEXEC
         * ones): it closes what it must not keep. */
        int (*run)(void *data);
        void *data;
} SpawnOpts;

typedef struct {
        pid_t pid;   /* -1 once reaped */
        int pidfd;   /* to wait on, or -1 */
        int out;     /* the read end of out_fd's SPAWN_PIPE, or -1 */
        int err;     /* the read end of err_fd's SPAWN_PIPE, or -1 (the caller's to close) */
        bool group;
} SpawnChild;

/* Starts O's child into *C.  Returns 0, -ENOENT when ARGV[0] is not found,
 * or -errno. */
int spawn_start(const SpawnOpts *o, SpawnChild *c);

/* Fills *C for PID, a child forked by other means (plugin.c's probe),
 * to wait on as spawn_start()'s: OUT its output pipe (-1: none), GROUP
 * whether to end its process group with it. */
void spawn_adopt(pid_t pid, int out, bool group, SpawnChild *c);

/* Called at least every 100 ms while spawn_watch() or spawn_wait() waits:
 * 0 to go on, or a negative errno-style reason to stop waiting (returned
 * as it is). */
typedef int (*SpawnCheck)(void *data);

/* Waits until one of the N descriptors FDS (-1 entries are skipped) is
 * readable, C's child exits (C may be NULL: no child to watch), DEADLINE_US
 * passes (g_get_monotonic_time(); 0: none) or CHECK (may be NULL) says
 * stop.  Returns the index of a readable descriptor (these come first),
 * -ECHILD when the child has exited (it stays waitable: spawn_wait() gets
 * its status at once), -ETIMEDOUT, CHECK's reason or -errno.  Neither ends
 * nor reaps the child. */
int spawn_watch(const SpawnChild *c, const int *fds, size_t n, gint64 deadline_us, SpawnCheck check, void *data);

/* As spawn_watch(), and each signal in WAKE (NULL: none, as
 * spawn_watch()) ends the wait at once, whatever the caller's mask: they
 * are blocked but in the wait itself (ppoll()), so that one that arrives
 * while CHECK looks is not lost but ends the wait that follows.  CHECK
 * then sees what their handlers did: it is called after each wake-up
 * only, not every 100 ms, and nothing wakes the caller that is not a
 * descriptor, the child, the deadline or one of WAKE.  The signal mask is
 * the caller's again on return. */
int spawn_watch_signals(const SpawnChild *c, const int *fds, size_t n, gint64 deadline_us, const sigset_t *wake,
                        SpawnCheck check, void *data);

/* Waits for C until DEADLINE_US (g_get_monotonic_time(); 0: none) or
 * until CHECK (may be NULL) says stop.  When TEXT is set, C->out is read
 * into it meanwhile (at most 64 KiB kept) and closed.  At the deadline or
 * the stop, ends the child as spawn_end() does.  Returns 0 with *STATUS
 * its wait status, -ETIMEDOUT, CHECK's reason, -ECHILD (somebody else
 * reaped it: nothing is signalled then) or -errno; the child is reaped and
 * C's descriptors closed in every case. */
int spawn_wait(SpawnChild *c, gint64 deadline_us, guint grace_ms, GString *text, SpawnCheck check,
               void *data, int *status);

/* Ends C now: SIGTERM, then SIGKILL GRACE_MS later (at once when 0;
 * SIGKILL ends a stopped process too), to its group too when it has one;
 * reaps it into *STATUS and closes C's descriptors. */
void spawn_end(SpawnChild *c, guint grace_ms, int *status);

/* Runs ARGV (ARGV[0] searched in PATH) in a process group of its own,
 * stdin and stderr on /dev/null, and returns 0 with *OUT its standard
 * output (at most 64 KiB) when it exits 0 within TIMEOUT_MS (and CHECK,
 * may be NULL, does not say stop).  Otherwise it is killed (also when
 * stopped) and reaped, and the result is -ETIMEDOUT, CHECK's reason,
 * -ENOENT (no such program) or -EIO (a non-zero exit). */
int spawn_command(const char *const *argv, guint timeout_ms, SpawnCheck check, void *data, char **out);

/* Set by the command line's SIGINT and SIGTERM handler (cli.c): a run
 * stops, keeping what it measured, and every wait for a child that
 * checks spawn_stop_check() ends. */
extern volatile sig_atomic_t spawn_interrupted;
/* SpawnCheck: -EINTR once spawn_interrupted is set. */
int spawn_stop_check(void *data);
/* Into *SET: SIGINT and SIGTERM, which set spawn_interrupted, for
 * spawn_watch_signals(). */
void spawn_stop_signals(sigset_t *set);

/* Runs ARGV[0] (searched in PATH) with ARGV, stdin and stderr on
 * /dev/null, and returns 0 with *OUT its standard output (at most 64 KiB)
 * when it exits 0 within TIMEOUT_MS.  Otherwise it is killed (also when
 * stopped) and reaped, and the result is -ETIMEDOUT, -EINTR (SIGINT or
 * SIGTERM arrived: spawn_interrupted), -ENOENT (no such program) or
 * -EIO (a non-zero exit).  Every helper command ipclab waits for (a
 * version, systemd-detect-virt, ssh and Slurm's tools) goes through
 * here: none can hold a run for longer than its limit. */
int spawn_helper(const char *const *argv, guint timeout_ms, char **out);
#define SPAWN_HELPER_TIMEOUT_MS 5000

/* The part of spawn_helper() after the fork, for any child PID that
 * writes to the pipe FD (which this closes): appends what it writes (at
 * most 64 KiB) to TEXT until it closes it, then waits for its exit, all
 * within TIMEOUT_MS: 0 with *STATUS its wait status, or -ETIMEDOUT or
 * -EINTR (spawn_interrupted) with the child (and its process group)
 * killed and reaped, or -errno. */
int spawn_helper_output(pid_t pid, int fd, guint timeout_ms, GString *text, int *status);

/* The start of a child process ipclab forks itself, without exec (PARENT:
 * ipclab's pid, taken before the fork): it is killed when its parent
 * ends, and ends at once when the parent is gone already; SIGPIPE is
 * ignored. */
void spawn_child_start(pid_t parent);
