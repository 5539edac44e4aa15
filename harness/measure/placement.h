/* placement.h: where the processes of a repetition ran, and what the
 * repetitions of a cell say about it.
 *
 * A repetition's placement is observed, pinned or not (runner.c): after
 * the warm-up (before the fixed windows, so that a migration in those
 * counts as one in the window) and again once the main window has closed,
 * the client reads every thread of the client, the server and the bus
 * daemon from /proc (the CPU it last ran on, /proc/PID/task/TID/stat
 * field 39; the scheduler's count of its migrations, se.nr_migrations in
 * /proc/PID/task/TID/sched, where the kernel has that file; its runtime),
 * and each side reads sched_getcpu() where its part of the window ends (a
 * read of the rseq area: no system call).  From the two snapshots:
 *
 *   same   every thread that ran in the window, of the client, the server
 *          and the bus, on one CPU, none migrated: all of it serialised on
 *          that CPU, as cpus=same pins it;
 *   split  the client's threads on CPUs the server's do not use, the bus
 *          daemon's (where there is one) on the server's, none migrated:
 *          as cpus=split pins it;
 *   moved  a thread migrated during the window;
 *   other  none migrated, but neither of the above (threads of one side
 *          on several CPUs, the bus with the client).
 * and "-" where nothing is placed (an in-process transport, hyperfine's
 * commands) or nothing was observed (data written before these columns).
 *
 * Why not the CPU clocks: client + server CPU time equal to the elapsed
 * time does mean "serialised on one CPU" when nothing else runs, but any
 * other process on the machine makes a same-CPU repetition look
 * overlapped, and a split ping-pong that waits for every wake-up looks
 * serialised; the CPU numbers and migration counts do not depend on what
 * else runs.  Measured here (2 vCPUs under KVM, load average 11 from
 * other work): 10 repetitions of 2000 pipe round trips under
 * `taskset -c 0` (cpus=none), every one "same" with 0 migrations, had
 * (client + server) / elapsed from 0.10 to 0.40; 10 with cpus=split,
 * every one "split", from 0.12 to 0.21.  The sums overlap; the
 * placements do not.
 *
 * What lies outside the window but inside the snapshots.  Round trips
 * and in-process cells: nothing (the second snapshot follows the
 * client's last clock read; the server is then blocked waiting).
 * One-way: the server's snapshot is taken by the server itself when the
 * end of the stream arrives, the client's once the server's ack has
 * arrived (anything either side did earlier could delay the other's end
 * of the window on a shared CPU), so each side's one wake-up after the
 * window (the end of the stream; the ack) lies inside them.  A main
 * thread whose CPU at the second snapshot differs from its sched_getcpu()
 * at the end of the window migrated at that wake-up, and that one
 * migration is not counted; a migration of another thread (GDBus's
 * worker, the bus daemon relaying the end of the stream) after the
 * window is counted: "moved" errs on the side of caution.
 *
 * Nothing here prints or allocates in the child processes' paths:
 * snapshots are fixed-size structures, so that the server can hand its
 * own to the client through shared memory.
 */
#pragma once

#include <glib.h>
#include <sched.h>
#include <stdbool.h>
#include <sys/types.h>

#include "placement-modes.h"

/* The processes of a repetition. */
typedef enum {
        PLACE_CLIENT,
        PLACE_SERVER,
        PLACE_BUS,
        PLACE_N_ROLES
} PlaceRole;

/* Threads read per process; a process with more (none of ours) is read
 * only as far as this. */
#define PLACEMENT_THREADS 32

typedef struct {
        pid_t tid;
        int cpu;                  /* the CPU it last ran on */
        guint64 migrations;       /* se.nr_migrations */
        guint64 runtime_ns;       /* its CPU time so far */
} PlacementThread;

typedef struct {
        pid_t pid;                /* 0: no such process in this repetition */
        bool ok;                  /* read */
        bool have_migrations;     /* /proc/PID/task/TID/sched was there */
        guint n;
        PlacementThread t[PLACEMENT_THREADS];
} PlacementProc;

/* Reads every thread of process PID into *P (P->pid = PID).  0, or
 * -errno (P->ok false) when the process cannot be read. */
int placement_snap(pid_t pid, PlacementProc *p);

/* Reads thread TID alone into *P, as if it were a process of one thread
 * (P->pid = TID): a role that runs as a thread of a process it shares
 * with the other (roles=threads).  0, or -errno (P->ok false). */
int placement_snap_thread(pid_t tid, PlacementProc *p);

/* What one repetition's snapshots say. */
typedef struct {
        PlacementMode mode;
        int on_cpu[PLACE_N_ROLES];   /* the CPU of each side's busiest thread
                                      * in the window, at its end; -1: none */
        gint64 migrations;           /* every side's, in the window; -1 unknown */
} Placement;

/* Compares BEFORE and AFTER (per role; pid 0 where a role has no
 * process).  END_CPU[role] is the sched_getcpu() of that side's main
 * thread where its part of the window ended, or -1 when it was not read
 * (then no migration is attributed to after the window). */
void placement_observe(const PlacementProc before[PLACE_N_ROLES], const PlacementProc after[PLACE_N_ROLES],
                       const int end_cpu[PLACE_N_ROLES], Placement *out);

/* Pins every thread of process PID to SET (sched_setaffinity on each of
 * /proc/PID/task/).  0 or -errno (the first failure). */
int placement_pin_process(pid_t pid, const cpu_set_t *set);
