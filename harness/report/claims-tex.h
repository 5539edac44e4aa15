/* claims-tex.h: the paper's claims table and the macros of every claim's
 * verdict and ratio, as LaTeX (`ipclab verify --latex`, `--macros`).
 * Nothing here prints. */
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
} ClaimsRow;

char *claims_tex_table(const GArray *rows, bool have_repro);
char *claims_tex_macros(const GArray *rows, GError **error);
