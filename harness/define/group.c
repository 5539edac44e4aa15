/* group.c: reading one group of an experiment file (group.h). */
#include "group.h"

#include <math.h>
#include <string.h>

#include "experiment.h"
#include "figure.h"

void group_vbad(GroupParse *p, const char *key, const char *fmt, va_list ap)
{
        g_autofree char *msg = g_strdup_vprintf(fmt, ap);

        p->report(p->ctx, p->group, key, msg);
        p->ok = false;
        p->mistakes++;
}

void group_bad(GroupParse *p, const char *key, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        group_vbad(p, key, fmt, ap);
        va_end(ap);
}

char *group_get(GroupParse *p, const char *key)
{
        g_autofree char *raw = g_key_file_get_value(p->kf, p->group, key, NULL);

        if (!raw)
                return NULL;
        char *v = experiment_clean_value(raw);
        if (!v[0]) {
                group_bad(p, key, "empty value");
                g_free(v);
                return NULL;
        }
        return v;
}

char **group_get_list(GroupParse *p, const char *key)
{
        g_autofree char *v = group_get(p, key);

        if (!v)
                return NULL;
        g_auto(GStrv) items = g_strsplit(v, ";", -1);
        GPtrArray *out = g_ptr_array_new();
        for (guint i = 0; items[i]; i++) {
                g_strstrip(items[i]);
                if (items[i][0])
                        g_ptr_array_add(out, g_strdup(items[i]));
        }
        g_ptr_array_add(out, NULL);
        return (char **) g_ptr_array_free(out, FALSE);
}

/* A published file's every field: UTF-8 text without control characters
 * (it reaches LaTeX and gnuplot), and a number in it one a table prints
 * whole (digits= formats into 64 bytes: |v| < 1e50).  PATH names it. */
static void check_published_content(GroupParse *p, const Table *t, const char *path)
{
        for (guint r = 0; r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                guint line = t->lines ? g_array_index(t->lines, guint, r) : r + 2;
                for (guint i = 0; i < t->n_columns; i++) {
                        const char *why = figure_text_problem(row[i], 1000);
                        double v;
                        char *end;
                        if (!why) {
                                v = g_ascii_strtod(row[i], &end);
                                if (row[i][0] && !*end && !(fabs(v) < 1e50))
                                        why = "a number beyond what a table prints (1e50)";
                        }
                        if (why) {
                                g_autofree char *shown = g_strescape(row[i], NULL);
                                group_bad(p, "published", "%s:%u: column %u (%s) is '%.40s': %s", path, line, i + 1,
                                    t->columns[i], shown, why);
                                return;
                        }
                }
        }
        for (guint i = 0; i < t->n_columns; i++) {
                const char *why = figure_text_problem(t->columns[i], 200);
                if (why) {
                        group_bad(p, "published", "%s: the name of column %u: %s", path, i + 1, why);
                        return;
                }
        }
}

Table *group_read_published(GroupParse *p, const char *dir, const char *name)
{
        g_autoptr(GError) e = NULL;

        if (strchr(name, '/') || name[0] == '.') {
                group_bad(p, "published", "'%s' is a file name in data/published/, without a directory", name);
                return NULL;
        }
        /* make reads it (mk/outputs.awk): a name it can carry. */
        if (strlen(name) > 128 || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
                                  != strlen(name)) {
                group_bad(p, "published", "'%s': a published file's name is letters, digits, '.', '_' and '-'", name);
                return NULL;
        }
        g_autofree char *path = g_build_filename(dir, name, NULL);
        if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
                group_bad(p, "published", "no file %s", path);
                return NULL;
        }
        /* Not a regular file of sane size in its tree: table_read says
         * so (safefile.h). */
        Table *t = table_read(path, &e);
        if (!t)
                group_bad(p, "published", "%s", e->message);
        else
                check_published_content(p, t, path);
        return t;
}
