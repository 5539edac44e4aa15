/* env-internal.h: what env.c's image runner shares with the image-based
 * environments (nspawn.c, vm.c).
 *
 * Inside a container or guest the layout is fixed:
 *   /ipclab/in/ipclab      the host's harness binary (read-only)
 *   /ipclab/in/NAME.ini    the experiment file (read-only)
 *   /ipclab/out/           the results (the only writable mount); the
 *                          inner run's exit status ends up in
 *                          /ipclab/out/status
 */
#pragma once

#include <glib.h>

#include "env.h"

#define ENV_INNER_DIR "/ipclab/in"
#define ENV_INNER_SELF ENV_INNER_DIR "/ipclab"
#define ENV_INNER_OUT "/ipclab/out"

/* One run in a container or VM, prepared by env.c. */
typedef struct {
        const EnvOps *ops;
        const char *self;     /* the harness binary on the host */
        const char *file;     /* the experiment file on the host */
        char *file_base;      /* "NAME.ini" */
        char *image;          /* the complete image directory */
        char *hash;           /* the recipe hash */
        char *stage;          /* OUT_DIR/.ipclab-env-NAME-XXXXXX */
        char *stage_out;      /* STAGE/out: mounted at ENV_INNER_OUT */
        char *log;            /* STAGE/console.log */
        char *share;          /* vm: a temporary directory shared read-only */
        GPtrArray *args;      /* the inner command, as seen inside */
        GPtrArray *env;       /* "IPCLAB_...=value" for the inner command */
        gboolean kvm;         /* vm: use KVM, else TCG */
} EnvRun;

/* The parts of an image-based environment that env_image_run() calls in
 * turn: its tools, then its command line, then its time limits. */
struct EnvBackend {
        /* Why its tools or privileges are missing, or NULL; the image is
         * checked by env.c. */
        const char *(*unavailable)(void);
        /* Decides what the run needs (a VM's accelerator) and adds its
         * own "IPCLAB_...=value" to RUN->env; may be NULL. */
        void (*setup)(EnvRun *run);
        /* The command line of the container or VM for RUN: a new array of
         * strings (NULL-terminated), or NULL with ERROR set. */
        GPtrArray *(*argv)(EnvRun *run, GError **error);
        /* Seconds to allow, beyond the experiment's own time limit, to
         * start and stop. */
        guint (*startup_s)(const EnvRun *run);
        /* Seconds between SIGTERM and SIGKILL at the time limit (0: SIGKILL
         * at once). */
        guint grace_s;
        /* When set, the guest's init must print this on the console within
         * startup_s, or the guest counts as hung (guest-init.sh). */
        const char *boot_marker;
        /* Appended to the message when the guest did not boot, or NULL. */
        const char *(*no_boot_hint)(const EnvRun *run);
};
