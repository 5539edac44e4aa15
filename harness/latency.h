/* latency.h: every message's latency, kept: DIR/latencies.tsv.gz.
 *
 * Beside samples.tsv, written whole and atomically like it: the gzip of a
 * TSV whose header line is LATENCY_HEADER,
 *
 *     env  machine  cell  rep  kind  lower_ns  upper_ns  count
 *
 * one row per non-empty histogram bucket (hist.h: LOWER and UPPER are the
 * bucket's exact inclusive bounds) of repetition REP of cell CELL (its
 * index in samples.tsv) measured in ENV.  KIND is `roundtrip` (round-trip
 * latency; a hyperfine run's duration) or `oneway` (a one-way message's
 * transit: receipt minus the send time stamped into it).  With
 * store_latencies=raw every value is a row of its own, LOWER = UPPER = the
 * value, equal values one row with their count.  A row with LOWER = UPPER
 * is always an exact value; any other must be one of hist.h's buckets.
 * The rows of one (env, cell, rep, kind) are contiguous.
 *
 * Readable without ipclab: `zcat latencies.tsv.gz`.  Pure code apart from
 * latency_write(), latency_read_text() and latency_command().
 */
#pragma once

#include <glib.h>

#include "hist.h"

#define LATENCY_FILE "latencies.tsv.gz"
#define LATENCY_HEADER "env\tmachine\tcell\trep\tkind\tlower_ns\tupper_ns\tcount\n"

typedef enum {
        LATENCY_ROUNDTRIP,
        LATENCY_ONEWAY,
} LatencyKind;

/* "roundtrip", "oneway". */
const char *latency_kind_name(LatencyKind kind);

/* Appends the rows of one repetition to OUT: the N values of V as a
 * histogram, or with RAW each distinct value as a row with its count. */
void latency_append_part(GString *out, const char *env, const char *machine, guint cell, guint rep, LatencyKind kind,
                         const guint64 *v, size_t n, gboolean raw);

/* One (env, cell, rep, kind) read back. */
typedef struct {
        char *env;
        char *machine;
        guint cell, rep;
        LatencyKind kind;
        Hist *hist;               /* its values; exact rows keep min and max exact */
        guint line;               /* its first row's line in the file */
        gsize offset, length;     /* its rows' bytes in the text parsed */
} LatencyPart;

typedef struct {
        char *path;
        GPtrArray *parts;         /* LatencyPart *, in file order */
} LatencyFile;

void latency_file_free(LatencyFile *f);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(LatencyFile, latency_file_free)

/* Parses TEXT (LEN bytes of uncompressed TSV, header first), named PATH
 * in messages.  NULL with IPCLAB_ERROR_INPUT "PATH:LINE: ..." on a bad
 * header, a malformed row, a bucket that is not one of hist.h's, or rows
 * of one repetition that are not contiguous. */
LatencyFile *latency_parse(const char *path, const char *text, gsize len, GError **error);

/* The uncompressed text of the gzip file PATH (*LEN bytes, NUL-terminated).
 * NULL with IPCLAB_ERROR_INPUT naming PATH when it cannot be read, is not
 * gzip, is corrupt (bad data, bad checksum) or truncated. */
char *latency_read_text(const char *path, gsize *len, GError **error);

/* latency_read_text() then latency_parse(). */
LatencyFile *latency_read(const char *path, GError **error);

/* Writes the gzip of LEN bytes of TEXT to PATH atomically
 * (samples_write_atomic).  Returns 0 or -errno. */
int latency_write(const char *path, const char *text, gsize len);

/* The histogram of every value of F's parts measured in ENV on MACHINE
 * (each NULL: any)
 * for one of the N_CELLS cells CELLS, of kind KIND ("roundtrip",
 * "oneway"), all repetitions merged: pooled exactly.  A new Hist (g_free)
 * or NULL when no part matches. */
Hist *latency_pool(const LatencyFile *f, const char *env, const char *machine, const guint *cells, guint n_cells,
                   const char *kind);

/* `ipclab latency DIR [--cell SELECTOR] [--spectrum]`: prints, for every
 * cell of DIR/samples.tsv that SELECTOR (select.h's
 * syntax) selects and kind it measured, the axis columns, kind, percentile
 * and latency_ns of the pooled histogram: at 0 10 20 30 40 50 90 99 99.9
 * 99.99 99.999 100, or with --spectrum at 100 (1 - 10^(-k/10)), k = 0, 1,
 * ..., then 100; only the percentiles the values pooled support (at
 * least STATS_TAIL_MIN of them beyond it: 99.9 needs 10000; 0 and 100,
 * the minimum and maximum, always).  Prints
 * errors; returns the exit status (0, or 2 on bad usage or input). */
int latency_command(int argc, char **argv);
