/* merge.c: the results of several places (environments, machines) made
 * one OUT_DIR/<experiment>/ (run.h: run_merge). */
#include "rows.h"
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "estimate.h"
#include "history.h"
#include "latency.h"
#include "meta.h"
#include "runner.h"
#include "safefile.h"
#include "samples.h"
#include "stats.h"
#include "transport.h"
#include "verify.h"

/* Copies the groups of FROM into TO, each renamed "<group> SUFFIX" (or as
 * they are when SUFFIX is NULL).  MACHINES: FROM is one machine's, whose
 * "[machine NAME]" groups keep their names and whose [machine] is in
 * them already.  Else FROM is another environment's on the first one's
 * machine: its [machine NAME] is left out. */
static void merge_groups(GKeyFile *to, GKeyFile *from, const char *suffix, bool machines)
{
        g_auto(GStrv) groups = g_key_file_get_groups(from, NULL);

        for (guint i = 0; groups[i]; i++) {
                bool own = machines && g_str_has_prefix(groups[i], "machine ");
                if (suffix && machines && !strcmp(groups[i], "machine"))
                        continue;
                /* Another environment is on the same machine, whose group
                 * the first one gave; what it saw is its [machine ENV]. */
                if (suffix && !machines && g_str_has_prefix(groups[i], "machine "))
                        continue;
                g_autofree char *name = suffix && !own ? g_strconcat(groups[i], " ", suffix, NULL)
                                                       : g_strdup(groups[i]);
                g_auto(GStrv) keys = g_key_file_get_keys(from, groups[i], NULL, NULL);
                for (guint k = 0; keys && keys[k]; k++) {
                        g_autofree char *v = g_key_file_get_value(from, groups[i], keys[k], NULL);
                        g_key_file_set_value(to, name, keys[k], v);
                }
        }
}

/* The cells of ANY (every cell of the file: experiment_load_measured)
 * that the rows of TEXT (samples.tsv) are of, indexed as the run that
 * wrote them indexed them: a machine indexes the cells it can run, in the
 * file's order, so one that cannot run some (a library missing there)
 * numbers the rest otherwise than we would.  A row of no cell of ANY is
 * left for rows_check() to refuse.  A new array of new cells. */
static GPtrArray *cells_as_run(const Experiment *any, const char *text)
{
        g_autoptr(GHashTable) by_axes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        g_autoptr(GHashTable) present = g_hash_table_new(g_direct_hash, g_direct_equal);
        g_autofree const Cell **in_order = g_new0(const Cell *, any->cells->len);
        Sample none = { .status = -EIO };
        GPtrArray *cells = g_ptr_array_new_with_free_func(g_free);

        for (guint i = 0; i < any->cells->len; i++) {
                const Cell *c = any->cells->pdata[i];
                g_autoptr(GString) row = g_string_new(NULL);
                samples_append_row(row, "-", "-", c, 0, &none);
                g_string_truncate(row, row->len - 1);
                g_hash_table_insert(by_axes, samples_cell_axes(row->str), (gpointer) c);
                if (c->index < any->cells->len)
                        in_order[c->index] = c;
        }
        g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
        for (guint i = 1; lines[i]; i++) {
                g_autofree char *axes = samples_cell_axes(lines[i]);
                const Cell *c = axes ? g_hash_table_lookup(by_axes, axes) : NULL;
                if (c)
                        g_hash_table_add(present, (gpointer) c);
        }
        for (guint i = 0; i < any->cells->len; i++) {
                if (!in_order[i] || !g_hash_table_contains(present, in_order[i]))
                        continue;
                Cell *copy = g_memdup2(in_order[i], sizeof(Cell));
                copy->index = cells->len;
                g_ptr_array_add(cells, copy);
        }
        return cells;
}

/* Checks the results of one place (WHO) before they are merged: every
 * row of samples.tsv TEXT (at SP) as --resume checks a row (row_check),
 * in ENV (or, when ENV is NULL, in one of EXP's environments) on
 * MACHINE, and every part of the latencies LAT_TEXT (LAT_LEN bytes, at
 * LP) a repetition of those rows.  DONE collects the rows' keys of every
 * place.  FALSE with IPCLAB_ERROR_INPUT naming the file, the line and
 * what is wrong: the results are refused whole. */
static gboolean merge_check(const Experiment *exp, const Experiment *any, const char *who, const char *sp,
                            const char *text, const char *lp, const char *lat_text, gsize lat_len, const char *env,
                            const char *machine, GHashTable *done, GError **error)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(LatencyFile) f = latency_parse(lp, lat_text, lat_len, &e);
        if (!f) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "results of %s from %s: %s", exp->name, who,
                            e->message);
                return FALSE;
        }
        g_autoptr(GHashTable) lat = rows_lat_new();
        for (guint i = 0; i < f->parts->len; i++) {
                const LatencyPart *p = f->parts->pdata[i];
                if ((env ? strcmp(p->env, env) : !rows_exp_env(exp, p->env)) || strcmp(p->machine, machine)) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "results of %s from %s: %s:%u: env %.64s, machine %.64s: not where they ran (%s, %s)",
                                    exp->name, who, lp, p->line, p->env, p->machine, env ? env : "its environments",
                                    machine);
                        return FALSE;
                }
                g_autofree char *key = g_strdup_printf("%s\t%s\t%u:%u", p->env, p->machine, p->cell, p->rep);
                LatRows *l = g_hash_table_lookup(lat, key);
                if (l)
                        l->n += p->n;
                else
                        rows_lat_add_key(lat, g_steal_pointer(&key), p->n);
        }
        g_autoptr(GPtrArray) cells = cells_as_run(any, text);
        Experiment as_run = *exp;
        as_run.cells = cells;
        g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
        for (guint i = 1; lines[i] && lines[i][0]; i++) {
                g_auto(GStrv) fields = g_strsplit(lines[i], "\t", 5);
                const char *row_env = g_strv_length(fields) >= 5 ? fields[2] : "";
                const Cell *cell;
                guint rep;
                Sample s;
                g_autofree char *why = NULL;
                g_autofree char *prefix = g_strdup_printf("%s\t%s\t", row_env, machine);
                char *key = NULL;
                if (env ? strcmp(row_env, env) : !rows_exp_env(exp, row_env))
                        why = g_strdup_printf("env '%.64s' is not where it ran (%s)", row_env,
                                              env ? env : "the experiment's environments");
                else
                        key = rows_check(&as_run, lines[i], row_env, machine, prefix, done, lat, lp, &s, &cell, &rep,
                                         &why);
                if (!key) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "results of %s from %s: %s:%u: %s: refused (a row --resume would drop)", exp->name,
                                    who, sp, i + 1, why);
                        return FALSE;
                }
                g_hash_table_add(done, key);
        }
        GHashTableIter it;
        gpointer k;
        g_hash_table_iter_init(&it, lat);
        while (g_hash_table_iter_next(&it, &k, NULL))
                if (!g_hash_table_contains(done, k)) {
                        g_autofree char *shown = g_strescape(k, NULL);
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "results of %s from %s: %s: latencies of %s, a repetition %s does not hold: refused",
                                    exp->name, who, lp, shown, sp);
                        return FALSE;
                }
        return TRUE;
}

/* What run_merge() gathers from the places, in order. */
typedef struct {
        GString *rows;      /* samples.tsv */
        GString *lat_rows;  /* latencies.tsv.gz */
        GKeyFile *meta;
        GPtrArray *names;   /* each place's label, as [run] lists them */
        GHashTable *done;   /* the rows' keys (merge_check) */
        const char *staging;
} MergeAcc;

/* Copies the console logs of DIR into the staging directory STAGING:
 * console.log becomes console-LABEL.log, console-REST.log
 * console-LABEL-REST.log. */
static void merge_console_logs(const char *dir, const char *staging, const char *label)
{
        g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
        for (const char *f; d && (f = g_dir_read_name(d));) {
                if (!g_str_has_prefix(f, "console") || !g_str_has_suffix(f, ".log") ||
                    strspn(f, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") != strlen(f))
                        continue;
                gsize log_len = 0;
                g_autofree char *from = g_build_filename(dir, f, NULL);
                g_autofree char *log = safefile_read(from, "a console log", SAFEFILE_MAX_LOG, &log_len, NULL);
                if (!log)
                        continue;
                g_autofree char *lname = g_strdup_printf("console-%s%s", label, f + strlen("console"));
                if (!strcmp(f, "console.log")) {
                        g_free(lname);
                        lname = g_strdup_printf("console-%s.log", label);
                }
                g_autofree char *lp = g_build_filename(staging, lname, NULL);
                samples_write_atomic(lp, log, log_len);
        }
}

/* The label of place I (DIRS[I], named WHO) whose meta.ini M (at MP) was
 * read: with MACHINES the machine its run recorded, which no place
 * before it (ACC->names) may have; else LABELS[I], the environment.  NULL
 * with ERROR. */
static char *merge_label(const Experiment *exp, const MergeAcc *acc, const char *const *dirs,
                         const char *const *labels, guint i, bool machines, GKeyFile *m, const char *mp,
                         GError **error)
{
        /* A machine is named by what its own run recorded, as
         * IPCLAB_MACHINE may name one; every value is one line. */
        const char *who = labels ? labels[i] : dirs[i];
        g_autofree char *label = machines ? g_key_file_get_string(m, "run", "machine", NULL) : g_strdup(labels[i]);
        if (!meta_check_values(m, mp, error) || (machines && !machine_name_valid(label))) {
                if (!(error && *error))
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "results of %s from %s: %s: [run] machine is %s, not a machine name (1 to "
                                    "64 letters, digits, '-', '_', '.')", exp->name, who, mp,
                                    label ? "not one" : "missing");
                else
                        g_prefix_error(error, "results of %s from %s: ", exp->name, who);
                return NULL;
        }
        for (guint k = 0; k < acc->names->len; k++) {
                if (!strcmp(acc->names->pdata[k], label)) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "%s and %s are the same machine, %s (its host name): one machine "
                                    "measured twice is not two machines; name them apart by their host "
                                    "names, or measure it once", labels ? labels[k] : dirs[k],
                                    labels ? labels[i] : dirs[i], label);
                        return NULL;
                }
        }
        return g_steal_pointer(&label);
}

/* Adds the results of place I (DIRS[I]/<experiment>/) to ACC, checked
 * whole first (merge_check).  False with ERROR. */
static bool merge_place(const Experiment *exp, const Experiment *any, MergeAcc *acc, const char *const *dirs,
                        const char *const *labels, guint i, bool machines, GError **error)
{
        g_autofree char *dir = g_build_filename(dirs[i], exp->name, NULL);
        g_autofree char *sp = g_build_filename(dir, "samples.tsv", NULL);
        g_autofree char *mp = g_build_filename(dir, "meta.ini", NULL);
        g_autoptr(GError) e = NULL;
        g_autofree char *text = safefile_read(sp, "a samples.tsv", SAFEFILE_MAX_TABLE, NULL, &e);
        g_autoptr(GKeyFile) m = text ? safefile_key_file(mp, &e) : NULL;
        const char *who = labels ? labels[i] : dirs[i];
        if (!m) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "results of %s from %s: %s", exp->name, who,
                            e->message);
                return false;
        }
        char *label = merge_label(exp, acc, dirs, labels, i, machines, m, mp, error);
        if (!label)
                return false;
        g_ptr_array_add(acc->names, label);
        if (!g_str_has_prefix(text, samples_header())) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO,
                            "%s: not the columns this harness writes (another version of ipclab?)", sp);
                return false;
        }
        /* The latencies likewise: each environment's rows say
         * which it is. */
        g_autofree char *lp = g_build_filename(dir, LATENCY_FILE, NULL);
        gsize lat_len = 0;
        g_autofree char *lat_text = latency_read_text(lp, &lat_len, &e);
        if (!lat_text || !g_str_has_prefix(lat_text, LATENCY_HEADER)) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "results of %s in %s: %s", exp->name, label,
                            lat_text ? "latencies.tsv.gz has another header" : e->message);
                return false;
        }
        /* Nothing is merged that --resume would not keep. */
        if (!merge_check(exp, any, who, sp, text, lp, lat_text, lat_len, machines ? NULL : labels[i],
                         machines ? label : meta_machine_name(), acc->done, error))
                return false;
        char *body = strchr(text, '\n');
        g_string_append(acc->rows, body ? body + 1 : "");
        g_string_append_len(acc->lat_rows, lat_text + strlen(LATENCY_HEADER),
                            (gssize) (lat_len - strlen(LATENCY_HEADER)));
        merge_groups(acc->meta, m, i == 0 ? NULL : label, machines);
        merge_console_logs(dir, acc->staging, label);
        return true;
}

/* Writes what ACC gathered into its staging directory and swaps that in
 * for FINAL; a negative errno when it cannot. */
static int merge_write(const MergeAcc *acc, const char *final)
{
        g_autofree char *ini = g_key_file_to_data(acc->meta, NULL, NULL);
        g_autofree char *sp = g_build_filename(acc->staging, "samples.tsv", NULL);
        g_autofree char *mp = g_build_filename(acc->staging, "meta.ini", NULL);
        g_autofree char *lp = g_build_filename(acc->staging, LATENCY_FILE, NULL);
        int r = samples_write_atomic(sp, acc->rows->str, acc->rows->len);
        if (r >= 0)
                r = latency_write(lp, acc->lat_rows->str, acc->lat_rows->len);
        if (r >= 0)
                r = samples_write_atomic(mp, ini, strlen(ini));
        if (r >= 0) {
                /* The staging directory may hold console logs: swap it in
                 * whole; the old one goes to history (history.h). */
                r = history_replace_dir(acc->staging, final);
        }
        return r;
}

int run_merge(const Experiment *exp, const char *out_dir, const char *const *dirs, const char *const *labels,
              bool machines, char **merged, GError **error)
{
        g_autoptr(GHashTable) done = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        g_autoptr(Experiment) any = experiment_load_measured(exp->path, exp->profile, error);
        if (!any)
                return RUN_ERROR;
        if (strcmp(any->sha256, exp->sha256)) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s changed while it ran: not merged", exp->path);
                return RUN_ERROR;
        }
        g_autoptr(GString) rows = g_string_new(samples_header());
        g_autoptr(GString) lat_rows = g_string_new(LATENCY_HEADER);
        g_autoptr(GKeyFile) meta = g_key_file_new();
        g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
        g_autofree char *staging_name = g_strconcat(".", exp->name, ".new", NULL);
        g_autofree char *staging = g_build_filename(out_dir, staging_name, NULL);
        g_autofree char *final = g_build_filename(out_dir, exp->name, NULL);
        MergeAcc acc = { .rows = rows, .lat_rows = lat_rows, .meta = meta, .names = names, .done = done,
                         .staging = staging };

        history_keep_leftover(staging, final);
        if (mkdir(staging, 0755) < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "cannot create %s: %s", staging, g_strerror(errno));
                return RUN_ERROR;
        }
        for (guint i = 0; dirs[i]; i++) {
                if (!merge_place(exp, any, &acc, dirs, labels, i, machines, error)) {
                        samples_remove_dir(staging);
                        return RUN_ERROR;
                }
        }
        g_ptr_array_add(names, NULL);
        g_autofree char *list = g_strjoinv(";", (char **) names->pdata);
        g_key_file_set_string(meta, "run", machines ? "machines" : "envs", list);
        int r = merge_write(&acc, final);
        if (r < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "cannot write the results of %s into %s: %s; %s is unchanged",
                            exp->name, out_dir, g_strerror(-r), final);
                samples_remove_dir(staging);
                return RUN_ERROR;
        }
        if (merged)
                *merged = g_steal_pointer(&list);
        return RUN_OK;
}
