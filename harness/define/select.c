/* select.c: the one selector engine (see select.h). */
#include "select.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "columns.h"
#include "suggest.h"

typedef enum {
        KIND_TEXT,
        KIND_SIZE,
        KIND_COUNT,
        KIND_DURATION,
        KIND_COLUMN,    /* not an axis: a number where both sides are */
} Kind;

/* How a selector reads the values of axis A (axes.h). */
static Kind axis_kind(const Axis *a)
{
        switch (a->type) {
        case AXIS_SIZE:
                return KIND_SIZE;
        case AXIS_COUNT:
                return KIND_COUNT;
        case AXIS_DURATION:
                return KIND_DURATION;
        default:
                return KIND_TEXT;
        }
}

typedef enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE } Op;

/* Longest first, so that "<=" is not read as "<". */
static const struct {
        const char *text;
        Op op;
} ops[] = {
        { "<=", OP_LE }, { ">=", OP_GE }, { "!=", OP_NE },
        { "<", OP_LT }, { ">", OP_GT }, { "=", OP_EQ },
};

typedef struct {
        char *key;          /* as written */
        int axis;           /* index in axes[], or -1 */
        Op op;
        char **texts;       /* the alternatives, as written */
        double *nums;       /* their values (bytes, ns, messages), NAN when
                             * not a number; "-" is NAN too */
        guint n;
} Cond;

struct Selector {
        char *text;
        GArray *conds;      /* Cond */
};

static void cond_clear(Cond *c)
{
        g_free(c->key);
        g_strfreev(c->texts);
        g_free(c->nums);
}

void select_free(Selector *s)
{
        if (!s)
                return;
        g_free(s->text);
        g_array_unref(s->conds);
        g_free(s);
}

const char *select_text(const Selector *s)
{
        return s->text;
}

static int axis_index(const char *key)
{
        const Axis *a = axis_find(key);

        return a ? (int) (a - axis_table) : -1;
}

const char *select_axis_column(const char *key)
{
        const Column *col = column_find_key(key);
        return col ? col->name : NULL;
}

static bool parse_whole(const char *s, guint64 *out)
{
        return g_ascii_isdigit(*s) && g_ascii_string_to_unsigned(s, 10, 0, G_MAXUINT64, out, NULL);
}

static bool parse_number(const char *s, double *out)
{
        char *end;

        if (!*s)
                return false;
        errno = 0;
        *out = g_ascii_strtod(s, &end);
        return !errno && !*end && isfinite(*out);
}

/* VALUE as KIND: its number (NAN for text), or false when malformed. */
static bool value_parse(Kind kind, const char *value, double *num)
{
        guint64 u;

        *num = NAN;
        if (!strcmp(value, "-"))
                return true;
        switch (kind) {
        case KIND_TEXT:
                return true;
        case KIND_SIZE:
                if (!parse_size(value, &u))
                        return false;
                *num = (double) u;
                return true;
        case KIND_COUNT:
                if (!parse_whole(value, &u))
                        return false;
                *num = (double) u;
                return true;
        case KIND_DURATION:
                if (!parse_duration(value, &u))
                        return false;
                *num = (double) u;
                return true;
        case KIND_COLUMN:
                if (!parse_number(value, num))
                        *num = NAN;
                return true;
        }
        return false;
}

static const char *kind_what(Kind k)
{
        switch (k) {
        case KIND_SIZE:
                return "a size (4096, 4KiB)";
        case KIND_COUNT:
                return "a whole number";
        case KIND_DURATION:
                return "a duration (500ms)";
        default:
                return "a number";
        }
}

Selector *select_parse(const char *text, SelectFlags flags, GError **error)
{
        g_autoptr(Selector) s = g_new0(Selector, 1);

        s->text = g_strdup(text ? text : "");
        s->conds = g_array_new(FALSE, TRUE, sizeof(Cond));
        g_array_set_clear_func(s->conds, (GDestroyNotify) cond_clear);
        if (!text || !text[0])
                return g_steal_pointer(&s);
        g_auto(GStrv) parts = g_strsplit(text, ",", -1);
        for (guint i = 0; parts[i]; i++) {
                char *p = g_strstrip(parts[i]);
                size_t at = strcspn(p, "=!<>");
                size_t o = 0;
                while (o < G_N_ELEMENTS(ops) && strncmp(p + at, ops[o].text, strlen(ops[o].text)))
                        o++;
                g_autofree char *key = g_strstrip(g_strndup(p, at));
                const char *value = p[at] ? p + at + strlen(ops[MIN(o, G_N_ELEMENTS(ops) - 1)].text) : "";
                while (g_ascii_isspace(*value))
                        value++;
                if (!p[at] || o == G_N_ELEMENTS(ops) || !key[0] || !value[0] || strchr("=!<>", value[0])) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "'%s' is not axis=value[,axis=value] (also != < <= > >=, "
                                    "and v1|v2 for any of)", text);
                        return NULL;
                }
                int axis = axis_index(key);
                if (axis < 0 && !(flags & SELECT_COLUMNS)) {
                        Suggest sg;
                        suggest_init(&sg, key);
                        for (size_t a = 0; a < axis_count; a++)
                                suggest_consider(&sg, axis_key(&axis_table[a]));
                        g_autofree char *hint = suggest_hint(&sg);
                        g_autofree char *keys = axis_keys_text();
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "'%s' is not axis=value[,axis=value]: unknown axis '%s' (allowed: %s)%s",
                                    text, key, keys, hint);
                        return NULL;
                }
                Kind kind = axis < 0 ? KIND_COLUMN : axis_kind(&axis_table[axis]);
                Cond c = { .key = g_steal_pointer(&key), .axis = axis, .op = ops[o].op };
                c.texts = g_strsplit(value, "|", -1);
                c.n = g_strv_length(c.texts);
                c.nums = g_new(double, c.n);
                g_array_append_val(s->conds, c);
                if (c.n > 1 && c.op != OP_EQ && c.op != OP_NE) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "'%s': %s: alternatives (v1|v2) go with = and != only", text, p);
                        return NULL;
                }
                for (guint k = 0; k < c.n; k++) {
                        g_strstrip(c.texts[k]);
                        bool ok = c.texts[k][0] && value_parse(kind, c.texts[k], &c.nums[k]);
                        if (ok && c.op != OP_EQ && c.op != OP_NE && isnan(c.nums[k]))
                                ok = false;
                        if (!ok) {
                                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                            "'%s': '%s' is not %s", text, c.texts[k],
                                            kind == KIND_TEXT ? "a value" : kind_what(kind));
                                return NULL;
                        }
                }
        }
        return g_steal_pointer(&s);
}

/* Does the value FIELD (as written in a row, "-" when it does not apply)
 * satisfy C? */
static bool cond_holds(const Cond *c, const char *field)
{
        Kind kind = c->axis < 0 ? KIND_COLUMN : axis_kind(&axis_table[c->axis]);
        bool raw_dash = !strcmp(field, "-");

        /* Ordered comparisons never hold where the axis does not apply. */
        if (c->op != OP_EQ && c->op != OP_NE) {
                double v, w = c->nums[0];
                if (raw_dash || !parse_number(field, &v))
                        return false;
                switch (c->op) {
                case OP_LT: return v < w;
                case OP_LE: return v <= w;
                case OP_GT: return v > w;
                case OP_GE: return v >= w;
                default: return false;
                }
        }
        if (raw_dash && c->axis >= 0 && axis_table[c->axis].dash)
                field = axis_table[c->axis].dash;
        bool dash = !strcmp(field, "-");
        double v = NAN;
        if (!dash && kind != KIND_TEXT && !parse_number(field, &v))
                v = NAN;
        bool any = false;
        for (guint k = 0; k < c->n && !any; k++) {
                if (!strcmp(c->texts[k], "-"))
                        any = raw_dash;
                else if (dash)
                        any = false;
                else if (!isnan(c->nums[k]) && !isnan(v))
                        any = v == c->nums[k];
                else
                        any = !strcmp(field, c->texts[k]);
        }
        return c->op == OP_EQ ? any : !any;
}

char *select_cell_value(const Cell *cell, const char *axis)
{
        const Axis *a = axis_find(axis);

        return a ? axis_cell_text(a, cell) : NULL;
}

bool select_cell(const Selector *s, const Cell *cell)
{
        for (guint i = 0; i < s->conds->len; i++) {
                const Cond *c = &g_array_index(s->conds, Cond, i);
                if (c->axis < 0)
                        continue;
                g_autofree char *v = axis_cell_text(&axis_table[c->axis], cell);
                if (v && !cond_holds(c, v))
                        return false;
        }
        return true;
}

int select_key_column(const Table *t, const char *key)
{
        int col = table_column(t, key);
        const char *axis = col < 0 ? select_axis_column(key) : NULL;

        return axis ? table_column(t, axis) : col;
}

gboolean select_check_table(const Selector *s, const Table *t, const char *path, GError **error)
{
        for (guint i = 0; i < s->conds->len; i++) {
                const Cond *c = &g_array_index(s->conds, Cond, i);
                if (select_key_column(t, c->key) < 0) {
                        g_autofree char *have = g_strjoinv(", ", t->columns);
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "'%s': %s has no column '%s' (it has: %s)", s->text, path, c->key, have);
                        return FALSE;
                }
        }
        return TRUE;
}

bool select_row(const Selector *s, const Table *t, char *const *row)
{
        for (guint i = 0; i < s->conds->len; i++) {
                const Cond *c = &g_array_index(s->conds, Cond, i);
                int col = select_key_column(t, c->key);
                if (col < 0 || !cond_holds(c, row[col]))
                        return false;
        }
        return true;
}

bool select_names_column(const Selector *s, const char *column)
{
        for (guint i = 0; i < s->conds->len; i++) {
                const Cond *c = &g_array_index(s->conds, Cond, i);
                const char *col = c->axis >= 0 ? select_axis_column(c->key) : c->key;
                if (!strcmp(col, column))
                        return true;
        }
        return false;
}
