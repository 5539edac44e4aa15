/* papercheck.h: `ipclab paper-check`, the built paper read as a reader
 * reads it.
 *
 *   ipclab paper-check --log paper.log --pdf paper.pdf [--figures DIR]
 *                      [--sections DIR] EXP.ini...
 *
 * EXP.ini are the experiment files the paper was built from (those with
 * data).  Each problem found is one line; none means the paper passed:
 *
 *   LaTeX's log (and the .aux beside it): no "Float too large", no
 *   overfull box over 10 pt, no undefined reference or citation, no file
 *   not found, no figure not built or table not generated, no table
 *   scaled down to fit (ipclab.sty says so in the log);
 *   the PDF's text (pdftotext, poppler-utils): every claim of the
 *   experiment files as the claims table names it, EXP/NAME; every figure and table numbered in the log's
 *   count ("Figure 3:", "Table 5:"); every figure and table the files
 *   declare was included (ipclab.sty's labels ipclab-figure:ID and
 *   ipclab-table:ID in the .aux) on a page whose text has a caption of
 *   its kind;
 *   the generated figure scripts (--figures DIR/EXP-NAME.gp, `ipclab
 *   plot`'s "# style" lines): no two lines of one panel drawn alike
 *   (colour, point and dash), a key of at most PAPERCHECK_MAX_KEY entries;
 *   the generated sections (--sections DIR/section-EXP.tex): every
 *   output's caption is there and names its filter (where=) and its
 *   quantity (the y column, a table's value), a table's with the unit
 *   unit= gives and its head (DIR/table-EXP-NAME.tex) prints.
 */
#pragma once

#include <glib.h>

#define PAPERCHECK_OVERFULL_PT 10.0
#define PAPERCHECK_MAX_KEY 24

typedef struct {
        const char *log;         /* LaTeX's log; its .aux beside it */
        const char *pdf;
        const char *figures;     /* the generated figure scripts, or NULL */
        const char *sections;    /* the generated sections, or NULL */
        char **experiments;      /* the experiment files the paper shows */
} PaperCheck;

/* Runs every check of PC, appending one line per problem to PROBLEMS
 * (char *).  FALSE with ERROR when an input cannot be read at all (the
 * log, the PDF, pdftotext, an experiment file): then nothing is known. */
gboolean papercheck_run(const PaperCheck *pc, GPtrArray *problems, GError **error);
