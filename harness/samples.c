/* samples.c: raw sample files, written atomically (see samples.h). */
#include "samples.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "transport.h"

const char *const samples_axis_columns[] = {
        "env", "machine", "transport", "bus", "payload", "size_B", "pattern", "reply",
        "marshal", "cpus", "count", "duration_ns", NULL
};

/* Where "status" is in a row; the measured fields follow it, "why" last. */
#define SAMPLES_STATUS_FIELD 14

const char *samples_header(void)
{
        return "cell\trep\tenv\tmachine\ttransport\tbus\tpayload\tsize_B\tpattern\treply\tmarshal\tcpus"
               "\tcount\tduration_ns\tstatus\telapsed_ns\tclient_cpu_ns"
               "\tserver_cpu_ns\tbus_cpu_ns\tmessages\tbytes_B\tlat_n"
               "\tlat_min_ns\tlat_p50_ns\tlat_p90_ns\tlat_p99_ns\tlat_p999_ns\tlat_max_ns\twhy\n";
}

static void append_u64(GString *out, guint64 v, bool present)
{
        if (present)
                g_string_append_printf(out, "\t%" PRIu64, v);
        else
                g_string_append(out, "\t-");
}

void samples_append_row(GString *out, const char *env, const char *machine, const Cell *cell,
                        guint rep, const Sample *s)
{
        bool ok = s->status == 0;
        bool lat = ok && s->lat_n > 0;
        const Transport *t = transport_find(cell->transport);
        /* An in-process transport has no server of its own to measure. */
        bool server = ok && !(t && (t->flags & TRANSPORT_INPROCESS));

        g_string_append_printf(out, "%u\t%u\t%s\t%s\t%s\t%s\t%s\t%" PRIu64 "\t%s\t%s\t%s\t%s",
                               cell->index, rep, env, machine, cell->transport,
                               cell->bus == BUS_NONE ? "-" : bus_name(cell->bus),
                               payload_name(cell->payload), cell->size,
                               pattern_name(cell->pattern),
                               cell->pattern == PATTERN_ONEWAY ? "-" : reply_name(cell->reply),
                               marshal_name(cell->marshal), cpus_name(cell->cpus));
        append_u64(out, cell->count, cell->count != 0);
        append_u64(out, cell->duration_ns, cell->duration_ns != 0);
        g_string_append(out, ok ? "\tok" : "\tfailed");
        append_u64(out, s->elapsed_ns, ok);
        append_u64(out, s->client_cpu_ns, ok);
        append_u64(out, s->server_cpu_ns, server);
        append_u64(out, s->bus_cpu_ns, ok && cell->bus != BUS_NONE && cell->bus != BUS_P2P);
        append_u64(out, s->messages, ok);
        append_u64(out, s->bytes, ok);
        append_u64(out, s->lat_n, ok && cell->pattern != PATTERN_ONEWAY);
        append_u64(out, s->lat_min_ns, lat);
        append_u64(out, s->lat_p50_ns, lat);
        append_u64(out, s->lat_p90_ns, lat);
        append_u64(out, s->lat_p99_ns, lat);
        append_u64(out, s->lat_p999_ns, lat);
        append_u64(out, s->lat_max_ns, lat);
        g_string_append_c(out, '\t');
        if (ok) {
                g_string_append_c(out, '-');
        } else {
                /* A reason is one field: no tabs or newlines in it. */
                for (const char *p = s->why; *p; p++)
                        g_string_append_c(out, (*p == '\t' || *p == '\n' || *p == '\r') ? ' ' : *p);
                if (!s->why[0])
                        g_string_append(out, "unknown");
        }
        g_string_append_c(out, '\n');
}

/* A field that holds a whole number, or "-" (then *PRESENT is false). */
static gboolean parse_field(const char *f, guint64 *v, gboolean *present)
{
        char *end;

        *present = strcmp(f, "-") != 0;
        *v = 0;
        if (!*present)
                return TRUE;
        if (!g_ascii_isdigit(f[0]))
                return FALSE;
        errno = 0;
        *v = g_ascii_strtoull(f, &end, 10);
        return errno == 0 && *end == '\0';
}

gboolean samples_parse_row(const char *row, const char *env, const char *machine, GPtrArray *cells,
                           guint max_rep, const Cell **cell, guint *rep, Sample *s, char **why)
{
        g_auto(GStrv) f = g_strsplit(row, "\t", -1);
        guint nf = 1;
        guint64 idx, r;
        gboolean present;

        for (const char *p = samples_header(); *p; p++)
                nf += *p == '\t';
        *why = NULL;
        memset(s, 0, sizeof *s);
        if (g_strv_length(f) != nf) {
                *why = g_strdup_printf("%u fields, not %u", g_strv_length(f), nf);
                return FALSE;
        }
        if (!parse_field(f[0], &idx, &present) || !present || idx >= cells->len) {
                *why = g_strdup_printf("cell '%s' is not a cell of this experiment (0 to %u)", f[0], cells->len - 1);
                return FALSE;
        }
        if (!parse_field(f[1], &r, &present) || !present || r >= max_rep) {
                *why = g_strdup_printf("repetition '%s' is not one of 0 to %u", f[1], max_rep - 1);
                return FALSE;
        }
        /* Cells are shuffled in the array: find the one with this index. */
        *cell = NULL;
        for (guint i = 0; i < cells->len && !*cell; i++)
                if (((const Cell *) cells->pdata[i])->index == idx)
                        *cell = cells->pdata[i];
        *rep = (guint) r;
        if (!strcmp(f[SAMPLES_STATUS_FIELD], "ok")) {
                guint64 *dst[] = { &s->elapsed_ns, &s->client_cpu_ns, &s->server_cpu_ns, &s->bus_cpu_ns,
                                   &s->messages, &s->bytes, &s->lat_n, &s->lat_min_ns, &s->lat_p50_ns,
                                   &s->lat_p90_ns, &s->lat_p99_ns, &s->lat_p999_ns, &s->lat_max_ns };
                for (guint i = 0; i < G_N_ELEMENTS(dst); i++) {
                        guint at = SAMPLES_STATUS_FIELD + 1 + i;
                        if (!parse_field(f[at], dst[i], &present)) {
                                g_auto(GStrv) names = g_strsplit(samples_header(), "\t", -1);
                                *why = g_strdup_printf("%s is '%s', not a whole number", names[at], f[at]);
                                return FALSE;
                        }
                }
                if (s->elapsed_ns == 0) {
                        *why = g_strdup("an ok repetition that took no time");
                        return FALSE;
                }
                if (s->lat_n && !(s->lat_min_ns <= s->lat_p50_ns && s->lat_p50_ns <= s->lat_p90_ns &&
                                  s->lat_p90_ns <= s->lat_p99_ns && s->lat_p99_ns <= s->lat_p999_ns &&
                                  s->lat_p999_ns <= s->lat_max_ns)) {
                        *why = g_strdup("latency percentiles out of order");
                        return FALSE;
                }
        } else if (!strcmp(f[SAMPLES_STATUS_FIELD], "failed")) {
                s->status = -EIO;
                g_strlcpy(s->why, f[SAMPLES_STATUS_FIELD + 14], sizeof s->why);
        } else {
                *why = g_strdup_printf("status '%s' is neither ok nor failed", f[SAMPLES_STATUS_FIELD]);
                return FALSE;
        }
        /* What this build writes for that cell and sample must be the row,
         * byte for byte: the axes, and "-" exactly where nothing applies. */
        g_autoptr(GString) again = g_string_new(NULL);
        samples_append_row(again, env, machine, *cell, *rep, s);
        g_string_truncate(again, again->len - 1);
        if (strcmp(again->str, row) != 0) {
                g_auto(GStrv) g = g_strsplit(again->str, "\t", -1);
                g_auto(GStrv) names = g_strsplit(samples_header(), "\t", -1);
                guint i = 0;
                while (f[i] && g[i] && !strcmp(f[i], g[i]))
                        i++;
                *why = g_strdup_printf("%s is '%s', where cell %u of this experiment has '%s'",
                                       g_strstrip(names[i]), f[i], (*cell)->index, g[i] ? g[i] : "");
                return FALSE;
        }
        return TRUE;
}

static int fsync_dir_of(const char *path)
{
        g_autofree char *dir = g_path_get_dirname(path);
        int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

        if (fd < 0)
                return -errno;
        int r = fsync(fd) < 0 ? -errno : 0;
        close(fd);
        return r;
}

int samples_write_atomic(const char *path, const char *data, size_t len)
{
        g_autofree char *tmp = g_strdup_printf("%s.tmp-XXXXXX", path);
        int fd = g_mkstemp_full(tmp, O_WRONLY | O_CLOEXEC, 0644);
        int r = 0;

        if (fd < 0)
                return -errno;
        while (len > 0) {
                ssize_t n = write(fd, data, len);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        r = -errno;
                        break;
                }
                data += n;
                len -= (size_t) n;
        }
        if (r == 0 && fsync(fd) < 0)
                r = -errno;
        if (close(fd) < 0 && r == 0)
                r = -errno;
        if (r == 0 && rename(tmp, path) < 0)
                r = -errno;
        if (r < 0) {
                unlink(tmp);
                return r;
        }
        return fsync_dir_of(path);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
        (void) st;
        (void) ftw;
        if ((flag == FTW_DP ? rmdir(path) : unlink(path)) < 0 && errno != ENOENT)
                return -errno;
        return 0;
}

int samples_remove_dir(const char *dir)
{
        struct stat st;

        if (lstat(dir, &st) < 0)
                return errno == ENOENT ? 0 : -errno;
        int r = nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        return r < 0 ? -errno : r;
}

int samples_replace_dir(const char *staging, const char *final)
{
        struct stat st;

        if (stat(final, &st) < 0) {
                if (errno != ENOENT)
                        return -errno;
                if (rename(staging, final) < 0)
                        return -errno;
                return fsync_dir_of(final);
        }
        if (renameat2(AT_FDCWD, staging, AT_FDCWD, final, RENAME_EXCHANGE) == 0) {
                int r = fsync_dir_of(final);
                /* STAGING now holds the old files. */
                samples_remove_dir(staging);
                return r;
        }
        if (errno != EINVAL && errno != ENOSYS)
                return -errno;
        /* No RENAME_EXCHANGE on this file system: move the old directory
         * aside, move the new one in, then drop the old one. */
        g_autofree char *old = g_strconcat(final, ".old", NULL);
        samples_remove_dir(old);
        if (rename(final, old) < 0)
                return -errno;
        if (rename(staging, final) < 0) {
                int err = errno;
                rename(old, final);
                return -err;
        }
        samples_remove_dir(old);
        return fsync_dir_of(final);
}

Table *table_read(const char *path, GError **error)
{
        g_autofree char *text = NULL;
        g_autoptr(GError) e = NULL;

        if (!g_file_get_contents(path, &text, NULL, &e)) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: %s", path, e->message);
                return NULL;
        }
        g_autoptr(Table) t = g_new0(Table, 1);
        t->rows = g_ptr_array_new_with_free_func((GDestroyNotify) g_strfreev);
        g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
        for (guint i = 0; lines[i]; i++) {
                if (lines[i][0] == '\0' || lines[i][0] == '#')
                        continue;
                char **fields = g_strsplit(lines[i], "\t", -1);
                if (!t->columns) {
                        t->columns = fields;
                        t->n_columns = g_strv_length(fields);
                        continue;
                }
                if (g_strv_length(fields) != t->n_columns) {
                        g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT,
                                    "%s: line %u has %u fields, the header has %u", path, i + 1,
                                    g_strv_length(fields), t->n_columns);
                        g_strfreev(fields);
                        return NULL;
                }
                g_ptr_array_add(t->rows, fields);
        }
        if (!t->columns) {
                g_set_error(error, IPCLAB_ERROR, IPCLAB_ERROR_INPUT, "%s: no header line", path);
                return NULL;
        }
        return g_steal_pointer(&t);
}

Table *samples_table_read(const char *path, GError **error)
{
        g_autoptr(Table) t = table_read(path, error);

        if (!t || table_column(t, "machine") >= 0)
                return g_steal_pointer(&t);
        /* Written before the machine column: one machine, the one its
         * meta.ini names, if it is there. */
        g_autofree char *dir = g_path_get_dirname(path);
        g_autofree char *meta_path = g_build_filename(dir, "meta.ini", NULL);
        g_autoptr(GKeyFile) meta = g_key_file_new();
        g_autofree char *host = NULL;
        if (g_key_file_load_from_file(meta, meta_path, G_KEY_FILE_NONE, NULL))
                host = g_key_file_get_string(meta, "machine", "hostname", NULL);
        if (host)
                host[strcspn(host, ".\t\n")] = '\0';
        const char *machine = host && *host ? host : "-";
        int env = table_column(t, "env");
        guint at = env >= 0 ? (guint) env + 1 : t->n_columns;
        GStrvBuilder *b = g_strv_builder_new();
        for (guint i = 0; i <= t->n_columns; i++) {
                if (i == at)
                        g_strv_builder_add(b, "machine");
                if (i < t->n_columns)
                        g_strv_builder_add(b, t->columns[i]);
        }
        g_strfreev(t->columns);
        t->columns = g_strv_builder_end(b);
        g_strv_builder_unref(b);
        for (guint r = 0; r < t->rows->len; r++) {
                char **old = t->rows->pdata[r];
                char **row = g_new0(char *, t->n_columns + 2);
                for (guint i = 0, j = 0; i <= t->n_columns; i++) {
                        if (i == at)
                                row[j++] = g_strdup(machine);
                        if (i < t->n_columns)
                                row[j++] = old[i];
                }
                g_free(old);
                t->rows->pdata[r] = row;
        }
        t->n_columns++;
        return g_steal_pointer(&t);
}

int table_column(const Table *t, const char *name)
{
        for (guint i = 0; i < t->n_columns; i++)
                if (!strcmp(t->columns[i], name))
                        return (int) i;
        return -1;
}

void table_free(Table *t)
{
        if (!t)
                return;
        g_strfreev(t->columns);
        if (t->rows)
                g_ptr_array_unref(t->rows);
        g_free(t);
}
