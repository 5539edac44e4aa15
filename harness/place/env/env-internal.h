/* env-internal.h: what env.c shares with its back ends nspawn.c and vm.c.
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

/* What the guest's init prints first on the console (guest-init.sh). */
#define ENV_GUEST_MARKER "ipclab-guest: ["

/* One run in a container or VM, prepared by env.c. */
typedef struct {
        EnvKind kind;
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

/* Reasons KIND's back end cannot run here (tools, privileges), or NULL;
 * the image is checked by env.c. */
const char *env_nspawn_unavailable(void);
const char *env_vm_unavailable(void);

/* The command line of the container or VM for RUN: a new array of strings
 * (NULL-terminated).  env_vm_argv() also fills RUN->share.  NULL with ERROR
 * set on failure. */
GPtrArray *env_nspawn_argv(EnvRun *run, GError **error);
GPtrArray *env_vm_argv(EnvRun *run, GError **error);

/* Does the VM use KVM?  Decided once: IPCLAB_VM_ACCEL, else whether
 * /dev/kvm can create a VM. */
gboolean env_vm_use_kvm(void);

/* Seconds to allow, beyond the experiment's own time limit, for the
 * container or VM to start and stop; for the VM, also the time its init
 * has to show up on the console before the guest counts as hung. */
guint env_nspawn_startup_s(void);
guint env_vm_startup_s(gboolean kvm);
