/* group.c: reading one group of an experiment file (group.h). */
#include "group.h"

#include <string.h>

#include "experiment.h"

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

Table *group_read_published(GroupParse *p, const char *dir, const char *name)
{
        g_autoptr(GError) e = NULL;

        if (strchr(name, '/') || name[0] == '.') {
                group_bad(p, "published", "'%s' is a file name in data/published/, without a directory", name);
                return NULL;
        }
        g_autofree char *path = g_build_filename(dir, name, NULL);
        if (!g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
                group_bad(p, "published", "no file %s", path);
                return NULL;
        }
        Table *t = table_read(path, &e);
        if (!t)
                group_bad(p, "published", "%s", e->message);
        return t;
}
