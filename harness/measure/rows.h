/* rows.h: what run.c (resume) and merge.c (a merge) share to hold every
 * row they keep to what this build writes. */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "experiment.h"
#include "samples.h"

/* The latencies of one repetition, as rows of latencies.tsv. */
typedef struct {
        guint64 n;      /* values */
        char *rows;
} LatRows;

/* A table of LatRows by key, the keys and values owned. */
GHashTable *rows_lat_new(void);
/* Adds N values, without their rows, under KEY (taken). */
void rows_lat_add_key(GHashTable *lat, char *key, guint64 n);
/* Adds N values with their ROWS (taken) under "CELL:REP". */
void rows_lat_add(GHashTable *lat, guint cell, guint rep, guint64 n, char *rows);

/* The header a resume file of EXP starts with (g_free). */
char *rows_partial_header(const Experiment *exp);

/* ROW (a line of samples.tsv or a resume file, without its newline),
 * measured in ENV on MACHINE, held to what --resume holds every row it
 * keeps to, and a merge every row of another place's results: what this
 * build writes for that cell of EXP and a repetition below its most
 * (samples_parse_row), a repetition not in DONE already, and, when it
 * measured latencies, all of them in LAT (LatRows by key; LAT_PATH names
 * it in messages; NULL: not checked).  The key is PREFIX then "cell:rep".
 * Returns the key (newly allocated; not added to DONE) and fills *S,
 * *CELL and *REP, or NULL with *WHY. */
char *rows_check(const Experiment *exp, const char *row, const char *env, const char *machine,
                 const char *prefix, GHashTable *done, GHashTable *lat, const char *lat_path, Sample *s,
                 const Cell **cell, guint *rep, char **why);

/* Whether NAME is one of EXP's environments. */
bool rows_exp_env(const Experiment *exp, const char *name);
