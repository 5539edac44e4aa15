/* group.c: reading one group of an experiment file (group.h). */
#include "group.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "experiment.h"
#include "figure.h"
#include "suggest.h"

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

/* ---- typed keys ------------------------------------------------------- */

void option_value_clear(OptionValue *v)
{
        g_clear_pointer(&v->text, g_free);
        g_clear_pointer(&v->list, g_strfreev);
        g_clear_pointer(&v->nums, g_free);
}

int option_index(const char *const *values, const char *s)
{
        for (int i = 0; values[i]; i++)
                if (strcmp(values[i], s) == 0)
                        return i;
        return -1;
}

/* A whole number, then one of UNITS (N of them): *OUT gets it times the
 * unit's factor. */
static bool parse_with_units(const char *s, const char *const *suffixes, const guint64 *mults, gsize n,
                             guint64 *out)
{
        char *end;

        if (!g_ascii_isdigit(*s))
                return false;
        errno = 0;
        guint64 v = g_ascii_strtoull(s, &end, 10);
        if (errno)
                return false;
        for (gsize i = 0; i < n; i++) {
                if (strcmp(end, suffixes[i]) == 0) {
                        if (v > G_MAXUINT64 / mults[i])
                                return false;
                        *out = v * mults[i];
                        return true;
                }
        }
        return false;
}

/* axes.h */
bool parse_size(const char *s, guint64 *out)
{
        static const char *const suffixes[] = { "", "B", "KiB", "MiB", "GiB" };
        static const guint64 mults[] = { 1, 1, 1024, 1024 * 1024, (guint64) 1024 * 1024 * 1024 };

        return parse_with_units(s, suffixes, mults, G_N_ELEMENTS(mults), out);
}

/* axes.h */
bool parse_duration(const char *s, guint64 *out_ns)
{
        static const char *const suffixes[] = { "ns", "us", "ms", "s", "m" };
        static const guint64 mults[] = { 1, 1000, 1000000, 1000000000, (guint64) 60 * 1000000000 };

        return parse_with_units(s, suffixes, mults, G_N_ELEMENTS(mults), out_ns);
}

static bool parse_uint(const char *s, guint64 *out)
{
        char *end;

        if (!g_ascii_isdigit(*s))
                return false;
        errno = 0;
        *out = g_ascii_strtoull(s, &end, 10);
        return errno == 0 && *end == '\0';
}

static bool is_value(const char *name, const void *values)
{
        return option_index(values, name) >= 0;
}

/* Reports that VALUE is not one of O's values: with the one it may have
 * meant, or the list it may have meant.  NOUN names what it is. */
static gboolean fail_value(GroupParse *p, const Option *o, const char *noun, const char *value)
{
        g_autofree char *allowed = g_strjoinv(", ", (char **) o->values);
        g_autofree char *hint = o->type == OPT_ENUMS ? experiment_comma_hint(value, is_value, o->values) : g_strdup("");

        if (!hint[0]) {
                g_free(hint);
                hint = suggest_hint_among(value, o->values);
        }
        group_bad(p, o->key, "unknown %s '%s' (allowed: %s)%s", noun ? noun : "value", value, allowed, hint);
        return FALSE;
}

/* Splits a list value on ';', trimming blanks; empty items are mistakes,
 * and so is an item given twice unless REPEATS. */
static char **split_list(GroupParse *p, const char *key, const char *value, bool repeats)
{
        g_auto(GStrv) items = g_strsplit(value, ";", -1);
        guint n = g_strv_length(items);

        /* A trailing ';' is GKeyFile style: allow it. */
        if (n > 1 && g_strstrip(items[n - 1])[0] == '\0') {
                g_free(items[n - 1]);
                items[n - 1] = NULL;
                n--;
        }
        for (guint i = 0; i < n; i++) {
                g_strstrip(items[i]);
                if (items[i][0] == '\0') {
                        group_bad(p, key, "empty list item in '%s'", value);
                        return NULL;
                }
                for (guint j = 0; j < i && !repeats; j++) {
                        if (strcmp(items[i], items[j]) == 0) {
                                group_bad(p, key, "'%s' is listed twice", items[i]);
                                return NULL;
                        }
                }
        }
        return g_steal_pointer(&items);
}

/* Item *IT of list option O (the items before it: KEPT of ITEMS, their
 * numbers NUMS): *NUM its number (an enum's index).  FALSE after
 * reporting a mistake. */
static gboolean parse_item(GroupParse *p, const Option *o, const char *noun, char **items, const guint64 *nums,
                           guint kept, const char *it, guint64 *num)
{
        switch (o->type) {
        case OPT_LIST:
                if (o->values && option_index(o->values, it) < 0)
                        return fail_value(p, o, noun, it);
                return TRUE;
        case OPT_ENUMS:
                if (option_index(o->values, it) < 0)
                        return fail_value(p, o, noun, it);
                *num = (guint64) option_index(o->values, it);
                return TRUE;
        case OPT_SIZES:
                if (!parse_size(it, num)) {
                        group_bad(p, o->key, "'%s' is not a size (bytes, or with B, KiB, MiB, GiB)", it);
                        return FALSE;
                }
                break;
        case OPT_UINTS:
                if (!parse_uint(it, num)) {
                        group_bad(p, o->key, "'%s' is not a whole number", it);
                        return FALSE;
                }
                break;
        case OPT_DURATIONS:
                if (!parse_duration(it, num)) {
                        group_bad(p, o->key, "'%s' is not a duration (such as 500ms, 2s, 100us)", it);
                        return FALSE;
                }
                break;
        default:
                g_assert_not_reached();
        }
        if (*num < o->min || *num > o->max) {
                group_bad(p, o->key, "'%s' is out of range (%" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT "%s)", it,
                          o->min, o->max, o->type == OPT_DURATIONS ? " ns" : "");
                return FALSE;
        }
        /* 64 and 64B, 1KiB and 1024: one value twice, once the units
         * are resolved. */
        for (guint j = 0; j < kept; j++) {
                if (nums[j] == *num) {
                        group_bad(p, o->key, "'%s' and '%s' are the same value, listed twice", items[j], it);
                        return FALSE;
                }
        }
        return TRUE;
}

/* A list: every bad item is reported, and the good ones kept (FALSE all
 * the same): what depends on the others can still be checked. */
static gboolean parse_list(GroupParse *p, const Option *o, const char *value, OptionValue *out, OptionItem item,
                           void *data, bool repeats, const char *noun)
{
        g_auto(GStrv) items = split_list(p, o->key, value, repeats);
        if (!items)
                return FALSE;
        guint n = g_strv_length(items), kept = 0;
        bool ok = true;
        out->nums = g_new0(guint64, n);
        for (guint i = 0; i < n; i++) {
                const char *it = items[i];
                guint64 num = 0;
                gboolean good = o->type == OPT_TRANSPORTS ? item(p, o, items, kept, &it, data)
                                                          : parse_item(p, o, noun, items, out->nums, kept, it, &num);
                if (!good) {
                        ok = false;
                        g_free(items[i]);
                        continue;
                }
                if (it != items[i]) {
                        g_autofree char *old = items[i];
                        items[i] = g_strdup(it);
                }
                items[kept] = items[i];
                out->nums[kept++] = num;
        }
        items[kept] = NULL;
        if (kept)
                out->list = g_steal_pointer(&items);
        return ok;
}

/* A whole number, a duration or a percentage, within O's bounds. */
static gboolean parse_number(GroupParse *p, const Option *o, const char *value, guint64 *n)
{
        g_autofree char *num = g_strdup(value);

        if (o->type == OPT_PERCENT) {
                size_t l = strlen(num);
                if (l < 2 || num[l - 1] != '%') {
                        group_bad(p, o->key, "'%s' is not a percentage (such as 2%%)", value);
                        return FALSE;
                }
                num[l - 1] = '\0';
        }
        bool ok = o->type == OPT_DURATION ? parse_duration(num, n) : parse_uint(num, n);
        if (!ok) {
                group_bad(p, o->key, "'%s' is not %s", value,
                          o->type == OPT_DURATION ? "a duration (such as 500ms, 2s, 100us)"
                          : o->type == OPT_PERCENT ? "a whole percentage (such as 2%)"
                          : o->type == OPT_REPEAT ? "a whole number or auto"
                          : "a whole number");
                return FALSE;
        }
        if (*n < o->min || *n > o->max) {
                group_bad(p, o->key, "%s is out of range (%" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT "%s)", value,
                          o->min, o->max, o->type == OPT_DURATION ? " ns" : "");
                return FALSE;
        }
        return TRUE;
}

/* REPEATS and NOUN as GroupKey's; HELP: an empty value's message says
 * what the key is. */
static gboolean parse_value(GroupParse *p, const Option *o, const char *value, OptionValue *out, OptionItem item,
                            void *data, bool repeats, const char *noun, bool help)
{
        guint64 n;
        int i;

        if (!g_utf8_validate(value, -1, NULL)) {
                group_bad(p, o->key, "not valid UTF-8");
                return FALSE;
        }
        if (value[0] == '\0') {
                if (help)
                        group_bad(p, o->key, "empty value (%s)", o->help);
                else
                        group_bad(p, o->key, "empty value");
                return FALSE;
        }
        switch (o->type) {
        case OPT_STRING: {
                /* The paper prints it: one line LaTeX can typeset. */
                const char *why = figure_text_problem(value, o->max ? o->max : 500);
                if (why) {
                        group_bad(p, o->key, "%s", why);
                        return FALSE;
                }
                break;
        }
        case OPT_BOOL:
                if (strcmp(value, "true") && strcmp(value, "false")) {
                        group_bad(p, o->key, "'%s' is not true or false", value);
                        return FALSE;
                }
                break;
        case OPT_TRISTATE: {
                static const char *const words[] = { "auto", "false", "true", NULL };
                if ((i = option_index(words, value)) < 0) {
                        group_bad(p, o->key, "'%s' is not true, false or auto", value);
                        return FALSE;
                }
                out->nums = g_new(guint64, 1);
                out->nums[0] = (guint64) i;
                break;
        }
        case OPT_ENUM:
                if ((i = option_index(o->values, value)) < 0)
                        return fail_value(p, o, noun, value);
                out->nums = g_new(guint64, 1);
                out->nums[0] = (guint64) i;
                break;
        case OPT_NUMBER: {
                char *end;
                double d = g_ascii_strtod(value, &end);
                if (*end || !isfinite(d) || (o->min ? !(d > 0) : d == 0)) {
                        group_bad(p, o->key, "'%s' is not %s", value,
                                  o->min ? "a positive number" : "a number other than 0");
                        return FALSE;
                }
                break;
        }
        case OPT_REPEAT:
                if (!strcmp(value, "auto"))
                        break;
                G_GNUC_FALLTHROUGH;
        case OPT_PERCENT:
        case OPT_UINT:
        case OPT_DURATION:
                if (!parse_number(p, o, value, &n))
                        return FALSE;
                out->nums = g_new(guint64, 1);
                out->nums[0] = n;
                break;
        default: {
                /* A list the paper prints (heads): of a sane length. */
                const char *why = o->type == OPT_LIST && o->max ? figure_text_problem(value, o->max) : NULL;
                if (why) {
                        group_bad(p, o->key, "%s", why);
                        return FALSE;
                }
                return parse_list(p, o, value, out, item, data, repeats, noun);
        }
        }
        out->text = g_strdup(value);
        return TRUE;
}

gboolean option_parse(GroupParse *p, const Option *o, const char *value, OptionValue *out, OptionItem item,
                      void *data)
{
        return parse_value(p, o, value, out, item, data, false, NULL, true);
}

/* ---- a group's table of keys ------------------------------------------ */

void group_check_keys(GroupParse *p, const GroupKey *keys, gsize n, unsigned kind, const char *what)
{
        g_auto(GStrv) names = g_key_file_get_keys(p->kf, p->group, NULL, NULL);

        for (guint k = 0; names && names[k]; k++) {
                bool known = false;
                for (gsize j = 0; j < n && !known; j++)
                        known = (keys[j].kinds & kind) && !strcmp(keys[j].opt.key, names[k]);
                if (known)
                        continue;
                g_autoptr(GString) allowed = g_string_new(NULL);
                Suggest sg;
                suggest_init(&sg, names[k]);
                for (gsize j = 0; j < n; j++) {
                        if (!(keys[j].kinds & kind))
                                continue;
                        g_string_append_printf(allowed, "%s%s", allowed->len ? ", " : "", keys[j].opt.key);
                        suggest_consider(&sg, keys[j].opt.key);
                }
                g_autofree char *hint = suggest_hint(&sg);
                group_bad(p, names[k], "unknown key in a %s (allowed: %s)%s", what, allowed->str, hint);
        }
}

/* Stores V, parsed from a value of K, at K's place in DEST. */
static void store(const GroupKey *k, OptionValue *v, void *dest)
{
        char *at = (char *) dest + k->offset;

        switch (k->opt.type) {
        case OPT_STRING:
                g_free(*(char **) at);
                *(char **) at = g_steal_pointer(&v->text);
                break;
        case OPT_BOOL:
                *(bool *) at = !strcmp(v->text, "true");
                break;
        case OPT_ENUM:
        case OPT_TRISTATE:
        case OPT_UINT:
                *(int *) at = (int) v->nums[0];
                break;
        case OPT_NUMBER:
                *(double *) at = g_ascii_strtod(v->text, NULL);
                break;
        case OPT_LIST:
        case OPT_ENUMS:
                g_strfreev(*(char ***) at);
                *(char ***) at = g_steal_pointer(&v->list);
                break;
        default:
                g_assert_not_reached();
        }
}

/* Reports the first item of LIST (of KEY) given twice, items compared by
 * IDENTITY (NULL: as written). */
static void check_once(GroupParse *p, const char *key, char **list, const char *(*identity)(const char *item))
{
        g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);

        for (guint i = 0; list && list[i]; i++) {
                const char *id = identity ? identity(list[i]) : list[i];
                if (g_hash_table_contains(seen, id)) {
                        group_bad(p, key, "'%s' is listed twice", list[i]);
                        return;
                }
                g_hash_table_add(seen, (gpointer) id);
        }
}

void group_parse_keys(GroupParse *p, const GroupKey *keys, gsize n, unsigned kind, void *dest,
                      const char *(*identity)(const char *item))
{
        for (gsize i = 0; i < n; i++) {
                const GroupKey *k = &keys[i];
                g_autofree char *raw = (k->kinds & kind) ? g_key_file_get_value(p->kf, p->group, k->opt.key, NULL)
                                                         : NULL;
                g_autofree char *value = raw ? experiment_clean_value(raw) : k->opt.def ? g_strdup(k->opt.def) : NULL;
                OptionValue v = { 0 };

                if (!value || !(k->kinds & kind))
                        continue;
                /* Items given twice are reported here, by their identity,
                 * the list kept. */
                parse_value(p, &k->opt, value, &v, NULL, NULL, true, k->noun, false);
                if (v.list && !(k->flags & GROUP_KEY_REPEATS))
                        check_once(p, k->opt.key, v.list, identity);
                if (v.text || v.list)
                        store(k, &v, dest);
                option_value_clear(&v);
        }
}

void option_help(GString *s, const char *groups, const Option *o)
{
        static const char *const types[] = {
                [OPT_STRING] = "text", [OPT_TRANSPORTS] = "list of transports", [OPT_ENUMS] = "list of names",
                [OPT_SIZES] = "list of sizes", [OPT_UINTS] = "list of whole numbers",
                [OPT_DURATIONS] = "list of durations", [OPT_UINT] = "whole number", [OPT_DURATION] = "duration",
                [OPT_BOOL] = "true or false", [OPT_ENUM] = "name", [OPT_REPEAT] = "whole number or auto",
                [OPT_PERCENT] = "percentage", [OPT_LIST] = "list", [OPT_TRISTATE] = "true, false or auto",
                [OPT_NUMBER] = "number",
        };
        g_autofree char *def = o->required ? g_strdup("required")
                             : o->def ? g_strdup_printf("default %s", o->def) : g_strdup("optional");

        g_string_append_printf(s, "%-18s %-17s %s; %s; %s\n", groups, o->key, types[o->type], def, o->help);
}

void group_key_help(GString *s, const GroupKey *keys, gsize n, const char *(*kinds_name)(unsigned kinds))
{
        for (gsize i = 0; i < n; i++)
                option_help(s, kinds_name(keys[i].kinds), &keys[i].opt);
}
