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
 * Readable without ipclab: `zcat latencies.tsv.gz`, or `ipclab latency`
 * (cli/cmd-latency.c) for the pooled percentiles.  Pure code apart from
 * latency_write(), latency_read_text() and latency_read().  Never prints.
 */
#pragma once

#include <glib.h>

#include "hist.h"
#include "samples.h"

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

/* One bucket of a part read back: hist.h's bucket INDEX, its COUNT. */
typedef struct {
        guint index;
        guint64 count;
} LatencyBucket;

/* One (env, cell, rep, kind) read back: its rows' buckets only (a few
 * bytes a row, not a whole Hist a part, so that memory goes with the
 * file's size whatever its shape); latency_part_add_to() makes it a
 * histogram. */
typedef struct {
        char *env;
        char *machine;
        guint cell, rep;
        LatencyKind kind;
        guint64 n;                /* values */
        guint64 min, max;         /* exact rows keep them exact; else bucket bounds */
        GArray *buckets;          /* LatencyBucket, in the file's order */
        guint line;               /* its first row's line in the file */
        gsize offset, length;     /* its rows' bytes in the text parsed */
} LatencyPart;

/* Adds P's values to H (hist_merge of P's histogram). */
void latency_part_add_to(const LatencyPart *p, Hist *h);

typedef struct {
        char *path;
        GPtrArray *parts;         /* LatencyPart *, in file order */
} LatencyFile;

void latency_file_free(LatencyFile *f);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(LatencyFile, latency_file_free)

/* The most a latencies.tsv.gz may inflate to (and a resume file of
 * latencies hold): 512 MiB, twenty times the largest real one and what
 * the most repetitions a run may keep (experiment.c: 10000 histograms of
 * up to 40 KiB) write; and the most parts (repetitions and kinds) a file
 * may have: 2^20. */
#define LATENCY_MAX_TEXT ((gsize) 512 << 20)
#define LATENCY_MAX_PARTS ((guint) 1 << 20)

/* Parses TEXT (LEN bytes of uncompressed TSV, header first), named PATH
 * in messages.  NULL with IPCLAB_ERROR_INPUT "PATH:LINE: ..." on a bad
 * header, a malformed row, a bucket that is not one of hist.h's, rows
 * of one repetition that are not contiguous, or more than
 * LATENCY_MAX_PARTS parts. */
LatencyFile *latency_parse(const char *path, const char *text, gsize len, GError **error);

/* The uncompressed text of the gzip file PATH (*LEN bytes, NUL-terminated),
 * opened by safefile_open() (a regular file of at most
 * SAFEFILE_MAX_LATENCY) and inflated to at most LATENCY_MAX_TEXT.  NULL
 * with IPCLAB_ERROR_INPUT naming PATH when it cannot be read, is not gzip,
 * is corrupt (bad data, bad checksum), truncated or too large. */
char *latency_read_text(const char *path, gsize *len, GError **error);

/* The gzip file PATH read as latency_read_text() reads it and parsed as
 * latency_parse() parses, line by line as it inflates: the text is never
 * held whole. */
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

/* Whether every part of F is a repetition the samples T (samples.tsv at
 * SAMPLES_PATH) hold, measured (status ok): its env, machine, cell and
 * repetition.  FALSE with IPCLAB_ERROR_INPUT naming F's path and the
 * part's line otherwise, or naming SAMPLES_PATH when T lacks one of
 * those columns or status. */
gboolean latency_check_measured(const LatencyFile *f, const Table *t, const char *samples_path, GError **error);
