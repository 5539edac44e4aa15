/* local.c: the place "here", this machine (place.h: a row of
 * PLACES(X)): where a run goes without --host, or with --host local
 * beside other machines.  It runs as run_experiment_here() says, in the
 * experiment's environments. */
#include "place.h"

#include <string.h>

static bool local_claims(const char *spec)
{
        return !strcmp(spec, "local");
}

static bool local_parse(Place *p, const char *spec, GError **error)
{
        (void) spec;
        (void) error;
        p->key = g_strdup("local");
        return true;
}

static int local_run(PlaceJob *job, GError **error)
{
        const PlaceCall *c = job->call;

        return run_experiment_here(job->exp, c->self, job->out_dir, c->resume, c->extra, c->argv, error);
}

/* Here is one place: N is 1. */
static double local_cost_s(double secs, guint n, const EstimateCalib *cal, GString *note)
{
        (void) cal;
        (void) note;
        return n * secs;
}

const PlaceOps place_ops_local = {
        .name = "local",
        .option = "--host",
        .claims = local_claims,
        .parse = local_parse,
        .run = local_run,
        .cost_s = local_cost_s,
};
