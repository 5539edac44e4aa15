/* sample.h: what one repetition of one cell measured, as the runner
 * fills it (runner.h) and a row of samples.tsv holds it (samples.h).
 *
 * Every number here but failed_ns and placement is one measured column:
 * its row in columns.c names the field (FIELD), which is how samples.tsv
 * writes and reads it.  A number without a row, or a measured row
 * without a number, fails test-columns. */
#pragma once

#include <glib.h>

typedef struct {
        int status;               /* 0: measured; < 0: the cell failed (-errno) */
        char why[256];            /* the reason when status < 0 */
        guint64 failed_ns;        /* CLOCK_MONOTONIC time of that failure */
        guint64 elapsed_ns;       /* the timed window, CLOCK_MONOTONIC (see runner.c) */
        /* CPU time of each side over the timed window, in ns, from the
         * kernel's per-process CPU clocks (per-thread with roles=threads;
         * exact, not tick-sampled): no user/system split, which the
         * kernel only samples at ticks. */
        guint64 client_cpu_ns;
        guint64 server_cpu_ns;    /* 0 for in-process transports: counted in the client's */
        guint64 bus_cpu_ns;       /* the bus daemon's CPU time, 0 without one */
        guint64 messages;         /* timed messages delivered (warm-up excluded) */
        guint64 bytes;            /* timed payload bytes delivered */
        guint64 lat_n;            /* latencies recorded: round trips, or one-way
                                   * transit times (stamped payloads, runner.c) */
        guint64 lat_min_ns, lat_p50_ns, lat_p90_ns, lat_p99_ns, lat_p999_ns, lat_max_ns;
        /* The numbers below but placement are SAMPLE_NONE where they were
         * not measured (their rows are COLUMN_OPTIONAL: sample_init() sets
         * them so); samples.tsv has "-" there. */
        guint64 fixed_ns;         /* a window of one message, timed like the main
                                   * one just before it (runner.c) */
        guint64 placement;        /* a PlacementMode (placement.h) */
        guint64 client_on_cpu;    /* the CPU each side ran on at the end of the */
        guint64 server_on_cpu;    /* window (its busiest thread's) */
        guint64 bus_on_cpu;
        guint64 migrations;       /* migrations of every thread in the window */
} Sample;

#define SAMPLE_NONE G_MAXUINT64

/* Zeroes S, with SAMPLE_NONE in the numbers that may be missing. */
void sample_init(Sample *s);
