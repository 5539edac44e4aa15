/* numbers-internal.h: what the parts of declared numbers (numbers.h)
 * share: numbers.c parses and checks a group, numbers-render.c computes
 * it, numbers-text.c prints it, numbers-unit.c knows the units.  A
 * quantity is held in seconds and bytes; a unit is a factor to them and
 * the powers of time and bytes it has (MiB/s: 1048576, time -1, bytes 1). */
#pragma once

#include <stdbool.h>

#include "numbers.h"
#include "table.h"

typedef struct {
        const char *name;   /* "us", "MiB/s", "%", "" (none) */
        double factor;      /* to seconds and bytes */
        int time, bytes;    /* powers */
} NumberUnit;

typedef struct {
        int time, bytes;
} NumberDims;

/* The display or column unit NAME ("ns", "MiB/s", "1/s", "%", ""), or NULL. */
const NumberUnit *number_unit_find(const char *name);

/* The display units, comma-separated, for messages. */
const char *number_unit_names(void);

/* The unit of COLUMN in the source of N (the schema's for a summary, the
 * name's ending for a published column or a meta.ini key: _s, _ms, _us,
 * _ns, _B, _bytes, _MiBps, _per_s), or NULL when COLUMN holds text or a
 * number without a unit it can be told by (then "", dimensionless). */
const NumberUnit *number_column_unit(const Number *n, const char *column, bool *text);

/* What N computes, in powers of time and bytes: FALSE when it is a text
 * (an axis's name, a meta.ini fact without a unit). */
bool number_dims(const Number *n, const Table *pub, NumberDims *d);

/* "time", "bytes", "bytes/time", ... for messages.  A static string. */
const char *number_dims_text(const NumberDims *d);

/* The unit N is shown in without unit=: its value column's own when the
 * result is in the same unit, "%" for a saving, "" when dimensionless;
 * NULL when it needs unit= (or is a size: bytes are shown as 4~KiB). */
const NumberUnit *number_default_unit(const Number *n);

/* TEST (a test= value) as a selector on one column named "value". */
char *number_test_selector(const char *test);

/* S as a number: NAN for "-", "" and what is not a whole number. */
double number_parse(const char *s);

/* A text value RAW of COLUMN (NULL: not a column) as LaTeX: cut to chars=,
 * relabelled by labels=, escaped; an axis's value (a transport, a bus) in
 * typewriter type, a name of the code.  Newly allocated. */
char *number_text_tex(const Number *n, const char *column, const char *raw);

/* B bytes as a size: 64~B, 4~KiB, 1~MiB.  Newly allocated. */
char *number_size_tex(double b);

/* BASE (seconds and bytes) times scale= in N's unit, by the paper's
 * formatter (or digits=); bytes without a unit as a size. */
char *number_value_tex(const Number *n, double base);

/* Does RAW (a text, or a number in N's unit) pass N's test=? */
bool number_test_holds(const Number *n, const char *raw);

/* The values of ROWS (char **) listed: the show= columns, or value=;
 * "A, B and C" (numbers ascending), with two columns grouped by the
 * first, "A at x and y; B at z".  Newly allocated. */
char *number_list_tex(const Number *n, const Table *t, GPtrArray *rows);
