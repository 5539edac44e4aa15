/* history.c: earlier runs kept beside the current one (history.h).
 * Never prints. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "history.h"
#include "ipclab-error.h"
#include "safefile.h"
#include "samples.h"
#include "spawn.h"

/* How long one git command may take: writing a run of hundreds of MiB
 * into the object store takes seconds. */
#define HISTORY_GIT_TIMEOUT_MS 120000

typedef enum { HISTORY_MODE_DIR, HISTORY_MODE_GIT, HISTORY_MODE_NONE } HistoryMode;

static const char *const mode_names[] = { "dir", "git", "none", NULL };

static struct {
        HistoryMode mode;
        guint keep;
        guint64 keep_size;
} history = { HISTORY_MODE_DIR, HISTORY_KEEP_DEFAULT, G_MAXUINT64 };

/* Runs git with ARGS in DIR, with the environment ENV ("NAME=VALUE"
 * strings, NULL-terminated; may be NULL), within HISTORY_GIT_TIMEOUT_MS
 * (spawn_command()): 0 with *OUT its output (may be NULL), or -errno
 * (-ENOENT: no git). */
static int git(const char *dir, const char *const *env, const char *const *args, char **out)
{
        g_autoptr(GPtrArray) argv = g_ptr_array_new();
        g_autofree char *ignored = NULL;

        /* env(1) sets what git reads from its environment (GIT_INDEX_FILE):
         * still one argv, no shell. */
        g_ptr_array_add(argv, (gpointer) "env");
        for (guint i = 0; env && env[i]; i++)
                g_ptr_array_add(argv, (gpointer) env[i]);
        g_ptr_array_add(argv, (gpointer) "git");
        g_ptr_array_add(argv, (gpointer) "-C");
        g_ptr_array_add(argv, (gpointer) dir);
        for (guint i = 0; args[i]; i++)
                g_ptr_array_add(argv, (gpointer) args[i]);
        g_ptr_array_add(argv, NULL);
        return spawn_command((const char *const *) argv->pdata, HISTORY_GIT_TIMEOUT_MS, NULL, NULL,
                             out ? out : &ignored);
}

/* Where DIR is in its git repository ("data/"; "" at its top), or -errno
 * (-EIO: in none). */
static int git_prefix(const char *dir, char **prefix)
{
        static const char *const args[] = { "rev-parse", "--show-prefix", NULL };
        g_autofree char *out = NULL;
        int r = git(dir, NULL, args, &out);

        if (r < 0)
                return r;
        *prefix = g_strdup(g_strchomp(out));
        return 0;
}

bool history_configure(const char *mode, guint keep, const char *keep_size, const char *out_dir, GError **error)
{
        int m = mode ? -1 : HISTORY_MODE_DIR;
        guint64 size = G_MAXUINT64;

        for (int i = 0; mode && mode_names[i]; i++)
                if (!strcmp(mode, mode_names[i]))
                        m = i;
        if (m < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "--history '%s': where earlier runs are kept is dir, git or none", mode);
                return false;
        }
        /* 200M for 200MiB, as du and sort -h write it. */
        g_autofree char *with_ib = keep_size ? g_strconcat(keep_size, "iB", NULL) : NULL;
        if (keep_size && !parse_size(keep_size, &size) &&
            !(strchr("KMG", keep_size[0] ? keep_size[strlen(keep_size) - 1] : '-') && parse_size(with_ib, &size))) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "--keep-size '%s': a size such as 200MiB or 200M (B, KiB, MiB, GiB; K, M, G)", keep_size);
                return false;
        }
        if (m == HISTORY_MODE_GIT) {
                /* OUT_DIR, or where it will be made. */
                g_autofree char *dir = g_strdup(out_dir);
                while (!g_file_test(dir, G_FILE_TEST_IS_DIR) && strcmp(dir, ".") && strcmp(dir, "/")) {
                        char *up = g_path_get_dirname(dir);
                        g_free(dir);
                        dir = up;
                }
                g_autofree char *prefix = NULL;
                int r = git_prefix(dir, &prefix);
                if (r < 0) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "--history git: %s: %s (`ipclab init` makes a study a git repository; or choose "
                                    "--history dir)", out_dir,
                                    r == -ENOENT ? "git is not installed" :
                                    r == -EIO ? "not in a git repository, so earlier runs cannot be kept as commits" :
                                    g_strerror(-r));
                        return false;
                }
        }
        history.mode = (HistoryMode) m;
        history.keep = keep;
        history.keep_size = size;
        return true;
}

char *history_dir_of(const char *final)
{
        g_autofree char *trimmed = g_strdup(final);
        for (gsize n = strlen(trimmed); n > 1 && trimmed[n - 1] == '/'; n--)
                trimmed[n - 1] = '\0';
        g_autofree char *parent = g_path_get_dirname(trimmed);
        g_autofree char *name = g_path_get_basename(trimmed);

        return g_build_filename(parent, HISTORY_DIR, name, NULL);
}

/* FINAL's directory and experiment name, and the prefix of the git refs
 * of its runs ("refs/ipclab/history/<experiment>/"); the name must be one
 * `ipclab check` accepts (letters, digits, '-', '_'), else -EINVAL. */
static int git_names(const char *final, char **parent, char **refs)
{
        g_autofree char *trimmed = g_strdup(final);
        for (gsize n = strlen(trimmed); n > 1 && trimmed[n - 1] == '/'; n--)
                trimmed[n - 1] = '\0';
        g_autofree char *name = g_path_get_basename(trimmed);

        for (const char *c = name; *c; c++)
                if (!g_ascii_isalnum(*c) && *c != '-' && *c != '_')
                        return -EINVAL;
        *parent = g_path_get_dirname(trimmed);
        *refs = g_strconcat(HISTORY_GIT_REFS, name, "/", NULL);
        return 0;
}

/* "20261202T061031Z" from RUN's meta.ini ([run] started, its digits),
 * else "run". */
static char *run_id(const char *run)
{
        g_autofree char *mp = g_build_filename(run, "meta.ini", NULL);
        g_autoptr(GKeyFile) kf = safefile_key_file(mp, NULL);
        g_autofree char *started = kf ? g_key_file_get_string(kf, "run", "started", NULL) : NULL;
        GString *id = g_string_new(NULL);

        /* 2026-12-02T06:10:31.123456Z: the date's and time's digits. */
        for (const char *p = started; p && *p && *p != '.' && id->len < 15; p++) {
                if (g_ascii_isdigit(*p))
                        g_string_append_c(id, *p);
                if (id->len == 8 && *p == 'T')
                        g_string_append_c(id, 'T');
        }
        if (id->len != 15) {
                g_string_free(id, TRUE);
                return g_strdup("run");
        }
        g_string_append_c(id, 'Z');
        return g_string_free(id, FALSE);
}

/* The regular files below ROOT/REL (REL "" for ROOT itself), as paths
 * relative to ROOT, added to FILES (may be NULL), their sizes to *BYTES.
 * Links are not followed. */
static void walk(const char *root, const char *rel, GPtrArray *files, guint64 *bytes)
{
        g_autofree char *dir = g_build_filename(root, rel, NULL);
        g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
        const char *name;

        while (d && (name = g_dir_read_name(d))) {
                g_autofree char *r = *rel ? g_build_filename(rel, name, NULL) : g_strdup(name);
                g_autofree char *p = g_build_filename(root, r, NULL);
                struct stat st;
                if (lstat(p, &st) < 0)
                        continue;
                if (S_ISDIR(st.st_mode))
                        walk(root, r, files, bytes);
                if (!S_ISREG(st.st_mode))
                        continue;
                *bytes += (guint64) st.st_size;
                if (files)
                        g_ptr_array_add(files, g_steal_pointer(&r));
        }
}

/* The name a run started at ID is kept under, among KEPT (the names
 * kept already): ID, or when runs started in that second are kept, ID-N
 * with N past the highest of theirs, so that it sorts after every one of
 * them (samples_name_cmp) and pruning, which keeps the last, keeps it:
 * a suffix freed by pruning is never used again. */
static char *next_name(const GPtrArray *kept, const char *id)
{
        size_t len = strlen(id);
        guint64 most = 0;

        for (guint i = 0; i < kept->len; i++) {
                const char *k = kept->pdata[i];
                guint64 n;
                if (strncmp(k, id, len))
                        continue;
                if (!k[len])
                        most = MAX(most, 1);
                else if (k[len] == '-' && samples_parse_whole(k + len + 1, &n))
                        most = MAX(most, n);
        }
        return most ? g_strdup_printf("%s-%" G_GUINT64_FORMAT, id, most + 1) : g_strdup(id);
}

/* The runs in FINAL's history directory, oldest first. */
static GPtrArray *dir_list(const char *final)
{
        g_autofree char *dir = history_dir_of(final);
        g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
        GPtrArray *ids = g_ptr_array_new_with_free_func(g_free);
        const char *name;

        while (d && (name = g_dir_read_name(d))) {
                g_autofree char *p = g_build_filename(dir, name, NULL);
                struct stat st;
                if (name[0] != '.' && lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
                        g_ptr_array_add(ids, g_strdup(name));
        }
        /* "...Z" before "...Z-2": the same second, in the order kept. */
        g_ptr_array_sort(ids, samples_name_cmp);
        return ids;
}

/* The runs of FINAL kept as git commits, oldest first (none when FINAL's
 * directory is in no git repository). */
static GPtrArray *git_list(const char *final)
{
        GPtrArray *ids = g_ptr_array_new_with_free_func(g_free);
        g_autofree char *parent = NULL, *refs = NULL, *out = NULL;

        if (git_names(final, &parent, &refs) < 0 || !g_file_test(parent, G_FILE_TEST_IS_DIR))
                return ids;
        const char *const args[] = { "for-each-ref", "--format=%(refname)", refs, NULL };
        if (git(parent, NULL, args, &out) < 0)
                return ids;
        g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
        for (guint i = 0; lines[i]; i++)
                if (g_str_has_prefix(lines[i], refs) && lines[i][strlen(refs)])
                        g_ptr_array_add(ids, g_strdup(lines[i] + strlen(refs)));
        g_ptr_array_sort(ids, samples_name_cmp);
        return ids;
}

GPtrArray *history_list(const char *final)
{
        GPtrArray *ids = dir_list(final);
        g_autoptr(GPtrArray) in_git = git_list(final);

        for (guint i = 0; i < in_git->len; i++) {
                bool seen = false;
                for (guint j = 0; j < ids->len && !seen; j++)
                        seen = !strcmp(ids->pdata[j], in_git->pdata[i]);
                if (!seen)
                        g_ptr_array_add(ids, g_strdup(in_git->pdata[i]));
        }
        g_ptr_array_sort(ids, samples_name_cmp);
        return ids;
}

/* The size of run ID of FINAL kept in git (its files'), 0 if unknown. */
static guint64 git_size(const char *parent, const char *ref)
{
        const char *const args[] = { "ls-tree", "-r", "-l", "--full-tree", ref, NULL };
        g_autofree char *out = NULL;
        guint64 bytes = 0;

        if (git(parent, NULL, args, &out) < 0)
                return 0;
        /* "<mode> <type> <object> <size>\t<path>" */
        g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
        for (guint i = 0; lines[i]; i++) {
                char *tab = strchr(lines[i], '\t');
                if (!tab)
                        continue;
                *tab = '\0';
                const char *size = strrchr(lines[i], ' ');
                if (size)
                        bytes += g_ascii_strtoull(size + 1, NULL, 10);
        }
        return bytes;
}

/* Removes the oldest runs of FINAL's history (in the store the mode
 * says) until at most history.keep are left, at most history.keep_size
 * together. */
static void prune(const char *final)
{
        bool in_git = history.mode == HISTORY_MODE_GIT;
        g_autoptr(GPtrArray) ids = in_git ? git_list(final) : dir_list(final);
        g_autofree char *dir = history_dir_of(final);
        g_autofree char *parent = NULL, *refs = NULL;
        g_autofree guint64 *sizes = g_new0(guint64, ids->len + 1);
        guint64 total = 0;

        if (in_git && git_names(final, &parent, &refs) < 0)
                return;
        for (guint i = 0; i < ids->len; i++) {
                g_autofree char *p = in_git ? g_strconcat(refs, ids->pdata[i], NULL) :
                                              g_build_filename(dir, ids->pdata[i], NULL);
                if (in_git)
                        sizes[i] = git_size(parent, p);
                else
                        walk(p, "", NULL, &sizes[i]);
                total += sizes[i];
        }
        for (guint i = 0; i < ids->len && (ids->len - i > history.keep || total > history.keep_size); i++) {
                g_autofree char *p = in_git ? g_strconcat(refs, ids->pdata[i], NULL) :
                                              g_build_filename(dir, ids->pdata[i], NULL);
                if (in_git) {
                        const char *const args[] = { "update-ref", "-d", p, NULL };
                        git(parent, NULL, args, NULL);
                } else {
                        samples_remove_dir(p);
                }
                total -= sizes[i];
        }
}

/* An environment naming the temporary index INDEX (freed with g_strfreev),
 * and for a commit the author ipclab: these commits are the program's. */
static char **git_env(const char *index)
{
        static const char *const who[] = { "GIT_AUTHOR_NAME=ipclab", "GIT_AUTHOR_EMAIL=ipclab@localhost",
                                           "GIT_COMMITTER_NAME=ipclab", "GIT_COMMITTER_EMAIL=ipclab@localhost" };
        char **env = g_new0(char *, G_N_ELEMENTS(who) + 2);

        env[0] = g_strconcat("GIT_INDEX_FILE=", index, NULL);
        for (guint i = 0; i < G_N_ELEMENTS(who); i++)
                env[i + 1] = g_strdup(who[i]);
        return env;
}

/* The files of OLD into the git repository PARENT is in as a new tree, at
 * PATH/ there (FINAL's path in it); 0 with *TREE its id, or -errno. */
static int git_tree(const char *old, const char *path, const char *parent, const char *index, char **tree)
{
        g_autofree char *hashes = NULL;
        g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
        g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func(g_free);
        guint64 bytes = 0;
        int r;

        walk(old, "", files, &bytes);
        if (!files->len)
                return -ENOENT;
        g_ptr_array_sort(files, samples_name_cmp);
        /* git runs in PARENT: OLD's files by their full paths. */
        g_autofree char *abs = g_canonicalize_filename(old, NULL);
        /* Into the object store as they are (no filter, no line-end
         * conversion), all in one command. */
        g_ptr_array_add(args, g_strdup("hash-object"));
        g_ptr_array_add(args, g_strdup("-w"));
        g_ptr_array_add(args, g_strdup("--no-filters"));
        g_ptr_array_add(args, g_strdup("--"));
        for (guint i = 0; i < files->len; i++)
                g_ptr_array_add(args, g_build_filename(abs, files->pdata[i], NULL));
        g_ptr_array_add(args, NULL);
        r = git(parent, NULL, (const char *const *) args->pdata, &hashes);
        if (r < 0)
                return r;
        g_auto(GStrv) ids = g_strsplit(g_strchomp(hashes), "\n", -1);
        if (g_strv_length(ids) != files->len)
                return -EIO;
        /* One index entry per file, at DIR/<experiment>/FILE's path. */
        g_ptr_array_set_size(args, 0);
        g_ptr_array_add(args, g_strdup("update-index"));
        g_ptr_array_add(args, g_strdup("--add"));
        for (guint i = 0; i < files->len; i++) {
                g_ptr_array_add(args, g_strdup("--cacheinfo"));
                g_ptr_array_add(args, g_strdup_printf("100644,%s,%s/%s", ids[i], path,
                                                      (char *) files->pdata[i]));
        }
        g_ptr_array_add(args, NULL);
        g_auto(GStrv) env = git_env(index);
        r = git(parent, (const char *const *) env, (const char *const *) args->pdata, NULL);
        if (r < 0)
                return r;
        const char *const write[] = { "write-tree", NULL };
        r = git(parent, (const char *const *) env, write, tree);
        if (r == 0)
                g_strchomp(*tree);
        return r;
}

/* What a git command on FINAL's runs needs: git_names(), where FINAL's
 * directory is in its repository (git_prefix()) and a new temporary
 * directory *TMP (for an index of its own; the caller removes it).  0 or
 * -errno. */
static int git_start(const char *final, char **parent, char **refs, char **prefix, char **tmp)
{
        int r = git_names(final, parent, refs);

        if (r == 0)
                r = git_prefix(*parent, prefix);
        if (r < 0)
                return r;
        *tmp = g_dir_make_tmp("ipclab-history-XXXXXX", NULL);
        return *tmp ? 0 : -EIO;
}

/* Keeps OLD, a run of FINAL, as a commit on its own ref
 * refs/ipclab/history/<experiment>/<run-id>, made with an index of its
 * own in a temporary directory.  0 or -errno. */
static int git_keep(const char *old, const char *final)
{
        g_autofree char *parent = NULL, *refs = NULL, *prefix = NULL, *tmp = NULL, *tree = NULL, *commit = NULL;
        int r = git_start(final, &parent, &refs, &prefix, &tmp);

        if (r < 0)
                return r;
        g_autofree char *index = g_build_filename(tmp, "index", NULL);
        g_auto(GStrv) env = git_env(index);
        g_autofree char *id = run_id(old);
        /* DIR/<experiment> as the repository names it: "data/p". */
        g_autofree char *path = g_strconcat(prefix, refs + strlen(HISTORY_GIT_REFS), NULL);
        path[strlen(path) - 1] = '\0';
        g_autofree char *msg = g_strdup_printf("ipclab: the run of %s that started %s, replaced by a rerun", path, id);
        r = git_tree(old, path, parent, index, &tree);
        if (r == 0) {
                const char *const args[] = { "commit-tree", "--no-gpg-sign", "-m", msg, tree, NULL };
                r = git(parent, (const char *const *) env, args, &commit);
        }
        samples_remove_dir(tmp);
        if (r < 0)
                return r;
        g_strchomp(commit);
        /* Its own ref, made only if no run has it yet (an old value of ""). */
        g_autoptr(GPtrArray) kept = git_list(final);
        g_autofree char *name = next_name(kept, id);
        g_autofree char *ref = g_strconcat(refs, name, NULL);
        const char *const args[] = { "update-ref", "-m", msg, ref, commit, "", NULL };
        return git(parent, NULL, args, NULL);
}

/* Moves OLD (a whole run of FINAL) into FINAL's history: one rename into
 * its directory, or a commit and then OLD removed. */
static int keep(const char *old, const char *final)
{
        g_autofree char *dir = history_dir_of(final);
        g_autofree char *id = run_id(old);

        if (history.mode == HISTORY_MODE_NONE)
                return samples_remove_dir(old);
        if (history.keep == 0) {
                prune(final);
                return samples_remove_dir(old);
        }
        if (history.mode == HISTORY_MODE_GIT) {
                int r = git_keep(old, final);
                if (r < 0)
                        return r;
                prune(final);
                return samples_remove_dir(old);
        }
        if (g_mkdir_with_parents(dir, 0755) < 0)
                return -errno;
        g_autoptr(GPtrArray) kept = dir_list(final);
        g_autofree char *name = next_name(kept, id);
        g_autofree char *dest = g_build_filename(dir, name, NULL);
        struct stat st;
        if (lstat(dest, &st) == 0)
                return -EEXIST;
        if (rename(old, dest) < 0)
                return -errno;
        prune(final);
        return 0;
}
/* Does DIR hold a whole run? */
static bool is_run(const char *dir)
{
        g_autofree char *sp = g_build_filename(dir, "samples.tsv", NULL);
        g_autofree char *mp = g_build_filename(dir, "meta.ini", NULL);

        return g_file_test(sp, G_FILE_TEST_IS_REGULAR) && g_file_test(mp, G_FILE_TEST_IS_REGULAR);
}

int history_replace_dir(const char *staging, const char *final)
{
        g_autofree char *mp = g_build_filename(final, "meta.ini", NULL);
        bool was_run = g_file_test(mp, G_FILE_TEST_IS_REGULAR);
        int r = samples_swap_dir(staging, final);

        if (r <= 0)
                return r;
        /* STAGING holds the run just replaced. */
        if (!was_run) {
                samples_remove_dir(staging);
                return 0;
        }
        /* FINAL is the new run now, whatever happens to the old one:
         * when it cannot be kept, it waits for the next run's
         * history_keep_leftover() in FINAL's staging directory,
         * DIR/.<experiment>.new/ (moved there when STAGING is another,
         * which its caller removes: a target's results). */
        if (keep(staging, final) == 0)
                return 0;
        g_autofree char *parent = g_path_get_dirname(final);
        g_autofree char *base = g_path_get_basename(final);
        g_autofree char *name = g_strconcat(".", base, ".new", NULL);
        g_autofree char *left = g_build_filename(parent, name, NULL);
        struct stat st;
        if (strcmp(left, staging) != 0 && lstat(left, &st) < 0 && errno == ENOENT)
                (void) rename(staging, left);
        return 1;
}

int history_keep_leftover(const char *staging, const char *final)
{
        struct stat st;

        if (lstat(staging, &st) < 0)
                return errno == ENOENT ? 0 : -errno;
        if (S_ISDIR(st.st_mode) && is_run(staging))
                return keep(staging, final);
        return samples_remove_dir(staging);
}

int history_open(const char *final, const char *id, char **dir, char **tmp)
{
        g_autoptr(GPtrArray) in_dir = dir_list(final);
        g_autofree char *parent = NULL, *refs = NULL, *prefix = NULL;

        *dir = *tmp = NULL;
        for (guint i = 0; i < in_dir->len; i++) {
                if (!strcmp(in_dir->pdata[i], id)) {
                        g_autofree char *hist = history_dir_of(final);
                        *dir = g_build_filename(hist, id, NULL);
                        return 0;
                }
        }
        g_autoptr(GPtrArray) in_git = git_list(final);
        bool found = false;
        for (guint i = 0; i < in_git->len && !found; i++)
                found = !strcmp(in_git->pdata[i], id);
        if (!found)
                return -ENOENT;
        g_autofree char *t = NULL;
        int r = git_start(final, &parent, &refs, &prefix, &t);
        if (r < 0)
                return r;
        /* The commit's tree into an index of its own, and from it into
         * T/run/ (where else it would go, the working tree, is left alone). */
        g_autofree char *index = g_build_filename(t, "index", NULL);
        g_autofree char *ref = g_strconcat(refs, id, NULL);
        g_autofree char *run = g_strconcat(t, "/run/", NULL);
        g_autofree char *to = g_strconcat("--prefix=", run, NULL);
        g_auto(GStrv) env = git_env(index);
        const char *const read[] = { "read-tree", ref, NULL };
        const char *const out[] = { "checkout-index", "-a", to, NULL };
        r = git(parent, (const char *const *) env, read, NULL);
        if (r == 0)
                r = git(parent, (const char *const *) env, out, NULL);
        g_autofree char *name = g_path_get_basename(final);
        g_autofree char *d = g_build_filename(run, prefix, name, NULL);
        if (r == 0 && !g_file_test(d, G_FILE_TEST_IS_DIR))
                r = -ENOENT;
        if (r < 0) {
                samples_remove_dir(t);
                return r;
        }
        *dir = g_steal_pointer(&d);
        *tmp = g_steal_pointer(&t);
        return 0;
}
