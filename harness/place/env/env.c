/* env.c: runs an experiment in a container or VM and brings its results back.
 *
 * The flow of env_run(): check that the back end and its image are there;
 * load the experiment (early errors, and the time limit); make a staging
 * directory next to the results (same file system, so the final rename is
 * atomic); start systemd-nspawn or qemu with the staging directory as the
 * only writable mount and wait for it, at most until the time limit; read
 * the inner run's exit status from the file it left; put the results in
 * place with one rename.  Whatever fails, the staging directory goes and
 * OUT_DIR is as it was; the log of a failed run is kept in the cache.
 */
#include "env-internal.h"
#include "history.h"
#include "meta.h"
#include "run.h"
#include "samples.h"
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const recipe_files[] = {
        "image.recipe", "build-image.sh", "guest-init.sh",
};

/* Per cell and repetition, beyond the experiment's timeout: starting a
 * bus, forking, writing samples. */
#define ENV_CELL_SLACK_S 5

#define ENV_OPS_ENTRY_(id, name) [ENV_##id] = &env_ops_##name,
static const EnvOps *const env_table[ENV_COUNT] = { ENVS(ENV_OPS_ENTRY_) };
#undef ENV_OPS_ENTRY_

const EnvOps *env_ops(EnvKind kind)
{
        g_return_val_if_fail(kind < ENV_COUNT, NULL);
        return env_table[kind];
}

char *env_names_text(void)
{
        GString *s = g_string_new(NULL);
        for (guint k = 0; k < ENV_COUNT; k++)
                g_string_append_printf(s, "%s%s", k == 0 ? "" : k + 1 == ENV_COUNT ? " or " : ", ",
                                       env_table[k]->name);
        return g_string_free(s, FALSE);
}

/* Directory holding image.recipe: $IPCLAB_ENV_DIR, else env/ beside SELF
 * or beside the running binary (a source tree: harness/place/env/), else
 * ../share/ipclab/env/ from either (an installed one, mk/install.mk).
 * NULL when none has it. */
static char *find_recipe_dir(const char *self)
{
        const char *dir = g_getenv("IPCLAB_ENV_DIR");
        if (dir != NULL && *dir != '\0')
                return g_strdup(dir);

        g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
        const char *bins[] = { self, exe };
        for (gsize i = 0; i < G_N_ELEMENTS(bins); i++) {
                if (bins[i] == NULL)
                        continue;
                g_autofree char *bin_dir = g_path_get_dirname(bins[i]);
                char *cands[] = {
                        g_build_filename(bin_dir, "place", "env", NULL),
                        g_build_filename(bin_dir, "..", "share", "ipclab", "env", NULL),
                };
                char *found = NULL;
                for (gsize k = 0; k < G_N_ELEMENTS(cands); k++) {
                        g_autofree char *recipe = g_build_filename(cands[k], "image.recipe", NULL);
                        if (!found && g_file_test(recipe, G_FILE_TEST_IS_REGULAR))
                                found = g_steal_pointer(&cands[k]);
                        g_free(cands[k]);
                }
                if (found)
                        return found;
        }
#ifdef IPCLAB_ENV_DATADIR
        return g_strdup(IPCLAB_ENV_DATADIR);
#else
        return NULL;
#endif
}

static char *recipe_hash_in(const char *dir, GError **error)
{
        g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
        for (gsize i = 0; i < G_N_ELEMENTS(recipe_files); i++) {
                g_autofree char *path = g_build_filename(dir, recipe_files[i], NULL);
                g_autofree char *bytes = NULL;
                gsize len = 0;
                if (!g_file_get_contents(path, &bytes, &len, error)) {
                        g_prefix_error(error, "image recipe: ");
                        return NULL;
                }
                g_checksum_update(sum, (const guchar *) bytes, (gssize) len);
        }
        return g_strdup(g_checksum_get_string(sum));
}

static char *recipe_hash_for(const char *self, GError **error)
{
        g_autofree char *dir = find_recipe_dir(self);
        if (dir == NULL) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "cannot find the image recipe (image.recipe in env/ beside "
                            "the ipclab binary, i.e. harness/place/env/, or in ../share/ipclab/env/ "
                            "from it, where make install puts it; or set IPCLAB_ENV_DIR)");
                return NULL;
        }
        return recipe_hash_in(dir, error);
}

char *env_recipe_hash(GError **error)
{
        return recipe_hash_for(NULL, error);
}

static char *cache_dir(void)
{
        const char *c = g_getenv("IPCLAB_CACHE");
        if (c != NULL && *c != '\0')
                return g_strdup(c);
        return g_build_filename(g_get_home_dir(), ".cache", "ipclab", NULL);
}

/* The complete image of OPS for HASH, or NULL with a reason in ERROR. */
static char *find_image(const EnvOps *ops, const char *hash, GError **error)
{
        const char *name = ops->name;
        g_autofree char *cache = cache_dir();
        g_autofree char *dir = g_build_filename(cache, "images", hash, name, NULL);
        g_autofree char *complete = g_build_filename(dir, "complete", NULL);
        if (!g_file_test(complete, G_FILE_TEST_IS_REGULAR)) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "no %s image for recipe %.12s in %s/images: run `make env-%s` "
                            "(as root; it needs debootstrap and the Debian mirror)",
                            name, hash, cache, name);
                return NULL;
        }
        return g_steal_pointer(&dir);
}

const char *env_image_unavailable(const EnvOps *ops)
{
        static GHashTable *reasons; /* name -> the last reason */

        const char *why = ops->backend->unavailable();
        if (why != NULL)
                return why;

        g_autoptr(GError) error = NULL;
        g_autofree char *hash = recipe_hash_for(NULL, &error);
        g_autofree char *image = hash != NULL ? find_image(ops, hash, &error) : NULL;
        if (reasons == NULL)
                reasons = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
        if (image != NULL) {
                g_hash_table_remove(reasons, ops->name);
                return NULL;
        }
        g_hash_table_insert(reasons, (gpointer) ops->name, g_strdup(error->message));
        return g_hash_table_lookup(reasons, ops->name);
}

static void env_run_clear(EnvRun *run)
{
        if (run->stage)
                samples_remove_dir(run->stage);
        if (run->share)
                samples_remove_dir(run->share);
        g_free(run->file_base);
        g_free(run->image);
        g_free(run->hash);
        g_free(run->stage);
        g_free(run->stage_out);
        g_free(run->log);
        g_free(run->share);
        if (run->args != NULL)
                g_ptr_array_unref(run->args);
        if (run->env != NULL)
                g_ptr_array_unref(run->env);
}

static gboolean has_arg(const char *const *args, const char *arg)
{
        for (gsize i = 0; args != NULL && args[i] != NULL; i++)
                if (strcmp(args[i], arg) == 0 || (strcmp(arg, "--resume") == 0 &&
                                                   strcmp(args[i], "-r") == 0))
                        return TRUE;
        return FALSE;
}

/* Seconds the inner run may take at most: every cell and repetition
 * running into the experiment's timeout, plus some slack each, plus the
 * back end's start-up.  IPCLAB_ENV_TIMEOUT overrides. */
static guint64 time_limit_s(const EnvRun *run, const Experiment *exp)
{
        const char *over = g_getenv("IPCLAB_ENV_TIMEOUT");
        if (over != NULL && *over != '\0') {
                guint64 s = g_ascii_strtoull(over, NULL, 10);
                if (s > 0)
                        return s;
        }
        guint64 per = exp->timeout_ns / G_GUINT64_CONSTANT(1000000000) + 1 + ENV_CELL_SLACK_S;
        guint64 runs = (guint64) exp->cells->len * MAX(exp->repeat, 1u);
        return run->ops->backend->startup_s(run) + runs * per;
}

/* IPCLAB_* variables of our environment that the inner run inherits. */
static void add_inherited_env(GPtrArray *env)
{
        g_auto(GStrv) names = g_listenv();
        for (gsize i = 0; names[i] != NULL; i++) {
                const char *n = names[i];
                if (!g_str_has_prefix(n, "IPCLAB_") || strcmp(n, "IPCLAB_CACHE") == 0 ||
                    strcmp(n, "IPCLAB_MACHINE") == 0 ||
                    g_str_has_prefix(n, "IPCLAB_ENV_") || g_str_has_prefix(n, "IPCLAB_VM_"))
                        continue;
                const char *v = g_getenv(n);
                if (v != NULL && strchr(v, '\n') == NULL)
                        g_ptr_array_add(env, g_strdup_printf("%s=%s", n, v));
        }
}

/* Leaves the inner run's resume files (run_partial_path) where a host
 * run would have left them, or, when the run FINISHED (and so removed its
 * own), removes the old ones. */
static void keep_partial(const EnvRun *run, const char *out_dir, const char *name,
                         gboolean finished)
{
        for (guint k = 0; k < RUN_N_PARTIALS; k++) {
                g_autofree char *inner = run_partial_path(run->stage_out, name, k);
                g_autofree char *outer = run_partial_path(out_dir, name, k);
                if (rename(inner, outer) != 0 && errno == ENOENT && finished)
                        (void) unlink(outer);
        }
}

static gboolean prepare(EnvRun *run, const char *out_dir, const char *name,
                        const char *const *extra_args, GError **error)
{
        if (g_mkdir_with_parents(out_dir, 0755) != 0) {
                int e = errno;
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "cannot create %s: %s",
                            out_dir, g_strerror(e));
                return FALSE;
        }
        g_autofree char *tmpl = g_strdup_printf(".ipclab-env-%s-XXXXXX", name);
        run->stage = g_build_filename(out_dir, tmpl, NULL);
        if (g_mkdtemp_full(run->stage, 0755) == NULL) {
                int e = errno;
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO,
                            "cannot create a staging directory in %s: %s", out_dir,
                            g_strerror(e));
                g_clear_pointer(&run->stage, g_free);
                return FALSE;
        }
        run->stage_out = g_build_filename(run->stage, "out", NULL);
        run->log = g_build_filename(run->stage, "console.log", NULL);
        if (mkdir(run->stage_out, 0755) != 0) {
                int e = errno;
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "cannot create %s: %s",
                            run->stage_out, g_strerror(e));
                return FALSE;
        }

        /* --resume continues from the cells an interrupted run completed:
         * the inner run reads them (and their latencies) from the files a
         * host run leaves */
        for (guint k = 0; k < RUN_N_PARTIALS && has_arg(extra_args, "--resume"); k++) {
                g_autofree char *partial = run_partial_path(out_dir, name, k);
                if (!g_file_test(partial, G_FILE_TEST_IS_REGULAR))
                        continue;
                g_autofree char *copy = run_partial_path(run->stage_out, name, k);
                g_autofree char *bytes = NULL;
                gsize len = 0;
                if (!g_file_get_contents(partial, &bytes, &len, error) ||
                    !g_file_set_contents(copy, bytes, (gssize) len, error)) {
                        g_prefix_error(error, "cannot resume: ");
                        return FALSE;
                }
        }

        run->args = g_ptr_array_new_with_free_func(g_free);
        g_ptr_array_add(run->args, g_strdup(ENV_INNER_SELF));
        g_ptr_array_add(run->args, g_strdup("run"));
        g_ptr_array_add(run->args, g_strdup("--env"));
        g_ptr_array_add(run->args, g_strdup("host"));
        g_ptr_array_add(run->args, g_strdup("--out"));
        g_ptr_array_add(run->args, g_strdup(ENV_INNER_OUT));
        for (gsize i = 0; extra_args != NULL && extra_args[i] != NULL; i++)
                g_ptr_array_add(run->args, g_strdup(extra_args[i]));
        g_ptr_array_add(run->args, g_build_filename(ENV_INNER_DIR, run->file_base, NULL));

        run->env = g_ptr_array_new_with_free_func(g_free);
        g_ptr_array_add(run->env, g_strdup_printf("IPCLAB_ENV_BACKEND=%s", run->ops->name));
        g_ptr_array_add(run->env, g_strdup_printf("IPCLAB_ENV_IMAGE=%s", run->hash));
        /* A container or VM runs on the host's machine: same name. */
        g_ptr_array_add(run->env, g_strdup_printf("IPCLAB_MACHINE=%s", meta_machine_name()));
        if (run->ops->backend->setup != NULL)
                run->ops->backend->setup(run);
        add_inherited_env(run->env);
        return TRUE;
}

typedef enum {
        WAIT_EXITED,
        WAIT_TIMED_OUT,   /* killed at the time limit */
        WAIT_NO_BOOT,     /* killed: the guest did not start its init in time */
        WAIT_SIGNALED,    /* killed: we got SIGINT, SIGTERM or SIGHUP */
} WaitEnd;

/* The signals that end a run early.  env_run() blocks them while it runs,
 * notices them through a signalfd (without taking them), stops the
 * container or VM, cleans up, and unblocks them again: then they take
 * their usual effect. */
static void stop_signals(sigset_t *set)
{
        sigemptyset(set);
        sigaddset(set, SIGINT);
        sigaddset(set, SIGTERM);
        sigaddset(set, SIGHUP);
}

/* In the child, between fork and exec: nspawn and qemu get the usual mask. */
static void child_unblock(gpointer data)
{
        (void) data;
        sigset_t set;
        stop_signals(&set);
        sigprocmask(SIG_UNBLOCK, &set, NULL);
}

/* Did the guest's init announce itself (MARKER) in the console log LOG? */
static gboolean guest_started(const char *log, const char *marker)
{
        g_autofree char *text = NULL;
        return g_file_get_contents(log, &text, NULL, NULL) && strstr(text, marker) != NULL;
}

/* What wait_limited() watches besides the time limit. */
typedef struct {
        const char *boot_log;   /* NULL, or the console log the guest's init shows up in */
        const char *marker;     /* ... saying this */
        gint64 boot_deadline;
        gboolean booted;
        int sfd;                /* a signalfd, or -1 */
} Watch;

#define STOP_NO_BOOT (-ETIME)
#define STOP_SIGNALED (-EINTR)

/* SpawnCheck: a signal came, or the guest did not boot in time. */
static int watch_check(void *data)
{
        Watch *w = data;
        if (w->sfd >= 0) {
                struct pollfd p = { .fd = w->sfd, .events = POLLIN };
                if (poll(&p, 1, 0) == 1)
                        return STOP_SIGNALED;
        }
        if (!w->booted) {
                w->booted = guest_started(w->boot_log, w->marker);
                if (!w->booted && g_get_monotonic_time() >= w->boot_deadline)
                        return STOP_NO_BOOT;
        }
        return 0;
}

/* Waits for CHILD for at most LIMIT_S seconds, and when BOOT_LOG is set,
 * only BOOT_S seconds unless the guest's init shows up (MARKER) in
 * BOOT_LOG by then, and only until SFD (a signalfd, or -1) becomes
 * readable.  Then ends it: SIGTERM, and SIGKILL GRACE_S seconds later (at
 * once when GRACE_S is 0).  Stores the wait status in *WSTATUS. */
static WaitEnd wait_limited(SpawnChild *child, guint64 limit_s, guint grace_s, const char *boot_log,
                            const char *marker, guint boot_s, int sfd, int *wstatus)
{
        gint64 start = g_get_monotonic_time();
        Watch w = { .boot_log = boot_log, .marker = marker, .booted = boot_log == NULL, .sfd = sfd,
                    .boot_deadline = start + (gint64) boot_s * G_USEC_PER_SEC };
        int r = spawn_wait(child, start + (gint64) limit_s * G_USEC_PER_SEC, grace_s * 1000, NULL, watch_check, &w,
                           wstatus);
        switch (r) {
        case 0:
                return WAIT_EXITED;
        case STOP_NO_BOOT:
                return WAIT_NO_BOOT;
        case STOP_SIGNALED:
                return WAIT_SIGNALED;
        default:
                return WAIT_TIMED_OUT;
        }
}

/* The last lines of the log at PATH (at most N), indented, or "". */
static char *log_tail(const char *path, guint n)
{
        g_autofree char *text = NULL;
        if (path == NULL || !g_file_get_contents(path, &text, NULL, NULL))
                return g_strdup("");
        g_auto(GStrv) lines = g_strsplit_set(text, "\r\n", -1);
        GPtrArray *keep = g_ptr_array_new();
        for (gsize i = 0; lines[i] != NULL; i++)
                if (*g_strstrip(lines[i]) != '\0')
                        g_ptr_array_add(keep, lines[i]);
        GString *out = g_string_new("");
        for (guint i = keep->len > n ? keep->len - n : 0; i < keep->len; i++)
                g_string_append_printf(out, "\n  | %s", (const char *) keep->pdata[i]);
        g_ptr_array_unref(keep);
        return g_string_free(out, FALSE);
}

/* Keeps the log of a failed run in CACHE/logs/ and returns its new path
 * (or NULL when it could not be kept). */
static char *keep_log(const EnvRun *run, const char *name)
{
        g_autofree char *cache = cache_dir();
        g_autofree char *dir = g_build_filename(cache, "logs", NULL);
        g_autoptr(GDateTime) now = g_date_time_new_now_utc();
        g_autofree char *stamp = g_date_time_format(now, "%Y%m%dT%H%M%S");
        g_autofree char *base = g_strdup_printf("%s-%s-%s-%d.log", name, run->ops->name,
                                                stamp, (int) getpid());
        char *path = g_build_filename(dir, base, NULL);
        g_autofree char *text = NULL;
        gsize len = 0;

        if (g_mkdir_with_parents(dir, 0755) != 0 ||
            !g_file_get_contents(run->log, &text, &len, NULL) ||
            !g_file_set_contents(path, text, (gssize) len, NULL)) {
                g_free(path);
                return NULL;
        }
        return path;
}

static void fail_run(const EnvRun *run, const char *name, int code, GError **error,
                     const char *what)
{
        g_autofree char *kept = keep_log(run, name);
        g_autofree char *tail = log_tail(run->log, 5);
        g_set_error(error, IPCLAB_ERROR, code, "%s %s; log: %s%s", run->ops->name, what,
                    kept != NULL ? kept : "(not kept)", tail);
}

/* Reads the inner run's exit status from STAGE/out/status: >= 0, or -1. */
static int read_status(const EnvRun *run)
{
        g_autofree char *path = g_build_filename(run->stage_out, "status", NULL);
        g_autofree char *text = NULL;
        if (!g_file_get_contents(path, &text, NULL, NULL))
                return -1;
        g_strstrip(text);
        guint64 v = 0;
        if (!g_ascii_string_to_unsigned(text, 10, 0, 255, &v, NULL))
                return -1;
        (void) unlink(path);
        return (int) v;
}

/* Moves the results STAGE/out/NAME, with the log, to OUT_DIR/NAME in one
 * rename (an older OUT_DIR/NAME is swapped out and kept in its history,
 * history.h). */
static gboolean install(const EnvRun *run, const char *out_dir, const char *name,
                        GError **error)
{
        g_autofree char *src = g_build_filename(run->stage_out, name, NULL);
        g_autofree char *dest = g_build_filename(out_dir, name, NULL);
        g_autofree char *log = g_build_filename(src, "console.log", NULL);

        if (rename(run->log, log) != 0) {
                int e = errno;
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "cannot move %s to %s: %s",
                            run->log, log, g_strerror(e));
                return FALSE;
        }
        int r = history_replace_dir(src, dest);
        if (r < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO,
                            "cannot move the results to %s: %s", dest, g_strerror(-r));
                return FALSE;
        }
        return TRUE;
}

static int run_in(EnvRun *run, const Experiment *exp, const char *out_dir, const char *name,
                  const char *const *extra_args, int sfd, GError **error)
{
        const EnvBackend *be = run->ops->backend;
        const char *why = be->unavailable();
        if (why != NULL) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s", why);
                return -1;
        }
        run->hash = recipe_hash_for(run->self, error);
        if (run->hash == NULL)
                return -1;
        run->image = find_image(run->ops, run->hash, error);
        if (run->image == NULL)
                return -1;
        if (!g_file_test(run->self, G_FILE_TEST_IS_EXECUTABLE)) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "%s: not an executable ipclab binary", run->self);
                return -1;
        }
        for (gsize i = 0; extra_args != NULL && extra_args[i] != NULL; i++) {
                if (strchr(extra_args[i], '\n') != NULL) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "arguments for a %s run cannot hold a newline",
                                    run->ops->name);
                        return -1;
                }
        }
        if (!prepare(run, out_dir, name, extra_args, error))
                return -1;

        g_autoptr(GPtrArray) argv = be->argv(run, error);
        if (argv == NULL)
                return -1;

        int log_fd = open(run->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (log_fd < 0) {
                int e = errno;
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "cannot create %s: %s",
                            run->log, g_strerror(e));
                return -1;
        }
        SpawnOpts o = { .argv = (const char *const *) argv->pdata, .in_fd = -1, .out_fd = log_fd,
                        .err_fd = log_fd, .new_group = TRUE, .setup = child_unblock };
        SpawnChild child;
        int sr = spawn_start(&o, &child);
        close(log_fd);
        if (sr < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN, "cannot start %s: %s",
                            (const char *) argv->pdata[0], g_strerror(-sr));
                return -1;
        }

        guint64 limit = time_limit_s(run, exp);
        guint boot = be->boot_marker != NULL ? be->startup_s(run) : 0;
        int wstatus = 0;
        WaitEnd end = wait_limited(&child, limit, be->grace_s, be->boot_marker != NULL ? run->log : NULL,
                                   be->boot_marker, boot, sfd, &wstatus);
        int status = end != WAIT_EXITED ? -1 : read_status(run);
        g_autofree char *results = g_build_filename(run->stage_out, name, NULL);
        gboolean have_results = g_file_test(results, G_FILE_TEST_IS_DIR);
        if ((status != 0 && status != 1) || !have_results)
                keep_partial(run, out_dir, name, FALSE);

        if (end == WAIT_TIMED_OUT) {
                g_autofree char *what = g_strdup_printf(
                        "run did not finish within %" G_GUINT64_FORMAT
                        " s (the experiment's time limit) and was killed",
                        limit);
                fail_run(run, name, IPCLAB_ERROR_RUN, error, what);
                return -1;
        }
        if (end == WAIT_SIGNALED) {
                fail_run(run, name, IPCLAB_ERROR_RUN, error,
                         "run interrupted by a signal; the results are unchanged");
                return -1;
        }
        if (end == WAIT_NO_BOOT) {
                g_autofree char *what = g_strdup_printf(
                        "guest did not start its init within %u s and was killed%s", boot,
                        be->no_boot_hint != NULL ? be->no_boot_hint(run) : "");
                fail_run(run, name, IPCLAB_ERROR_RUN, error, what);
                return -1;
        }
        if (status < 0) {
                g_autofree char *what = NULL;
                if (WIFSIGNALED(wstatus))
                        what = g_strdup_printf("died of signal %d before the inner run ended",
                                               WTERMSIG(wstatus));
                else
                        what = g_strdup_printf("exited with status %d before the inner run "
                                               "ended",
                                               WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
                fail_run(run, name, IPCLAB_ERROR_RUN, error, what);
                return -1;
        }
        if (status == 2) {
                fail_run(run, name, IPCLAB_ERROR_INPUT, error,
                         "run: the inner `ipclab run` rejected its input (exit status 2)");
                return -1;
        }
        if (status > 2 || !have_results) {
                g_autofree char *what = g_strdup_printf(
                        "run: the inner `ipclab run` exited with status %d%s", status,
                        have_results ? "" : " and left no results");
                fail_run(run, name, IPCLAB_ERROR_RUN, error, what);
                return -1;
        }
        if (!install(run, out_dir, name, error)) {
                keep_partial(run, out_dir, name, FALSE);
                return -1;
        }
        keep_partial(run, out_dir, name, TRUE);
        return status;
}

int env_image_run(const EnvOps *ops, const Experiment *exp, const EnvCall *call, GError **error)
{
        g_return_val_if_fail(ops != NULL && ops->backend != NULL, -1);
        g_return_val_if_fail(call->self != NULL && exp->path != NULL && call->out_dir != NULL, -1);

        EnvRun run = { .ops = ops, .self = call->self, .file = exp->path };
        run.file_base = g_path_get_basename(exp->path);
        g_autofree char *name = g_str_has_suffix(run.file_base, ".ini")
                                        ? g_strndup(run.file_base, strlen(run.file_base) - 4)
                                        : g_strdup(run.file_base);
        sigset_t set, old;
        stop_signals(&set);
        sigprocmask(SIG_BLOCK, &set, &old);
        int sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
        int r = run_in(&run, exp, call->out_dir, name, call->extra, sfd, error);
        env_run_clear(&run);
        if (sfd >= 0)
                close(sfd);
        sigprocmask(SIG_SETMASK, &old, NULL);
        return r;
}
