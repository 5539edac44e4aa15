/* main.c: the `ipclab` command line.  The only place that prints errors.
 *
 *   ipclab list
 *   ipclab check FILE...
 *   ipclab run [--profile NAME] [--env host|nspawn|vm] [--out DIR] [--resume]
 *              [--host ssh://USER@HOST[:PORT]]... [--slurm PARTITION [--nodes N]] FILE...
 *   ipclab summarize DIR/<experiment>
 *   ipclab columns
 *
 * Exit status: 0 success, 1 a measurement failed, 2 bad usage or bad input.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bus.h"
#include "columns.h"
#include "env/env.h"
#include "experiment.h"
#include "meta.h"
#include "remote.h"
#include "run.h"
#include "runner.h"
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

extern volatile sig_atomic_t runner_interrupted;

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
        g_auto(GStrv) lines = g_strsplit(e->message, "\n", -1);

        for (guint i = 0; lines[i]; i++)
                fprintf(stderr, "ipclab: %s\n", lines[i]);
        return e->domain == IPCLAB_ERROR && e->code == IPCLAB_ERROR_INPUT ? EXIT_USAGE : EXIT_FAILED;
}

static int cmd_list(int argc, char **argv)
{
        g_autoptr(GOptionContext) ctx = g_option_context_new("- list transports and why any is unavailable");
        g_autoptr(GError) e = NULL;

        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return usage_error(ctx, e->message);
        printf("%-16s %-8s %-10s %s\n", "TRANSPORT", "FAMILY", "STATE", "WHAT");
        for (size_t i = 0; transport_table[i]; i++) {
                const Transport *t = transport_table[i];
                const char *why = t->unavailable ? t->unavailable() : NULL;
                printf("%-16s %-8s %-10s %s\n", t->name, t->family, why ? "unavailable" : "ok", t->summary);
                if (why)
                        printf("%-16s %-8s %-10s   why: %s\n", "", "", "", why);
                if (t->flags & TRANSPORT_DBUS) {
                        for (BusKind b = BUS_DBUS_DAEMON; b <= BUS_P2P; b++) {
                                const char *bw = b == BUS_P2P ? NULL : bus_unavailable(b);
                                printf("%-16s %-8s %-10s   bus=%s%s%s\n", "", "", bw ? "unavailable" : "ok",
                                       bus_name(b), bw ? ": " : "", bw ? bw : "");
                        }
                }
        }
        printf("\n%-16s %-10s %s\n", "ENVIRONMENT", "STATE", "WHY");
        for (EnvKind k = ENV_HOST; k <= ENV_VM; k++) {
                const char *why = env_unavailable(k);
                printf("%-16s %-10s %s\n", env_name(k), why ? "unavailable" : "ok", why ? why : "");
        }
        return 0;
}

static int cmd_check(int argc, char **argv)
{
        char *profile = NULL;
        gboolean config_hash = FALSE;
        GOptionEntry entries[] = {
                { "profile", 'p', 0, G_OPTION_ARG_STRING, &profile, "Apply [profile NAME]", "NAME" },
                { "config-hash", 0, 0, G_OPTION_ARG_NONE, &config_hash,
                  "Print only the SHA-256 of what each file measures (meta.ini's config_sha256)", NULL },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("FILE... - validate experiment files, print their cells and an estimate");
        g_autoptr(GError) e = NULL;
        int status = 0;

        g_option_context_add_main_entries(ctx, entries, NULL);
        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return usage_error(ctx, e->message);
        if (argc < 2)
                return usage_error(ctx, "check needs at least one experiment file");
        for (int i = 1; i < argc; i++) {
                g_autoptr(GError) err = NULL;
                g_autoptr(Experiment) exp = experiment_load(argv[i], profile, &err);
                if (!exp) {
                        status = report(err);
                        continue;
                }
                if (config_hash) {
                        g_autofree char *h = experiment_config_sha256(exp);
                        printf("%s\n", h);
                        continue;
                }
                double total = 0;   /* ns; a double, since huge counts overflow */
                printf("%s: %s\n", exp->name, exp->title);
                /* Claims that cannot mean anything (verify.h); `ipclab
                 * verify` refuses them. */
                for (guint k = 0; k < exp->claims->len; k++) {
                        g_autoptr(GError) ce = NULL;
                        if (!verify_claim_check(exp, exp->claims->pdata[k], &ce))
                                fprintf(stderr, "ipclab: warning: %s\n", ce->message);
                }
                printf("  %u cells x %u%s repetitions, warm-up %u, time limit %.0f s per repetition%s%s\n",
                       exp->cells->len, exp->repeat, exp->repeat_auto ? " or more (repeat=auto)" : "", exp->warmup, (double) exp->timeout_ns / 1e9,
                       profile ? ", profile " : "", profile ? profile : "");
                for (guint c = 0; c < exp->cells->len; c++) {
                        const Cell *cell = exp->cells->pdata[c];
                        g_autofree char *d = cell_describe(cell);
                        total += (double) cell_estimate_ns(cell, exp->warmup) * exp->repeat;
                        printf("  %4u  %s\n", cell->index, d);
                }
                for (guint s = 0; s < exp->skipped->len; s++)
                        printf("  skip  %s\n", (char *) exp->skipped->pdata[s]);
                /* Every environment runs every cell.  Its set-up and
                 * slowdown, as env-cost recorded them (2 CPUs): a container
                 * starts in about 1 s; a VM boots in about 45 s and runs
                 * about 30 times slower emulated (TCG), 1.2 with KVM. */
                bool kvm = !strcmp(env_vm_accel(), "kvm");
                double secs = 0;
                GString *where = g_string_new(NULL);
                bool vm = false, nspawn = false;
                for (guint k = 0; k < exp->n_envs; k++) {
                        g_string_append_printf(where, "%s%s", k ? ", " : "", env_name(exp->envs[k]));
                        vm |= exp->envs[k] == ENV_VM;
                        nspawn |= exp->envs[k] == ENV_NSPAWN;
                        secs += exp->envs[k] == ENV_NSPAWN ? total / 1e9 + 1
                              : exp->envs[k] == ENV_VM ? total / 1e9 * (kvm ? 1.2 : 30) + 45
                              : total / 1e9;
                }
                char est[64];
                run_format_duration(est, sizeof est, secs);
                printf("  runs in: %s\n", where->str);
                g_string_free(where, TRUE);
                printf("  estimated duration: %s\n", est);
                printf("  estimated from: per-message and per-byte costs of each transport, bus start-up per cell%s%s\n",
                       nspawn ? ", 1 s container start" : "",
                       vm ? (kvm ? ", 45 s VM boot, 1.2x under KVM" : ", 45 s VM boot, 30x emulated (TCG)") : "");
        }
        g_free(profile);
        return status;
}

static int cmd_run(int argc, char **argv, char **argv_all)
{
        char *profile = NULL, *env = NULL, *out = NULL, *slurm = NULL, *job_dir = NULL;
        g_auto(GStrv) hosts = NULL;
        gint nodes = 1;
        gboolean resume = FALSE;
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
                if (r > status)
                        status = r;
        }
        run_unlock_out(dir, lock);
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
        g_autoptr(GOptionContext) ctx = g_option_context_new("DIR - per-cell statistics of DIR/samples.tsv, as TSV");
        g_autoptr(GError) e = NULL;

        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return usage_error(ctx, e->message);
        if (argc != 2)
                return usage_error(ctx, "summarize needs one results directory");
        g_autoptr(GString) out = g_string_new(NULL);
        if (summarize_dir(argv[1], out, &e) < 0)
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

int main(int argc, char **argv)
{
        static const char usage[] =
                "Usage: ipclab COMMAND [OPTION...]\n\n"
                "Commands:\n"
                "  list                 transports, their variants, and why any is unavailable\n"
                "  check FILE...        validate; print the cells and an estimated duration\n"
                "  run FILE...          run; results go to DIR/<experiment>/ (--out DIR, default data);\n"
                "                       --host ssh://USER@HOST[:PORT] or --slurm PARTITION: elsewhere\n"
                "  summarize DIR        per-cell statistics of DIR/samples.tsv as TSV\n"
                "  columns              the columns of samples.tsv and of the summary, as TSV\n"
                "  bus KIND             run a private dbus-daemon or dbus-broker until stdin closes\n\n"
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
        if (!strcmp(cmd, "list"))
                return cmd_list(argc - 1, argv + 1);
        if (!strcmp(cmd, "check"))
                return cmd_check(argc - 1, argv + 1);
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
#ifdef IPCLAB_HAVE_VERIFY
        if (!strcmp(cmd, "verify"))
                return verify_command(argc - 1, argv + 1);
#endif
        fprintf(stderr, "ipclab: unknown command '%s'\n\n%s", cmd, usage);
        return EXIT_USAGE;
}
