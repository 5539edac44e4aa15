/* estimate.h: how long a run of an experiment will take, before it runs.
 *
 * One estimator for every place that says so: `ipclab check`, the ETA of
 * `ipclab run`'s progress line, `ipclab estimate` (what `make reproduce`
 * prints before it measures) and `make bench-estimate`.
 *
 * A repetition costs its fixed part (forking the two roles, pinning them,
 * connecting to the bus, the placement snapshot, writing the row: one
 * cost per class of transport, below), its warm-up (WARMUP messages at the
 * per-message time) and its window (the time box, or COUNT messages at the
 * per-message time).  A run adds its own start (meta.ini, bounds, buses),
 * and each environment its start-up (a container, a VM's boot) and, for a
 * VM, a slowdown.  The model's numbers are this project's machine's (2
 * vCPUs, quiet, the committed data/); calibration replaces them with what
 * earlier runs on the machine recorded: each cell's per-message time from
 * the samples.tsv rows of the same transport, bus, pattern, payload,
 * marshalling and roles (the same CPU placement first; interpolated
 * between sizes), the fixed costs from each run's span in meta.ini (first
 * start to finish) less what its rows' windows and warm-ups took (a least-
 * squares fit over the runs, drawn toward the model where the runs cannot
 * tell the classes apart), the start-up of a container or VM from the gap
 * before its run, and a VM's slowdown from its span over the host's.
 */
#pragma once

#include <glib.h>

#include "experiment.h"

typedef struct EstimateCalib EstimateCalib;

/* What the runs recorded in DATA_DIR/<experiment>/ (meta.ini and
 * samples.tsv) on the machine MACHINE tell, leaving out the experiment
 * SKIP (NULL: none; leave-one-out).  Never fails: a directory whose files
 * are missing or do not read is left out.  With no run, it holds nothing
 * and every estimate is the model's. */
EstimateCalib *estimate_calib_load(const char *data_dir, const char *machine, const char *skip);
void estimate_calib_free(EstimateCalib *cal);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EstimateCalib, estimate_calib_free)

/* How many runs (meta.ini [run] sections on the machine) CAL holds. */
guint estimate_calib_runs(const EstimateCalib *cal);

/* Time one repetition of CELL takes on the host, fixed part, warm-up of
 * WARMUP messages and window, in ns; CAL NULL: the model's. */
double estimate_rep_ns(const EstimateCalib *cal, const Cell *cell, guint warmup);

/* What CAL's runs in the environment ENV (its name) tell: how many
 * (RUNS), the mean gap before each (START_S: a container's start, a
 * VM's boot), their span over the host's run of the same file (FACTOR)
 * and the accelerator of the last (ACCEL, owned by CAL, or NULL).  False,
 * and *OUT zeroed, when CAL (or NULL) holds none. */
typedef struct {
        guint runs;
        double start_s, factor;
        const char *accel;
} EstimateEnvCalib;
bool estimate_calib_env(const EstimateCalib *cal, const char *env, EstimateEnvCalib *out);

typedef struct {
        double secs;       /* the whole run: every environment, every place */
        double host_secs;  /* one pass over the cells on the host */
        guint runs;        /* earlier runs it is calibrated from; 0: the model */
        guint cells_seen;  /* cells whose per-message time earlier runs gave */
        guint cells;
        double speed;      /* the model's times are scaled by it: recorded over
                            * modelled per-message time, the median over
                            * N_SPEED recorded cells (1 with none) */
        guint n_speed;
        bool more;         /* repeat=auto: this is for the minimum */
        bool most;         /* repeat_until=decided: this is for the most
                            * (the cells of a claim to the last look) */
        char *where;       /* what the environments and places add ("; 1.0 s
                            * container start"), or NULL; g_free */
} Estimate;

/* One pass over EXP's cells on the host: fills *OUT with SECS =
 * HOST_SECS; WHERE it runs adds to it (place.h: place_estimate). */
void estimate_host(const Experiment *exp, const EstimateCalib *cal, Estimate *out);

/* One line on how E was made ("the model: ..." or "calibrated from N
 * earlier runs on this machine: ..."). */
char *estimate_describe(const Estimate *e);

/* The span DIR/meta.ini records, first start to last finish of its runs,
 * in seconds, with the machine of its first run (*MACHINE, g_free) and how
 * many machines ran it (*PLACES); -1 when DIR has no such meta.ini. */
double estimate_recorded_secs(const char *dir, char **machine, guint *places);

/* For a sequential design (repeat_until=decided), whose repetitions the
 * run's verdicts decide: the repetitions each cell took in the run
 * DIR/meta.ini records ([repeat] cell_N), into EXP->taken, which the
 * estimate then uses instead of the last look's (the most).  What
 * `ipclab estimate --recorded` compares a model of the costs with; a
 * cell the file does not record keeps the last look. */
void estimate_take_recorded(Experiment *exp, const char *dir);
