/* init.c: `ipclab init DIR` copies the study template (template/ in the
 * source tree, PREFIX/share/ipclab/template/ installed) into a new
 * directory and points its Makefile at this ipclab and its share
 * directory.  Never prints: main.c reports. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "experiment.h"
#include "init.h"

/* A directory holds the steps of a study when it has mk/standalone.mk and
 * template/Makefile. */
static bool is_share(const char *dir)
{
        g_autofree char *mk = g_build_filename(dir, "mk", "standalone.mk", NULL);
        g_autofree char *tpl = g_build_filename(dir, "template", "Makefile", NULL);

        return g_file_test(mk, G_FILE_TEST_IS_REGULAR) && g_file_test(tpl, G_FILE_TEST_IS_REGULAR);
}

char *init_find_share(const char *bin, GError **error)
{
        g_autofree char *bindir = g_path_get_dirname(bin);
        /* Installed: PREFIX/bin/ipclab beside PREFIX/share/ipclab.  A
         * source tree: harness/ipclab below the tree. */
        g_autofree char *installed = g_build_filename(bindir, "..", "share", "ipclab", NULL);
        g_autofree char *tree = g_build_filename(bindir, "..", NULL);
        const char *found = is_share(installed) ? installed : is_share(tree) ? tree : NULL;

        if (!found) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "init: no study template beside %s (looked in %s and %s for mk/standalone.mk "
                            "and template/): install ipclab with `make install PREFIX=...`",
                            bin, installed, tree);
                return NULL;
        }
        char *real = realpath(found, NULL);
        if (!real) {
                int e = errno;
                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "init: %s: %s", found, g_strerror(e));
        }
        return real;
}

/* Every "@IPCLAB@" and "@IPCLAB_SHARE@" of TEXT replaced. */
static char *substitute(const char *text, const char *share, const char *bin)
{
        GString *out = g_string_new(text);

        g_string_replace(out, "@IPCLAB_SHARE@", share, 0);
        g_string_replace(out, "@IPCLAB@", bin, 0);
        return g_string_free(out, FALSE);
}

/* Copies the tree FROM into TO (which exists), substituting every file. */
static bool copy_tree(const char *from, const char *to, const char *share, const char *bin, GError **error)
{
        g_autoptr(GDir) d = g_dir_open(from, 0, error);
        const char *name;

        if (!d)
                return false;
        while ((name = g_dir_read_name(d))) {
                g_autofree char *src = g_build_filename(from, name, NULL);
                g_autofree char *dst = g_build_filename(to, name, NULL);

                if (g_file_test(src, G_FILE_TEST_IS_DIR)) {
                        if (g_mkdir(dst, 0755) < 0) {
                                int e = errno;
                                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e),
                                            "init: %s: %s", dst, g_strerror(e));
                                return false;
                        }
                        if (!copy_tree(src, dst, share, bin, error))
                                return false;
                        continue;
                }
                g_autofree char *text = NULL;
                if (!g_file_get_contents(src, &text, NULL, error))
                        return false;
                g_autofree char *done = substitute(text, share, bin);
                if (!g_file_set_contents(dst, done, -1, error))
                        return false;
        }
        return true;
}

/* Runs git with ARGS in DIR; true when it exits 0, else false with its
 * last line of output in *WHY. */
static bool git_in(const char *dir, const char *const *args, char **why)
{
        g_autoptr(GPtrArray) argv = g_ptr_array_new();
        g_autofree char *out = NULL;
        g_autoptr(GError) e = NULL;
        int status = 0;

        g_ptr_array_add(argv, (gpointer) "git");
        g_ptr_array_add(argv, (gpointer) "-C");
        g_ptr_array_add(argv, (gpointer) dir);
        for (; *args; args++)
                g_ptr_array_add(argv, (gpointer) *args);
        g_ptr_array_add(argv, NULL);
        if (!g_spawn_sync(NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDIN_FROM_DEV_NULL,
                          NULL, NULL, &out, NULL, &status, &e) ||
            !g_spawn_check_wait_status(status, e ? NULL : &e)) {
                g_strstrip(out ? out : (out = g_strdup("")));
                const char *last = strrchr(out, '\n');
                *why = g_strdup(*out ? (last ? last + 1 : out) : e ? e->message : "git failed");
                return false;
        }
        return true;
}

/* DIR as a git repository whose first commit holds the template; NULL,
 * or what was not done and why. */
static char *init_git(const char *dir)
{
        static const char *const init[] = { "init", "-q", NULL };
        static const char *const add[] = { "add", "-A", NULL };
        static const char *const commit[] = { "commit", "-q", "-m",
                                              "A new study, as ipclab init made it", NULL };
        g_autofree char *git = g_find_program_in_path("git");
        g_autofree char *why = NULL;

        if (!git)
                return g_strdup("git is not installed, so the study is no git repository: its data/ is meant "
                                "to be committed (apt-get install git; then git init, git add -A, git commit there)");
        if (!git_in(dir, init, &why))
                return g_strdup_printf("git init failed (%s): the study is no git repository", why);
        if (!git_in(dir, add, &why) || !git_in(dir, commit, &why))
                return g_strdup_printf("the study is a git repository, but without a first commit: git said '%s' "
                                       "(set git config user.name and user.email, then git add -A && git commit "
                                       "there)", why);
        return NULL;
}

bool init_study(const char *dir, const char *share, const char *bin, char **note, GError **error)
{
        *note = NULL;
        struct stat st;

        if (stat(dir, &st) == 0) {
                if (!S_ISDIR(st.st_mode)) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "init: %s exists and is not a directory", dir);
                        return false;
                }
                g_autoptr(GDir) d = g_dir_open(dir, 0, error);
                if (!d)
                        return false;
                const char *first = g_dir_read_name(d);
                if (first) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "init: %s is not empty (it has %s): a study starts in a new or empty directory",
                                    dir, first);
                        return false;
                }
        } else if (errno != ENOENT || g_mkdir_with_parents(dir, 0755) < 0) {
                int e = errno;
                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "init: %s: %s", dir, g_strerror(e));
                return false;
        }
        g_autofree char *template = g_build_filename(share, "template", NULL);
        if (!copy_tree(template, dir, share, bin, error))
                return false;
        *note = init_git(dir);
        return true;
}
