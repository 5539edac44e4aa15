/* verify-internal.h: what the files of `ipclab verify`'s evaluation
 * share (verify.c: looks and verdicts; verify-pairs.c: cells and pairs;
 * verify-design.c: claims checked before measuring).  Not for other
 * modules: verify.h is their interface. */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "axes.h"
#include "columns.h"
#include "placement-modes.h"
#include "select.h"
#include "verify.h"

/* ---- Axes ---------------------------------------------------------------- */

/* The axes of the registry (axes.h) that notes describe a cell by, in the
 * order they name them: the file's axes in table order, then the run's
 * but env (machine), NULL-ended.  env is not one of them: claims pair
 * cells of one environment, and a note names it apart. */
const Axis *const *verify_note_axes(void);

typedef struct {
        char **row;          /* its first row, for the axis values */
        GArray *values;      /* double: the metric of each ok repetition that has it */
        guint rows;          /* rows taken (ok or not) */
        guint failed;        /* rows whose status is not ok */
        guint unmeasured;    /* ok rows without the metric */
        bool nonpositive;    /* some value <= 0 */
        PlacementCount placement; /* where its ok repetitions ran */
        GArray *fixed_share; /* double: fixed_ns / elapsed_ns of each ok repetition that has it */
} VCell;

/* A claim's cells in a table, grouped and paired: what both the data and
 * the check before measuring look at. */
typedef struct {
        const Column *m;           /* the claim's metric (metrics.h) */
        const Column *metric_in[5];   /* its inputs, NULL-ended */
        Selector *fast_sel, *slow_sel, *where;
        int axis_col[AXIS_MAX];    /* by verify_note_axes() index: its column */
        int key_col[16], metric_col[5];
        guint n_key, n_metric;
        int status_col, pattern_col, rep_col, env_col, machine_col;
        int cell_col;              /* the data's cell numbers; -1 in a table without them */
        int placement_col, fixed_col, elapsed_col; /* -1 in data older than them */
        bool machines;             /* the rows hold more than one machine */
        GPtrArray *cells;          /* VCell *, owned, in first-seen order */
        GPtrArray *fast, *slow;    /* the measured cells of each side */
        GArray *pf, *ps;           /* pair p: fast[pf[p]] and slow[ps[p]] */
        guint any[2];              /* cells each side selects, whatever where says */
        guint kept[2];             /* ... that where keeps */
        guint measuring[2];        /* ... that measure the metric */
        guint differ;              /* kept cells on one side only */
        guint failed_rows, unmeasured_rows, empty_cells, nonpositive_cells, both, not_measuring, unpaired;
        guint fixed_cells;         /* cells left out: fixed part over VERIFY_MAX_FIXED_SHARE */
        double fixed_max;          /* ... the largest such share */
        GString *mixed;            /* paired cells whose repetitions ran in several placements */
} Pairing;

/* Shared between the files above (each defined with its comment). */
const char *verify_metric_direction(const char *name);
void verify_format_one(char *buf, size_t len, double v);
char *verify_format_interval_cov(double ratio, double lo, double hi, double coverage);
gboolean verify_evaluate(const Claim *claim, const Pairing *pg, double alpha, VerifyResult *result,
                         GString *note, GError **error);
char *verify_vcell_describe(const VCell *c, const int *axis_col, int env_col, bool machines);
void verify_note_add(GString *note, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
bool verify_pairing_names_key(const Pairing *p, guint k);
void verify_pairing_clear(Pairing *p);
gboolean verify_pairing_build(const Claim *claim, const Table *samples, const char *path, guint max_rep,
                              Pairing *p, GError **error);
void verify_pairing_note(const Pairing *p, const Claim *claim, GString *note);
int verify_pairing_unmeasured_side(const Pairing *p);
void verify_pair_labels(const Pairing *pg, VerifyResult *result);
const VerifyPair *verify_decisive_pair(const VerifyResult *r, const char **role, double *lo, double *hi,
                                       double *cov);
