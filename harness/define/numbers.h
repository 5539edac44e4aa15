/* numbers.h: the numbers a hand-written section quotes, declared in the
 * experiment file and resolved by ipclab (`ipclab numbers`).
 *
 * A [number NAME] group names one value the text quotes; `ipclab numbers`
 * writes it as the LaTeX macro \NAME (latex_macro_name(NAME): write NAME
 * in CamelCase, and `grep NAME experiments/` finds where a number of the
 * paper comes from).  Every key is described once, in the key table of
 * numbers.c (`ipclab keys` prints it):
 *
 *   [number FifoTenThousand]
 *   where=pattern=oneway,transport=fifo,count=10000,size=64
 *   value=elapsed_ns
 *   unit=us
 *
 * A number is computed in steps, each a key:
 *   source   the experiment's summary, or experiment= another's,
 *            published= a file of data/published/, meta= a fact of the
 *            experiment's meta.ini (meta=skipped: the cells it left out,
 *            as rows transport, size_B, limit_B), numbers= two other
 *            numbers of the file;
 *   rows     where= (a selector, select.h, on axes or any column);
 *   value    value= a column, times= and per= columns of the same row it
 *            is multiplied and divided by (per=messages: per message);
 *   pairs    with over= (a second selector) or over_value= (a second
 *            column), each row of where= is paired with the rows of over=
 *            that agree on every pair= column (default: the axes neither
 *            selector names, as claims pair cells) and the pair's value is
 *            compare= ratio (default), difference, distance (|a - b|) or
 *            saving (100 (1 - a/b), in per cent); keep= keeps the pairs
 *            that are above (a > b), below, not-above, not-below,
 *            disjoint (their 95 % intervals do not overlap), overlap, or
 *            apart (disjoint, and both intervals reach 95 %);
 *   reduce   one (default: every row or pair the same value; several
 *            that differ are an error naming the group), min, max (the
 *            row or pair with that value), count, distinct (how many
 *            different values), list ("64 B, 1 KiB and 4 KiB");
 *   show     value (default); coverage (the stated coverage of the rows'
 *            median intervals, stats_median_ci_level); apart (the picked
 *            row's interval apart from every other row's, or the one
 *            pair's intervals apart, all at 95 %); or axes (;) of the
 *            picked row (min, max) or of every row listed (list);
 *   format   scale= a factor, unit= a display unit (ns us ms s, B KiB MiB
 *            GiB, KiB/s MiB/s GiB/s, 1/s k/s M/s, %), digits= fixed
 *            decimals (default: the paper's three significant figures,
 *            verify_format_number), chars= the first N characters of a
 *            text, labels= how values of a text column read (V=TEXT;...),
 *            test= a condition (selector syntax on the value: tcg,
 *            !=none|-, >2) making the number 1 or 0 for \ifnum.
 *
 * How a value is printed: a number through verify_format_number (or
 * digits=); bytes without unit= as a size (64~B, 4~KiB); an axis's text
 * (transport, bus, ...) as a name of the code, \texttt{pipe}; a published
 * number with nothing computed from it as written (verify_format_written);
 * any other text through render_latex_escape().
 *
 * A selector that names no cell of the experiment is a mistake (`ipclab
 * check`); cells the data does not hold (a profile or a place that left
 * them out, a library not built where it ran, a failed cell), like a
 * source without data (experiment= not given to `ipclab numbers`, a
 * meta.ini group the run did not write), give "--", or 0 where the text
 * tests the number with \ifnum (a count, show=apart, test=).
 */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "experiment.h"
#include "figure.h"

typedef enum {
        NUMBER_SUMMARY,     /* the experiment's own summary */
        NUMBER_EXPERIMENT,  /* experiment=: another experiment's summary */
        NUMBER_PUBLISHED,   /* published=: a file of data/published/ */
        NUMBER_META,        /* meta=GROUP.KEY[;GROUP.KEY] */
        NUMBER_SKIPPED,     /* meta=skipped: the cells the run left out */
        NUMBER_NUMBERS,     /* numbers=A;B: two other numbers */
} NumberSource;

typedef enum {
        REDUCE_ONE,
        REDUCE_MIN,
        REDUCE_MAX,
        REDUCE_COUNT,
        REDUCE_DISTINCT,
        REDUCE_LIST,
} NumberReduce;

typedef enum {
        COMPARE_NONE,
        COMPARE_RATIO,
        COMPARE_DIFFERENCE,
        COMPARE_DISTANCE,
        COMPARE_SAVING,
} NumberCompare;

typedef enum {
        SHOW_VALUE,
        SHOW_COVERAGE,
        SHOW_APART,
        SHOW_AXES,
} NumberShow;

/* keep= conditions on a pair. */
enum {
        KEEP_ABOVE = 1 << 0,
        KEEP_BELOW = 1 << 1,
        KEEP_NOT_ABOVE = 1 << 2,
        KEEP_NOT_BELOW = 1 << 3,
        KEEP_DISJOINT = 1 << 4,
        KEEP_OVERLAP = 1 << 5,
        KEEP_APART = 1 << 6,
};

typedef struct {
        char *name;           /* NAME of [number NAME] */
        char *macro;          /* latex_macro_name(NAME) */
        char *group;          /* "number NAME", for messages */
        guint line;           /* of the group's header; set by experiment.c */
        GHashTable *lines;    /* key -> its line in the file (guint); set by experiment.c */
        NumberSource source;
        char *experiment;     /* experiment= */
        char *published;      /* published= */
        char **meta;          /* meta=: "GROUP.KEY", one or two */
        char **numbers;       /* numbers=: two NAMEs */
        char *where, *over;
        char *value, *over_value;
        char **times, **per, **pair;
        NumberCompare compare;
        unsigned keep;
        char **keep_list;     /* keep= as given */
        NumberReduce reduce;
        NumberShow show;
        char **show_axes;     /* show= axes, as column names */
        char *unit;
        double scale;
        int digits;           /* -1: the paper's format */
        int chars;            /* 0: all */
        char *test;
        char **labels;        /* "VALUE=TEXT" */
} Number;

void number_free(Number *n);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Number, number_free)

/* Parses group GROUP ("number NAME") of KF, checked against EXP's cells,
 * the column schema and, for published=, the file's header in
 * PUBLISHED_DIR.  Returns the number, or NULL after reporting every
 * mistake found through REPORT (FILE:LINE: [number NAME] key: message, as
 * the rest of the file). */
Number *numbers_parse(GKeyFile *kf, const char *group, const Experiment *exp, const char *published_dir,
                      FigureReport report, void *ctx);

/* What EXP's numbers read besides its own summary and meta.ini, as `ipclab
 * check --list-outputs` prints it ("exp:OTHER published:data/published/F"),
 * or "-".  Newly allocated. */
char *numbers_inputs(const Experiment *exp);

/* The help of every [number] key, one "number KEY: HELP" a line. */
char *numbers_key_help(void);

/* What `ipclab numbers` reads. */
typedef struct {
        const char *summary;     /* the experiment's summary */
        GHashTable *also;        /* EXP -> another experiment's summary, or NULL */
        const char *published;   /* the directory of published= files */
        const char *meta;        /* the experiment's meta.ini, or NULL */
} NumbersInputs;

/* `ipclab numbers FILE --summary S.tsv [--also EXP=S.tsv]... [--published
 * DIR] [--meta META.ini]`: every [number] group of experiment FILE as
 * \newcommand{\NAME}{VALUE}, one a line, in the file's order.  NULL with
 * IPCLAB_ERROR_INPUT and every mistake found (one a line, FILE:LINE:
 * [number NAME] key: message) when a declaration or an input is bad.
 * Never prints. */
char *numbers_render(const char *file, const NumbersInputs *in, GError **error);

/* `ipclab select FILE.tsv [--where SEL] [--columns C1,C2,...] [--count]`:
 * the columns COLUMNS (comma-separated) of the rows of the TSV file PATH
 * that WHERE selects (select.h, any column), tab-separated, in file order,
 * for gnuplot's data reading: "-" and "" as NaN, text double-quoted with
 * no quote, tab or newline inside; with COUNT, only the number of rows.
 * NULL with IPCLAB_ERROR_INPUT on a bad file, selector or column. */
char *numbers_select(const char *path, const char *where, const char *columns, bool count, GError **error);
