/* verify.h: claims checked against measured samples (`ipclab verify`).
 *
 * A claim ([claim NAME] in an experiment file, see experiment.h) says that
 * the cells selected by `faster` beat the cells selected by `slower` on
 * `metric` by a factor of at least `by`, optionally only where `where`
 * holds.  It is evaluated on the rows of a samples.tsv:
 *
 * Rows.  Only rows whose status is ok count.  Rows with the same values in
 * every axis column (samples_axis_columns: env, transport, bus, payload,
 * size_B, pattern, reply, marshal, cpus, count, duration_ns) form a cell;
 * each row is one repetition of it.
 *
 * Selectors.  `faster` and `slower` are axis=value[,axis=value] with the
 * keys and meaning of experiment_cell_matches(): transport, bus, payload,
 * size (units allowed: 4KiB), pattern, reply, marshal, cpus, count,
 * duration (500ms); every part must match.  A "-" in samples.tsv stands
 * for the value the cell had: bus "-" is none, reply "-" (one-way) is
 * echo, count or duration "-" is 0.
 *
 * Where.  `where` is a comma-separated list of conditions, all of which
 * must hold: AXIS OP VALUE with AXIS one of size, count, duration, OP one
 * of = != < <= > >=, VALUE a size (4096, 4KiB), a whole number or a
 * duration (500ms) respectively, e.g. "size>=4KiB,count<10000".  A row
 * where the axis does not apply ("-": count in a time-boxed experiment)
 * fails every condition on it.
 *
 * Pairs.  Every faster cell is paired with each slower cell that has the
 * same value in every axis column not named in either selector (so with
 * `faster=bus=p2p`, `slower=bus=dbus-daemon`, the p2p cell of a size,
 * pattern, ... is compared with the dbus-daemon cell of the same size,
 * pattern, ...).  A cell is never paired with itself.  Faster cells with no
 * partner are left out (and counted in the note).
 *
 * Metrics, per repetition, and the direction of the ratio (> 1 means the
 * faster cell is faster):
 *   roundtrip_latency  lat_p50_ns                   ratio slower / faster
 *   elapsed            elapsed_ns                   ratio slower / faster
 *   cpu                (client_user + client_sys + server_user + server_sys
 *                       + bus_cpu) ns / messages    ratio slower / faster
 *   throughput         bytes_B / elapsed_ns         ratio faster / slower
 *   callrate           messages / elapsed_ns        ratio faster / slower
 * A repetition without the metric ("-": no latency in one-way cells) is
 * skipped; a cell with a value <= 0 (a cost too small to measure) is left
 * out of the comparison.
 *
 * Ratio.  A pair's ratio is the ratio of the two cells' medians; the
 * claim's ratio is the geometric mean of its pairs' ratios (never an
 * average of ratios).  Its 95% confidence interval is a percentile
 * bootstrap: VERIFY_RESAMPLES times, every cell's repetitions are resampled
 * with replacement, independently of every other cell's, and the geometric
 * mean of the pair ratios recomputed (stats_bootstrap_geomean_ratio_ci).
 * The random stream is seeded from the experiment's and the claim's names,
 * so the same samples always give the same interval.
 *
 * Verdict, from the interval [lo, hi] and the factor BY:
 *   holds         lo >= BY: the data support the claim at 95%
 *   fails         hi <  BY: the data contradict it at 95%
 *   inconclusive  lo < BY <= hi: the interval contains BY; also whenever a
 *                 compared cell has a single repetition, since one value
 *                 gives no interval
 *   no data       no pair of cells with measured values
 * Only "fails" makes `ipclab verify` exit 1.
 */
#pragma once

#include <glib.h>

#include "experiment.h"
#include "samples.h"

#define VERIFY_RESAMPLES 2000
#define VERIFY_LEVEL 0.95

/* A parsed `where` filter. */
typedef struct VerifyWhere VerifyWhere;

/* Parses and validates WHERE (see above).  Returns a new filter, or NULL
 * with IPCLAB_ERROR_INPUT and a message that quotes WHERE and says what is
 * allowed (the caller adds file, group and key).  NULL or "" gives an
 * empty filter that every row passes. */
VerifyWhere *verify_where_parse(const char *where, GError **error);
void verify_where_free(VerifyWhere *w);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(VerifyWhere, verify_where_free)

typedef enum {
        VERIFY_NO_DATA,
        VERIFY_HOLDS,
        VERIFY_INCONCLUSIVE,
        VERIFY_FAILS,
} VerifyVerdict;

/* "no data", "holds", "inconclusive", "fails". */
const char *verify_verdict_name(VerifyVerdict v);

/* The rule above: VERIFY_HOLDS when LO >= BY, VERIFY_FAILS when HI < BY,
 * else VERIFY_INCONCLUSIVE; VERIFY_NO_DATA when LO or HI is NaN. */
VerifyVerdict verify_verdict(double lo, double hi, double by);

/* One faster/slower pair of a claim. */
typedef struct {
        char *faster;       /* the cells, described ("pipe - bytes 64 ...") */
        char *slower;
        guint n_faster;     /* repetitions with the metric */
        guint n_slower;
        double ratio, lo, hi;
} VerifyPair;

typedef struct {
        VerifyVerdict verdict;
        double ratio, lo, hi;   /* geometric mean of the pair ratios, its CI;
                                 * NaN when there is no data */
        guint min_reps;         /* fewest repetitions in a compared cell */
        GArray *pairs;          /* VerifyPair */
        char *note;             /* what was left out and why, or NULL */
} VerifyResult;

/* Frees what RESULT holds (not RESULT itself) and zeroes it. */
void verify_result_clear(VerifyResult *result);

/* The seed of the bootstrap for claim CLAIM of experiment EXPERIMENT: a
 * 64-bit FNV-1a hash of "EXPERIMENT/CLAIM". */
guint64 verify_claim_seed(const char *experiment, const char *claim);

/* Evaluates CLAIM on SAMPLES (a samples.tsv read with table_read, named
 * PATH in messages) with bootstrap seed SEED, filling *RESULT (which the
 * caller clears with verify_result_clear).  Pure: no I/O, no printing.
 * Returns FALSE with IPCLAB_ERROR_INPUT when SAMPLES lacks a column the
 * claim needs or the claim's selectors or filter are malformed. */
gboolean verify_claim_table(const Claim *claim, const Table *samples, const char *path,
                            guint64 seed, VerifyResult *result, GError **error);

/* The same on DIR/samples.tsv.  A missing file gives VERIFY_NO_DATA with a
 * note; an unreadable or malformed one is an IPCLAB_ERROR_INPUT error. */
gboolean verify_claim_dir(const Claim *claim, const char *dir, guint64 seed,
                          VerifyResult *result, GError **error);

/* `ipclab verify [--data DIR] [--repro DIR] [--tsv FILE] [--pairs]
 * [EXPERIMENT.ini...]`: evaluates every claim of the given experiment files
 * (default: every experiments/NAME.ini) on DIR/<experiment>/samples.tsv (DIR
 * defaults to data) and, with --repro, on the reproduction too; prints the
 * table, and writes it as TSV to FILE (atomically) with --tsv.  Returns the
 * exit status: 0, 1 when a claim fails on the data or on the reproduction,
 * 2 on bad usage or input (nothing written). */
int verify_command(int argc, char **argv);
