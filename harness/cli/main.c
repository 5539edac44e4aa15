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
#include "cli.h"

#include <stdio.h>
#include <string.h>

#include "history.h"
#include "meta.h"
#include "transport.h"
#if __has_include("verify.h")
#include "verify.h"
#define IPCLAB_HAVE_VERIFY 1
#endif

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

        transports_install(&transport_ops);
#ifdef IPCLAB_HAVE_VERIFY
        experiment_install_claim_check(verify_claim_check);
#endif
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
                return cmd_latency(argc - 1, argv + 1);
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
