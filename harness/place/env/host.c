/* host.c: the host itself, the environment every other one is measured
 * against: the run happens in this process (run.h), always available. */
#include "env.h"
#include "run.h"

static const char *host_unavailable(void)
{
        return NULL;
}

static int host_run(const EnvOps *ops, const Experiment *exp, const EnvCall *call, GError **error)
{
        (void) ops;
        return run_experiment(exp, call->out_dir, call->resume, call->argv, error);
}

static double host_cost_s(double host_s, const EstimateCalib *cal, GString *note)
{
        (void) cal;
        (void) note;
        return host_s;
}

const EnvOps env_ops_host = {
        .name = "host",
        .unavailable = host_unavailable,
        .run = host_run,
        .cost_s = host_cost_s,
};
