/* latency.c: latencies.tsv.gz written, read back and pooled (see latency.h). */
#include "latency.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "safefile.h"
#include "samples.h"

static const char *const kind_names[] = { "roundtrip", "oneway", NULL };

const char *latency_kind_name(LatencyKind kind)
{
        return kind_names[kind];
}

static int kind_find(const char *name)
{
        for (int i = 0; kind_names[i]; i++)
                if (!strcmp(kind_names[i], name))
                        return i;
        return -1;
}

static gboolean is_sorted(const guint64 *v, size_t n)
{
        for (size_t i = 1; i < n; i++)
                if (v[i] < v[i - 1])
                        return FALSE;
        return TRUE;
}

void latency_append_part(GString *out, const char *env, const char *machine, guint cell, guint rep, LatencyKind kind,
                         const guint64 *v, size_t n, gboolean raw)
{
        g_autofree char *prefix = g_strdup_printf("%s\t%s\t%u\t%u\t%s", env, machine, cell, rep, latency_kind_name(kind));

        if (!raw) {
                g_autofree Hist *h = g_new(Hist, 1);
                hist_init(h);
                hist_record_all(h, v, n);
                hist_append_tsv(out, prefix, h);
                return;
        }
        g_autofree guint64 *copy = NULL;
        if (!is_sorted(v, n)) {
                copy = g_memdup2(v, n * sizeof *v);
                hist_sort_values(copy, n);
                v = copy;
        }
        for (size_t i = 0; i < n;) {
                size_t j = i + 1;
                while (j < n && v[j] == v[i])
                        j++;
                g_string_append_printf(out, "%s\t%" PRIu64 "\t%" PRIu64 "\t%zu\n", prefix, v[i], v[i], j - i);
                i = j;
        }
}

static void part_free(LatencyPart *p)
{
        g_free(p->env);
        g_free(p->machine);
        g_array_unref(p->buckets);
        g_free(p);
}

void latency_part_add_to(const LatencyPart *p, Hist *h)
{
        if (!p->n)
                return;
        for (guint i = 0; i < p->buckets->len; i++) {
                const LatencyBucket *b = &g_array_index(p->buckets, LatencyBucket, i);
                h->count[b->index] += b->count;
        }
        h->min = h->n ? MIN(h->min, p->min) : p->min;
        h->max = MAX(h->max, p->max);
        h->n += p->n;
}

void latency_file_free(LatencyFile *f)
{
        if (!f)
                return;
        g_free(f->path);
        if (f->parts)
                g_ptr_array_unref(f->parts);
        g_free(f);
}

/* A whole number in [0, MAX] with nothing after it. */
static gboolean parse_u64(const char *s, guint64 max, guint64 *v)
{
        return g_ascii_isdigit(s[0]) && g_ascii_string_to_unsigned(s, 10, 0, max, v, NULL);
}

static gboolean parse_fail(GError **error, const char *path, guint line, const char *fmt, ...)
        G_GNUC_PRINTF(4, 5);

static gboolean parse_fail(GError **error, const char *path, guint line, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        g_autofree char *msg = g_strdup_vprintf(fmt, ap);
        va_end(ap);
        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s:%u: %s", path, line, msg);
        return FALSE;
}

/* Adds COUNT values of bucket INDEX (bounds LO, HI) to PART. */
static void part_add(LatencyPart *part, guint index, guint64 lo, guint64 hi, guint64 count)
{
        GArray *b = part->buckets;

        if (b->len && g_array_index(b, LatencyBucket, b->len - 1).index == index) {
                g_array_index(b, LatencyBucket, b->len - 1).count += count;
        } else {
                LatencyBucket nb = { index, count };
                g_array_append_val(b, nb);
        }
        part->min = part->n ? MIN(part->min, lo) : lo;
        part->max = MAX(part->max, hi);
        part->n += count;
}

/* Adds row F (8 fields) to PART: an exact value (LOWER = UPPER) or one of
 * hist.h's buckets. */
static gboolean part_add_row(LatencyPart *part, char **f, const char *path, guint line, GError **error)
{
        guint64 lo, hi, count, blo, bhi;

        if (!parse_u64(f[5], G_MAXUINT64, &lo) || !parse_u64(f[6], G_MAXUINT64, &hi))
                return parse_fail(error, path, line, "lower_ns '%s' and upper_ns '%s' must be whole numbers",
                                  f[5], f[6]);
        if (!parse_u64(f[7], G_MAXUINT64, &count) || count == 0)
                return parse_fail(error, path, line, "count '%s' is not a whole number above 0", f[7]);
        if (part->n + count < part->n)
                return parse_fail(error, path, line, "the counts overflow");
        if (lo == hi && lo > HIST_MAX_NS)
                return parse_fail(error, path, line, "value %" PRIu64 " ns is beyond the histograms' range (%" PRIu64 " ns)",
                                  lo, (guint64) HIST_MAX_NS);
        guint index = hist_index(lo);
        hist_bucket_bounds(index, &blo, &bhi);
        if (lo == hi) {
                /* An exact value: min and max stay exact. */
                part_add(part, index, lo, lo, count);
                return TRUE;
        }
        if (lo > HIST_MAX_NS || blo != lo || bhi != hi)
                return parse_fail(error, path, line, "[%s, %s] is not a histogram bucket (hist.h: the bucket of %s ns "
                                  "is another)", f[5], f[6], f[5]);
        /* The exact extremes are not in the file: the bucket bounds are. */
        part_add(part, index, lo, hi, count);
        return TRUE;
}

/* latency_parse() one line at a time. */
typedef struct {
        const char *path;
        LatencyFile *f;
        GHashTable *seen;          /* "env\tmachine\tcell\trep\tkind" -> first line */
        LatencyPart *part;
        char *part_key;
        guint line;                /* lines read, the header included */
        gsize offset;              /* bytes read */
} Parser;

static void parser_init(Parser *ps, const char *path)
{
        memset(ps, 0, sizeof *ps);
        ps->path = path;
        ps->f = g_new0(LatencyFile, 1);
        ps->f->path = g_strdup(path);
        ps->f->parts = g_ptr_array_new_with_free_func((GDestroyNotify) part_free);
        ps->seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
}

/* The file parsed, or NULL (after an error); PS is cleared either way. */
static LatencyFile *parser_end(Parser *ps, gboolean ok)
{
        g_hash_table_unref(ps->seen);
        g_free(ps->part_key);
        if (!ok) {
                latency_file_free(ps->f);
                return NULL;
        }
        return ps->f;
}

/* One line ROW (LEN bytes, not NUL-terminated, its newline not counted)
 * of the text. */
static gboolean parser_line(Parser *ps, const char *row, gsize len, GError **error)
{
        const size_t hlen = strlen(LATENCY_HEADER) - 1;
        gsize at = ps->offset;

        ps->line++;
        ps->offset += len + 1;
        if (ps->line == 1) {
                if (len != hlen || memcmp(row, LATENCY_HEADER, hlen) != 0) {
                        g_autofree char *first = g_strndup(row, MIN(len, (gsize) 200));
                        return parse_fail(error, ps->path, 1, "the header is '%s', not '%.*s'", first, (int) hlen,
                                          LATENCY_HEADER);
                }
                return TRUE;
        }
        if (memchr(row, '\0', len))
                return parse_fail(error, ps->path, ps->line, "a NUL byte in the row");
        g_autofree char *text = g_strndup(row, len);
        g_auto(GStrv) fields = g_strsplit(text, "\t", -1);
        if (g_strv_length(fields) != 8)
                return parse_fail(error, ps->path, ps->line, "%u fields, not 8 (%s)", g_strv_length(fields),
                                  "env machine cell rep kind lower_ns upper_ns count");
        guint64 cell, rep;
        int kind = kind_find(fields[4]);
        if (!fields[0][0] || !fields[1][0] || !parse_u64(fields[2], G_MAXUINT, &cell) ||
            !parse_u64(fields[3], G_MAXUINT, &rep) || kind < 0)
                return parse_fail(error, ps->path, ps->line, "'%.64s %.64s %.32s %.32s %.32s' is not env, machine, "
                                  "cell, repetition and kind (roundtrip or oneway)", fields[0], fields[1], fields[2],
                                  fields[3], fields[4]);
        g_autofree char *key = g_strdup_printf("%s\t%s\t%s\t%s\t%s", fields[0], fields[1], fields[2], fields[3],
                                               fields[4]);
        if (!ps->part_key || strcmp(key, ps->part_key) != 0) {
                gpointer first = g_hash_table_lookup(ps->seen, key);
                if (first)
                        return parse_fail(error, ps->path, ps->line, "the rows of env %.64s machine %.64s cell %s "
                                          "repetition %s %s are not contiguous (they began at line %u)", fields[0],
                                          fields[1], fields[2], fields[3], fields[4], GPOINTER_TO_UINT(first));
                if (ps->f->parts->len >= LATENCY_MAX_PARTS)
                        return parse_fail(error, ps->path, ps->line, "more than %u repetitions' latencies",
                                          LATENCY_MAX_PARTS);
                LatencyPart *part = g_new0(LatencyPart, 1);
                /* Parts of one environment and machine share its names. */
                const LatencyPart *prev = ps->part;
                part->env = prev && !strcmp(prev->env, fields[0]) ? g_strdup(prev->env) : g_strdup(fields[0]);
                part->machine = g_strdup(fields[1]);
                part->cell = (guint) cell;
                part->rep = (guint) rep;
                part->kind = (LatencyKind) kind;
                part->buckets = g_array_new(FALSE, FALSE, sizeof(LatencyBucket));
                part->line = ps->line;
                part->offset = at;
                g_ptr_array_add(ps->f->parts, part);
                g_hash_table_insert(ps->seen, g_strdup(key), GUINT_TO_POINTER(ps->line));
                g_free(ps->part_key);
                ps->part_key = g_steal_pointer(&key);
                ps->part = part;
        }
        if (!part_add_row(ps->part, fields, ps->path, ps->line, error))
                return FALSE;
        ps->part->length = ps->offset - ps->part->offset;
        return TRUE;
}

LatencyFile *latency_parse(const char *path, const char *text, gsize len, GError **error)
{
        Parser ps;
        gboolean ok = TRUE;
        const char *end = text + len;

        parser_init(&ps, path);
        for (const char *p = text; ok && p < end;) {
                const char *nl = memchr(p, '\n', (gsize) (end - p));
                if (!nl) {
                        ok = parse_fail(error, path, ps.line + 1, "the last line has no newline (cut short?)");
                        break;
                }
                ok = parser_line(&ps, p, (gsize) (nl - p), error);
                p = nl + 1;
        }
        if (ok && ps.line == 0)
                ok = parse_fail(error, path, 1, "the header is '', not '%.*s'", (int) strlen(LATENCY_HEADER) - 1,
                                LATENCY_HEADER);
        return parser_end(&ps, ok);
}

/* Called with each piece of the inflated text, in order; FALSE stops. */
typedef gboolean (*InflateSink)(const char *data, gsize len, gpointer user, GError **error);

/* Inflates the gzip file PATH (safefile_open: a regular file in its
 * tree, at most SAFEFILE_MAX_LATENCY) piece by piece into SINK, at most
 * LATENCY_MAX_TEXT bytes in all. */
static gboolean inflate_file(const char *path, InflateSink sink, gpointer user, GError **error)
{
        guint64 gz_len = 0;
        int fd = safefile_open(path, "a latencies.tsv.gz", SAFEFILE_MAX_LATENCY, &gz_len, error);
        if (fd < 0)
                return FALSE;
        z_stream z = { 0 };
        if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
                close(fd);
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: zlib cannot start", path);
                return FALSE;
        }
        guint8 in[65536], chunk[65536];
        gsize total = 0, read_total = 0;
        int r = Z_OK;
        gboolean ok = TRUE, eof = FALSE;
        while (ok && r != Z_STREAM_END) {
                if (z.avail_in == 0 && !eof) {
                        gssize n = read(fd, in, sizeof in);
                        if (n < 0 && errno == EINTR)
                                continue;
                        if (n < 0) {
                                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: cannot read: %s", path,
                                            g_strerror(errno));
                                ok = FALSE;
                                break;
                        }
                        read_total += (gsize) n;
                        if (read_total > SAFEFILE_MAX_LATENCY) {
                                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: grew while it was read", path);
                                ok = FALSE;
                                break;
                        }
                        eof = n == 0;
                        z.next_in = in;
                        z.avail_in = (uInt) n;
                }
                z.next_out = chunk;
                z.avail_out = sizeof chunk;
                r = inflate(&z, Z_NO_FLUSH);
                if (r == Z_DATA_ERROR || r == Z_NEED_DICT || r == Z_MEM_ERROR || r == Z_STREAM_ERROR) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: not a valid gzip file (%s)", path,
                                    z.msg ? z.msg : "corrupt data");
                        ok = FALSE;
                        break;
                }
                gsize got = sizeof chunk - z.avail_out;
                total += got;
                if (total > LATENCY_MAX_TEXT) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: inflates to more than %zu MiB",
                                    path, (size_t) (LATENCY_MAX_TEXT >> 20));
                        ok = FALSE;
                        break;
                }
                if (got && !sink((const char *) chunk, got, user, error)) {
                        ok = FALSE;
                        break;
                }
                if (r == Z_BUF_ERROR && eof && z.avail_in == 0) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "%s: the gzip data ends too early (truncated after %" G_GUINT64_FORMAT " bytes)",
                                    path, gz_len);
                        ok = FALSE;
                        break;
                }
        }
        if (ok) {
                /* Nothing may follow the gzip data. */
                gsize trailing = z.avail_in;
                for (;;) {
                        gssize n = read(fd, in, sizeof in);
                        if (n < 0 && errno == EINTR)
                                continue;
                        if (n <= 0)
                                break;
                        trailing += (gsize) n;
                        if (trailing > SAFEFILE_MAX_LATENCY)
                                break;
                }
                if (trailing) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "%s: %zu bytes of something else after the gzip data", path, (size_t) trailing);
                        ok = FALSE;
                }
        }
        inflateEnd(&z);
        close(fd);
        return ok;
}

static gboolean sink_text(const char *data, gsize len, gpointer user, GError **error)
{
        (void) error;
        g_byte_array_append(user, (const guint8 *) data, (guint) len);
        return TRUE;
}

char *latency_read_text(const char *path, gsize *len, GError **error)
{
        g_autoptr(GByteArray) out = g_byte_array_new();

        if (!inflate_file(path, sink_text, out, error))
                return NULL;
        *len = out->len;
        g_byte_array_append(out, (const guint8 *) "", 1);
        return (char *) g_byte_array_free(g_steal_pointer(&out), FALSE);
}

/* latency_read(): lines to the parser as they inflate. */
typedef struct {
        Parser ps;
        GString *pending;    /* a line not yet ended */
} LineSink;

static gboolean sink_lines(const char *data, gsize len, gpointer user, GError **error)
{
        LineSink *ls = user;
        const char *end = data + len;

        for (const char *p = data; p < end;) {
                const char *nl = memchr(p, '\n', (gsize) (end - p));
                if (!nl) {
                        if (ls->pending->len + (gsize) (end - p) > SAFEFILE_MAX_LINE)
                                return parse_fail(error, ls->ps.path, ls->ps.line + 1, "a line longer than %zu bytes",
                                                  (size_t) SAFEFILE_MAX_LINE);
                        g_string_append_len(ls->pending, p, end - p);
                        break;
                }
                gboolean ok;
                if (ls->pending->len) {
                        g_string_append_len(ls->pending, p, nl - p);
                        ok = parser_line(&ls->ps, ls->pending->str, ls->pending->len, error);
                        g_string_truncate(ls->pending, 0);
                } else {
                        ok = parser_line(&ls->ps, p, (gsize) (nl - p), error);
                }
                if (!ok)
                        return FALSE;
                p = nl + 1;
        }
        return TRUE;
}

LatencyFile *latency_read(const char *path, GError **error)
{
        LineSink ls = { .pending = g_string_new(NULL) };

        parser_init(&ls.ps, path);
        gboolean ok = inflate_file(path, sink_lines, &ls, error);
        if (ok && ls.pending->len)
                ok = parse_fail(error, path, ls.ps.line + 1, "the last line has no newline (cut short?)");
        if (ok && ls.ps.line == 0)
                ok = parse_fail(error, path, 1, "the header is '', not '%.*s'", (int) strlen(LATENCY_HEADER) - 1,
                                LATENCY_HEADER);
        g_string_free(ls.pending, TRUE);
        return parser_end(&ls.ps, ok);
}

int latency_write(const char *path, const char *text, gsize len)
{
        z_stream z = { 0 };

        if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
                return -ENOMEM;
        g_autoptr(GByteArray) out = g_byte_array_new();
        z.next_in = (Bytef *) text;
        z.avail_in = (uInt) len;
        if ((gsize) z.avail_in != len) {
                deflateEnd(&z);
                return -EFBIG;
        }
        int r;
        do {
                guint8 chunk[65536];
                z.next_out = chunk;
                z.avail_out = sizeof chunk;
                r = deflate(&z, Z_FINISH);
                g_byte_array_append(out, chunk, (guint) (sizeof chunk - z.avail_out));
        } while (r == Z_OK || r == Z_BUF_ERROR);
        deflateEnd(&z);
        if (r != Z_STREAM_END)
                return -EIO;
        return samples_write_atomic(path, (const char *) out->data, out->len);
}

Hist *latency_pool(const LatencyFile *f, const char *env, const char *machine, const guint *cells, guint n_cells,
                   const char *kind)
{
        Hist *h = NULL;
        int k = kind_find(kind);

        for (guint i = 0; k >= 0 && i < f->parts->len; i++) {
                const LatencyPart *p = f->parts->pdata[i];
                bool in = false;
                for (guint c = 0; c < n_cells && !in; c++)
                        in = cells[c] == p->cell;
                if (!in || (int) p->kind != k || (env && strcmp(env, p->env) != 0) ||
                    (machine && strcmp(machine, p->machine) != 0))
                        continue;
                if (!h) {
                        h = g_new(Hist, 1);
                        hist_init(h);
                }
                latency_part_add_to(p, h);
        }
        return h;
}

gboolean latency_check_measured(const LatencyFile *f, const Table *t, const char *samples_path, GError **error)
{
        int status = table_column(t, "status"), cell = table_column(t, "cell"), rep = table_column(t, "rep"),
            env = table_column(t, "env"), machine = table_column(t, "machine");
        g_autoptr(GHashTable) reps = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

        if (status < 0 || cell < 0 || rep < 0 || env < 0 || machine < 0) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                            "%s: not a samples.tsv (no cell, rep, env, machine or status column)", samples_path);
                return FALSE;
        }
        for (guint r = 0; r < t->rows->len; r++) {
                char **row = t->rows->pdata[r];
                if (!strcmp(row[status], "ok"))
                        g_hash_table_add(reps, g_strdup_printf("%s\t%s\t%s\t%s", row[env], row[machine], row[cell],
                                                              row[rep]));
        }
        for (guint i = 0; i < f->parts->len; i++) {
                const LatencyPart *p = f->parts->pdata[i];
                g_autofree char *key = g_strdup_printf("%s\t%s\t%u\t%u", p->env, p->machine, p->cell, p->rep);
                if (!g_hash_table_contains(reps, key)) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "%s:%u: env %s machine %s cell %u repetition %u is not a measured repetition "
                                    "of %s", f->path, p->line, p->env, p->machine, p->cell, p->rep, samples_path);
                        return FALSE;
                }
        }
        return TRUE;
}
