/* cmd-check.c: the commands that look at experiments before any run:
 * list (the transports and why any is unavailable) and check (an
 * experiment file's cells, claims, figures and estimated duration)
 * (cli.h). */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#include "bus.h"
#include "env/env.h"
#include "estimate.h"
#include "experiment.h"
#include "figure.h"
#include "meta.h"
#include "numbers.h"
#include "place.h"
#include "plugin.h"
#include "run.h"
#include "summarize.h"
#include "transport.h"
#include "verify.h"

int cmd_list(int argc, char **argv)
{
        g_autoptr(GOptionContext) ctx = g_option_context_new("- list transports (plugins too) and why any is unavailable");
        g_autoptr(GError) e = NULL;

        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return cli_usage_error(ctx, e->message);
        printf("%-16s %-8s %-10s %s\n", "TRANSPORT", "FAMILY", "STATE", "WHAT");
        for (size_t i = 0; transport_table[i]; i++) {
                const Transport *t = transport_table[i];
                const char *why = transport_unavailable(t);
                printf("%-16s %-8s %-10s %s\n", t->name, t->family, why ? "unavailable" : "ok", t->summary);
                if (why)
                        printf("%-16s %-8s %-10s   why: %s\n", "", "", "", why);
                else if (t->libraries)
                        printf("%-16s %-8s %-10s   uses: %s\n", "", "", "", t->libraries());
                if (t->flags & TRANSPORT_DBUS) {
                        for (BusKind b = BUS_DBUS_DAEMON; b <= BUS_P2P; b++) {
                                /* A bus the transport itself refuses (sdbus-c++
                                 * before 1.4.0: peer to peer) says so too. */
                                const Cell probe = { .transport = t->name, .bus = b, .payload = PAYLOAD_STRING,
                                                     .size = 64, .pattern = PATTERN_ROUNDTRIP };
                                const char *bw = b == BUS_P2P ? NULL : bus_unavailable(b);
                                if (!bw && !why)
                                        bw = transport_refuses(t, &probe);
                                printf("%-16s %-8s %-10s   bus=%s%s%s\n", "", "", bw ? "unavailable" : "ok",
                                       bus_name(b), bw ? ": " : "", bw ? bw : "");
                        }
                }
        }
        /* Plugins on the path of the study here (plugin.h): probed, not
         * loaded; a refused one makes the exit status 2. */
        int status = 0;
        g_autoptr(GPtrArray) found = plugin_list(".");
        g_autoptr(GPtrArray) dirs = plugin_path(".");
        g_ptr_array_add(dirs, NULL);
        g_autofree char *where = g_strjoinv(", ", (char **) dirs->pdata);
        printf("\n%-16s %-8s %-10s %s\n", "PLUGIN", "FAMILY", "STATE", "WHAT");
        if (!found->len)
                printf("%-16s %-8s %-10s %s\n", "(none)", "", "", "no *.so in the plugin path");
        for (guint i = 0; i < found->len; i++) {
                const PluginEntry *pe = found->pdata[i];
                const char *state = pe->refused ? "refused" : pe->shadowed_by ? "shadowed"
                                  : pe->unavailable ? "unavailable" : "ok";
                printf("%-16s %-8s %-10s %s\n", pe->name, pe->family ? pe->family : "-", state,
                       pe->summary ? pe->summary : "");
                printf("%-16s %-8s %-10s   from: %s", "", "", "", pe->path);
                if (pe->version)
                        printf(" (version %s, ABI %s)", pe->version, pe->abi);
                printf("\n");
                if (pe->refused || pe->unavailable)
                        printf("%-16s %-8s %-10s   why: %s\n", "", "", "", pe->refused ? pe->refused : pe->unavailable);
                if (pe->shadowed_by)
                        printf("%-16s %-8s %-10s   transport=%s finds %s first\n", "", "", "", pe->name,
                               pe->shadowed_by);
                if (pe->refused) {
                        fprintf(stderr, "ipclab: %s\n", pe->refused);
                        status = EXIT_USAGE;
                }
        }
        printf("%-16s %-8s %-10s   plugin path: %s\n", "", "", "", where);
        printf("\n%-16s %-10s %s\n", "ENVIRONMENT", "STATE", "WHY");
        for (EnvKind k = 0; k < ENV_COUNT; k++) {
                const char *why = env_ops(k)->unavailable();
                printf("%-16s %-10s %s\n", env_ops(k)->name, why ? "unavailable" : "ok", why ? why : "");
        }
        return status;
}

/* What each claim of EXP (loaded from FILE with PROFILE) asks of its
 * repetitions (verify.h), and, without PROFILE, of each profile's:
 * loading has refused what cannot mean anything or cannot be decided
 * without a profile; a profile's claims that cannot be decided are
 * informative only. */
static void print_claim_designs(const Experiment *exp, const char *file, const char *profile)
{
        g_autoptr(GPtrArray) with = g_ptr_array_new_with_free_func((GDestroyNotify) experiment_free);

        for (guint p = 0; !profile && exp->profiles && exp->profiles[p]; p++) {
                Experiment *o = experiment_load(file, exp->profiles[p], NULL);
                if (o)
                        g_ptr_array_add(with, o);
        }
        for (guint k = 0; k < exp->claims->len; k++) {
                const Claim *cl = exp->claims->pdata[k];
                VerifyDesign d;
                const char *key;
                g_autoptr(GError) e = NULL;
                if (!verify_claim_design(exp, cl, &d, &key, &e))
                        continue;
                g_autofree char *line = verify_design_describe(&d);
                g_autofree char *why = profile ? verify_design_refusal(&d) : NULL;
                printf("  claim %s: %s%s\n", cl->name, line,
                       why ? " (profile: its verdicts are informative only)" : "");
                g_autoptr(GPtrArray) pl = verify_design_pairs(exp, cl);
                for (guint p = 0; p < pl->len; p++)
                        printf("    pair %u: %s\n", p + 1, (char *) pl->pdata[p]);
                guint pairs = d.pairs;
                for (guint p = 0; p < with->len; p++) {
                        const Experiment *o = with->pdata[p];
                        VerifyDesign od;
                        if (k >= o->claims->len || !verify_claim_design(o, o->claims->pdata[k], &od, &key, NULL))
                                continue;
                        g_autofree char *pl = od.pairs == pairs ? NULL : verify_design_describe(&od);
                        g_autofree char *pwhy = verify_design_refusal(&od);
                        if (pl)
                                printf("    with profile %s: %s%s\n", o->profile, pl,
                                       pwhy ? " (its verdicts are informative only)" : "");
                        else
                                printf("    with profile %s: %u repetitions a cell: %s\n", o->profile, od.reps,
                                       pwhy ? "cannot be decided, its verdicts are informative only"
                                            : "can be decided");
                }
        }
}

/* The warnings `ipclab check` gives for the data measured from EXP, in
 * DATA/<experiment>/ when there is any: every cell whose repetitions ran
 * in more than one CPU placement (summary_mixed_placements). */
static void check_data(const Experiment *exp, const char *data)
{
        g_autofree char *dir = g_build_filename(data, exp->name, NULL);
        g_autofree char *path = g_build_filename(dir, "samples.tsv", NULL);
        g_autoptr(GPtrArray) mixed = g_ptr_array_new_with_free_func(g_free);
        g_autoptr(GError) e = NULL;

        if (!g_file_test(path, G_FILE_TEST_EXISTS))
                return;
        if (!summary_mixed_placements(dir, mixed, &e)) {
                fprintf(stderr, "ipclab: warning: %s\n", e->message);
                return;
        }
        for (guint i = 0; i < mixed->len; i++)
                fprintf(stderr, "ipclab: warning: %s: cell %s: its repetitions ran in more than one CPU placement "
                        "(ipclab summarize --by-placement shows them apart)\n", dir, (char *) mixed->pdata[i]);
}

/* The estimated duration of EXP and how it was made (estimate.h). */
static void print_estimate(const Experiment *exp, const EstimateCalib *cal)
{
        Estimate est;
        char buf[64];

        place_estimate(exp, cal, PLACE_LOCAL, 1, &est);
        run_format_duration(buf, sizeof buf, est.secs);
        g_autofree char *how = estimate_describe(&est);
        g_free(est.where);
        printf("  estimated duration: %s%s\n", buf, est.more ? " or more" : "");
        printf("  estimated from: %s\n", how);
}

int cmd_check(int argc, char **argv)
{
        char *profile = NULL, *data = NULL;
        gboolean config_hash = FALSE, list_outputs = FALSE, make_outputs = FALSE, run_order = FALSE;
        GOptionEntry entries[] = {
                { "profile", 'p', 0, G_OPTION_ARG_STRING, &profile, "Apply [profile NAME]", "NAME" },
                { "data", 0, 0, G_OPTION_ARG_FILENAME, &data,
                  "Warn of cells of DIR/<experiment>/ that ran in several CPU placements (default: data)", "DIR" },
                { "list-outputs", 0, 0, G_OPTION_ARG_NONE, &list_outputs,
                  "Print each file's figures, tables and numbers: KIND EXP NAME INPUTS, tab-separated", NULL },
                { "make-outputs", 0, 0, G_OPTION_ARG_NONE, &make_outputs,
                  "Print the same as the make variables mk/plots.mk builds them from", NULL },
                { "run-order", 0, 0, G_OPTION_ARG_NONE, &run_order,
                  "List the cells in the order they run (seed= shuffles them), not in file order", NULL },
                { "config-hash", 0, 0, G_OPTION_ARG_NONE, &config_hash,
                  "Print only the SHA-256 of what each file measures (meta.ini's config_sha256)", NULL },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("FILE... - validate experiment files, print their cells and an estimate");
        g_autoptr(EstimateCalib) cal = NULL;
        g_autoptr(GError) e = NULL;
        int status = 0;

        g_option_context_add_main_entries(ctx, entries, NULL);
        g_option_context_set_description(ctx, "Every key of every group ([experiment], [profile NAME], [claim NAME], "
                                         "[figure NAME], [table NAME], [number NAME]),\nits type, default and "
                                         "meaning: ipclab keys\n");
        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return cli_usage_error(ctx, e->message);
        if (argc < 2)
                return cli_usage_error(ctx, "check needs at least one experiment file");
        if (make_outputs && (list_outputs || config_hash || profile))
                return cli_usage_error(ctx, "--make-outputs goes with no --list-outputs, --config-hash or --profile");
        list_outputs = list_outputs || make_outputs;
        /* Every file loaded, for what only all of them tell: two outputs
         * of one name (figure_check_collisions). */
        g_autoptr(GPtrArray) loaded = g_ptr_array_new_with_free_func((GDestroyNotify) experiment_free);
        for (int i = 1; i < argc; i++) {
                g_autoptr(GError) err = NULL;
                /* The outputs an experiment declares do not depend on
                 * what can run here: a reviewer without hyperfine still
                 * draws shell-calls from the committed data. */
                Experiment *exp = config_hash ? experiment_load_measured(argv[i], profile, &err)
                                : list_outputs && !profile ? experiment_load_anywhere(argv[i], &err)
                                : experiment_load(argv[i], profile, &err);
                if (!exp) {
                        status = cli_report(err);
                        continue;
                }
                g_ptr_array_add(loaded, exp);
                if (config_hash) {
                        g_autofree char *h = experiment_config_sha256(exp);
                        printf("%s\n", h);
                        continue;
                }
                if (make_outputs)
                        continue;
                if (list_outputs) {
                        for (guint k = 0; k < exp->outputs->len; k++) {
                                const Output *o = exp->outputs->pdata[k];
                                g_autofree char *in = figure_inputs(exp, o);
                                printf("%s\t%s\t%s\t%s\n", o->is_table ? "table" : "figure", exp->name, o->name, in);
                        }
                        if (exp->numbers->len) {
                                g_autofree char *in = numbers_inputs(exp);
                                printf("numbers\t%s\tmacros\t%s\n", exp->name, in);
                        }
                        continue;
                }
                printf("%s: %s\n", exp->name, exp->title);
                for (guint k = 0; k < exp->outputs->len; k++) {
                        const Output *o = exp->outputs->pdata[k];
                        if (!figure_cells_selected(exp, o))
                                fprintf(stderr, "ipclab: warning: %s: [%s] where: '%s' selects no cell of %s\n",
                                        exp->path, o->group, o->where ? o->where : "", exp->name);
                        if (o->published && !o->published_kept)
                                fprintf(stderr, "ipclab: warning: %s: [%s] published_where: '%s' keeps no row of %s\n",
                                        exp->path, o->group, o->published_where ? o->published_where : "", o->published);
                }
                printf("  %u cells x %u%s repetitions, warm-up %u, time limit %.0f s per repetition%s%s\n",
                       exp->cells->len, exp->repeat, exp->repeat_auto ? " or more (repeat=auto)" : "", exp->warmup, (double) exp->timeout_ns / 1e9,
                       profile ? ", profile " : "", profile ? profile : "");
                /* The cells as the file's axes expand (the index), or
                 * as they run (seed= shuffles them). */
                g_autoptr(GPtrArray) order = run_order ? experiment_cells_in_run_order(exp)
                                                       : experiment_cells_in_file_order(exp);
                printf("  cells in %s:\n", run_order ? "the order they run" : "file order (--run-order: as they run)");
                for (guint c = 0; c < order->len; c++) {
                        const Cell *cell = order->pdata[c];
                        g_autofree char *d = cell_describe(cell);
                        printf("  %4u  %s\n", cell->index, d);
                }
                for (guint s = 0; s < exp->skipped->len; s++)
                        printf("  skip  %s\n", (char *) exp->skipped->pdata[s]);
                print_claim_designs(exp, argv[i], profile);
                for (guint k = 0; k < exp->outputs->len; k++) {
                        g_autofree char *d = figure_describe(exp->outputs->pdata[k]);
                        printf("  %s\n", d);
                }
                GString *where = g_string_new(NULL);
                for (guint k = 0; k < exp->n_envs; k++)
                        g_string_append_printf(where, "%s%s", k ? ", " : "", env_name(exp->envs[k]));
                printf("  runs in: %s\n", where->str);
                g_string_free(where, TRUE);
                if (!cal)
                        cal = estimate_calib_load(data ? data : "data", meta_machine_name(), NULL);
                print_estimate(exp, cal);
                check_data(exp, data ? data : "data");
        }
        g_autoptr(GPtrArray) clashes = g_ptr_array_new_with_free_func(g_free);
        if (!config_hash && !figure_check_collisions(loaded, clashes)) {
                for (guint k = 0; k < clashes->len; k++)
                        fprintf(stderr, "ipclab: %s\n", (char *) clashes->pdata[k]);
                status = EXIT_USAGE;
        }
        if (make_outputs && !status)
                status = cli_outputs_make(loaded);
        g_free(profile);
        g_free(data);
        return status;
}
