/* figure-internal.h: what figure.c and figure-published.c share (the
 * parse of one [figure]/[table] group).  Only they include it. */
#pragma once

#include "figure.h"
#include "group.h"
#include "select.h"
#include "table.h"

typedef GroupParse Parse;

/* What parsing one figure or table needs beside its Output. */
typedef struct {
        Parse p;
        Output *o;
        const Experiment *exp;
        Selector *sel;              /* where=, or NULL */
        const char *metric;         /* the default y */
        char *pattern_where;        /* where= and the default metric's pattern, or NULL */
        Table *pub;                 /* the published= file, or NULL */
        bool scale_given;           /* published_scale= */
} FigureParse;

void figure_bad(Parse *p, const char *key, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* figure-published.c */
void figure_check_pub(FigureParse *f, const char *key, const char *col);
void figure_check_published_ratio(FigureParse *f);
void figure_check_published_rows(FigureParse *f);
void figure_check_published_columns(FigureParse *f);
void figure_published_scales(FigureParse *f);
bool figure_unit_fits(const char *column_unit, const char *unit);
bool figure_in_strv(char **list, const char *s);
