/* cmd-data.c: the commands that turn results into summaries, figures,
 * tables, numbers and comparisons, and start studies (cli.h). */
#include "cli.h"

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
#include "spawn.h"
#include "methods.h"
#include "numbers.h"
#include "papercheck.h"
#include "place.h"
#include "plugin.h"
#include "render.h"
#include "remote.h"
#include "run.h"
#include "safefile.h"
#include "samples.h"
#include "summarize.h"
#include "transport.h"
#if __has_include("verify.h")
#include "verify.h"
#define IPCLAB_HAVE_VERIFY 1
#endif

/* Per-cell statistics of DIR/samples.tsv as TSV on stdout (summarize.h). */
int cmd_summarize(int argc, char **argv)
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
                return cli_usage_error(ctx, e->message);
        if (argc != 2)
                return cli_usage_error(ctx, "summarize needs one results directory");
        g_autoptr(GString) out = g_string_new(NULL);
        if ((by_placement ? summarize_dir_by_placement : summarize_dir)(argv[1], out, &e) < 0)
                return cli_report(e);
        fwrite(out->str, 1, out->len, stdout);
        return 0;
}

/* ipclab columns: the column schema (columns.h) as TSV. */
int cmd_columns(int argc, char **argv)
{
        g_autoptr(GOptionContext) ctx = g_option_context_new("- the columns of samples.tsv and of the summary, as TSV");
        g_autoptr(GError) e = NULL;

        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return cli_usage_error(ctx, e->message);
        if (argc != 1)
                return cli_usage_error(ctx, "columns takes no arguments");
        printf("name\tkind\tunit\tlabel\tkey\tfiles\tinterval\tbetter\tclaim\n");
        for (const Column *c = column_table; c->name; c++) {
                bool s = c->flags & COLUMN_IN_SAMPLES, m = c->flags & COLUMN_IN_SUMMARY;
                printf("%s\t%s\t%s\t%s\t%s\t%s\t", c->name, column_kind_name(c->kind),
                       c->unit[0] ? c->unit : "-", c->label, c->key ? c->key : "-",
                       s && m ? "samples,summary" : s ? "samples" : "summary");
                if (c->flags & COLUMN_HAS_CI)
                        printf("%s_lo,%s_hi", c->name, c->name);
                else
                        printf("-");
                printf("\t%s\t%s\n", column_better_name(c->better), c->claim ? c->claim : "-");
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

/* ipclab plot|table|section (render.h): renders, then writes --out (and
 * plot's --facts) atomically; nothing is written on any mistake. */
int cmd_render(int argc, char **argv, RenderKind kind)
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
                status = cli_usage_error(ctx, e->message);
        } else if (argc != n_args || !summary || !out) {
                status = cli_usage_error(ctx, kind == RENDER_SECTION ? "section needs FILE, --summary and --out"
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
                        status = cli_report(e);
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
int cmd_numbers(int argc, char **argv)
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
                return cli_usage_error(ctx, e->message);
        if (argc != 2 || !summary || !out)
                return cli_usage_error(ctx, "numbers needs FILE, --summary and --out");
        g_autoptr(GHashTable) also_files = render_pairs(also, "also", &e);
        if (!also_files)
                return cli_report(e);
        NumbersInputs in = { .summary = summary, .also = also_files, .published = published ? published : "data/published",
                             .meta = meta };
        g_autofree char *text = numbers_render(argv[1], &in, &e);
        return text ? write_out(out, text) : cli_report(e);
}

/* ipclab select FILE.tsv (numbers.h): rows and columns for gnuplot. */
int cmd_select(int argc, char **argv)
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
                return cli_usage_error(ctx, e->message);
        if (argc != 2)
                return cli_usage_error(ctx, "select needs one TSV file");
        g_autofree char *text = numbers_select(argv[1], where, columns, count, &e);
        return text ? write_out(NULL, text) : cli_report(e);
}

/* ipclab methods --summary S.tsv... META.ini... (methods.h): the methods text. */
int cmd_methods(int argc, char **argv)
{
        g_autofree char *out = NULL;
        g_auto(GStrv) summaries = NULL;
        GOptionEntry entries[] = {
                { "out", 0, 0, G_OPTION_ARG_FILENAME, &out, "The file to write (default: standard output)", "FILE" },
                { "summary", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &summaries,
                  "Each experiment's summary (ipclab summarize), one per META.ini, in their order", "S.tsv" },
                { NULL },
        };
        g_autoptr(GOptionContext) ctx = g_option_context_new("META.ini... - write the paper's methods text from meta.ini");
        g_autoptr(GError) e = NULL;

        g_option_context_add_main_entries(ctx, entries, NULL);
        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return cli_usage_error(ctx, e->message);
        g_autofree char *text = methods_tex(argv + 1, summaries, &e);
        return text ? write_out(out, text) : cli_report(e);
}

/* ipclab bus KIND: a private bus of KIND for other programs (benchmarks
 * against reference tools): prints its address, runs until standard input
 * closes or a signal arrives, then stops it and removes its directory. */
int cmd_bus(int argc, char **argv)
{
        g_autoptr(GOptionContext) ctx = g_option_context_new("dbus-daemon|dbus-broker - run a private bus until stdin closes");
        g_autoptr(GError) e = NULL;

        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return cli_usage_error(ctx, e->message);
        if (argc != 2 || (strcmp(argv[1], "dbus-daemon") && strcmp(argv[1], "dbus-broker")))
                return cli_usage_error(ctx, "bus needs one kind: dbus-daemon or dbus-broker");
        BusKind kind = strcmp(argv[1], "dbus-daemon") ? BUS_DBUS_BROKER : BUS_DBUS_DAEMON;
        g_autoptr(Bus) bus = bus_start(kind, &e);
        if (!bus)
                return cli_report(e);
        struct sigaction sa = { .sa_handler = cli_on_signal };
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        printf("%s\n%d\n", bus_get_address(bus), (int) bus_get_pid(bus));
        fflush(stdout);
        char buf[64];
        while (!spawn_interrupted && bus_is_alive(bus)) {
                ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
                if (n == 0 || (n < 0 && errno != EINTR))
                        break;
        }
        return 0;
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
        g_ptr_array_sort(names, samples_name_cmp);
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

/* What a compare branch returns to go on to the tally. */
#define COMPARE_TALLY (-1)

/* ipclab compare DIR/EXPERIMENT: its current run beside the one kept
 * before it, or AGAINST; LIST: the runs kept.  An exit status, or
 * COMPARE_TALLY. */
static int compare_history(const char *path, const char *against, bool list, CompareTally *tally)
{
        g_autoptr(GError) e = NULL;
        g_autofree char *name = g_path_get_basename(path);
        g_autofree char *hist = history_dir_of(path);
        g_autoptr(GPtrArray) ids = history_list(path);

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
                        "lists those kept)\n", against, hist, path);
                return EXIT_USAGE;
        }
        if (!id) {
                fprintf(stderr, "ipclab: compare: no earlier run of %s is kept in %s or as a git commit (a "
                        "rerun keeps the run it replaces)\n", path, hist);
                return EXIT_USAGE;
        }
        g_autofree char *old = NULL, *tmp = NULL;
        int r = history_open(path, id, &old, &tmp);
        if (r < 0) {
                fprintf(stderr, "ipclab: compare: cannot read run %s of %s: %s\n", id, path, g_strerror(-r));
                return EXIT_FAILED;
        }
        g_autofree char *header = compare_header();
        g_autoptr(GString) out = g_string_new(header);
        bool ok = compare_pair(name, old, path, tally, out, &e);
        if (tmp)
                samples_remove_dir(tmp);
        if (!ok)
                return cli_report(e);
        fputs(out->str, stdout);
        fprintf(stderr, "ipclab: compare: %s against %s: ", path, id);
        return COMPARE_TALLY;
}

/* ipclab compare DATA REPRO: every experiment with data in both (ONLY:
 * those named), or with MACHINES the two machines.  An exit status, or
 * COMPARE_TALLY (with FAIL_ABOVE). */
static int compare_dirs(const char *data, const char *repro, char **only, bool machines, const char *fail_above,
                        CompareTally *tally)
{
        g_autoptr(GError) e = NULL;
        g_autoptr(GPtrArray) names = compare_experiments(data, repro, &e);
        if (e)
                return cli_report(e);
        g_autofree char *header = compare_header();
        g_autoptr(GString) out = g_string_new(machines ? NULL : header);
        for (guint i = 0; i < names->len; i++) {
                const char *name = names->pdata[i];
                if (only && !g_strv_contains((const char *const *) only, name))
                        continue;
                g_autofree char *a = g_build_filename(data, name, NULL);
                g_autofree char *b = g_build_filename(repro, name, NULL);
                if (machines) {
                        g_autofree char *ma = g_build_filename(a, "meta.ini", NULL);
                        g_autofree char *mb = g_build_filename(b, "meta.ini", NULL);
                        if (!compare_machines(ma, mb, out, &e))
                                return cli_report(e);
                        break;
                }
                if (!compare_pair(name, a, b, tally, out, &e))
                        return cli_report(e);
        }
        if (machines && !out->len) {
                fprintf(stderr, "ipclab: compare: no experiment has data in both %s and %s\n", data, repro);
                return EXIT_USAGE;
        }
        fputs(out->str, stdout);
        if (machines || !fail_above)
                return 0;
        fprintf(stderr, "ipclab: compare: %s against %s: ", repro, data);
        return COMPARE_TALLY;
}

/* ipclab compare DATA_DIR REPRO_DIR: a reproduction beside the committed
 * data (compare.h): per cell, or with --machines the two machines.
 * ipclab compare DIR/EXPERIMENT: the current run beside one kept in its
 * history (history.h), the previous one or --against RUN. */
int cmd_compare(int argc, char **argv)
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
                return cli_usage_error(ctx, e->message);
        CompareTally tally = { .regressions = g_ptr_array_new_with_free_func(g_free) };
        g_autoptr(GPtrArray) regressions = tally.regressions;
        if (fail_above && !parse_percent(fail_above, &tally.fail_above))
                return cli_usage_error(ctx, "--fail-above takes a percentage above 0, such as 10%");
        int rc;
        if (argc == 2 && !machines && !only) {
                rc = compare_history(argv[1], against, list, &tally);
        } else {
                if (argc != 3)
                        return cli_usage_error(ctx, "compare needs DATA_DIR and REPRO_DIR, or one DIR/EXPERIMENT");
                if (against || list)
                        return cli_usage_error(ctx, "--against and --list go with one DIR/EXPERIMENT");
                rc = compare_dirs(argv[1], argv[2], only, machines, fail_above, &tally);
        }
        if (rc != COMPARE_TALLY)
                return rc;
        fprintf(stderr, "%u cells: %u slower, %u faster, %u within %s, %u undecided\n", tally.cells,
                tally.changes[COMPARE_SLOWER], tally.changes[COMPARE_FASTER], tally.changes[COMPARE_WITHIN],
                fail_above ? fail_above : "(no --fail-above)", tally.changes[COMPARE_UNDECIDED]);
        for (guint i = 0; i < regressions->len; i++)
                fprintf(stderr, "ipclab: regression beyond %s: %s\n", fail_above, (char *) regressions->pdata[i]);
        return regressions->len ? EXIT_FAILED : 0;
}

/* ipclab paper-check (papercheck.h): prints each problem of the built
 * paper; exit status 1 when there is one, 2 when it cannot be checked. */
int cmd_paper_check(int argc, char **argv)
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
                status = cli_usage_error(ctx, e->message);
        } else if (!log || !pdf) {
                status = cli_usage_error(ctx, "paper-check needs --log and --pdf");
        } else {
                g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
                pc = (PaperCheck) { log, pdf, figures, sections, argv + 1 };
                if (!papercheck_run(&pc, problems, &e)) {
                        status = cli_report(e);
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

/* ipclab init DIR: a new study in DIR, whose Makefile uses this binary
 * and the share directory found beside it (init.h). */
int cmd_init(int argc, char **argv)
{
        g_autoptr(GOptionContext) ctx = g_option_context_new("DIR - start a study in DIR (new or empty)");
        g_autoptr(GError) e = NULL;

        g_option_context_set_description(ctx,
                "DIR gets experiments/ (an example experiment), a Makefile that includes the\n"
                "installed steps, paper/paper.tex, a README, a .gitignore (what make builds) and a\n"
                ".gitattributes (data/ as text with LF, for diffs), and becomes a git repository with\n"
                "a first commit (a warning says why not, when git is missing).  Then, in DIR: make all.\n");
        if (!g_option_context_parse(ctx, &argc, &argv, &e))
                return cli_usage_error(ctx, e->message);
        if (argc != 2)
                return cli_usage_error(ctx, "init needs one directory");
        g_autofree char *bin = g_file_read_link("/proc/self/exe", &e);
        if (!bin)
                return cli_report(e);
        g_autofree char *share = init_find_share(bin, &e);
        g_autofree char *note = NULL;
        if (!share || !init_study(argv[1], share, bin, &note, &e))
                return cli_report(e);
        if (note)
                fprintf(stderr, "ipclab: warning: init: %s\n", note);
        printf("ipclab: a study in %s (steps from %s)%s; there: make all\n", argv[1], share,
               note ? "" : ", a git repository with a first commit");
        return 0;
}
