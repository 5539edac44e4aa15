/* placement-modes.h: the names of a repetition's placement (the
 * samples.tsv column "placement") and what the repetitions of a cell say
 * about it, counted by mode.  What the modes mean, and how a repetition's
 * is observed, is measure/placement.h's; this is the naming and counting
 * that reading samples back (store, analyse) needs without it.
 */
#pragma once

#include <glib.h>
#include <stdbool.h>

typedef enum {
        PLACEMENT_UNKNOWN,   /* "-" */
        PLACEMENT_SAME,
        PLACEMENT_SPLIT,
        PLACEMENT_MOVED,
        PLACEMENT_OTHER,
        PLACEMENT_N_MODES
} PlacementMode;

/* "-", "same", "split", "moved", "other". */
const char *placement_mode_name(PlacementMode mode);
/* The mode NAME names (placement_mode_name), or -1. */
int placement_mode_from_name(const char *name);

/* The placements of a cell's repetitions, counted by mode. */
typedef struct {
        guint n[PLACEMENT_N_MODES];
} PlacementCount;

/* Adds a repetition whose placement column reads NAME ("-" or a mode;
 * anything else counts as unknown). */
void placement_count_add(PlacementCount *c, const char *name);
/* The cell's placement: the one mode all its observed repetitions share
 * ("same", "split", "moved", "other"), "-" when none was observed, or
 * "mixed" when they differ (unobserved repetitions aside). */
const char *placement_count_mode(const PlacementCount *c);
/* True when the observed repetitions fall into more than one mode. */
bool placement_count_mixed(const PlacementCount *c);
/* Each observed mode with its repetitions, "same:3,split:4" (the modes in
 * placement_mode_name order), or "-" when none was observed.  Newly
 * allocated. */
char *placement_count_describe(const PlacementCount *c);
