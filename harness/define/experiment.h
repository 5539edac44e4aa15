/* experiment.h: experiment files, validated, expanded into a matrix of cells.
 *
 * An experiment file is a GKeyFile.  [experiment] holds the axes (list
 * values) and the run parameters; [profile NAME] groups override keys of
 * [experiment]; [claim NAME] groups state claims checked by `ipclab verify`.
 * Every key is described once, in the option table of experiment.c.
 */
#pragma once

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "axes.h"
#include "ipclab-error.h"

typedef struct {
        char *name;
        char *text;
        char *faster;     /* "transport=libdbus,bus=p2p" */
        char *slower;
        char *metric;
        char *where;      /* optional filter, "size>=4096" */
        double by;
} Claim;

/* The most looks of a sequential design (repeat_until=decided). */
#define EXPERIMENT_MAX_LOOKS 16

typedef struct {
        char *path;          /* as given */
        char *name;          /* file name without .ini */
        char *title;
        char *source;        /* the published document it follows, or NULL */
        char *profile;       /* the profile applied, or NULL */
        char *sha256;        /* of the file's bytes */
        guint repeat;        /* repetitions; with repeat=auto, the minimum */
        bool repeat_auto;    /* repeat until the median's CI is narrow enough */
        guint repeat_max;    /* repeat=auto: never more repetitions than this */
        double ci_target;    /* repeat=auto: CI half-width / median to reach */
        guint64 auto_cap_ns; /* repeat=auto: time one cell may take in all */
        bool repeat_decide;  /* repeat=auto, repeat_until=decided: the cells of
                              * a claim go on until the claim holds or fails,
                              * looked at only at LOOKS (verify.h) */
        guint looks[EXPERIMENT_MAX_LOOKS];  /* repetitions at each look, increasing;
                              * the last is repeat_max */
        guint n_looks;
        guint *taken;        /* by cell index: the repetitions a recorded run of
                              * a sequential design took (estimate --recorded,
                              * estimate_take_recorded), or NULL */
        guint n_taken;
        guint warmup;
        guint64 timeout_ns;  /* per cell and repetition */
        bool verify;         /* check every payload's size and checksum */
        bool store_raw;      /* store_latencies=raw: every latency, not a histogram */
        guint64 seed;        /* order of the cells; 0 = fixed order */
        EnvKind env;         /* the first of envs */
        EnvKind envs[ENV_COUNT]; /* where it runs, in order (env=host;nspawn;vm) */
        guint n_envs;
        GPtrArray *cells;    /* Cell *, the filtered cartesian product */
        GPtrArray *skipped;  /* char *, one line per combination left out and why */
        GPtrArray *claims;   /* Claim * */
        GPtrArray *outputs;  /* Output * (figure.h): the [figure] and [table]
                              * groups, or the default figure and table main */
        GPtrArray *numbers;  /* Number * (numbers.h): the [number] groups */
        char *resolved;      /* the resolved [experiment] group, as key=value lines */
        char **profiles;     /* the names of the file's [profile NAME] groups, NULL-ended */
} Experiment;

/* The SHA-256 (hex) of what EXP measures: its resolved configuration less
 * what changes no number (title, source; claims and comments are not in
 * it) and every cell in the order they run, for the environments it runs
 * in.  Data whose meta.ini records the same hash needs no new measurement,
 * whatever else changed in the file. */
char *experiment_config_sha256(const Experiment *exp);

/* Loads and validates FILE with profile PROFILE (NULL for none).
 * Returns NULL and sets IPCLAB_ERROR_INPUT naming file, group and key on any
 * problem.  The caller owns the result. */
Experiment *experiment_load(const char *file, const char *profile, GError **error);
/* The same, without profile, for listing and drawing its figures and
 * tables from data measured elsewhere: cells whose transport cannot run
 * on this machine (hyperfine or a library missing) are kept, not left
 * out, so what an experiment declares does not depend on where it is
 * read. */
Experiment *experiment_load_anywhere(const char *file, GError **error);
/* The same with PROFILE applied (NULL: none): what the file measures, for
 * its configuration hash, which must not depend on what can run here (a
 * machine without hyperfine still knows that shell-calls' committed data
 * is what its file asks for). */
Experiment *experiment_load_measured(const char *file, const char *profile, GError **error);
/* The same for an experiment file already in memory: DATA (LEN bytes) read
 * from FILE, whose name gives the experiment's name. */
Experiment *experiment_load_data(const char *file, const char *data, gsize len,
                                 const char *profile, GError **error);
void experiment_free(Experiment *exp);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Experiment, experiment_free)

/* The check of CLAIM on EXP's cells before measuring, made while the file
 * is read.  It pairs the cells as `ipclab verify` will pair their data,
 * which is analyse/'s (verify.h: verify_claim_check), so a program
 * installs it once at start-up, with the transports
 * (transport-catalogue.h).  FALSE with IPCLAB_ERROR_INPUT (the message
 * only) and *KEY the key to blame when the claim cannot mean anything on
 * the cells; else TRUE and *REFUSAL (newly allocated) why the repetitions
 * cannot decide it, or NULL.  Without it installed, a file with a claim
 * is refused, saying so. */
typedef gboolean (*ExperimentClaimCheck)(const Experiment *exp, const Claim *claim, const char **key,
                                         char **refusal, GError **error);
void experiment_install_claim_check(ExperimentClaimCheck check);

/* RAW (a GKeyFile value) without its inline comment (blanks then '#')
 * and surrounding blanks.  Newly allocated. */
char *experiment_clean_value(const char *raw);

/* EXP's cells (not copied: a new array of the same pointers) in file
 * order, as the file's axes expand them (their index), whatever order
 * seed= runs them in. */
GPtrArray *experiment_cells_in_file_order(const Experiment *exp);
/* The same in the order they run (exp->cells). */
GPtrArray *experiment_cells_in_run_order(const Experiment *exp);

/* "; lists take ';', not ',': A;B" when VALUE, split on ',' instead, is
 * a list of names each of which VALID(NAME, DATA) accepts; else "", for a
 * message about VALUE.  Newly allocated. */
char *experiment_comma_hint(const char *value, bool (*valid)(const char *name, const void *data),
                            const void *data);

/* Every key of [experiment] (and which a [profile NAME] may change) and
 * of [claim NAME], from the tables the parser reads: one line each,
 * "GROUPS KEY TYPE; DEFAULT; MEANING", for `ipclab keys`.  Newly
 * allocated. */
char *experiment_key_help(void);

/* Restricts EXP to one environment (ipclab run --env). */
void experiment_set_env(Experiment *exp, EnvKind env);

/* Does CELL match SELECTOR ("transport=libdbus,bus=p2p", sizes may carry
 * units; the syntax of select.h; machine=NAME holds for every cell: a run
 * chooses the machine, not the file)?  Returns 1 or 0, or -1 when the
 * selector is malformed.  (Parses SELECTOR each time: for many cells,
 * select_parse once and select_cell.) */
int experiment_cell_matches(const Cell *cell, const char *selector);

/* Does SELECTOR name a transport that cannot run here (a library this
 * ipclab was built without), or a place EXP's profile (when EXP is not
 * NULL and has one) leaves out (env=vm in a quick profile without the VM;
 * without a profile, a place the file does not run in is a mistake)?  A claim about it then
 * selects no cell, which is no mistake in the file: it is kept, with no
 * data here. */
bool experiment_selector_unavailable(const Experiment *exp, const char *selector);

/* A line of exp->skipped (meta.ini's [skipped]: "DESCRIPTION: REASON")
 * read back: the transport (the description's first word), the size (its
 * size=N, else 0) and, when the reason is that the size exceeds the
 * transport's limit, that limit in bytes (else 0).  FALSE when LINE is
 * not such a line.  *TRANSPORT is newly allocated. */
gboolean experiment_skipped_parse(const char *line, char **transport, guint64 *size, guint64 *limit);

