/* metrics.h: the metric registry, read from the column schema.
 *
 * A metric is a measured or derived quantity: a row of column_table
 * (columns.h) of kind COLUMN_MEASURED or COLUMN_SUMMARY whose `better`
 * says which way is better.  Its row also says whether claims may use it
 * (`claim`: the name a claim's metric= gives it), which cells measure it
 * for claims (`patterns`, `cells`), and for a derived metric how one
 * repetition's value is computed from the columns of samples.tsv
 * (`from`, `compute`).  The summary (summarize.c), `ipclab verify`, the
 * experiment file's claim check and labels all read these rows: adding a
 * metric is its row, and where it is measured.
 *
 * Nothing here prints.
 */
#pragma once

#include <stdbool.h>

#include "columns.h"

/* The metric claims call NAME ("throughput"), or NULL when none. */
const Column *metric_find_claim(const char *name);

/* The names claims may use, in schema order, NULL-ended (static). */
const char *const *metric_claim_names(void);

/* "elapsed, roundtrip_latency, ...": the same, for messages.  Newly
 * allocated. */
char *metric_claim_list(void);

/* "elapsed, roundtrip_latency, cpu": the claim names of the metrics for
 * which BETTER is better, in schema order, joined by ", ".  Newly
 * allocated. */
char *metric_claim_list_by(ColumnBetter better);

/* Do cells of pattern PATTERN ("oneway", "roundtrip", "callrate")
 * measure metric M for claims? */
bool metric_applies(const Column *m, const char *pattern);

/* Which cells measure M, for messages: "only round-trip cells", or
 * "every cell". */
const char *metric_cells(const Column *m);

/* The columns of samples.tsv metric M is read from, in order (a
 * measured metric: itself), NULL-ended; returns how many (at most 4). */
unsigned metric_inputs(const Column *m, const Column *in[5]);

/* M's value for one repetition from the numbers of its inputs
 * (metric_inputs order), NAN where one is not measured (give NAN for
 * "-", or 0 for "-" in a column with COLUMN_ABSENT_ZERO: see
 * metric_field()). */
double metric_compute(const Column *m, const double *in);

/* The number field S of column C says: NAN for "-" (0 where C has
 * COLUMN_ABSENT_ZERO) or anything that is not a number. */
double metric_field(const Column *c, const char *s);

/* The label of NAME for axes, legends and table heads: a column of the
 * schema ("throughput_MiBps"), one of its interval bounds
 * ("lat_p50_ns_lo") or a claim's metric ("roundtrip_latency"); NULL when
 * NAME is none of them.  Figures and tables (report/) take labels from
 * here. */
const char *metric_label(const char *name);
