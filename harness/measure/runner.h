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
#include "sample.h"

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

/* Stops the buses the runner started (also done by runner_free). */
void runner_stop_buses(Runner *runner);

