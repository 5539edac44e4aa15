/* render.h: one renderer for every figure, table and generated section.
 *
 *   ipclab plot FILE NAME --summary S.tsv [--also EXP=S.tsv]... [--latency EXP=L.tsv]...
 *               [--published DIR] [--compare S2.tsv] [--facts FACTS.tex] --out SCRIPT.gp
 *   ipclab table FILE NAME --summary S.tsv [--also EXP=S.tsv]... [--published DIR] --out T.tex
 *   ipclab section FILE --summary S.tsv [--meta META.ini] --out SECTION.tex
 *
 * FILE is an experiment file, NAME one of its [figure NAME] or [table
 * NAME] groups (or `main`, the default ones: figure.h).  `plot` writes a
 * gnuplot script with the data inlined (one data block per line drawn),
 * so that the script alone redraws the figure; it loads plotdir/common.gp
 * for the house style and writes the PDF named by the gnuplot variable
 * `out`:
 *
 *     gnuplot -e "plotdir='plots'; out='build/figures/EXP-NAME.pdf.tmp'" SCRIPT.gp
 *
 * A panel with no rows to draw (none selected; a spectrum or cdf given no
 * --latency for its experiment, whose data predate latencies.tsv.gz) is a
 * frame that says "no data", as common.gp's figures do.
 *
 * `table` writes a LaTeX tabular (booktabs), `section` a LaTeX section.
 * Every output is written atomically; a bad declaration or input exits 2
 * with FILE:LINE: [group] key: message, and nothing is written.
 */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "latex.h"

/* S as a gnuplot string literal, single-quoted (no backquote command,
 * no @macro is expanded there), control characters as spaces: the one
 * door of a value into a generated gnuplot script.  Newly allocated. */
char *render_gnuplot_string(const char *s);
/* UNIT (a table's unit=, or a column's: us, MiB/s) as the generated
 * tables print it (\ensuremath{\mu}s).  Newly allocated. */
char *render_unit_latex(const char *unit);

/* What a figure, table or section is drawn from. */
typedef struct {
        const char *summary;    /* the experiment's summary (S.tsv) */
        GHashTable *also;       /* EXP -> another experiment's summary, or NULL */
        GHashTable *latency;    /* EXP -> its `ipclab latency` output, or NULL */
        const char *published;  /* the directory of published= files */
        const char *compare;    /* a reproduction's summary (--compare), or NULL */
        const char *meta;       /* the data's meta.ini (section), or NULL */
} RenderInputs;

/* The gnuplot script of [figure NAME] of experiment FILE; NULL with
 * IPCLAB_ERROR_INPUT on a bad declaration or input.  Never prints.  With
 * FACTS, *FACTS gets what the figure's caption may quote, as LaTeX:
 * \ipclabSetFact{EXP-NAME}{KEY}{TEXT} for the keys encoding (what
 * colour, point and dash mean, and the bounds and references drawn),
 * intervals (what the error bars cover, from the repetitions of the
 * cells drawn), panels, filter (its where=) and left-out (points of a
 * percentile too few values support).  The script starts with a
 * "# style" line per line drawn (panel, title, colour, point, dash). */
char *render_plot(const char *file, const char *name, const RenderInputs *in, char **facts, GError **error);
/* The LaTeX tabular of [table NAME]; the same contract. */
char *render_table(const char *file, const char *name, const RenderInputs *in, GError **error);
/* The LaTeX section of experiment FILE; the same contract. */
char *render_section(const char *file, const RenderInputs *in, GError **error);
