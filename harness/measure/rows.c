/* rows.c: the rows a run keeps for --resume and a merge reads from
 * another place, held to what this build writes (rows.h). */
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

char *run_partial_path(const char *dir, const char *name, guint which)
{
        static const char *const suffix[RUN_N_PARTIALS] = { ".partial.tsv", ".partial-latencies.tsv" };
        g_autofree char *base = g_strconcat(".", name, suffix[which < RUN_N_PARTIALS ? which : 0], NULL);
        return g_build_filename(dir, base, NULL);
}

char *rows_partial_header(const Experiment *exp)
{
        return g_strdup_printf("# ipclab partial sha256=%s profile=%s\n%s", exp->sha256,
                               exp->profile ? exp->profile : "default", samples_header());
}


void rows_lat_free(LatRows *l)
{
        g_free(l->rows);
        g_free(l);
}

GHashTable *rows_lat_new(void)
{
        return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify) rows_lat_free);
}

/* Adds N values, without their rows, under KEY (taken). */
void rows_lat_add_key(GHashTable *lat, char *key, guint64 n)
{
        LatRows *l = g_new0(LatRows, 1);

        l->n = n;
        g_hash_table_replace(lat, key, l);
}

void rows_lat_add(GHashTable *lat, guint cell, guint rep, guint64 n, char *rows)
{
        LatRows *l = g_new(LatRows, 1);

        l->n = n;
        l->rows = rows;
        g_hash_table_replace(lat, g_strdup_printf("%u:%u", cell, rep), l);
}

/* ROW (a line of samples.tsv or a resume file, without its newline),
 * measured in ENV on MACHINE, held to what --resume holds every row it
 * keeps to, and a merge every row of another place's results: what this
 * build writes for that cell of EXP and a repetition below its most
 * (samples_parse_row), a repetition not in DONE already, and, when it
 * measured latencies, all of them in LAT (LatRows by key; LAT_PATH names
 * it in messages; NULL: not checked).  The key is PREFIX then "cell:rep".  Returns the key
 * (newly allocated; not added to DONE) and fills *S, *CELL and *REP, or
 * NULL with *WHY. */
char *rows_check(const Experiment *exp, const char *row, const char *env, const char *machine,
                 const char *prefix, GHashTable *done, GHashTable *lat, const char *lat_path, Sample *s,
                 const Cell **cell, guint *rep, char **why)
{
        guint max_rep = exp->repeat_auto ? exp->repeat_max : exp->repeat;

        if (!samples_parse_row(row, env, machine, exp->cells, max_rep, cell, rep, s, why))
                return NULL;
        g_autofree char *key = g_strdup_printf("%s%u:%u", prefix, (*cell)->index, *rep);
        const LatRows *l = lat ? g_hash_table_lookup(lat, key) : NULL;
        if (g_hash_table_contains(done, key)) {
                *why = g_strdup_printf("repetition %u of cell %u is already there", *rep, (*cell)->index);
                return NULL;
        }
        if (lat && s->status == 0 && s->lat_n && (!l || l->n != s->lat_n)) {
                *why = g_strdup_printf("%s of its %" G_GUINT64_FORMAT " latencies are in %s", l ? "not all" : "none",
                                       s->lat_n, lat_path);
                return NULL;
        }
        return g_steal_pointer(&key);
}

/* Whether NAME is one of EXP's environments. */
bool rows_exp_env(const Experiment *exp, const char *name)
{
        for (guint i = 0; i < exp->n_envs; i++)
                if (!strcmp(env_name(exp->envs[i]), name))
                        return true;
        return false;
}

char *run_partial_checked(const Experiment *exp, guint which, const char *text, gsize len)
{
        g_autofree char *copy = g_strndup(text, len);
        GString *out;

        if (which == 1) {
                g_autoptr(LatencyFile) f = latency_parse("a resume file of latencies", text, len, NULL);
                if (!f)
                        return NULL;
                out = g_string_new(LATENCY_HEADER);
                for (guint i = 0; i < f->parts->len; i++) {
                        const LatencyPart *p = f->parts->pdata[i];
                        if (rows_exp_env(exp, p->env) && machine_name_valid(p->machine) && p->cell < exp->cells->len)
                                g_string_append_len(out, text + p->offset, (gssize) p->length);
                }
                return g_string_free(out, FALSE);
        }
        g_autofree char *want = rows_partial_header(exp);
        if (!g_str_has_prefix(copy, want))
                return NULL;
        out = g_string_new(want);
        g_autoptr(GHashTable) done = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        g_autofree char *machine = NULL;
        char *p = copy + strlen(want);
        for (char *nl; (nl = strchr(p, '\n')); p = nl + 1) {
                *nl = '\0';
                /* Its own environment and machine, one machine in all. */
                g_auto(GStrv) f = g_strsplit(p, "\t", 5);
                if (g_strv_length(f) < 5 || !rows_exp_env(exp, f[2]) || !machine_name_valid(f[3]) ||
                    (machine && strcmp(machine, f[3])))
                        continue;
                if (!machine)
                        machine = g_strdup(f[3]);
                const Cell *cell;
                guint rep;
                Sample s;
                g_autofree char *why = NULL;
                g_autofree char *prefix = g_strdup_printf("%s\t", f[2]);
                /* Its latencies are the target's --resume's to check. */
                char *key = rows_check(exp, p, f[2], f[3], prefix, done, NULL, NULL, &s, &cell, &rep, &why);
                if (key) {
                        g_hash_table_add(done, key);
                        g_string_append_printf(out, "%s\n", p);
                }
        }
        return g_string_free(out, FALSE);
}
