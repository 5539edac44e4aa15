/* place.h: where an experiment runs: in which environments of this
 * machine (env/env.h: one EnvOps each, listed in ENVS(X)), at which
 * places (here, an SSH target, a Slurm cluster: one PlaceOps each, below,
 * listed in PLACES(X)), each staged, then merged into one
 * OUT_DIR/<experiment>/ (run_merge).  Above measure/ (run.h runs the cells
 * here); `ipclab run` calls these.  Nothing here prints: progress.h. */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "estimate.h"
#include "experiment.h"
#include "remote.h"
#include "run.h"

/* The one list of places: X(ID, name) is a PlaceKind PLACE_ID and an ops
 * struct place_ops_name, implemented in one file of harness/place/
 * (local.c; remote.c for ssh; slurm.c).  Adding a place: its file, and
 * one line here; `ipclab run` takes its option from its row (option,
 * option_help) and `ipclab estimate --place` its name.  For an option several kinds share (--host), the first
 * row that claims a value reads it. */
#define PLACES(X) \
        X(LOCAL, local) \
        X(SSH, ssh) \
        X(SLURM, slurm)

#define PLACE_ENUM_(id, name) PLACE_##id,
typedef enum {
        PLACES(PLACE_ENUM_)
        PLACE_COUNT
} PlaceKind;
#undef PLACE_ENUM_

/* How `ipclab run` was asked: what every place gets. */
typedef struct {
        const char *self;         /* the ipclab binary */
        const char *profile;      /* --profile, or NULL */
        const char *env;          /* --env as given, or NULL: each file's env= */
        bool resume;              /* --resume */
        guint nodes;              /* --nodes (Slurm) */
        const char *job_dir;      /* --job-dir (Slurm), or NULL */
        const char *const *extra; /* arguments for an inner `ipclab run` (--profile NAME, --resume) */
        const char *const *argv;  /* the command line, recorded in meta.ini */
} PlaceCall;

typedef struct PlaceOps PlaceOps;

/* One place named on the command line. */
typedef struct {
        const PlaceOps *ops;
        char *spec;      /* as given */
        char *key;       /* a file name standing for it (its staging directory's) */
        gpointer data;   /* the kind's own (an SSH target: RemoteTarget) */
} Place;

/* One run at a place, from prepare() to clean(): one experiment EXP
 * (FILES NULL) into OUT_DIR/<experiment>/, or for a place that takes
 * them at once (PlaceOps.batch) the N_FILES FILES, each merged into
 * OUT_DIR/<experiment>/. */
typedef struct {
        const Place *place;
        const PlaceCall *call;
        const Experiment *exp;
        char **files;
        guint n_files;
        const char *out_dir;
        gpointer state;  /* the kind's own, from prepare() to clean() */
} PlaceJob;

/* One kind of place: a row of PLACES(X), implemented in one file as
 * `const PlaceOps place_ops_NAME`.  place_run() calls prepare, run,
 * collect (when run did not fail) and clean, in turn; each returns
 * RUN_OK, RUN_FAILED, RUN_INTERRUPTED, or RUN_ERROR with ERROR (run.h). */
struct PlaceOps {
        const char *name;
        /* The option that names one ("--host"), or NULL: where nothing
         * else is named (here).  `ipclab run` has one option for each row
         * with OPTION_HELP (one row per option): its help, its
         * argument's name, and whether it may be repeated. */
        const char *option;
        const char *option_help;
        const char *option_arg;
        bool option_many;
        /* Whether SPEC, a value of OPTION, names a place of this kind. */
        bool (*claims)(const char *spec);
        /* Reads SPEC into P (its key and data; P->spec is set); false with
         * ERROR (IPCLAB_ERROR_INPUT) saying what it should be. */
        bool (*parse)(Place *p, const char *spec, GError **error);
        void (*free_data)(gpointer data);
        /* Whether it can run here; false with ERROR (IPCLAB_ERROR_INPUT)
         * saying why not and what to do.  Its prepare() asks first. */
        bool (*available)(const Place *p, GError **error);
        int (*prepare)(PlaceJob *job, GError **error);  /* stage, send */
        int (*run)(PlaceJob *job, GError **error);
        /* Fetches and places the results of a run that ended STATUS. */
        int (*collect)(PlaceJob *job, int status, GError **error);
        void (*clean)(PlaceJob *job);                   /* whatever happened */
        /* Seconds a run at N places of this kind of what takes SECS here
         * takes (in turn, or side by side), from CAL's recorded runs
         * (NULL: the model's); appends what it assumed to NOTE. */
        double (*cost_s)(double secs, guint n, const EstimateCalib *cal, GString *note);
        /* Takes every file at once (PlaceJob.files), as one job. */
        bool batch;
};

#define PLACE_OPS_DECLARE_(id, name) extern const PlaceOps place_ops_##name;
PLACES(PLACE_OPS_DECLARE_)
#undef PLACE_OPS_DECLARE_

/* The place kind KIND's ops. */
const PlaceOps *place_ops(PlaceKind kind);
/* Reads SPEC, the value of OPTION ("--host", "--slurm"), as the first
 * kind of that option that claims it; NULL with ERROR. */
Place *place_parse(const char *option, const char *spec, GError **error);
void place_free(Place *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Place, place_free)
/* Runs JOB at its place: prepare, run, collect, clean.  Returns one of
 * the RUN_ values. */
int place_run(PlaceJob *job, GError **error);

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

/* Runs EXP at each of PLACES (NULL-terminated) in turn, as place_run()
 * runs it, into staging directories OUT_DIR/.<experiment>.machines/<key>/,
 * then merges them into one OUT_DIR/<experiment>/ (run_merge, one machine
 * each).  CALL->resume keeps the machines already measured and continues
 * an interrupted one from its resume file.  Returns one of the RUN_
 * values; on RUN_ERROR and RUN_INTERRUPTED OUT_DIR/<experiment>/ is
 * unchanged. */
int run_experiment_machines(const Experiment *exp, const char *out_dir, const Place *const *places,
                            const PlaceCall *call, GError **error);

/* The time EXP takes (estimate.h) at PLACES places of kind KIND (as
 * its PlaceOps.cost_s adds them up), in every environment of it: each
 * environment's cost (EnvOps.cost_s) of one pass over the cells on the
 * host.  OUT->where says what they added (g_free). */
void place_estimate(const Experiment *exp, const EstimateCalib *cal, PlaceKind kind, guint places, Estimate *out);
/* The place kind called NAME ("local", "ssh", "slurm"), or -1. */
int place_kind_of(const char *name);
