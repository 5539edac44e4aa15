/* env.h: running an experiment in a systemd-nspawn container or a QEMU VM.
 *
 * Both back ends run the host's own ipclab binary inside a Debian image
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

#include "experiment.h"

/* Runs the experiment FILE inside KIND (ENV_NSPAWN or ENV_VM) with the
 * ipclab binary SELF (the host build), and leaves results in
 * OUT_DIR/<experiment>/ exactly as a host run would, plus console.log: the
 * results appear all at once when the inner run has finished (they replace
 * an older OUT_DIR/<experiment>/ in one rename), and nothing in OUT_DIR
 * changes on failure.  EXTRA_ARGS: further arguments for the inner
 * `ipclab run` (e.g. "--profile", "quick", "--resume"), NULL-terminated, or
 * NULL.  Returns the inner run's exit status (0 ok, 1 a cell failed), or -1
 * with ERROR set: IPCLAB_ERROR_INPUT when root, a tool or the image is
 * missing (the message says what and how to get it) or the inner run
 * rejected its input; IPCLAB_ERROR_RUN for a hung (killed at the time
 * limit) or crashed container or guest, naming the log kept for it;
 * IPCLAB_ERROR_IO when the results cannot be put in place. */
int env_run(EnvKind kind, const char *self, const char *file, const char *out_dir,
            const char *const *extra_args, GError **error);

/* NULL when KIND can run here, else why not, with what to do about it
 * ("no nspawn image for recipe 1a2b3c4d5e6f: run `make env-nspawn` (as
 * root)").  For `ipclab list`.  The string is owned by env.c. */
const char *env_unavailable(EnvKind kind);

/* A warning to print before running in KIND, or NULL: for ENV_VM without a
 * usable KVM, that the guest runs under TCG emulation and its timings are
 * not comparable.  The string is owned by env.c. */
const char *env_warning(EnvKind kind);

/* "kvm" or "tcg": the accelerator env_run(ENV_VM, ...) will use. */
const char *env_vm_accel(void);

/* The recipe hash (sha256 hex) of the images, or NULL with ERROR set when
 * the recipe cannot be found. */
char *env_recipe_hash(GError **error);
