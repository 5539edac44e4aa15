/* progress.c: where what a run says goes (progress.h). */
#include "progress.h"

#include <stdarg.h>
#include <string.h>

static ProgressFn progress_fn;
static gpointer progress_data;

void progress_set(ProgressFn fn, gpointer data)
{
        progress_fn = fn;
        progress_data = data;
}

static void progress_send(ProgressKind kind, const char *text, gsize len)
{
        if (progress_fn)
                progress_fn(kind, text, len, progress_data);
}

void progress_forward(const char *text, gsize len)
{
        progress_send(PROGRESS_TEXT, text, len);
}

void progress_say(const char *format, ...)
{
        if (!progress_fn)
                return;
        va_list ap;
        va_start(ap, format);
        g_autofree char *body = g_strdup_vprintf(format, ap);
        va_end(ap);
        g_autofree char *line = g_strconcat("ipclab: ", body, "\n", NULL);
        progress_forward(line, strlen(line));
}

void progress_status(const char *line)
{
        progress_send(PROGRESS_STATUS, line ? line : "", line ? strlen(line) : 0);
}

void progress_keep_status(void)
{
        progress_send(PROGRESS_KEEP, "", 0);
}
