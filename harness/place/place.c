/* place.c: where an experiment runs (place.h): in each of its
 * environments (the EnvOps of env/), at each place (the PlaceOps of
 * local.c, remote.c, slurm.c), staged and merged into one result
 * (run_merge). */
#include "place.h"

#include <errno.h>
#include <string.h>

#include "env/env.h"
#include "progress.h"
#include "samples.h"

#define PLACE_OPS_ROW_(id, name) [PLACE_##id] = &place_ops_##name,
static const PlaceOps *const place_table[PLACE_COUNT] = { PLACES(PLACE_OPS_ROW_) };
#undef PLACE_OPS_ROW_

const PlaceOps *place_ops(PlaceKind kind)
{
        return place_table[kind];
}

int place_kind_of(const char *name)
{
        for (PlaceKind k = 0; k < PLACE_COUNT; k++)
                if (!strcmp(place_table[k]->name, name))
                        return (int) k;
        return -1;
}

Place *place_parse(const char *option, const char *spec, GError **error)
{
        for (PlaceKind k = 0; k < PLACE_COUNT; k++) {
                const PlaceOps *ops = place_table[k];
                if (!ops->option || strcmp(ops->option, option) || !ops->claims(spec))
                        continue;
                g_autoptr(Place) p = g_new0(Place, 1);
                p->ops = ops;
                p->spec = g_strdup(spec);
                if (!ops->parse(p, spec, error))
                        return NULL;
                return g_steal_pointer(&p);
        }
        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s %s: no kind of place takes it", option, spec);
        return NULL;
}

void place_free(Place *p)
{
        if (!p)
                return;
        if (p->data && p->ops->free_data)
                p->ops->free_data(p->data);
        g_free(p->spec);
        g_free(p->key);
        g_free(p);
}

int place_run(PlaceJob *job, GError **error)
{
        const PlaceOps *ops = job->place->ops;
        int r = ops->prepare ? ops->prepare(job, error) : RUN_OK;

        if (r == RUN_OK)
                r = ops->run(job, error);
        if (r != RUN_ERROR && ops->collect)
                r = ops->collect(job, r, error);
        if (ops->clean)
                ops->clean(job);
        return r;
}

int place_merge(const Experiment *exp, const char *out_dir, const char *const *dirs, const char *const *labels,
                bool machines, GError **error)
{
        g_autofree char *merged = NULL;
        g_autofree char *final = g_build_filename(out_dir, exp->name, NULL);
        int r = run_merge(exp, out_dir, dirs, labels, machines, &merged, error);

        if (r == RUN_OK)
                progress_say("%s: %s merged in %s", exp->name, merged, final);
        return r;
}

/* Runs place I of a staged run (an environment, a machine) into STAGE,
 * as run_experiment() would into its OUT_DIR. */
typedef int (*StageRun)(const Experiment *exp, guint i, const char *stage, gpointer data, GError **error);

/* The loop of run_experiment_envs() and run_experiment_machines(): each of
 * the N places (KEYS: their staging directories' names, LABELS: how
 * messages name them, WHAT: "environments" or "machines") in turn into
 * OUT_DIR/.<experiment>.WHAT/KEY/, kept there by --resume once whole, then
 * merged by run_merge() (MACHINES as there). */
static int run_staged(const Experiment *exp, const char *out_dir, bool resume, const char *what, guint n,
                      const char *const *keys, const char *const *labels, bool machines, StageRun run,
                      gpointer data, GError **error)
{
        g_autofree char *stage_name = g_strdup_printf(".%s.%s", exp->name, machines ? "machines" : "envs");
        g_autofree char *stage_root = g_build_filename(out_dir, stage_name, NULL);
        g_autofree char *final = g_build_filename(out_dir, exp->name, NULL);
        g_autoptr(GPtrArray) dirs = g_ptr_array_new_with_free_func(g_free);
        bool failed = false;

        if (!resume)
                samples_remove_dir(stage_root);
        if (g_mkdir_with_parents(stage_root, 0755) < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "cannot create %s: %s", stage_root, g_strerror(errno));
                return RUN_ERROR;
        }
        for (guint i = 0; i < n; i++) {
                char *stage = g_build_filename(stage_root, keys[i], NULL);
                g_ptr_array_add(dirs, stage);
                g_autofree char *done = g_build_filename(stage, exp->name, "samples.tsv", NULL);
                if (resume && g_file_test(done, G_FILE_TEST_EXISTS)) {
                        progress_say("%s: %s already measured, kept", exp->name, labels[i]);
                        continue;
                }
                if (g_mkdir_with_parents(stage, 0755) < 0) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_IO, "cannot create %s: %s", stage, g_strerror(errno));
                        return RUN_ERROR;
                }
                progress_say("%s: running %s %s", exp->name, machines ? "on" : "in", labels[i]);
                int r = run(exp, i, stage, data, error);
                if (r == RUN_INTERRUPTED) {
                        progress_say("interrupted; %s is unchanged; --resume keeps the %s already measured",
                                final, what);
                        return r;
                }
                if (r == RUN_ERROR) {
                        /* A machine's error names a target, not what to do. */
                        if (machines)
                                g_prefix_error(error, "%s is unchanged; `ipclab run --resume` keeps the %s already "
                                               "measured: ", final, what);
                        return r;
                }
                failed |= r == RUN_FAILED;
        }
        g_ptr_array_add(dirs, NULL);
        int r = place_merge(exp, out_dir, (const char *const *) dirs->pdata, labels, machines, error);
        if (r == RUN_ERROR)
                return r;
        samples_remove_dir(stage_root);
        return failed ? RUN_FAILED : RUN_OK;
}

typedef struct {
        const char *self;
        const char *const *extra;
        const char *const *argv;
        bool resume;
        const Place *const *places;
        const PlaceCall *call;
} StageArgs;

/* Runs EXP in OPS into OUT_DIR, after OPS's warning. */
static int run_in_env(const EnvOps *ops, const Experiment *exp, const StageArgs *a, const char *out_dir,
                      GError **error)
{
        EnvCall call = { .self = a->self, .out_dir = out_dir, .resume = a->resume, .extra = a->extra,
                         .argv = a->argv };
        const char *w = ops->warning ? ops->warning() : NULL;
        if (w)
                progress_say("warning: %s", w);
        int r = ops->run(ops, exp, &call, error);
        return r < 0 ? RUN_ERROR : r;
}

static int run_env_stage(const Experiment *exp, guint i, const char *stage, gpointer data, GError **error)
{
        return run_in_env(env_ops(exp->envs[i]), exp, data, stage, error);
}

int run_experiment_envs(const Experiment *exp, const char *self, const char *out_dir, bool resume,
                        const char *const *extra, const char *const *argv, GError **error)
{
        const char *names[G_N_ELEMENTS(exp->envs) + 1] = { NULL };
        StageArgs a = { .self = self, .extra = extra, .argv = argv, .resume = resume };

        for (guint i = 0; i < exp->n_envs; i++)
                names[i] = env_name(exp->envs[i]);
        /* One samples.tsv (the env column tells them apart), one meta.ini
         * (the first environment's groups, then "<group> <env>" for the
         * others), and each environment's console log. */
        return run_staged(exp, out_dir, resume, "environments", exp->n_envs, names, names, false, run_env_stage,
                          &a, error);
}

int run_experiment_here(const Experiment *exp, const char *self, const char *out_dir, bool resume,
                        const char *const *extra, const char *const *argv, GError **error)
{
        if (exp->n_envs > 1)
                return run_experiment_envs(exp, self, out_dir, resume, extra, argv, error);
        const EnvOps *ops = env_ops(exp->env);
        StageArgs a = { .self = self, .extra = extra, .argv = argv, .resume = resume };
        int r = run_in_env(ops, exp, &a, out_dir, error);
        if (ops->backend == NULL || r == RUN_ERROR)
                return r;
        progress_say("%s: ran in %s (exit status %d); its output is in %s/%s/console.log",
                exp->name, env_name(exp->env), r, out_dir, exp->name);
        return r;
}

static int run_machine_stage(const Experiment *exp, guint i, const char *stage, gpointer data, GError **error)
{
        const StageArgs *a = data;
        PlaceJob job = { .place = a->places[i], .call = a->call, .exp = exp, .out_dir = stage };

        return place_run(&job, error);
}

int run_experiment_machines(const Experiment *exp, const char *out_dir, const Place *const *places,
                            const PlaceCall *call, GError **error)
{
        StageArgs a = { .places = places, .call = call };
        g_autoptr(GPtrArray) keys = g_ptr_array_new();
        g_autoptr(GPtrArray) labels = g_ptr_array_new();

        for (guint i = 0; places[i]; i++) {
                g_ptr_array_add(keys, places[i]->key);
                g_ptr_array_add(labels, places[i]->spec);
        }
        g_ptr_array_add(labels, NULL);
        return run_staged(exp, out_dir, call->resume, "machines", keys->len, (const char *const *) keys->pdata,
                          (const char *const *) labels->pdata, true, run_machine_stage, &a, error);
}

void place_estimate(const Experiment *exp, const EstimateCalib *cal, PlaceKind kind, guint places, Estimate *out)
{
        estimate_host(exp, cal, out);
        g_autoptr(GString) note = g_string_new(NULL);
        double secs = 0;
        for (guint k = 0; k < exp->n_envs; k++)
                secs += env_ops(exp->envs[k])->cost_s(out->host_secs, cal, note);
        out->secs = place_ops(kind)->cost_s(secs, places, cal, note);
        out->where = note->len ? g_strdup(note->str) : NULL;
}
