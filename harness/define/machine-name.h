/* machine-name.h: what may name a machine (the machine axis: samples.tsv's
 * machine column, meta.ini's [machine NAME] groups, a target's results).
 * The name a machine gives itself is measure's (meta_machine_name(),
 * meta.h); reading data back (store) holds names to this without it.
 */
#pragma once

#include <glib.h>

/* Whether NAME is a machine name meta_machine_name() could have given:
 * 1 to 64 letters, digits, '-', '_' and '.', and not "-" (which marks a
 * missing value in samples.tsv).  What a target's results, samples.tsv
 * and meta.ini are held to. */
gboolean machine_name_valid(const char *name);
