/* experiment.c: experiment file -> validated Experiment -> matrix of cells.
 *
 * One option table (`experiment_options()` below) describes every key of
 * [experiment]: its type, its allowed values, its default and its help;
 * the rows of the axes' keys are made from the axis registry (axes.h),
 * the others are below.  Parsing, validation, profile overrides, `ipclab check` and the resolved
 * echo in meta.ini all come from those rows.  This file reads the file,
 * [experiment] and its profiles; experiment-cells.c expands them into
 * cells, experiment-groups.c reads the other groups.
 */
#include "experiment.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "experiment-internal.h"
#include "figure.h"
#include "group.h"
#include "safefile.h"
#include "numbers.h"
#include "select.h"
#include "suggest.h"
#include "transport-catalogue.h"
#include "metrics.h"

static const char *const runner_values[] = { "harness", "hyperfine", NULL };
static const char *const store_latencies_values[] = { "histogram", "raw", NULL };
static const char *const repeat_until_values[] = { "narrow", "decided", NULL };

/* Repetitions of one cell: 10000 pin a median to a small fraction of its
 * spread, and what is kept of each (a row, a latency histogram of up to
 * 40 KiB) must fit what is read back: MAX_RUN_REPETITIONS in one run. */
#define MAX_REPEAT ((guint64) 10000)

/* The keys of [experiment] before the axes': what the experiment is. */
static const Option head_options[] = {
        { "title", OPT_STRING, NULL, NULL, true, 0, 0,
          "what the experiment measures, in one line" },
        { "source", OPT_STRING, NULL, NULL, false, 0, 0,
          "the published document it follows (a file in shared/seeds)" },
        { "description", OPT_STRING, NULL, NULL, false, 0, 8000,
          "longer free text" },
};

/* The keys after the cell axes': how every cell is measured. */
static const Option run_options[] = {
        { "repeat", OPT_REPEAT, NULL, "5", false, 1, MAX_REPEAT,
          "repetitions of every cell, or auto: until the median's 95% CI is narrow enough" },
        { "repeat_min", OPT_UINT, NULL, "5", false, 2, MAX_REPEAT,
          "repeat=auto: repetitions before the CI is first looked at" },
        { "repeat_max", OPT_UINT, NULL, "30", false, 2, MAX_REPEAT,
          "repeat=auto: the most repetitions of one cell" },
        { "ci_target", OPT_PERCENT, NULL, "2%", false, 1, 100,
          "repeat=auto: the CI half-width to reach, in per cent of the median" },
        { "auto_cap", OPT_DURATION, NULL, "5m", false, 1000000, AXIS_MAX_DURATION,
          "repeat=auto: the most time one cell may take in all its repetitions" },
        /* No default values: a file without the keys keeps the
         * config_sha256 it had before they existed. */
        { "repeat_until", OPT_ENUM, repeat_until_values, NULL, false, 0, 0,
          "repeat=auto: narrow (the default: until the median's CI is within ci_target, then a confirmation "
          "batch) or decided (the cells of a claim until it holds or fails, looked at only at looks=)" },
        { "looks", OPT_UINTS, NULL, NULL, false, 2, 100000,
          "repeat_until=decided: the repetition counts at which claims are looked at, increasing, at most 16 "
          "(default: repeat_min, then doubling up to repeat_max, which is the last)" },
        { "warmup", OPT_UINT, NULL, "10", false, 0, 10000000,
          "messages exchanged before timing starts, discarded" },
        { "timeout", OPT_DURATION, NULL, "60s", false, 1000000, AXIS_MAX_DURATION,
          "time limit of one repetition; past it the cell fails" },
        { "verify", OPT_BOOL, NULL, "false", false, 0, 0,
          "check every payload's size and checksum (costs time)" },
        { "seed", OPT_UINT, NULL, "0", false, 0, G_MAXUINT64,
          "shuffle the order of cells with this seed; 0 keeps file order" },
        { "runner", OPT_ENUM, runner_values, "harness", false, 0, 0,
          "harness: ipclab's own message loop; hyperfine: whole commands (dbus-send, gdbus-call, busctl-call)" },
        /* No default value: a file without the key keeps the
         * config_sha256 it had before the key existed. */
        { "store_latencies", OPT_ENUM, store_latencies_values, NULL, false, 0, 0,
          "per-message latencies in latencies.tsv.gz: histogram (log-linear buckets, under 1% error; "
          "the default) or raw (every value: for short runs)" },
};

/* The option table (experiment_options()), made once: what the
 * experiment is, the key of every cell axis in axis_table's order, how
 * it is measured, then the keys of the run's axes the file may set
 * (env). */
static Option option_rows[G_N_ELEMENTS(head_options) + AXIS_MAX + G_N_ELEMENTS(run_options)];
static size_t n_option_rows;
G_STATIC_ASSERT(G_N_ELEMENTS(option_rows) <= EXPERIMENT_MAX_OPTIONS);

/* Axis A's row of the option table: a list of its type's values. */
static Option axis_option(const Axis *a)
{
        static const OptType types[] = {
                [AXIS_TRANSPORT] = OPT_TRANSPORTS, [AXIS_NAMES] = OPT_ENUMS, [AXIS_SIZE] = OPT_SIZES,
                [AXIS_COUNT] = OPT_UINTS, [AXIS_DURATION] = OPT_DURATIONS, [AXIS_PLACE] = OPT_ENUMS,
        };

        return (Option) { axis_key(a), types[a->type], a->values, a->def, a->required, a->min, a->max, a->help };
}

/* Appends to option_rows, from N, the keys of the run's axes (PLACE)
 * or of the cells'; returns the rows then. */
static size_t add_axis_options(size_t n, bool place)
{
        for (size_t i = 0; i < axis_count; i++) {
                const Axis *a = &axis_table[i];
                /* Every cell axis is a key: the cells are expanded from
                 * them (experiment-cells.c). */
                g_assert(a->help || a->type == AXIS_PLACE);
                if ((a->type == AXIS_PLACE) == place && a->help)
                        option_rows[n++] = axis_option(a);
        }
        return n;
}

const Option *experiment_options(void)
{
        static gsize done;

        if (g_once_init_enter(&done)) {
                size_t n = 0;
                for (size_t i = 0; i < G_N_ELEMENTS(head_options); i++)
                        option_rows[n++] = head_options[i];
                n = add_axis_options(n, false);
                for (size_t i = 0; i < G_N_ELEMENTS(run_options); i++)
                        option_rows[n++] = run_options[i];
                n_option_rows = add_axis_options(n, true);
                g_once_init_leave(&done, 1);
        }
        return option_rows;
}

size_t experiment_n_options(void)
{
        experiment_options();
        return n_option_rows;
}

/* experiment.h */
char *experiment_key_help(void)
{
        GString *s = g_string_new(NULL);

        for (size_t i = 0; i < experiment_n_options(); i++) {
                const Option *o = &experiment_options()[i];
                /* A profile changes what is measured, not what it is. */
                bool profile = o->type != OPT_STRING || !strcmp(o->key, "description");
                option_help(s, profile ? "experiment,profile" : "experiment", o);
        }
        experiment_claim_key_help(s);
        return g_string_free(s, FALSE);
}

static const Option *option_find(const char *key)
{
        for (size_t i = 0; i < experiment_n_options(); i++)
                if (strcmp(experiment_options()[i].key, key) == 0)
                        return &experiment_options()[i];
        return NULL;
}


/* The line (from 1) of KEY in GROUP of TEXT, or of GROUP's header when
 * KEY is NULL; 0 when it is not there (a default, a missing key). */
guint experiment_find_line(const char *text, const char *group, const char *key)
{
        g_autofree char *cur = NULL;
        guint line = 1;

        if (!text || !group)
                return 0;
        for (const char *p = text; *p; line++) {
                const char *nl = strchr(p, '\n');
                gsize n = nl ? (gsize) (nl - p) : strlen(p);
                g_autofree char *l = g_strstrip(g_strndup(p, n));

                if (l[0] == '[') {
                        char *end = strchr(l, ']');
                        g_free(cur);
                        cur = end ? g_strndup(l + 1, (gsize) (end - l - 1)) : NULL;
                        if (!key && cur && !strcmp(cur, group))
                                return line;
                } else if (key && cur && !strcmp(cur, group) && g_str_has_prefix(l, key)) {
                        const char *q = l + strlen(key);
                        while (*q == ' ' || *q == '\t')
                                q++;
                        if (*q == '=')
                                return line;
                }
                if (!nl)
                        break;
                p = nl + 1;
        }
        return 0;
}

static void add_error(const Ctx *c, guint line, const char *group, const char *key,
                      const char *fmt, va_list ap) G_GNUC_PRINTF(5, 0);

static void add_error(const Ctx *c, guint line, const char *group, const char *key,
                      const char *fmt, va_list ap)
{
        g_autofree char *msg = g_strdup_vprintf(fmt, ap);
        /* A key that is not in the file (missing, a default): the line
         * of its group. */
        if (!line && group)
                line = experiment_find_line(c->text, group, NULL);
        g_autofree char *where = line ? g_strdup_printf("%s:%u", c->file, line) : g_strdup(c->file);
        char *full;

        if (group && key)
                full = g_strdup_printf("%s: [%s] %s: %s", where, group, key, msg);
        else if (group)
                full = g_strdup_printf("%s: [%s]: %s", where, group, msg);
        else
                full = g_strdup_printf("%s: %s", where, msg);
        if (g_hash_table_contains(c->seen, full)) {
                g_free(full);
                return;
        }
        g_hash_table_add(c->seen, full);
        Mistake m = { .line = line, .text = full };
        g_array_append_val(c->errors, m);
}

/* Records a mistake at LINE of the file (0: none); returns FALSE. */
gboolean experiment_fail_at(const Ctx *c, guint line, const char *group,
                            const char *key, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        add_error(c, line, group, key, fmt, ap);
        va_end(ap);
        return FALSE;
}

/* Records a mistake in KEY of GROUP, at the line where the file has it. */
gboolean experiment_fail(const Ctx *c, const char *group,
                         const char *key, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        add_error(c, experiment_find_line(c->text, group, key), group, key, fmt, ap);
        va_end(ap);
        return FALSE;
}

/* experiment.h */
char *experiment_comma_hint(const char *value, bool (*valid)(const char *name, const void *data), const void *data)
{
        if (!strchr(value, ','))
                return g_strdup("");
        g_auto(GStrv) items = g_strsplit(value, ",", -1);
        for (guint i = 0; items[i]; i++)
                if (!valid(g_strstrip(items[i]), data))
                        return g_strdup("");
        g_autofree char *list = g_strjoinv(";", items);
        return g_strdup_printf("; lists take ';', not ',': %s", list);
}

/* Strips an inline comment (whitespace then '#') and surrounding blanks. */
char *experiment_clean_value(const char *raw)
{
        char *v = g_strdup(raw);

        for (char *p = v; *p; p++) {
                if (*p == '#' && (p == v || g_ascii_isspace(p[-1]))) {
                        *p = '\0';
                        break;
                }
        }
        return g_strstrip(v);
}

/* The value of KEY: from the profile group when it has it, else from
 * [experiment], else the option's default.  *FROM gets the group it came
 * from (NULL for the default).  Returns NULL when absent everywhere. */
static char *lookup(const Ctx *c, const Option *o, const char **from)
{
        const char *groups[] = { c->profile_group, "experiment" };

        for (size_t i = 0; i < G_N_ELEMENTS(groups); i++) {
                if (!groups[i] || !g_key_file_has_key(c->kf, groups[i], o->key, NULL))
                        continue;
                g_autofree char *raw = g_key_file_get_value(c->kf, groups[i], o->key, NULL);
                *from = groups[i];
                return experiment_clean_value(raw ? raw : "");
        }
        *from = NULL;
        return o->def ? g_strdup(o->def) : NULL;
}


static void values_clear(Values *v)
{
        for (size_t i = 0; i < experiment_n_options(); i++) {
                g_strfreev(v->list[i]);
                g_free(v->nums[i]);
                g_free(v->text[i]);
        }
}

guint experiment_opt_index(const char *key)
{
        return (guint) (option_find(key) - experiment_options());
}

/* A mistake in a value of [experiment] or a profile: at its key's line. */
static void report_option(void *ctx, const char *group, const char *key, const char *msg)
{
        experiment_fail(ctx, group, key, "%s", msg);
}

/* Item *IT of a list of transports (the items before it: KEPT of ITEMS):
 * a name, or plugin:PATH (measure/plugin.h), which the cells know by its
 * transport's name. */
static gboolean transport_item(GroupParse *p, const Option *o, char **items, guint kept, const char **it,
                               void *data)
{
        const Ctx *c = data;
        g_autoptr(GError) pe = NULL;
        const Transport *t = transport_resolve(*it, c->file, c->anywhere, &pe);

        if (!t) {
                group_bad(p, o->key, "%s", pe->message);
                return FALSE;
        }
        for (guint j = 0; j < kept; j++) {
                if (!strcmp(items[j], t->name)) {
                        group_bad(p, o->key, "'%s' is the transport '%s', listed twice", *it, t->name);
                        return FALSE;
                }
        }
        *it = t->name;
        return TRUE;
}

static gboolean parse_option(const Ctx *c, const Option *o, Values *v)
{
        guint k = (guint) (o - experiment_options());
        const char *from;
        g_autofree char *value = lookup(c, o, &from);
        GroupParse p = { .kf = c->kf, .group = from ? from : "experiment", .report = report_option,
                         .ctx = (void *) c, .ok = true };
        OptionValue ov = { 0 };

        v->from[k] = from;
        if (!value) {
                if (o->required)
                        return experiment_fail(c, "experiment", o->key, "missing (%s)", o->help);
                return TRUE;
        }
        gboolean ok = option_parse(&p, o, value, &ov, transport_item, (void *) c);
        v->text[k] = ov.text;
        v->list[k] = ov.list;
        v->nums[k] = ov.nums;
        return ok;
}

bool experiment_valid_name(const char *s)
{
        if (!*s || strlen(s) > 64)
                return false;
        for (; *s; s++)
                if (!g_ascii_isalnum(*s) && *s != '-' && *s != '_')
                        return false;
        return true;
}

/* Checks the raw text for what GKeyFile would silently accept: bytes that
 * are not UTF-8, a group given twice, a key given twice in one group. */
static gboolean prescan(const Ctx *c, const char *text, gsize len)
{
        const char *bad = memchr(text, '\0', len);
        bool nul = bad != NULL;

        /* g_utf8_validate() stops at a NUL too: look for one first. */
        if (nul || !g_utf8_validate(text, (gssize) len, &bad)) {
                guint line = 1;
                for (const char *p = text; p < bad; p++)
                        line += *p == '\n';
                return experiment_fail_at(c, line, NULL, NULL, "%s",
                                          nul ? "contains a NUL byte" : "bytes that are not UTF-8");
        }

        g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
        g_autoptr(GHashTable) groups = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        g_autoptr(GHashTable) keys = NULL;
        g_autofree char *group = NULL;

        gboolean ok = TRUE;
        bool any_header = false;   /* keys after a broken header are not reported again */

        for (guint i = 0; lines[i]; i++) {
                char *l = g_strstrip(lines[i]);
                guint at = i + 1;

                if (l[0] == '\0' || l[0] == '#' || l[0] == ';')
                        continue;
                if (l[0] == '[') {
                        char *end = strchr(l, ']');
                        any_header = true;
                        g_clear_pointer(&group, g_free);
                        g_clear_pointer(&keys, g_hash_table_unref);
                        if (!end) {
                                ok = experiment_fail_at(c, at, NULL, NULL, "group header without ']'");
                                continue;
                        }
                        if (end == l + 1) {
                                ok = experiment_fail_at(c, at, NULL, NULL, "a group header without a name");
                                continue;
                        }
                        if (end[1] != '\0') {
                                ok = experiment_fail_at(c, at, NULL, NULL, "text after the group header's ']'");
                                continue;
                        }
                        group = g_strndup(l + 1, (gsize) (end - l - 1));
                        keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
                        if (g_hash_table_contains(groups, group))
                                ok = experiment_fail_at(c, at, group, NULL, "group given twice");
                        else
                                g_hash_table_add(groups, g_strdup(group));
                        continue;
                }
                char *eq = strchr(l, '=');
                if (!eq) {
                        ok = experiment_fail_at(c, at, group, NULL, "'%s' is not key=value", l);
                        continue;
                }
                if (!keys) {
                        if (!any_header)
                                ok = experiment_fail_at(c, at, NULL, NULL, "key before any group");
                        continue;
                }
                g_autofree char *key = g_strstrip(g_strndup(l, (gsize) (eq - l)));
                if (key[0] == '\0') {
                        ok = experiment_fail_at(c, at, group, NULL, "'%s' has no key before '='", l);
                        continue;
                }
                /* GKeyFile would take key[xx] as a translation of key and
                 * hide it from every lookup. */
                if (strpbrk(key, "[]")) {
                        ok = experiment_fail_at(c, at, group, key, "unknown key (no [locale] variants)");
                        continue;
                }
                if (g_hash_table_contains(keys, key)) {
                        ok = experiment_fail_at(c, at, group, key, "key given twice");
                        continue;
                }
                g_hash_table_add(keys, g_steal_pointer(&key));
        }
        return ok;
}

static Experiment *load_data(const char *file, const char *data, gsize len, const char *profile,
                             bool anywhere, GError **error);

static Experiment *load_file(const char *file, const char *profile, bool anywhere, GError **error)
{
        /* What is not a regular file of sane size, in its tree, is
         * refused before any read (safefile.h). */
        gsize len = 0;
        g_autofree char *text = safefile_read(file, "an experiment file", SAFEFILE_MAX_EXPERIMENT, &len, error);

        if (!text)
                return NULL;
        return load_data(file, text, len, profile, anywhere, error);
}

Experiment *experiment_load(const char *file, const char *profile, GError **error)
{
        return load_file(file, profile, false, error);
}

Experiment *experiment_load_anywhere(const char *file, GError **error)
{
        return load_file(file, NULL, true, error);
}

Experiment *experiment_load_measured(const char *file, const char *profile, GError **error)
{
        return load_file(file, profile, true, error);
}


/* Resolves the keys of C's [experiment] and profile into EXP: its run
 * parameters and its matrix of cells.  Every mistake is recorded in C. */
static gboolean resolve(const Ctx *c, Experiment *exp)
{
        Values v = { 0 };
        gboolean ok = TRUE;
        g_autoptr(GKeyFile) none = g_key_file_new();
        Ctx defaults = *c;

        /* A value with a mistake is reported, and its default (or its
         * good items) takes its place: the mistakes that do not depend on
         * it are found in the same pass.  The cells are then not what the
         * file means, and are dropped below. */
        defaults.kf = none;
        defaults.profile_group = NULL;
        for (size_t o = 0; o < experiment_n_options(); o++) {
                if (parse_option(c, &experiment_options()[o], &v))
                        continue;
                ok = FALSE;
                v.broken[o] = true;
                if (!v.list[o] && !v.text[o] && experiment_options()[o].def) {
                        const char *from = v.from[o];
                        g_clear_pointer(&v.nums[o], g_free);
                        parse_option(&defaults, &experiment_options()[o], &v);
                        v.from[o] = from;
                }
        }
        exp->title = g_strdup(v.text[experiment_opt_index("title")]);
        exp->source = g_strdup(v.text[experiment_opt_index("source")]);
        exp->repeat_auto = v.nums[experiment_opt_index("repeat")] == NULL;
        exp->repeat = exp->repeat_auto ? (guint) v.nums[experiment_opt_index("repeat_min")][0]
                                       : (guint) v.nums[experiment_opt_index("repeat")][0];
        exp->repeat_max = (guint) v.nums[experiment_opt_index("repeat_max")][0];
        exp->ci_target = (double) v.nums[experiment_opt_index("ci_target")][0] / 100.0;
        exp->auto_cap_ns = v.nums[experiment_opt_index("auto_cap")][0];
        bool repeats_broken = v.broken[experiment_opt_index("repeat")] ||
                              v.broken[experiment_opt_index("repeat_min")] ||
                              v.broken[experiment_opt_index("repeat_max")] ||
                              v.broken[experiment_opt_index("repeat_until")] ||
                              v.broken[experiment_opt_index("looks")];
        if (!repeats_broken && exp->repeat_auto && exp->repeat_max < exp->repeat)
                ok = experiment_fail(c, v.from[experiment_opt_index("repeat_max")]
                                     ? v.from[experiment_opt_index("repeat_max")] : "experiment",
                                     "repeat_max", "%u is less than repeat_min=%u", exp->repeat_max, exp->repeat);
        if (!repeats_broken && !experiment_resolve_looks(c, exp, &v))
                ok = FALSE;
        exp->warmup = (guint) v.nums[experiment_opt_index("warmup")][0];
        exp->timeout_ns = v.nums[experiment_opt_index("timeout")][0];
        exp->verify = !strcmp(v.text[experiment_opt_index("verify")], "true");
        exp->store_raw = !g_strcmp0(v.text[experiment_opt_index("store_latencies")], "raw");
        exp->seed = v.nums[experiment_opt_index("seed")][0];
        for (guint i = 0; v.list[experiment_opt_index("env")][i]; i++)
                exp->envs[exp->n_envs++] = (EnvKind) v.nums[experiment_opt_index("env")][i];
        exp->env = exp->envs[0];

        /* Without a transport there is nothing to expand. */
        if (v.list[experiment_opt_index("transport")] && !experiment_expand(c, exp, &v))
                ok = FALSE;
        if (ok && !experiment_check_repetitions(c, exp, &v))
                ok = FALSE;
        if (ok)
                experiment_resolved_echo(exp, &v);
        else
                g_ptr_array_set_size(exp->cells, 0);
        values_clear(&v);
        return ok;
}

static Experiment *experiment_new(const char *file, const char *name, const char *profile)
{
        Experiment *exp = g_new0(Experiment, 1);

        exp->path = g_strdup(file);
        exp->name = g_strdup(name);
        exp->profile = g_strdup(profile);
        exp->cells = g_ptr_array_new_with_free_func(g_free);
        exp->skipped = g_ptr_array_new_with_free_func(g_free);
        exp->claims = g_ptr_array_new_with_free_func((GDestroyNotify) experiment_claim_free);
        exp->outputs = g_ptr_array_new_with_free_func((GDestroyNotify) output_free);
        exp->numbers = g_ptr_array_new_with_free_func((GDestroyNotify) number_free);
        return exp;
}

/* Checks everything but the values: the name, the syntax, the groups and
 * their keys.  Returns FALSE when the rest cannot be read at all. */
static gboolean check_structure(Ctx *c, const char *base, const char *text, gsize len,
                                const char *profile)
{
        g_autoptr(GError) e = NULL;

        if (!g_str_has_suffix(base, ".ini"))
                return experiment_fail(c, NULL, NULL, "an experiment file's name ends in .ini");
        g_autofree char *name = g_strndup(base, strlen(base) - 4);
        if (!experiment_valid_name(name))
                return experiment_fail(c, NULL, NULL,
                                       "the experiment's name '%s' must be letters, digits, '-' or '_'", name);
        if (!prescan(c, text, len))
                return FALSE;
        if (!g_key_file_load_from_data(c->kf, text, len, G_KEY_FILE_NONE, &e))
                return experiment_fail(c, NULL, NULL, "%s", e->message);
        if (!g_key_file_has_group(c->kf, "experiment"))
                return experiment_fail(c, "experiment", NULL, "missing group");
        if (profile && !experiment_valid_name(profile)) {
                experiment_fail(c, NULL, NULL, "profile name '%s' must be letters, digits, '-' or '_'", profile);
                c->profile_group = NULL;
        } else if (profile && !g_key_file_has_group(c->kf, c->profile_group)) {
                experiment_fail(c, c->profile_group, NULL, "no such profile in this file");
                c->profile_group = NULL;
        }

        /* Every group and key must be known. */
        g_auto(GStrv) groups = g_key_file_get_groups(c->kf, NULL);
        for (guint i = 0; groups[i]; i++) {
                const char *g = groups[i];
                bool is_exp = !strcmp(g, "experiment");
                bool is_profile = g_str_has_prefix(g, "profile ");
                if (!is_exp && !is_profile && !g_str_has_prefix(g, "claim ") &&
                    !g_str_has_prefix(g, "figure ") && !g_str_has_prefix(g, "table ") &&
                    !g_str_has_prefix(g, "number ")) {
                        /* The kind of group is its first word. */
                        static const char *const kinds[] = { "experiment", "profile", "claim", "figure", "table",
                                                             "number", NULL };
                        g_autofree char *kind = g_strndup(g, strcspn(g, " "));
                        Suggest sg;
                        suggest_init(&sg, kind);
                        suggest_consider_all(&sg, kinds);
                        const char *best = suggest_best(&sg);
                        g_autofree char *hint = best ? g_strdup_printf("; did you mean [%s%s]?", best,
                                                                       g + strlen(kind)) : g_strdup("");
                        experiment_fail(c, g, NULL, "unknown group (allowed: experiment, profile NAME, claim NAME, "
                                        "figure NAME, table NAME, number NAME)%s", hint);
                        continue;
                }
                if (is_profile && !experiment_valid_name(g + strlen("profile "))) {
                        experiment_fail(c, g, NULL, "profile name must be letters, digits, '-' or '_'");
                        continue;
                }
                if (!is_exp && !is_profile)
                        continue;
                g_auto(GStrv) keys = g_key_file_get_keys(c->kf, g, NULL, NULL);
                for (guint k = 0; keys[k]; k++) {
                        const Option *o = option_find(keys[k]);
                        if (!o) {
                                Suggest sg;
                                suggest_init(&sg, keys[k]);
                                for (size_t i = 0; i < experiment_n_options(); i++)
                                        suggest_consider(&sg, experiment_options()[i].key);
                                g_autofree char *hint = suggest_hint(&sg);
                                experiment_fail(c, g, keys[k], "unknown key (`ipclab keys` lists them)%s", hint);
                                c->cells_unsure = true;
                        } else if (is_profile && (o->type == OPT_STRING && strcmp(o->key, "description")))
                                experiment_fail(c, g, keys[k], "a profile cannot change the %s", o->key);
                }
        }
        return TRUE;
}

/* Resolves EXP with C's profile, then every other profile of the file as
 * fully: a contradiction in [profile quick] is found before anyone runs
 * it.  (Whether a profile's cells can run here, and what its claims
 * select, is the business of the one chosen.) */
static void validate(const Ctx *c, Experiment *exp)
{
        gboolean ok = resolve(c, exp);
        g_auto(GStrv) groups = g_key_file_get_groups(c->kf, NULL);
        g_autoptr(GPtrArray) others = g_ptr_array_new_with_free_func((GDestroyNotify) experiment_free);
        g_autoptr(GStrvBuilder) names = g_strv_builder_new();

        for (guint i = 0; groups[i]; i++) {
                if (!g_str_has_prefix(groups[i], "profile ") || !experiment_valid_name(groups[i] + strlen("profile ")))
                        continue;
                g_strv_builder_add(names, groups[i] + strlen("profile "));
                if (c->profile_group && !strcmp(groups[i], c->profile_group))
                        continue;
                Ctx pc = *c;
                pc.profile_group = groups[i];
                Experiment *scratch = experiment_new(exp->path, exp->name, groups[i] + strlen("profile "));
                g_ptr_array_add(others, scratch);
                if (!resolve(&pc, scratch))
                        g_ptr_array_remove_index(others, others->len - 1);
        }
        exp->profiles = g_strv_builder_end(names);
        if (ok && exp->cells->len == 0) {
                g_autofree char *why = exp->skipped->len ? g_strdup_printf(" (%s)", (char *) exp->skipped->pdata[0]) : g_strdup("");
                experiment_fail(c, "experiment", "transport", "no cell can run here%s", why);
        }
        /* With a mistake in the axes (or an unknown key there: a typo of
         * one), what depends on the cells is left out; the claims, figures,
         * tables and numbers are checked for all the rest (figure.h). */
        if (!ok || c->cells_unsure)
                g_ptr_array_set_size(exp->cells, 0);
        /* The claims on the cells of every other profile too, when they
         * mean something on these: a profile may change the cells a claim
         * selects. */
        if (experiment_parse_claims(c, exp) && exp->cells->len)
                for (guint i = 0; i < others->len; i++) {
                        Experiment *o = others->pdata[i];
                        g_autofree char *group = g_strconcat("profile ", o->profile, NULL);
                        Ctx pc = *c;
                        pc.profile_group = group;
                        if (o->cells->len)
                                experiment_parse_claims(&pc, o);
                }
        experiment_parse_outputs(c, exp);
        experiment_parse_numbers(c, exp);
}

Experiment *experiment_load_data(const char *file, const char *data, gsize len,
                                 const char *profile, GError **error)
{
        return load_data(file, data, len, profile, false, error);
}

static gint mistake_cmp(gconstpointer a, gconstpointer b)
{
        const Mistake *x = a, *y = b;

        return x->line < y->line ? -1 : x->line > y->line;
}

static Experiment *load_data(const char *file, const char *data, gsize len, const char *profile,
                             bool anywhere, GError **error)
{
        /* DATA need not end in a NUL; what follows (g_strsplit, GKeyFile's
         * line scanner) wants one. */
        g_autofree char *text = g_malloc(len + 1);
        memcpy(text, data, len);
        text[len] = '\0';
        g_autoptr(GKeyFile) kf = g_key_file_new();
        g_autofree char *profile_group = profile ? g_strconcat("profile ", profile, NULL) : NULL;
        g_autoptr(GArray) errors = g_array_new(FALSE, FALSE, sizeof(Mistake));
        g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        Ctx c = { .file = file, .text = text, .kf = kf, .profile_group = profile_group,
                  .errors = errors, .seen = seen, .anywhere = anywhere };
        g_autofree char *base = g_path_get_basename(file);
        g_autoptr(Experiment) exp = NULL;

        if (check_structure(&c, base, text, len, profile)) {
                base[strlen(base) - 4] = '\0';
                exp = experiment_new(file, base, profile);
                exp->sha256 = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *) text, len);
                validate(&c, exp);
        }
        if (errors->len) {
                /* In line order (stable: a line's in the order found),
                 * what has no line (the file itself) first. */
                g_array_sort(errors, mistake_cmp);
                g_autoptr(GString) s = g_string_new(NULL);
                for (guint i = 0; i < errors->len; i++)
                        g_string_append_printf(s, "%s%s", i ? "\n" : "", g_array_index(errors, Mistake, i).text);
                const char *all = s->str;
                g_set_error_literal(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, all);
                return NULL;
        }
        /* A seeded shuffle (Fisher-Yates) so that drift and order do not
         * masquerade as differences between cells. */
        if (exp->seed) {
                g_autoptr(GRand) rng = g_rand_new_with_seed((guint32) (exp->seed ^ (exp->seed >> 32)));
                for (guint i = exp->cells->len; i > 1; i--) {
                        guint j = (guint) g_rand_int_range(rng, 0, (gint32) i);
                        gpointer tmp = exp->cells->pdata[i - 1];
                        exp->cells->pdata[i - 1] = exp->cells->pdata[j];
                        exp->cells->pdata[j] = tmp;
                }
        }
        return g_steal_pointer(&exp);
}


void experiment_set_env(Experiment *exp, EnvKind env)
{
        exp->env = exp->envs[0] = env;
        exp->n_envs = 1;
}

void experiment_free(Experiment *exp)
{
        if (!exp)
                return;
        g_free(exp->path);
        g_free(exp->name);
        g_free(exp->title);
        g_free(exp->source);
        g_free(exp->profile);
        g_free(exp->sha256);
        g_free(exp->resolved);
        g_free(exp->taken);
        if (exp->cells)
                g_ptr_array_unref(exp->cells);
        if (exp->skipped)
                g_ptr_array_unref(exp->skipped);
        if (exp->claims)
                g_ptr_array_unref(exp->claims);
        if (exp->outputs)
                g_ptr_array_unref(exp->outputs);
        g_strfreev(exp->profiles);
        if (exp->numbers)
                g_ptr_array_unref(exp->numbers);
        g_free(exp);
}
