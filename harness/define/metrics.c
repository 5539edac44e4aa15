/* metrics.c: the metric registry's lookups (see metrics.h). */
#include "metrics.h"

#include <glib.h>
#include <math.h>
#include <string.h>

const Column *metric_find_claim(const char *name)
{
        for (const Column *c = column_table; c->name; c++)
                if (c->claim && !strcmp(c->claim, name))
                        return c;
        return NULL;
}

const char *const *metric_claim_names(void)
{
        static const char **names;
        static gsize done;

        if (g_once_init_enter(&done)) {
                GPtrArray *a = g_ptr_array_new();
                for (const Column *c = column_table; c->name; c++)
                        if (c->claim)
                                g_ptr_array_add(a, (gpointer) c->claim);
                g_ptr_array_add(a, NULL);
                names = (const char **) g_ptr_array_free(a, FALSE);
                g_once_init_leave(&done, 1);
        }
        return names;
}

char *metric_claim_list(void)
{
        return g_strjoinv(", ", (char **) metric_claim_names());
}

char *metric_claim_list_by(ColumnBetter better)
{
        GString *s = g_string_new(NULL);

        for (const Column *c = column_table; c->name; c++)
                if (c->claim && c->better == better)
                        g_string_append_printf(s, "%s%s", s->len ? ", " : "", c->claim);
        return g_string_free(s, FALSE);
}

bool metric_applies(const Column *m, const char *pattern)
{
        if (!m->patterns)
                return true;
        g_auto(GStrv) p = g_strsplit(m->patterns, ",", -1);
        return g_strv_contains((const char *const *) p, pattern);
}

const char *metric_cells(const Column *m)
{
        return m->cells ? m->cells : "every cell";
}

unsigned metric_inputs(const Column *m, const Column *in[5])
{
        unsigned n = 0;

        if (!m->compute)
                in[n++] = m;
        for (unsigned i = 0; m->compute && i < G_N_ELEMENTS(m->from) && m->from[i]; i++)
                in[n++] = &column_table[m->from[i]];
        in[n] = NULL;
        return n;
}

double metric_compute(const Column *m, const double *in)
{
        return m->compute ? m->compute(in) : in[0];
}

double metric_field(const Column *c, const char *s)
{
        char *end;

        if (!strcmp(s, "-") && (c->flags & COLUMN_ABSENT_ZERO))
                return 0;
        if (!s[0] || !strcmp(s, "-"))
                return NAN;
        double v = g_ascii_strtod(s, &end);
        return *end ? NAN : v;
}

const char *metric_label(const char *name)
{
        int upper;
        const Column *c = column_find(name);

        if (!c)
                c = column_find_interval(name, &upper);
        if (!c)
                c = metric_find_claim(name);
        return c ? c->label : NULL;
}
