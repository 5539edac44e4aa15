/* fuzz-experiment.c: libFuzzer target for the experiment-file parser.
 *
 * Every input is parsed as an experiment file, without a profile and with
 * profile "quick", exactly as `ipclab check` and `ipclab run` parse a file
 * from disk (experiment_load() reads the file and calls
 * experiment_load_data()).  The input is passed as libFuzzer gives it:
 * SIZE bytes, not NUL-terminated, as the contract of experiment_load_data()
 * allows.  A valid file is then used the way `ipclab check` uses it (every
 * cell described and estimated, every claim's selectors matched); a refused
 * one must come with an IPCLAB_ERROR_INPUT error that names the file.
 * Everything is freed, so LeakSanitizer sees any leak.  Built and run by
 * mk/fuzz.mk (`make fuzz-check`, `make fuzz`).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experiment.h"
#include "estimate.h"
#include "transport.h"
#include "verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant broken: libFuzzer saves the input as a crash. */
static void broken(const char *what, const char *detail)
{
        fprintf(stderr, "fuzz-experiment: %s: %s\n", what, detail ? detail : "(null)");
        abort();
}

static void use(const Experiment *exp)
{
        double total = 0;

        if (!exp->cells || exp->cells->len == 0)
                broken("a valid experiment without cells", exp->name);
        for (guint i = 0; i < exp->cells->len; i++) {
                const Cell *cell = exp->cells->pdata[i];
                char *d = cell_describe(cell);
                if (!g_utf8_validate(d, -1, NULL))
                        broken("a cell description that is not UTF-8", d);
                g_free(d);
                total += estimate_rep_ns(NULL, cell, exp->warmup);
        }
        for (guint i = 0; exp->claims && i < exp->claims->len; i++) {
                const Claim *cl = exp->claims->pdata[i];
                guint faster = 0, slower = 0;
                for (guint j = 0; j < exp->cells->len; j++) {
                        int f = experiment_cell_matches(exp->cells->pdata[j], cl->faster);
                        int s = experiment_cell_matches(exp->cells->pdata[j], cl->slower);
                        if (f < 0 || s < 0)
                                broken("a claim whose selector was accepted but does not parse", cl->name);
                        faster += (guint) f;
                        slower += (guint) s;
                }
                if ((!faster && !experiment_selector_unavailable(exp, cl->faster)) ||
                    (!slower && !experiment_selector_unavailable(exp, cl->slower)))
                        broken("a claim naming no cell was accepted", cl->name);
        }
        (void) total;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        static const char *const profiles[] = { NULL, "quick" };
        transports_install(&transport_ops);
        experiment_install_claim_check(verify_claim_check);

        for (size_t p = 0; p < G_N_ELEMENTS(profiles); p++) {
                GError *error = NULL;
                Experiment *exp = experiment_load_data("fuzz.ini", (const char *) data, size,
                                                       profiles[p], &error);
                if (exp) {
                        if (error)
                                broken("an experiment and an error", error->message);
                        use(exp);
                        experiment_free(exp);
                        continue;
                }
                if (!error)
                        broken("refused without an error", NULL);
                if (error->domain != IPCLAB_ERROR || error->code != IPCLAB_ERROR_INPUT)
                        broken("refused with an error that is not IPCLAB_ERROR_INPUT", error->message);
                /* One line per mistake, each "fuzz.ini: ..." or
                 * "fuzz.ini:LINE: ...". */
                g_auto(GStrv) lines = g_strsplit(error->message, "\n", -1);
                for (guint i = 0; lines[i]; i++) {
                        const char *p = lines[i];
                        if (!g_str_has_prefix(p, "fuzz.ini:"))
                                broken("an error that does not name the file", error->message);
                        p += strlen("fuzz.ini:");
                        while (g_ascii_isdigit(*p))
                                p++;
                        if ((p[0] != ':' || p[1] != ' ') && (p != lines[i] + strlen("fuzz.ini:") || p[0] != ' '))
                                broken("an error that does not name the file", error->message);
                }
                if (!g_utf8_validate(error->message, -1, NULL))
                        broken("an error message that is not UTF-8", "(bytes)");
                g_error_free(error);
        }
        return 0;
}
