/* verify.h: claims checked against measured samples (`ipclab verify`).
 *
 * A claim ([claim NAME] in an experiment file, see experiment.h) says that
 * the cells selected by `faster` beat the cells selected by `slower` on
 * `metric` by a factor of at least `by`, optionally only where `where`
 * holds.  It is evaluated on the rows of a samples.tsv:
 *
 * Rows.  Only rows whose status is ok count.  Rows with the same values in
 * every axis column (samples_axis_columns: env, machine, transport, bus, payload,
 * size_B, pattern, reply, marshal, cpus, count, duration_ns) form a cell;
 * each row is one repetition of it.
 *
 * Selectors.  `faster`, `slower` and `where` are selectors (select.h):
 * conditions on the axes (transport, bus, payload, size, pattern, reply,
 * marshal, cpus, count, duration, env), all of which must hold, such as
 * "transport=libdbus,bus=p2p" or "size>=4KiB,count<10000".  A "-" in
 * samples.tsv stands for the value the cell had where the axis has one
 * (bus "-" is none, reply "-" of a one-way cell is echo, count or
 * duration "-" is 0); a count or duration that does not apply satisfies
 * no <, <=, > or >=.
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
 *   cpu                (client_cpu + server_cpu + bus_cpu) ns / messages,
 *                      "-" for a side that is not there  ratio slower / faster
 *   throughput         bytes_B / elapsed_ns         ratio faster / slower
 *   callrate           messages / elapsed_ns        ratio faster / slower
 * Which cells measure a metric: roundtrip_latency only round-trip cells
 * (the lat_* of one-way cells are transit times, another quantity), throughput only one-way and
 * round-trip cells (callrate cells carry no payload), callrate only callrate
 * cells (the rate of a round-trip or one-way cell is another quantity: its
 * latency or its throughput); elapsed and cpu every cell.  Selected cells
 * that do not measure the metric are left out (and counted in the note); a
 * claim where no faster or no slower cell measures it is refused (below).
 * A repetition without the metric ("-") is skipped; a cell with a value <=
 * 0 (a cost too small to measure) is left out of the comparison.
 *
 * A pair's ratio and interval.  With X the values of the cell that should
 * be worse and Y those of the other (so that > 1 means the claim's
 * direction), the ratio is the Hodges-Lehmann estimate, the median of all
 * the ratios y / x of one repetition of each, and its 95% interval the
 * exact distribution-free one of stats_ratio_ci (it inverts the
 * Mann-Whitney test; it needs 4 repetitions on each side to reach 95% and
 * gets 95.9% from 6 and 6).  No resampling: the same samples always give
 * the same numbers.  (Until issue 9 this was a percentile bootstrap of the
 * ratio of medians, which covered 90% at 3 and 3 (96% at 6 and 6)
 * on lognormal noise of sigma 0.2; test-stats.c simulates both.  It was
 * replaced although it does well at 6: the exact interval knows what it
 * reaches, so too few repetitions make a claim inconclusive instead of
 * passing 90% off as 95%; it holds whatever the noise's distribution; and
 * the combined interval below needs each pair's at 1 - 0.05/K, tails that
 * 2000 resamples do not pin down.)
 *
 * The claim's ratio and interval.  The ratio is the geometric mean of the
 * K pairs' ratios (never an average of ratios).  Its interval is the
 * geometric mean of the pairs' intervals taken at level 1 - 0.05/K: with
 * probability >= 95% all K of those cover their true ratios at once
 * (Bonferroni), and then their geometric mean covers the geometric mean of
 * the true ratios, whatever the correlation between pairs that share a
 * cell.  With one pair both are the pair's own.
 *
 * Verdict, for a claim with factor BY (>= 1) over K pairs:
 *   holds         every pair holds: its 95% interval lies at or above BY
 *                 (an intersection-union test: "at every size, ..." is
 *                 supported at 95% without correction only when each size
 *                 supports it at 95%);
 *   fails         not holds, and the claim's combined interval lies below
 *                 BY (then some pair's true ratio is below BY, at 95%);
 *   inconclusive  otherwise: also whenever a pair's interval cannot reach
 *                 95% (too few repetitions: 3 and 3 reach 90%), which
 *                 keeps it from holding, and whenever the combined interval
 *                 cannot reach 95%, which keeps it from failing;
 *   no data       no pair of cells with measured values.
 * So a pair whose interval lies below 1 (reversed: the data say the other
 * way round there) makes the claim inconclusive at best, whatever the
 * geometric mean says; verify names every reversed pair in the note, and
 * every pair's ratio, interval and verdict is printed and written to the
 * TSV.
 *
 * Checks (verify_claim_check), against the experiment's own cells, before
 * any data is read: `where` keeps none of the cells faster (or slower)
 * selects;
 * faster and slower select the same cells; no cell selected by faster (or
 * by slower) measures the metric.  Each is an IPCLAB_ERROR_INPUT naming the
 * file, the group and the key; `ipclab verify` exits 2 on it and `ipclab
 * check` warns.
 *
 * Only "fails" makes `ipclab verify` exit 1.
 */
#pragma once

#include <glib.h>

#include "experiment.h"
#include "samples.h"

#define VERIFY_LEVEL 0.95

typedef enum {
        VERIFY_NO_DATA,
        VERIFY_HOLDS,
        VERIFY_INCONCLUSIVE,
        VERIFY_FAILS,
} VerifyVerdict;

/* "no data", "holds", "inconclusive", "fails". */
const char *verify_verdict_name(VerifyVerdict v);

/* The rule for one interval (one pair): VERIFY_HOLDS when LO >= BY,
 * VERIFY_FAILS when HI < BY, else VERIFY_INCONCLUSIVE; VERIFY_NO_DATA
 * when LO or HI is NaN. */
VerifyVerdict verify_verdict(double lo, double hi, double by);

/* One faster/slower pair of a claim. */
typedef struct {
        char *faster;       /* the cells, described ("pipe - bytes 64 ...") */
        char *slower;
        guint n_faster;     /* repetitions with the metric */
        guint n_slower;
        double ratio, lo, hi;   /* its ratio and 95% interval */
        double coverage;        /* what the interval reaches (< 0.95: too few
                                 * repetitions) */
        VerifyVerdict verdict;  /* of this pair alone (inconclusive when
                                 * coverage < 0.95) */
        bool reversed;          /* hi < 1: the other way round */
} VerifyPair;

typedef struct {
        VerifyVerdict verdict;
        double ratio, lo, hi;   /* geometric mean of the pair ratios, its
                                 * combined interval; NaN without data */
        double coverage;        /* what that interval reaches at least */
        guint min_reps;         /* fewest repetitions in a compared cell */
        char *reversed;         /* the reversed pairs, described, or NULL */
        GArray *pairs;          /* VerifyPair */
        char *note;             /* what was left out and why, or NULL */
} VerifyResult;

/* Frees what RESULT holds (not RESULT itself) and zeroes it. */
void verify_result_clear(VerifyResult *result);

/* The checks above for CLAIM of EXP, on EXP's cells.  FALSE with
 * IPCLAB_ERROR_INPUT ("FILE: [claim NAME] KEY: ...") on the first problem. */
gboolean verify_claim_check(const Experiment *exp, const Claim *claim, GError **error);

/* Evaluates CLAIM on SAMPLES (a samples.tsv read with table_read, named
 * PATH in messages), filling *RESULT (which the caller clears with
 * verify_result_clear).  Pure: no I/O, no printing.  Deterministic.
 * Returns FALSE with IPCLAB_ERROR_INPUT when SAMPLES lacks a column the
 * claim needs or the claim's selectors or filter are malformed. */
gboolean verify_claim_table(const Claim *claim, const Table *samples, const char *path,
                            VerifyResult *result, GError **error);

/* The same on DIR/samples.tsv.  A missing file gives VERIFY_NO_DATA with a
 * note; an unreadable or malformed one is an IPCLAB_ERROR_INPUT error. */
gboolean verify_claim_dir(const Claim *claim, const char *dir, VerifyResult *result,
                          GError **error);

/* "Array beats per-element" and "array-beats-per-element" give
 * "ArrayBeatsPerElement": the claim's name camel-cased, letters only (a
 * LaTeX macro name); a digit becomes its English name ("p2p" ->
 * "PTwoP").  Newly allocated. */
char *verify_macro_name(const char *claim);

/* A number as the paper prints it, in tables and text alike: three
 * significant figures below 100, then 2, 1 or 0 decimals by magnitude,
 * digits grouped with "\," from 10000 on; "--" for NaN.  Newly
 * allocated. */
char *verify_format_number(double x);

/* X with exactly DIGITS decimals (a table's or a number's digits=), or
 * verify_format_number(X) when DIGITS < 0.  Newly allocated. */
char *verify_format_digits(double x, int digits);

/* A number as written (a published one, quoted exactly): its characters
 * kept, the integer digits grouped as verify_format_number() groups them
 * ("55496" gives "55\\,496", "1.05127" stays); "--" for "-" or "";
 * NULL when S is not a plain number (text: the caller escapes it).
 * Newly allocated. */
char *verify_format_written(const char *s);

/* `ipclab verify [--data DIR] [--repro DIR] [--tsv FILE] [--macros FILE]
 * [--pairs] [EXPERIMENT.ini...]`: evaluates every claim of the given
 * experiment files (default: every experiments/NAME.ini) on
 * DIR/<experiment>/samples.tsv (DIR defaults to data) and, with --repro, on
 * the reproduction too; prints the table with every pair of a claim over
 * several pairs (--pairs: of every claim), writes it as TSV to FILE
 * (atomically) with --tsv, and with --macros writes FILE (atomically), for
 * the paper, per claim of the published data:
 *   \newcommand{\ClaimVerdictNAME}{holds}        holds, fails, inconclusive
 *                                                or no data
 *   \newcommand{\ClaimRatioNAME}{1.23}           the claim's ratio
 *   \newcommand{\ClaimLoNAME}{1.10} \ClaimHiNAME  its interval
 *   \newcommand{\ClaimIntervalNAME}{1.23 [1.10, 1.40]}
 * with NAME from verify_macro_name() (two claims giving the same NAME are
 * an error: exit 2).  Returns the exit status: 0, 1 when a claim fails on
 * the data or on the reproduction, 2 on bad usage or input (nothing
 * written). */
int verify_command(int argc, char **argv);
