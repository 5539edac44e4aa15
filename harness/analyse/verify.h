/* verify.h: claims checked against measured samples (`ipclab verify`).
 *
 * A claim ([claim NAME] in an experiment file, see experiment.h) says that
 * the cells selected by `faster` beat the cells selected by `slower` on
 * `metric` by a factor of at least `by`, optionally only where `where`
 * holds.  It is a question asked before measuring, so it is checked
 * twice: against the experiment's own cells when the file is loaded (can
 * it mean anything, can it be decided with the repetitions the file
 * gives: "Before measuring" below), and on the rows of a samples.tsv
 * afterwards:
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
 * partner are left out (and counted in the note).  K is the number of
 * pairs.
 *
 * Metrics, per repetition, and the direction of the ratio (> 1 means the
 * faster cell is faster: the claim's direction):
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
 * A pair's ratio and intervals.  With X the values of the cell that should
 * be worse and Y those of the other (so that > 1 means the claim's
 * direction), the ratio is the Hodges-Lehmann estimate, the median of all
 * the ratios y / x of one repetition of each, and its intervals the exact
 * distribution-free ones of stats_ratio_ci (they invert the Mann-Whitney
 * test; n and m repetitions reach at most 1 - 2 / C(n+m, n): 3 and 3 90%,
 * 4 and 4 97.1%, 6 and 6 99.78%, 7 and 7 99.94%).  No resampling: the
 * same samples always give the same numbers.  Each interval is printed
 * with the coverage it reaches (stats_ratio_ci's, >= the level asked when
 * there are repetitions enough), never with the level asked.  (Until issue
 * 9 this was a percentile bootstrap of the ratio of medians, which covered
 * 90% at 3 and 3 on lognormal noise of sigma 0.2; test-stats.c simulates
 * both.)
 *
 * Verdict, for a claim with factor BY (>= 1) over K pairs, on data
 * measured with a fixed number of repetitions (one look, alpha = 0.05):
 *   holds         every pair's interval at level 1 - alpha lies at or
 *                 above BY, each reaching that level (an intersection-union
 *                 test: "at every size, ..." is supported at 95% without
 *                 correction only when each size supports it at 95%);
 *   fails         some pair's interval at level 1 - alpha/K lies wholly
 *                 below BY, reaching that level (Bonferroni: if every true
 *                 ratio is at or above BY, the chance that any of the K
 *                 intervals lies below it is at most K alpha/K = alpha.
 *                 This is the family-wise error of the old rule, which
 *                 failed a claim when the geometric mean of those K
 *                 intervals lay below BY, and it has more power: one pair
 *                 clearly below BY fails the claim whatever the others
 *                 say);
 *   inconclusive  otherwise: also whenever a pair's interval cannot reach
 *                 its level (too few repetitions), which keeps the claim
 *                 from holding (or that pair from failing it);
 *   no data       no pair of cells with measured values.
 * A pair's own verdict says what it does to the claim: holds (its 1 -
 * alpha interval at or above BY), fails (its 1 - alpha/K interval below
 * BY: the claim fails), else inconclusive; it is reversed when its 1 -
 * alpha interval lies below 1 (the data say the other way round there),
 * and every reversed pair is named.  The claim's weakest pair (holds: the
 * lowest lower bound) or blocking pair (fails: the one below BY with the
 * lowest upper bound; inconclusive: the lowest lower bound among those
 * that do not hold) is reported with its interval.
 *
 * The claim's ratio, the geometric mean of the K pairs' ratios (never an
 * average of ratios), summarises; it decides nothing.  Beside it stands
 * the geometric mean of the pairs' 1 - alpha/K intervals: it covers the
 * geometric mean of the true ratios whenever all K intervals cover theirs,
 * so with probability at least the coverage it states (1 - the sum of the
 * K intervals' misses), whatever the correlation between pairs that share
 * a cell.
 *
 * Sequential designs (repeat=auto with repeat_until=decided, experiment.h;
 * the data's meta.ini records them as [repeat] looks=N1;N2;...): the
 * claim is looked at only at the L repetition counts of the look schedule
 * fixed in the file before measuring, and at each look its pairs'
 * intervals are taken at alpha/L instead of alpha (holds: 1 - alpha/L;
 * fails: 1 - alpha/(L K)), on the first Nj repetitions of every cell.
 * Each pair is decided on its own: the first look at which its interval
 * holds or fails decides it, and it keeps that verdict and that look's
 * numbers (VerifyPair.look) at later looks; the claim holds once every
 * pair holds, fails once one fails, and is decided at that look.  A pair
 * still open at a look some cell of it has not reached (rows, failed ones
 * included) keeps its last numbers, undecided; when no open pair reached
 * a look, the sequence ends at the look before.  The run (measure/run.c)
 * stops a cell at the first look at which no open pair of an undecided
 * claim uses it.  Whatever rule chooses when to stop (pairs decided,
 * repeat_max, auto_cap), a wrong "holds" needs the pair whose true ratio
 * lies below BY to lie above it at one of the L looks, each with
 * probability at most alpha/L, and a wrong "fails" one of the K pairs to
 * lie below at one of them, each at most alpha/(L K): the family-wise
 * error over all looks stays at most alpha (Bonferroni over looks and
 * pairs; test-verify.c simulates it, and the naive rule, 95% at every
 * look, which does not).  `ipclab verify` replays exactly this on the
 * data, so its verdict is the one the run stopped on.
 *
 * Before measuring (verify_claim_design, which the experiment file calls
 * through verify_claim_check, installed at start-up, when it is loaded:
 * `ipclab check`, `ipclab run` and `ipclab verify` refuse alike,
 * exit 2, FILE:LINE: [claim NAME] KEY: message).  The claim is paired on a
 * table of the experiment's own cells, one row each, in each environment
 * it runs in (and on each machine a selector names), written by the same
 * writer as samples.tsv and paired by the same code as the data.  Refused:
 *   - `where` keeps none of the cells faster (or slower) selects;
 *   - a side selects no cell in the environments the file runs in;
 *   - faster and slower select the same cells;
 *   - no cell a side selects measures the metric;
 *   - the sides pair with nothing (no slower cell agrees with a faster one
 *     on the axes neither names);
 *   - and, for the file without a profile, a claim that cannot be decided
 *     with the repetitions it gives every cell (repeat=N; with
 *     repeat=auto, those it is sure of: the last look with
 *     repeat_until=decided, else min(2 repeat_min, repeat_max)): it cannot
 *     hold when N and N reach less than 1 - alpha/L, and cannot fail when
 *     they reach less than 1 - alpha/(L K).
 * A profile ([profile quick]) is exempt from the last check only: it runs
 * the same cells with less work, and `ipclab check` says for each profile
 * whether its claims can be decided or are informative only.  K is
 * counted on one machine: data merged from several machines has more
 * pairs, and verify takes the levels from the pairs the data has.
 *
 * Only "fails" makes `ipclab verify` exit 1.
 */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "experiment.h"
#include "samples.h"

/* The family-wise error of every verdict. */
#define VERIFY_ALPHA 0.05
#define VERIFY_LEVEL (1 - VERIFY_ALPHA)
/* A claim stands on no cell whose fixed part (the one-message window,
 * fixed_ns) is more than this share of its window, the median over its
 * repetitions: there the time per message is mostly the time of none. */
#define VERIFY_MAX_FIXED_SHARE 0.10

typedef enum {
        VERIFY_NO_DATA,
        VERIFY_HOLDS,
        VERIFY_INCONCLUSIVE,
        VERIFY_FAILS,
} VerifyVerdict;

/* "no data", "holds", "inconclusive", "fails". */
const char *verify_verdict_name(VerifyVerdict v);

/* The rule for one interval: VERIFY_HOLDS when LO >= BY, VERIFY_FAILS
 * when HI < BY, else VERIFY_INCONCLUSIVE; VERIFY_NO_DATA when LO or HI is
 * NaN. */
VerifyVerdict verify_verdict(double lo, double hi, double by);

/* One faster/slower pair of a claim. */
typedef struct {
        char *faster;       /* the cells, described ("pipe bytes 64 B roundtrip ...") */
        char *slower;
        char *label;        /* what tells it from the claim's other pairs
                             * ("string 512 B"); "" for a claim of one pair */
        guint n_faster;     /* repetitions with the metric */
        guint n_slower;
        double ratio;
        double lo, hi;          /* its interval at the holds level */
        double coverage;        /* what that interval reaches (below the
                                 * level: too few repetitions) */
        double fail_lo, fail_hi;  /* its interval at the fails level */
        double fail_coverage;
        VerifyVerdict verdict;  /* what it does to the claim (above) */
        bool reversed;          /* hi < 1: the other way round */
        guint look;             /* the look its numbers are from (1: one look) */
        guint cell_faster;      /* the cells' numbers (samples.tsv's cell */
        guint cell_slower;      /* column); G_MAXUINT in data without them */
} VerifyPair;

typedef struct {
        VerifyVerdict verdict;
        double ratio, lo, hi;   /* geometric mean of the pair ratios, and of
                                 * their fails-level intervals; NaN without data */
        double coverage;        /* what that interval reaches at least */
        double level_holds;     /* the levels asked for: 1 - alpha/L and */
        double level_fails;     /* 1 - alpha/(L K) */
        guint min_reps;         /* fewest repetitions in a compared cell */
        guint clear;            /* pairs that hold */
        int decisive;           /* the weakest or blocking pair (above), or -1 */
        guint look, n_looks;    /* decided (or left) at look LOOK of N_LOOKS */
        guint look_reps;        /* repetitions at that look; 0: all (one look) */
        char *reversed;         /* the reversed pairs, described, or NULL */
        GArray *pairs;          /* VerifyPair */
        char *note;             /* what was left out and why, or NULL */
} VerifyResult;

/* Does an interval of coverage COVERAGE reach LEVEL?  (stats_ratio_ci's
 * tolerance.) */
bool verify_reaches(double coverage, double level);

/* A pair's ratio and intervals (above): NUM's values (N_NUM) over DEN's,
 * the Hodges-Lehmann ratio with its interval at LEVEL_HOLDS (lo, hi,
 * coverage) and at LEVEL_FAILS (fail_lo, fail_hi, fail_coverage), and
 * reversed when the first lies below 1.  Fills only those fields of
 * *PAIR.  What claims, `ipclab compare` and the end of a run all compute
 * a ratio with.  Returns 0 or -errno (stats_ratio_ci's). */
int verify_pair_intervals(const double *num, guint n_num, const double *den, guint n_den, double level_holds,
                          double level_fails, VerifyPair *pair);

/* What PAIR (verify_pair_intervals at LEVEL_HOLDS and LEVEL_FAILS) does to
 * a claim of factor BY: holds, fails or inconclusive, as above (an
 * interval that cannot reach its level decides nothing). */
VerifyVerdict verify_pair_verdict(const VerifyPair *pair, double level_holds, double level_fails, double by);

/* "2.04 [1.88, 2.19]": a ratio and its interval as verify prints them.
 * Newly allocated. */
char *verify_format_interval(double ratio, double lo, double hi);

/* The pair that decides RESULT with its interval and coverage, as the
 * claims table shows it: "blocking 2 KiB: 2.35 [0.94, 2.42] 95.9%", for
 * a claim of one pair the interval alone, "-" without data.  Newly
 * allocated. */
char *verify_decisive_text(const VerifyResult *result);

/* Frees what RESULT holds (not RESULT itself) and zeroes it. */
void verify_result_clear(VerifyResult *result);

/* What a claim asks of an experiment's repetitions (before measuring). */
typedef struct {
        guint pairs;            /* K, on one machine */
        guint unpaired;         /* faster cells without a partner */
        guint reps;             /* repetitions every cell is sure of (above) */
        guint looks;            /* L: 1, or the looks of repeat_until=decided */
        double level_holds;     /* 1 - alpha/L */
        double level_fails;     /* 1 - alpha/(L K) */
        guint need_holds;       /* repetitions a side that reach level_holds */
        guint need_fails;       /* ... and level_fails */
        double reach;           /* what REPS and REPS reach */
        bool can_hold, can_fail;
} VerifyDesign;

/* The checks above for CLAIM of EXP, on EXP's cells, before any data:
 * fills *DESIGN and returns TRUE when the claim can mean something; else
 * FALSE with IPCLAB_ERROR_INPUT (the message only: the caller adds file,
 * group and key) and *KEY the key to blame.  Whether it can be decided is
 * DESIGN->can_hold and can_fail; verify_design_refusal words it.  A claim
 * on a transport that cannot run here (experiment_selector_unavailable)
 * is not checked: TRUE, with DESIGN->pairs 0. */
gboolean verify_claim_design(const Experiment *exp, const Claim *claim, VerifyDesign *design,
                             const char **key, GError **error);

/* Why a claim of DESIGN cannot be decided, with what would let it (a
 * sentence), or NULL when it can hold and fail.  Newly allocated. */
char *verify_design_refusal(const VerifyDesign *design);

/* verify_claim_design() and, when it passes, verify_design_refusal() in
 * *REFUSAL: the check an experiment file makes of each claim as it is
 * read (experiment.h, ExperimentClaimCheck), which a program installs at
 * start-up. */
gboolean verify_claim_check(const Experiment *exp, const Claim *claim, const char **key, char **refusal,
                            GError **error);

/* One line for `ipclab check`: K pairs, the repetitions needed to hold
 * and to fail, and whether the repetitions given can.  Newly allocated. */
char *verify_design_describe(const VerifyDesign *design);

/* The K pairs of CLAIM on EXP's cells, before any data, as `ipclab
 * check` lists them: "FASTER CELL  vs  SLOWER CELL" each (char *), in the
 * order verify pairs them; empty when the claim cannot be paired here
 * (verify_claim_design says why).  The caller owns the array. */
GPtrArray *verify_design_pairs(const Experiment *exp, const Claim *claim);

/* Does CLAIM concern CELL: selected by faster or slower, kept by where,
 * measuring the metric?  (repeat_until=decided: the cells that wait for
 * the claim.) */
bool verify_claim_covers(const Claim *claim, const Cell *cell);

/* Evaluates CLAIM on SAMPLES (a samples.tsv read with table_read, named
 * PATH in messages), filling *RESULT (which the caller clears with
 * verify_result_clear).  Pure: no I/O, no printing.  Deterministic.
 * Returns FALSE with IPCLAB_ERROR_INPUT when SAMPLES lacks a column the
 * claim needs, the claim's selectors or filter are malformed, or no cell a
 * side selects measures the metric.  One look at every row, alpha 0.05. */
gboolean verify_claim_table(const Claim *claim, const Table *samples, const char *path,
                            VerifyResult *result, GError **error);

/* The same for data measured in the sequential design of LOOKS (N_LOOKS
 * increasing repetition counts; NULL, 0: one look at every row): looks 1
 * to UPTO (<= N_LOOKS) are replayed as above, each at alpha/N_LOOKS, and
 * the first that decides gives the verdict. */
gboolean verify_claim_table_looks(const Claim *claim, const Table *samples, const char *path,
                                  const guint *looks, guint n_looks, guint upto, VerifyResult *result,
                                  GError **error);

/* The same on DIR/samples.tsv, in the design DIR/meta.ini records.  A
 * missing file gives VERIFY_NO_DATA with a note; an unreadable or
 * malformed one is an IPCLAB_ERROR_INPUT error. */
gboolean verify_claim_dir(const Claim *claim, const char *dir, VerifyResult *result,
                          GError **error);

/* One run's samples and design, read once for every claim over them
 * (verify_claim_dir reads them for one): DIR/samples.tsv (samples NULL
 * when it does not exist) and the looks DIR/meta.ini records. */
typedef struct {
        Table *samples;
        char *path;                          /* DIR/samples.tsv */
        guint looks[EXPERIMENT_MAX_LOOKS];
        guint n_looks;                       /* 0: a fixed design */
} VerifyRun;

/* Reads DIR into *RUN, which the caller clears with verify_run_clear()
 * whatever it returns; FALSE with an IPCLAB_ERROR_INPUT error when
 * samples.tsv is unreadable or malformed. */
gboolean verify_run_read(VerifyRun *run, const char *dir, GError **error);
void verify_run_clear(VerifyRun *run);

/* verify_claim_dir on a run already read. */
gboolean verify_claim_run(const Claim *claim, const VerifyRun *run, VerifyResult *result, GError **error);

/* The committed reruns of EXP's design under RERUNS (`verify --reruns`):
 * every directory called EXP->name at most VERIFY_RERUN_DEPTH levels
 * below RERUNS (reruns/DATE/EXP/ of a whole rerun, reruns/DATE-EXP/N/EXP/
 * of `make claim-reruns`) that holds a samples.tsv and a meta.ini of the
 * default profile whose config_sha256 is EXP's as the file stands now (a
 * rerun of another design is no rerun of this one), on the machine of
 * DATA_DIR/EXP/meta.ini (compare_same_machine; any, without it), but
 * DATA_DIR/EXP itself; sorted by path, newly allocated.  *ELSEWHERE gets
 * how many of the design ran on another machine: reruns too, but not of
 * this data's machine.  Symbolic links are not followed.  An unreadable
 * directory or meta.ini is passed over. */
#define VERIFY_RERUN_DEPTH 3
GPtrArray *verify_rerun_dirs(const char *reruns, const Experiment *exp, const char *data_dir, guint *elsewhere);

/* The look schedule DIR/meta.ini records ([repeat] looks=N1;N2;...), in
 * LOOKS (at most EXPERIMENT_MAX_LOOKS, increasing); 0 for a fixed design
 * or no meta.ini. */
guint verify_meta_looks(const char *dir, guint *looks);

/* How often a rerun would reach each verdict of CLAIM, estimated from
 * SAMPLES (samples.tsv at PATH, for messages): DRAWS times, every cell
 * either side selects gets repetitions drawn with replacement from its
 * rows in SAMPLES (failed ones too, so that failures recur as often),
 * numbered 0, 1, ... as a run numbers them, and the claim is evaluated on
 * the draw.  With LOOKS (N_LOOKS > 0, a sequential design) each cell gets
 * LOOKS[N_LOOKS - 1] repetitions and the looks are replayed as the run
 * and verify_claim_table_looks() take them: the first that decides gives
 * the verdict, from the draws up to it; else N repetitions and one look.
 * SEED fixes the draws (the same data give the same shares).  COUNTS[v]
 * gets the draws of verdict v (VerifyVerdict).  The draws know only the
 * spread within this data: a rerun on another day can differ more. */
gboolean verify_stability(const Claim *claim, const Table *samples, const char *path, guint n,
                          const guint *looks, guint n_looks, guint draws, guint64 seed, guint counts[4],
                          GError **error);

/* ROWS (char *: rows of samples.tsv as samples_append_row writes them,
 * with or without their newline) as a Table with samples.tsv's header,
 * for verify_claim_table on rows in memory.  The caller frees it with
 * table_free. */
Table *verify_rows_table(const GPtrArray *rows);

/* A number as the paper prints it, in tables and text alike: three
 * significant figures below 100, then 2, 1 or 0 decimals by magnitude,
 * digits grouped with "\," from 10000 on; "--" for NaN.  Newly
 * allocated. */
char *verify_format_number(double x);

/* A coverage as people read it, rounded down to 0.1% so that it never
 * says more than it is, to 0.01% from 99% on: 0.9589 "95.8%", 0.99784
 * "99.78%".  LATEX: "95.8\,\%".
 * Newly allocated. */
char *verify_format_coverage(double coverage, bool latex);

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
 * [--latex FILE] [--pairs] [--stability N,N... [--draws D]]
 * [EXPERIMENT.ini...]`: evaluates every claim of the given experiment
 * files (default: every experiments/NAME.ini) on
 * DIR/<experiment>/samples.tsv (DIR defaults to data: "this data") and,
 * with --repro, on the reproduction too; prints the table (per claim:
 * verdict, pairs that clear the factor of all, the ratio, the weakest or
 * blocking pair with its interval and coverage), every pair of a claim
 * over several pairs (--pairs: of every claim), writes it as TSV to FILE
 * (atomically) with --tsv, as the paper's LaTeX table (a longtable that
 * breaks across pages) with --latex, and with --macros writes FILE
 * (atomically), for the paper, per claim of this data:
 *   \newcommand{\ClaimVerdictNAME}{holds}        holds, fails, inconclusive
 *                                                or no data
 *   \newcommand{\ClaimRatioNAME}{1.23}           the claim's ratio
 *   \newcommand{\ClaimLoNAME}{1.10} \ClaimHiNAME  its combined interval
 *   \newcommand{\ClaimIntervalNAME}{...}         one pair: "1.23 [1.10,
 *       1.40] at 95.9\,\%"; several: "11 of 12 pairs clear 1.25; blocking
 *       LABEL: ..." (or "weakest", for a claim that holds)
 *   \newcommand{\ClaimAgreeNAME}{92}           the per cent of 200 reruns of
 *       the data's design estimated to reach its verdict (verify_stability,
 *       a fixed seed); --latex's table gives it too
 * with NAME from latex_macro_name() (two claims giving the same NAME are
 * an error: exit 2).  --stability N,N...: instead, for every claim, how
 * often a rerun with N repetitions a cell would reach this data's verdict
 * (SAME), and how often two such reruns would reach the same verdict as
 * each other (TWO, the sum of the squared shares of each verdict: a paper
 * measured with N repetitions and its reviewer's rerun), estimated by
 * drawing N repetitions of every cell with replacement from this data, D
 * times (default 200, a fixed seed: the same data give the same table),
 * and evaluating each draw with one look; printed, and written as TSV with
 * --tsv.  Draws see only the spread within this run: above the measured
 * repetitions they repeat values, and a rerun on another day (another
 * load, another placement) can differ more.  Returns the exit status: 0, 1 when a claim
 * fails on the data or on the reproduction, 2 on bad usage or input
 * (nothing written). */
int verify_command(int argc, char **argv);
