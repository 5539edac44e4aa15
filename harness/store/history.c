/* history.c: earlier runs kept beside the current one (history.h).
 * Never prints. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "history.h"
#include "safefile.h"
#include "samples.h"

static guint keep_runs = HISTORY_KEEP_DEFAULT;

void history_set_keep(guint keep)
{
        keep_runs = keep;
}

guint history_get_keep(void)
{
        return keep_runs;
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

static int compare_names(gconstpointer a, gconstpointer b)
{
        return strcmp(*(char *const *) a, *(char *const *) b);
}

GPtrArray *history_list(const char *final)
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
        g_ptr_array_sort(ids, compare_names);
        return ids;
}

/* Removes the oldest runs of FINAL's history beyond the limit. */
static void prune(const char *final)
{
        g_autoptr(GPtrArray) ids = history_list(final);
        g_autofree char *dir = history_dir_of(final);

        for (guint i = 0; i + keep_runs < ids->len; i++) {
                g_autofree char *p = g_build_filename(dir, ids->pdata[i], NULL);
                samples_remove_dir(p);
        }
}

/* Moves OLD (a whole run of FINAL) into FINAL's history in one rename. */
static int keep(const char *old, const char *final)
{
        g_autofree char *dir = history_dir_of(final);
        g_autofree char *id = run_id(old);

        if (keep_runs == 0) {
                prune(final);
                return samples_remove_dir(old);
        }
        if (g_mkdir_with_parents(dir, 0755) < 0)
                return -errno;
        for (guint n = 1; n < 1000; n++) {
                g_autofree char *name = n == 1 ? g_strdup(id) : g_strdup_printf("%s-%u", id, n);
                g_autofree char *dest = g_build_filename(dir, name, NULL);
                struct stat st;
                if (lstat(dest, &st) == 0)
                        continue;
                if (rename(old, dest) < 0)
                        return -errno;
                prune(final);
                return 0;
        }
        return -EEXIST;
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
