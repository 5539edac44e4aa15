/* suggest.h: "did you mean" for every name an experiment file or a
 * command line gives: the one edit distance, and the closest of the
 * names a place knows.
 *
 * A Suggest is fed the known names one at a time (whatever table they
 * come from) and keeps the closest to the word given; it is close enough
 * to be suggested when at most about a third of the word's letters must
 * change (one edit in a word of up to three letters), and fewer than the
 * whole word.
 */
#pragma once

#include <glib.h>
#include <stdbool.h>

/* The optimal-string-alignment distance between A and B: the fewest
 * insertions, deletions, substitutions and swaps of two neighbouring
 * bytes ("repaet" -> "repeat" is 1) that make one the other. */
guint suggest_distance(const char *a, const char *b);

typedef struct {
        const char *word;     /* what was given */
        const char *best;     /* the closest name so far (borrowed), or NULL */
        guint distance;
} Suggest;

/* Starts looking for what WORD (borrowed) may have meant. */
void suggest_init(Suggest *s, const char *word);

/* Considers NAME (borrowed: it must outlive S's use). */
void suggest_consider(Suggest *s, const char *name);

/* Considers every name of NAMES (NULL-ended). */
void suggest_consider_all(Suggest *s, const char *const *names);

/* The closest name, when close enough, else NULL. */
const char *suggest_best(const Suggest *s);

/* "; did you mean 'NAME'?" for a message, or "" when no name is close
 * enough.  Newly allocated. */
char *suggest_hint(const Suggest *s);

/* The same for WORD among NAMES (NULL-ended) at once. */
char *suggest_hint_among(const char *word, const char *const *names);
