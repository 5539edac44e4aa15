/* papercheck.c: `ipclab paper-check` (papercheck.h). */
#include "papercheck.h"

#include <math.h>
#include <string.h>

#include "columns.h"
#include "experiment.h"
#include "figure.h"
#include "render.h"

static void problem(GPtrArray *problems, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void problem(GPtrArray *problems, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        g_ptr_array_add(problems, g_strdup_vprintf(fmt, ap));
        va_end(ap);
}

/* ---- the log ------------------------------------------------------------------ */

/* The number in LINE just after PREFIX's first occurrence, or NAN. */
static double number_after(const char *line, const char *prefix)
{
        const char *p = strstr(line, prefix);
        return p ? g_ascii_strtod(p + strlen(prefix), NULL) : NAN;
}

static void check_log(const char *path, const char *log, GPtrArray *problems, guint *figures, guint *tables)
{
        g_auto(GStrv) lines = g_strsplit(log, "\n", -1);

        *figures = *tables = G_MAXUINT;
        for (guint i = 0; lines[i]; i++) {
                const char *l = lines[i];
                if (strstr(l, "Float too large for page")) {
                        problem(problems, "%s: a float does not fit its page (%s): part of it is not printed", path,
                                strstr(l, "Float too large"));
                } else if (g_str_has_prefix(l, "Overfull \\")) {
                        double pt = number_after(l, "box (");
                        if (!(pt <= PAPERCHECK_OVERFULL_PT))
                                problem(problems, "%s: %s", path, l);
                } else if (strstr(l, "LaTeX Warning: Reference") || strstr(l, "LaTeX Warning: Citation") ||
                           strstr(l, "There were undefined references")) {
                        if (strstr(l, "undefined"))
                                problem(problems, "%s: %s", path, strstr(l, "LaTeX Warning: ") + 15);
                } else if (strstr(l, "not found") && strstr(l, "File `")) {
                        problem(problems, "%s: %s", path, l);
                } else if (g_str_has_prefix(l, "ipclab: figure ") || g_str_has_prefix(l, "ipclab: table ")) {
                        problem(problems, "%s: %s", path, l + strlen("ipclab: "));
                } else if (g_str_has_prefix(l, "ipclab: floats: ")) {
                        *figures = (guint) number_after(l, "floats: ");
                        *tables = (guint) number_after(l, "figures, ");
                }
        }
        if (*figures == G_MAXUINT)
                problem(problems, "%s: no \"ipclab: floats:\" line: was the paper built with ipclab.sty?", path);
}

/* The page of \newlabel{LABEL} in AUX, or 0 when there is none. */
static guint label_page(const char *aux, const char *label)
{
        g_autofree char *key = g_strdup_printf("\\newlabel{%s}{{", label);
        const char *p = strstr(aux, key);

        if (!p)
                return 0;
        p += strlen(key);
        /* Skip the first group (the number), then read the second. */
        for (int depth = 1; *p && depth; p++)
                depth += *p == '{' ? 1 : *p == '}' ? -1 : 0;
        return *p == '{' ? (guint) g_ascii_strtoull(p + 1, NULL, 10) : 0;
}

/* ---- the PDF's text ---------------------------------------------------------- */

static char *pdf_text(const char *pdf, GError **error)
{
        const char *argv[] = { "pdftotext", "-enc", "UTF-8", pdf, "-", NULL };
        g_autofree char *out = NULL;
        g_autofree char *err = NULL;
        int status;

        if (!g_spawn_sync(NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err, &status, error)) {
                g_prefix_error(error, "paper-check: pdftotext (poppler-utils): ");
                return NULL;
        }
        if (!g_spawn_check_wait_status(status, NULL)) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "paper-check: pdftotext %s failed: %s", pdf,
                            err ? g_strstrip(err) : "");
                return NULL;
        }
        return g_steal_pointer(&out);
}

/* TEXT with a line broken after a hyphen or a slash joined and every
 * run of blanks one space: a name printed across two lines reads as one. */
static char *flatten(const char *text)
{
        GString *s = g_string_new(NULL);

        for (const char *p = text; *p; p++) {
                if (g_ascii_isspace(*p)) {
                        bool after_hyphen = s->len && (s->str[s->len - 1] == '-' || s->str[s->len - 1] == '/') &&
                                            *p == '\n';
                        bool newline = *p == '\n';
                        while (g_ascii_isspace(p[1]))
                                p++;
                        /* A name broken before one of its hyphens
                         * ("oneway-outpaces" / "-roundtrip"). */
                        bool before_hyphen = newline && p[1] == '-' && p[2] && !g_ascii_isspace(p[2]) && s->len &&
                                             g_ascii_isalnum(s->str[s->len - 1]);
                        if (!after_hyphen && !before_hyphen && s->len && s->str[s->len - 1] != ' ')
                                g_string_append_c(s, ' ');
                        continue;
                }
                g_string_append_c(s, *p);
        }
        return g_string_free(s, FALSE);
}

/* How many captions of KIND ("Figure", "Table") PAGE's text starts. */
static guint captions_on(const char *page, const char *kind)
{
        guint n = 0;

        for (const char *p = strstr(page, kind); p; p = strstr(p + 1, kind)) {
                const char *q = p + strlen(kind);
                if (*q != ' ')
                        continue;
                q++;
                if (!g_ascii_isdigit(*q))
                        continue;
                while (g_ascii_isdigit(*q))
                        q++;
                n += *q == ':' || *q == '.';
        }
        return n;
}

/* ---- figure scripts and generated captions ----------------------------------- */

static void check_script(const char *path, const char *id, GPtrArray *problems)
{
        g_autofree char *text = NULL;

        if (!g_file_get_contents(path, &text, NULL, NULL))
                return;
        g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
        g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
        bool in_key = false;
        guint entries = 0;
        for (guint i = 0; lines[i]; i++) {
                if (g_str_has_prefix(lines[i], "# the key"))
                        in_key = true;
                entries += in_key && strstr(lines[i], " title \"") && !strstr(lines[i], "title \" \"");
                if (!g_str_has_prefix(lines[i], "# style\t"))
                        continue;
                g_auto(GStrv) f = g_strsplit(lines[i], "\t", -1);
                if (g_strv_length(f) < 6)
                        continue;
                g_autofree char *look = g_strdup_printf("%s\t%s\t%s\t%s", f[1], f[3], f[4], f[5]);
                const char *other = g_hash_table_lookup(seen, look);
                if (other)
                        problem(problems, "%s: figure %s, panel %s: '%s' and '%s' are drawn alike (colour %s, point %s, "
                                "dash %s)", path, id, f[1], other, f[2], f[3], f[4], f[5]);
                else
                        g_hash_table_insert(seen, g_strdup(look), g_strdup(f[2]));
        }
        if (entries > PAPERCHECK_MAX_KEY)
                problem(problems, "%s: figure %s: its key has %u entries (more than %d cannot be read)", path, id,
                        entries, PAPERCHECK_MAX_KEY);
}

/* The text of the \caption{...} before \label{LABEL} in TEX, or NULL. */
static char *caption_before(const char *tex, const char *label)
{
        g_autofree char *l = g_strdup_printf("\\label{%s}", label);
        const char *at = strstr(tex, l), *cap = NULL;

        for (const char *p = strstr(tex, "\\caption{"); p && at && p < at; p = strstr(p + 1, "\\caption{"))
                cap = p;
        if (!cap)
                return NULL;
        const char *p = cap + strlen("\\caption{");
        const char *start = p;
        for (int depth = 1; *p && depth; p++)
                depth += *p == '{' ? 1 : *p == '}' ? -1 : 0;
        return g_strndup(start, (gsize) (p - start - 1));
}

static void check_captions(const char *path, const Experiment *exp, GPtrArray *problems)
{
        g_autofree char *tex = NULL;

        if (!g_file_get_contents(path, &tex, NULL, NULL))
                return;
        for (guint i = 0; i < exp->outputs->len; i++) {
                const Output *o = exp->outputs->pdata[i];
                g_autofree char *label = g_strdup_printf("%s:%s-%s", o->is_table ? "tab" : "fig", exp->name, o->name);
                g_autofree char *cap = caption_before(tex, label);
                const char *what = o->is_table ? "table" : "figure";
                if (!cap) {
                        problem(problems, "%s: %s %s-%s has no caption", path, what, exp->name, o->name);
                        continue;
                }
                if (o->caption)
                        continue;
                g_autofree char *where = o->where ? render_latex_escape(o->where) : NULL;
                if (where && !strstr(cap, where))
                        problem(problems, "%s: the caption of %s %s-%s does not say which cells it shows (where=%s)",
                                path, what, exp->name, o->name, o->where);
                const char *col = o->is_table ? (o->columns_axis ? o->value : o->columns[0]) : o->y[0];
                const Column *c = column_find(col);
                /* The label may open the caption, capitalised. */
                g_autofree char *label_tex = c ? render_latex_escape(c->label) : NULL;
                g_autofree char *label_low = label_tex ? g_ascii_strdown(label_tex, -1) : NULL;
                g_autofree char *cap_low = g_ascii_strdown(cap, -1);
                if (label_low && !strstr(cap_low, label_low))
                        problem(problems, "%s: the caption of %s %s-%s does not name its %s (%s)", path, what,
                                exp->name, o->name, o->is_table ? "values" : "y axis", c->label);
                if (o->is_table && label_low && c->unit[0]) {
                        /* "label (UNIT)": as unit= says, and as the table's
                         * own head says. */
                        const char *at = strstr(cap_low, label_low);
                        const char *u = at ? cap + (at - cap_low) + strlen(label_low) : NULL;
                        g_autofree char *unit = u && g_str_has_prefix(u, " (") && strchr(u, ')')
                                ? g_strndup(u + 2, (gsize) (strchr(u, ')') - u - 2)) : NULL;
                        const char *given = o->units && o->units[0] ? o->units[0] : o->unit;
                        g_autofree char *gl = given ? render_unit_latex(given) : NULL;
                        g_autofree char *tpath = g_strdup_printf("%.*s/table-%s-%s.tex",
                                                                 (int) (strrchr(path, '/') ? strrchr(path, '/') - path : 1),
                                                                 strrchr(path, '/') ? path : ".", exp->name, o->name);
                        g_autofree char *table = NULL;
                        g_autofree char *paren = unit ? g_strdup_printf("(%s)", unit) : NULL;
                        if (!unit)
                                problem(problems, "%s: the caption of table %s-%s does not give its unit", path,
                                        exp->name, o->name);
                        else if (gl && strcmp(gl, unit))
                                problem(problems, "%s: the caption of table %s-%s gives its unit as %s, unit= says %s",
                                        path, exp->name, o->name, unit, given);
                        else if (g_file_get_contents(tpath, &table, NULL, NULL) && !strstr(table, paren))
                                problem(problems, "%s: the caption of table %s-%s gives its unit as %s, the table "
                                        "another", path, exp->name, o->name, unit);
                }
        }
}

/* ---- all ------------------------------------------------------------------------ */

gboolean papercheck_run(const PaperCheck *pc, GPtrArray *problems, GError **error)
{
        g_autofree char *log = NULL;
        g_autofree char *aux = NULL;
        g_autofree char *base = g_str_has_suffix(pc->log, ".log") ? g_strndup(pc->log, strlen(pc->log) - 4)
                                                                  : g_strdup(pc->log);
        g_autofree char *aux_path = g_strconcat(base, ".aux", NULL);
        g_autoptr(GPtrArray) exps = g_ptr_array_new_with_free_func((GDestroyNotify) experiment_free);
        guint figures, tables;

        for (guint i = 0; pc->experiments && pc->experiments[i]; i++) {
                Experiment *e = experiment_load_anywhere(pc->experiments[i], error);
                if (!e)
                        return FALSE;
                g_ptr_array_add(exps, e);
        }
        if (!g_file_get_contents(pc->log, &log, NULL, error)) {
                g_prefix_error(error, "paper-check: ");
                return FALSE;
        }
        if (!g_file_get_contents(aux_path, &aux, NULL, error)) {
                g_prefix_error(error, "paper-check: ");
                return FALSE;
        }
        g_autofree char *text = pdf_text(pc->pdf, error);
        if (!text)
                return FALSE;
        check_log(pc->log, log, problems, &figures, &tables);

        g_auto(GStrv) pages = g_strsplit(text, "\f", -1);
        guint n_pages = g_strv_length(pages);
        if (n_pages && !g_strstrip(pages[n_pages - 1])[0])
                n_pages--;
        g_autofree char *flat = flatten(text);
        /* Every float numbered, and every declared output on a page with
         * a caption of its kind. */
        for (guint k = 1; figures != G_MAXUINT && k <= figures; k++) {
                g_autofree char *f = g_strdup_printf("Figure %u:", k);
                if (!strstr(flat, f))
                        problem(problems, "%s: no \"%s\" in its text: a figure is missing", pc->pdf, f);
        }
        for (guint k = 1; tables != G_MAXUINT && k <= tables; k++) {
                g_autofree char *t = g_strdup_printf("Table %u:", k);
                if (!strstr(flat, t))
                        problem(problems, "%s: no \"%s\" in its text: a table is missing", pc->pdf, t);
        }
        for (guint i = 0; i < exps->len; i++) {
                const Experiment *e = exps->pdata[i];
                for (guint j = 0; j < e->outputs->len; j++) {
                        const Output *o = e->outputs->pdata[j];
                        const char *kind = o->is_table ? "table" : "figure";
                        g_autofree char *label = g_strdup_printf("ipclab-%s:%s-%s", kind, e->name, o->name);
                        guint page = label_page(aux, label);
                        if (!page) {
                                problem(problems, "%s: %s %s-%s is not in the paper", pc->pdf, kind, e->name, o->name);
                                continue;
                        }
                        if (page > n_pages || !captions_on(pages[page - 1], o->is_table ? "Table" : "Figure"))
                                problem(problems, "%s: %s %s-%s: page %u has no %s caption", pc->pdf, kind, e->name,
                                        o->name, page, o->is_table ? "table" : "figure");
                        if (!o->is_table && pc->figures) {
                                g_autofree char *gp = g_strdup_printf("%s/%s-%s.gp", pc->figures, e->name, o->name);
                                g_autofree char *id = g_strdup_printf("%s-%s", e->name, o->name);
                                check_script(gp, id, problems);
                        }
                }
                /* The claims table names each claim EXP/NAME (the text may
                 * cite it by its name alone). */
                for (guint j = 0; j < e->claims->len; j++) {
                        const Claim *c = e->claims->pdata[j];
                        g_autofree char *full = g_strdup_printf("%s/%s", e->name, c->name);
                        if (!strstr(flat, full))
                                problem(problems, "%s: claim %s is not in its text (the claims table lost it?)", pc->pdf,
                                        full);
                }
                if (pc->sections) {
                        g_autofree char *sec = g_strdup_printf("%s/section-%s.tex", pc->sections, e->name);
                        check_captions(sec, e, problems);
                }
        }
        return TRUE;
}
