/* cli.c: the command line's error printing (cli.h). */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#include "experiment.h"
#include "spawn.h"
#include "safefile.h"

int cli_usage_error(GOptionContext *ctx, const char *msg)
{
        g_autofree char *help = g_option_context_get_help(ctx, TRUE, NULL);
        fprintf(stderr, "ipclab: %s\n\n%s", msg, help);
        return EXIT_USAGE;
}

/* Prints E, one "ipclab: " line for each of its lines (an experiment
 * file's mistakes come all at once, one a line). */
int cli_report(GError *e)
{
        /* A message may quote a file's bytes: no terminal control in it. */
        g_autofree char *shown = safefile_terminal_text(e->message, strlen(e->message));
        g_auto(GStrv) lines = g_strsplit(shown, "\n", -1);

        for (guint i = 0; lines[i]; i++)
                fprintf(stderr, "ipclab: %s\n", lines[i]);
        return e->domain == IPCLAB_ERROR && e->code == IPCLAB_ERROR_INPUT ? EXIT_USAGE : EXIT_FAILED;
}

void cli_on_signal(int sig)
{
        (void) sig;
        spawn_interrupted = 1;
}
