/* claims-tex.h: the paper's claims table and the macros of every claim's
 * verdict and ratio, as LaTeX (`ipclab verify --latex`, `--macros`), and
 * the same table as TSV (`--tsv`, claims-tsv.c).  Nothing here prints. */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "experiment.h"
#include "verify.h"

/* One claim of the table: its verdicts on this data and on the
 * reproduction. */
typedef struct {
        const Experiment *exp;
        const Claim *claim;
        VerifyResult res[2];   /* this data, the reproduction */
        bool have_repro;
        bool missing[2];       /* no samples.tsv */
        char *prov[2];         /* where meta.ini says the samples came from
                                * something else (a profile), or NULL */
        double agree;          /* the share of reruns of this data's design
                                * estimated to reach its verdict
                                * (verify_stability), or NAN: not estimated */
        guint reruns;          /* the committed reruns of its experiment's
                                * design (--reruns, verify_rerun_dirs)... */
        guint reruns_same;     /* ...and those that reach this data's verdict */
        guint reruns_elsewhere;  /* reruns of the design on another machine */
        char *rerun_verdicts;  /* their verdicts, "holds,inconclusive", or NULL */
        guint rerun_counts[4]; /* how many reruns gave each VerifyVerdict */
} ClaimsRow;

char *claims_tex_table(const GArray *rows, bool have_repro);
char *claims_tex_macros(const GArray *rows, GError **error);

/* The reruns of ROWS (--reruns) per experiment: how many (the most any
 * claim of it was evaluated on), the verdicts they gave (reruns times
 * claims) and those that reach this data's; the reruns of its design on
 * another machine; in the total, the experiments with reruns.  And, with
 * this data as one run more, the pairs of runs of a claim (N runs: N (N
 * - 1) / 2 pairs each) and those whose two verdicts are the same: how
 * often two runs of a design agree, whichever of them a paper prints. */
typedef struct {
        const Experiment *exp;   /* NULL in the total */
        guint reruns, verdicts, same, elsewhere, experiments;
        guint pairs, pairs_same;
} ClaimsRerunTally;

/* Each experiment of ROWS with reruns (on this data's machine or
 * another), in ROWS' order (ROWS holds an experiment's claims together),
 * as a GArray of ClaimsRerunTally; their sum in *TOTAL. */
GArray *claims_rerun_tally(const GArray *rows, ClaimsRerunTally *total);

/* The claims table as TSV: one row of ROWS a line, under a header that
 * names every column. */
char *claims_tsv_table(const GArray *rows);

/* A pair's verdict as verify prints it: "holds", "fails, reversed"; in a
 * sequential design with the look its numbers are from ("holds at look
 * 1"). */
char *claims_pair_verdict(const VerifyResult *r, const VerifyPair *pr);
