/* figure.h: the figures and tables an experiment file declares.
 *
 * [figure NAME] and [table NAME] groups say what to draw and tabulate from
 * the experiment's summary; every key is described once, in the key table
 * of figure.c (`figure_keys`).  An experiment that declares neither gets
 * one figure and one table named `main` (figure_defaults).  Parsing
 * reports every mistake through a callback, so that experiment.c gives
 * them as FILE:LINE: [figure NAME] key: message with the file's others.
 */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "experiment.h"
#include "group.h"

typedef enum {
        FIGURE_LINE,      /* y against x, one line per series */
        FIGURE_SPECTRUM,  /* latency against percentile on the 1/(1-p) scale */
        FIGURE_CDF,       /* fraction of messages against latency */
} FigureType;

typedef enum {
        SCALE_AUTO,       /* log where the values span more than about a decade */
        SCALE_LINEAR,
        SCALE_LOG,
} Scale;

typedef struct {
        char *name;
        bool is_table;        /* [table NAME]; else [figure NAME] */
        bool is_default;      /* made by figure_defaults, not declared */
        char *group;          /* "figure NAME", for messages */
        guint line;           /* of its group's header in the file; 0 for a default */
        char *title;
        char *caption;
        char *where;          /* a selector (select.h), or NULL */
        /* Figures. */
        FigureType type;      /* stored as an int (group.h) */
        char **y;             /* summary columns, one panel each */
        char *x;              /* an axis column (size_B) */
        char **series;        /* axis columns; empty: one line */
        char **bounds;        /* bounds= as given (memcpy, direct) */
        Scale logx, logy;
        bool errorbars;       /* from NAME_lo/NAME_hi where the column has them */
        bool bound_memcpy;    /* the memcpy time or rate for the message size */
        bool bound_direct;    /* transport=direct as the black dash-dot-dot floor */
        char *also;           /* another experiment, drawn as a reference */
        char *also_where;
        char *also_title;
        /* Published numbers (both). */
        char *published;      /* a file name in data/published/ */
        char *published_x;    /* figures: its columns */
        char **published_y;      /* figures: one line (per series) each */
        char *published_series;
        char *published_where;
        double published_scale;   /* factor to our column's unit (published_scale=) */
        double *published_scales; /* per published_y or published_value column: its
                                   * factor, or 0 (tables): shown as published */
        guint published_kept;     /* rows of the file published_where keeps */
        char *published_title;
        /* Tables. */
        char **rows;          /* axis columns */
        char *columns_axis;   /* columns= an axis, or NULL ... */
        char **columns;       /* ... or value columns */
        char *value;          /* the (first) value column, with columns_axis */
        char **values;        /* every value column, with columns_axis */
        char *unit;           /* display unit, or NULL: the column's own */
        char **units;         /* one per value (or column), or NULL */
        char **per_message;   /* value columns shown divided by messages */
        bool intervals;       /* "v [lo, hi]" where the summary has them */
        char **ratio;         /* "NUM/DEN": a column NUM over DEN after NUM's */
        int digits;           /* fixed decimals, or -1: the paper's format */
        char **published_rows;    /* "AXIS=COLUMN" pairs: published columns per row axis */
        char **published_value;   /* published columns shown beside ours */
        char **published_heads;   /* their heads (tables) or legend entries */
        char **published_ratio;   /* "NUM/DEN" of published_series values */
        char *published_label;    /* a published column shown first in each row */
        char **published_columns; /* "OURS=THEIRS": published rows as rows of the table */
        double *published_columns_scale;   /* each THEIRS's factor to OURS's unit */
        char **published_bounds;  /* "THEIRS=COLUMN": how each number is qualified (> < ~) */
} Output;

void output_free(Output *o);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Output, output_free)

/* Receives one mistake in KEY (NULL: the group itself) of GROUP. */
typedef GroupReport FigureReport;

/* Parses group GROUP ("figure NAME" or "table NAME") of KF, checked
 * against EXP's cells and the column schema (EXP without cells, after a
 * mistake in its axes: only what does not depend on them); PUBLISHED_DIR is where
 * published= files are looked for.  Returns the output, or NULL after
 * reporting every mistake found through REPORT. */
Output *figure_parse(GKeyFile *kf, const char *group, const Experiment *exp,
                     const char *published_dir, FigureReport report, void *ctx);

/* The figure and table `main` for an experiment without declared ones:
 * y from the pattern (round trips lat_p50_ns, one-way throughput_MiBps,
 * callrate rate_per_s; where=pattern=P for the first of those present),
 * x the numeric axis with most values, series the other axes that vary. */
void figure_defaults(const Experiment *exp, GPtrArray *outputs);

/* The axis columns that take more than one value among EXP's cells kept
 * by WHERE (NULL: all), in schema order, into a new array of static
 * strings. */
GPtrArray *figure_varying_axes(const Experiment *exp, const char *where);

/* What OUT reads besides EXP's own summary, as `ipclab check
 * --list-outputs` prints it: "exp:OTHER latency:EXP published:data/..."
 * or "-".  Newly allocated. */
char *figure_inputs(const Experiment *exp, const Output *out);

/* How many of EXP's cells OUT selects (its where=). */
guint figure_cells_selected(const Experiment *exp, const Output *out);

/* One line saying what OUT draws, as `ipclab check` prints it: "figure
 * main (default): lat_p50_ns against size_B, lines by transport".  Newly
 * allocated. */
char *figure_describe(const Output *out);

/* Why S (a title, a caption, a claim's text...) cannot be printed in the
 * paper: longer than MAX bytes, not UTF-8, or holding a control character
 * (which LaTeX cannot typeset and would end a line of gnuplot); NULL when
 * it can.  A static string. */
const char *figure_text_problem(const char *s, gsize max);

/* Whether the outputs of EXPS (Experiment *) are each made once: a figure
 * or table is a file named EXP-NAME, so x.ini's [figure y-main] and
 * x-y.ini's [figure main] (or its default) would be one file, and a
 * section would show the other's.  Adds "FILE:LINE: [group]: ..." to
 * ERRORS for each that repeats an earlier one. */
gboolean figure_check_collisions(GPtrArray *exps, GPtrArray *errors);

/* The help of every [figure]/[table] key, one "KIND KEY: HELP" a line,
 * for `ipclab keys`. */
char *figure_key_help(void);
