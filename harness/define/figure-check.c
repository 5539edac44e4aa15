/* figure-check.c: what the build cannot make from [figure] and [table]
 * groups, refused by `ipclab check` before anything is measured
 * (figure.h): texts the LaTeX cannot hold, and two outputs of one name.
 */
#include "figure.h"

#include <string.h>

#include "experiment.h"

const char *figure_text_problem(const char *s, gsize max)
{
        static char why[128];

        if (strlen(s) > max) {
                g_snprintf(why, sizeof why, "%zu bytes, more than the %zu it may have", strlen(s), max);
                return why;
        }
        if (!g_utf8_validate(s, -1, NULL))
                return "not UTF-8";
        for (const char *p = s; *p; p = g_utf8_next_char(p)) {
                gunichar c = g_utf8_get_char(p);
                if (c < 0x20 || (c >= 0x7f && c < 0xa0))
                        return "a control character, which LaTeX cannot typeset";
        }
        return NULL;
}

gboolean figure_check_collisions(GPtrArray *exps, GPtrArray *errors)
{
        g_autoptr(GHashTable) ids = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
        gboolean ok = TRUE;

        for (guint e = 0; e < exps->len; e++) {
                const Experiment *exp = exps->pdata[e];
                for (guint k = 0; k < exp->outputs->len; k++) {
                        const Output *o = exp->outputs->pdata[k];
                        g_autofree char *id = g_strdup_printf("%s %s-%s", o->is_table ? "table" : "figure",
                                                              exp->name, o->name);
                        g_autofree char *where = o->line ? g_strdup_printf("%s:%u", exp->path, o->line)
                                                         : g_strdup(exp->path);
                        g_autofree char *what = g_strdup_printf("%s's [%s]%s", exp->path, o->group,
                                                                o->is_default ? " (the default)" : "");
                        const char *first = g_hash_table_lookup(ids, id);
                        if (first) {
                                g_ptr_array_add(errors, g_strdup_printf("%s: [%s]: its output is %s, as %s's: rename one "
                                                                        "(a section would show the other's)", where,
                                                                        o->group, id + strcspn(id, " ") + 1, first));
                                ok = FALSE;
                                continue;
                        }
                        g_hash_table_insert(ids, g_steal_pointer(&id), g_strdup(what));
                }
        }
        return ok;
}
