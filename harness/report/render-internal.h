/* render-internal.h: what the files of the renderer (render.h) share:
 * render.c (helpers of every output), render-plot.c (what a figure
 * draws), render-gnuplot.c (its script and facts), render-table.c and
 * render-table-layout.c (a table) and render-section.c.  Only
 * harness/report/render*.c include it.
 */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "columns.h"
#include "experiment.h"
#include "figure.h"
#include "select.h"
#include "style.h"

/* ---- shared (render.c) ------------------------------------------------------ */

/* "FILE:LINE" of O's group in EXP's file, for messages (FILE alone for
 * a default output, which has no line). */
char *render_where_at(const Experiment *exp, const Output *o);

/* S as a number, or NAN: a finite decimal number (samples_parse_number:
 * no "inf", no hexadecimal, nothing beyond 1e300), so that what reaches
 * a gnuplot expression (a range, a tic) is one. */
double render_number(const char *s);

/* The experiment of FILE and its output NAME (a table when TABLE). */
Experiment *render_load_output(const char *file, const char *name, bool table, const Output **out,
                               GError **error);

/* The index of column NAME of T (of file PATH), or -1 with an error
 * naming the file and the column. */
int render_need_column(const Table *t, const char *path, const char *name, GError **error);

/* Where VALUE of AXIS comes in the experiment's order: numbers by value,
 * names by axis_order (env: host, nspawn, vm). */
double render_axis_rank(const Experiment *exp, const char *axis, const char *value);

/* The label of column NAME with its unit, for an axis or a table head;
 * times (ns) are labelled without a unit, their tics carry it.  The
 * schema's latency columns hold round trips or one-way transit times,
 * by the cell's pattern: with PATTERN (of every row drawn; NULL when
 * mixed or unknown) the label says which. */
const char *render_label_kind(const Column *c, const char *pattern);

char *render_column_label_of(const char *name, bool time_tics, const char *pattern);

/* render_column_label_of() with no pattern. */
char *render_column_label(const char *name, bool time_tics);

/* Do the values behind percentile column NAME of summary row ROW of T
 * support it (stats_quantile_supported)?  A repetition holds the
 * latencies of its messages; the pooled columns hold every repetition's.
 * TRUE for a column that is no percentile, or when the counts are not
 * known. */
bool render_percentile_supported(const Table *t, char **row, const char *name);

/* The error bars of cells with N_MIN to N_MAX repetitions, as a caption
 * says it: the 95 % interval of the median where 6 or more give it,
 * else the range of the repetitions, with the coverage they give
 * (stats_median_ci); "" when no bar is drawn. */
char *render_interval_text(guint n_min, guint n_max);

/* ---- plot (render-plot.c, render-gnuplot.c) ------------------------------------ */

typedef struct {
        double x, y, lo, hi;
} Point;

typedef enum {
        LINE_SERIES,     /* cells of the summary: one line per series values */
        LINE_FLOOR,      /* transport=direct as the harness floor */
        LINE_MEMCPY,     /* the memcpy bound */
        LINE_PUBLISHED,  /* published numbers */
        LINE_ALSO,       /* another experiment's cells, for reference */
} LineKind;

typedef struct {
        LineKind kind;
        char *key;          /* what makes it one line: its values, tab-separated */
        char *title;        /* its key entry; NULL: none (a reproduction's committed data) */
        char **vals;        /* LINE_SERIES: the values of the plot's series axes */
        double rank[12];
        guint n_rank;
        GArray *pts;        /* Point */
        bool errorbars;
        bool grey;          /* --compare: the committed data, grey beneath the reproduction */
        bool across;        /* a reference drawn edge to edge */
        Style style;        /* set by render_style_figure() */
        double width;       /* 0: the default */
} Line;

/* What the plot draws, gathered before any gnuplot is written. */
typedef struct {
        const Experiment *exp;
        const Output *out;
        char **axes;           /* the series axes: the output's, and kind on a latency
                                * figure that has both kinds */
        double y_scale;        /* ns -> s: 1e-9 */
        bool y_time;
        double x_scale;
        bool x_time, x_size, x_categorical;
        GPtrArray *categories; /* char *: the x values of a text axis, in order */
        GPtrArray *panels;     /* GPtrArray of Line *, one per y column */
        double xmin, xmax, ymin, ymax;
        double *pymin, *pymax; /* each panel's y range, of the first n_panels */
        guint n_panels, cur;   /* panels with a range; the one being filled */
        double spectrum_max;   /* where a spectrum draws the maximum */
        char *pattern;         /* the pattern of every row drawn, "" when mixed */
        guint n_min, n_max;    /* repetitions behind the error bars drawn */
        guint left_out;        /* points of a percentile too few values support */
        Encoding *enc;         /* how the series lines are told apart */
} Plot;

/* The pattern every row drawn shares, or NULL. */
const char *render_plot_pattern(const Plot *p);

/* Every line's style: the series lines by style_encode() over the
 * distinct values they have (a reproduction's committed lines as the
 * reproduced ones, in grey), then the bounds and references, each kind
 * in its own colour and dash and told apart by its point. */
void render_style_figure(Plot *p);

/* The gnuplot script of plot P, from experiment file FILE. */
char *render_plot_script(Plot *p, const char *file);

/* The facts of figure ID that its caption may quote, as LaTeX
 * (ipclab.sty's \ipclabFact{ID}{KEY}): encoding, intervals, panels,
 * filter, left-out. */
char *render_plot_facts(const Plot *p);

/* ---- table (render-table.c), for the section's captions ------------------------ */

/* Is S one of LIST's strings? */
bool render_in_list(char **list, const char *s);

/* A head: the column's label (PER_MESSAGE: per message), and its unit
 * (the display unit if given). */
char *render_value_head(const char *column, const char *unit, const char *pattern, bool per_message);

/* The display unit of value column I of table O drawn from the rows of T
 * SEL keeps: unit= (one, or one per value), else, for a time, the unit
 * in which the median of the values lies between 1 and 1000 (14 387 ns
 * is shown as 14.4 us); else NULL, the column's own. */
const char *render_table_unit(const Output *o, guint i, const Table *t, const Selector *sel);
