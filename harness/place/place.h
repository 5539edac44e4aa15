/* place.h: where an experiment runs: in which environments of this
 * machine (env/env.h: one EnvOps each, listed in ENVS(X)), on which
 * machines (remote.h: SSH targets), each staged, then merged into one
 * OUT_DIR/<experiment>/ (run_merge).  Above measure/ (run.h runs the cells
 * here); `ipclab run` calls these. */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "estimate.h"
#include "experiment.h"
#include "remote.h"
#include "run.h"

/* run_merge() (run.h), saying what it merged (progress.h). */
int place_merge(const Experiment *exp, const char *out_dir, const char *const *dirs, const char *const *labels,
                bool machines, GError **error);

/* Runs EXP in each of its environments (env=host;nspawn;vm) into staging
 * directories under OUT_DIR/.<experiment>.envs/, then merges them into one
 * OUT_DIR/<experiment>/: the samples and latencies of every environment
 * (told apart by the env column), meta.ini with the first environment's groups and
 * "<group> <env>" groups for the others, and each console log.  SELF is
 * the ipclab binary for containers and VMs; EXTRA the arguments for their
 * inner run (--profile NAME).  RESUME keeps environments already measured.
 * Returns one of the RUN_ values. */
int run_experiment_envs(const Experiment *exp, const char *self, const char *out_dir, bool resume,
                        const char *const *extra, const char *const *argv, GError **error);

/* Runs EXP where it says (its env list: run_experiment_envs; one other
 * environment: env_run; else run_experiment) on this machine, into
 * OUT_DIR/<experiment>/.  Returns one of the RUN_ values. */
int run_experiment_here(const Experiment *exp, const char *self, const char *out_dir, bool resume,
                        const char *const *extra, const char *const *argv, GError **error);

/* Runs EXP on each of TARGETS (NULL-terminated; "local" is this machine,
 * as run_experiment_here() runs it, the others remote_run()) in turn, into
 * staging directories OUT_DIR/.<experiment>.machines/<target key>/, then
 * merges them into one OUT_DIR/<experiment>/ (run_merge, one machine
 * each).  RESUME keeps the machines already measured and continues an
 * interrupted one from its resume file.  Returns one of the RUN_ values;
 * on RUN_ERROR and RUN_INTERRUPTED OUT_DIR/<experiment>/ is unchanged. */
int run_experiment_machines(const Experiment *exp, const char *self, const char *out_dir, bool resume,
                            const RemoteTarget *const *targets, const char *const *extra,
                            const char *const *argv, GError **error);

/* The time EXP takes (estimate.h), run in turn on PLACES machines (1:
 * here alone), in every environment of it: each environment's cost
 * (EnvOps.cost_s) of one pass over the cells on the host.  OUT->where
 * says what they added (g_free). */
void place_estimate(const Experiment *exp, const EstimateCalib *cal, guint places, Estimate *out);
