/* group.h: reading one [figure], [table] or [number] group of an
 * experiment file: its keys' values, cleaned of comments, and every
 * mistake reported through the caller's callback, so that experiment.c
 * gives them as FILE:LINE: [group] key: message with the file's others. */
#pragma once

#include <glib.h>
#include <stdarg.h>
#include <stdbool.h>

#include "samples.h"

/* Receives one mistake in KEY (NULL: the group itself) of GROUP. */
typedef void (*GroupReport)(void *ctx, const char *group, const char *key, const char *msg);

typedef struct {
        GKeyFile *kf;
        const char *group;
        GroupReport report;
        void *ctx;
        bool ok;            /* no mistake yet */
        guint mistakes;     /* how many */
} GroupParse;

/* Reports a mistake in KEY of P's group. */
void group_vbad(GroupParse *p, const char *key, const char *fmt, va_list ap) G_GNUC_PRINTF(3, 0);
void group_bad(GroupParse *p, const char *key, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

/* KEY's value, cleaned of a trailing comment, or NULL when absent; an
 * empty value is a mistake.  Newly allocated. */
char *group_get(GroupParse *p, const char *key);

/* KEY's value as a list (;), items stripped, empty ones left out; NULL
 * when absent.  Newly allocated. */
char **group_get_list(GroupParse *p, const char *key);

/* The published file NAME of DIR (a file name, no directory, of letters,
 * digits, '.', '_' and '-': make reads it), read by table_read(), every
 * field UTF-8 text without control characters and every number one a
 * table prints whole (under 1e50), or NULL after a mistake in key
 * published=. */
Table *group_read_published(GroupParse *p, const char *dir, const char *name);
