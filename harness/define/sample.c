/* sample.c: a Sample before anything is measured (sample.h). */
#include "sample.h"

#include <string.h>

#include "columns.h"

void sample_init(Sample *s)
{
        /* placement 0 is PLACEMENT_UNKNOWN (placement-modes.c asserts it). */
        memset(s, 0, sizeof *s);
        for (const Column *c = column_table; c->name; c++)
                if ((c->flags & COLUMN_OPTIONAL) && c->sample)
                        *(guint64 *) ((char *) s + c->sample) = SAMPLE_NONE;
}
