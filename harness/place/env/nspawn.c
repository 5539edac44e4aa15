/* nspawn.c: the systemd-nspawn back end.
 *
 * The container runs on the image's root directory with a volatile overlay
 * (writes go to a tmpfs and vanish: the image stays as built), without
 * registering with machined and without a unit of its own (so no systemd
 * is needed on the host), with a private network (loopback only), the
 * binary and experiment bound read-only and the staging directory bound
 * read-write.  The inner command runs as PID 2 under nspawn's stub init;
 * a constant shell wrapper writes its exit status to /ipclab/out/status,
 * which tells a status of the inner run from one of nspawn itself.
 */
#include "env-internal.h"

#include <unistd.h>

/* Runs "$@" in /ipclab/out and records its exit status.  The command is
 * passed as arguments, never pasted into this text. */
static const char status_wrapper[] =
        "cd " ENV_INNER_OUT " || exit 125; \"$@\"; s=$?; "
        "echo $s > " ENV_INNER_OUT "/status.tmp && "
        "mv " ENV_INNER_OUT "/status.tmp " ENV_INNER_OUT "/status; exit $s";

#define NSPAWN_MODEL_START_S 1.0 /* container start and stop, when no run recorded one */

static guint nspawn_startup_s(const EnvRun *run)
{
        (void) run;
        return 60;
}

static char *nspawn_path(void)
{
        char *p = g_find_program_in_path("systemd-nspawn");
        if (p == NULL && g_file_test("/usr/bin/systemd-nspawn", G_FILE_TEST_IS_EXECUTABLE))
                p = g_strdup("/usr/bin/systemd-nspawn");
        return p;
}

static const char *nspawn_tools_unavailable(void)
{
        if (geteuid() != 0)
                return "nspawn needs root (systemd-nspawn sets up the container): "
                       "run as root, e.g. with sudo";
        g_autofree char *p = nspawn_path();
        if (p == NULL)
                return "systemd-nspawn not found: apt-get install systemd-container";
        return NULL;
}

static void add(GPtrArray *a, const char *s)
{
        g_ptr_array_add(a, g_strdup(s));
}

/* PATH with ':' and '\' escaped for --bind=SRC:DST; made absolute when
 * ABSOLUTE (nspawn wants absolute sources). */
static char *bind_path(const char *path, gboolean absolute)
{
        g_autofree char *abs = absolute ? g_canonicalize_filename(path, NULL) : g_strdup(path);
        GString *out = g_string_new(NULL);
        for (const char *p = abs; *p != '\0'; p++) {
                if (*p == ':' || *p == '\\')
                        g_string_append_c(out, '\\');
                g_string_append_c(out, *p);
        }
        return g_string_free(out, FALSE);
}

static GPtrArray *nspawn_argv(EnvRun *run, GError **error)
{
        g_autofree char *nspawn = nspawn_path();
        if (nspawn == NULL) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s",
                            nspawn_tools_unavailable());
                return NULL;
        }
        g_autofree char *root = g_build_filename(run->image, "rootfs", NULL);
        g_autofree char *self = bind_path(run->self, TRUE);
        g_autofree char *file = bind_path(run->file, TRUE);
        g_autofree char *base = bind_path(run->file_base, FALSE);
        g_autofree char *out = bind_path(run->stage_out, TRUE);
        GPtrArray *a = g_ptr_array_new_with_free_func(g_free);

        g_ptr_array_add(a, g_steal_pointer(&nspawn));
        add(a, "--quiet");
        add(a, "--register=no");
        add(a, "--keep-unit");
        add(a, "--as-pid2");
        add(a, "--private-network");
        add(a, "--volatile=overlay");
        add(a, "--console=pipe");
        add(a, "--link-journal=no");
        add(a, "--resolv-conf=off");
        add(a, "--timezone=off");
        g_ptr_array_add(a, g_strdup_printf("--machine=ipclab-%d", (int) getpid()));
        g_ptr_array_add(a, g_strdup_printf("--directory=%s", root));
        g_ptr_array_add(a, g_strdup_printf("--bind-ro=%s:%s", self, ENV_INNER_SELF));
        g_ptr_array_add(a, g_strdup_printf("--bind-ro=%s:%s/%s", file, ENV_INNER_DIR, base));
        g_ptr_array_add(a, g_strdup_printf("--bind=%s:%s", out, ENV_INNER_OUT));
        for (guint i = 0; i < run->env->len; i++)
                g_ptr_array_add(a, g_strdup_printf("--setenv=%s",
                                                   (const char *) run->env->pdata[i]));
        add(a, "--");
        add(a, "/bin/sh");
        add(a, "-c");
        add(a, status_wrapper);
        add(a, "ipclab-env");
        for (guint i = 0; i < run->args->len; i++)
                add(a, run->args->pdata[i]);
        g_ptr_array_add(a, NULL);
        return a;
}

static double nspawn_cost_s(double host_s, const EstimateCalib *cal, GString *note)
{
        EstimateEnvCalib c;
        double start = estimate_calib_env(cal, "nspawn", &c) ? c.start_s : NSPAWN_MODEL_START_S;
        g_string_append_printf(note, "; %.1f s container start", start);
        return host_s + start;
}

static const char *nspawn_unavailable(void)
{
        return env_image_unavailable(&env_ops_nspawn);
}

static const EnvBackend nspawn_backend = {
        .unavailable = nspawn_tools_unavailable,
        .argv = nspawn_argv,
        .startup_s = nspawn_startup_s,
        .grace_s = 10,
};

const EnvOps env_ops_nspawn = {
        .name = "nspawn",
        .unavailable = nspawn_unavailable,
        .run = env_image_run,
        .cost_s = nspawn_cost_s,
        .backend = &nspawn_backend,
};
