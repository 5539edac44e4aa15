/* envs.h: the one list of environments an experiment can run in.
 *
 * Each X(ID, name) is an EnvKind ENV_ID, the value `env=name` (and
 * `--env name`) takes, and an ops struct env_ops_name (place/env/env.h)
 * implemented in one file of harness/place/env/.  Adding an environment:
 * its file, and one line here.  The order is the order `ipclab list`
 * shows them in.
 */
#pragma once

#define ENVS(X) \
        X(HOST, host) \
        X(NSPAWN, nspawn) \
        X(VM, vm)

#define ENV_ENUM_(id, name) ENV_##id,
typedef enum {
        ENVS(ENV_ENUM_)
        ENV_COUNT
} EnvKind;
#undef ENV_ENUM_
