/* findings.h: what a run found, for the end of `ipclab run`.
 *
 * After an experiment is measured into DIR, the researcher is told at
 * once what the data say, without building the paper:
 *   - every claim of the file: its verdict and the interval that decides
 *     it, computed by verify's own code (verify_claim_dir), so the line
 *     agrees with `ipclab verify` and the paper's claims table;
 *   - every line figure's main comparison: at its first and its last x,
 *     the best series against each of the others (at most
 *     FINDINGS_MAX_RIVALS, the closest first; transport=direct left out
 *     where the figure draws it as its floor, bounds=direct), hyperfine style ("pipe ran 1.52 [1.47, 1.58]
 *     times faster than fifo"), each ratio the one a claim "A faster than
 *     B" of those two series at that x would have, on the metric the
 *     figure draws (roundtrip_latency for lat_*, throughput, callrate or
 *     cpu; verify.h): its 95 % interval, with the coverage when too few
 *     repetitions reach 95 %;
 *   - what is suspicious: a cell whose repetitions ran in more than one
 *     CPU placement (summary_mixed_placements' cells), a cell with failed
 *     repetitions, and meta.ini's warnings (a loaded machine, ...).
 * Nothing here prints: main.c prints findings_format()'s text. */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "experiment.h"

/* The most series set beside the best one, at each x. */
#define FINDINGS_MAX_RIVALS 3
/* The most lines of one kind of suspicion (then "... and N more"). */
#define FINDINGS_MAX_SUSPECT 5

typedef enum {
        FINDING_PLAIN,
        FINDING_GOOD,     /* a claim that holds */
        FINDING_BAD,      /* a claim that fails */
        FINDING_DOUBT,    /* inconclusive, no data, anything suspicious */
} FindingTone;

typedef struct {
        char *label;      /* "claim NAME", "figure NAME", "suspect" */
        char *tag;        /* "holds", "at 64 B", "failed", ... */
        char *text;
        FindingTone tone;
} Finding;

typedef struct {
        char *experiment;
        char *dir;
        GPtrArray *items;   /* Finding *, in the order above */
} Findings;

/* What DIR (EXP's results, just written) holds, as above.  NULL with
 * ERROR when DIR/samples.tsv cannot be read; a claim or figure that
 * cannot be evaluated is left out. */
Findings *findings_build(const Experiment *exp, const char *dir, GError **error);
void findings_free(Findings *findings);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Findings, findings_free)

/* FINDINGS as aligned lines: a heading naming the experiment and DIR,
 * then one line a finding, label, tag and text each in a column; COLOUR:
 * the tags coloured by tone (ANSI).  Newly allocated. */
char *findings_format(const Findings *findings, bool colour);
