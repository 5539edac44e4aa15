/* remote.c: the place "an SSH target" (place.h: a row of PLACES(X),
 * place_ops_ssh): an experiment run on another machine over OpenSSH, in
 * the five steps remote.h describes.  Never prints: what the target's run prints is
 * passed on (progress.h); errors come back through GError. */
#include "place.h"
#include "remote.h"
#include "remote-internal.h"
#include "progress.h"

#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "latency.h"
#include "run.h"
#include "safefile.h"
#include "history.h"
#include "samples.h"
#include "spawn.h"
#include "untar.h"

#define MODEL_SSH_START_S 2.0 /* the model's probe, upload, results back */

/* ssh's command line for T running the POSIX sh SCRIPT with ARGS ($1...):
 * ssh [IPCLAB_SSH_OPTS] -o BatchMode=yes -o ServerAlive... [-p PORT] [-l USER] HOST
 *     'sh' '-c' 'SCRIPT' 'sh' 'ARG'... */
static GPtrArray *ssh_argv(const RemoteTarget *t, const char *script, const char *const *args,
                           GError **error)
{
        GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
        const char *opts = g_getenv("IPCLAB_SSH_OPTS");

        g_ptr_array_add(a, g_strdup("ssh"));
        if (opts && *opts) {
                g_auto(GStrv) words = NULL;
                g_autoptr(GError) e = NULL;
                if (!g_shell_parse_argv(opts, NULL, &words, &e)) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "IPCLAB_SSH_OPTS: %s", e->message);
                        g_ptr_array_unref(a);
                        return NULL;
                }
                for (guint i = 0; words[i]; i++)
                        g_ptr_array_add(a, g_strdup(words[i]));
        }
        /* Never wait for a password; notice a dead link within a minute
         * (ssh takes the first value of an option: the user's win). */
        const char *always[] = { "BatchMode=yes", "ServerAliveInterval=15", "ServerAliveCountMax=4" };
        for (gsize i = 0; i < G_N_ELEMENTS(always); i++) {
                g_ptr_array_add(a, g_strdup("-o"));
                g_ptr_array_add(a, g_strdup(always[i]));
        }
        if (t->port) {
                g_ptr_array_add(a, g_strdup("-p"));
                g_ptr_array_add(a, g_strdup(t->port));
        }
        if (t->user) {
                g_ptr_array_add(a, g_strdup("-l"));
                g_ptr_array_add(a, g_strdup(t->user));
        }
        g_ptr_array_add(a, g_strdup(t->host));
        g_autoptr(GPtrArray) words = g_ptr_array_new();
        g_ptr_array_add(words, (gpointer) "sh");
        g_ptr_array_add(words, (gpointer) "-c");
        g_ptr_array_add(words, (gpointer) script);
        g_ptr_array_add(words, (gpointer) "sh");
        for (gsize i = 0; args && args[i]; i++)
                g_ptr_array_add(words, (gpointer) args[i]);
        g_ptr_array_add(words, NULL);
        g_ptr_array_add(a, remote_quote_command((const char *const *) words->pdata));
        g_ptr_array_add(a, NULL);
        return a;
}

/* Runs SCRIPT with ARGS on T, its stdin from /dev/null; *OUT its stdout,
 * *LOG its stderr.  Returns the exit status (255: ssh failed), or -1 with
 * ERROR when ssh cannot be started. */
static int ssh_simple(const RemoteTarget *t, const char *script, const char *const *args, char **out,
                      char **log, GError **error)
{
        g_autoptr(GPtrArray) argv = ssh_argv(t, script, args, error);
        if (!argv)
                return -1;
        int out_pipe = -1, err_pipe = -1;
        GPid pid = remote_spawn((const char *const *) argv->pdata, -1, -1, &out_pipe, &err_pipe, error);
        if (pid < 0)
                return -1;
        g_autoptr(GString) o = g_string_new(NULL), l = g_string_new(NULL);
        Pump p = { .out = out_pipe, .err = err_pipe, .out_text = o, .log = l, .pid = pid };
        remote_pump(&p);
        int status = remote_wait_exit(pid);
        if (out)
                *out = g_string_free(g_steal_pointer(&o), FALSE);
        if (log)
                *log = g_string_free(g_steal_pointer(&l), FALSE);
        return status;
}

/* ---- 1. The probe --------------------------------------------------------- */

/* What the target has.  Fixed text: no value of ours in it. */
static const char probe_script[] =
        "echo \"arch $(uname -m)\"; "
        "echo \"glibc $(getconf GNU_LIBC_VERSION 2>/dev/null | cut -d' ' -f2)\"; "
        "for t in make cc tar; do command -v $t >/dev/null 2>&1 && echo \"have $t\"; done; "
        "{ ldconfig -p || /sbin/ldconfig -p; } 2>/dev/null | awk 'NR > 1 { print \"so \" $1 }'";

/* The sonames SELF needs (its DT_NEEDED entries, as readelf shows them), or
 * NULL when readelf cannot tell. */
static GPtrArray *needed_sonames(const char *self)
{
        const char *argv[] = { "readelf", "-d", self, NULL };
        g_autofree char *out = NULL;

        if (spawn_helper(argv, SPAWN_HELPER_TIMEOUT_MS, &out) < 0)
                return NULL;
        GPtrArray *so = g_ptr_array_new_with_free_func(g_free);
        g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
        for (guint i = 0; lines[i]; i++) {
                char *open_ = strstr(lines[i], "(NEEDED)") ? strchr(lines[i], '[') : NULL;
                char *close_ = open_ ? strchr(open_, ']') : NULL;
                if (close_)
                        g_ptr_array_add(so, g_strndup(open_ + 1, (gsize) (close_ - open_ - 1)));
        }
        return so;
}

/* Whether the target described by PROBE can run SELF as it is: the same
 * `uname -m`, a glibc at least as new as ours, and every soname SELF
 * needs in its ldconfig cache.  *WHY says which, either way. */
static bool binary_fits(const char *self, const char *probe, char **why)
{
        struct utsname u;
        g_autoptr(GHashTable) have = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        g_autofree char *arch = NULL, *glibc = NULL;
        g_auto(GStrv) lines = g_strsplit(probe, "\n", -1);

        for (guint i = 0; lines[i]; i++) {
                if (g_str_has_prefix(lines[i], "arch "))
                        arch = g_strdup(lines[i] + 5);
                else if (g_str_has_prefix(lines[i], "glibc "))
                        glibc = g_strdup(lines[i] + 6);
                else if (g_str_has_prefix(lines[i], "so "))
                        g_hash_table_add(have, g_strdup(lines[i] + 3));
        }
        if (uname(&u) < 0 || !arch || strcmp(arch, u.machine) != 0) {
                *why = g_strdup_printf("its machine is %s, ours %s", arch ? arch : "unknown", u.machine);
                return false;
        }
        if (!glibc || !*glibc || strverscmp(glibc, gnu_get_libc_version()) < 0) {
                *why = g_strdup_printf("its glibc is %s, ours %s", glibc && *glibc ? glibc : "unknown",
                                       gnu_get_libc_version());
                return false;
        }
        g_autoptr(GPtrArray) need = needed_sonames(self);
        if (!need) {
                *why = g_strdup("readelf cannot list the libraries our binary needs");
                return false;
        }
        for (guint i = 0; i < need->len; i++) {
                if (!g_hash_table_contains(have, need->pdata[i])) {
                        *why = g_strdup_printf("it has no %s", (char *) need->pdata[i]);
                        return false;
                }
        }
        *why = g_strdup_printf("%s, glibc %s, all %u libraries", arch, glibc, need->len);
        return true;
}

/* ---- 2. Upload ------------------------------------------------------------ */

/* Makes the target's private directory and unpacks what comes on stdin
 * there; prints the directory.  The directory goes again when unpacking
 * fails or the connection drops before it is done. */
static const char upload_script[] =
        "d=$(mktemp -d \"${TMPDIR:-/tmp}/ipclab.XXXXXXXX\") || exit 1; "
        "trap 'rm -rf \"$d\"; exit 1' HUP INT TERM PIPE; "
        "echo \"$d\"; "
        "tar -xf - -C \"$d\" || { rm -rf \"$d\"; exit 1; }";

static const char cleanup_script[] = "case $1 in */ipclab.*) rm -rf \"$1\";; esac";

/* The sources SELF was built from: SELF's directory's parent (a source
 * tree, SELF harness/ipclab) or ../share/ipclab/src from SELF's directory
 * (an installed copy, PREFIX/bin/ipclab: mk/install.mk), whichever has the
 * Makefile and harness/cli/main.c; else NULL. */
static char *source_root(const char *self)
{
        g_autofree char *bin_dir = g_path_get_dirname(self);
        g_autofree char *tree = g_path_get_dirname(bin_dir);
        g_autofree char *installed = g_build_filename(tree, "share", "ipclab", "src", NULL);
        const char *roots[] = { tree, installed };

        for (gsize i = 0; i < G_N_ELEMENTS(roots); i++) {
                g_autofree char *mk = g_build_filename(roots[i], "Makefile", NULL);
                g_autofree char *main_c = g_build_filename(roots[i], "harness", "cli", "main.c", NULL);
                if (g_file_test(mk, G_FILE_TEST_IS_REGULAR) && g_file_test(main_c, G_FILE_TEST_IS_REGULAR))
                        return g_strdup(roots[i]);
        }
        return NULL;
}

static bool copy_file(const char *from, const char *to, int mode, GError **error)
{
        g_autofree char *bytes = NULL;
        gsize len = 0;

        if (!g_file_get_contents(from, &bytes, &len, error) ||
            !g_file_set_contents_full(to, bytes, (gssize) len, G_FILE_SET_CONTENTS_NONE, mode, error))
                return false;
        return true;
}

/* Sends the tar stream of LOCAL (in/, out/, bin/) and of ROOT's sources to
 * T; returns the target's directory, or NULL with ERROR. */
static char *upload(const RemoteTarget *t, const char *local, const char *root, GError **error)
{
        g_autoptr(GPtrArray) tar = g_ptr_array_new();
        g_ptr_array_add(tar, (gpointer) "tar");
        g_ptr_array_add(tar, (gpointer) "-cf");
        g_ptr_array_add(tar, (gpointer) "-");
        g_ptr_array_add(tar, (gpointer) "-C");
        g_ptr_array_add(tar, (gpointer) local);
        g_ptr_array_add(tar, (gpointer) ".");
        if (root) {
                /* The sources but what a build here left in them. */
                g_ptr_array_add(tar, (gpointer) "--exclude=harness/ipclab");
                g_ptr_array_add(tar, (gpointer) "--exclude=*.o");
                g_ptr_array_add(tar, (gpointer) "-C");
                g_ptr_array_add(tar, (gpointer) root);
                g_ptr_array_add(tar, (gpointer) "Makefile");
                g_ptr_array_add(tar, (gpointer) "mk");
                g_ptr_array_add(tar, (gpointer) "include");   /* ipclab/transport.h */
                g_ptr_array_add(tar, (gpointer) "harness");
        }
        g_ptr_array_add(tar, NULL);
        int p[2];
        if (pipe2(p, O_CLOEXEC) < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "pipe: %s", g_strerror(errno));
                return NULL;
        }
        int tar_err = -1, ssh_out = -1, ssh_err = -1;
        GPid tpid = remote_spawn((const char *const *) tar->pdata, -1, p[1], NULL, &tar_err, error);
        close(p[1]);
        if (tpid < 0) {
                close(p[0]);
                return NULL;
        }
        g_autoptr(GPtrArray) argv = ssh_argv(t, upload_script, NULL, error);
        GPid spid = argv ? remote_spawn((const char *const *) argv->pdata, p[0], -1, &ssh_out, &ssh_err, error) : -1;
        close(p[0]);
        if (spid < 0) {
                kill(tpid, SIGKILL);
                close(tar_err);
                remote_wait_exit(tpid);
                return NULL;
        }
        g_autoptr(GString) out = g_string_new(NULL), log = g_string_new(NULL), tlog = g_string_new(NULL);
        Pump sp = { .out = ssh_out, .err = ssh_err, .out_text = out, .log = log, .pid = spid };
        remote_pump(&sp);
        Pump tp = { .out = -1, .err = tar_err, .log = tlog, .pid = tpid };
        remote_pump(&tp);
        int ss = remote_wait_exit(spid), ts = remote_wait_exit(tpid);
        g_autofree char *dir = g_strdup(g_strstrip(out->str));
        bool dir_ok = g_str_has_prefix(dir, "/") && !strchr(dir, '\n') && strstr(dir, "/ipclab.");
        if (ss != 0 || ts != 0 || !dir_ok) {
                g_autofree char *why = remote_last_line(ts != 0 ? tlog->str : log->str);
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN, "%s: cannot copy the experiment and harness there (%s: %s)",
                            t->spec, ts != 0 ? "tar" : "ssh", why);
                if (dir_ok) {
                        const char *args[] = { dir, NULL };
                        ssh_simple(t, cleanup_script, args, NULL, NULL, NULL);
                }
                return NULL;
        }
        return g_steal_pointer(&dir);
}

/* ---- 3. Build, run, bring back ------------------------------------------- */

/* $1 the directory, $2 the experiment's name, then the arguments of
 * `ipclab run` (with --out "$1/out" and the file).  Builds when there is no
 * binary that starts; says what is missing with mk/deps.sh's own words;
 * runs with stdin closed while a watcher stops it when our end of the
 * connection goes (stdin at end of file), and copies its resume file to
 * stderr as it grows (tail -F, each line marked REMOTE_PARTIAL_MARK), so
 * that a cut connection leaves its finished repetitions here; then sends
 * DIR/out as tar on stdout, and removes DIR whatever happened.  Exit status: the run's, or
 * 96 + n for a step before it (the message on stderr says which). */
static const char run_script[] =
        "d=$1; n=$2; shift 2; trap 'rm -rf \"$d\"' EXIT; trap 'exit 129' HUP INT TERM PIPE; cd \"$d\" || exit 96; "
        "bin=$d/bin/ipclab; "
        "if ! { [ -x \"$bin\" ] && \"$bin\" list >/dev/null 2>&1; }; then "
        "  [ -x \"$bin\" ] && echo 'ipclab-remote: the binary sent does not start here; building from the sources' >&2; "
        "  if ! command -v make >/dev/null 2>&1 || ! command -v cc >/dev/null 2>&1; then "
        "    echo 'ipclab-remote: no make or cc here, needed to build the harness' >&2; "
        "    bash mk/deps.sh check $(sed -n 's/^DEPS_HARNESS := //p' mk/deps.mk) >&2; exit 97; fi; "
        "  make -s -j\"$(nproc 2>/dev/null || echo 1)\" DEPS_MODE=check DEPS_FOR=harness harness >&2 </dev/null "
        "    || exit 98; "
        "  bin=$d/harness/ipclab; fi; "
        "mkdir -p out; "
        "\"$bin\" \"$@\" </dev/null >&2 & p=$!; "
        /* read, not awk or sed: they buffer what they read from a pipe. */
        "tail --pid=$p -s 0.2 -n +1 -F \"out/.$n.partial.tsv\" 2>/dev/null | "
        "  while IFS= read -r l; do printf '" REMOTE_PARTIAL_MARK "%s\\n' \"$l\"; done >&2 & "
        "tail --pid=$p -s 0.2 -n +1 -F \"out/.$n.partial-latencies.tsv\" 2>/dev/null | "
        "  while IFS= read -r l; do printf '" REMOTE_PARTIAL_LAT_MARK "%s\\n' \"$l\"; done >&2 & "
        "exec 3<&0; { cat <&3 >/dev/null; kill -TERM $p; } >/dev/null 2>&1 & w=$!; "
        "wait $p; s=$?; kill $w 2>/dev/null; "
        "tar -cf - -C out . || exit 99; exit $s";

/* The rows of STREAMED, the target's resume file of EXP as it came on
 * stderr (its header lines and whole rows; a torn last line was never
 * added), that --resume would read (run_partial_checked: what is kept,
 * and later carried back to a target, is never the stream as it came).
 * With PATH, writes them there (atomically) when there are any.  Returns
 * the number of rows, 0 when there are none or no header. */
static guint keep_streamed(const Experiment *exp, const GString *streamed, const char *path)
{
        g_autofree char *rows = run_partial_checked(exp, 0, streamed->str, streamed->len);
        guint n = 0;

        if (!rows)
                return 0;
        for (const char *p = rows; (p = strchr(p, '\n')); p++)
                n += g_ascii_isdigit(p[1]);
        if (n && path && samples_write_atomic(path, rows, strlen(rows)) < 0)
                return 0;
        return n;
}

/* Writes STREAMED_LAT, the target's resume file of latencies as it came
 * (whole lines only), as run_partial_checked() keeps it, beside the
 * resume file keep_streamed() wrote: --resume keeps a streamed row only
 * with all of its latencies.  Returns true (nothing streamed is no error:
 * those rows are measured again). */
static bool keep_streamed_latencies(const Experiment *exp, const GString *streamed_lat, const char *out_dir)
{
        g_autofree char *rows = run_partial_checked(exp, 1, streamed_lat->str, streamed_lat->len);

        if (rows) {
                g_autofree char *path = run_partial_path(out_dir, exp->name, 1);
                (void) samples_write_atomic(path, rows, strlen(rows));
        }
        return true;
}

/* Copies the resume file WHICH of EXP from FROM_DIR to TO_DIR as
 * run_partial_checked() keeps it (FROM_DIR's came from a target, or from
 * whoever wrote data/): opened as safefile.h says, a link to anything
 * else is refused, and what is written is only rows that check.  A
 * missing or refused file is no error (those repetitions run again). */
static void copy_partial(const Experiment *exp, guint which, const char *from_dir, const char *to_dir)
{
        g_autofree char *from = run_partial_path(from_dir, exp->name, which);
        g_autofree char *to = run_partial_path(to_dir, exp->name, which);
        struct stat st;
        gsize len = 0;
        g_autoptr(GError) e = NULL;

        if (lstat(from, &st) < 0)
                return;
        g_autofree char *text = safefile_read(from, "a resume file", SAFEFILE_MAX_TABLE, &len, &e);
        g_autofree char *rows = text ? run_partial_checked(exp, which, text, len) : NULL;
        if (!rows) {
                progress_say("warning: %s: %s; not carried over", exp->name,
                        e ? e->message : "not a resume file of this experiment");
                return;
        }
        (void) samples_write_atomic(to, rows, strlen(rows));
}

/* A new private directory (0700) under PARENT for the results of a
 * target, which untar.h unpacks as untrusted input; NULL with ERROR. */
static char *receive_dir(const char *parent, GError **error)
{
        g_autofree char *tmpl = g_build_filename(parent, ".ipclab-remote-in-XXXXXX", NULL);
        if (!g_mkdtemp_full(tmpl, 0700)) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "cannot create a directory in %s: %s", parent,
                            g_strerror(errno));
                return NULL;
        }
        return g_steal_pointer(&tmpl);
}

static bool prepare_local(const Experiment *exp, const char *file, const char *self, bool send_binary,
                          const char *out_dir, bool resume, char **local, GError **error)
{
        g_autofree char *tmpl = g_build_filename(out_dir, ".ipclab-remote-out-XXXXXX", NULL);
        if (!g_mkdtemp_full(tmpl, 0700)) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "cannot create a directory in %s: %s", out_dir,
                            g_strerror(errno));
                return false;
        }
        *local = g_strdup(tmpl);
        g_autofree char *in = g_build_filename(tmpl, "in", NULL);
        g_autofree char *out = g_build_filename(tmpl, "out", NULL);
        g_autofree char *base = g_strconcat(exp->name, ".ini", NULL);
        g_autofree char *ini = g_build_filename(in, base, NULL);
        if (mkdir(in, 0755) < 0 || mkdir(out, 0755) < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "cannot create %s: %s", in, g_strerror(errno));
                return false;
        }
        gsize len = 0;
        g_autofree char *text = safefile_read(file, "an experiment file", SAFEFILE_MAX_EXPERIMENT, &len, error);
        if (!text || !g_file_set_contents_full(ini, text, (gssize) len, G_FILE_SET_CONTENTS_NONE, 0644, error))
                return false;
        for (guint k = 0; resume && k < RUN_N_PARTIALS; k++)
                copy_partial(exp, k, out_dir, out);
        if (send_binary) {
                g_autofree char *bin = g_build_filename(tmpl, "bin", NULL);
                g_autofree char *exe = g_build_filename(bin, "ipclab", NULL);
                if (mkdir(bin, 0755) < 0 || !copy_file(self, exe, 0755, error))
                        return false;
        }
        return true;
}

/* What step 3 on a target left: the run's stdout unpacked into IN, its
 * stderr in LOG (the resume files' rows apart, in STREAMED and
 * STREAMED_LAT), ssh's exit status SS. */
typedef struct {
        char *in;                 /* receive_dir(): the unpacked results */
        GString *log, *streamed, *streamed_lat;
        GError *refused;          /* the stream was refused (untar.h) */
        GError *cut;              /* the stream ended before it was whole */
        int ss;
        bool interrupted;
} ThereRun;

static void there_run_clear(ThereRun *r)
{
        if (r->in)
                samples_remove_dir(r->in);
        g_clear_pointer(&r->in, g_free);
        if (r->log)
                g_string_free(r->log, TRUE);
        if (r->streamed)
                g_string_free(r->streamed, TRUE);
        if (r->streamed_lat)
                g_string_free(r->streamed_lat, TRUE);
        g_clear_error(&r->refused);
        g_clear_error(&r->cut);
}

/* The arguments of run_script for EXP in the target's directory DIR:
 * its `ipclab run` in the place --env chose (else the file's), into
 * DIR/out (ROUT) of DIR/in/NAME.ini (INI).  Points into its arguments. */
static GPtrArray *there_args(const Experiment *exp, const char *dir, const char *rout, const char *ini,
                             const char *const *extra)
{
        GPtrArray *args = g_ptr_array_new();
        g_ptr_array_add(args, (gpointer) dir);
        g_ptr_array_add(args, (gpointer) exp->name);
        g_ptr_array_add(args, (gpointer) "run");
        /* Where on the target: the place --env chose, else the file's. */
        if (exp->n_envs == 1) {
                g_ptr_array_add(args, (gpointer) "--env");
                g_ptr_array_add(args, (gpointer) env_name(exp->env));
        }
        g_ptr_array_add(args, (gpointer) "--out");
        g_ptr_array_add(args, (gpointer) rout);
        for (gsize i = 0; extra && extra[i]; i++)
                g_ptr_array_add(args, (gpointer) extra[i]);
        g_ptr_array_add(args, (gpointer) ini);
        g_ptr_array_add(args, NULL);
        return args;
}

/* Runs run_script on T for EXP (in T's directory DIR) and follows it
 * to its end: the run's stdin is our watchdog pipe, its stdout the
 * results, unpacked into a new receive_dir() under OUT_DIR.  Fills R;
 * false with ERROR when it could not start. */
static bool there_stream(const RemoteTarget *t, const Experiment *exp, const char *dir, const char *out_dir,
                         const char *const *extra, ThereRun *r, GError **error)
{
        g_autofree char *ini = g_strdup_printf("%s/in/%s.ini", dir, exp->name);
        g_autofree char *rout = g_strdup_printf("%s/out", dir);
        g_autoptr(GPtrArray) args = there_args(exp, dir, rout, ini, extra);
        g_autoptr(GPtrArray) argv = ssh_argv(t, run_script, (const char *const *) args->pdata, error);
        if (!argv)
                return false;
        int watch[2];
        if (pipe2(watch, O_CLOEXEC) < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "pipe: %s", g_strerror(errno));
                return false;
        }
        r->in = receive_dir(out_dir, error);
        if (!r->in) {
                close(watch[0]);
                close(watch[1]);
                return false;
        }
        int ssh_out = -1, ssh_err = -1;
        GPid spid = remote_spawn((const char *const *) argv->pdata, watch[0], -1, &ssh_out, &ssh_err, error);
        close(watch[0]);
        if (spid < 0) {
                close(watch[1]);
                return false;
        }
        /* The results come on ssh's stdout as tar, unpacked here as
         * untrusted input (untar.h), never by tar(1). */
        g_autofree char *what = g_strdup_printf("the results from %s", t->spec);
        g_autoptr(Untar) untar = untar_new(r->in, what);
        g_autoptr(GString) line = g_string_new(NULL);
        r->log = g_string_new(NULL);
        r->streamed = g_string_new(NULL);
        r->streamed_lat = g_string_new(NULL);
        Pump sp = { .out = ssh_out, .err = ssh_err, .log = r->log, .stop_fd = &watch[1], .pid = spid,
                    .forward = true, .partial = r->streamed, .partial_lat = r->streamed_lat, .line = line,
                    .untar = untar };
        r->interrupted = remote_pump(&sp);
        if (watch[1] >= 0)
                close(watch[1]);
        r->ss = remote_wait_exit(spid);
        r->refused = sp.untar_error;
        if (!r->refused)
                (void) untar_finish(untar, &r->cut);
        return true;
}

/* The error of a run on T that did not come back whole (R), keeping the
 * repetitions it streamed for --resume in OUT_DIR when there are any. */
static void there_lost(const RemoteTarget *t, const Experiment *exp, const char *out_dir, const ThereRun *r,
                       GError **error)
{
        int ss = r->ss;
        const char *log = r->log->str;
        g_autofree char *partial = run_partial_path(out_dir, exp->name, 0);
        /* mk/deps.sh's own words, when it named what is missing. */
        const char *apt = ss == 97 || ss == 98 ? strstr(log, "apt-get install") : NULL;
        while (apt && apt > log && apt[-1] != '\n')
                apt--;
        g_autofree char *apt_line = apt ? g_strndup(apt, strcspn(apt, "\n")) : NULL;
        g_autofree char *l = remote_last_line(apt_line ? apt_line : r->cut && ss == 0 ? r->cut->message : log);
        if (ss == 97 || ss == 98)
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "%s cannot build the harness%s%s (its full output is above)", t->spec,
                            apt ? "; as root there: " : ": ", l);
        else if (keep_streamed(exp, r->streamed, partial) > 0 &&
                 keep_streamed_latencies(exp, r->streamed_lat, out_dir))
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN,
                            "%s: the connection was lost or the run there failed (ssh exit %d: %s); "
                            "the %u repetitions it had finished are kept in %s: `ipclab run --resume` "
                            "continues from them", t->spec, ss, l, keep_streamed(exp, r->streamed, NULL), partial);
        else
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN,
                            "%s: the connection was lost or the run there failed (ssh exit %d: %s); "
                            "nothing of it is kept; `ipclab run --resume` runs it again",
                            t->spec, ss, l);
}

/* Puts a whole stream R from T in place: the results into
 * OUT_DIR/<experiment>/ (with console.log, what the target said), or
 * the resume files of a stopped run (the rows --resume would read of
 * them).  False with ERROR when the results cannot be put there. */
static bool there_keep(const RemoteTarget *t, const Experiment *exp, const char *out_dir, const ThereRun *r,
                       GError **error)
{
        g_autofree char *name_dir = g_build_filename(r->in, exp->name, NULL);
        struct stat st;

        for (guint k = 0; k < RUN_N_PARTIALS; k++)
                copy_partial(exp, k, r->in, out_dir);
        if (lstat(name_dir, &st) < 0 || !S_ISDIR(st.st_mode))
                return true;
        g_autofree char *final = g_build_filename(out_dir, exp->name, NULL);
        g_autofree char *console = g_build_filename(name_dir, "console.log", NULL);
        g_autofree char *shown = safefile_terminal_text(r->log->str, r->log->len);
        unlink(console);
        samples_write_atomic(console, shown, strlen(shown));
        int rr = history_replace_dir(name_dir, final);
        if (rr < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "cannot put the results of %s in %s: %s",
                            t->spec, final, g_strerror(-rr));
                return false;
        }
        for (guint k = 0; k < RUN_N_PARTIALS; k++) {
                g_autofree char *done = run_partial_path(out_dir, exp->name, k);
                unlink(done);
        }
        return true;
}

/* ---- The place ----------------------------------------------------------- */

/* A run on an SSH target, from prepare to clean. */
typedef struct {
        char *local;     /* prepare_local(): what is sent, here */
        char *dir;       /* the target's directory, until its run script owns it */
        ThereRun there;
} SshJob;

static bool ssh_claims(const char *spec)
{
        (void) spec;
        return true;   /* every --host value but "local" (local.c) */
}

static bool ssh_parse(Place *p, const char *spec, GError **error)
{
        RemoteTarget *t = remote_target_parse(spec, error);
        if (!t)
                return false;
        p->key = g_strdup(t->key);
        p->data = t;
        return true;
}

static void ssh_free_data(gpointer data)
{
        remote_target_free(data);
}

static bool ssh_available(const Place *p, GError **error)
{
        g_autofree char *ssh = g_find_program_in_path("ssh");
        if (!ssh) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "%s: no ssh here, which reaches it; as root: apt-get install -y openssh-client",
                            p->spec);
                return false;
        }
        return true;
}

/* Whether the target can run our binary SELF as it is (*FITS), or else
 * build from the sources (*ROOT) beside it; false with ERROR when it can
 * do neither, lacks tar, or cannot be reached. */
static bool ssh_probe(const RemoteTarget *t, const char *self, bool *fits, char **root, char **why,
                      GError **error)
{
        g_autofree char *probe = NULL, *plog = NULL;
        int r = ssh_simple(t, probe_script, NULL, &probe, &plog, error);
        if (r < 0)
                return false;
        if (r != 0) {
                g_autofree char *l = remote_last_line(plog);
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_RUN, "%s: ssh cannot reach it (%s)", t->spec, l);
                return false;
        }
        if (!strstr(probe, "have tar")) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "%s has no tar, which carries the files there and back; as root there: "
                            "apt-get install -y tar", t->spec);
                return false;
        }
        *fits = binary_fits(self, probe, why);
        const char *build = g_getenv("IPCLAB_REMOTE_BUILD");
        if (*fits && build && !strcmp(build, "1")) {
                *fits = false;
                g_free(*why);
                *why = g_strdup("IPCLAB_REMOTE_BUILD=1");
        }
        *root = source_root(self);
        if (!*fits && !*root) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "%s cannot run this binary (%s) and there are no sources beside it (%s) to build there",
                            t->spec, *why, self);
                return false;
        }
        return true;
}

/* Steps 1 and 2: the probe, then the experiment, its resume files and
 * our binary or the sources, sent. */
static int ssh_prepare(PlaceJob *job, GError **error)
{
        const RemoteTarget *t = job->place->data;
        const Experiment *exp = job->exp;
        const char *self = job->call->self;
        SshJob *s = job->state = g_new0(SshJob, 1);
        g_autofree char *why = NULL, *root = NULL;
        bool fits = false;

        if (!ssh_available(job->place, error) || !ssh_probe(t, self, &fits, &root, &why, error))
                return RUN_ERROR;
        progress_say("%s: %s: %s (%s)", exp->name, t->spec,
                  fits ? "sending the binary" : "building there from the sources", why);
        if (!prepare_local(exp, exp->path, self, fits, job->out_dir, job->call->resume, &s->local, error))
                return RUN_ERROR;
        s->dir = upload(t, s->local, root, error);
        return s->dir ? RUN_OK : RUN_ERROR;
}

/* Step 3: the run there (see run_script), its results streamed back:
 * RUN_OK when they came back whole (ssh_collect() says how the run
 * ended), else RUN_ERROR with ERROR. */
static int ssh_run(PlaceJob *job, GError **error)
{
        const RemoteTarget *t = job->place->data;
        SshJob *s = job->state;
        ThereRun *r = &s->there;
        bool started = there_stream(t, job->exp, s->dir, job->out_dir, job->call->extra, r, error);

        g_clear_pointer(&s->dir, g_free);   /* the run script removes it, however it ends */
        if (!started)
                return RUN_ERROR;
        if (r->refused) {
                /* Nothing of a refused stream is kept, not even its
                 * resume rows. */
                g_propagate_error(error, g_steal_pointer(&r->refused));
                g_prefix_error(error, "%s: ", t->spec);
                return RUN_ERROR;
        }
        if (r->cut || r->ss == 255 || (r->ss >= 96 && r->ss <= 99)) {
                there_lost(t, job->exp, job->out_dir, r, error);
                return RUN_ERROR;
        }
        return RUN_OK;
}

/* The whole stream put in place (there_keep); then the status the run
 * there ended with, or RUN_ERROR with ERROR saying how it failed. */
static int ssh_collect(PlaceJob *job, int status, GError **error)
{
        const RemoteTarget *t = job->place->data;
        const ThereRun *r = &((SshJob *) job->state)->there;
        int ss = r->ss;

        (void) status;
        if (!there_keep(t, job->exp, job->out_dir, r, error))
                return RUN_ERROR;
        status = r->interrupted || ss == RUN_INTERRUPTED || ss == 129 ? RUN_INTERRUPTED
               : ss == 0 ? RUN_OK : ss == 1 ? RUN_FAILED : RUN_ERROR;
        if (status == RUN_ERROR) {
                g_autofree char *l = remote_last_line(r->log->str);
                g_set_error(error, IPCLAB_ERROR, ss == 2 ? IPCLAB_ERROR_INPUT : IPCLAB_ERROR_RUN,
                            "%s: ipclab run there exited %d: %s", t->spec, ss, l);
        }
        return status;
}

/* Steps 4 and 5: the target's directory removed when its run script did
 * not take it over, and ours. */
static void ssh_clean(PlaceJob *job)
{
        SshJob *s = job->state;

        if (!s)
                return;
        if (s->dir) {
                const char *a[] = { s->dir, NULL };
                ssh_simple(job->place->data, cleanup_script, a, NULL, NULL, NULL);
        }
        if (s->local)
                samples_remove_dir(s->local);
        there_run_clear(&s->there);
        g_free(s->dir);
        g_free(s->local);
        g_clear_pointer(&job->state, g_free);
}

/* The targets one after another (run_experiment_machines). */
static double ssh_cost_s(double secs, guint n, const EstimateCalib *cal, GString *note)
{
        (void) cal;
        (void) note;
        return n * (secs + MODEL_SSH_START_S);
}

const PlaceOps place_ops_ssh = {
        .name = "ssh",
        .option = "--host",
        .option_help = "Run on ssh://[USER@]HOST[:PORT] (or local: here); repeated, each in turn, merged",
        .option_arg = "TARGET",
        .option_many = true,
        .claims = ssh_claims,
        .parse = ssh_parse,
        .free_data = ssh_free_data,
        .available = ssh_available,
        .prepare = ssh_prepare,
        .run = ssh_run,
        .collect = ssh_collect,
        .clean = ssh_clean,
        .cost_s = ssh_cost_s,
};
