/* progress.c: where what the places say goes (progress.h). */
#include "progress.h"

#include <stdarg.h>
#include <string.h>

static PlaceProgressFn progress_fn;
static gpointer progress_data;

void place_set_progress(PlaceProgressFn fn, gpointer data)
{
        progress_fn = fn;
        progress_data = data;
}

void place_forward(const char *text, gsize len)
{
        if (progress_fn)
                progress_fn(text, len, progress_data);
}

void place_say(const char *format, ...)
{
        if (!progress_fn)
                return;
        va_list ap;
        va_start(ap, format);
        g_autofree char *body = g_strdup_vprintf(format, ap);
        va_end(ap);
        g_autofree char *line = g_strconcat("ipclab: ", body, "\n", NULL);
        place_forward(line, strlen(line));
}
