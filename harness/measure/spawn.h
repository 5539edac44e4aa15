/* spawn.h: the one way ipclab starts a child it waits for with a
 * deadline: a helper command (meta.c), hyperfine (runner.c), a container
 * or VM (place/env/env.c).
 *
 * spawn_start() forks and execs ARGV with the descriptors given (never a
 * shell), in a process group of its own when asked; the parent never
 * waits for the exec (a child stopped before it would hold us for good);
 * a failed exec says why on the child's stderr and exits 127.
 * spawn_wait() waits for the exit, reading the child's output meanwhile
 * when asked, until a deadline or until a check says stop; then it ends
 * the child (and its group): SIGTERM, SIGKILL GRACE_MS later (at once
 * when 0), and reaps it.  Nothing here prints.
 */
#pragma once

#include <glib.h>
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
        void *data;
} SpawnOpts;

typedef struct {
        pid_t pid;
        int pidfd;   /* to wait on, or -1 */
        int out;     /* the read end of out_fd's SPAWN_PIPE, or -1 */
        int err;     /* the read end of err_fd's SPAWN_PIPE, or -1 (the caller's to close) */
        bool group;
} SpawnChild;

/* Starts O's child into *C.  Returns 0, -ENOENT when ARGV[0] is not found,
 * or -errno. */
int spawn_start(const SpawnOpts *o, SpawnChild *c);

/* Called at least every 100 ms while spawn_wait() waits: 0 to go on, or a
 * negative errno-style reason to stop the child (returned by spawn_wait). */
typedef int (*SpawnCheck)(void *data);

/* Waits for C until DEADLINE_US (g_get_monotonic_time(); 0: none) or
 * until CHECK (may be NULL) says stop.  When TEXT is set, C->out is read
 * into it meanwhile (at most 64 KiB kept) and closed.  At the deadline or
 * the stop, ends the child as above.  Returns 0 with *STATUS its wait
 * status, -ETIMEDOUT, CHECK's reason, or -errno; the child is reaped and
 * C's descriptors closed in every case. */
int spawn_wait(SpawnChild *c, gint64 deadline_us, guint grace_ms, GString *text, SpawnCheck check,
               void *data, int *status);
