/* cli.h: what the files of the `ipclab` command line share: the exit
 * statuses, the two ways an error is printed, and one function per
 * command (main.c dispatches; cmd-check.c: list, check; cmd-run.c:
 * keys, run, estimate; cmd-data.c: summarize, columns, plot, table, section,
 * numbers, select, methods, bus, compare, paper-check, init;
 * cmd-latency.c: latency).  Only these files print. */
#pragma once

#include <glib.h>


/* What `ipclab plot`, `table` and `section` write. */
typedef enum { RENDER_PLOT, RENDER_TABLE, RENDER_SECTION } RenderKind;

#define EXIT_FAILED 1
#define EXIT_USAGE 2
#define EXIT_INTERRUPTED 130

/* Prints MSG and CTX's help on stderr; returns EXIT_USAGE. */
int cli_usage_error(GOptionContext *ctx, const char *msg);
/* Prints E, one "ipclab: " line for each of its lines (an experiment
 * file's mistakes come all at once, one a line); returns EXIT_USAGE for
 * bad input, else EXIT_FAILED. */
int cli_report(GError *e);

/* A SIGINT or SIGTERM handler: sets spawn_interrupted (spawn.h), which
 * a run polls to stop, keeping what it measured. */
void cli_on_signal(int sig);

/* `ipclab COMMAND ARGS...` with ARGV[0] the command: the exit status. */
int cmd_list(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_keys(int argc, char **argv);
int cmd_estimate(int argc, char **argv);
/* ARGV_ALL: the command line as typed, for meta.ini. */
int cmd_run(int argc, char **argv, char **argv_all);
int cmd_summarize(int argc, char **argv);
int cmd_columns(int argc, char **argv);
/* cmd-latency.c */
int cmd_latency(int argc, char **argv);
int cmd_render(int argc, char **argv, RenderKind kind);
int cmd_numbers(int argc, char **argv);
int cmd_select(int argc, char **argv);
int cmd_methods(int argc, char **argv);
int cmd_bus(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_paper_check(int argc, char **argv);
int cmd_init(int argc, char **argv);

/* `ipclab check --make-outputs`: prints the make variables of the
 * outputs of LOADED (Experiment *, every file loaded, their names checked
 * for clashes already) for mk/plots.mk; EXIT_USAGE, printing nothing on
 * stdout, when a word could not be a make word (outputs-mk.c). */
int cli_outputs_make(const GPtrArray *loaded);
