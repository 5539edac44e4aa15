/* table.h: a TSV table with a header line, read whole (samples.tsv, a
 * summary, a published file, a resume file), and the checks of its
 * fields every layer shares.  What is particular to samples.tsv is in
 * samples.h.
 */
#pragma once

#include <glib.h>

/* A TSV table read whole: column names and rows of strings. */
typedef struct {
        char **columns;       /* NULL-terminated */
        guint n_columns;
        GPtrArray *rows;      /* char ** per row, n_columns each */
        GArray *lines;        /* guint per row: its line in the file */
} Table;

/* Reads a TSV file with a header line, line by line (safefile.h: a
 * regular file in its tree, at most SAFEFILE_MAX_TABLE).  Lines starting
 * with '#' are skipped.  NULL with ERROR set (naming the file and line)
 * on failure. */
Table *table_read(const char *path, GError **error);
/* Index of column NAME, or -1. */
int table_column(const Table *t, const char *name);
void table_free(Table *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Table, table_free)

/* Whether S is text a field may hold, whatever it is: no control
 * character (no tab, newline, escape...). */
gboolean samples_plain_text(const char *s);

/* S as a whole number up to 2^53 (exact in a double): decimal digits
 * only.  FALSE for anything else ("", "-", "-5", "+5", "1e3", "0x10"). */
gboolean samples_parse_whole(const char *s, guint64 *v);
/* S as a finite decimal number of magnitude at most 1e300: an optional
 * '-', digits with an optional fraction, an optional exponent.  FALSE
 * for anything else ("", "-", "inf", "nan", "0x10", " 5", "1e999"). */
gboolean samples_parse_number(const char *s, double *v);
