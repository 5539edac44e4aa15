/* verify-reruns.c: the committed reruns of an experiment's design
 * (verify.h, verify_rerun_dirs). */
#include "verify.h"

#include <string.h>

#include "compare.h"
#include "dir.h"
#include "experiment.h"
#include "safefile.h"

/* Does DIR hold a run of the design WANT: a samples.tsv, and a meta.ini
 * of the default profile whose config_sha256 is WANT?  *ELSEWHERE: on
 * another machine than HOME's meta.ini (NULL: no machine to compare). */
static bool same_design(const char *dir, const char *want, GKeyFile *home, bool *elsewhere)
{
        g_autofree char *tsv = g_build_filename(dir, "samples.tsv", NULL);
        g_autofree char *meta = g_build_filename(dir, "meta.ini", NULL);

        if (!g_file_test(tsv, G_FILE_TEST_IS_REGULAR))
                return false;
        g_autoptr(GKeyFile) kf = safefile_key_file(meta, NULL);
        if (!kf)
                return false;
        g_autofree char *config = g_key_file_get_string(kf, "experiment", "config_sha256", NULL);
        g_autofree char *profile = g_key_file_get_string(kf, "experiment", "profile", NULL);
        if (!config || strcmp(config, want) || (profile && strcmp(profile, "default")))
                return false;
        *elsewhere = home && !compare_same_machine(home, kf);
        return true;
}

/* What find_runs looks for. */
typedef struct {
        const char *name, *want, *skip;
        GKeyFile *home;
        GPtrArray *out;
        guint elsewhere;
} RunSearch;

/* Adds to S->out every directory called S->name, at most DEPTH levels
 * below DIR, that holds a run of the design S->want on S->home's
 * machine, but S->skip; counts those on another machine.  Symbolic links
 * are not followed. */
static void find_runs(const char *dir, int depth, RunSearch *s)
{
        g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
        const char *entry;

        if (!d)
                return;
        while ((entry = g_dir_read_name(d))) {
                g_autofree char *path = g_build_filename(dir, entry, NULL);
                if (g_file_test(path, G_FILE_TEST_IS_SYMLINK) || !g_file_test(path, G_FILE_TEST_IS_DIR))
                        continue;
                g_autofree char *canon = g_canonicalize_filename(path, NULL);
                bool elsewhere = false;
                if (!strcmp(entry, s->name) && strcmp(canon, s->skip) && same_design(path, s->want, s->home, &elsewhere)) {
                        if (elsewhere)
                                s->elsewhere++;
                        else
                                g_ptr_array_add(s->out, g_steal_pointer(&path));
                } else if (depth > 1) {
                        find_runs(path, depth - 1, s);
                }
        }
}

/* verify.h */
GPtrArray *verify_rerun_dirs(const char *reruns, const Experiment *exp, const char *data_dir, guint *elsewhere)
{
        g_autofree char *want = experiment_config_sha256(exp);
        g_autofree char *own = g_build_filename(data_dir, exp->name, NULL);
        g_autofree char *skip = g_canonicalize_filename(own, NULL);
        g_autofree char *meta = g_build_filename(own, "meta.ini", NULL);
        g_autoptr(GKeyFile) home = safefile_key_file(meta, NULL);
        RunSearch s = { .name = exp->name, .want = want, .skip = skip, .home = home,
                        .out = g_ptr_array_new_with_free_func(g_free) };

        find_runs(reruns, VERIFY_RERUN_DEPTH, &s);
        g_ptr_array_sort(s.out, samples_name_cmp);
        *elsewhere = s.elsewhere;
        return s.out;
}
