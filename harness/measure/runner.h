/* runner.h: runs one repetition of one cell in real processes.
 *
 * The runner forks a supervisor process per repetition, which calls the
 * transport's prepare(), close() and cleanup() and forks a server and a
 * client process (or, roles=threads, one process of two threads), pinned
 * to CPUs as the cell says, that warm up, time the pattern and report
 * what both sides measured: no hook of a transport runs in the caller's
 * process, so a crash or a hang in one fails the cell alone.  It never
 * prints; a failed cell is a Sample with status < 0 and a reason, not an
 * error of the runner.
 */
#pragma once

#include <glib.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include "experiment.h"

typedef struct {
        int status;               /* 0: measured; < 0: the cell failed (-errno) */
        char why[256];            /* the reason when status < 0 */
        guint64 failed_ns;        /* CLOCK_MONOTONIC time of that failure */
        guint64 elapsed_ns;       /* the timed window, CLOCK_MONOTONIC (see runner.c) */
        /* CPU time of each side over the timed window, in ns, from the
         * kernel's per-process CPU clocks (per-thread with roles=threads;
         * exact, not tick-sampled): no user/system split, which the
         * kernel only samples at ticks. */
        guint64 client_cpu_ns;
        guint64 server_cpu_ns;    /* 0 for in-process transports: counted in the client's */
        guint64 bus_cpu_ns;       /* the bus daemon's CPU time, 0 without one */
        guint64 messages;         /* timed messages delivered (warm-up excluded) */
        guint64 bytes;            /* timed payload bytes delivered */
        guint64 lat_n;            /* latencies recorded: round trips, or one-way
                                   * transit times (stamped payloads, runner.c) */
        guint64 lat_min_ns, lat_p50_ns, lat_p90_ns, lat_p99_ns, lat_p999_ns, lat_max_ns;
        /* The numbers below are SAMPLE_NONE where they were not measured
         * (sample_init() sets them so); samples.tsv has "-" there. */
        guint64 fixed_ns;         /* a window of one message, timed like the main
                                   * one just before it (runner.c) */
        guint64 placement;        /* a PlacementMode (placement.h) */
        guint64 client_on_cpu;    /* the CPU each side ran on at the end of the */
        guint64 server_on_cpu;    /* window (its busiest thread's) */
        guint64 bus_on_cpu;
        guint64 migrations;       /* migrations of every thread in the window */
} Sample;

#define SAMPLE_NONE G_MAXUINT64

/* Zeroes S, with SAMPLE_NONE in the numbers that may be missing. */
void sample_init(Sample *s);

typedef struct Runner Runner;

/* A runner for EXP: it starts private buses lazily and keeps them until
 * runner_free().  WARMUP, TIMEOUT and VERIFY come from EXP. */
Runner *runner_new(const Experiment *exp);
void runner_free(Runner *runner);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Runner, runner_free)

/* Runs repetition REP of CELL and fills OUT.  Returns 0 when OUT holds a
 * result (measured or failed), or -errno when the runner itself cannot go on
 * (out of memory, cannot fork). */
int runner_run(Runner *runner, const Cell *cell, guint rep, Sample *out);

/* The latencies of the last runner_run() that measured any (its Sample's
 * lat_n of them, sorted ascending): round trips, one-way transit times
 * (pattern=oneway with room in the payload for its send time, runner.c),
 * or hyperfine's runs' durations; valid until the next runner_run(); *N
 * is 0 when it measured none. */
const guint64 *runner_latencies(const Runner *runner, size_t *n);

/* The start of a child process ipclab forks (PARENT: ipclab's pid,
 * taken before the fork): it is killed when its parent ends, and ends at
 * once when the parent is gone already; SIGPIPE is ignored. */
void runner_child_start(pid_t parent);

/* Stops the buses the runner started (also done by runner_free). */
void runner_stop_buses(Runner *runner);

/* Set by main.c's signal handler (Ctrl-C and the like, during a run):
 * the run stops, what was measured is kept, and every wait for a child
 * ends. */
extern volatile sig_atomic_t runner_interrupted;
