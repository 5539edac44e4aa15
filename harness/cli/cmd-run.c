/* cmd-run.c: the commands that estimate and run experiments: keys, run,
 * estimate (cli.h; list and check are in cmd-check.c). */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
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
#include "place.h"
#include "progress.h"
#include "plugin.h"
#include "render.h"
#include "run.h"
#include "safefile.h"
#include "samples.h"
#include "spawn.h"
#include "summarize.h"
#include "transport.h"
#if __has_include("verify.h")
#include "verify.h"
#define IPCLAB_HAVE_VERIFY 1
#endif

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
int cmd_keys(int argc, char **argv)
{
        g_autoptr(GOptionContext) ctx = g_option_context_new("- every key of every group of an experiment file");
        g_autoptr(GError) e = NULL;

        g_option_context_set_description(ctx, "One line a key: GROUPS KEY MEANING; [experiment] and [claim] keys "
                                         "say TYPE; DEFAULT; MEANING.\n");
        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return cli_usage_error(ctx, e->message);
        if (argc > 1)
                return cli_usage_error(ctx, "keys takes no arguments");
        g_autofree char *exp = experiment_key_help();
        g_autofree char *fig = figure_key_help();
        g_autofree char *num = numbers_key_help();
        printf("%-18s %-17s %s\n%s%s%s", "GROUPS", "KEY", "MEANING", exp, fig, num);
        return 0;
}

/* The EnvKind called NAME (envs.h), or -1. */
static int env_kind_of(const char *name)
{
        for (EnvKind k = 0; k < ENV_COUNT; k++)
                if (!strcmp(name, env_ops(k)->name))
                        return (int) k;
        return -1;
}

/* What `ipclab run` was asked, for run_files(). */
typedef struct {
        int env_kind;                /* -1: as each file says */
        const char *dir;
        bool quiet;
        GPtrArray *places;           /* Place, NULL-terminated; none: here */
        PlaceCall call;
} RunRequest;

/* Runs FILES (N of them) in turn as RQ says, here or at its places,
 * adding what each found to FOUND; stops at an interrupt.  Returns the
 * exit status. */
static int run_files(char **files, int n, const RunRequest *rq, GPtrArray *found)
{
        Place here = { .ops = place_ops(PLACE_LOCAL), .spec = (char *) "local", .key = (char *) "local" };
        int status = 0;

        for (int i = 0; i < n && !spawn_interrupted; i++) {
                g_autoptr(GError) err = NULL;
                g_autoptr(Experiment) exp = experiment_load(files[i], rq->call.profile, &err);
                int r;
                if (!exp)
                        return cli_report(err);
                if (rq->env_kind >= 0)
                        experiment_set_env(exp, (EnvKind) rq->env_kind);
                if (rq->places->len > 1) {
                        r = run_experiment_machines(exp, rq->dir, (const Place *const *) rq->places->pdata,
                                                    &rq->call, &err);
                } else {
                        PlaceJob job = { .place = &here, .call = &rq->call, .exp = exp, .out_dir = rq->dir };
                        r = place_run(&job, &err);
                }
                if (r == RUN_INTERRUPTED || spawn_interrupted)
                        return EXIT_INTERRUPTED;
                if (r == RUN_ERROR)
                        r = cli_report(err);
                else if (!rq->quiet)
                        add_findings(found, exp, rq->dir);
                if (r > status)
                        status = r;
        }
        return status;
}

/* Runs FILES (N of them) at P, a place that takes them all at once (a
 * Slurm job array: PlaceOps.batch), as RQ says.  Returns the exit
 * status. */
static int run_batch(const Place *p, char **files, int n, const RunRequest *rq)
{
        g_autoptr(GError) err = NULL;
        PlaceJob job = { .place = p, .call = &rq->call, .files = files, .n_files = (guint) n, .out_dir = rq->dir };
        int r = place_run(&job, &err);

        if (r == RUN_ERROR)
                return cli_report(err);
        return r == RUN_INTERRUPTED ? EXIT_INTERRUPTED : r;
}

/* The values of the place options (PlaceOps.option_help), by the kind
 * that declares the option. */
typedef struct {
        char *one[PLACE_COUNT];
        char **many[PLACE_COUNT];
} PlaceArgs;

/* The place options of PLACES(X), into ENTRIES (PLACE_COUNT + 1 of them,
 * NULL-terminated), their values into A. */
static void place_entries(GOptionEntry *entries, PlaceArgs *a)
{
        guint n = 0;

        for (PlaceKind k = 0; k < PLACE_COUNT; k++) {
                const PlaceOps *o = place_ops(k);
                if (!o->option_help)
                        continue;
                entries[n++] = (GOptionEntry) { o->option + 2, 0, 0,
                                                o->option_many ? G_OPTION_ARG_STRING_ARRAY : G_OPTION_ARG_STRING,
                                                o->option_many ? (gpointer) &a->many[k] : (gpointer) &a->one[k],
                                                o->option_help, o->option_arg };
        }
        entries[n] = (GOptionEntry) { NULL };
}

/* The option of the first place kind with an option of its own
 * (PLACES(X)) that is a batch place (Slurm) or not, as BATCH says: among
 * those given in A, or among every kind when A is NULL; NULL when none. */
static const char *place_option(const PlaceArgs *a, bool batch)
{
        for (PlaceKind k = 0; k < PLACE_COUNT; k++) {
                const PlaceOps *o = place_ops(k);
                if (o->option_help && o->batch == batch && (!a || a->one[k] || a->many[k]))
                        return o->option;
        }
        return NULL;
}

/* How many of the place options were given; *BATCH: whether one that
 * names a batch place (Slurm) was. */
static guint place_args_given(const PlaceArgs *a, bool *batch)
{
        guint n = 0;

        *batch = false;
        for (PlaceKind k = 0; k < PLACE_COUNT; k++) {
                if (!a->one[k] && !a->many[k])
                        continue;
                n++;
                *batch = *batch || place_ops(k)->batch;
        }
        return n;
}

/* Adds the places A names to PLACES, in PLACES(X)'s order of their
 * options, each as the first kind of its option that claims it; false
 * with ERROR. */
static bool place_args_add(const PlaceArgs *a, GPtrArray *places, GError **error)
{
        for (PlaceKind k = 0; k < PLACE_COUNT; k++) {
                const char *one[] = { a->one[k], NULL };
                char **specs = a->many[k] ? a->many[k] : (char **) one;
                for (guint i = 0; specs[i]; i++) {
                        Place *p = place_parse(place_ops(k)->option, specs[i], error);
                        if (!p)
                                return false;
                        g_ptr_array_add(places, p);
                }
        }
        return true;
}

static void place_args_clear(PlaceArgs *a)
{
        for (PlaceKind k = 0; k < PLACE_COUNT; k++) {
                g_free(a->one[k]);
                g_strfreev(a->many[k]);
        }
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(PlaceArgs, place_args_clear)

/* The width of the terminal on FD: the kernel's (TIOCGWINSZ), else
 * $COLUMNS, else 80; never less than 20. */
static guint terminal_columns(int fd)
{
        struct winsize ws;
        guint cols = 80;

        if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
                cols = ws.ws_col;
        } else if (g_getenv("COLUMNS")) {
                guint64 c = g_ascii_strtoull(g_getenv("COLUMNS"), NULL, 10);
                if (c > 0 && c < 10000)
                        cols = (guint) c;
        }
        return MAX(cols, 20);
}

/* Where what a run says goes (progress.h): our stderr, as it comes; the
 * status line only on a terminal, on one line that never wraps (a
 * wrapped one leaves its first half behind at each update). */
static void show_progress(ProgressKind kind, const char *text, gsize len, gpointer data)
{
        (void) data;
        if (kind == PROGRESS_TEXT) {
                (void) !write(STDERR_FILENO, text, len);
                return;
        }
        if (!isatty(STDERR_FILENO))
                return;
        if (kind == PROGRESS_KEEP) {
                (void) !write(STDERR_FILENO, "\n", 1);
                return;
        }
        guint cols = terminal_columns(STDERR_FILENO);
        g_autofree char *line = g_strconcat("\r\033[K", text, NULL);
        gsize n = strlen("\r\033[K") + (len >= cols ? cols - 1 : len);
        (void) !write(STDERR_FILENO, line, n);
}

/* Loads each of the N FILES with PROFILE: 0, or the exit status of the
 * first that does not load (reported). */
static int check_files(char **files, int n, const char *profile)
{
        for (int i = 0; i < n; i++) {
                g_autoptr(GError) err = NULL;
                g_autoptr(Experiment) exp = experiment_load(files[i], profile, &err);
                if (!exp)
                        return cli_report(err);
        }
        return 0;
}

/* What the run found (FOUND: Findings), once every experiment is
 * measured, in colour on a terminal unless NO_COLOR says otherwise. */
static void print_findings(const GPtrArray *found)
{
        const char *no_colour = g_getenv("NO_COLOR");
        bool colour = isatty(STDOUT_FILENO) && !(no_colour && *no_colour);
        for (guint i = 0; i < found->len; i++) {
                g_autofree char *text = findings_format(found->pdata[i], colour);
                printf("%s%s", i ? "\n" : "", text);
        }
}

int cmd_run(int argc, char **argv, char **argv_all)
{
        char *profile = NULL, *env = NULL, *out = NULL, *job_dir = NULL;
        char *history = NULL, *keep_size = NULL;
        g_auto(PlaceArgs) pa = { { NULL }, { NULL } };
        GOptionEntry place_opts[PLACE_COUNT + 1];
        gint nodes = 1, keep = HISTORY_KEEP_DEFAULT;
        gboolean resume = FALSE, quiet = FALSE;
        g_autoptr(GString) env_help = g_string_new("Where to run: ");
        for (EnvKind k = 0; k < ENV_COUNT; k++)
                g_string_append_printf(env_help, "%s%s", k ? ", " : "", env_ops(k)->name);
        g_string_insert(env_help, (gssize) strlen("Where to run: ") + strlen(env_ops(0)->name), " (default)");
        /* The batch place's option (--slurm), from its row of PLACES(X). */
        const char *batch_opt = place_option(NULL, true);
        g_autofree char *nodes_help = g_strdup_printf("With %s: run each file on N nodes (default 1)", batch_opt);
        g_autofree char *job_dir_help = g_strdup_printf("With %s: where the job script, logs and task results go "
                                                        "(default build/slurm/<experiments>)", batch_opt);
        GOptionEntry entries[] = {
                { "profile", 'p', 0, G_OPTION_ARG_STRING, &profile, "Apply [profile NAME] (e.g. quick)", "NAME" },
                { "env", 'e', 0, G_OPTION_ARG_STRING, &env, env_help->str, "ENV" },
                { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Results go to DIR/<experiment>/ (default: data)", "DIR" },
                { "resume", 'r', 0, G_OPTION_ARG_NONE, &resume, "Continue an interrupted run from its completed cells", NULL },
                { NULL },
        };
        /* Then the places' options (PLACES(X)), then these. */
        GOptionEntry after[] = {
                { "nodes", 0, 0, G_OPTION_ARG_INT, &nodes, nodes_help, "N" },
                { "job-dir", 0, 0, G_OPTION_ARG_FILENAME, &job_dir, job_dir_help, "DIR" },
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
        place_entries(place_opts, &pa);
        g_option_context_add_main_entries(ctx, place_opts, NULL);
        g_option_context_add_main_entries(ctx, after, NULL);
        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return cli_usage_error(ctx, e->message);
        if (argc < 2)
                return cli_usage_error(ctx, "run needs at least one experiment file");
        int env_kind = env ? env_kind_of(env) : -1;   /* -1: as each file says */
        if (env && env_kind < 0) {
                g_autofree char *names = env_names_text();
                g_autofree char *msg = g_strdup_printf("--env must be %s", names);
                return cli_usage_error(ctx, msg);
        }
        bool batch;
        if (place_args_given(&pa, &batch) > 1 && batch) {
                g_autofree char *msg = g_strdup_printf("%s and %s do not go together: a Slurm job runs where "
                                                       "Slurm puts it", place_option(&pa, false),
                                                       place_option(&pa, true));
                return cli_usage_error(ctx, msg);
        }
        if (nodes < 1 || nodes > 4096 || (nodes != 1 && !batch)) {
                g_autofree char *msg = g_strdup_printf("--nodes N goes with %s, N from 1 to 4096", batch_opt);
                return cli_usage_error(ctx, msg);
        }
        if (keep < 0 || keep > 10000)
                return cli_usage_error(ctx, "--keep N: N from 0 to 10000 earlier runs");
        if (!history_configure(history, (guint) keep, keep_size, out ? out : "data", &e))
                return cli_report(e);
        g_autoptr(GPtrArray) places = g_ptr_array_new_with_free_func((GDestroyNotify) place_free);
        if (!place_args_add(&pa, places, &e))
                return cli_report(e);
        g_ptr_array_add(places, NULL);
        /* Validate every file before measuring anything. */
        status = check_files(argv + 1, argc - 1, profile);
        if (status)
                return status;
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

        progress_set(show_progress, NULL);
        struct sigaction sa = { .sa_handler = cli_on_signal };
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        signal(SIGPIPE, SIG_IGN);
        const char *dir = out ? out : "data";
        /* One run per output directory at a time, for the whole run. */
        g_autoptr(GError) lock_err = NULL;
        int lock = run_lock_out(dir, (const char *const *) argv_all, &lock_err);
        if (lock < 0)
                return cli_report(lock_err);
        g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func((GDestroyNotify) findings_free);
        RunRequest rq = { .env_kind = env_kind, .dir = dir, .quiet = quiet, .places = places,
                          .call = { .self = self, .profile = profile, .env = env, .resume = resume,
                                    .nodes = (guint) nodes, .job_dir = job_dir, .extra = extra,
                                    .argv = (const char *const *) argv_all } };
        const Place *first = places->pdata[0];
        if (first && first->ops->batch)
                status = run_batch(first, argv + 1, argc - 1, &rq);
        else
                status = run_files(argv + 1, argc - 1, &rq, found);
        run_unlock_out(dir, lock);
        if (status != EXIT_INTERRUPTED)
                print_findings(found);
        g_free(profile);
        g_free(env);
        g_free(out);
        g_free(job_dir);
        return status;
}

/* ipclab estimate FILE...: the duration of each run (estimate.h), as
 * `make reproduce` announces it; --recorded: the model's and the
 * calibrated estimate (leaving the experiment's own run out) beside the
 * span its meta.ini recorded, on the machine that recorded it. */
int cmd_estimate(int argc, char **argv)
{
        g_autofree char *profile = NULL, *data = NULL, *place = NULL;
        gboolean recorded = FALSE, model = FALSE;
        gint places = 1;
        g_autoptr(GString) kinds = g_string_new(NULL);
        for (PlaceKind k = 0; k < PLACE_COUNT; k++)
                g_string_append_printf(kinds, "%s%s", k ? ", " : "", place_ops(k)->name);
        g_autofree char *place_help = g_strdup_printf("Run at places of KIND: %s (default: local for one "
                                                      "place, else ssh)", kinds->str);
        GOptionEntry entries[] = {
                { "profile", 'p', 0, G_OPTION_ARG_STRING, &profile, "Apply [profile NAME]", "NAME" },
                { "data", 'd', 0, G_OPTION_ARG_FILENAME, &data,
                  "Calibrate from the runs recorded in DIR/*/ on this machine (default: data)", "DIR" },
                { "model", 0, 0, G_OPTION_ARG_NONE, &model, "The model alone: no calibration", NULL },
                { "places", 0, 0, G_OPTION_ARG_INT, &places, "Run at N places (SSH targets in turn; Slurm nodes)",
                  "N" },
                { "place", 0, 0, G_OPTION_ARG_STRING, &place, place_help, "KIND" },
                { "recorded", 0, 0, G_OPTION_ARG_NONE, &recorded,
                  "Beside DIR/EXP/meta.ini's recorded span: the model, and the calibration without EXP's own "
                  "run; exit 1 when a calibrated estimate is off by more than 25 %", NULL },
                G_OPTION_ENTRY_NULL
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("FILE... - how long each run will take");
        g_autoptr(GError) e = NULL;

        g_option_context_add_main_entries(ctx, entries, NULL);
        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return cli_usage_error(ctx, e->message);
        if (argc < 2)
                return cli_usage_error(ctx, "estimate needs at least one experiment file");
        if (places < 1 || places > 10000)
                return cli_usage_error(ctx, "--places: give 1 to 10000");
        int kind = place ? place_kind_of(place) : places > 1 ? PLACE_SSH : PLACE_LOCAL;
        if (kind < 0 || (kind == PLACE_LOCAL && places > 1)) {
                g_autofree char *msg = g_strdup_printf("--place: give one of %s (local: one place)", kinds->str);
                return cli_usage_error(ctx, msg);
        }
        /* A place that takes every file at once (Slurm's job array) runs
         * them side by side: the total is the longest. */
        bool side_by_side = place_ops((PlaceKind) kind)->batch;
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
                        status = cli_report(e);
                        g_clear_error(&e);
                        continue;
                }
                Estimate est;
                if (!recorded) {
                        place_estimate(exp, cal, (PlaceKind) kind, (guint) places, &est);
                        total = side_by_side ? MAX(total, est.secs) : total + est.secs;
                        run_format_duration(a, sizeof a, est.secs);
                        printf("  %-20s %12s%s  %s\n", exp->name, a, est.more ? "+" : "",
                               est.runs ? "calibrated" : "the model");
                        /* What its environments and places add ("; 1.0 s
                         * container start"), under it. */
                        if (est.where)
                                printf("  %-20s %12s  %s\n", "", "", est.where + strspn(est.where, "; "));
                        g_free(est.where);
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
                estimate_take_recorded(exp, edir);
                /* The recorded run: here, or N SSH targets in turn. */
                PlaceKind at = n > 1 ? PLACE_SSH : PLACE_LOCAL;
                place_estimate(exp, NULL, at, n, &mod);
                place_estimate(exp, loo, at, n, &est);
                g_free(mod.where);
                g_free(est.where);
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
