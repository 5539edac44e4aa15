/* table.c: TSV tables read whole, and their fields checked (table.h). */
#include "table.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "ipclab-error.h"
#include "safefile.h"

Table *table_read(const char *path, GError **error)
{
        g_autoptr(SafeLines) in = safefile_lines_open(path, "a table", SAFEFILE_MAX_TABLE, error);
        const char *line;
        gsize len;
        g_autoptr(GError) e = NULL;

        if (!in)
                return NULL;
        g_autoptr(Table) t = g_new0(Table, 1);
        t->rows = g_ptr_array_new_with_free_func((GDestroyNotify) g_strfreev);
        t->lines = g_array_new(FALSE, FALSE, sizeof(guint));
        while ((line = safefile_lines_next(in, &len, &e))) {
                if (line[0] == '\0' || line[0] == '#')
                        continue;
                char **fields = g_strsplit(line, "\t", -1);
                if (!t->columns) {
                        t->columns = fields;
                        t->n_columns = g_strv_length(fields);
                        continue;
                }
                if (g_strv_length(fields) != t->n_columns) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "%s: line %u has %u fields, the header has %u", path,
                                    safefile_lines_number(in), g_strv_length(fields), t->n_columns);
                        g_strfreev(fields);
                        return NULL;
                }
                g_ptr_array_add(t->rows, fields);
                guint at = safefile_lines_number(in);
                g_array_append_val(t->lines, at);
        }
        if (e) {
                g_propagate_error(error, g_steal_pointer(&e));
                return NULL;
        }
        if (!t->columns) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: no header line", path);
                return NULL;
        }
        return g_steal_pointer(&t);
}

gboolean samples_parse_whole(const char *s, guint64 *v)
{
        gsize n = strspn(s, "0123456789");

        if (!n || s[n] || n > 16)
                return FALSE;
        *v = g_ascii_strtoull(s, NULL, 10);
        return *v <= (guint64) 1 << 53;
}

gboolean samples_parse_number(const char *s, double *v)
{
        const char *p = s + (*s == '-');
        gsize whole = strspn(p, "0123456789"), frac = 0;

        p += whole;
        if (*p == '.') {
                frac = strspn(p + 1, "0123456789");
                p += 1 + frac;
        }
        if (!whole && !frac)
                return FALSE;
        if (*p == 'e' || *p == 'E') {
                p += 1 + (p[1] == '+' || p[1] == '-');
                gsize exp = strspn(p, "0123456789");
                if (!exp)
                        return FALSE;
                p += exp;
        }
        if (*p)
                return FALSE;
        *v = g_ascii_strtod(s, NULL);
        return isfinite(*v) && fabs(*v) <= 1e300;
}

gboolean samples_plain_text(const char *s)
{
        for (const char *p = s; *p; p++)
                if ((guchar) *p < 0x20 || *p == 0x7f)
                        return false;
        return true;
}

int table_column(const Table *t, const char *name)
{
        for (guint i = 0; i < t->n_columns; i++)
                if (!strcmp(t->columns[i], name))
                        return (int) i;
        return -1;
}

void table_free(Table *t)
{
        if (!t)
                return;
        g_strfreev(t->columns);
        if (t->rows)
                g_ptr_array_unref(t->rows);
        if (t->lines)
                g_array_unref(t->lines);
        g_free(t);
}
