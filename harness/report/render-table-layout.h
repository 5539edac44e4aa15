/* render-table-layout.h: the layout of a [table NAME] group's tabular,
 * decided before a line of it is written (render-table-layout.c): its
 * rows (the row keys down), its columns (ours at each value across,
 * ratios, published ones) and their units.  render-table.c writes the
 * tabular from it.  Only harness/report/render-table*.c include it.
 */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "render.h"
#include "render-internal.h"

/* One column of a table, left to right after the row labels. */
typedef enum {
        TC_OURS,        /* a value of ours: VALUE of the cells at ACROSS */
        TC_RATIO,       /* ours: column NUM's value over column DEN's */
        TC_PUB,         /* a published value: column VALUE at series SERIES */
        TC_PUB_RATIO,   /* published: column NUM's value over column DEN's */
} TableColKind;

typedef struct {
        TableColKind kind;
        const char *across;   /* TC_OURS: the columns axis value, or NULL */
        const char *series;   /* TC_PUB: the published_series value, or "" */
        guint value;          /* the index in the values (ours) or published_value */
        guint num, den;       /* ratios: indexes of the columns divided */
        const char *den_text; /* ratios: DEN's value, for the head */
        guint group;          /* ours: the index of its value across */
} TableCol;

typedef struct {
        const Experiment *exp;
        const Output *o;
        const Table *t;           /* the summary, of file PATH */
        const char *path;
        Selector *sel;            /* where= */
        guint nr;                 /* rows=: the axes down */
        int *rc;                  /* their columns in T */
        int cc;                   /* the columns axis's column, or -1 */
        GPtrArray *keys;          /* char **: the first row of each row key, in order */
        GPtrArray *across;        /* char *: the columns axis's values, in order */
        const char *pattern;      /* the pattern every row shares, or NULL */
        /* Our value columns: the values= at each value across, or the
         * columns=, each with its summary column, unit and interval. */
        char **values;
        guint nvals;
        int *vc, *loc, *hic;      /* the value's column, its interval's (or -1) */
        double *factor;           /* from its column's unit to its display unit */
        const char **vunit;       /* its display unit, or NULL */
        int mc;                   /* messages (per_message=), or -1 */
        /* Published numbers beside ours (published=), or NULL. */
        Table *pub;
        Selector *psel;
        int *prc, *prow;          /* published_rows=: their column, our row's; -1 ends */
        int *pvc;                 /* published_value='s columns */
        int psc, plc;             /* published_series, published_label, or -1 */
        guint npv;
        GPtrArray *pub_series;    /* the published_series values, in order */
        GArray *cols;             /* TableCol, left to right */
        GPtrArray *dens;          /* the ratios' denominators' text */
        guint n_ours;             /* ours come first, then the published */
        guint nl;                 /* label columns */
} TableLayout;

/* Lays out O's table (of EXP) over summary T of file PATH, with the
 * published files under IN.  FALSE with an error naming file, group
 * and key.  Clear L with render_table_layout_clear, either way. */
bool render_table_layout(TableLayout *l, const Experiment *exp, const Output *o, const Table *t, const char *path,
                         const RenderInputs *in, GError **error);
void render_table_layout_clear(TableLayout *l);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(TableLayout, render_table_layout_clear)

/* Display units: factor from the column's unit and the LaTeX of the unit. */
double render_unit_factor(const char *unit, const char **latex);

/* The value of our column VALUE (in column VC) of summary row ROW: per
 * message where per_message= says so (MC: messages).  NAN when there
 * is none. */
double render_table_value(const Output *o, char **row, const char *value, int vc, int mc);
