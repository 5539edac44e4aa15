/* numbers-text.c: how declared numbers read (numbers.h): as LaTeX in the
 * paper (verify.c's formatter for numbers, render.c's escaper for text),
 * and, for `ipclab select`, as TSV for gnuplot. */
#include "numbers.h"

#include <math.h>
#include <string.h>

#include "axes.h"
#include "columns.h"
#include "numbers-internal.h"
#include "render.h"
#include "select.h"
#include "verify.h"

double number_parse(const char *s)
{
        char *end;

        if (!s || !s[0] || !strcmp(s, "-"))
                return NAN;
        double v = g_ascii_strtod(s, &end);
        return *end || !isfinite(v) ? NAN : v;
}



static bool text_axis(const Number *n, const char *column)
{
        const Column *c = column_find(column);
        return (n->source == NUMBER_SUMMARY || n->source == NUMBER_EXPERIMENT || n->source == NUMBER_SKIPPED) &&
               c && c->kind == COLUMN_AXIS && !c->unit[0] && strcmp(c->name, "count");
}

/* A text value of COLUMN: its label, or itself escaped; an axis's value
 * (a transport, a bus) as a name of the code, in typewriter type. */
char *number_text_tex(const Number *n, const char *column, const char *raw)
{
        g_autofree char *cut = n->chars > 0 ? g_utf8_substring(raw, 0, MIN((glong) n->chars, g_utf8_strlen(raw, -1)))
                                            : g_strdup(raw);
        const char *shown = cut;
        for (guint i = 0; n->labels && n->labels[i]; i++) {
                const char *eq = strchr(n->labels[i], '=');
                if ((size_t) (eq - n->labels[i]) == strlen(raw) && !strncmp(n->labels[i], raw, strlen(raw)))
                        shown = eq + 1;
        }
        g_autofree char *e = render_latex_escape(shown);
        if (column && text_axis(n, column))
                return g_strdup_printf("\\texttt{%s}", e);
        return g_steal_pointer(&e);
}

/* Bytes as a size: 64~B, 4~KiB, 1~MiB, as the axis registry prints a
 * size (axis_format_value: tables label sizes the same way). */
char *number_size_tex(double b)
{
        if (isnan(b) || b < 0 || b != floor(b) || b > 9007199254740992.0)
                return verify_format_number(b);
        char v[32];
        g_snprintf(v, sizeof v, "%" G_GUINT64_FORMAT, (guint64) b);
        return axis_format_value(column_table[COL_SIZE_B].name, v, true);
}

/* A number in seconds and bytes, shown in N's unit. */
char *number_value_tex(const Number *n, double base)
{
        const NumberUnit *u = n->unit ? number_unit_find(n->unit) : number_default_unit(n);

        if (!u)
                return number_size_tex(base * n->scale);
        return verify_format_digits(base * n->scale / u->factor, n->digits);
}

/* Does RAW (a text, or the number as shown) pass N's test=? */
bool number_test_holds(const Number *n, const char *raw)
{
        g_autofree char *cond = number_test_selector(n->test);
        g_autoptr(Selector) s = select_parse(cond, SELECT_COLUMNS, NULL);
        char *cols[] = { (char *) "value", NULL };
        char *row[] = { (char *) raw, NULL };
        Table t = { .columns = cols, .n_columns = 1 };
        return s && select_row(s, &t, row);
}

static int numeric_cmp(gconstpointer a, gconstpointer b)
{
        double x = number_parse(*(char *const *) a), y = number_parse(*(char *const *) b);
        return x < y ? -1 : x > y;
}

/* Sorts the strings of A as numbers, ascending, when all of them are. */
static void sort_numbers(GPtrArray *a)
{
        for (guint i = 0; i < a->len; i++)
                if (isnan(number_parse(a->pdata[i])))
                        return;
        g_ptr_array_sort(a, numeric_cmp);
}

/* "A, B and C"; with two or more columns, grouped by the first: "A at x
 * and y; B at z". */
char *number_list_tex(const Number *n, const Table *t, GPtrArray *rows)
{
        char *value_only[] = { n->value, NULL };
        char **shown = n->show_axes ? n->show_axes : value_only;
        guint ns = g_strv_length(shown);
        g_autoptr(GPtrArray) firsts = g_ptr_array_new_with_free_func(g_free);
        g_autoptr(GPtrArray) rests = g_ptr_array_new_with_free_func((GDestroyNotify) g_ptr_array_unref);

        for (guint i = 0; i < rows->len; i++) {
                char **row = rows->pdata[i];
                int k0 = select_key_column(t, shown[0]);
                const char *first = k0 >= 0 ? row[k0] : "-";
                guint at = 0;
                while (at < firsts->len && strcmp(firsts->pdata[at], first))
                        at++;
                if (at == firsts->len) {
                        g_ptr_array_add(firsts, g_strdup(first));
                        g_ptr_array_add(rests, g_ptr_array_new_with_free_func(g_free));
                }
                GPtrArray *rest = rests->pdata[at];
                int k1 = ns > 1 ? select_key_column(t, shown[1]) : -1;
                if (k1 >= 0)
                        g_ptr_array_add(rest, g_strdup(row[k1]));
        }
        GString *s = g_string_new(NULL);
        /* Numbers ascending; text in the order met. */
        if (ns == 1)
                sort_numbers(firsts);
        for (guint i = 0; i < rests->len; i++)
                sort_numbers(rests->pdata[i]);
        for (guint i = 0; i < firsts->len; i++) {
                const char *sep = i == 0 ? "" : ns > 1 ? "; " : i + 1 == firsts->len ? " and " : ", ";
                g_autofree char *f = NULL;
                double v = number_parse(firsts->pdata[i]);
                bool text;
                const NumberUnit *u = number_column_unit(n, shown[0], &text);
                f = text || isnan(v) ? number_text_tex(n, shown[0], firsts->pdata[i])
                  : u && u->bytes == 1 && u->time == 0 ? number_size_tex(v * u->factor) : verify_format_written(firsts->pdata[i]);
                g_string_append_printf(s, "%s%s", sep, f ? f : "--");
                GPtrArray *rest = rests->pdata[i];
                for (guint r = 0; r < rest->len; r++) {
                        double w = number_parse(rest->pdata[r]);
                        const NumberUnit *ru = number_column_unit(n, shown[1], &text);
                        g_autofree char *rt = text || isnan(w) ? number_text_tex(n, shown[1], rest->pdata[r])
                                            : ru && ru->bytes == 1 && ru->time == 0 ? number_size_tex(w * ru->factor)
                                            : verify_format_written(rest->pdata[r]);
                        g_string_append_printf(s, "%s%s", r == 0 ? " at " : r + 1 == rest->len ? " and " : ", ", rt);
                }
        }
        return g_string_free(s, FALSE);
}

/* ---- ipclab select ------------------------------------------------------ */

/* A field of TSV for gnuplot's data reading: a number as written, "-" and
 * "" as NaN, text double-quoted without quotes, tabs or line breaks in it
 * (gnuplot reads a quoted field whole, and a quote inside would end it). */
static void gp_field(GString *out, const char *v)
{
        if (!v[0] || !strcmp(v, "-")) {
                g_string_append(out, "NaN");
                return;
        }
        if (!isnan(number_parse(v))) {
                g_string_append(out, v);
                return;
        }
        g_string_append_c(out, '"');
        for (const char *p = v; *p; p++)
                g_string_append_c(out, *p == '"' ? '\'' : (*p == '\t' || *p == '\n' || *p == '\r') ? ' ' : *p);
        g_string_append_c(out, '"');
}

char *numbers_select(const char *path, const char *where, const char *columns, bool count, GError **error)
{
        g_autoptr(Table) t = table_read(path, error);

        if (!t)
                return NULL;
        g_autoptr(Selector) sel = select_parse(where, SELECT_COLUMNS, error);
        if (!sel || !select_check_table(sel, t, path, error))
                return NULL;
        g_auto(GStrv) names = columns && columns[0] ? g_strsplit(columns, ",", -1) : g_new0(char *, 1);
        guint nc = g_strv_length(names);
        g_autofree int *idx = g_new(int, nc + 1);
        for (guint i = 0; i < nc; i++)
                if ((idx[i] = select_key_column(t, g_strstrip(names[i]))) < 0) {
                        g_autofree char *have = g_strjoinv(", ", t->columns);
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s has no column '%s' (it has: %s)",
                                    path, names[i], have);
                        return NULL;
                }
        if (!count && !nc) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "select: give --columns or --count");
                return NULL;
        }
        GString *out = g_string_new(NULL);
        guint rows = 0;
        for (guint r = 0; r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                if (!select_row(sel, t, row))
                        continue;
                rows++;
                for (guint i = 0; !count && i < nc; i++) {
                        if (i)
                                g_string_append_c(out, '\t');
                        gp_field(out, row[idx[i]]);
                }
                if (!count)
                        g_string_append_c(out, '\n');
        }
        if (count)
                g_string_append_printf(out, "%u\n", rows);
        return g_string_free(out, FALSE);
}
