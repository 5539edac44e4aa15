/* remote.h: running an experiment on other machines, with real tools:
 * OpenSSH for a target (`ipclab run --host ssh://USER@HOST[:PORT]`:
 * remote.c) and Slurm for a cluster (`ipclab run --slurm PARTITION`:
 * slurm.c), each a place (place.h: PlaceOps).  No agent of our own runs
 * anywhere: ssh runs sh, tar and the harness; sbatch runs the harness.
 *
 * Over SSH (place_ops_ssh), five steps, each one ssh connection:
 *   1. probe: `uname -m`, the glibc version and the shared libraries the
 *      target has (ldconfig -p), and whether it has make and cc;
 *   2. upload: `mktemp -d` on the target, then one tar stream of the
 *      harness sources (Makefile, mk/, harness/), the experiment file as
 *      in/NAME.ini, the resume file when there is one and, when the target
 *      can run it, the host's binary (see remote.c: same `uname -m`, every
 *      DT_NEEDED soname present, a glibc no older than ours, and it starts;
 *      IPCLAB_REMOTE_BUILD=1 builds there all the same);
 *   3. run: builds there if it must (make harness; a missing package is
 *      reported with the apt-get line mk/deps.sh prints), runs
 *      `ipclab run --out DIR/out ...` while its resume file comes back on
 *      stderr as it grows (so that a cut connection keeps the finished
 *      repetitions here for --resume), then streams DIR/out back as tar on
 *      the same connection, into a staging directory here that is renamed
 *      into place only when the stream is whole;
 *   4. the target's shell removes DIR when the run script ends, however it
 *      ends (also when the connection drops: it watches its stdin);
 *   5. on a failure before step 3, a last connection removes DIR.
 * ssh options come from the user's ssh configuration (~/.ssh/config is
 * ssh's own business), plus IPCLAB_SSH_OPTS (split like a shell would,
 * here, never by a remote shell), plus -o BatchMode=yes (a run never
 * waits for a password) and ServerAliveInterval=15, ServerAliveCountMax=4
 * (a link that died silently ends the run within about a minute).  Every word sent to a remote shell goes through
 * remote_quote_command().
 *
 * On Slurm (place_ops_slurm): one job array, one task per experiment file
 * and node (--nodes N runs each file N times, --exclusive, one machine per
 * node), submitted with sbatch and followed in squeue; the job script and each
 * task's log stay in the job directory for inspection.
 */
#pragma once

#include <glib.h>

#include "experiment.h"

typedef struct {
        char *spec;   /* as given */
        char *user;   /* NULL: ssh's default */
        char *host;   /* NULL: this machine ("local") */
        char *port;   /* NULL: ssh's default */
        char *key;    /* a file name standing for the target */
} RemoteTarget;

/* Reads ssh://[USER@]HOST[:PORT] or "local" (this machine, run as without
 * --host).  USER: letters, digits, '.', '_', '-'; HOST: a name or IPv4
 * address (letters, digits, '.', '-', '_'; not starting with '-'); PORT:
 * 1 to 65535.  NULL with ERROR (IPCLAB_ERROR_INPUT) otherwise. */
RemoteTarget *remote_target_parse(const char *spec, GError **error);
void remote_target_free(RemoteTarget *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RemoteTarget, remote_target_free)

/* ARGV as one POSIX shell command line: every word single-quoted
 * (g_shell_quote), joined by spaces.  The only way anything reaches a
 * remote shell or a job script. */
char *remote_quote_command(const char *const *argv);
