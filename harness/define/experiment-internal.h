/* experiment-internal.h: what the parts of reading an experiment file
 * share: experiment.c reads [experiment] and its profiles and loads the
 * file, experiment-cells.c expands them into cells, experiment-groups.c
 * reads the claim, figure, table and number groups.  Not for use outside
 * harness/define/experiment*.c.
 */
#pragma once

#include <stdbool.h>

#include <glib.h>

#include "experiment.h"
#include "group.h"

/* The rows of the option table (experiment.c), one per key of
 * [experiment]: what the experiment is, the cell axes' keys (axes.h),
 * how it is measured, the run's axes' keys; at most this many, for the
 * arrays of Values. */
#define EXPERIMENT_MAX_OPTIONS 48

const Option *experiment_options(void);
size_t experiment_n_options(void);

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
/* Parsed values of every option, by option index. */
typedef struct {
        char **list[EXPERIMENT_MAX_OPTIONS];    /* list options: the items */
        guint64 *nums[EXPERIMENT_MAX_OPTIONS];  /* numeric lists/scalars */
        char *text[EXPERIMENT_MAX_OPTIONS];     /* scalars as text */
        const char *from[EXPERIMENT_MAX_OPTIONS];
        bool broken[EXPERIMENT_MAX_OPTIONS];    /* a mistake in its value: its
                                                 * default (if any) in its place */
} Values;

/* The line (from 1) of KEY in GROUP of TEXT, or of GROUP's header when
 * KEY is NULL; 0 when it is not there (a default, a missing key). */
guint experiment_find_line(const char *text, const char *group, const char *key);

/* Records a mistake at LINE of the file (0: none); returns FALSE. */
gboolean experiment_fail_at(const Ctx *c, guint line, const char *group,
                            const char *key, const char *fmt, ...) G_GNUC_PRINTF(5, 6);

/* Records a mistake in KEY of GROUP, at the line where the file has it. */
gboolean experiment_fail(const Ctx *c, const char *group,
                         const char *key, const char *fmt, ...) G_GNUC_PRINTF(4, 5);

/* The index in experiment_options() of KEY, which must be one. */
guint experiment_opt_index(const char *key);

/* A name of an experiment, profile or claim: letters, digits, '-', '_'. */
bool experiment_valid_name(const char *s);

/* experiment-cells.c: the cells of C's values V into EXP; the mistakes
 * that make them meaningless recorded in C. */
gboolean experiment_expand(const Ctx *c, Experiment *exp, Values *v);

/* experiment-cells.c: the resolved keys of V, as meta.ini echoes them. */
void experiment_resolved_echo(Experiment *exp, Values *v);

/* experiment-cells.c: repeat_until= and looks= of V into EXP. */
gboolean experiment_resolve_looks(const Ctx *c, Experiment *exp, const Values *v);

/* experiment-cells.c: whether what one run of EXP keeps fits what is
 * read back. */
gboolean experiment_check_repetitions(const Ctx *c, const Experiment *exp, const Values *v);

/* experiment-groups.c: the rows of `ipclab keys` for [claim NAME]. */
void experiment_claim_key_help(GString *s);

/* experiment-groups.c: frees a claim of Experiment.claims. */
void experiment_claim_free(Claim *cl);

/* experiment-groups.c: every [claim NAME] of C into EXP; FALSE when one
 * has a mistake. */
gboolean experiment_parse_claims(const Ctx *c, Experiment *exp);

/* experiment-groups.c: every [figure NAME] and [table NAME] of C into
 * EXP (the defaults when there is none). */
void experiment_parse_outputs(const Ctx *c, Experiment *exp);

/* experiment-groups.c: every [number NAME] of C into EXP. */
void experiment_parse_numbers(const Ctx *c, Experiment *exp);
