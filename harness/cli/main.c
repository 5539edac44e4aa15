/* main.c: the `ipclab` command line.  The only place that prints errors.
 *
 *   ipclab list
 *   ipclab check FILE...
 *   ipclab keys
 *   ipclab run [--profile NAME] [--env host|nspawn|vm] [--out DIR] [--resume] [--history dir|git|none]
 *              [--keep N] [--keep-size SIZE] [--quiet]
 *              [--host ssh://USER@HOST[:PORT]]... [--slurm PARTITION [--nodes N]] FILE...
 *   ipclab summarize DIR/<experiment>
 *   ipclab plot|table|section FILE [NAME] --summary S.tsv ... --out OUT (render.h)
 *   ipclab numbers FILE --summary S.tsv ... --out MACROS.tex (numbers.h)
 *   ipclab select FILE.tsv [--where SEL] [--columns C,...] [--count] (numbers.h)
 *   ipclab methods [--out FILE] META.ini... (methods.h)
 *   ipclab columns
 *   ipclab latency DIR/<experiment> [--cell SELECTOR] [--spectrum]
 *   ipclab init DIR
 *   ipclab compare [--machines] [--experiment NAME]... [--fail-above PCT] DATA_DIR REPRO_DIR
 *   ipclab compare [--against RUN | --list] [--fail-above PCT] DIR/<experiment>
 *   ipclab paper-check --log PAPER.log --pdf PAPER.pdf [--figures DIR] [--sections DIR] EXP.ini...
 *
 * Exit status: 0 success, 1 a measurement failed, 2 bad usage or bad input.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bus.h"
#include "columns.h"
#include "compare.h"
#include "env/env.h"
#include "estimate.h"
#include "experiment.h"
#include "figure.h"
#include "findings.h"
#include "history.h"
#include "init.h"
#include "latency.h"
#include "meta.h"
#include "methods.h"
#include "numbers.h"
#include "papercheck.h"
#include "plugin.h"
#include "render.h"
#include "remote.h"
#include "run.h"
#include "runner.h"
#include "safefile.h"
#include "samples.h"
#include "summarize.h"
#include "transport.h"
#if __has_include("verify.h")
#include "verify.h"
#define IPCLAB_HAVE_VERIFY 1
#endif

#define EXIT_FAILED 1
#define EXIT_USAGE 2
#define EXIT_INTERRUPTED 130

static void on_signal(int sig)
{
        (void) sig;
        runner_interrupted = 1;
}

static int usage_error(GOptionContext *ctx, const char *msg)
{
        g_autofree char *help = g_option_context_get_help(ctx, TRUE, NULL);
        fprintf(stderr, "ipclab: %s\n\n%s", msg, help);
        return EXIT_USAGE;
}

/* Prints E, one "ipclab: " line for each of its lines (an experiment
 * file's mistakes come all at once, one a line). */
static int report(GError *e)
{
        /* A message may quote a file's bytes: no terminal control in it. */
        g_autofree char *shown = safefile_terminal_text(e->message, strlen(e->message));
        g_auto(GStrv) lines = g_strsplit(shown, "\n", -1);

        for (guint i = 0; lines[i]; i++)
                fprintf(stderr, "ipclab: %s\n", lines[i]);
        return e->domain == IPCLAB_ERROR && e->code == IPCLAB_ERROR_INPUT ? EXIT_USAGE : EXIT_FAILED;
}

static int cmd_list(int argc, char **argv)
{
        g_autoptr(GOptionContext) ctx = g_option_context_new("- list transports (plugins too) and why any is unavailable");
        g_autoptr(GError) e = NULL;

        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return usage_error(ctx, e->message);
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
        for (EnvKind k = ENV_HOST; k <= ENV_VM; k++) {
                const char *why = env_unavailable(k);
                printf("%-16s %-10s %s\n", env_name(k), why ? "unavailable" : "ok", why ? why : "");
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

        estimate_experiment(exp, cal, 1, &est);
        run_format_duration(buf, sizeof buf, est.secs);
        g_autofree char *how = estimate_describe(&est);
        printf("  estimated duration: %s%s\n", buf, est.more ? " or more" : "");
        printf("  estimated from: %s\n", how);
}

static int cmd_check(int argc, char **argv)
{
        char *profile = NULL, *data = NULL;
        gboolean config_hash = FALSE, list_outputs = FALSE, run_order = FALSE;
        GOptionEntry entries[] = {
                { "profile", 'p', 0, G_OPTION_ARG_STRING, &profile, "Apply [profile NAME]", "NAME" },
                { "data", 0, 0, G_OPTION_ARG_FILENAME, &data,
                  "Warn of cells of DIR/<experiment>/ that ran in several CPU placements (default: data)", "DIR" },
                { "list-outputs", 0, 0, G_OPTION_ARG_NONE, &list_outputs,
                  "Print each file's figures, tables and numbers: KIND EXP NAME INPUTS, tab-separated", NULL },
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
                return usage_error(ctx, e->message);
        if (argc < 2)
                return usage_error(ctx, "check needs at least one experiment file");
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
                        status = report(err);
                        continue;
                }
                g_ptr_array_add(loaded, exp);
                if (config_hash) {
                        g_autofree char *h = experiment_config_sha256(exp);
                        printf("%s\n", h);
                        continue;
                }
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
        g_free(profile);
        g_free(data);
        return status;
}

/* What the run of EXP into DIR/<experiment>/ found (findings.h), added
 * to FOUND; a warning when it cannot be read. */
static void add_findings(GPtrArray *found, const Experiment *exp, const char *dir)
{
        g_autofree char *results = g_build_filename(dir, exp->name, NULL);
        g_autoptr(GError) e = NULL;
        Findings *f = findings_build(exp, results, &e);

        if (f)
                g_ptr_array_add(found, f);
        else
                fprintf(stderr, "ipclab: warning: %s: what the run found cannot be told: %s\n", exp->name, e->message);
}

/* ipclab keys: every key of every group of an experiment file, from the
 * tables the parsers read (experiment.c, figure.c, numbers.c). */
static int cmd_keys(int argc, char **argv)
{
        g_autoptr(GOptionContext) ctx = g_option_context_new("- every key of every group of an experiment file");
        g_autoptr(GError) e = NULL;

        g_option_context_set_description(ctx, "One line a key: GROUPS KEY MEANING; [experiment] and [claim] keys "
                                         "say TYPE; DEFAULT; MEANING.\n");
        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return usage_error(ctx, e->message);
        if (argc > 1)
                return usage_error(ctx, "keys takes no arguments");
        g_autofree char *exp = experiment_key_help();
        g_autofree char *fig = figure_key_help();
        g_autofree char *num = numbers_key_help();
        printf("%-18s %-17s %s\n%s%s%s", "GROUPS", "KEY", "MEANING", exp, fig, num);
        return 0;
}

static int cmd_run(int argc, char **argv, char **argv_all)
{
        char *profile = NULL, *env = NULL, *out = NULL, *slurm = NULL, *job_dir = NULL;
        char *history = NULL, *keep_size = NULL;
        g_auto(GStrv) hosts = NULL;
        gint nodes = 1, keep = HISTORY_KEEP_DEFAULT;
        gboolean resume = FALSE, quiet = FALSE;
        GOptionEntry entries[] = {
                { "profile", 'p', 0, G_OPTION_ARG_STRING, &profile, "Apply [profile NAME] (e.g. quick)", "NAME" },
                { "env", 'e', 0, G_OPTION_ARG_STRING, &env, "Where to run: host (default), nspawn, vm", "ENV" },
                { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Results go to DIR/<experiment>/ (default: data)", "DIR" },
                { "resume", 'r', 0, G_OPTION_ARG_NONE, &resume, "Continue an interrupted run from its completed cells", NULL },
                { "host", 0, 0, G_OPTION_ARG_STRING_ARRAY, &hosts,
                  "Run on ssh://[USER@]HOST[:PORT] (or local: here); repeated, each in turn, merged", "TARGET" },
                { "slurm", 0, 0, G_OPTION_ARG_STRING, &slurm, "Run as a Slurm job array on PARTITION", "PARTITION" },
                { "nodes", 0, 0, G_OPTION_ARG_INT, &nodes, "With --slurm: run each file on N nodes (default 1)", "N" },
                { "job-dir", 0, 0, G_OPTION_ARG_FILENAME, &job_dir,
                  "With --slurm: where the job script, logs and task results go (default build/slurm/<experiments>)", "DIR" },
                { "keep", 'k', 0, G_OPTION_ARG_INT, &keep,
                  "Keep the N runs before this one in DIR/.history/<experiment>/ (default 5; 0: none)", "N" },
                { "history", 0, 0, G_OPTION_ARG_STRING, &history, "Keep the runs before this one in DIR/.history/ "
                  "(dir, the default), as commits in DIR's git repository (git), or not (none)", "dir|git|none" },
                { "keep-size", 0, 0, G_OPTION_ARG_STRING, &keep_size,
                  "Keep at most SIZE (e.g. 200MiB) of earlier runs per experiment, the oldest removed first", "SIZE" },
                { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Do not print what the run found at its end", NULL },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("FILE... - run experiments and store their samples");
        g_autoptr(GError) e = NULL;
        int status = 0;

        g_option_context_add_main_entries(ctx, entries, NULL);
        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return usage_error(ctx, e->message);
        if (argc < 2)
                return usage_error(ctx, "run needs at least one experiment file");
        int env_kind = -1;   /* -1: as each file says */
        if (env && !strcmp(env, "host"))
                env_kind = ENV_HOST;
        else if (env && !strcmp(env, "nspawn"))
                env_kind = ENV_NSPAWN;
        else if (env && !strcmp(env, "vm"))
                env_kind = ENV_VM;
        else if (env)
                return usage_error(ctx, "--env must be host, nspawn or vm");
        if (slurm && hosts)
                return usage_error(ctx, "--host and --slurm do not go together: a Slurm job runs where Slurm puts it");
        if (nodes < 1 || nodes > 4096 || (nodes != 1 && !slurm))
                return usage_error(ctx, "--nodes N goes with --slurm, N from 1 to 4096");
        if (keep < 0 || keep > 10000)
                return usage_error(ctx, "--keep N: N from 0 to 10000 earlier runs");
        if (!history_configure(history, (guint) keep, keep_size, out ? out : "data", &e))
                return report(e);
        g_autoptr(GPtrArray) targets = g_ptr_array_new_with_free_func((GDestroyNotify) remote_target_free);
        for (guint i = 0; hosts && hosts[i]; i++) {
                RemoteTarget *t = remote_target_parse(hosts[i], &e);
                if (!t)
                        return report(e);
                g_ptr_array_add(targets, t);
        }
        g_ptr_array_add(targets, NULL);
        /* Validate every file before measuring anything. */
        for (int i = 1; i < argc; i++) {
                g_autoptr(GError) err = NULL;
                g_autoptr(Experiment) exp = experiment_load(argv[i], profile, &err);
                if (!exp)
                        return report(err);
        }
        /* What a container or VM runs: the same `ipclab run`, on the host
         * binary, with these arguments. */
        g_autofree char *self = g_file_read_link("/proc/self/exe", NULL);
        const char *extra[4] = { NULL };
        int n = 0;
        if (profile) {
                extra[n++] = "--profile";
                extra[n++] = profile;
        }
        if (resume)
                extra[n++] = "--resume";

        struct sigaction sa = { .sa_handler = on_signal };
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        signal(SIGPIPE, SIG_IGN);
        const char *dir = out ? out : "data";
        /* One run per output directory at a time, for the whole run. */
        g_autoptr(GError) lock_err = NULL;
        int lock = run_lock_out(dir, (const char *const *) argv_all, &lock_err);
        if (lock < 0)
                return report(lock_err);
        if (slurm) {
                g_autoptr(GError) err = NULL;
                int r = remote_slurm(slurm, (guint) nodes, argv + 1, (guint) (argc - 1), profile, env, self, dir,
                                     job_dir, resume, extra, (const char *const *) argv_all, &err);
                if (r == RUN_ERROR)
                        status = report(err);
                else
                        status = r == RUN_INTERRUPTED ? EXIT_INTERRUPTED : r;
                argc = 0;   /* the files ran as the job's tasks */
        }
        g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func((GDestroyNotify) findings_free);
        for (int i = 1; i < argc && !runner_interrupted; i++) {
                g_autoptr(GError) err = NULL;
                g_autoptr(Experiment) exp = experiment_load(argv[i], profile, &err);
                int r;
                if (!exp) {
                        status = report(err);
                        break;
                }
                if (env_kind >= 0)
                        experiment_set_env(exp, (EnvKind) env_kind);
                if (targets->len > 1)
                        r = run_experiment_machines(exp, self, dir, resume, (const RemoteTarget *const *) targets->pdata,
                                                    extra, (const char *const *) argv_all, &err);
                else
                        r = run_experiment_here(exp, self, dir, resume, extra, (const char *const *) argv_all, &err);
                if (r == RUN_INTERRUPTED || runner_interrupted) {
                        status = EXIT_INTERRUPTED;
                        break;
                }
                if (r == RUN_ERROR)
                        r = report(err);
                else if (!quiet)
                        add_findings(found, exp, dir);
                if (r > status)
                        status = r;
        }
        run_unlock_out(dir, lock);
        /* What the run found, once every experiment is measured. */
        const char *no_colour = g_getenv("NO_COLOR");
        bool colour = isatty(STDOUT_FILENO) && !(no_colour && *no_colour);
        for (guint i = 0; status != EXIT_INTERRUPTED && i < found->len; i++) {
                g_autofree char *text = findings_format(found->pdata[i], colour);
                printf("%s%s", i ? "\n" : "", text);
        }
        g_free(profile);
        g_free(env);
        g_free(out);
        g_free(slurm);
        g_free(job_dir);
        return status;
}

/* Per-cell statistics of DIR/samples.tsv as TSV on stdout (summarize.h). */
static int cmd_summarize(int argc, char **argv)
{
        gboolean by_placement = FALSE;
        GOptionEntry entries[] = {
                { "by-placement", 0, 0, G_OPTION_ARG_NONE, &by_placement,
                  "A row per cell and CPU placement: the repetitions of each mode apart", NULL },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("DIR - per-cell statistics of DIR/samples.tsv, as TSV");
        g_autoptr(GError) e = NULL;

        g_option_context_add_main_entries(ctx, entries, NULL);
        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return usage_error(ctx, e->message);
        if (argc != 2)
                return usage_error(ctx, "summarize needs one results directory");
        g_autoptr(GString) out = g_string_new(NULL);
        if ((by_placement ? summarize_dir_by_placement : summarize_dir)(argv[1], out, &e) < 0)
                return report(e);
        fwrite(out->str, 1, out->len, stdout);
        return 0;
}

/* ipclab columns: the column schema (columns.h) as TSV. */
static int cmd_columns(int argc, char **argv)
{
        g_autoptr(GOptionContext) ctx = g_option_context_new("- the columns of samples.tsv and of the summary, as TSV");
        g_autoptr(GError) e = NULL;

        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return usage_error(ctx, e->message);
        if (argc != 1)
                return usage_error(ctx, "columns takes no arguments");
        printf("name\tkind\tunit\tlabel\tkey\tfiles\tinterval\n");
        for (const Column *c = column_table; c->name; c++) {
                bool s = c->flags & COLUMN_IN_SAMPLES, m = c->flags & COLUMN_IN_SUMMARY;
                printf("%s\t%s\t%s\t%s\t%s\t%s\t", c->name, column_kind_name(c->kind),
                       c->unit[0] ? c->unit : "-", c->label, c->key ? c->key : "-",
                       s && m ? "samples,summary" : s ? "samples" : "summary");
                if (c->flags & COLUMN_HAS_CI)
                        printf("%s_lo,%s_hi\n", c->name, c->name);
                else
                        printf("-\n");
        }
        return 0;
}

/* "EXP=PATH" arguments of OPTION into a table EXP -> PATH. */
static GHashTable *render_pairs(char **args, const char *option, GError **error)
{
        g_autoptr(GHashTable) h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);

        for (guint i = 0; args && args[i]; i++) {
                const char *eq = strchr(args[i], '=');
                if (!eq || eq == args[i] || !eq[1]) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "--%s %s: not EXP=FILE", option, args[i]);
                        return NULL;
                }
                g_hash_table_insert(h, g_strndup(args[i], (gsize) (eq - args[i])), g_strdup(eq + 1));
        }
        return g_steal_pointer(&h);
}

typedef enum { RENDER_PLOT, RENDER_TABLE, RENDER_SECTION } RenderKind;

/* ipclab plot|table|section (render.h): renders, then writes --out (and
 * plot's --facts) atomically; nothing is written on any mistake. */
static int cmd_render(int argc, char **argv, RenderKind kind)
{
        char *summary = NULL, *published = NULL, *compare = NULL, *out = NULL, *facts_out = NULL, *meta = NULL;
        char **also = NULL, **latency = NULL;
        enum { P = 1 << RENDER_PLOT, T = 1 << RENDER_TABLE, S = 1 << RENDER_SECTION };
        const struct {
                unsigned kinds;
                GOptionEntry entry;
        } options[] = {
                { P | T | S, { "summary", 0, 0, G_OPTION_ARG_FILENAME, &summary, "The experiment's summary (ipclab summarize)", "S.tsv" } },
                { P | T | S, { "out", 0, 0, G_OPTION_ARG_FILENAME, &out, "The file to write", "FILE" } },
                { P | T, { "also", 0, 0, G_OPTION_ARG_STRING_ARRAY, &also, "Another experiment's summary, for also=", "EXP=S.tsv" } },
                { P | T, { "published", 0, 0, G_OPTION_ARG_FILENAME, &published, "Where published= files are (default data/published)", "DIR" } },
                { P, { "latency", 0, 0, G_OPTION_ARG_STRING_ARRAY, &latency, "`ipclab latency` output, for spectrum and cdf", "EXP=L.tsv" } },
                { P, { "compare", 0, 0, G_OPTION_ARG_FILENAME, &compare, "A reproduction's summary: drawn in colour, S.tsv in grey", "S2.tsv" } },
                { P, { "facts", 0, 0, G_OPTION_ARG_FILENAME, &facts_out, "Also write what its caption may quote (LaTeX: \\ipclabSetFact)", "FILE.tex" } },
                { S, { "meta", 0, 0, G_OPTION_ARG_FILENAME, &meta, "The data's meta.ini: the profile, counts and repetitions measured", "META.ini" } },
        };
        static const char *const what[] = {
                [RENDER_PLOT] = "FILE NAME - write the gnuplot script of [figure NAME], its data inlined",
                [RENDER_TABLE] = "FILE NAME - write the LaTeX tabular of [table NAME]",
                [RENDER_SECTION] = "FILE - write a LaTeX section for the experiment",
        };
        GOptionEntry entries[G_N_ELEMENTS(options) + 1];
        guint n_entries = 0;
        for (size_t i = 0; i < G_N_ELEMENTS(options); i++)
                if (options[i].kinds & (1u << kind))
                        entries[n_entries++] = options[i].entry;
        entries[n_entries] = (GOptionEntry) { NULL };
        g_autoptr(GOptionContext) ctx = g_option_context_new(what[kind]);
        g_autoptr(GError) e = NULL;
        int status = 0;
        int n_args = kind == RENDER_SECTION ? 2 : 3;

        g_option_context_add_main_entries(ctx, entries, NULL);
        if (!g_option_context_parse(ctx, &argc, &argv, &e)) {
                status = usage_error(ctx, e->message);
        } else if (argc != n_args || !summary || !out) {
                status = usage_error(ctx, kind == RENDER_SECTION ? "section needs FILE, --summary and --out"
                                          : "needs FILE NAME, --summary and --out");
        } else {
                g_autoptr(GHashTable) also_files = render_pairs(also, "also", &e);
                g_autoptr(GHashTable) latency_files = also_files ? render_pairs(latency, "latency", &e) : NULL;
                RenderInputs in = { .summary = summary, .also = also_files, .latency = latency_files,
                                    .published = published ? published : "data/published", .compare = compare,
                                    .meta = meta };
                g_autofree char *facts = NULL;
                g_autofree char *text = !latency_files ? NULL
                        : kind == RENDER_PLOT ? render_plot(argv[1], argv[2], &in, facts_out ? &facts : NULL, &e)
                        : kind == RENDER_TABLE ? render_table(argv[1], argv[2], &in, &e)
                        : render_section(argv[1], &in, &e);
                int r = text && facts ? samples_write_atomic(facts_out, facts, strlen(facts)) : 0;
                const char *failed = r < 0 ? facts_out : NULL;
                if (text && r >= 0 && (r = samples_write_atomic(out, text, strlen(text))) < 0)
                        failed = out;
                if (!text) {
                        status = report(e);
                } else if (r < 0) {
                        fprintf(stderr, "ipclab: %s: %s\n", failed, g_strerror(-r));
                        status = EXIT_FAILED;
                }
        }
        g_free(summary);
        g_free(published);
        g_free(compare);
        g_free(out);
        g_free(facts_out);
        g_free(meta);
        g_strfreev(also);
        g_strfreev(latency);
        return status;
}

/* Writes TEXT to OUT atomically, or to standard output without OUT;
 * returns the exit status. */
static int write_out(const char *out, const char *text)
{
        if (!out) {
                fputs(text, stdout);
                return 0;
        }
        int r = samples_write_atomic(out, text, strlen(text));
        if (r < 0) {
                fprintf(stderr, "ipclab: %s: %s\n", out, g_strerror(-r));
                return EXIT_FAILED;
        }
        return 0;
}

/* ipclab numbers FILE (numbers.h): the [number] groups as LaTeX macros. */
static int cmd_numbers(int argc, char **argv)
{
        g_autofree char *summary = NULL, *published = NULL, *meta = NULL, *out = NULL;
        g_auto(GStrv) also = NULL;
        GOptionEntry entries[] = {
                { "summary", 0, 0, G_OPTION_ARG_FILENAME, &summary, "The experiment's summary (ipclab summarize)", "S.tsv" },
                { "also", 0, 0, G_OPTION_ARG_STRING_ARRAY, &also, "Another experiment's summary, for experiment=", "EXP=S.tsv" },
                { "published", 0, 0, G_OPTION_ARG_FILENAME, &published, "Where published= files are (default data/published)", "DIR" },
                { "meta", 0, 0, G_OPTION_ARG_FILENAME, &meta, "The experiment's meta.ini, for meta=", "META.ini" },
                { "out", 0, 0, G_OPTION_ARG_FILENAME, &out, "The file to write", "FILE" },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("FILE - write the [number] groups of FILE as LaTeX macros");
        g_autoptr(GError) e = NULL;

        g_option_context_add_main_entries(ctx, entries, NULL);
        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return usage_error(ctx, e->message);
        if (argc != 2 || !summary || !out)
                return usage_error(ctx, "numbers needs FILE, --summary and --out");
        g_autoptr(GHashTable) also_files = render_pairs(also, "also", &e);
        if (!also_files)
                return report(e);
        NumbersInputs in = { .summary = summary, .also = also_files, .published = published ? published : "data/published",
                             .meta = meta };
        g_autofree char *text = numbers_render(argv[1], &in, &e);
        return text ? write_out(out, text) : report(e);
}

/* ipclab select FILE.tsv (numbers.h): rows and columns for gnuplot. */
static int cmd_select(int argc, char **argv)
{
        g_autofree char *where = NULL, *columns = NULL;
        gboolean count = FALSE;
        GOptionEntry entries[] = {
                { "where", 0, 0, G_OPTION_ARG_STRING, &where, "Which rows: a selector on any column", "SELECTOR" },
                { "columns", 0, 0, G_OPTION_ARG_STRING, &columns, "The columns to print, comma-separated", "C1,C2" },
                { "count", 0, 0, G_OPTION_ARG_NONE, &count, "Print only the number of rows selected", NULL },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("FILE.tsv - print the selected rows' columns as TSV for gnuplot");
        g_autoptr(GError) e = NULL;

        g_option_context_add_main_entries(ctx, entries, NULL);
        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return usage_error(ctx, e->message);
        if (argc != 2)
                return usage_error(ctx, "select needs one TSV file");
        g_autofree char *text = numbers_select(argv[1], where, columns, count, &e);
        return text ? write_out(NULL, text) : report(e);
}

/* ipclab methods META.ini... (methods.h): the methods text. */
static int cmd_methods(int argc, char **argv)
{
        g_autofree char *out = NULL;
        GOptionEntry entries[] = {
                { "out", 0, 0, G_OPTION_ARG_FILENAME, &out, "The file to write (default: standard output)", "FILE" },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("META.ini... - write the paper's methods text from meta.ini");
        g_autoptr(GError) e = NULL;

        g_option_context_add_main_entries(ctx, entries, NULL);
        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return usage_error(ctx, e->message);
        g_autofree char *text = methods_tex(argv + 1, &e);
        return text ? write_out(out, text) : report(e);
}

/* ipclab bus KIND: a private bus of KIND for other programs (benchmarks
 * against reference tools): prints its address, runs until standard input
 * closes or a signal arrives, then stops it and removes its directory. */
static int cmd_bus(int argc, char **argv)
{
        g_autoptr(GOptionContext) ctx = g_option_context_new("dbus-daemon|dbus-broker - run a private bus until stdin closes");
        g_autoptr(GError) e = NULL;

        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return usage_error(ctx, e->message);
        if (argc != 2 || (strcmp(argv[1], "dbus-daemon") && strcmp(argv[1], "dbus-broker")))
                return usage_error(ctx, "bus needs one kind: dbus-daemon or dbus-broker");
        BusKind kind = strcmp(argv[1], "dbus-daemon") ? BUS_DBUS_BROKER : BUS_DBUS_DAEMON;
        g_autoptr(Bus) bus = bus_start(kind, &e);
        if (!bus)
                return report(e);
        struct sigaction sa = { .sa_handler = on_signal };
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        printf("%s\n%d\n", bus_get_address(bus), (int) bus_get_pid(bus));
        fflush(stdout);
        char buf[64];
        while (!runner_interrupted && bus_is_alive(bus)) {
                ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
                if (n == 0 || (n < 0 && errno != EINTR))
                        break;
        }
        return 0;
}

static int compare_names(gconstpointer a, gconstpointer b)
{
        return strcmp(*(char *const *) a, *(char *const *) b);
}

/* The experiments with samples.tsv in both DATA and REPRO, sorted. */
static GPtrArray *compare_experiments(const char *data, const char *repro, GError **error)
{
        g_autoptr(GDir) d = g_dir_open(repro, 0, error);
        GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
        const char *name;

        if (!d)
                return names;
        while ((name = g_dir_read_name(d))) {
                g_autofree char *a = g_build_filename(data, name, "samples.tsv", NULL);
                g_autofree char *b = g_build_filename(repro, name, "samples.tsv", NULL);
                if (name[0] != '.' && g_file_test(a, G_FILE_TEST_IS_REGULAR) && g_file_test(b, G_FILE_TEST_IS_REGULAR))
                        g_ptr_array_add(names, g_strdup(name));
        }
        g_ptr_array_sort(names, compare_names);
        return names;
}

/* "10%" or "10" (per cent) as 0.10 in *T: FALSE unless above 0. */
static bool parse_percent(const char *s, double *t)
{
        char *end;
        double v = g_ascii_strtod(s, &end);

        if (end == s || (*end && strcmp(end, "%")) || !(v > 0) || v > 10000)
                return false;
        *t = v / 100;
        return true;
}

/* Compares the samples.tsv of OLD and NEW as experiment NAME into OUT
 * and TALLY; FALSE with ERROR. */
static bool compare_pair(const char *name, const char *old, const char *new, CompareTally *tally, GString *out,
                         GError **error)
{
        g_autofree char *a = g_build_filename(old, "samples.tsv", NULL);
        g_autofree char *b = g_build_filename(new, "samples.tsv", NULL);
        g_autoptr(Table) ta = samples_table_read(a, error);
        g_autoptr(Table) tb = ta ? samples_table_read(b, error) : NULL;

        return tb && compare_cells(name, ta, tb, tally, out, error);
}

/* ipclab compare DATA_DIR REPRO_DIR: a reproduction beside the committed
 * data (compare.h): per cell, or with --machines the two machines.
 * ipclab compare DIR/EXPERIMENT: the current run beside one kept in its
 * history (history.h), the previous one or --against RUN. */
static int cmd_compare(int argc, char **argv)
{
        gboolean machines = FALSE, list = FALSE;
        g_auto(GStrv) only = NULL;
        g_autofree char *against = NULL, *fail_above = NULL;
        GOptionEntry entries[] = {
                { "machines", 'm', 0, G_OPTION_ARG_NONE, &machines,
                  "Print the two machines side by side (a LaTeX table, from the first experiment's meta.ini)", NULL },
                { "experiment", 'e', 0, G_OPTION_ARG_STRING_ARRAY, &only,
                  "Only this experiment (repeatable)", "NAME" },
                { "against", 'a', 0, G_OPTION_ARG_STRING, &against,
                  "With DIR/EXPERIMENT: the kept run to compare with (default: the previous one)", "RUN" },
                { "list", 'l', 0, G_OPTION_ARG_NONE, &list,
                  "With DIR/EXPERIMENT: list the runs kept in its history, oldest first", NULL },
                { "fail-above", 'f', 0, G_OPTION_ARG_STRING, &fail_above,
                  "Exit 1 when a cell is slower by more than PCT (its interval wholly above 1 + PCT)", "PCT" },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new(
                "DATA_DIR REPRO_DIR | DIR/EXPERIMENT - a run beside another, cell by cell");
        g_autoptr(GError) e = NULL;

        g_option_context_add_main_entries(ctx, entries, NULL);
        g_option_context_set_description(ctx,
                "DATA_DIR REPRO_DIR: every experiment with a samples.tsv in both directories (a\n"
                "reproduction beside the committed data).  DIR/EXPERIMENT: its current run beside\n"
                "the one before it, or --against RUN, kept in DIR/.history/EXPERIMENT/ by `ipclab run`.\n"
                "TSV, one row per cell (cells are never pooled): the median time per message of\n"
                "each, and newer/older with a claim's pair statistics: the ratio, its 95% interval\n"
                "and the interval at 1 - 0.05/K (K the cells compared), and the change that\n"
                "interval shows against --fail-above (slower, faster, within, or - when it cannot\n"
                "tell).  With --fail-above PCT, the cells slower beyond PCT are named on stderr\n"
                "and the exit status is 1: a regression check for CI.\n");
        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return usage_error(ctx, e->message);
        CompareTally tally = { .regressions = g_ptr_array_new_with_free_func(g_free) };
        g_autoptr(GPtrArray) regressions = tally.regressions;
        if (fail_above && !parse_percent(fail_above, &tally.fail_above))
                return usage_error(ctx, "--fail-above takes a percentage above 0, such as 10%");
        if (argc == 2 && !machines && !only) {
                /* One experiment against its history. */
                g_autofree char *name = g_path_get_basename(argv[1]);
                g_autofree char *hist = history_dir_of(argv[1]);
                g_autoptr(GPtrArray) ids = history_list(argv[1]);
                if (list) {
                        for (guint i = 0; i < ids->len; i++)
                                printf("%s\n", (char *) ids->pdata[i]);
                        return 0;
                }
                const char *id = ids->len ? ids->pdata[ids->len - 1] : NULL;
                if (against) {
                        id = NULL;
                        for (guint i = 0; i < ids->len; i++)
                                if (!strcmp(ids->pdata[i], against))
                                        id = against;
                }
                if (!id && against) {
                        fprintf(stderr, "ipclab: compare: run %s is not kept in %s nor as a git commit (`ipclab compare --list %s` "
                                "lists those kept)\n", against, hist, argv[1]);
                        return EXIT_USAGE;
                }
                if (!id) {
                        fprintf(stderr, "ipclab: compare: no earlier run of %s is kept in %s or as a git commit (a "
                                "rerun keeps the run it replaces)\n", argv[1], hist);
                        return EXIT_USAGE;
                }
                g_autofree char *old = NULL, *tmp = NULL;
                int r = history_open(argv[1], id, &old, &tmp);
                if (r < 0) {
                        fprintf(stderr, "ipclab: compare: cannot read run %s of %s: %s\n", id, argv[1], g_strerror(-r));
                        return EXIT_FAILED;
                }
                g_autofree char *header = compare_header();
                g_autoptr(GString) out = g_string_new(header);
                bool ok = compare_pair(name, old, argv[1], &tally, out, &e);
                if (tmp)
                        samples_remove_dir(tmp);
                if (!ok)
                        return report(e);
                fputs(out->str, stdout);
                fprintf(stderr, "ipclab: compare: %s against %s: ", argv[1], id);
        } else {
                if (argc != 3)
                        return usage_error(ctx, "compare needs DATA_DIR and REPRO_DIR, or one DIR/EXPERIMENT");
                if (against || list)
                        return usage_error(ctx, "--against and --list go with one DIR/EXPERIMENT");
                g_autoptr(GPtrArray) names = compare_experiments(argv[1], argv[2], &e);
                if (e)
                        return report(e);
                g_autofree char *header = compare_header();
                g_autoptr(GString) out = g_string_new(machines ? NULL : header);
                for (guint i = 0; i < names->len; i++) {
                        const char *name = names->pdata[i];
                        if (only && !g_strv_contains((const char *const *) only, name))
                                continue;
                        g_autofree char *a = g_build_filename(argv[1], name, NULL);
                        g_autofree char *b = g_build_filename(argv[2], name, NULL);
                        if (machines) {
                                g_autofree char *ma = g_build_filename(a, "meta.ini", NULL);
                                g_autofree char *mb = g_build_filename(b, "meta.ini", NULL);
                                if (!compare_machines(ma, mb, out, &e))
                                        return report(e);
                                break;
                        }
                        if (!compare_pair(name, a, b, &tally, out, &e))
                                return report(e);
                }
                if (machines && !out->len) {
                        fprintf(stderr, "ipclab: compare: no experiment has data in both %s and %s\n", argv[1], argv[2]);
                        return EXIT_USAGE;
                }
                fputs(out->str, stdout);
                if (machines || !fail_above)
                        return 0;
                fprintf(stderr, "ipclab: compare: %s against %s: ", argv[2], argv[1]);
        }
        fprintf(stderr, "%u cells: %u slower, %u faster, %u within %s, %u undecided\n", tally.cells,
                tally.changes[COMPARE_SLOWER], tally.changes[COMPARE_FASTER], tally.changes[COMPARE_WITHIN],
                fail_above ? fail_above : "(no --fail-above)", tally.changes[COMPARE_UNDECIDED]);
        for (guint i = 0; i < regressions->len; i++)
                fprintf(stderr, "ipclab: regression beyond %s: %s\n", fail_above, (char *) regressions->pdata[i]);
        return regressions->len ? EXIT_FAILED : 0;
}

/* ipclab paper-check (papercheck.h): prints each problem of the built
 * paper; exit status 1 when there is one, 2 when it cannot be checked. */
static int cmd_paper_check(int argc, char **argv)
{
        PaperCheck pc = { 0 };
        char *log = NULL, *pdf = NULL, *figures = NULL, *sections = NULL;
        GOptionEntry entries[] = {
                { "log", 0, 0, G_OPTION_ARG_FILENAME, &log, "LaTeX's log (its .aux beside it)", "PAPER.log" },
                { "pdf", 0, 0, G_OPTION_ARG_FILENAME, &pdf, "The paper", "PAPER.pdf" },
                { "figures", 0, 0, G_OPTION_ARG_FILENAME, &figures, "Where `ipclab plot` wrote the figures' scripts", "DIR" },
                { "sections", 0, 0, G_OPTION_ARG_FILENAME, &sections, "Where `ipclab section` wrote the sections", "DIR" },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("EXP.ini... - check the built paper as a reader sees it");
        g_autoptr(GError) e = NULL;
        int status;

        g_option_context_add_main_entries(ctx, entries, NULL);
        g_option_context_set_description(ctx,
                "Reads the log, the PDF's text (pdftotext), the generated figure scripts and\n"
                "sections; prints one line per problem (papercheck.h says what is checked).\n");
        if (!g_option_context_parse(ctx, &argc, &argv, &e)) {
                status = usage_error(ctx, e->message);
        } else if (!log || !pdf) {
                status = usage_error(ctx, "paper-check needs --log and --pdf");
        } else {
                g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
                pc = (PaperCheck) { log, pdf, figures, sections, argv + 1 };
                if (!papercheck_run(&pc, problems, &e)) {
                        status = report(e);
                } else {
                        for (guint i = 0; i < problems->len; i++)
                                printf("%s\n", (char *) problems->pdata[i]);
                        status = problems->len ? EXIT_FAILED : 0;
                }
        }
        g_free(log);
        g_free(pdf);
        g_free(figures);
        g_free(sections);
        return status;
}

/* ipclab estimate FILE...: the duration of each run (estimate.h), as
 * `make reproduce` announces it; --recorded: the model's and the
 * calibrated estimate (leaving the experiment's own run out) beside the
 * span its meta.ini recorded, on the machine that recorded it. */
static int cmd_estimate(int argc, char **argv)
{
        g_autofree char *profile = NULL, *data = NULL;
        gboolean recorded = FALSE, model = FALSE;
        gint places = 1;
        GOptionEntry entries[] = {
                { "profile", 'p', 0, G_OPTION_ARG_STRING, &profile, "Apply [profile NAME]", "NAME" },
                { "data", 'd', 0, G_OPTION_ARG_FILENAME, &data,
                  "Calibrate from the runs recorded in DIR/*/ on this machine (default: data)", "DIR" },
                { "model", 0, 0, G_OPTION_ARG_NONE, &model, "The model alone: no calibration", NULL },
                { "places", 0, 0, G_OPTION_ARG_INT, &places, "Run in turn on N machines (SSH targets)", "N" },
                { "recorded", 0, 0, G_OPTION_ARG_NONE, &recorded,
                  "Beside DIR/EXP/meta.ini's recorded span: the model, and the calibration without EXP's own "
                  "run; exit 1 when a calibrated estimate is off by more than 25 %", NULL },
                G_OPTION_ENTRY_NULL
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("FILE... - how long each run will take");
        g_autoptr(GError) e = NULL;

        g_option_context_add_main_entries(ctx, entries, NULL);
        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return usage_error(ctx, e->message);
        if (argc < 2)
                return usage_error(ctx, "estimate needs at least one experiment file");
        if (places < 1 || places > 10000)
                return usage_error(ctx, "--places: give 1 to 10000");
        const char *dir = data ? data : "data";
        g_autoptr(EstimateCalib) cal = model || recorded ? NULL
                                     : estimate_calib_load(dir, meta_machine_name(), NULL);
        double total = 0, worst = 1;
        int status = 0;
        char a[64], b[64], c[64];
        if (recorded)
                printf("%-20s %12s %12s %12s %9s %9s\n", "EXPERIMENT", "MODEL", "CALIBRATED", "RECORDED",
                       "MODEL/REC", "CAL/REC");
        for (int i = 1; i < argc; i++) {
                g_autoptr(Experiment) exp = experiment_load_anywhere(argv[i], &e);
                if (exp && profile) {
                        experiment_free(g_steal_pointer(&exp));
                        exp = experiment_load(argv[i], profile, &e);
                }
                if (!exp) {
                        status = report(e);
                        g_clear_error(&e);
                        continue;
                }
                Estimate est;
                if (!recorded) {
                        estimate_experiment(exp, cal, (guint) places, &est);
                        total += est.secs;
                        run_format_duration(a, sizeof a, est.secs);
                        printf("  %-20s %12s%s  %s\n", exp->name, a, est.more ? "+" : "",
                               est.runs ? "calibrated" : "the model");
                        continue;
                }
                g_autofree char *edir = g_build_filename(dir, exp->name, NULL);
                g_autofree char *machine = NULL;
                guint n = 0;
                double rec = estimate_recorded_secs(edir, &machine, &n);
                if (rec <= 0) {
                        printf("%-20s (no recorded run in %s)\n", exp->name, edir);
                        continue;
                }
                Estimate mod;
                g_autoptr(EstimateCalib) loo = estimate_calib_load(dir, machine, exp->name);
                estimate_experiment(exp, NULL, n, &mod);
                estimate_experiment(exp, loo, n, &est);
                run_format_duration(a, sizeof a, mod.secs);
                run_format_duration(b, sizeof b, est.secs);
                run_format_duration(c, sizeof c, rec);
                double r = est.secs / rec;
                printf("%-20s %12s %12s %12s %9.2f %9.2f\n", exp->name, a, b, c, mod.secs / rec, r);
                if (fabs(log(r)) > fabs(log(worst)))
                        worst = r;
                if (r < 0.8 || r > 1.25)
                        status = MAX(status, 1);
        }
        if (recorded) {
                printf("model: no calibration; calibrated: from every other experiment's runs in %s on the "
                       "machine that recorded it (leave-one-out); the worst calibrated ratio %.2f (target 0.8 "
                       "to 1.25)\n", dir, worst);
                return status;
        }
        run_format_duration(a, sizeof a, total);
        printf("  %-20s %12s\n", "estimated total", a);
        Estimate how = { .runs = estimate_calib_runs(cal) };
        g_autofree char *text = estimate_describe(&how);
        /* Only the source, not the per-cell tally of one file. */
        char *colon = strstr(text, " (data/");
        if (colon)
                *colon = '\0';
        printf("  estimated from: %s\n", text);
        return status;
}

/* ipclab init DIR: a new study in DIR, whose Makefile uses this binary
 * and the share directory found beside it (init.h). */
static int cmd_init(int argc, char **argv)
{
        g_autoptr(GOptionContext) ctx = g_option_context_new("DIR - start a study in DIR (new or empty)");
        g_autoptr(GError) e = NULL;

        g_option_context_set_description(ctx,
                "DIR gets experiments/ (an example experiment), a Makefile that includes the\n"
                "installed steps, paper/paper.tex, a README, a .gitignore (what make builds) and a\n"
                ".gitattributes (data/ as text with LF, for diffs), and becomes a git repository with\n"
                "a first commit (a warning says why not, when git is missing).  Then, in DIR: make all.\n");
        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return usage_error(ctx, e->message);
        if (argc != 2)
                return usage_error(ctx, "init needs one directory");
        g_autofree char *bin = g_file_read_link("/proc/self/exe", &e);
        if (!bin)
                return report(e);
        g_autofree char *share = init_find_share(bin, &e);
        g_autofree char *note = NULL;
        if (!share || !init_study(argv[1], share, bin, &note, &e))
                return report(e);
        if (note)
                fprintf(stderr, "ipclab: warning: init: %s\n", note);
        printf("ipclab: a study in %s (steps from %s)%s; there: make all\n", argv[1], share,
               note ? "" : ", a git repository with a first commit");
        return 0;
}

int main(int argc, char **argv)
{
        static const char usage[] =
                "Usage: ipclab COMMAND [OPTION...]\n\n"
                "Commands:\n"
                "  list                 transports, their variants, and why any is unavailable\n"
                "  check FILE...        validate; print the cells and an estimated duration\n"
                "  keys                 every key of every group of an experiment file\n"
                "  estimate FILE...     how long each run takes, and how that was estimated (--recorded:\n"
                "                       beside what data/EXP/meta.ini recorded)\n"
                "  run FILE...          run; results go to DIR/<experiment>/ (--out DIR, default data);\n"
                "                       --host ssh://USER@HOST[:PORT] or --slurm PARTITION: elsewhere\n"
                "  summarize DIR        per-cell statistics of DIR/samples.tsv as TSV\n"
                "  columns              the columns of samples.tsv and of the summary, as TSV\n"
                "  latency DIR          pooled latency percentiles of every cell, from DIR/latencies.tsv.gz\n"
                "  bus KIND             run a private dbus-daemon or dbus-broker until stdin closes\n"
                "  plot FILE NAME       the gnuplot script of [figure NAME], data inlined (--summary, --out)\n"
                "  table FILE NAME      the LaTeX tabular of [table NAME] (--summary, --out)\n"
                "  section FILE         a LaTeX section for the experiment (--summary, --out)\n"
                "  numbers FILE         the [number] groups as LaTeX macros (--summary, --out)\n"
                "  select FILE.tsv      rows (--where) and columns (--columns) of a TSV file, for gnuplot\n"
                "  methods META.ini...  the paper's methods text from meta.ini\n"
                "  init DIR             start a study in DIR (experiments/, Makefile, paper/)\n"
                "  compare DATA REPRO   a reproduction beside the committed data, cell by cell;\n"
                "                       compare DIR/EXP: the current run beside the previous one\n"
                "  paper-check EXP...   the built paper: its log, its text, its figures' styles, its captions\n\n"
                "`ipclab COMMAND --help` describes a command's options.\n"
                "Exit status: 0 success, 1 a measurement failed, 2 bad usage or bad input.\n";

        if (argc < 2) {
                fputs(usage, stderr);
                return EXIT_USAGE;
        }
        const char *cmd = argv[1];
        if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
                fputs(usage, stdout);
                return 0;
        }
        g_autofree char *prgname = g_strconcat("ipclab ", cmd, NULL);
        g_set_prgname(prgname);
        /* Earlier runs kept as git commits: git runs with a deadline. */
        history_set_command(meta_command);
        if (!strcmp(cmd, "list"))
                return cmd_list(argc - 1, argv + 1);
        if (!strcmp(cmd, "check"))
                return cmd_check(argc - 1, argv + 1);
        if (!strcmp(cmd, "keys"))
                return cmd_keys(argc - 1, argv + 1);
        if (!strcmp(cmd, "estimate"))
                return cmd_estimate(argc - 1, argv + 1);
        if (!strcmp(cmd, "run")) {
                /* Option parsing rewrites argv: keep the command as typed
                 * for meta.ini. */
                g_auto(GStrv) typed = g_strdupv(argv);
                return cmd_run(argc - 1, argv + 1, typed);
        }
        if (!strcmp(cmd, "summarize"))
                return cmd_summarize(argc - 1, argv + 1);
        if (!strcmp(cmd, "columns"))
                return cmd_columns(argc - 1, argv + 1);
        if (!strcmp(cmd, "bus"))
                return cmd_bus(argc - 1, argv + 1);
        if (!strcmp(cmd, "latency"))
                return latency_command(argc - 1, argv + 1);
        if (!strcmp(cmd, "plot"))
                return cmd_render(argc - 1, argv + 1, RENDER_PLOT);
        if (!strcmp(cmd, "table"))
                return cmd_render(argc - 1, argv + 1, RENDER_TABLE);
        if (!strcmp(cmd, "section"))
                return cmd_render(argc - 1, argv + 1, RENDER_SECTION);
        if (!strcmp(cmd, "numbers"))
                return cmd_numbers(argc - 1, argv + 1);
        if (!strcmp(cmd, "select"))
                return cmd_select(argc - 1, argv + 1);
        if (!strcmp(cmd, "methods"))
                return cmd_methods(argc - 1, argv + 1);
        if (!strcmp(cmd, "init"))
                return cmd_init(argc - 1, argv + 1);
        if (!strcmp(cmd, "compare"))
                return cmd_compare(argc - 1, argv + 1);
        if (!strcmp(cmd, "paper-check"))
                return cmd_paper_check(argc - 1, argv + 1);
#ifdef IPCLAB_HAVE_VERIFY
        if (!strcmp(cmd, "verify"))
                return verify_command(argc - 1, argv + 1);
#endif
        fprintf(stderr, "ipclab: unknown command '%s'\n\n%s", cmd, usage);
        return EXIT_USAGE;
}
