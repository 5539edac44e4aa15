/* env.h: where on this machine an experiment runs: on the host, in a
 * systemd-nspawn container or in a QEMU VM; one EnvOps each (below),
 * listed once in ENVS(X) (envs.h).
 *
 * The container and the VM run the host's own ipclab binary inside a Debian image
 * built from harness/place/env/image.recipe (see build-image.sh): the image has
 * the host's Debian release and libraries, so host and guest numbers compare
 * like with like.  Images live in ${IPCLAB_CACHE:-$HOME/.cache/ipclab}/
 * images/<recipe sha256>/{nspawn,vm}/ and are used only when complete.
 *
 * Inside, the command is
 *   ipclab run --env host --out /ipclab/out [EXTRA_ARGS] /ipclab/in/NAME.ini
 * with IPCLAB_ENV_BACKEND=nspawn|vm, IPCLAB_ENV_IMAGE=<recipe sha256> and,
 * for the VM, IPCLAB_ENV_ACCEL=kvm|tcg in its environment (plus every
 * IPCLAB_* variable of the caller's environment but IPCLAB_CACHE,
 * IPCLAB_ENV_*).  The container or VM sees the results directory as its
 * only writable place; the output of the inner run (and for the VM the
 * guest's console) goes to console.log, kept beside the results.
 *
 * Tuning by environment variables (for tests and odd machines):
 *   IPCLAB_CACHE        the cache directory (default $HOME/.cache/ipclab)
 *   IPCLAB_ENV_DIR      where image.recipe is (default: env/ beside the
 *                       binary, i.e. harness/place/env for harness/ipclab)
 *   IPCLAB_ENV_TIMEOUT  seconds after which a container or VM is killed
 *                       (default: derived from the experiment, see env.c)
 *   IPCLAB_VM_ACCEL     kvm or tcg: force the VM's accelerator
 *
 * Nothing here prints; errors come back through GError.
 */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "estimate.h"
#include "experiment.h"

/* How a run was asked for: what every environment's run() gets. */
typedef struct {
        const char *self;         /* the ipclab binary (what a container or VM runs) */
        const char *out_dir;      /* results go to OUT_DIR/<experiment>/ */
        bool resume;              /* --resume */
        const char *const *extra; /* arguments for an inner `ipclab run` (--profile NAME, --resume) */
        const char *const *argv;  /* the command line, recorded in meta.ini */
} EnvCall;

typedef struct EnvBackend EnvBackend;

/* One environment: a row of ENVS(X) (envs.h), implemented in one file
 * of place/env/ as `const EnvOps env_ops_NAME`.  An environment that
 * runs the host's binary in an image (a container, a VM) sets BACKEND
 * and RUN = env_image_run: env.c then prepares the staging directory,
 * runs the back end's command with a deadline, collects the results and
 * cleans up (env-internal.h). */
typedef struct EnvOps {
        const char *name;
        /* NULL when it can run here, else why not and what to do about it
         * ("no nspawn image for recipe 1a2b3c4d5e6f: run `make env-nspawn`
         * (as root)").  The string is owned by the environment. */
        const char *(*unavailable)(void);
        /* A warning to print before running there, or NULL (a VM under
         * TCG: its timings are not comparable).  NULL: never one. */
        const char *(*warning)(void);
        /* Runs EXP there (OPS: this struct), leaving its results in
         * CALL->out_dir/<experiment>/ as a host run does.  Returns RUN_OK,
         * RUN_FAILED, RUN_INTERRUPTED, or RUN_ERROR with ERROR (run.h). */
        int (*run)(const struct EnvOps *ops, const Experiment *exp, const EnvCall *call, GError **error);
        /* Seconds a pass over the cells that takes HOST_S on the host takes
         * there, start-up included, from CAL's recorded runs (NULL: the
         * model's numbers); appends what it assumed to NOTE ("; 1.0 s
         * container start"). */
        double (*cost_s)(double host_s, const EstimateCalib *cal, GString *note);
        const EnvBackend *backend; /* for env_image_run(), else NULL */
} EnvOps;

#define ENV_OPS_DECLARE_(id, name) extern const EnvOps env_ops_##name;
ENVS(ENV_OPS_DECLARE_)
#undef ENV_OPS_DECLARE_

/* The environment KIND's ops. */
const EnvOps *env_ops(EnvKind kind);
/* "host, nspawn or vm": the names, for a message (g_free). */
char *env_names_text(void);

/* Runs the experiment EXP (its file EXP->path) inside OPS's image with the
 * ipclab binary CALL->self (the host build), and leaves results in
 * OUT_DIR/<experiment>/ exactly as a host run would, plus console.log: the
 * results appear all at once when the inner run has finished (they replace
 * an older OUT_DIR/<experiment>/ in one rename), and nothing in OUT_DIR
 * changes on failure.  CALL->extra: further arguments for the inner
 * `ipclab run` (e.g. "--profile", "quick", "--resume").  Returns the inner
 * run's exit status (RUN_OK, RUN_FAILED), or RUN_ERROR with ERROR set:
 * IPCLAB_ERROR_INPUT when root, a tool or the image is missing (the
 * message says what and how to get it) or the inner run rejected its
 * input; IPCLAB_ERROR_RUN for a hung (killed at the time limit), crashed
 * or interrupted container or guest, naming the log kept for it;
 * IPCLAB_ERROR_IO when the results cannot be put in place. */
int env_image_run(const EnvOps *ops, const Experiment *exp, const EnvCall *call, GError **error);

/* Why OPS (an image-based environment) cannot run here: its back end's
 * tools, privileges, or its image; NULL when it can.  Owned by env.c. */
const char *env_image_unavailable(const EnvOps *ops);

/* The recipe hash (sha256 hex) of the images, or NULL with ERROR set when
 * the recipe cannot be found. */
char *env_recipe_hash(GError **error);
