/* experiment.c: experiment file -> validated Experiment -> matrix of cells.
 *
 * One option table (`options` below) describes every key of [experiment]:
 * its type, its allowed values, its default and its help.  Parsing,
 * validation, profile overrides, `ipclab check` and the resolved echo in
 * meta.ini all come from those rows.
 */
#include "experiment.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "figure.h"
#include "group.h"
#include "safefile.h"
#include "numbers.h"
#include "plugin.h"
#include "select.h"
#include "suggest.h"
#include "transport.h"
#include "metrics.h"
#include "verify.h"

G_DEFINE_QUARK(ipclab-error-quark, ipclab_error)

static const char *const runner_values[] = { "harness", "hyperfine", NULL };
static const char *const store_latencies_values[] = { "histogram", "raw", NULL };
static const char *const repeat_until_values[] = { "narrow", "decided", NULL };

#define MAX_SIZE ((guint64) 256 << 20)      /* 256 MiB: D-Bus allows 128 MiB */
#define MAX_COUNT ((guint64) 1000000000)    /* a billion messages */
#define MAX_DURATION ((guint64) 3600 * G_USEC_PER_SEC * 1000)
/* Repetitions of one cell: 10000 pin a median to a small fraction of its
 * spread, and what is kept of each (a row, a latency histogram of up to
 * 40 KiB) must fit what is read back: MAX_RUN_REPETITIONS in one run. */
#define MAX_REPEAT ((guint64) 10000)
/* Repetitions one run writes (cells x repeat, or repeat_max, x
 * environments): 10000 histograms of at most 40 KiB fit the 512 MiB a
 * latencies.tsv.gz may inflate to (latency.h), 10000 rows the 64 MiB of a
 * samples.tsv many times over, and summarize takes them in a second. */
#define MAX_RUN_REPETITIONS ((guint64) 10000)
/* Latency values a run with store_latencies=raw keeps (a row of about
 * 30 bytes each at most), within the same 512 MiB. */
#define MAX_RUN_RAW_VALUES ((guint64) 16 << 20)
/* The values one repetition keeps at most (runner.c: 32 MiB of them). */
#define MAX_KEPT_PER_REPETITION ((guint64) 4194304)

static const Option options[] = {
        { "title", OPT_STRING, NULL, NULL, true, 0, 0,
          "what the experiment measures, in one line" },
        { "source", OPT_STRING, NULL, NULL, false, 0, 0,
          "the published document it follows (a file in shared/seeds)" },
        { "description", OPT_STRING, NULL, NULL, false, 0, 8000,
          "longer free text" },
        { "transport", OPT_TRANSPORTS, NULL, NULL, true, 0, 0,
          "axis: transports (see `ipclab list`)" },
        { "bus", OPT_ENUMS, axis_bus_values, "dbus-daemon", false, 0, 0,
          "axis, D-Bus transports only: dbus-daemon, dbus-broker, p2p" },
        { "payload", OPT_ENUMS, axis_payload_values, "bytes", false, 0, 0,
          "axis: bytes (D-Bus ay) or string (D-Bus s)" },
        { "size", OPT_SIZES, NULL, "64", false, 1, MAX_SIZE,
          "axis: payload bytes per message (64, 4KiB, 1MiB)" },
        { "pattern", OPT_ENUMS, axis_pattern_values, "roundtrip", false, 0, 0,
          "axis: oneway, roundtrip, callrate" },
        { "reply", OPT_ENUMS, axis_reply_values, "echo", false, 0, 0,
          "axis, round trips: echo the payload, reply empty, or short (the string OK; gdbus)" },
        { "marshal", OPT_ENUMS, axis_marshal_values, "array", false, 0, 0,
          "axis: array (whole), per-element (append and read per byte), append-per-element "
          "(append per byte, read whole) for D-Bus ay; copy (gdbus strings built with g_variant_new)" },
        { "cpus", OPT_ENUMS, axis_cpus_values, "none", false, 0, 0,
          "axis: none (unpinned), same (one CPU), split (two CPUs)" },
        /* No default value: a file without the key keeps the
         * config_sha256 it had before the key existed (processes). */
        { "roles", OPT_ENUMS, axis_roles_values, NULL, false, 0, 0,
          "axis: processes (client and server each a forked process; the default) or threads "
          "(two threads of one forked process), for the transports that can (see `ipclab check`)" },
        { "count", OPT_UINTS, NULL, NULL, false, 1, MAX_COUNT,
          "axis: messages per repetition (exactly one of count and duration)" },
        { "duration", OPT_DURATIONS, NULL, NULL, false, 1000, MAX_DURATION,
          "axis: time box per repetition, 500ms (exactly one of count and duration)" },
        { "repeat", OPT_REPEAT, NULL, "5", false, 1, MAX_REPEAT,
          "repetitions of every cell, or auto: until the median's 95% CI is narrow enough" },
        { "repeat_min", OPT_UINT, NULL, "5", false, 2, MAX_REPEAT,
          "repeat=auto: repetitions before the CI is first looked at" },
        { "repeat_max", OPT_UINT, NULL, "30", false, 2, MAX_REPEAT,
          "repeat=auto: the most repetitions of one cell" },
        { "ci_target", OPT_PERCENT, NULL, "2%", false, 1, 100,
          "repeat=auto: the CI half-width to reach, in per cent of the median" },
        { "auto_cap", OPT_DURATION, NULL, "5m", false, 1000000, MAX_DURATION,
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
        { "timeout", OPT_DURATION, NULL, "60s", false, 1000000, MAX_DURATION,
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
        { "env", OPT_ENUMS, axis_env_values, "host", false, 0, 0,
          "where it runs: host, nspawn, vm; a list runs every cell in each (--env picks one)" },
};

/* The keys of a [claim NAME] group, as parse_claim reads them. */
static const struct {
        const char *key;
        const char *type;
        const char *def;            /* NULL: required */
        const char *help;
} claim_keys[] = {
        { "text", "text", NULL, "the claim as the paper states it, one line" },
        { "faster", "selector", NULL, "the cells that should be faster: axis=value[,axis=value] (transport=pipe)" },
        { "slower", "selector", NULL, "the cells they are compared with; each faster cell pairs with the slower "
          "cells that agree with it on the axes neither names" },
        { "metric", "name", NULL, "roundtrip_latency, elapsed, throughput, callrate or cpu" },
        { "by", "factor >= 1", "1", "how many times faster every pair must be (1: direction only)" },
        { "where", "selector", "every cell", "which cells the claim is about (size>=4KiB)" },
};


/* experiment.h */
char *experiment_key_help(void)
{
        GString *s = g_string_new(NULL);

        for (size_t i = 0; i < G_N_ELEMENTS(options); i++) {
                const Option *o = &options[i];
                /* A profile changes what is measured, not what it is. */
                bool profile = o->type != OPT_STRING || !strcmp(o->key, "description");
                option_help(s, profile ? "experiment,profile" : "experiment", o);
        }
        for (size_t i = 0; i < G_N_ELEMENTS(claim_keys); i++) {
                g_autofree char *def = claim_keys[i].def ? g_strdup_printf("default %s", claim_keys[i].def)
                                                         : g_strdup("required");
                g_string_append_printf(s, "%-18s %-17s %s; %s; %s\n", "claim", claim_keys[i].key, claim_keys[i].type,
                                       def, claim_keys[i].help);
        }
        return g_string_free(s, FALSE);
}

static const Option *option_find(const char *key)
{
        for (size_t i = 0; i < G_N_ELEMENTS(options); i++)
                if (strcmp(options[i].key, key) == 0)
                        return &options[i];
        return NULL;
}

/* A parsing context: the file and where we are in it, for messages.
 * Mistakes are collected, not returned one at a time: every independent
 * one in the file is reported in one pass. */
typedef struct {
        const char *file;
        const char *text;            /* the file's text, NUL-ended: for line numbers */
        GKeyFile *kf;
        const char *profile_group;   /* "profile quick" or NULL */
        GArray *errors;              /* Mistake, in the order found */
        GHashTable *seen;            /* the messages, not to repeat one */
        bool anywhere;               /* keep cells this machine cannot run */
        bool cells_unsure;           /* an unknown key in [experiment] or a
                                      * profile: the cells are not what the
                                      * file means, so what depends on them
                                      * (a claim's cells, a figure's axes)
                                      * is not checked */
} Ctx;

/* One mistake: reported in line order (the order found, on one line). */
typedef struct {
        guint line;
        char *text;                  /* "FILE:LINE: [group] key: message" */
} Mistake;

/* The line (from 1) of KEY in GROUP of TEXT, or of GROUP's header when
 * KEY is NULL; 0 when it is not there (a default, a missing key). */
static guint find_line(const char *text, const char *group, const char *key)
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

static gboolean fail_at(const Ctx *c, guint line, const char *group,
                        const char *key, const char *fmt, ...) G_GNUC_PRINTF(5, 6);
static gboolean fail(const Ctx *c, const char *group,
                     const char *key, const char *fmt, ...) G_GNUC_PRINTF(4, 5);

static void add_error(const Ctx *c, guint line, const char *group, const char *key,
                      const char *fmt, va_list ap) G_GNUC_PRINTF(5, 0);

static void add_error(const Ctx *c, guint line, const char *group, const char *key,
                      const char *fmt, va_list ap)
{
        g_autofree char *msg = g_strdup_vprintf(fmt, ap);
        /* A key that is not in the file (missing, a default): the line
         * of its group. */
        if (!line && group)
                line = find_line(c->text, group, NULL);
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
static gboolean fail_at(const Ctx *c, guint line, const char *group,
                        const char *key, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        add_error(c, line, group, key, fmt, ap);
        va_end(ap);
        return FALSE;
}

/* Records a mistake in KEY of GROUP, at the line where the file has it. */
static gboolean fail(const Ctx *c, const char *group,
                     const char *key, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        add_error(c, find_line(c->text, group, key), group, key, fmt, ap);
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

/* Parsed values of every option, by option index. */
typedef struct {
        char **list[G_N_ELEMENTS(options)];      /* list options: the items */
        guint64 *nums[G_N_ELEMENTS(options)];    /* numeric lists/scalars */
        char *text[G_N_ELEMENTS(options)];       /* scalars as text */
        const char *from[G_N_ELEMENTS(options)];
        bool broken[G_N_ELEMENTS(options)];      /* a mistake in its value: its
                                                  * default (if any) in its place */
} Values;

static void values_clear(Values *v)
{
        for (size_t i = 0; i < G_N_ELEMENTS(options); i++) {
                g_strfreev(v->list[i]);
                g_free(v->nums[i]);
                g_free(v->text[i]);
        }
}

static guint opt_index(const char *key)
{
        return (guint) (option_find(key) - options);
}

/* A mistake in a value of [experiment] or a profile: at its key's line. */
static void report_option(void *ctx, const char *group, const char *key, const char *msg)
{
        fail(ctx, group, key, "%s", msg);
}

/* Item *IT of a list of transports (the items before it: KEPT of ITEMS):
 * a name, or plugin:PATH (plugin.h), which the cells know by its
 * transport's name. */
static gboolean transport_item(GroupParse *p, const Option *o, char **items, guint kept, const char **it,
                               void *data)
{
        const Ctx *c = data;
        g_autoptr(GError) pe = NULL;
        const Transport *t = plugin_resolve(*it, c->file, c->anywhere, &pe);

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
        guint k = (guint) (o - options);
        const char *from;
        g_autofree char *value = lookup(c, o, &from);
        GroupParse p = { .kf = c->kf, .group = from ? from : "experiment", .report = report_option,
                         .ctx = (void *) c, .ok = true };
        OptionValue ov = { 0 };

        v->from[k] = from;
        if (!value) {
                if (o->required)
                        return fail(c, "experiment", o->key, "missing (%s)", o->help);
                return TRUE;
        }
        gboolean ok = option_parse(&p, o, value, &ov, transport_item, (void *) c);
        v->text[k] = ov.text;
        v->list[k] = ov.list;
        v->nums[k] = ov.nums;
        return ok;
}

static bool valid_name(const char *s)
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
                return fail_at(c, line, NULL, NULL, "%s",
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
                                ok = fail_at(c, at, NULL, NULL, "group header without ']'");
                                continue;
                        }
                        if (end == l + 1) {
                                ok = fail_at(c, at, NULL, NULL, "a group header without a name");
                                continue;
                        }
                        if (end[1] != '\0') {
                                ok = fail_at(c, at, NULL, NULL, "text after the group header's ']'");
                                continue;
                        }
                        group = g_strndup(l + 1, (gsize) (end - l - 1));
                        keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
                        if (g_hash_table_contains(groups, group))
                                ok = fail_at(c, at, group, NULL, "group given twice");
                        else
                                g_hash_table_add(groups, g_strdup(group));
                        continue;
                }
                char *eq = strchr(l, '=');
                if (!eq) {
                        ok = fail_at(c, at, group, NULL, "'%s' is not key=value", l);
                        continue;
                }
                if (!keys) {
                        if (!any_header)
                                ok = fail_at(c, at, NULL, NULL, "key before any group");
                        continue;
                }
                g_autofree char *key = g_strstrip(g_strndup(l, (gsize) (eq - l)));
                if (key[0] == '\0') {
                        ok = fail_at(c, at, group, NULL, "'%s' has no key before '='", l);
                        continue;
                }
                /* GKeyFile would take key[xx] as a translation of key and
                 * hide it from every lookup. */
                if (strpbrk(key, "[]")) {
                        ok = fail_at(c, at, group, key, "unknown key (no [locale] variants)");
                        continue;
                }
                if (g_hash_table_contains(keys, key)) {
                        ok = fail_at(c, at, group, key, "key given twice");
                        continue;
                }
                g_hash_table_add(keys, g_steal_pointer(&key));
        }
        return ok;
}

static void claim_free(Claim *cl)
{
        g_free(cl->name);
        g_free(cl->text);
        g_free(cl->faster);
        g_free(cl->slower);
        g_free(cl->metric);
        g_free(cl->where);
        g_free(cl);
}

int experiment_cell_matches(const Cell *cell, const char *selector)
{
        g_autoptr(Selector) s = select_parse(selector, SELECT_AXES, NULL);

        return s ? select_cell(s, cell) : -1;
}

/* experiment.h */
bool experiment_selector_unavailable(const Experiment *exp, const char *selector)
{
        g_auto(GStrv) parts = g_strsplit(selector, ",", -1);

        for (guint i = 0; parts[i]; i++) {
                const char *p = g_strstrip(parts[i]);
                if (g_str_has_prefix(p, "transport=")) {
                        const Transport *t = transport_find(g_strstrip((char *) p + strlen("transport=")));
                        if (t && transport_unavailable(t))
                                return true;
                } else if (exp && exp->profile && g_str_has_prefix(p, "env=")) {
                        bool runs = false;
                        for (guint e = 0; e < exp->n_envs; e++)
                                runs |= !strcmp(env_name(exp->envs[e]), p + strlen("env="));
                        if (!runs)
                                return true;
                }
        }
        return false;
}

/* A claim's text, as the claims table prints it: one line LaTeX can
 * typeset (figure_text_problem), at most 500 bytes, and not beginning
 * with '[', which LaTeX takes, right after the command before it (an
 * \item), for an optional argument that runs on to a ']'. */
static gboolean check_claim_text(const Ctx *c, const char *g, const char *text)
{
        const char *why = figure_text_problem(text, 500);

        if (why)
                return fail(c, g, "text", "%s", why);
        if (text[0] == '[')
                return fail(c, g, "text", "begins with '[', which LaTeX reads as the start of an optional argument: "
                            "reword it");
        return TRUE;
}

/* The checks of a claim before measuring (verify.h): refused when it
 * cannot mean anything on EXP's cells, or, without a profile, when the
 * repetitions EXP gives cannot decide it (a profile runs the same cells
 * with less work: `ipclab check` says what its claims can decide). */
static gboolean check_claim_design(const Ctx *c, const Experiment *exp, const Claim *cl, const char *g)
{
        VerifyDesign d;
        const char *key = NULL;
        g_autoptr(GError) e = NULL;

        if (!verify_claim_design(exp, cl, &d, &key, &e)) {
                g_autofree char *with = exp->profile ? g_strdup_printf(" (with [profile %s])", exp->profile)
                                                     : g_strdup("");
                return fail(c, g, key, "%s%s", e->message, with);
        }
        g_autofree char *why = exp->profile ? NULL : verify_design_refusal(&d);
        if (why)
                return fail(c, g, NULL, "%s", why);
        return TRUE;
}

/* Parses [claim NAME] group G into a new claim of EXP: every mistake in
 * it reported; what depends on the cells (which a side selects, its
 * pairs) only when the rest is right and EXP has cells. */
static gboolean parse_claim(const Ctx *c, Experiment *exp, const char *g)
{
        g_auto(GStrv) keys = g_key_file_get_keys(c->kf, g, NULL, NULL);
        Claim *cl = g_new0(Claim, 1);
        gboolean ok = TRUE;

        g_ptr_array_add(exp->claims, cl);
        cl->name = g_strdup(g + strlen("claim "));
        if (!valid_name(cl->name))
                ok = fail(c, g, NULL, "claim name must be letters, digits, '-' or '_'");
        for (guint k = 0; keys[k]; k++) {
                Suggest sg;
                g_autoptr(GString) allowed = g_string_new(NULL);
                bool known = false;
                suggest_init(&sg, keys[k]);
                for (size_t i = 0; i < G_N_ELEMENTS(claim_keys); i++) {
                        known |= !strcmp(claim_keys[i].key, keys[k]);
                        suggest_consider(&sg, claim_keys[i].key);
                        g_string_append_printf(allowed, "%s%s", i ? ", " : "", claim_keys[i].key);
                }
                g_autofree char *hint = suggest_hint(&sg);
                if (!known)
                        ok = fail(c, g, keys[k], "unknown key (allowed: %s)%s", allowed->str, hint);
        }

        const char *str_keys[] = { "text", "faster", "slower", "metric", "where" };
        char **fields[] = { &cl->text, &cl->faster, &cl->slower, &cl->metric, &cl->where };
        for (guint k = 0; k < G_N_ELEMENTS(str_keys); k++) {
                g_autofree char *raw = g_key_file_get_value(c->kf, g, str_keys[k], NULL);
                bool required = false;
                for (size_t i = 0; i < G_N_ELEMENTS(claim_keys); i++)
                        required |= !strcmp(claim_keys[i].key, str_keys[k]) && !claim_keys[i].def;
                if (!raw) {
                        if (required)
                                ok = fail(c, g, str_keys[k], "missing");
                        continue;
                }
                g_autofree char *v = experiment_clean_value(raw);
                if (v[0] == '\0')
                        ok = fail(c, g, str_keys[k], "empty value");
                else
                        *fields[k] = g_steal_pointer(&v);
        }
        if (cl->text && !check_claim_text(c, g, cl->text))
                ok = FALSE;
        if (cl->metric && !metric_find_claim(cl->metric)) {
                /* The metrics claims may use: the registry's (metrics.h). */
                g_autofree char *hint = suggest_hint_among(cl->metric, metric_claim_names());
                g_autofree char *allowed = metric_claim_list();
                ok = fail(c, g, "metric", "unknown metric '%s' (allowed: %s)%s", cl->metric, allowed, hint);
        }
        if (cl->where) {
                g_autoptr(GError) we = NULL;
                g_autoptr(Selector) w = select_parse(cl->where, SELECT_AXES, &we);
                if (!w)
                        ok = fail(c, g, "where", "%s", we->message);
        }
        g_autofree char *by = g_key_file_get_value(c->kf, g, "by", NULL);
        cl->by = 1.0;
        if (by) {
                g_autofree char *v = experiment_clean_value(by);
                char *end;
                cl->by = g_ascii_strtod(v, &end);
                if (*end || !(cl->by >= 1.0) || !isfinite(cl->by))
                        ok = fail(c, g, "by", "'%s' is not a factor >= 1", v);
        }
        const char *sel_keys[] = { "faster", "slower" };
        const char *sels[] = { cl->faster, cl->slower };
        for (guint s = 0; s < 2; s++) {
                g_autoptr(GError) se = NULL;
                g_autoptr(Selector) sel = sels[s] ? select_parse(sels[s], SELECT_AXES, &se) : NULL;
                guint matched = 0;
                if (!sels[s])
                        continue;
                if (!sel) {
                        ok = fail(c, g, sel_keys[s], "%s", se->message);
                        continue;
                }
                for (guint j = 0; j < exp->cells->len; j++)
                        matched += select_cell(sel, exp->cells->pdata[j]);
                if (exp->cells->len && !matched && !experiment_selector_unavailable(exp, sels[s]))
                        ok = fail(c, g, sel_keys[s], "'%s' names no cell of this experiment", sels[s]);
        }
        if (!ok || !exp->cells->len)
                return ok;
        return check_claim_design(c, exp, cl, g);
}

/* Every claim group, each checked whatever the others hold. */
static gboolean parse_claims(const Ctx *c, Experiment *exp)
{
        g_auto(GStrv) groups = g_key_file_get_groups(c->kf, NULL);
        gboolean ok = TRUE;

        for (guint i = 0; groups[i]; i++)
                if (g_str_has_prefix(groups[i], "claim ") && !parse_claim(c, exp, groups[i]))
                        ok = FALSE;
        return ok;
}

/* A mistake in a figure or table: at its key's line, or at the group's
 * header when the key is missing. */
static void report_output(void *ctx, const char *group, const char *key, const char *msg)
{
        const Ctx *c = ctx;
        guint line = key ? find_line(c->text, group, key) : 0;

        fail_at(c, line ? line : find_line(c->text, group, NULL), group, key, "%s", msg);
}

/* Where published= files are: data/published/ of the study the file is
 * in (experiments/X.ini -> data/published/), else of the working
 * directory. */
static char *published_dir(const char *file)
{
        g_autofree char *dir = g_path_get_dirname(file);
        g_autofree char *up = g_path_get_dirname(dir);
        char *pub = g_build_filename(up, "data", "published", NULL);

        if (g_file_test(pub, G_FILE_TEST_IS_DIR))
                return pub;
        g_free(pub);
        return g_build_filename("data", "published", NULL);
}

/* also= of O names an experiment whose file is beside EXP's, as the build
 * needs (its summary is made from data/ALSO when experiments/ALSO.ini is
 * there).  Asked by `ipclab check` and `ipclab run`, not where a file is
 * read to draw from data that exists (ANYWHERE: ipclab plot, table and
 * --list-outputs, whose caller says what it has). */
static void check_also_file(const Ctx *c, const Experiment *exp, const Output *o)
{
        g_autofree char *dir = g_path_get_dirname(exp->path);
        g_autofree char *base = o->also ? g_strconcat(o->also, ".ini", NULL) : NULL;
        g_autofree char *path = base ? g_build_filename(dir, base, NULL) : NULL;
        struct stat st;

        if (!c->anywhere && path && (stat(path, &st) < 0 || !S_ISREG(st.st_mode)))
                fail(c, o->group, "also", "no experiment '%s' (no file %s)", o->also, path);
}

/* Every figure and table group, each checked whatever the others hold;
 * the defaults when there is none. */
static void parse_outputs(const Ctx *c, Experiment *exp)
{
        g_auto(GStrv) groups = g_key_file_get_groups(c->kf, NULL);
        g_autofree char *pub = published_dir(c->file);
        bool any = false;

        for (guint i = 0; groups[i]; i++) {
                if (!g_str_has_prefix(groups[i], "figure ") && !g_str_has_prefix(groups[i], "table "))
                        continue;
                any = true;
                Output *o = figure_parse(c->kf, groups[i], exp, pub, report_output, (void *) c);
                if (o) {
                        o->line = find_line(c->text, groups[i], NULL);
                        g_ptr_array_add(exp->outputs, o);
                        check_also_file(c, exp, o);
                }
        }
        if (!any)
                figure_defaults(exp, exp->outputs);
}

/* Every number group (numbers.h), each checked whatever the others hold;
 * each key's line kept for the mistakes `ipclab numbers` finds later. */
static void parse_numbers(const Ctx *c, Experiment *exp)
{
        g_auto(GStrv) groups = g_key_file_get_groups(c->kf, NULL);
        g_autofree char *pub = published_dir(c->file);

        for (guint i = 0; groups[i]; i++) {
                if (!g_str_has_prefix(groups[i], "number "))
                        continue;
                Number *n = numbers_parse(c->kf, groups[i], exp, pub, report_output, (void *) c);
                if (!n)
                        continue;
                n->line = find_line(c->text, groups[i], NULL);
                n->lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
                g_auto(GStrv) keys = g_key_file_get_keys(c->kf, groups[i], NULL, NULL);
                for (guint k = 0; keys && keys[k]; k++)
                        g_hash_table_insert(n->lines, g_strdup(keys[k]),
                                            GUINT_TO_POINTER(find_line(c->text, groups[i], keys[k])));
                for (guint k = 0; k < exp->numbers->len; k++)
                        if (!strcmp(((Number *) exp->numbers->pdata[k])->macro, n->macro))
                                fail_at(c, n->line, groups[i], NULL, "its macro \\%s is also [%s]'s", n->macro,
                                        ((Number *) exp->numbers->pdata[k])->group);
                g_ptr_array_add(exp->numbers, n);
        }
}

/* How a skipped cell's reason says that its size is too large: what
 * experiment_skipped_parse() reads back. */
#define EXCEEDS_LIMIT " exceeds the transport's limit of "

gboolean experiment_skipped_parse(const char *line, char **transport, guint64 *size, guint64 *limit)
{
        const char *colon = strstr(line, ": ");
        if (!colon || colon == line)
                return FALSE;
        g_autofree char *desc = g_strndup(line, (gsize) (colon - line));
        g_auto(GStrv) words = g_strsplit(desc, " ", -1);
        *size = 0;
        *limit = 0;
        for (guint i = 1; words[i]; i++)
                if (g_str_has_prefix(words[i], "size=") &&
                    !g_ascii_string_to_unsigned(words[i] + 5, 10, 0, G_MAXUINT64, size, NULL))
                        return FALSE;
        const char *ex = strstr(colon, EXCEEDS_LIMIT);
        if (ex)
                *limit = g_ascii_strtoull(ex + strlen(EXCEEDS_LIMIT), NULL, 10);
        *transport = g_strdup(words[0]);
        return TRUE;
}

/* Can CELL run on this machine?  ANYWHERE: whether its transport is
 * available here (a library, a tool such as hyperfine) is not asked. */
static bool cell_supported(const Transport *t, const Cell *cell, bool anywhere, char **why)
{
        const char *u = !anywhere ? transport_unavailable(t) : NULL;

        if (u) {
                *why = g_strdup_printf("unavailable here: %s", u);
                return false;
        }
        size_t max = transport_max_size(t, cell);
        if (max && cell->size > max) {
                *why = g_strdup_printf("size %" G_GUINT64_FORMAT EXCEEDS_LIMIT "%zu bytes", cell->size, max);
                return false;
        }
        return true;
}

/* Why T cannot do CELL's marshal= or reply= value, or NULL when it can. */
static const char *cell_refused(const Transport *t, const Cell *cell)
{
        switch (cell->marshal) {
        case MARSHAL_ARRAY:
                break;
        case MARSHAL_PER_ELEMENT:
                if (!(t->flags & TRANSPORT_MARSHAL) || cell->payload != PAYLOAD_BYTES)
                        return "per-element marshalling applies to D-Bus byte arrays only";
                break;
        case MARSHAL_APPEND_PER_ELEMENT:
                if (!(t->flags & TRANSPORT_MARSHAL) || cell->payload != PAYLOAD_BYTES)
                        return "append-per-element marshalling applies to D-Bus byte arrays only";
                break;
        case MARSHAL_COPY:
                if (!(t->flags & TRANSPORT_COPY_STRING))
                        return "marshal=copy applies to gdbus only (the other transports' strings are copied anyway)";
                if (cell->payload != PAYLOAD_STRING)
                        return "marshal=copy applies to string payloads only";
                break;
        }
        if (cell->reply == REPLY_SHORT && !(t->flags & TRANSPORT_SHORT_REPLY))
                return "reply=short (the string OK) applies to gdbus only";
        return transport_refuses(t, cell);
}

/* Steps AT, one index per cell axis below N, to the next combination,
 * the last axis fastest; false after the last. */
static bool next_combination(const guint *n, guint *at)
{
        for (size_t i = axis_count; i-- > 0;) {
                if (axis_table[i].type == AXIS_PLACE)
                        continue;
                if (++at[i] < n[i])
                        return true;
                at[i] = 0;
        }
        return false;
}

/* Expands the axes into the filtered cartesian product. */
static gboolean expand(const Ctx *c, Experiment *exp, Values *v)
{
        guint it = opt_index("transport"), ib = opt_index("bus"), ip = opt_index("payload"),
              is = opt_index("size"), ipt = opt_index("pattern"), ir = opt_index("reply"),
              im = opt_index("marshal"), icn = opt_index("count"),
              idu = opt_index("duration"), iro = opt_index("roles");
        bool have_count = v->list[icn] != NULL, have_dur = v->list[idu] != NULL;
        bool any_dbus = false, any_marshal = false, any_copy = false, any_short = false;
        g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        g_autoptr(GHashTable) skipped = g_hash_table_new(g_str_hash, g_str_equal);

#define FROM(i) (v->from[i] ? v->from[i] : "experiment")
        gboolean ok = TRUE;
        /* (Not when either has a mistake of its own.) */
        bool counts_broken = v->broken[icn] || v->broken[idu];
        if (have_count && have_dur && !counts_broken)
                ok = fail(c, FROM(idu), "duration", "exactly one of count= and duration= must be given"
                          " (count= is in [%s])", FROM(icn));
        else if (!have_count && !have_dur && !counts_broken)
                ok = fail(c, "experiment", "count", "exactly one of count= and duration= must be given");

        guint nt = g_strv_length(v->list[it]);
        for (guint i = 0; i < nt; i++) {
                const Transport *t = transport_find(v->list[it][i]);
                any_dbus |= (t->flags & TRANSPORT_DBUS) != 0;
                any_marshal |= (t->flags & TRANSPORT_MARSHAL) != 0;
                any_copy |= (t->flags & TRANSPORT_COPY_STRING) != 0;
                any_short |= (t->flags & TRANSPORT_SHORT_REPLY) != 0;
        }
        bool hyperfine = !strcmp(v->text[opt_index("runner")], "hyperfine");
        for (guint i = 0; i < nt; i++) {
                const Transport *t = transport_find(v->list[it][i]);
                bool command = (t->flags & TRANSPORT_COMMAND) != 0;
                if (command && !hyperfine)
                        ok = fail(c, FROM(it), "transport",
                                  "'%s' is a whole command: it needs runner=hyperfine", t->name);
                if (!command && hyperfine)
                        ok = fail(c, FROM(opt_index("runner")), "runner",
                                  "hyperfine runs whole commands (dbus-send, gdbus-call, busctl-call), not '%s'", t->name);
        }
        if (v->from[ib] && !any_dbus)
                ok = fail(c, v->from[ib], "bus", "applies only to D-Bus transports, and none is listed");
        for (guint i = 0; v->list[im][i]; i++) {
                Marshal m = (Marshal) v->nums[im][i];
                if ((m == MARSHAL_PER_ELEMENT || m == MARSHAL_APPEND_PER_ELEMENT) && !any_marshal)
                        ok = fail(c, FROM(im), "marshal",
                                  "%s marshalling applies only to D-Bus transports, and none is listed",
                                  marshal_name(m));
                if (m == MARSHAL_COPY && !any_copy)
                        ok = fail(c, FROM(im), "marshal",
                                  "copy applies only to a transport whose own strings borrow the buffer (gdbus), "
                                  "and none is listed");
        }
        /* roles=threads that no transport listed can run: say why each
         * cannot, rather than leave every such cell out. */
        for (guint i = 0; v->list[iro] && v->list[iro][i]; i++) {
                if (v->nums[iro][i] != ROLES_THREADS)
                        continue;
                g_autoptr(GString) why = g_string_new(NULL);
                bool can = false;
                for (guint k = 0; k < nt && !can; k++) {
                        const Transport *t = transport_find(v->list[it][k]);
                        const char *no = transport_threads_refused(t);
                        can = no == NULL;
                        if (no)
                                g_string_append_printf(why, "%s%s (%s)", k ? "; " : "", t->name,
                                                       no + strlen("roles=threads: "));
                }
                if (!can)
                        ok = fail(c, FROM(iro), "roles",
                                  "threads: no transport listed can run its client and server as two threads of one "
                                  "process: %s", why->str);
        }
        for (guint i = 0; v->list[ir][i]; i++)
                if (v->nums[ir][i] == REPLY_SHORT && !any_short)
                        ok = fail(c, FROM(ir), "reply",
                                  "short (a string reply) applies only to gdbus, and it is not listed");
        for (guint i = 0; v->list[ib][i]; i++)
                if (any_dbus && v->nums[ib][i] == BUS_NONE)
                        ok = fail(c, FROM(ib), "bus", "'none' is not a bus for D-Bus transports");
        for (guint i = 0; v->list[ip][i]; i++)
                if (v->nums[ip][i] == PAYLOAD_NONE)
                        ok = fail(c, FROM(ip), "payload", "'none' is implied by pattern=callrate; use bytes or string");

        /* A key given in the file that no pattern listed uses cannot mean
         * what it says: refuse it rather than drop it silently. */
        bool any_roundtrip = false, any_payload = false;
        for (guint i = 0; v->list[ipt][i]; i++) {
                any_roundtrip |= v->nums[ipt][i] == PATTERN_ROUNDTRIP;
                any_payload |= v->nums[ipt][i] != PATTERN_CALLRATE;
        }
        if (v->from[ir] && !any_roundtrip) {
                g_autofree char *pats = g_strjoinv(";", v->list[ipt]);
                ok = fail(c, v->from[ir], "reply", "applies to round trips only, and pattern=%s has none", pats);
        }
        if (!any_payload) {
                const guint keys[] = { ip, is };
                for (guint k = 0; k < G_N_ELEMENTS(keys); k++)
                        if (v->from[keys[k]])
                                ok = fail(c, v->from[keys[k]], options[keys[k]].key,
                                          "pattern=callrate carries no payload, so %s cannot apply", options[keys[k]].key);
        }

        /* Memory: a payload, its echo and a receive buffer per side; and
         * the round-trip latency buffer of count entries. */
        guint64 mem = (guint64) sysconf(_SC_PHYS_PAGES) * (guint64) sysconf(_SC_PAGESIZE);
        for (guint i = 0; v->list[is][i]; i++)
                if (v->nums[is][i] * 8 > mem)
                        ok = fail(c, FROM(is), "size",
                                  "'%s' is more than this machine's memory allows", v->list[is][i]);
        bool any_latency = false;
        for (guint i = 0; v->list[ipt][i]; i++)
                any_latency |= v->nums[ipt][i] != PATTERN_ONEWAY;
        if (have_count && any_latency)
                for (guint i = 0; v->list[icn][i]; i++)
                        if (v->nums[icn][i] * sizeof(guint64) * 4 > mem)
                                ok = fail(c, FROM(icn), "count",
                                          "'%s' latencies are more than this machine's memory holds", v->list[icn][i]);
#undef FROM
        if (!ok || (!have_count && !have_dur))
                return FALSE;

        /* The cartesian product of the cell axes, the last one
         * (axis_table's order) varying fastest; an axis the file leaves
         * out (roles: no default, so that the config hash of a file
         * without it stays) holds its first value. */
        guint nv[AXIS_MAX], at[AXIS_MAX] = { 0 };
        guint opt[AXIS_MAX];
        for (size_t i = 0; i < axis_count; i++) {
                if (axis_table[i].type == AXIS_PLACE)
                        continue;
                opt[i] = opt_index(axis_key(&axis_table[i]));
                nv[i] = v->list[opt[i]] ? g_strv_length(v->list[opt[i]]) : 1;
        }
        for (bool more = true; more; more = next_combination(nv, at)) {
                const Transport *t = NULL;
                Cell cell = { 0 };
                for (size_t i = 0; i < axis_count; i++) {
                        const Axis *a = &axis_table[i];
                        if (a->type == AXIS_PLACE)
                                continue;
                        if (a->type == AXIS_TRANSPORT) {
                                t = transport_find(v->list[opt[i]][at[i]]);
                                cell.transport = t->name;
                                continue;
                        }
                        bool takes = !a->takes || (t->flags & a->takes);
                        axis_set(a, &cell, takes && v->list[opt[i]] ? v->nums[opt[i]][at[i]] : 0);
                }
                g_autofree char *why = NULL;

                if (cell.pattern == PATTERN_CALLRATE) {
                        cell.payload = PAYLOAD_NONE;
                        cell.size = 0;
                        cell.reply = REPLY_EMPTY;
                        cell.marshal = MARSHAL_ARRAY;
                }
                if (cell.pattern == PATTERN_ONEWAY)
                        cell.reply = REPLY_ECHO;
                const char *no = cell_refused(t, &cell);
                if (no) {
                        g_autofree char *d = cell_describe(&cell);
                        char *line = g_strdup_printf("%s: %s", d, no);
                        if (g_hash_table_contains(skipped, line)) {
                                g_free(line);
                        } else {
                                g_ptr_array_add(exp->skipped, line);
                                g_hash_table_add(skipped, line);
                        }
                        continue;
                }
                if (t->flags & TRANSPORT_COMMAND) {
                        const char *no = cell.bus == BUS_P2P ? "command-line tools call through a bus, not peer to peer"
                                       : cell.payload != PAYLOAD_STRING ? "commands carry a string payload (payload=string)"
                                       : cell.pattern != PATTERN_ROUNDTRIP ? "a command makes one call and waits for its reply (pattern=roundtrip)"
                                       : cell.size > 4096 ? "a command line carries at most 4 KiB of payload"
                                       : NULL;
                        if (no) {
                                g_autofree char *d = cell_describe(&cell);
                                g_ptr_array_add(exp->skipped, g_strdup_printf("%s: %s", d, no));
                                continue;
                        }
                        cell.reply = REPLY_EMPTY;
                }
                char *key = axis_cell_key(&cell);
                if (g_hash_table_contains(seen, key)) {
                        g_free(key);
                        continue;
                }
                g_hash_table_add(seen, key);
                if (!cell_supported(t, &cell, c->anywhere, &why)) {
                        g_autofree char *d = cell_describe(&cell);
                        g_ptr_array_add(exp->skipped, g_strdup_printf("%s: %s", d, why));
                        continue;
                }
                Cell *copy = g_memdup2(&cell, sizeof cell);
                copy->index = exp->cells->len;
                g_ptr_array_add(exp->cells, copy);
        }
        /* A plugin whose refuses() or max_size() crashed cannot be
         * trusted with the cells it let through. */
        for (guint i = 0; i < nt; i++) {
                const char *why = plugin_failure(transport_find(v->list[it][i]));
                if (why)
                        ok = fail(c, v->from[it] ? v->from[it] : "experiment", "transport", "%s", why);
        }
        return ok;
}

static void resolved_echo(Experiment *exp, Values *v)
{
        GString *s = g_string_new(NULL);

        for (size_t i = 0; i < G_N_ELEMENTS(options); i++) {
                if (v->list[i]) {
                        g_autofree char *j = g_strjoinv(";", v->list[i]);
                        g_string_append_printf(s, "%s=%s\n", options[i].key, j);
                } else if (v->text[i]) {
                        g_string_append_printf(s, "%s=%s\n", options[i].key, v->text[i]);
                }
        }
        exp->resolved = g_string_free(s, FALSE);
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

/* repeat_until= and looks= (verify.h): the look schedule of a sequential
 * design, given or from repeat_min and repeat_max (doubling). */
static gboolean resolve_looks(const Ctx *c, Experiment *exp, const Values *v)
{
        guint iu = opt_index("repeat_until"), il = opt_index("looks");
        const char *until = v->text[iu];
        const char *from = v->from[il] ? v->from[il] : "experiment";

        exp->repeat_decide = until && !strcmp(until, "decided");
        if (until && !exp->repeat_auto)
                return fail(c, v->from[iu], "repeat_until", "applies only with repeat=auto");
        if (v->list[il] && !exp->repeat_decide)
                return fail(c, from, "looks", "applies only with repeat=auto and repeat_until=decided");
        if (!exp->repeat_decide)
                return TRUE;
        if (v->list[il]) {
                guint n = g_strv_length(v->list[il]);
                if (n > EXPERIMENT_MAX_LOOKS)
                        return fail(c, from, "looks", "%u looks: at most %d", n, EXPERIMENT_MAX_LOOKS);
                for (guint i = 0; i < n; i++) {
                        if (i && v->nums[il][i] <= v->nums[il][i - 1])
                                return fail(c, from, "looks", "'%s' does not increase: each look has more "
                                            "repetitions than the one before", v->list[il][i]);
                        exp->looks[exp->n_looks++] = (guint) v->nums[il][i];
                }
                if (v->from[opt_index("repeat_min")] || v->from[opt_index("repeat_max")])
                        return fail(c, from, "looks", "sets the first and the most repetitions: give it "
                                    "without repeat_min= and repeat_max=");
                exp->repeat = exp->looks[0];
                exp->repeat_max = exp->looks[exp->n_looks - 1];
                return TRUE;
        }
        for (guint n = exp->repeat; exp->n_looks < EXPERIMENT_MAX_LOOKS; n *= 2) {
                if (n >= exp->repeat_max || exp->n_looks == EXPERIMENT_MAX_LOOKS - 1) {
                        exp->looks[exp->n_looks++] = exp->repeat_max;
                        break;
                }
                exp->looks[exp->n_looks++] = n;
        }
        return TRUE;
}

Experiment *experiment_load_measured(const char *file, const char *profile, GError **error)
{
        return load_file(file, profile, true, error);
}

/* What one run of EXP keeps must fit what is read back (see
 * MAX_RUN_REPETITIONS and MAX_RUN_RAW_VALUES). */
static gboolean check_repetitions(const Ctx *c, const Experiment *exp, const Values *v)
{
        guint64 per_cell = exp->repeat_auto ? exp->repeat_max : exp->repeat;
        guint64 total = (guint64) exp->cells->len * per_cell * exp->n_envs;
        const char *key = exp->repeat_auto ? "repeat_max" : "repeat";
        const char *from = v->from[opt_index(key)] ? v->from[opt_index(key)] : "experiment";

        if (total > MAX_RUN_REPETITIONS)
                return fail(c, from, key, "%u cells x %" G_GUINT64_FORMAT " repetitions x %u environments = %"
                            G_GUINT64_FORMAT " repetitions, more than the %" G_GUINT64_FORMAT " one run may keep "
                            "(a latency histogram of up to 40 KiB each, and latencies.tsv.gz is read up to 512 MiB): "
                            "fewer repetitions, or split the file", exp->cells->len, per_cell, exp->n_envs, total,
                            MAX_RUN_REPETITIONS);
        if (!exp->store_raw)
                return TRUE;
        guint64 values = 0;
        for (guint i = 0; i < exp->cells->len; i++) {
                const Cell *cell = exp->cells->pdata[i];
                guint64 n = cell->count && cell->count < MAX_KEPT_PER_REPETITION ? cell->count : MAX_KEPT_PER_REPETITION;
                values += n * per_cell * exp->n_envs;
        }
        if (values > MAX_RUN_RAW_VALUES)
                return fail(c, v->from[opt_index("store_latencies")] ? v->from[opt_index("store_latencies")] : "experiment",
                            "store_latencies", "raw keeps up to %" G_GUINT64_FORMAT " values in this run, more than the %"
                            G_GUINT64_FORMAT " latencies.tsv.gz can hold (512 MiB): histogram, or fewer messages",
                            values, MAX_RUN_RAW_VALUES);
        return TRUE;
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
        for (size_t o = 0; o < G_N_ELEMENTS(options); o++) {
                if (parse_option(c, &options[o], &v))
                        continue;
                ok = FALSE;
                v.broken[o] = true;
                if (!v.list[o] && !v.text[o] && options[o].def) {
                        const char *from = v.from[o];
                        g_clear_pointer(&v.nums[o], g_free);
                        parse_option(&defaults, &options[o], &v);
                        v.from[o] = from;
                }
        }
        exp->title = g_strdup(v.text[opt_index("title")]);
        exp->source = g_strdup(v.text[opt_index("source")]);
        exp->repeat_auto = v.nums[opt_index("repeat")] == NULL;
        exp->repeat = exp->repeat_auto ? (guint) v.nums[opt_index("repeat_min")][0]
                                       : (guint) v.nums[opt_index("repeat")][0];
        exp->repeat_max = (guint) v.nums[opt_index("repeat_max")][0];
        exp->ci_target = (double) v.nums[opt_index("ci_target")][0] / 100.0;
        exp->auto_cap_ns = v.nums[opt_index("auto_cap")][0];
        bool repeats_broken = v.broken[opt_index("repeat")] || v.broken[opt_index("repeat_min")] ||
                              v.broken[opt_index("repeat_max")] || v.broken[opt_index("repeat_until")] ||
                              v.broken[opt_index("looks")];
        if (!repeats_broken && exp->repeat_auto && exp->repeat_max < exp->repeat)
                ok = fail(c, v.from[opt_index("repeat_max")] ? v.from[opt_index("repeat_max")] : "experiment",
                          "repeat_max", "%u is less than repeat_min=%u", exp->repeat_max, exp->repeat);
        if (!repeats_broken && !resolve_looks(c, exp, &v))
                ok = FALSE;
        exp->warmup = (guint) v.nums[opt_index("warmup")][0];
        exp->timeout_ns = v.nums[opt_index("timeout")][0];
        exp->verify = !strcmp(v.text[opt_index("verify")], "true");
        exp->store_raw = !g_strcmp0(v.text[opt_index("store_latencies")], "raw");
        exp->seed = v.nums[opt_index("seed")][0];
        for (guint i = 0; v.list[opt_index("env")][i]; i++)
                exp->envs[exp->n_envs++] = (EnvKind) v.nums[opt_index("env")][i];
        exp->env = exp->envs[0];

        /* Without a transport there is nothing to expand. */
        if (v.list[opt_index("transport")] && !expand(c, exp, &v))
                ok = FALSE;
        if (ok && !check_repetitions(c, exp, &v))
                ok = FALSE;
        if (ok)
                resolved_echo(exp, &v);
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
        exp->claims = g_ptr_array_new_with_free_func((GDestroyNotify) claim_free);
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
                return fail(c, NULL, NULL, "an experiment file's name ends in .ini");
        g_autofree char *name = g_strndup(base, strlen(base) - 4);
        if (!valid_name(name))
                return fail(c, NULL, NULL, "the experiment's name '%s' must be letters, digits, '-' or '_'", name);
        if (!prescan(c, text, len))
                return FALSE;
        if (!g_key_file_load_from_data(c->kf, text, len, G_KEY_FILE_NONE, &e))
                return fail(c, NULL, NULL, "%s", e->message);
        if (!g_key_file_has_group(c->kf, "experiment"))
                return fail(c, "experiment", NULL, "missing group");
        if (profile && !valid_name(profile)) {
                fail(c, NULL, NULL, "profile name '%s' must be letters, digits, '-' or '_'", profile);
                c->profile_group = NULL;
        } else if (profile && !g_key_file_has_group(c->kf, c->profile_group)) {
                fail(c, c->profile_group, NULL, "no such profile in this file");
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
                        fail(c, g, NULL, "unknown group (allowed: experiment, profile NAME, claim NAME, "
                             "figure NAME, table NAME, number NAME)%s", hint);
                        continue;
                }
                if (is_profile && !valid_name(g + strlen("profile "))) {
                        fail(c, g, NULL, "profile name must be letters, digits, '-' or '_'");
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
                                for (size_t i = 0; i < G_N_ELEMENTS(options); i++)
                                        suggest_consider(&sg, options[i].key);
                                g_autofree char *hint = suggest_hint(&sg);
                                fail(c, g, keys[k], "unknown key (`ipclab keys` lists them)%s", hint);
                                c->cells_unsure = true;
                        } else if (is_profile && (o->type == OPT_STRING && strcmp(o->key, "description")))
                                fail(c, g, keys[k], "a profile cannot change the %s", o->key);
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
                if (!g_str_has_prefix(groups[i], "profile ") || !valid_name(groups[i] + strlen("profile ")))
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
                fail(c, "experiment", "transport", "no cell can run here%s", why);
        }
        /* With a mistake in the axes (or an unknown key there: a typo of
         * one), what depends on the cells is left out; the claims, figures,
         * tables and numbers are checked for all the rest (figure.h). */
        if (!ok || c->cells_unsure)
                g_ptr_array_set_size(exp->cells, 0);
        /* The claims on the cells of every other profile too, when they
         * mean something on these: a profile may change the cells a claim
         * selects. */
        if (parse_claims(c, exp) && exp->cells->len)
                for (guint i = 0; i < others->len; i++) {
                        Experiment *o = others->pdata[i];
                        g_autofree char *group = g_strconcat("profile ", o->profile, NULL);
                        Ctx pc = *c;
                        pc.profile_group = group;
                        if (o->cells->len)
                                parse_claims(&pc, o);
                }
        parse_outputs(c, exp);
        parse_numbers(c, exp);
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

char *experiment_config_sha256(const Experiment *exp)
{
        g_autoptr(GString) s = g_string_new(NULL);
        g_auto(GStrv) lines = g_strsplit(exp->resolved ? exp->resolved : "", "\n", -1);

        for (guint i = 0; lines[i]; i++) {
                if (!*lines[i] || g_str_has_prefix(lines[i], "title=") || g_str_has_prefix(lines[i], "source=") ||
                    g_str_has_prefix(lines[i], "env="))
                        continue;
                g_string_append_printf(s, "%s\n", lines[i]);
        }
        /* Where it runs, as run (--env replaces the file's list). */
        g_string_append(s, "env=");
        for (guint i = 0; i < exp->n_envs; i++)
                g_string_append_printf(s, "%s%s", i ? ";" : "", env_name(exp->envs[i]));
        g_string_append_c(s, '\n');
        for (guint c = 0; c < exp->cells->len; c++) {
                g_autofree char *d = cell_describe(exp->cells->pdata[c]);
                g_string_append_printf(s, "cell %u %s\n", ((const Cell *) exp->cells->pdata[c])->index, d);
        }
        /* A plugin is what its file holds: another build is another
         * measurement (none of this for ipclab's own transports, so their
         * hashes are what they were). */
        g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
        for (guint c = 0; c < exp->cells->len; c++) {
                const char *name = ((const Cell *) exp->cells->pdata[c])->transport;
                const Transport *t = transport_find(name);
                g_autofree char *id = t && g_hash_table_add(seen, (gpointer) name) ? plugin_identity(t) : NULL;
                if (id)
                        g_string_append_printf(s, "plugin %s\n", id);
        }
        return g_compute_checksum_for_string(G_CHECKSUM_SHA256, s->str, (gssize) s->len);
}

static gint cell_index_cmp(gconstpointer a, gconstpointer b)
{
        const Cell *x = *(const Cell *const *) a, *y = *(const Cell *const *) b;

        return x->index < y->index ? -1 : x->index > y->index;
}

GPtrArray *experiment_cells_in_run_order(const Experiment *exp)
{
        /* Not g_ptr_array_copy: that would free the cells too. */
        GPtrArray *cells = g_ptr_array_sized_new(exp->cells->len);

        g_ptr_array_extend(cells, exp->cells, NULL, NULL);
        return cells;
}

GPtrArray *experiment_cells_in_file_order(const Experiment *exp)
{
        GPtrArray *cells = experiment_cells_in_run_order(exp);

        g_ptr_array_sort(cells, cell_index_cmp);
        return cells;
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
