/* sample.c: a Sample before anything is measured (sample.h). */
#include "sample.h"

#include <string.h>

void sample_init(Sample *s)
{
        /* placement 0 is PLACEMENT_UNKNOWN (placement.c asserts it). */
        memset(s, 0, sizeof *s);
        s->fixed_ns = s->client_on_cpu = s->server_on_cpu = s->bus_on_cpu = s->migrations = SAMPLE_NONE;
}
