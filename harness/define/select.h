/* select.h: the one selector engine: which cells or rows a text names.
 *
 * Claims (faster=, slower=, where=), figures and tables (where=,
 * also_where=, published_where=) and `ipclab latency --cell` all write
 * selectors the same way, and all of them are parsed here, once, into a
 * Selector that is then matched against experiment cells or TSV rows:
 *
 *     transport=pipe|fifo,bus!=p2p,size>=4KiB,count<10000
 *
 * A selector is a comma-separated list of conditions, all of which must
 * hold; the empty selector holds everywhere.  A condition is KEY OP VALUE:
 *
 *   KEY    an axis by its selector key (transport, bus, payload, size,
 *          pattern, reply, marshal, cpus, roles, count, duration, env) or by its
 *          column name (size_B, duration_ns); with SELECT_COLUMNS also any
 *          other column of the table it is matched against (lat_p50_ns,
 *          a published file's `implementation`).
 *   OP     = != < <= > >=.
 *   VALUE  for = and !=, one value or several separated by '|' (any of
 *          them; != none of them).  A size axis takes units (4KiB, 64B), a
 *          duration axis takes 500ms, count a whole number; another
 *          column compares as a number where both sides are numbers, else
 *          as text.  The ordered operators need a number.  "-" as VALUE
 *          stands for "does not apply / not measured": `memcpy_MiBps!=-`.
 *
 * "-" in a row (and 0 count or duration in a cell: the axis does not
 * apply) is read, by = and !=, as the axis's own meaning: bus "-" is none,
 * reply "-" (a one-way cell) is echo, count and duration "-" are 0; `KEY=-`
 * asks for "-" itself.  The ordered operators never hold on "-":
 * `count>=1` holds for no time-boxed row.
 */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "experiment.h"
#include "table.h"

typedef struct Selector Selector;

typedef enum {
        SELECT_AXES = 0,          /* keys must be axes */
        SELECT_COLUMNS = 1 << 0,  /* any column name is a key (checked by
                                   * select_check_table) */
} SelectFlags;

/* Parses TEXT (NULL or "" for the empty selector).  NULL with
 * IPCLAB_ERROR_INPUT and a message quoting TEXT and saying what is wrong
 * (the caller adds file, group and key).  The caller owns the result. */
Selector *select_parse(const char *text, SelectFlags flags, GError **error);
void select_free(Selector *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Selector, select_free)

/* The text S was parsed from ("" for the empty selector). */
const char *select_text(const Selector *s);

/* Does CELL satisfy S?  Conditions on env and on columns that are not
 * axes (measured values, known only from data) hold for every cell. */
bool select_cell(const Selector *s, const Cell *cell);

/* CELL's value of AXIS (a key or column name) as samples.tsv writes it
 * ("-" where it does not apply), or NULL for env and what is no axis.
 * Newly allocated. */
char *select_cell_value(const Cell *cell, const char *axis);

/* Does every key of S name a column of T (the file PATH, for the
 * message)?  FALSE with IPCLAB_ERROR_INPUT naming the key otherwise. */
gboolean select_check_table(const Selector *s, const Table *t, const char *path, GError **error);

/* Does ROW of T satisfy S?  A key T lacks fails its condition. */
bool select_row(const Selector *s, const Table *t, char *const *row);

/* Does S have a condition on column COLUMN ("size_B", "transport")? */
bool select_names_column(const Selector *s, const char *column);

/* The column of T that KEY names (its own name, or the column of the
 * axis whose key it is), or -1. */
int select_key_column(const Table *t, const char *key);

/* The column name an axis key stands for ("size" -> "size_B"), or NULL
 * when KEY is not an axis. */
const char *select_axis_column(const char *key);
