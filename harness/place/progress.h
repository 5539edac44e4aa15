/* progress.h: what the places say while an experiment runs there:
 * progress ("running on ssh://x", "merged in data/x"), warnings, and the
 * output a target's run sends back as it comes.  Nothing below cli/
 * prints: the command line sets where it goes (place_set_progress); while
 * unset, it is dropped. */
#pragma once

#include <glib.h>

/* Gets LEN bytes of TEXT, whole lines but for a target's output as it
 * comes; DATA as given to place_set_progress(). */
typedef void (*PlaceProgressFn)(const char *text, gsize len, gpointer data);

/* Sends what the places say to FN (NULL: nowhere). */
void place_set_progress(PlaceProgressFn fn, gpointer data);
/* Says one line: "ipclab: " FORMAT "\n". */
void place_say(const char *format, ...) G_GNUC_PRINTF(1, 2);
/* Passes on LEN bytes of TEXT as they are (a target's output, already
 * made safe for a terminal). */
void place_forward(const char *text, gsize len);
